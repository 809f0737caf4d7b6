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
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from hanamikoji.notation.names import Lang

__all__ = ["CHECKOUT", "DOCS", "rules_markdown", "rules_page"]

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
