"""The ``hanamikoji`` command: ``play``, ``replay``, ``variants``, ``rules`` and ``bots``.

Each subcommand is a :class:`Command`: a name, how to configure its argument parser, and
what to run. Another interface adds its own (``arena``, ``engine``, ``serve``, ...) in its
own module by calling :func:`register_command` at import and listing that module in
:data:`COMMAND_MODULES`, which is the one line to add here.

>>> {"play", "replay", "variants", "bots", "rules"} <= set(commands())
True
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import random
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rich.table import Table
from rich.text import Text

from hanamikoji import __version__
from hanamikoji.bots import BOTS, Bot, make_bot
from hanamikoji.bots.base import OPTION_MEANINGS, Option, bot_option_defaults, bot_options
from hanamikoji.bots.levels import LEVELS, make_level_bot
from hanamikoji.core import VARIANTS, Game, UnknownVariantError, Variant
from hanamikoji.interfaces.exits import (
    EXIT_ENGINE,
    EXIT_ERROR,
    EXIT_INPUT_ENDED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
)
from hanamikoji.interfaces.line import PlaySession, Terminal, replay_game
from hanamikoji.interfaces.line.render import render_rules
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.options import (
    UsageError,
    command_line,
    deck_style,
    positive_seconds,
    seed,
)
from hanamikoji.interfaces.preparing import prepare_bot
from hanamikoji.interfaces.table import Player
from hanamikoji.interfaces.words import player_label, variant_description
from hanamikoji.notation.names import LANGUAGES, Deck, Lang, check_lang
from hanamikoji.notation.outcomes import level_bot_name, seat_name
from hanamikoji.protocol import EngineError, ExternalEngineBot

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
    "version",
]

COMMAND_MODULES: tuple[str, ...] = (
    "hanamikoji.interfaces.analyze_cli",
    "hanamikoji.interfaces.arena_cli",
    "hanamikoji.interfaces.engine_cli",
    "hanamikoji.interfaces.web_cli",
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
    """Whether to open the full-screen app: both streams are a terminal, no --plain."""
    return not args.plain and _isatty(streams.stdin) and _isatty(streams.stdout)


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
    """Read and check the game record in the file ``path`` (JSON when its name ends in
    ``.json``, else the text form), for every subcommand that reads one. Raises
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
        if Path(name).suffix.lower() == ".json":
            return GameRecord.from_json(text)
        return GameRecord.from_text(text)
    except RecordError as error:
        raise RecordFileError(f"{name}: {error}") from None


def _terminal(streams: Streams, lang: Lang, deck: Deck = "boxed") -> Terminal:
    return Terminal(streams.stdin, streams.stdout, lang, deck=deck)


def _one_line(name: str) -> str:
    return " ".join(name.split())


# -- play ---------------------------------------------------------------------------------


def default_bot() -> str:
    """The bot ``play`` uses without ``--bot``: greedy when it is registered, else random."""
    return "greedy" if "greedy" in BOTS else "random"


def _configure_play(parser: argparse.ArgumentParser) -> None:
    opponent = parser.add_mutually_exclusive_group()
    opponent.add_argument(
        "--bot",
        metavar="NAME",
        help="the bot you play against, by name or NAME:OPTION=VALUE,... (see 'hanamikoji"
        " bots'; default: greedy if available, else random)",
    )
    opponent.add_argument(
        "--engine",
        type=command_line,
        metavar="CMD",
        help="an external engine speaking the protocol of docs/protocol.md, e.g."
        " 'hanamikoji engine --level 3'",
    )
    opponent.add_argument(
        "--level",
        type=int,
        choices=sorted(LEVELS),
        help=f"difficulty level 1-{max(LEVELS)} of the bot you play against"
        " (see 'hanamikoji bots')",
    )
    opponent.add_argument(
        "--hotseat",
        action="store_true",
        help="two people at one terminal; the screen is hidden and passed between their turns",
    )
    parser.add_argument(
        "--variant",
        default="classic",
        metavar="NAME",
        help=f"rules variant: {', '.join(VARIANTS)} (default: classic; see 'hanamikoji variants')",
    )
    add_lang(parser)
    add_deck(parser)
    parser.add_argument(
        "--seed",
        type=seed,
        help="deals (and who starts, with --first random) come from it",
    )
    parser.add_argument(
        "--first",
        choices=("you", "bot", "random", "1", "2"),
        default="random",
        help="who starts round 1: you (Player 1), the bot (Player 2), or drawn at random"
        " (default; from --seed when given). With --hotseat: 1 or 2",
    )
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record to FILE after every decision (.json: JSON, else text;"
        " .hkr suggested)",
    )
    parser.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="NAME",
        help="your name in the record; with --hotseat give it twice (Player 1, Player 2)",
    )
    parser.add_argument(
        "--budget",
        type=positive_seconds,
        metavar="SECONDS",
        help=f"time per decision of the --engine, only with --engine (default"
        f" {ENGINE_BUDGET:g}; a level or bot has its own)",
    )
    add_plain(parser)


ENGINE_BUDGET = 1.0
"""The seconds per decision of ``play --engine`` without ``--budget``."""

PLAY_EPILOG = f"""exit status:
  {EXIT_OK}    the game was played to the end, or stopped with 'quit'
  {EXIT_ERROR}    the --save file cannot be written
  {EXIT_USAGE}    an option or its value is wrong
  {EXIT_ENGINE}    the --engine did not start, or it failed during the game and forfeited it
  {EXIT_INPUT_ENDED}    the input ended before the game did
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
(docs/cli.md has every subcommand's)"""


def _opponent(args: argparse.Namespace, bot_name: str, seed: int) -> Bot:
    if args.level is not None:
        return make_level_bot(args.level, seed=seed)
    return make_bot(bot_name, seed=seed)


def _run_play(args: argparse.Namespace, streams: Streams) -> int:
    if args.budget is not None and args.engine is None:
        raise UsageError(
            "argument --budget: only with --engine (a --level or --bot has its own time"
            " per decision)"
        )
    lang = check_lang(args.lang)
    try:
        variant = Variant.by_name(args.variant)
    except UnknownVariantError as error:
        return fail(streams, str(error), lang=lang)
    names: list[str] = [_one_line(name) for name in args.name]
    people = 2 if args.hotseat else 1
    if len(names) > people:
        who = "a --hotseat game has two people" if args.hotseat else "you play alone here"
        raise UsageError(f"argument --name: given {len(names)} times; {who}")
    bot_name = None
    if args.level is not None:
        bot_name = level_bot_name(args.level)
    elif args.engine is None and not args.hotseat:
        bot_name = args.bot if args.bot is not None else default_bot()
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    draws = random.Random(seed)
    first = {"you": 0, "1": 0, "bot": 1, "2": 1}.get(args.first)
    if first is None:
        first = draws.randrange(2)
    game = Game(variant, seed=seed, first_player=first)

    def seating(draws: random.Random, *, strict: bool = False) -> tuple[Player, Player]:
        return (
            _seat(args, lang, names, bot_name, 0, draws, strict=strict),
            _seat(args, lang, names, bot_name, 1, draws, strict=strict),
        )

    try:
        # A missing or broken engine is told now, not after the person's first decision.
        players = seating(draws, strict=True)
    except ValueError as error:  # an unknown bot, or options it does not take
        return fail(streams, str(error), lang=lang)
    except EngineError as error:
        text = message("engine_not_started", lang, command=args.engine, reason=str(error))
        return fail(streams, text, EXIT_ENGINE, lang)
    if full_screen(args, streams):
        return _play_full_screen(args, streams, game, players, seating)
    session = PlaySession(
        game,
        (players[0], players[1]),
        _terminal(streams, lang, args.deck),
        save_path=args.save,
        hotseat=args.hotseat,
    )
    return session.run()


def _seat(
    args: argparse.Namespace,
    lang: Lang,
    names: list[str],
    bot_name: str | None,
    seat: int,
    draws: random.Random,
    *,
    strict: bool,
) -> Player:
    """The player of ``seat``: a person, or for seat 1 the bot (seeded from ``draws``),
    named as in records: a level's bot ``Bot level 3``, a bot by its spec, an engine by
    its ``id name`` (else its command), which needs it started. Raises ``ValueError`` for
    a bot that cannot be made and, when ``strict``, ``EngineError`` for an engine that
    does not start (else it forfeits at its first decision, saying why)."""
    if seat < len(names) and names[seat]:
        return Player.seated(names[seat], seat, lang)
    if seat == 1 and args.engine is not None:
        budget = ENGINE_BUDGET if args.budget is None else args.budget
        engine = ExternalEngineBot(args.engine, budget_seconds=budget)
        try:
            engine.start()
        except EngineError:
            if strict:
                raise
        return Player.seated(engine.name, seat, lang, engine)
    if seat == 1 and bot_name is not None:
        bot_seed = draws.getrandbits(64)
        # The expert's judge compiles for about a minute the first time: in the
        # background, while the game opens.
        bot = prepare_bot(lambda: _opponent(args, bot_name, bot_seed))
        return Player.seated(bot_name, seat, lang, bot)
    return Player.seated(seat_name(seat), seat, lang)


def _play_full_screen(
    args: argparse.Namespace,
    streams: Streams,
    game: Game,
    players: tuple[Player, Player],
    seating: Callable[[random.Random], tuple[Player, Player]],
) -> int:
    from hanamikoji.interfaces.table import Table, TableSettings
    from hanamikoji.interfaces.tui import play_in_app

    lang = check_lang(args.lang)
    settings = TableSettings(game.variant, lang, seating, args.hotseat, args.save, args.deck)
    table = Table(settings, game, players)
    if args.save is not None:
        try:
            table.save(args.save)
        except OSError as error:
            table.release()
            reason = error.strerror or str(error)
            text = message("save_failed", lang, path=str(args.save), error=reason)
            return fail(streams, text, EXIT_ERROR, lang)
    return play_in_app(table)


# -- replay -------------------------------------------------------------------------------


def _configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="a game record (.hkr or .json)")
    add_lang(parser)
    add_deck(parser)
    parser.add_argument(
        "--step", action="store_true", help="wait for Enter between decisions (q stops)"
    )
    add_plain(parser)


def _run_replay(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    try:
        record = load_record(args.file)
    except RecordFileError as error:
        return fail(streams, str(error), EXIT_ERROR, lang)
    game = record.replay()
    names = record.players
    labels = (player_label(names[0], 0, lang), player_label(names[1], 1, lang))
    header = [
        message("replay_players", lang, first=labels[0], second=labels[1]),
        message("replay_variant", lang, variant=record.variant, seed=record.seed),
    ]
    header.extend(value for value in (record.event, record.date) if value)
    if full_screen(args, streams):
        from hanamikoji.interfaces.tui import replay_in_app

        return replay_in_app(game, labels, lang, header, deck=args.deck)
    terminal = _terminal(streams, lang, args.deck)
    return replay_game(game, labels, terminal, step=args.step, header=header)


# -- listings -----------------------------------------------------------------------------


def _configure_listing(parser: argparse.ArgumentParser) -> None:
    add_lang(parser)


def _configure_rules(parser: argparse.ArgumentParser) -> None:
    add_lang(parser)
    parser.add_argument(
        "--variant",
        default="classic",
        metavar="NAME",
        help="say how a game of this variant ends before the rules (default: classic)",
    )


def _run_rules(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    try:
        variant = Variant.by_name(args.variant)
    except UnknownVariantError as error:
        raise UsageError(str(error)) from None
    _terminal(streams, lang).show_document(render_rules(variant, lang))
    return EXIT_OK


def _run_variants(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    table = Table(title=message("variants_title", lang), title_justify="left")
    table.add_column(message("col_name", lang), no_wrap=True)
    table.add_column(message("col_rounds", lang))
    table.add_column(message("col_description", lang))
    for variant in VARIANTS.values():
        rounds = (
            str(variant.max_rounds)
            if variant.max_rounds is not None
            else message("unlimited", lang)
        )
        description = variant_description(variant.name, variant.description, lang)
        table.add_row(variant.name, rounds, description)
    terminal = _terminal(streams, lang)
    terminal.show(table)
    terminal.show(Text(message("variants_cap", lang)))
    return EXIT_OK


def _run_bots(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    terminal = _terminal(streams, lang)
    terminal.show(_levels_table(lang))
    table = Table(title=message("bots_title", lang), title_justify="left")
    table.add_column(message("col_name", lang), no_wrap=True)
    table.add_column(message("col_description", lang))
    table.add_column(message("col_defaults", lang))
    default = default_bot()
    for name, factory in BOTS.items():
        paragraph = (factory.__doc__ or "").strip().split("\n\n")[0]
        defaults = bot_option_defaults(name).items()
        table.add_row(
            f"{name} *" if name == default else name,
            " ".join(paragraph.split()),
            ", ".join(f"{option}={_written(value)}" for option, value in defaults),
        )
    terminal.show(table)
    terminal.show(Text(message("bots_default", lang, bot=default)))
    terminal.show(_options_table(lang))
    terminal.show(Text(message("bots_options", lang)))
    return EXIT_OK


def _levels_table(lang: Lang) -> Table:
    """The difficulty levels: which bot, with how much time per decision."""
    table = Table(title=message("levels_title", lang), title_justify="left")
    table.add_column(message("col_level", lang), justify="right")
    table.add_column(message("col_bot", lang))
    table.add_column(message("col_time", lang))
    for number, level in sorted(LEVELS.items()):
        time = "-" if level.budget is None else f"{level.budget:g} s"
        table.add_row(str(number), level.spec(), time)
    return table


def _options_table(lang: Lang) -> Table:
    """Every option a spec can set, and what it sets."""
    options = dict.fromkeys(option for name in BOTS for option in bot_options(name))
    table = Table(title=message("options_title", lang), title_justify="left")
    table.add_column(message("col_option", lang), no_wrap=True)
    table.add_column(message("col_meaning", lang))
    for option in options:
        table.add_row(option, OPTION_MEANINGS[option])
    return table


def _written(value: Option) -> str:
    """An option's value as a spec writes it: ``none``, ``true``, ``0.2``, ``3``."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


register_command(
    Command(
        "play",
        "play a game against a bot or with two people",
        _configure_play,
        _run_play,
        PLAY_EPILOG,
    )
)
register_command(
    Command("replay", "replay a game record decision by decision", _configure_replay, _run_replay)
)
register_command(Command("variants", "list the rules variants", _configure_listing, _run_variants))
register_command(
    Command("rules", "the rules of the game, in --lang's language", _configure_rules, _run_rules)
)
register_command(Command("bots", "list the bots", _configure_listing, _run_bots))
