"""The smallest terminal the table is drawn in, and what a screen says below it.

A screen that draws the table (the game, a replay) holds a :class:`SizeNotice` and calls
:func:`fit` when it is mounted and resized: below :data:`MIN_SIZE` the screen takes the
class ``too-small``, which hides everything but the notice (app.tcss), and its keys do
nothing but stop (:func:`allowed`); at the size again, the table is back as it was.
"""

from __future__ import annotations

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from hanamikoji.interfaces.messages import message
from hanamikoji.notation.names import Lang

__all__ = ["MIN_SIZE", "TOO_SMALL", "SizeNotice", "allowed", "fit"]

MIN_SIZE = (80, 24)
"""Columns and lines the table needs."""

TOO_SMALL = "too-small"
"""The class of a screen drawn in a terminal smaller than :data:`MIN_SIZE`."""


class SizeNotice(Static):
    """Says that the terminal is too small, and how big it must be."""

    def __init__(self, lang: Lang) -> None:
        super().__init__(id="too-small")
        self._lang = lang

    def show_size(self, width: int, height: int) -> None:
        least_width, least_height = MIN_SIZE
        said = message(
            "tui_too_small",
            self._lang,
            width=width,
            height=height,
            min_width=least_width,
            min_height=least_height,
        )
        self.update(Text(said, "bold"))


def fit(screen: Screen[None], notice: SizeNotice) -> None:
    """Show ``screen``'s table, or ``notice`` instead while the terminal is too small."""
    width, height = screen.app.size
    small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
    screen.set_class(small, TOO_SMALL)
    if small:
        notice.show_size(width, height)


def allowed(screen: Screen[None], action: str, stops: frozenset[str]) -> bool:
    """Whether ``screen`` takes the key of ``action`` now: any, or only those that stop
    (``stops``) while the terminal is too small."""
    return not screen.has_class(TOO_SMALL) or action in stops
