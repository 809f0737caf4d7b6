"""The exit statuses of every ``hanamikoji`` subcommand (docs/cli.md lists them).

>>> EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED
(0, 2, 130)
"""

from __future__ import annotations

__all__ = [
    "EXIT_ENGINE",
    "EXIT_ERROR",
    "EXIT_INPUT_ENDED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
]

EXIT_OK = 0
"""Done: the game was played to the end or stopped with ``quit``, the listing shown."""
EXIT_ERROR = 1
"""A file cannot be read or written, or a record is broken or unfit for the command."""
EXIT_USAGE = 2
"""An option or its value is wrong, or options do not go together (argparse's status)."""
EXIT_ENGINE = 3
"""An external engine did not start, or failed during the game and forfeited it."""
EXIT_INPUT_ENDED = 4
"""The input ended in the middle of a game: nobody is left to answer."""
EXIT_INTERRUPTED = 130
"""The shell's convention for a program stopped by Ctrl-C (128 + SIGINT)."""
