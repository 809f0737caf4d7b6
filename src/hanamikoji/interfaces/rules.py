"""The rules as the interfaces show them (the terminal app's help, ``hanamikoji rules``,
``rules`` at the prompt): docs/rules.md, the one source of their text.

An installed wheel carries the page as package data (pyproject.toml maps docs/rules.md
to ``hanamikoji/interfaces/rules.md``); a source checkout reads the repository's file.

>>> rules_markdown().startswith("# The rules of Hanamikoji")
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["rules_markdown"]

PACKAGED = "rules.md"
"""The page's name beside this module in an installed wheel."""

CHECKOUT = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
"""The page in a source checkout (src/hanamikoji/interfaces/ -> docs/)."""


def rules_markdown() -> str:
    """The text of docs/rules.md, from the package if installed with it, else from the
    source checkout. Raises ``FileNotFoundError`` when neither has it."""
    packaged = resources.files(__package__ or "hanamikoji.interfaces").joinpath(PACKAGED)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return CHECKOUT.read_text(encoding="utf-8")
