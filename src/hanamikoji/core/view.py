"""What one player may know, and the full reveal once the game is over.

A :class:`View` is built by :meth:`Game.view <hanamikoji.core.game.Game.view>` and
holds nothing that player may not know (docs/rules.md, "What each player knows").
Bots and interfaces work from views only; a view can list its player's legal moves.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hanamikoji.core.cards import FULL_SET, counts, from_counts, pack
from hanamikoji.core.moves import LegalMoves, Move, MoveKind, response_moves, turn_moves
from hanamikoji.core.outcome import Outcome, RoundSummary, favor_tally
from hanamikoji.core.rng import Deal
from hanamikoji.core.variants import Variant

__all__ = ["LogEntry", "Phase", "Reveal", "RoundReveal", "View"]


class Phase(enum.Enum):
    """What the game waits for."""

    TURN = "turn"
    GIFT_RESPONSE = "gift-response"
    COMPETITION_RESPONSE = "competition-response"
    AWAITING_DEAL = "awaiting-deal"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One decision as a given player saw it (the opponent's Secret and Trade-off hidden)."""

    round: int
    turn: int
    seat: int
    move: Move


@dataclass(frozen=True, slots=True)
class RoundReveal:
    """Everything hidden in one round, shown once the game is over."""

    round: int
    deal: Deal
    secrets: tuple[int | None, int | None]
    tradeoffs: tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Reveal:
    """The whole game's hidden information, round by round, and every decision in full."""

    rounds: tuple[RoundReveal, ...]
    moves: tuple[LogEntry, ...]


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of a game. Card multisets are per-kind count tuples
    (index = geisha) unless named as a sorted card tuple."""

    player: int
    variant: Variant
    round: int
    round_starter: int
    to_move: int | None
    phase: Phase
    favor: tuple[int | None, ...]
    hand: tuple[int, ...]
    drawn: int | None
    secret: int | None
    tradeoff: tuple[int, ...]
    placed: tuple[tuple[int, ...], tuple[int, ...]]
    used: tuple[frozenset[MoveKind], frozenset[MoveKind]]
    hand_sizes: tuple[int, int]
    deck_size: int
    pending: Move | None
    log: tuple[LogEntry, ...]
    rounds: tuple[RoundSummary, ...]
    outcome: Outcome | None
    reveal: Reveal | None

    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def my_turn(self) -> bool:
        """Whether this player must decide now."""
        return self.to_move == self.player

    @property
    def legal_moves(self) -> LegalMoves:
        """This player's legal decisions now (empty when it is not their decision), as a
        :class:`~hanamikoji.core.moves.LegalMoves` collection. Calling it,
        ``view.legal_moves()``, is deprecated."""
        return LegalMoves(self.generate_legal_moves())

    def generate_legal_moves(self) -> tuple[Move, ...]:
        """This player's legal decisions now as a plain tuple (:attr:`legal_moves`
        without the collection, for search loops)."""
        if not self.my_turn:
            return ()
        if self.pending is not None:
            return response_moves(self.pending)
        used = sum(1 << kind for kind in self.used[self.player])
        return turn_moves(pack(self.hand), used)

    def charm(self, seat: int) -> int:
        """Charm of the geishas whose markers are on ``seat``'s side."""
        return favor_tally(self.favor)[0][seat]

    def geishas(self, seat: int) -> int:
        """How many geishas' markers are on ``seat``'s side."""
        return favor_tally(self.favor)[1][seat]

    def unseen(self) -> tuple[int, ...]:
        """Per-kind counts of the cards this player has not seen this round: the opponent's
        hand, Secret and Trade-off, the removed card and the deck, as one multiset."""
        seen = pack(self.hand) + pack(self.tradeoff)
        if self.secret is not None:
            seen += pack((self.secret,))
        seen += from_counts(self.placed[0]) + from_counts(self.placed[1])
        if self.pending is not None:
            seen += self.pending.packed
        return counts(FULL_SET - seen)

    def used_by(self, seat: int, kind: MoveKind) -> bool:
        return kind in self.used[seat]


HIDDEN_KINDS = (MoveKind.SECRET, MoveKind.TRADE_OFF)
