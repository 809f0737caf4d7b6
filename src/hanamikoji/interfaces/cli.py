"""The ``hanamikoji`` command: ``play``, ``replay``, ``variants`` and ``bots``.

Each subcommand is a :class:`Command`: a name, how to configure its argument parser, and
what to run. Another interface adds its own (``arena``, ``engine``, ``serve``, ...) in its
own module by calling :func:`register_command` at import and listing that module in
:data:`COMMAND_MODULES`, which is the one line to add here.

>>> {"play", "replay", "variants", "bots"} <= set(commands())
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rich.table import Table
from rich.text import Text

from hanamikoji.bots import BOTS, Bot, make_bot
from hanamikoji.bots.base import BotSpecError, bot_options
from hanamikoji.bots.levels import LEVELS, make_level_bot
from hanamikoji.core import VARIANTS, Game, UnknownVariantError, Variant
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.terminal import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Player,
    PlaySession,
    Terminal,
    replay_game,
    variant_description,
)
from hanamikoji.notation.names import LANGUAGES, Lang, check_lang
from hanamikoji.protocol import ExternalEngineBot

__all__ = [
    "COMMAND_MODULES",
    "Command",
    "Streams",
    "build_parser",
    "commands",
    "main",
    "register_command",
    "run_command",
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
    exit status."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Streams], int]


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hanamikoji",
        description="Hanamikoji, the two-player card game: play in the terminal, replay records.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in commands().values():
        # argparse formats a subcommand's help with %: a plain "95%" must not break it.
        sub = subparsers.add_parser(
            command.name, help=command.help.replace("%", "%%"), description=command.help
        )
        command.configure(sub)
        sub.set_defaults(run=command.run)
    return parser


def run_command(argv: list[str], streams: Streams) -> int:
    """Parse ``argv`` (without the program name) and run the subcommand."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        # argparse exits after --help (0) and after a usage error (2).
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    run: Callable[[argparse.Namespace, Streams], int] = args.run
    return run(args, streams)


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


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="language and edition terms: en (2016 English), en-2018, es, fr (default: en)",
    )


def seed_argument(text: str) -> int:
    """An argparse type: a game seed (0 to 2**64 - 1)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to {MAX_SEED}")
    return value


def _error(streams: Streams, lang: Lang, text: str) -> int:
    streams.stderr.write(message("error", lang, error=text) + "\n")
    streams.stderr.flush()
    return EXIT_USAGE


def _terminal(streams: Streams, lang: Lang) -> Terminal:
    return Terminal(streams.stdin, streams.stdout, lang)


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
        metavar="CMD",
        help="an external engine speaking the protocol of docs/protocol.md, e.g."
        " 'hanamikoji engine --level 3'",
    )
    opponent.add_argument(
        "--level",
        type=int,
        choices=sorted(LEVELS),
        help="difficulty level 1-5 of the bot you play against (see 'hanamikoji bots')",
    )
    opponent.add_argument(
        "--hotseat",
        action="store_true",
        help="two people at one terminal; the screen is cleared between their turns",
    )
    parser.add_argument(
        "--variant",
        default="classic",
        metavar="NAME",
        help=f"rules variant: {', '.join(VARIANTS)} (default: classic; see 'hanamikoji variants')",
    )
    _add_lang(parser)
    parser.add_argument(
        "--seed",
        type=seed_argument,
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
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="time per decision for --engine (default 1)",
    )


def _opponent(args: argparse.Namespace, bot_name: str, seed: int) -> Bot:
    if args.engine is not None:
        return ExternalEngineBot(args.engine, budget_seconds=args.budget)
    if args.level is not None:
        return make_level_bot(args.level, seed=seed)
    return make_bot(bot_name, seed=seed)


def _run_play(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    try:
        variant = Variant.by_name(args.variant)
    except UnknownVariantError as error:
        return _error(streams, lang, str(error))
    names: list[str] = [_one_line(name) for name in args.name]
    people = 2 if args.hotseat else 1
    if len(names) > people:
        return _error(
            streams, lang, f"--name is given {len(names)} times; this game has {people} people"
        )
    bot_name = None
    if args.engine is not None:
        bot_name = "engine"
    elif args.level is not None:
        bot_name = f"level {args.level}"
    elif not args.hotseat:
        bot_name = args.bot if args.bot is not None else default_bot()
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    draws = random.Random(seed)
    first = {"you": 0, "1": 0, "bot": 1, "2": 1}.get(args.first)
    if first is None:
        first = draws.randrange(2)
    game = Game(variant, seed=seed, first_player=first)
    players = []
    for seat in (0, 1):
        number = seat + 1
        if seat < len(names) and names[seat]:
            name = names[seat]
            label = message("named_player", lang, name=name, number=number)
        elif bot_name is not None and seat == 1:
            name = f"{bot_name} bot"
            label = message("bot_player", lang, number=number, bot=bot_name)
        else:
            name = f"Player {number}"
            label = message("player", lang, number=number)
        try:
            bot = (
                _opponent(args, bot_name, draws.getrandbits(64)) if bot_name and seat == 1 else None
            )
        except BotSpecError as error:  # an unknown bot, or options it does not take
            return _error(streams, lang, str(error))
        players.append(Player(name, label, bot))
    session = PlaySession(
        game,
        (players[0], players[1]),
        _terminal(streams, lang),
        save_path=args.save,
        hotseat=args.hotseat,
    )
    return session.run()


# -- replay -------------------------------------------------------------------------------


def _configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="a game record (.hkr or .json)")
    _add_lang(parser)
    parser.add_argument(
        "--step", action="store_true", help="wait for Enter between decisions (q stops)"
    )


def _run_replay(args: argparse.Namespace, streams: Streams) -> int:
    from hanamikoji.notation.records import RecordError, read_record

    lang = check_lang(args.lang)
    try:
        record = read_record(args.file)
        game = record.replay()
    except RecordError as error:
        return _error(streams, lang, f"{args.file}: {error}")
    except OSError as error:
        return _error(streams, lang, f"{args.file}: {error.strerror or error}")
    except UnicodeDecodeError:
        return _error(streams, lang, f"{args.file}: not a text file (UTF-8)")
    names = record.players
    labels = (
        _replay_label(names[0], 0, lang),
        _replay_label(names[1], 1, lang),
    )
    header = [
        message("replay_players", lang, first=labels[0], second=labels[1]),
        message("replay_variant", lang, variant=record.variant, seed=record.seed),
    ]
    header.extend(value for value in (record.event, record.date) if value)
    return replay_game(game, labels, _terminal(streams, lang), step=args.step, header=header)


def _replay_label(name: str, seat: int, lang: Lang) -> str:
    number = seat + 1
    if name == f"Player {number}":
        return message("player", lang, number=number)
    return message("named_player", lang, name=name, number=number)


# -- listings -----------------------------------------------------------------------------


def _configure_listing(parser: argparse.ArgumentParser) -> None:
    _add_lang(parser)


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
    table = Table(title=message("bots_title", lang), title_justify="left")
    table.add_column(message("col_name", lang), no_wrap=True)
    table.add_column(message("col_description", lang))
    table.add_column(message("col_options", lang))
    default = default_bot()
    for name, factory in BOTS.items():
        paragraph = (factory.__doc__ or "").strip().split("\n\n")[0]
        summary = " ".join(paragraph.split())
        shown = f"{name} *" if name == default else name
        table.add_row(shown, summary, ", ".join(bot_options(name)))
    terminal = _terminal(streams, lang)
    terminal.show(table)
    terminal.show(Text(message("bots_default", lang, bot=default)))
    terminal.show(Text(message("bots_options", lang)))
    return EXIT_OK


register_command(
    Command("play", "play a game against a bot or with two people", _configure_play, _run_play)
)
register_command(
    Command("replay", "replay a game record decision by decision", _configure_replay, _run_replay)
)
register_command(Command("variants", "list the rules variants", _configure_listing, _run_variants))
register_command(Command("bots", "list the bots", _configure_listing, _run_bots))
