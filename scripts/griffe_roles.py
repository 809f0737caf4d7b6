"""A Griffe extension for the API reference of the documentation site (``mkdocs.yml``).

The docstrings are written for ``help()``, pydoc and doctest; the site reads them as
Markdown. Two things differ, and each docstring is rewritten for the site only:

- code named with a Sphinx role (``:class:`` and the like, before a name in backquotes)
  becomes the code span it stands for (only the name's last part after ``~``);
- a doctest (``>>>`` lines and their output, up to a blank line) becomes a fenced
  ``pycon`` block: as Markdown it would be a quote, its output a link.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):`(~?)([^`]+)`")
FENCE = "```"


def code_span(match: re.Match[str]) -> str:
    short, name = match.groups()
    return f"`{name.rsplit('.', 1)[-1] if short else name}`"


def fence_doctests(text: str) -> str:
    """``text`` with each doctest in a fenced block at the doctest's indentation."""
    lines: list[str] = []
    indent: str | None = None  # the open block's, None outside a block
    for line in text.splitlines():
        if indent is not None and not line.strip():
            lines.append(indent + FENCE)
            indent = None
        elif indent is None and line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(indent + FENCE + "pycon")
        lines.append(line)
    if indent is not None:
        lines.append(indent + FENCE)
    return "\n".join(lines)


class SiteDocstrings(Extension):
    """Docstrings rewritten as Markdown for the site."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            value = ROLE.sub(code_span, obj.docstring.value)
            obj.docstring.value = fence_doctests(value)
