"""The ``hanamikoji engine`` subcommand: one of our bots as an engine on stdin/stdout.

It speaks the engine protocol (``docs/protocol.md``), so a GUI, another program's
arena, or ``hanamikoji play --engine`` / ``hanamikoji arena`` can run it as a separate
process::

    hanamikoji engine --level 7
    hanamikoji engine --bot greedy --seed 7

``--level`` is a difficulty level of :mod:`hanamikoji.bots.levels` (1 to 8, the bot
and its thinking time); ``--bot`` names any registered bot.

Only protocol lines go to standard output; anything else goes to standard error.
"""

from __future__ import annotations

import argparse
import sys

from hanamikoji.bots import make_bot
from hanamikoji.bots.base import Bot
from hanamikoji.bots.levels import LEVELS
from hanamikoji.extras import MissingExtraError
from hanamikoji.interfaces.cli import Command, Streams, fail, register_command
from hanamikoji.interfaces.exits import EXIT_OK
from hanamikoji.interfaces.options import positive_seconds, seed
from hanamikoji.protocol.engine import serve

__all__ = ["DEFAULT_LEVEL", "configure_engine", "engine_bot", "main", "run_engine"]

DEFAULT_LEVEL = 7


def configure_engine(parser: argparse.ArgumentParser) -> None:
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--level",
        type=int,
        choices=sorted(LEVELS),
        help=f"strength from 1 to {max(LEVELS)} (default: {DEFAULT_LEVEL})",
    )
    who.add_argument(
        "--bot",
        metavar="NAME",
        help="a bot by name or NAME:OPTION=VALUE,... (see 'hanamikoji bots')",
    )
    parser.add_argument(
        "--seed", type=seed, help="the bot's seed, for reproducible play (default: random)"
    )
    parser.add_argument(
        "--budget",
        type=positive_seconds,
        metavar="SECONDS",
        help="thinking time per decision (default: the level's or the bot's own);"
        " 'go movetime' lowers it",
    )
    parser.add_argument("--name", help="the name the engine gives in 'id name'")


def engine_bot(args: argparse.Namespace) -> Bot:
    """The bot the arguments ask for: a level of :mod:`hanamikoji.bots.levels` or a bot
    by name. Raises ``ValueError`` for an unknown bot."""
    if args.bot is not None:
        return make_bot(args.bot, seed=args.seed, budget=args.budget)
    level = LEVELS[args.level or DEFAULT_LEVEL]
    budget = args.budget if args.budget is not None else level.budget
    return make_bot(level.spec(), seed=args.seed, budget=budget)


def run_engine(args: argparse.Namespace, streams: Streams) -> int:
    try:
        bot = engine_bot(args)
    except (ValueError, MissingExtraError) as error:  # unknown, or its extra is missing
        return fail(streams, str(error))
    level = "" if args.bot is not None else f" level {args.level or DEFAULT_LEVEL}"
    serve(bot, streams.stdin, streams.stdout, name=args.name or f"hanamikoji {bot.name}{level}")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """``python -m hanamikoji.interfaces.engine_cli``: the subcommand on its own."""
    parser = argparse.ArgumentParser(prog="hanamikoji engine", description=ENGINE_HELP)
    configure_engine(parser)
    args = parser.parse_args(argv)
    return run_engine(args, Streams(sys.stdin, sys.stdout, sys.stderr))


ENGINE_HELP = "run a bot as an engine speaking the engine protocol on stdin/stdout"

register_command(Command("engine", ENGINE_HELP, configure_engine, run_engine))

if __name__ == "__main__":
    sys.exit(main())
