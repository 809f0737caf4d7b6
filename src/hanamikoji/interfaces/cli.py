"""The ``hanamikoji`` command: its subcommands' registry, the parser, the arguments and
helpers they share (``--lang``, ``--deck``, ``--plain``, errors, record files).

Each subcommand is a :class:`Command`: a name, how to configure its argument parser, and
what to run. Each family of subcommands is a module that calls :func:`register_command`
at import (``play`` and ``replay`` in :mod:`~hanamikoji.interfaces.play_cli`,
``variants``, ``rules`` and ``bots`` in :mod:`~hanamikoji.interfaces.listing_cli`;
``analyze``, ``arena``, ``tournament``, ``engine``, ``serve`` in theirs) and is listed in
:data:`COMMAND_MODULES`, which is the one line to add here.

>>> {"play", "replay", "variants", "bots", "rules"} <= set(commands())
True
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from hanamikoji import __version__
from hanamikoji.extras import installed
from hanamikoji.interfaces.exits import EXIT_INTERRUPTED, EXIT_USAGE
from hanamikoji.interfaces.line import Terminal
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.options import UsageError, deck_style
from hanamikoji.notation.names import LANGUAGES, Deck, Lang

if TYPE_CHECKING:
    from hanamikoji.notation.records import GameRecord

__all__ = [
    "COMMAND_MODULES",
    "RECORD_FILE_LIMIT",
    "Command",
    "RecordFileError",
    "Streams",
    "add_lang",
    "add_plain",
    "build_parser",
    "commands",
    "fail",
    "full_screen",
    "load_record",
    "main",
    "register_command",
    "run_command",
    "terminal_for",
    "version",
]

COMMAND_MODULES: tuple[str, ...] = (
    "hanamikoji.interfaces.play_cli",
    "hanamikoji.interfaces.listing_cli",
    "hanamikoji.interfaces.analyze_cli",
    "hanamikoji.interfaces.arena_cli",
    "hanamikoji.interfaces.tournament_cli",
    "hanamikoji.interfaces.engine_cli",
    "hanamikoji.interfaces.web_cli",
    "hanamikoji.interfaces.moderate_cli",
    "hanamikoji.interfaces.bridge_cli",
    "hanamikoji.interfaces.puzzle_cli",
)
"""Modules that register more subcommands when imported, e.g.
``"hanamikoji.interfaces.arena"``."""


@dataclass(frozen=True, slots=True)
class Streams:
    """Where a command reads and writes; tests pass their own."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO

    @classmethod
    def system(cls) -> Streams:
        for stream in (sys.stdout, sys.stderr):
            # A terminal that cannot show "É" should get a "?" rather than a traceback.
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="replace")
        return cls(sys.stdin, sys.stdout, sys.stderr)


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand: ``configure`` adds its arguments, ``run`` does it and returns the
    exit status (it may raise :class:`~hanamikoji.interfaces.options.UsageError` for
    options that do not go together). ``epilog`` ends its ``--help``, as written."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Streams], int]
    epilog: str | None = None


_COMMANDS: dict[str, Command] = {}


def register_command(command: Command) -> None:
    """Make ``command`` a subcommand of ``hanamikoji``. A name can be registered once."""
    if command.name in _COMMANDS:
        raise ValueError(f"the subcommand {command.name!r} is already registered")
    _COMMANDS[command.name] = command


def commands() -> dict[str, Command]:
    """Every subcommand, those of :data:`COMMAND_MODULES` included."""
    for module in COMMAND_MODULES:
        importlib.import_module(module)
    return dict(_COMMANDS)


def version() -> str:
    """This package's version (``hanamikoji.__version__``, which the distribution's
    metadata is built from)."""
    return __version__


class _VersionAction(argparse.Action):
    """``--version``: looks the version up only when asked (it takes a scan of the
    installed distributions)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show the version and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(f"{parser.prog} {version()}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hanamikoji",
        description="Hanamikoji, the two-player card game: play in the terminal, replay records.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in commands().values():
        # argparse formats a subcommand's help with %: a plain "95%" must not break it.
        sub = subparsers.add_parser(
            command.name,
            help=command.help.replace("%", "%%"),
            description=command.help,
            epilog=command.epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.configure(sub)
        sub.set_defaults(run=command.run, parser=sub)
    return parser


def run_command(argv: list[str], streams: Streams) -> int:
    """Parse ``argv`` (without the program name) and run the subcommand. A
    :class:`UsageError` it raises is shown where and as argparse shows its own."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        # argparse exits after --help and --version (0) and after a usage error (2).
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    run: Callable[[argparse.Namespace, Streams], int] = args.run
    try:
        return run(args, streams)
    except UsageError as error:
        sub: argparse.ArgumentParser = args.parser
        sub.print_usage(sys.stderr)
        sys.stderr.write(f"{sub.prog}: error: {error}\n")
        return EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    """The ``hanamikoji`` console script."""
    streams = Streams.system()
    try:
        return run_command(sys.argv[1:] if argv is None else argv, streams)
    except KeyboardInterrupt:
        # Ctrl-C outside a game's prompt (loading a record, listing): no traceback.
        streams.stderr.write("\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``hanamikoji replay game.hkr | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


# -- shared arguments ---------------------------------------------------------------------


def _lang_help() -> str:
    """The help of ``--lang``: every language of :data:`LANGUAGES`, the one list."""
    return (
        f"language and edition terms: {', '.join(LANGUAGES)}; en has the 2016 English"
        " terms, en-2018 the 2018 edition's (default: en)"
    )


def add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help=_lang_help())


def add_deck(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deck",
        type=deck_style,
        default="boxed",
        metavar="{boxed,card-table}",
        help="the faces shown beside the cards' names: boxed (the boxed game's) or"
        " card-table (also the suit and rank of the card-table deck, docs/rules.md;"
        " default: boxed)",
    )


def add_plain(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plain",
        action="store_true",
        help="the line interface even on a terminal (for scripts and screen readers); it is"
        " used anyway when standard input or output is not a terminal",
    )


def full_screen(args: argparse.Namespace, streams: Streams) -> bool:
    """Whether to open the full-screen app: both streams are a terminal, no --plain, and
    Textual is installed (else a note on standard error says which extra brings it, and
    the line interface is used)."""
    if args.plain or not (_isatty(streams.stdin) and _isatty(streams.stdout)):
        return False
    if not installed("textual"):
        lang: Lang = getattr(args, "lang", "en")
        streams.stderr.write(message("full_screen_missing", lang) + "\n")
        return False
    return True


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def fail(streams: Streams, text: str, status: int = EXIT_USAGE, lang: Lang = "en") -> int:
    """Write ``error: text`` (in ``lang``) on standard error; returns ``status``."""
    streams.stderr.write(message("error", lang, error=" ".join(text.split())) + "\n")
    streams.stderr.flush()
    return status


# -- record files ---------------------------------------------------------------------------

RECORD_FILE_LIMIT = 16 * 1024 * 1024
"""The largest record file read: a long game's record is a few kilobytes."""


class RecordFileError(Exception):
    """A record file that cannot be read or is not a valid record. The message names the
    file and, for a broken record, the place in it (line and column, or JSON path)."""


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and check the game record in the file ``path`` (either form, whatever its
    name: :meth:`GameRecord.parse`), for every subcommand that reads one. Raises
    :class:`RecordFileError`, whatever is wrong with the file."""
    from hanamikoji.notation.records import GameRecord, RecordError

    name = os.fspath(path)
    try:
        with open(path, "rb") as file:
            data = file.read(RECORD_FILE_LIMIT + 1)
    except OSError as error:
        raise RecordFileError(f"{name}: {error.strerror or error}") from None
    if len(data) > RECORD_FILE_LIMIT:
        limit = RECORD_FILE_LIMIT // (1024 * 1024)
        raise RecordFileError(f"{name}: larger than {limit} MB, not a game record")
    text = ""
    bad = data.find(b"\0")  # a NUL is UTF-8, but not in a text file
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        bad = error.start if bad < 0 else min(bad, error.start)
    if bad >= 0:
        raise RecordFileError(f"{name}: not a text file in UTF-8 (byte {bad + 1})")
    try:
        return GameRecord.parse(text)
    except RecordError as error:
        raise RecordFileError(f"{name}: {error}") from None


def terminal_for(streams: Streams, lang: Lang, deck: Deck = "boxed") -> Terminal:
    """The terminal a subcommand talks to the person through, on ``streams``."""
    return Terminal(streams.stdin, streams.stdout, lang, deck=deck)
