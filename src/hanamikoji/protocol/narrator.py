"""The events an engine must be sent, worked out from one seat's views only.

The GUI side of the protocol never needs the :class:`~hanamikoji.core.game.Game`:
given the successive views of one seat, a :class:`Narrator` says what happened since
the last one, in protocol events, and nothing that seat may not know. Feed it a view
at every decision of the seat at least (a :class:`~hanamikoji.bots.base.Bot` gets
one), because a seat's own draws show only in the view of its turn.

>>> from hanamikoji import Game
>>> from hanamikoji.protocol.messages import format_event
>>> game = Game(seed=7)
>>> narrator = Narrator(game.view(1))
>>> narrator.new_game().line()
'newgame variant classic seat 2 first 1'
>>> _ = game.push_text("S:G")
>>> [format_event(event) for event in narrator.narrate(game.view(1))]
['deal round 1 starter 1 hand BCDFFG', 'move 1 S', 'draw C']
"""

from __future__ import annotations

from hanamikoji.core.cards import items, pack
from hanamikoji.core.seats import seat_number
from hanamikoji.core.view import LogEntry, Phase, View
from hanamikoji.protocol.messages import (
    DealEvent,
    DrawEvent,
    Event,
    GameOverEvent,
    MoveEvent,
    NewGame,
    ScoreEvent,
)

__all__ = ["NarrationError", "Narrator"]


class NarrationError(ValueError):
    """A view that cannot follow the views narrated before (another game, or a gap)."""


class Narrator:
    """Turns one seat's views of one game into protocol events, each told once."""

    def __init__(self, view: View) -> None:
        self.seat = view.player
        self.variant = view.variant
        self.first = view.rounds[0].starter if view.rounds else view.round_starter
        self._told: list[LogEntry] = []
        self._dealt_round = 0
        self._scored_rounds = 0
        self._last_draw: tuple[int, int] | None = None
        self.finished = False

    def new_game(self) -> NewGame:
        return NewGame(self.variant.name, self.seat, self.first)

    def shown(self, entry: LogEntry) -> LogEntry:
        """A log entry as this seat may see it (a finished game's view logs everything)."""
        if entry.seat == self.seat or entry.move.public() is entry.move:
            return entry
        return LogEntry(entry.round, entry.turn, entry.seat, entry.move.public())

    def follows(self, view: View) -> bool:
        """Whether ``view`` can be the same game as the views narrated so far: same seat
        and variant, and a log that extends the one already told."""
        if self.finished or view.player != self.seat or view.variant != self.variant:
            return False
        told = len(self._told)
        if len(view.log) < told:
            return False
        return all(self.shown(e) == t for e, t in zip(view.log[:told], self._told, strict=True))

    @property
    def told_moves(self) -> int:
        """How many decisions have been told."""
        return len(self._told)

    def narrate(self, view: View) -> list[Event]:
        """The events since the last narrated view, in order. Raises
        :class:`NarrationError` if ``view`` does not follow them."""
        if not self.follows(view):
            raise NarrationError("this view does not continue the game narrated so far")
        events: list[Event] = []
        for entry in view.log[len(self._told) :]:
            self._enter_round(entry.round, view, events)
            shown = self.shown(entry)
            events.append(MoveEvent(shown.seat, shown.move))
            self._told.append(shown)
        if view.phase == Phase.OVER:
            self._score_up_to(len(view.rounds), view, events)
            outcome = view.outcome
            assert outcome is not None
            events.append(GameOverEvent(outcome.result(), outcome.termination.value))
            self.finished = True
        elif view.phase == Phase.AWAITING_DEAL:
            self._score_up_to(len(view.rounds), view, events)
        else:
            self._enter_round(view.round, view, events)
            draw_key = (view.round, view.deck_size)
            if view.drawn is not None and self._last_draw != draw_key:
                events.append(DrawEvent(view.drawn))
                self._last_draw = draw_key
        return events

    def stop(self, result: str, reason: str) -> GameOverEvent:
        """The ``gameover`` of a game the GUI ends outside the rules (a forfeit)."""
        self.finished = True
        return GameOverEvent(result, reason)

    def _score_up_to(self, rounds: int, view: View, events: list[Event]) -> None:
        for number in range(self._scored_rounds + 1, rounds + 1):
            if number > len(view.rounds):
                raise NarrationError(f"round {number} has not been scored in this view")
            summary = view.rounds[number - 1]
            events.append(ScoreEvent(number, summary.secrets, summary.favor))
        self._scored_rounds = max(self._scored_rounds, rounds)

    def _enter_round(self, number: int, view: View, events: list[Event]) -> None:
        if number == self._dealt_round:
            return
        if number < self._dealt_round:
            raise NarrationError(f"round {number} is over")
        self._score_up_to(number - 1, view, events)
        playing = view.phase not in (Phase.OVER, Phase.AWAITING_DEAL)
        if not playing or number != view.round:
            seat = seat_number(self.seat)
            raise NarrationError(f"no view of seat {seat} was narrated in round {number}")
        # The first view of a round comes before any action of this seat in it (a seat
        # acts on its own turn, and every turn is a decision it is asked for), so the
        # dealt hand is the hand now without this turn's draw.
        acted = [
            e
            for e in view.log
            if e.round == number and e.seat == self.seat and e.move.kind.is_action
        ]
        if acted:
            raise NarrationError(
                f"seat {seat_number(self.seat)} acted in round {number} "
                "before its first narrated view"
            )
        hand = pack(view.hand)
        if view.drawn is not None:
            hand -= pack((view.drawn,))
        events.append(DealEvent(number, view.round_starter, items(hand)))
        self._dealt_round = number
