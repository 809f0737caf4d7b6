"""What one player may know, the full reveal once the game is over, and the table
drawn as text.

A :class:`View` is built by :meth:`Game.view <hanamikoji.core.game.Game.view>` and
holds nothing that player may not know (docs/rules.md, "What each player knows").
Bots and interfaces work from views only; a view can list its player's legal moves.
``print(view)`` draws the table as that player sees it (:func:`draw_table`, which also
draws ``print(game)``: the public table only).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hanamikoji.core.cards import FULL_SET, GEISHAS, Cards, counts, from_counts, letters, pack
from hanamikoji.core.moves import ACTIONS, LegalMoves, Move, MoveKind, response_moves, turn_moves
from hanamikoji.core.outcome import Outcome, RoundSummary, favor_tally
from hanamikoji.core.rng import DECK_SIZE, Deal
from hanamikoji.core.seats import seat_number
from hanamikoji.core.variants import Variant

__all__ = ["LogEntry", "Phase", "Reveal", "RoundReveal", "View", "draw_table"]


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
    def hand_cards(self) -> Cards:
        """This player's hand as :class:`~hanamikoji.core.cards.Cards`, printable as its
        letters (``print(view.hand_cards)``: ``ADEFFGG``); :attr:`hand` holds the same
        cards as item indices."""
        return Cards(self.hand)

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

    def __str__(self) -> str:
        """The table as this player sees it, their own hidden cards included."""
        return draw_table(self, (self,))

    def __repr__(self) -> str:
        return (
            f"<View of seat {self.player}: {self.variant.name} round {self.round}, "
            f"{_to_move_words(self)}, hand {Cards(self.hand) or '-'}>"
        )


HIDDEN_KINDS = (MoveKind.SECRET, MoveKind.TRADE_OFF)


# -- the table as text ----------------------------------------------------------------------

_SIDE = 8  # the width of a side's column: "Player 1", and at most 5 cards of a geisha


def draw_table(public: View, private: tuple[View, ...] = ()) -> str:
    """The table as text, in English: the header (variant, round, turn, who decides),
    the seven geishas with their markers (``<`` on Player 1's side, ``>`` on Player
    2's) and each side's face-up cards, then each seat's charm, geishas, hand size and
    used actions, and any offer awaiting its answer (once the game is over, the last
    round's cards as scored, Secrets included). Only what both players see is
    drawn from ``public``; the hand, Secret and Trade-off of each view in ``private``
    are added after, while a round is played. ``print(view)`` draws
    ``draw_table(view, (view,))`` and ``print(game)`` the public table alone.
    """
    heading = f"{_player(0):>{_SIDE}}   {'geisha (charm)':<14}   {_player(1)}"
    lines = [_headline(public), heading]
    # Once the game is over, the last round's cards as they were scored (Secrets shown).
    over = public.outcome is not None and public.rounds
    placed = public.rounds[-1].sides if over else public.placed
    lines.extend(_geisha_row(placed, public.favor, kind) for kind in range(len(GEISHAS)))
    lines.extend(_seat_line(public, seat) for seat in (0, 1))
    if public.pending is not None and public.to_move is not None:
        offerer = _player(1 - public.to_move)
        answers = ", ".join(move.text() for move in response_moves(public.pending))
        lines.append(f"{offerer} offers {public.pending.text()}; the answers: {answers}")
    lines.extend(_hidden_line(view) for view in private if view.to_move is not None)
    return "\n".join(lines)


def _player(seat: int) -> str:
    return f"Player {seat_number(seat)}"


def _to_move_words(view: View) -> str:
    if view.outcome is not None:
        return "over"
    if view.to_move is None:
        return "awaiting a deal"
    return f"seat {view.to_move} to move"


def _headline(view: View) -> str:
    outcome = view.outcome
    if outcome is not None:
        winner = "a draw" if outcome.winner is None else f"{_player(outcome.winner)} wins"
        result = f"{outcome.result()}, {outcome.termination.value}"
        return f"{view.variant.name}, over after round {outcome.rounds}: {winner} ({result})"
    if view.to_move is None:
        return f"{view.variant.name}, round {view.round}: awaiting the deal"
    turn = DECK_SIZE - view.deck_size
    mover = f"{_player(view.to_move)} (seat {view.to_move})"
    verb = "to move" if view.pending is None else "to answer"
    return (
        f"{view.variant.name}, round {view.round}, turn {turn} of {DECK_SIZE}, "
        f"deck {view.deck_size}: {mover} {verb}"
    )


def _geisha_row(
    placed: tuple[tuple[int, ...], tuple[int, ...]], markers: tuple[int | None, ...], kind: int
) -> str:
    geisha = GEISHAS[kind]
    favor = markers[kind]
    left, right = (letters([kind] * placed[seat][kind]) or "-" for seat in (0, 1))
    name = f"{geisha.letter} {geisha.name} ({geisha.charm})"
    return (
        f"{left:>{_SIDE}} {'<' if favor == 0 else ' '} {name:<14} "
        f"{'>' if favor == 1 else ' '} {right}"
    )


def _seat_line(view: View, seat: int) -> str:
    tally = f"{_player(seat)}: charm {view.charm(seat)}, geishas {view.geishas(seat)}"
    if view.to_move is None:  # over, or between rounds: no hand, no actions
        return tally
    used = [kind.label for kind in ACTIONS if kind in view.used[seat]]
    return f"{tally}, hand {view.hand_sizes[seat]}, used {', '.join(used) or 'none'}"


def _hidden_line(view: View) -> str:
    parts = [f"hand {Cards(view.hand) or '-'}"]
    if view.drawn is not None:
        parts.append(f"drew {Cards((view.drawn,))}")
    if view.secret is not None:
        parts.append(f"Secret {Cards((view.secret,))}")
    if view.tradeoff:
        parts.append(f"Trade-off {Cards(view.tradeoff)}")
    return f"{_player(view.player)} (seat {view.player}) holds: {', '.join(parts)}"
