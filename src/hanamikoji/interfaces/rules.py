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

In a terminal or a transcript the page is drawn by
:class:`~hanamikoji.interfaces.rules_console.RulesDocument` where rich is installed
(``pip install 'hanamikoji[tui]'``), and shown as its Markdown source otherwise.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from hanamikoji.interfaces.styled import RICH, RenderableType, Text
from hanamikoji.notation.names import Lang

if TYPE_CHECKING:
    from hanamikoji.interfaces.rules_console import RulesDocument

__all__ = [
    "CHECKOUT",
    "DOCS",
    "RulesDocument",
    "rules_document",
    "rules_markdown",
    "rules_page",
]

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


def rules_document(lang: Lang = "en") -> RenderableType:
    """The rules in ``lang``, ready for the terminal's console (``hanamikoji rules``,
    ``rules`` at the prompt): drawn by rich where installed, else the Markdown as it is."""
    if not RICH:
        return Text(rules_markdown(lang))
    from hanamikoji.interfaces.rules_console import RulesDocument

    return RulesDocument(rules_markdown(lang))


def __getattr__(name: str) -> object:
    # RulesDocument, once defined here, needs rich: imported when asked for.
    if name == "RulesDocument":
        from hanamikoji.interfaces.rules_console import RulesDocument

        return RulesDocument
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
