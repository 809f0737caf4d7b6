"""Lines of pieces that are never broken: the action markers, the key bar, the status
line. A :class:`FlowBar` puts its pieces on as many lines as its width needs, so that a
long language or a narrow terminal wraps between two pieces instead of cutting the
last ones off.

>>> line, spans = flow([Text("S Secret"), Text("T Trade-off")], 20, "  ")
>>> print(line.plain); spans
S Secret
T Trade-off
[(0, 0, 8), (1, 0, 11)]
>>> print(flow(pieces("←/→ step · Q close"), 80, " · ")[0].plain)
←/→ step · Q close
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

__all__ = ["SEPARATOR", "FlowBar", "Span", "flow", "pieces"]

SEPARATOR = " · "
"""What a key bar or a status line puts between two of its pieces, in every language."""

Span = tuple[int, int, int]
"""A piece's line and its first and past-last cell on it."""


def pieces(text: str, style: str = "") -> list[Text]:
    """A key bar's or status line's sentence cut at its separators."""
    return [Text(piece, style) for piece in text.split(SEPARATOR)]


def flow(parts: Sequence[Text], width: int | None, gap: str) -> tuple[Text, list[Span]]:
    """``parts`` on as many lines of ``width`` cells as they need (one line for
    ``None``), ``gap`` between two on a line, never breaking one (a piece wider than
    the width has a line of its own); and each piece's span."""
    lines: list[Text] = [Text()]
    spans: list[Span] = []
    for part in parts:
        line = lines[-1]
        wanted = line.cell_len + len(gap) + part.cell_len
        if line.cell_len and width is not None and wanted > width:
            line = Text()
            lines.append(line)
        if line.cell_len:
            line.append(gap)
        start = line.cell_len
        line.append_text(part)
        spans.append((len(lines) - 1, start, line.cell_len))
    return Text("\n").join(lines), spans


class FlowBar(Static):
    """Pieces on as many lines as the width needs (give it ``height: auto``), laid out
    again whenever the width changes; ``style`` is the whole bar's."""

    def __init__(
        self,
        parts: Sequence[Text] = (),
        *,
        gap: str = SEPARATOR,
        style: str = "",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._parts = list(parts)
        self._gap = gap
        self._style = style
        self.spans: list[Span] = []
        """Where each piece is drawn (for clicks)."""

    def show_parts(self, parts: Sequence[Text]) -> None:
        self._parts = list(parts)
        self._flow()

    def on_mount(self) -> None:
        self._flow()

    def on_resize(self) -> None:
        self._flow()

    def _flow(self) -> None:
        width = self.content_size.width or None  # before the first layout: one line
        text, self.spans = flow(self._parts, width, self._gap)
        text.stylize(self._style)
        self.update(text)
