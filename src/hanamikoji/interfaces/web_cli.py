"""``hanamikoji serve``: the browser version on http://127.0.0.1:8000.

Games are kept in SQLite in the user's data directory unless ``--db`` names another
database (any SQLAlchemy URL, e.g. ``postgresql+psycopg://user:pw@localhost/hanamikoji``).
Needs the ``web`` extra (Starlette, uvicorn, SQLAlchemy).

>>> default_db_url({"XDG_DATA_HOME": "/data"}, "linux", "/home/ann").endswith(
...     "/data/hanamikoji/games.sqlite3")
True
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from hanamikoji.interfaces.cli import Command, Streams, register_command
from hanamikoji.interfaces.options import (
    non_negative_seconds,
    port,
    whole_number,
    worker_processes,
)

__all__ = ["default_data_dir", "default_db_url", "main"]

EXIT_OK = 0
EXIT_FAILED = 1


def default_data_dir(environ: Mapping[str, str], platform: str, home: str) -> Path:
    """Where the games database lives by default, following each system's custom."""
    if platform == "win32":
        base = environ.get("APPDATA") or str(Path(home) / "AppData" / "Roaming")
        return Path(base) / "hanamikoji"
    if platform == "darwin":
        return Path(home) / "Library" / "Application Support" / "hanamikoji"
    base = environ.get("XDG_DATA_HOME") or str(Path(home) / ".local" / "share")
    return Path(base) / "hanamikoji"


def default_db_url(environ: Mapping[str, str], platform: str, home: str) -> str:
    return f"sqlite:///{default_data_dir(environ, platform, home) / 'games.sqlite3'}"


def _rate(text: str) -> str:
    try:
        from hanamikoji.interfaces.web.guards import parse_rate
    except ImportError:  # no web extra: the server says so when it starts
        return text
    try:
        parse_rate(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=port, default=8000, help="port (default: 8000)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="games database as an SQLAlchemy URL (default: SQLite in the user's data"
        " directory; e.g. postgresql+psycopg://user:password@localhost/hanamikoji)",
    )
    parser.add_argument(
        "--bot-processes",
        type=worker_processes,
        default=1,
        metavar="N",
        help="worker processes for the searching bot levels (7-8; 0: think in threads; default: 1)",
    )
    parser.add_argument(
        "--bot-delay",
        type=non_negative_seconds,
        default=0.4,
        metavar="SECONDS",
        help="pause before a bot acts, so each move can be seen (default: 0.4)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another page origin allowed to open game sockets (behind a proxy); repeatable",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers besides --host and loopback's (the public name"
        " behind a proxy); any other Host is refused; repeatable",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="the address of a reverse proxy in front of this server (e.g. 127.0.0.1 for"
        " nginx on this machine), whose X-Forwarded-For and X-Forwarded-Proto are believed:"
        " the limits per client address then count each player, not the proxy; repeatable",
    )
    parser.add_argument(
        "--create-rate",
        type=_rate,
        default="20/minute",
        metavar="RATE",
        help="new games one client address may create (default: 20/minute; off: no limit)",
    )
    parser.add_argument(
        "--message-rate",
        type=_rate,
        default="10/second",
        metavar="RATE",
        help="messages one page may send over its socket (default: 10/second; off: no limit)",
    )
    parser.add_argument(
        "--login-rate",
        type=_rate,
        default="10/minute",
        metavar="RATE",
        help="sign-in attempts one client address, and one account name, may make"
        " (default: 10/minute; off: no limit)",
    )
    parser.add_argument(
        "--header-timeout",
        type=whole_number(1, 3600, "a number of seconds"),
        default=10,
        metavar="S",
        help="seconds a connection has to send a request's headers, from its start or the"
        " server's last answer, before it is closed (default: 10)",
    )
    parser.add_argument(
        "--connections-per-address",
        type=whole_number(1, 100_000, "a number of connections"),
        default=64,
        metavar="N",
        help="connections one client address may hold open (HTTP and sockets); one more is"
        " closed at once; a --trusted-proxy's own address is exempt (default: 64)",
    )
    parser.add_argument(
        "--sockets-per-address",
        type=whole_number(1, 100_000, "a number of sockets"),
        default=32,
        metavar="N",
        help="WebSockets (games, spectators, the lobby) one client address may have open;"
        " one more is refused (default: 32)",
    )
    parser.add_argument(
        "--secure-cookies",
        action="store_true",
        help="mark session cookies Secure (the server is reached over https, e.g. behind a proxy)",
    )
    parser.add_argument(
        "--session-days",
        type=whole_number(1, 3650, "a number of days"),
        default=30,
        metavar="N",
        help="how long a player stays signed in (default: 30)",
    )
    parser.add_argument(
        "--abort-timeout",
        type=whole_number(5, 86_400, "a number of seconds"),
        default=120,
        metavar="S",
        help="seconds a side of an untimed rated game has for its first decision before"
        " the game is aborted, not rated (default: 120)",
    )
    parser.add_argument(
        "--abandon-timeout",
        type=whole_number(5, 86_400, "a number of seconds"),
        default=180,
        metavar="S",
        help="seconds a player of an untimed rated game may be away, once each side has"
        " decided, before losing it (default: 180; timed games: the clock decides)",
    )
    parser.add_argument(
        "--analysis-worlds",
        type=whole_number(1, 100_000, "a number of worlds"),
        metavar="N",
        help="sampled worlds per searched decision when a finished game is analysed"
        " (default: the analysis's own, as for hanamikoji analyze)",
    )
    parser.add_argument(
        "--analysis-limit",
        type=whole_number(1, 64, "a number of games"),
        default=2,
        metavar="N",
        help="games analysed at once; more is refused until one is done (default: 2)",
    )
    parser.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )


def _run(args: argparse.Namespace, streams: Streams) -> int:
    try:
        import uvicorn
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        from hanamikoji.interfaces.web.app import ServerConfig, create_app
        from hanamikoji.interfaces.web.cluster import SecondInstanceError, hold_sqlite
        from hanamikoji.interfaces.web.connections import ConnectionGuard, guarded
        from hanamikoji.interfaces.web.guards import loopback_hosts
    except ImportError as error:
        streams.stderr.write(
            f"error: the web server needs the 'web' extra ({error.name} is missing):"
            " pip install 'hanamikoji[web]'\n"
        )
        return EXIT_FAILED
    url = args.db or default_db_url(os.environ, sys.platform, str(Path.home()))
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    try:
        hold_sqlite(url)  # one instance per SQLite file: held until this process ends
    except SecondInstanceError as error:
        streams.stderr.write(f"error: {error}\n")
        return EXIT_FAILED
    config = ServerConfig(
        db_url=url,
        bot_processes=args.bot_processes,
        bot_delay=args.bot_delay,
        allowed_hosts=loopback_hosts(args.host) + tuple(args.allowed_host),
        allowed_origins=tuple(args.allow_origin),
        create_rate=args.create_rate,
        message_rate=args.message_rate,
        analysis_limit=args.analysis_limit,
        login_rate=args.login_rate,
        secure_cookies=args.secure_cookies,
        session_days=args.session_days,
        abort_timeout=float(args.abort_timeout),
        abandon_timeout=float(args.abandon_timeout),
        sockets_per_address=args.sockets_per_address,
    )
    if args.analysis_worlds is not None:
        config = replace(config, analysis_worlds=args.analysis_worlds)
    shown = url.split("@")[-1] if "@" in url else url  # no password on the screen
    streams.stdout.write(
        f"Hanamikoji: open http://{args.host}:{args.port}/ (games in {shown}; Ctrl-C stops)\n"
    )
    streams.stdout.flush()
    # uvicorn times idle connections only between requests: each connection is wrapped
    # to time its headers and count it against its address (connections.py).
    guard = ConnectionGuard(args.connections_per_address, args.header_timeout, args.trusted_proxy)
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        http=guarded(AutoHTTPProtocol, guard),
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        # States are small; compressing each one costs more CPU than it saves on a LAN.
        ws_per_message_deflate=False,
        # Behind a trusted proxy, the client's address is the one it forwards (the
        # limits per address count players, not the proxy); nobody else is believed.
        proxy_headers=bool(args.trusted_proxy),
        forwarded_allow_ips=",".join(args.trusted_proxy) or None,
    )
    return EXIT_OK


HELP = "play in the browser: start the web server"

register_command(Command("serve", HELP, _configure, _run))


def main(argv: list[str] | None = None) -> int:
    """``python -m hanamikoji.interfaces.web_cli``: the same as ``hanamikoji serve``."""
    parser = argparse.ArgumentParser(prog="hanamikoji serve", description=HELP)
    _configure(parser)
    return _run(parser.parse_args(argv), Streams.system())


if __name__ == "__main__":
    sys.exit(main())
