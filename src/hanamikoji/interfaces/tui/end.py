"""The end of a game: who won and why, every round's scoring, everything that was
hidden; then a rematch, the record saved, a review of the game, or quit."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from hanamikoji.interfaces.line.render import render_reveal
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.table import Table, default_record_name
from hanamikoji.interfaces.tui.board import render_scoring
from hanamikoji.interfaces.tui.flow import FlowBar, pieces
from hanamikoji.interfaces.tui.keys import binding
from hanamikoji.interfaces.tui.modals import SaveScreen
from hanamikoji.interfaces.tui.replay import ReplayScreen
from hanamikoji.interfaces.words import forfeit_lines, outcome_text

__all__ = ["EndScreen", "render_end"]


def render_end(table: Table) -> RenderableType:
    """The outcome (or the forfeit), each round's scoring and, after a game played to
    its end, the full reveal."""
    lang, deck = table.settings.lang, table.settings.deck
    game = table.game
    parts: list[RenderableType] = [Text(message("game_over", lang), "bold underline")]
    if table.forfeit is not None:
        for line, style in forfeit_lines(table.forfeit, table.labels, lang):
            parts.append(Text(line, style))
    outcome = game.outcome
    if outcome is not None:
        parts.append(Text(outcome_text(outcome, table.labels, lang), "bold green"))
    for summary in game.summaries():
        parts.append(render_scoring(summary, table.labels, None, lang, deck=deck))
    if outcome is not None:
        reveal = render_reveal(game.reveal(), game.summaries(), table.labels, lang, deck=deck)
        parts.append(reveal)
    return Group(*parts)


class EndScreen(Screen[str]):
    """The end of a game; ``s`` saves the record and ``v`` reviews the game here, and
    the screen is dismissed with what comes next: ``rematch`` or ``quit``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("r", "next('rematch')"),
        binding("s", "next('save')"),
        binding("v", "next('review')"),
        binding("q,escape", "next('quit')"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self._table = table

    def compose(self) -> ComposeResult:
        table = self._table
        lang = table.settings.lang
        yield FlowBar(pieces(message("tui_end_keys", lang)), style="bold reverse", id="keys")
        with VerticalScroll(id="end"):
            path = table.settings.save_path
            saved = Static(message("saved", lang, path=str(path)) if path else "", id="saved")
            saved.display = path is not None
            yield saved
            yield Static(render_end(table))

    def action_next(self, what: str) -> None:
        if what == "save":
            self._save()
        elif what == "review":
            table = self._table
            settings = table.settings
            review = ReplayScreen(table.game, table.labels, settings.lang, deck=settings.deck)
            self.app.push_screen(review)
        else:
            self.dismiss(what)

    def _save(self) -> None:
        table = self._table
        lang = table.settings.lang

        def saved(path: Path | None) -> None:
            if path is not None:
                shown = self.query_one("#saved", Static)
                shown.update(message("saved", lang, path=str(path)))
                shown.display = True
                self.query_one("#end", VerticalScroll).scroll_home(animate=False)

        default = str(table.settings.save_path or default_record_name())
        self.app.push_screen(SaveScreen(table.save, default, lang), saved)
