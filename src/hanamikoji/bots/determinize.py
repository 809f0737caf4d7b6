"""Sampling the hidden world behind a view, for search bots.

Everything a player has not seen this round (the opponent's hand, Secret and
Trade-off, the removed card and the rest of the deck) is one multiset,
:meth:`View.unseen`. With no model of the opponent, every arrangement of it over
those places is equally likely, so a uniform shuffle samples the posterior exactly.
"""

from __future__ import annotations

import random

from hanamikoji.core.game import Game
from hanamikoji.core.moves import MoveKind
from hanamikoji.core.view import View
from hanamikoji.core.worlds import World, from_view

__all__ = ["World", "determinize", "sample_world"]


def sample_world(view: View, rng: random.Random) -> World:
    """One uniformly sampled hidden world consistent with ``view``."""
    unseen = [kind for kind, count in enumerate(view.unseen()) for _ in range(count)]
    rng.shuffle(unseen)
    opponent = view.opponent
    hand_size = view.hand_sizes[opponent]
    hand = tuple(sorted(unseen[:hand_size]))
    at = hand_size
    secret: int | None = None
    if MoveKind.SECRET in view.used[opponent]:
        secret = unseen[at]
        at += 1
    tradeoff: tuple[int, ...] = ()
    if MoveKind.TRADE_OFF in view.used[opponent]:
        tradeoff = tuple(sorted(unseen[at : at + 2]))
        at += 2
    removed = unseen[at]
    deck = tuple(unseen[at + 1 :])
    return World(hand, secret, tradeoff, removed, deck)


def determinize(view: View, rng: random.Random) -> Game:
    """A game completing ``view``'s round with a uniformly sampled hidden world."""
    return from_view(view, sample_world(view, rng))
