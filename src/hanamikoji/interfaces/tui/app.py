"""The full-screen app: ``hanamikoji play``, ``replay`` and ``puzzle`` on a terminal.

:func:`play_in_app` runs a game (and its rematches) and :func:`replay_in_app` a
recorded game; each returns the exit status of docs/cli.md: 0 when done, 3 when an
engine forfeited the last game, 130 after Ctrl-C (the record is saved first with
``--save``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from hanamikoji.core import Game
from hanamikoji.interfaces.exits import EXIT_INTERRUPTED, EXIT_OK
from hanamikoji.interfaces.puzzling import PuzzleRun
from hanamikoji.interfaces.table import Table
from hanamikoji.interfaces.tui.play import PlayScreen
from hanamikoji.interfaces.tui.puzzle import PuzzleScreen
from hanamikoji.interfaces.tui.replay import ReplayScreen
from hanamikoji.notation.names import Deck, Lang

__all__ = [
    "TableApp",
    "play_app",
    "play_in_app",
    "puzzles_app",
    "puzzles_in_app",
    "replay_app",
    "replay_in_app",
]


class TableApp(App[int]):
    """The app around its first screen; its result is the exit status."""

    CSS_PATH = "app.tcss"
    TITLE = "Hanamikoji"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", show=False, priority=True),
    ]

    def __init__(self, first: Callable[[], Screen[None]]) -> None:
        super().__init__()
        self._first = first

    def on_mount(self) -> None:
        self.push_screen(self._first(), lambda _: self.exit(EXIT_OK))

    def action_interrupt(self) -> None:
        """Ctrl-C: stop at once; a game with ``--save`` keeps its record."""
        for screen in self.screen_stack:
            if isinstance(screen, PlayScreen):
                screen.save_now()
        self.exit(EXIT_INTERRUPTED, return_code=EXIT_INTERRUPTED)


def play_app(table: Table) -> TableApp:
    """The app for a game at ``table``."""
    return TableApp(lambda: PlayScreen(table))


def puzzles_app(run: PuzzleRun, lang: Lang, *, deck: Deck = "boxed") -> TableApp:
    """The app solving the puzzles of ``run``."""
    return TableApp(lambda: PuzzleScreen(run, lang, deck))


def replay_app(
    game: Game,
    labels: tuple[str, str],
    lang: Lang,
    header: Sequence[str] = (),
    *,
    deck: Deck = "boxed",
) -> TableApp:
    """The app stepping through a recorded game."""
    return TableApp(lambda: ReplayScreen(game, labels, lang, header, deck=deck))


def _status(app: TableApp) -> int:
    result = app.run()
    return EXIT_OK if result is None else result


def play_in_app(table: Table) -> int:
    """Play at ``table`` full screen; the exit status."""
    return _status(play_app(table))


def puzzles_in_app(run: PuzzleRun, lang: Lang, *, deck: Deck = "boxed") -> int:
    """Solve the puzzles of ``run`` full screen; the exit status."""
    return _status(puzzles_app(run, lang, deck=deck))


def replay_in_app(
    game: Game,
    labels: tuple[str, str],
    lang: Lang,
    header: Sequence[str] = (),
    *,
    deck: Deck = "boxed",
) -> int:
    """Replay ``game`` full screen; the exit status."""
    return _status(replay_app(game, labels, lang, header, deck=deck))
