"""The rules page drawn on a rich console (``hanamikoji rules``, ``rules`` at the
prompt): needs rich (``pip install 'hanamikoji[tui]'``).

Paragraphs and list items wrap at word boundaries with their hanging indent, and a
table too wide for the width becomes one block per row (each cell after its column's
heading), so that no word is ever cut:

>>> from rich.console import Console
>>> console = Console(width=32, color_system=None)
>>> page = "| term | en | fr |\\n|---|---|---|\\n| Competition | Competition | Échange |"
>>> with console.capture() as drawn:
...     console.print(RulesDocument(page))
>>> print("\\n".join(line.rstrip() for line in drawn.get().strip("\\n").splitlines()))
term: Competition
   en: Competition · fr: Échange
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Markdown, MarkdownElement, TableElement
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

__all__ = ["RulesDocument"]


class _FittingTable(TableElement):
    """A Markdown table drawn as a table when every cell fits on one line of the width,
    else one block per row: each cell after its column's heading, the first on a line
    of its own. (Rich shrinks the columns of a table too wide for the width without
    regard to their words, and cuts them with "…".)"""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        tables = list(super().__rich_console__(console, options))
        wide = options.update_width(max(options.max_width, 1 << 16))
        if all(
            isinstance(table, Table)
            and Measurement.get(console, wide, table).maximum <= options.max_width
            for table in tables
        ):
            yield from tables
            return
        headings = [] if self.header is None or self.header.row is None else self.header.row.cells
        for row in [] if self.body is None else self.body.rows:
            cells = [cell.content for cell in row.cells]
            if not cells:
                continue
            fields = [
                Text.assemble(heading.content.copy(), ": ", cell.copy())
                for heading, cell in zip(headings, cells, strict=False)
            ]
            fields.extend(cell.copy() for cell in cells[len(headings) :])
            fields[0].stylize("bold")
            yield fields[0]
            yield Padding(Text(" · ").join(fields[1:]), (0, 0, 0, 3))


class RulesDocument(Markdown):
    """The rules page for a rich console: rich's Markdown, with tables that never cut a
    word (:class:`_FittingTable`)."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "table_open": _FittingTable,
    }
