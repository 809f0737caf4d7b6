"""The ``hanamikoji bridge`` subcommand: an engine or a built-in bot played as a bot
account on a server (docs/bot-api.md, "Bridging an engine")::

    hanamikoji bridge --server https://hanamikoji.example --token-file ~/.bot-token --level 5
    hanamikoji bridge --server URL --token-file F --config bridge.toml -- ./my-engine --fast

httpx and msgspec are imported only when it runs (``pip install 'hanamikoji[bridge]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hanamikoji.bots.levels import LEVELS
from hanamikoji.extras import MissingExtraError, require
from hanamikoji.interfaces.cli import Command, Streams, fail, register_command
from hanamikoji.interfaces.exits import EXIT_ERROR, EXIT_OK
from hanamikoji.interfaces.options import positive_seconds

if TYPE_CHECKING:
    from hanamikoji.interfaces.bridge.bridge import Bridge

__all__ = ["BRIDGE_HELP", "configure_bridge", "run_bridge"]

BRIDGE_HELP = "play an engine or a built-in bot as a bot account on a server"

EPILOG = """\
Everything after '--' is the engine's command line (an engine speaking the protocol of
docs/protocol.md; 'hanamikoji engine --level 7' is one). Challenges are accepted by the
settings of --config's [challenge] table, overridden by the options given here.
Ctrl-C stops: new challenges are declined and the games go on per --on-stop; a second
Ctrl-C leaves at once.
"""


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a whole number from 0, not {text}")
    return value


def configure_bridge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", required=True, metavar="URL", help="the server's address")
    parser.add_argument(
        "--token-file",
        required=True,
        metavar="FILE",
        help="a file holding the bot account's API token (scope bot:play)",
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--level",
        type=int,
        choices=sorted(LEVELS),
        help="play a built-in level, 1 to 8 (level 5 when no engine is given)",
    )
    who.add_argument("--bot", metavar="SPEC", help="play a built-in bot by spec (level:5, greedy)")
    parser.add_argument(
        "--movetime",
        type=positive_seconds,
        metavar="SECONDS",
        help="thinking time per decision (default: an engine 1 s, a bot its own);"
        " a real-time clock lowers it",
    )
    parser.add_argument("--records", metavar="DIR", help="write each finished game's record here")
    parser.add_argument(
        "--on-stop",
        choices=("finish", "leave", "resign"),
        default="finish",
        help="on Ctrl-C: finish the games in progress, leave them or resign them (default: finish)",
    )
    parser.add_argument("--config", metavar="FILE", help="a TOML file with a [challenge] table")
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="join the server's bot ladder on start (its variants and concurrency: the"
        " challenge settings'), leave it on stop",
    )
    policy = parser.add_argument_group("challenges accepted (over --config's)")
    policy.add_argument("--concurrency", type=int, metavar="N", help="games at once (default 1)")
    policy.add_argument(
        "--variants", type=_names, metavar="NAMES", help="comma-separated (default: all)"
    )
    policy.add_argument(
        "--clocks",
        type=_names,
        metavar="KINDS",
        help="realtime, correspondence, untimed, comma-separated (default: all)",
    )
    for name, what in (
        ("min-base", "seconds of a real-time clock's initial time, at least"),
        ("max-base", "seconds of a real-time clock's initial time, at most"),
        ("min-increment", "seconds of increment, at least"),
        ("max-increment", "seconds of increment, at most"),
        ("min-days", "days per correspondence decision, at least"),
        ("max-days", "days per correspondence decision, at most"),
    ):
        policy.add_argument(f"--{name}", type=_count, metavar="N", help=what)
    policy.add_argument(
        "--modes", type=_names, metavar="MODES", help="rated, casual (default: both)"
    )
    policy.add_argument(
        "--opponents", choices=("bots", "people", "both"), help="whom to play (default: both)"
    )
    policy.add_argument("--block", type=_names, metavar="NAMES", help="never play these")
    policy.add_argument("--allow", type=_names, metavar="NAMES", help="play only these")
    parser.add_argument("-v", "--verbose", action="store_true", help="log the details too")
    parser.add_argument(
        "engine", nargs="*", metavar="-- ENGINE ARGS", help="the engine's command line"
    )


POLICY_OPTIONS = (
    "concurrency",
    "variants",
    "clocks",
    "min_base",
    "max_base",
    "min_increment",
    "max_increment",
    "min_days",
    "max_days",
    "modes",
    "opponents",
    "block",
    "allow",
)


def run_bridge(args: argparse.Namespace, streams: Streams) -> int:
    try:
        require("httpx", "bridge", "hanamikoji bridge")
        require("msgspec", "bridge", "hanamikoji bridge")
    except MissingExtraError as error:
        return fail(streams, str(error))
    from hanamikoji.interfaces.bridge.api import ApiError, BotApi
    from hanamikoji.interfaces.bridge.bridge import Bridge
    from hanamikoji.interfaces.bridge.players import Contender
    from hanamikoji.interfaces.bridge.policy import Policy, PolicyError, load_policy

    chosen = [bool(args.engine), args.level is not None, args.bot is not None]
    if sum(chosen) > 1:
        return fail(streams, "give an engine after '--', --level or --bot: one of them")
    spec = args.bot or f"level:{args.level or 5}"
    try:
        contender = Contender(
            spec=None if args.engine else spec, engine=tuple(args.engine), movetime=args.movetime
        )
        if contender.spec is not None:
            contender.make()  # an unknown spec fails now, not at the first game
        policy = Policy() if args.config is None else load_policy(args.config)
        given = {k: getattr(args, k) for k in POLICY_OPTIONS if getattr(args, k) is not None}
        policy = policy.updated(given)
    except (ValueError, PolicyError, MissingExtraError) as error:
        return fail(streams, str(error))
    try:
        token = Path(args.token_file).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        return fail(streams, f"the token file: {error}", EXIT_ERROR)
    if not token or any(ch.isspace() for ch in token):
        return fail(streams, "the token file holds no token (one line, no spaces)", EXIT_ERROR)
    _log_to(streams, args.verbose)
    records = None if args.records is None else Path(args.records)

    async def main() -> None:
        async with BotApi(args.server, token) as api:
            bridge = Bridge(
                api, contender, policy, records=records, on_stop=args.on_stop, ladder=args.ladder
            )
            _stop_on_signals(bridge)
            await bridge.run()

    try:
        asyncio.run(main())
    except ApiError as error:
        return fail(streams, f"the server refused the bridge: {error}", EXIT_ERROR)
    return EXIT_OK


def _log_to(streams: Streams, verbose: bool) -> None:
    handler = logging.StreamHandler(streams.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("hanamikoji.bridge")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False


def _stop_on_signals(bridge: Bridge) -> None:
    loop: Any = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        # Not in the main thread (or on Windows) there are no signal handlers: Ctrl-C
        # then ends the bridge at once.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, bridge.stop)


register_command(Command("bridge", BRIDGE_HELP, configure_bridge, run_bridge, epilog=EPILOG))
