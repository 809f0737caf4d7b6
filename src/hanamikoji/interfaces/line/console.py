"""One person-facing terminal of the line interface: a rich console on standard output
and typed lines from standard input.

Input and output are streams, so tests drive the line interface with scripted text;
colour comes from ``rich`` and disappears by itself when the output is not a terminal or
``NO_COLOR`` is set.
"""

from __future__ import annotations

import sys
from typing import Protocol, TextIO

from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.styled import Console, RenderableType, Text
from hanamikoji.notation.names import Deck, Lang

__all__ = ["LineSource", "Terminal"]

_CLEAR_SCREEN_AND_SCROLLBACK = "\033[H\033[2J\033[3J"


class LineSource(Protocol):
    """Where typed lines come from: a text stream such as ``sys.stdin``, or a script."""

    def readline(self) -> str:
        """The next line with its line end; ``""`` at the end of input."""
        ...

    def isatty(self) -> bool: ...


class Terminal:
    """One person-facing terminal: a rich console on ``stdout`` and lines from ``stdin``.

    ``lang`` chooses both the interface sentences and the edition's game terms, ``deck``
    the faces shown beside the cards' and actions' names (docs/rules.md, "The card-table
    deck").
    """

    def __init__(
        self,
        stdin: LineSource,
        stdout: TextIO,
        lang: Lang = "en",
        *,
        deck: Deck = "boxed",
        color: bool | None = None,
        width: int | None = None,
    ) -> None:
        self.stdin = stdin
        self.lang: Lang = lang
        self.deck: Deck = deck
        self.console = Console(
            file=stdout,
            highlight=False,
            markup=False,
            emoji=False,
            no_color=None if color is None else not color,
            width=width,
        )
        # A transcript (a file, a pipe) keeps each sentence on one line, for grep and diff.
        self.console.soft_wrap = not self.console.is_terminal
        # Piped input is not echoed by any terminal; echoing it keeps transcripts readable.
        self._echo = not _isatty(stdin)

    def t(self, key: str, **fields: object) -> str:
        """An interface sentence in this terminal's language."""
        return message(key, self.lang, **fields)

    def show(self, *items: RenderableType, style: str | None = None) -> None:
        self.console.print(*items, style=style)

    def show_document(self, *items: RenderableType) -> None:
        """A document (the rules), wrapped at word boundaries to the width even in a
        transcript: there :meth:`show` keeps lines whole, which a list item or a table,
        drawn at the width, would instead cut at the width."""
        self.console.print(*items, soft_wrap=False)

    def ask(self, prompt: str) -> str:
        """One line of input without its line end. Raises ``EOFError`` at the end of input
        and lets ``KeyboardInterrupt`` through."""
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        if self.stdin is sys.stdin and _isatty(sys.stdin):
            # input() brings line editing on a real terminal.
            try:
                return input()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                raise
        line = self.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        line = line.rstrip("\r\n")
        if self._echo:
            self.console.print(line)
        return line

    def clear(self) -> None:
        """Clear the screen and the scrollback, so a passed terminal hides the last hand."""
        if self.console.is_terminal:
            self.console.file.write(_CLEAR_SCREEN_AND_SCROLLBACK)
            self.console.file.flush()


def _isatty(stream: LineSource) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
