"""Hidden worlds: a player's view of a round completed into a game, for search.

Everything a player has not seen of the current round (the opponent's hand, Secret and
Trade-off, the removed card and the rest of the deck) is a :class:`World`. Search bots
sample worlds and play on in them: :func:`from_view` builds the game of one, and
:func:`before_round` the game just before the round's deal, to replay the round in a
world. :func:`hidden_from` reads the true world of a game, for tests and benchmarks.

>>> from hanamikoji.core.game import Game
>>> game = Game(seed=3)
>>> world = from_view(game.view(0), hidden_from(game, 0))
>>> world.hand(1) == game.hand(1) and world.position_key() == game.position_key()
True
"""

from __future__ import annotations

from typing import NamedTuple

from hanamikoji.core.cards import FULL_SET, UNIT, counts, from_counts, items, pack
from hanamikoji.core.game import TURNS_PER_ROUND, Game, GameState
from hanamikoji.core.moves import MoveKind
from hanamikoji.core.outcome import NEUTRAL
from hanamikoji.core.rng import HAND_SIZE, Deal
from hanamikoji.core.view import Phase, View

__all__ = ["World", "before_round", "from_view", "hidden_from"]


class World(NamedTuple):
    """What one player has not seen of the current round."""

    opponent_hand: tuple[int, ...]
    opponent_secret: int | None
    """The opponent's Secret card, ``None`` until they use Secret."""
    opponent_tradeoff: tuple[int, ...]
    """The opponent's two Trade-off cards, none until they use Trade-off."""
    removed: int
    deck: tuple[int, ...]
    """The cards still to be drawn, top first."""


def hidden_from(game: Game, player: int) -> World:
    """What ``player`` has not seen of ``game``'s round (full information: not for
    players). Raises ``ValueError`` between rounds or once the game is over."""
    removed = game.removed()
    if removed is None or game.is_over():
        raise ValueError("between rounds or after the game nothing of a round is hidden")
    opponent = 1 - player
    state = game.state()
    secret = items(state.secret[opponent])
    return World(
        game.hand(opponent),
        secret[0] if secret else None,
        items(state.tradeoff[opponent]),
        removed,
        game.deck(),
    )


def before_round(view: View) -> Game:
    """A game waiting for the deal of ``view``'s round (:meth:`Game.deal`), with the
    marker board, the starter and the past rounds the view shows: to replay the round in
    a hidden world, for inference in search. It has no seed, no move stack, and waits for
    a deal again once the round is scored."""
    _require_round(view, "replay")
    game = Game(view.variant, first_player=view.round_starter, external_deals=True)
    _with_past_rounds(game.state(), view).restore(game)
    return game


def from_view(view: View, world: World) -> Game:
    """The current round of ``view`` completed with ``world``: a game with no seed and no
    move stack, which waits for a deal (:attr:`Game.needs_deal`) once this round is
    scored. Raises ``ValueError`` if the world does not fit what the view shows."""
    _require_round(view, "complete")
    _check_fits(view, world)
    me = view.player
    game = Game(view.variant, first_player=view.round_starter, external_deals=True)
    game.deal(_deal(view, world))
    _with_past_rounds(game.state(), view)._replace(
        to_move=view.to_move if view.to_move is not None else view.round_starter,
        turn=TURNS_PER_ROUND - 1 - view.deck_size,
        hands=_by_seat(me, pack(view.hand), pack(world.opponent_hand)),
        secret=_by_seat(me, _packed(view.secret), _packed(world.opponent_secret)),
        tradeoff=_by_seat(me, pack(view.tradeoff), pack(world.opponent_tradeoff)),
        placed=(from_counts(view.placed[0]), from_counts(view.placed[1])),
        used=(_mask(view.used[0]), _mask(view.used[1])),
        pending=view.pending,
    ).restore(game)
    return game


def _require_round(view: View, verb: str) -> None:
    if view.phase in (Phase.OVER, Phase.AWAITING_DEAL):
        raise ValueError(f"a view between rounds or after the game has no round to {verb}")


def _check_fits(view: View, world: World) -> None:
    opp = view.opponent
    if len(world.opponent_hand) != view.hand_sizes[opp]:
        raise ValueError(
            f"the opponent holds {view.hand_sizes[opp]} cards, not {len(world.opponent_hand)}"
        )
    if (world.opponent_secret is not None) != (MoveKind.SECRET in view.used[opp]):
        raise ValueError("the opponent has a Secret card exactly when they used Secret")
    wanted_tradeoff = 2 if MoveKind.TRADE_OFF in view.used[opp] else 0
    if len(world.opponent_tradeoff) != wanted_tradeoff:
        raise ValueError(f"the opponent's Trade-off holds {wanted_tradeoff} cards")
    if len(world.deck) != view.deck_size:
        raise ValueError(f"the deck holds {view.deck_size} cards, not {len(world.deck)}")
    hidden = (
        pack(world.opponent_hand)
        + pack(world.opponent_tradeoff)
        + pack(world.deck)
        + UNIT[world.removed]
        + _packed(world.opponent_secret)
    )
    if counts(hidden) != view.unseen():
        raise ValueError("the hidden world is not the multiset of cards the view has not seen")


def _deal(view: View, world: World) -> Deal:
    """A deal of the round that fits ``world``: its removed card and the deck to come.

    A view does not say which seat was dealt which of the cards dealt or drawn so far,
    and nothing to come depends on it: they are laid out in row order (seat 0's hand,
    seat 1's, the cards drawn), the card drawn this turn last, one its drawer holds.
    """
    drawn = _drawn_now(view, world)
    past = FULL_SET - UNIT[world.removed] - pack(world.deck) - _packed(drawn)
    cards = items(past) + (() if drawn is None else (drawn,))
    hands = (cards[:HAND_SIZE], cards[HAND_SIZE : 2 * HAND_SIZE])
    return Deal(world.removed, hands, cards[2 * HAND_SIZE :] + world.deck)


def _drawn_now(view: View, world: World) -> int | None:
    """The card the player to move drew this turn, or one they may have drawn; ``None``
    while an offer waits for its answer (its offerer drew)."""
    if view.pending is not None or view.to_move is None:
        return None
    if view.to_move == view.player:
        return view.drawn
    return max(world.opponent_hand, default=None)


def _with_past_rounds(state: GameState, view: View) -> GameState:
    """``state`` at the start of ``view``'s round: its number, starter, marker board and
    the rounds before it."""
    return state._replace(
        round=view.round,
        starter=view.round_starter,
        to_move=view.round_starter,
        favor=tuple(NEUTRAL if owner is None else owner for owner in view.favor),
        summaries=view.rounds,
    )


def _by_seat(me: int, mine: int, theirs: int) -> tuple[int, int]:
    return (mine, theirs) if me == 0 else (theirs, mine)


def _packed(card: int | None) -> int:
    return 0 if card is None else UNIT[card]


def _mask(kinds: frozenset[MoveKind]) -> int:
    return sum(1 << kind for kind in kinds)
