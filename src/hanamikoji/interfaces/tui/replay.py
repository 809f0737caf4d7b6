"""A recorded game, stepped decision by decision with every card shown.

Step ``k`` is the position after the first ``k`` decisions: both hands, Secrets and
Trade-offs face up, the geisha row, the decision just played in words; a decision that
ended a round shows that round's scoring instead of the row, and the last one the
outcome. ``→``/``←`` step, ``Home``/``End`` jump, ``PageUp``/``PageDown`` go by round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from hanamikoji.core import Game, LogEntry
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.tui.board import (
    Side,
    render_row,
    render_scoring,
    render_side,
    seat_headings,
    side_of,
)
from hanamikoji.interfaces.tui.cards import letters_with_glyphs
from hanamikoji.interfaces.tui.flow import FlowBar, pieces
from hanamikoji.interfaces.tui.hand import ActionBar
from hanamikoji.interfaces.tui.keys import binding
from hanamikoji.interfaces.tui.panels import render_log
from hanamikoji.interfaces.tui.size import SizeNotice, allowed, fit
from hanamikoji.interfaces.words import (
    cards_inline,
    describe_decision,
    outcome_text,
)
from hanamikoji.notation.names import Deck, Lang

__all__ = ["ReplayScreen", "Stepper"]


class Stepper:
    """A game's positions, decision by decision (``game`` itself is not changed)."""

    def __init__(self, game: Game) -> None:
        self.entries: tuple[LogEntry, ...] = game.log()
        self.moves = tuple(game.move_stack)
        self.final = game
        self.game = game.copy()
        while self.game.move_stack:
            self.game.pop()

    @property
    def step(self) -> int:
        return len(self.game.move_stack)

    @property
    def total(self) -> int:
        return len(self.moves)

    def go(self, step: int) -> None:
        """Move to position ``step`` (clamped to the game)."""
        step = max(0, min(self.total, step))
        while self.step > step:
            self.game.pop()
        while self.step < step:
            self.game.push(self.moves[self.step])

    def round_edge(self, direction: int) -> int:
        """The step that ends the current round (``direction`` 1) or the previous one
        (-1), or the game's first or last step."""
        step = self.step
        if direction > 0:
            later = [i + 1 for i in range(step, self.total) if self._ends_round(i)]
            return later[0] if later else self.total
        earlier = [i + 1 for i in range(step - 1) if self._ends_round(i)]
        return earlier[-1] if earlier else 0

    def _ends_round(self, index: int) -> bool:
        following = self.entries[index + 1] if index + 1 < self.total else None
        return following is None or following.round != self.entries[index].round

    def scored_here(self) -> int | None:
        """The round the last decision played ended, if it ended one."""
        if self.step == 0 or not self._ends_round(self.step - 1):
            return None
        number = self.entries[self.step - 1].round
        return number if number <= len(self.game.summaries()) else None


class ReplayScreen(Screen[None]):
    """The replay; q or Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("right,l,space", "step(1)"),
        binding("left,h,backspace", "step(-1)"),
        binding("home", "jump(0)"),
        binding("end", "jump(-1)"),
        binding("pagedown", "by_round(1)"),
        binding("pageup", "by_round(-1)"),
        binding("q,escape", "close"),
    ]

    def __init__(
        self,
        game: Game,
        labels: tuple[str, str],
        lang: Lang,
        header: Sequence[str] = (),
        *,
        deck: Deck = "boxed",
    ) -> None:
        super().__init__()
        self.stepper = Stepper(game)
        self.labels = labels
        self.lang = lang
        self.deck: Deck = deck
        self.header = tuple(header)

    def compose(self) -> ComposeResult:
        yield SizeNotice(self.lang)
        yield FlowBar(style="bold reverse", id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="table", can_focus=False):
                yield Static(id="top-side")
                yield ActionBar(id="top-markers")
                yield Static(id="row")
                yield Static(id="bottom-side")
                yield ActionBar(id="bottom-markers")
            with VerticalScroll(id="log-scroll", can_focus=False):
                yield Static(id="log")
        yield Static(id="prompt")
        keys = pieces(message("tui_replay_keys", self.lang))
        yield FlowBar(keys, style="bold reverse", id="keys")

    def on_mount(self) -> None:
        self.on_resize()
        self.show()

    def on_resize(self) -> None:
        fit(self, self.query_one(SizeNotice))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool:
        return allowed(self, action, frozenset({"close"}))

    def action_step(self, delta: int) -> None:
        self.stepper.go(self.stepper.step + delta)
        self.show()

    def action_jump(self, step: int) -> None:
        self.stepper.go(self.stepper.total if step < 0 else step)
        self.show()

    def action_by_round(self, direction: int) -> None:
        self.stepper.go(self.stepper.round_edge(direction))
        self.show()

    def action_close(self) -> None:
        self.dismiss(None)

    # -- drawing ----------------------------------------------------------------------

    def show(self) -> None:
        stepper, lang, deck = self.stepper, self.lang, self.deck
        game = stepper.game
        step = message("tui_replay_step", lang, step=stepper.step, total=stepper.total)
        title = message("board_title", lang, round=game.round, variant=game.variant.name)
        status = [Text(part) for part in (*self.header, title, step) if part]
        self.query_one("#status", FlowBar).show_parts(status)
        views = (game.view(0), game.view(1))
        sides = (side_of(views[0], 0, self.labels[0]), side_of(views[1], 1, self.labels[1]))
        for place, seat in (("top", 1), ("bottom", 0)):
            side = sides[seat]
            shown = render_side(side, lang)
            shown.append("\n").append_text(letters_with_glyphs(side.hand, deck))
            self.query_one(f"#{place}-side", Static).update(shown)
            self.query_one(f"#{place}-markers", ActionBar).show_side(side, lang, False, deck)
        self.query_one("#row", Static).update(self._row(sides))
        self.query_one("#prompt", Static).update(self._words())
        current = stepper.step - 1 if stepper.step else None
        entries = stepper.entries[: stepper.step]
        log = render_log(entries, game.summaries(), self.labels, None, lang, current, deck=deck)
        self.query_one("#log", Static).update(log)
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False)

    def _row(self, sides: tuple[Side, Side]) -> RenderableType:
        stepper = self.stepper
        scored = stepper.scored_here()
        if scored is not None:
            summary = stepper.game.summaries()[scored - 1]
            return render_scoring(summary, self.labels, None, self.lang, deck=self.deck)
        headers = seat_headings(1, self.lang)
        return render_row(stepper.game.favor(), sides[1], sides[0], headers, deck=self.deck)

    def _words(self) -> Text:
        stepper, lang, deck = self.stepper, self.lang, self.deck
        game = stepper.game
        lines: list[Text] = []
        if stepper.step:
            entry = stepper.entries[stepper.step - 1]
            described = describe_decision(entry, self.labels, None, lang, deck=deck)
            lines.append(Text(f"{entry.turn}. {entry.move}  {described}", "bold"))
        else:
            starter = self.labels[game.round_starter]
            lines.append(Text(message("round_start", lang, round=1, player=starter), "bold"))
        deals = game.deals()
        if deals and not game.is_over():
            removed = cards_inline((deals[-1].removed,), lang, deck=deck)
            lines.append(Text(message("removed_card", lang, card=removed), "dim"))
        outcome = game.outcome
        if outcome is not None:
            lines.append(Text(outcome_text(outcome, self.labels, lang), "bold green"))
        elif stepper.step == stepper.total and stepper.total:
            lines.append(Text(message("unfinished", lang, moves=stepper.total), "bold"))
        return Text("\n").join(lines)
