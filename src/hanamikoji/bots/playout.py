"""A fast playout policy for search bots, on a sampled (fully known) world.

Random playouts judge a decision by what careless players would make of it: they give
away the cards that decide a geisha and take whatever is offered. This policy looks at a
handful of random candidates and keeps the one a static estimate likes best. The
estimate scores each geisha by where her cards stand: the lead in cards that will score,
a fraction of the cards still in each hand (of a player's 10 cards in a round, about half
end on their own side and a third on the other), and the marker, which a tie leaves
where it is.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, MoveKind

__all__ = ["HeuristicPlayout", "greedy_response"]

HAND_SHARE = 0.25
"""Expected net lead a card in hand is worth (1/2 kept minus 1/3 given, roughly)."""
MARKER_EDGE = 0.4
"""The holder of a geisha's marker wins her ties: worth part of a card."""
SHARPNESS = 1.2


def _worth(kind: int, lead: float) -> float:
    return CHARMS[kind] * math.tanh(SHARPNESS * lead)


class _Position:
    """One player's estimate of the round in a known world."""

    __slots__ = ("base", "mine_hand", "theirs_hand")

    def __init__(self, game: Game, seat: int) -> None:
        sides = game.scoring_sides()
        favor = game.favor()
        mine, theirs = sides[seat], sides[1 - seat]
        my_hand = [0] * ITEM_COUNT
        their_hand = [0] * ITEM_COUNT
        for card in game.hand(seat):
            my_hand[card] += 1
        for card in game.hand(1 - seat):
            their_hand[card] += 1
        self.mine_hand = my_hand
        self.theirs_hand = their_hand
        self.base = [
            mine[k]
            - theirs[k]
            + HAND_SHARE * (my_hand[k] - their_hand[k])
            + (0.0 if favor[k] is None else MARKER_EDGE if favor[k] == seat else -MARKER_EDGE)
            for k in range(ITEM_COUNT)
        ]

    def gain(self, committed: dict[int, int], spent: Sequence[int]) -> float:
        """Change of the estimate when ``committed`` (kind -> net cards to this player's
        side) is placed and ``spent`` leaves this player's hand."""
        change: dict[int, float] = {k: float(v) for k, v in committed.items()}
        for card in spent:
            change[card] = change.get(card, 0.0) - HAND_SHARE
        total = 0.0
        for kind, delta in change.items():
            lead = self.base[kind]
            total += _worth(kind, lead + delta) - _worth(kind, lead)
        return total


def _split(offer: Sequence[int], taken: Sequence[int]) -> dict[int, int]:
    """Net cards to the taker's side: +1 per card taken, -1 per card left to the offerer."""
    net: dict[int, int] = {}
    for card in offer:
        net[card] = net.get(card, 0) - 1
    for card in taken:
        net[card] = net.get(card, 0) + 2
    return net


def greedy_response(game: Game, legal: Sequence[Move]) -> Move:
    """The answer to the pending offer the responder's estimate likes best."""
    offer = game.pending
    me = game.to_move
    assert offer is not None and me is not None
    position = _Position(game, me)
    return max(legal, key=lambda move: position.gain(_split(offer.cards, move.cards), ()))


def _offer_value(position: _Position, offer: Move) -> float:
    """The offerer's gain when the opponent answers the offer to suit themselves."""
    if offer.kind == MoveKind.GIFT:
        options: list[tuple[int, ...]] = [(card,) for card in set(offer.cards)]
    else:
        options = [pair for pair in set(offer.pairs) if pair]
    # The opponent takes what hurts the offerer most, by the offerer's own estimate.
    return min(
        position.gain({k: -v for k, v in _split(offer.cards, option).items()}, offer.cards)
        for option in options
    )


class HeuristicPlayout:
    """Choose among ``samples`` random legal decisions by the static estimate; with
    chance ``noise`` play a random one."""

    def __init__(self, samples: int = 6, noise: float = 0.1) -> None:
        self.samples = samples
        self.noise = noise

    def choose(self, game: Game, legal: Sequence[Move], rng: random.Random) -> Move:
        if len(legal) == 1:
            return legal[0]
        if game.pending is not None:
            return greedy_response(game, legal)
        if rng.random() < self.noise:
            return legal[rng.randrange(len(legal))]
        mover = game.to_move
        assert mover is not None
        position = _Position(game, mover)
        candidates = legal if len(legal) <= self.samples else rng.sample(legal, self.samples)
        best = candidates[0]
        best_value = -1e9
        for move in candidates:
            kind = move.kind
            if kind == MoveKind.SECRET:
                value = position.gain({move.cards[0]: 1}, move.cards)
            elif kind == MoveKind.TRADE_OFF:
                value = position.gain({}, move.cards)
            else:
                value = _offer_value(position, move)
            if value > best_value:
                best, best_value = move, value
        return best
