"""A Griffe extension for the API reference of the documentation site (``mkdocs.yml``).

The docstrings are written for ``help()``, pydoc and doctest; the site reads them as
Markdown. Two things differ, and each docstring is rewritten for the site only:

- code named with a Sphinx role (``:class:`` and the like, before a name in backquotes)
  becomes the code span it stands for (only the name's last part after ``~``), a link
  to that object's entry where the API reference has one (an optional cross-reference:
  mkdocs-autorefs links it when the object is rendered, leaves the code span otherwise);
- a doctest (``>>>`` lines and their output, up to a blank line) becomes a fenced
  ``pycon`` block: as Markdown it would be a quote, its output a link.
"""

from __future__ import annotations

import html
import re
from typing import Any

from griffe import Extension, NameResolutionError, Object

ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):`(~?)([^`]+)`")
FENCE = "```"


def full_name(name: str, scope: Object) -> str | None:
    """The full path of ``name`` as written in a docstring of ``scope``, or None."""
    if name.startswith("hanamikoji."):
        return name
    first, dot, rest = name.partition(".")
    try:
        return scope.resolve(first) + dot + rest
    except NameResolutionError:
        return None


def reference(match: re.Match[str], scope: Object) -> str:
    short, name = match.groups()
    shown = name.rsplit(".", 1)[-1] if short else name
    target = full_name(name.strip("()"), scope)
    if target is None:
        return f"`{shown}`"
    return f'<autoref identifier="{target}" optional><code>{html.escape(shown)}</code></autoref>'


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
            value = ROLE.sub(lambda match: reference(match, obj), obj.docstring.value)
            obj.docstring.value = fence_doctests(value)
