"""The rules as the interfaces show them (the terminal app's help, ``hanamikoji rules``,
``rules`` at the prompt, the web page's Rules panel), in each language: docs/rules.md in
English (for ``en`` and ``en-2018``), and its translations docs/rules.LANG.md, which
keep its structure (the same headings, tables and code blocks, in the same order).

An installed wheel carries the pages as package data (pyproject.toml maps each
docs/rules*.md to ``hanamikoji/interfaces/``); a source checkout reads the repository's
files.

>>> rules_markdown().startswith("# The rules of Hanamikoji")
True
>>> rules_page("en-2018"), rules_page("zh-Hant")
('rules.md', 'rules.zh-Hant.md')

In a terminal or a transcript the page is drawn by :class:`RulesDocument`: paragraphs
and list items wrap at word boundaries with their hanging indent, and a table too wide
for the width becomes one block per row (each cell after its column's heading), so that
no word is ever cut:

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

from importlib import resources
from pathlib import Path
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Markdown, MarkdownElement, TableElement
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from hanamikoji.notation.names import Lang

__all__ = ["CHECKOUT", "DOCS", "RulesDocument", "rules_document", "rules_markdown", "rules_page"]

DOCS = Path(__file__).resolve().parents[3] / "docs"
"""The pages in a source checkout (src/hanamikoji/interfaces/ -> docs/)."""

CHECKOUT = DOCS / "rules.md"
"""The English page in a source checkout."""

ENGLISH: tuple[Lang, ...] = ("en", "en-2018")
"""The languages that read the English page (the 2018 edition's terms are in its table
of names)."""


def rules_page(lang: Lang) -> str:
    """The file name of the rules in ``lang``: ``rules.md`` or ``rules.LANG.md``."""
    return "rules.md" if lang in ENGLISH else f"rules.{lang}.md"


def rules_markdown(lang: Lang = "en") -> str:
    """The rules in ``lang`` as Markdown, from the package if installed with them, else
    from the source checkout. Raises ``FileNotFoundError`` when neither has the page."""
    name = rules_page(lang)
    packaged = resources.files(__package__ or "hanamikoji.interfaces").joinpath(name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (DOCS / name).read_text(encoding="utf-8")


def rules_document(lang: Lang = "en") -> RulesDocument:
    """The rules in ``lang``, ready for a rich console (``hanamikoji rules``, ``rules`` at
    the prompt)."""
    return RulesDocument(rules_markdown(lang))


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
