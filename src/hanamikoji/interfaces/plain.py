"""Plain stand-ins for the few names of ``rich`` the line interface and the listings use,
so that they work in the base install, which has no third-party package: the same
calls, drawn as plain text without colour (:mod:`hanamikoji.interfaces.styled` picks
rich's names when rich is installed, these otherwise).

A table is drawn as rich draws its ``SIMPLE_HEAD`` box without edges: the title, the
headings, a rule, the rows; columns as wide as their widest cell (wide characters count
two), each justified as asked.

>>> import io
>>> table = Table(title="Levels")
>>> table.add_column("level", justify="right")
>>> table.add_column("bot")
>>> table.add_row("1", "random")
>>> table.add_row("10", Text("greedy", style="bold"))
>>> console = Console(file=io.StringIO())
>>> console.print(Group(Text("Bots"), table))
>>> print(console.file.getvalue(), end="")
Bots
Levels
level  bot
─────  ──────
    1  random
   10  greedy
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterator
from types import TracebackType
from typing import Literal, TextIO

__all__ = [
    "BarColumn",
    "Console",
    "Group",
    "JustifyMethod",
    "MofNCompleteColumn",
    "Progress",
    "RenderableType",
    "Table",
    "Text",
    "TextColumn",
    "TimeRemainingColumn",
    "box",
    "width_of",
]

JustifyMethod = Literal["default", "left", "center", "right", "full"]


def width_of(text: str) -> int:
    """The columns ``text`` takes in a terminal: two for a wide (East Asian) character,
    none for a combining one.

    >>> width_of("Geisha"), width_of("芸者"), width_of("é")
    (6, 4, 1)
    """
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


class Text:
    """Text with a style, which is kept (for the caller) but not drawn."""

    def __init__(self, text: str = "", style: str | None = None) -> None:
        self.plain = text
        self.style = style

    def append(self, text: str | Text, style: str | None = None) -> Text:
        self.plain += text.plain if isinstance(text, Text) else text
        return self

    def append_text(self, text: Text) -> Text:
        return self.append(text)

    def __str__(self) -> str:
        return self.plain

    def __len__(self) -> int:
        return len(self.plain)

    def __repr__(self) -> str:
        return f"Text({self.plain!r})"


class Group:
    """Several renderables drawn one after the other."""

    def __init__(self, *renderables: RenderableType) -> None:
        self.renderables = list(renderables)


class _Column:
    def __init__(self, header: str, justify: JustifyMethod) -> None:
        self.header = header
        self.justify = justify


class Table:
    """Rows of cells under headings (rich's keyword arguments accepted, the layout fixed)."""

    def __init__(self, title: str | None = None, **_options: object) -> None:
        self.title = title
        self.columns: list[_Column] = []
        self.rows: list[list[str]] = []

    def add_column(
        self, header: str = "", justify: JustifyMethod = "left", **_options: object
    ) -> None:
        self.columns.append(_Column(header, justify))

    def add_row(self, *cells: str | Text) -> None:
        self.rows.append([str(cell) for cell in cells])

    def lines(self) -> Iterator[str]:
        """The table drawn, line by line, without trailing spaces."""
        if self.title:
            yield self.title
        headers = [column.header for column in self.columns]
        widths = [
            max(width_of(cell) for cell in [header, *(row[i] for row in self.rows if i < len(row))])
            for i, header in enumerate(headers)
        ]
        yield self._line(headers, widths)
        yield "  ".join("─" * width for width in widths)
        for row in self.rows:
            yield self._line(row, widths)

    def _line(self, cells: list[str], widths: list[int]) -> str:
        drawn = []
        for column, cell, width in zip(self.columns, cells, widths, strict=False):
            room = width - width_of(cell)
            if column.justify == "right":
                drawn.append(" " * room + cell)
            elif column.justify == "center":
                drawn.append(" " * (room // 2) + cell + " " * (room - room // 2))
            else:
                drawn.append(cell + " " * room)
        return "  ".join(drawn).rstrip()


RenderableType = str | Text | Group | Table


def _lines(item: RenderableType) -> Iterator[str]:
    if isinstance(item, Group):
        for part in item.renderables:
            yield from _lines(part)
    elif isinstance(item, Table):
        yield from item.lines()
    else:
        yield from str(item).split("\n")


class Console:
    """Prints renderables on ``file`` (standard output by default) as plain lines."""

    def __init__(self, file: TextIO | None = None, width: int | None = None, **_options: object):
        self.file: TextIO = file if file is not None else sys.stdout
        self.width = width or 80
        self.soft_wrap = True

    @property
    def is_terminal(self) -> bool:
        try:
            return self.file.isatty()
        except (AttributeError, ValueError):
            return False

    def print(
        self,
        *items: RenderableType,
        style: str | None = None,
        end: str = "\n",
        soft_wrap: bool | None = None,
    ) -> None:
        """The items one after the other: text on one line, separated by spaces, as rich
        prints it; a table or a group on lines of their own."""
        if all(isinstance(item, str | Text) for item in items):
            self.file.write(" ".join(str(item) for item in items) + end)
            return
        lines = [line for item in items for line in _lines(item)]
        self.file.write("\n".join(lines) + end)


class _Boxes:
    """rich's box styles by name; every table here is drawn one way."""

    SIMPLE_HEAD = "simple-head"
    SIMPLE = "simple"
    ROUNDED = "rounded"


box = _Boxes()


class _ProgressColumn:
    """A progress bar's column: nothing is drawn."""

    def __init__(self, *_args: object, **_options: object) -> None:
        pass


BarColumn = MofNCompleteColumn = TextColumn = TimeRemainingColumn = _ProgressColumn


class Progress:
    """A progress bar that draws nothing (rich draws one where installed)."""

    def __init__(self, *_columns: object, **_options: object) -> None:
        self.tasks = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None

    def add_task(self, description: str, total: float | None = None, **_fields: object) -> int:
        self.tasks += 1
        return self.tasks - 1

    def update(self, task: int, **_fields: object) -> None:
        pass

    def advance(self, task: int, advance: float = 1) -> None:
        pass

    def refresh(self) -> None:
        pass
