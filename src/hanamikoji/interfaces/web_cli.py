"""``hanamikoji serve``: the browser version on http://127.0.0.1:8000.

Games are kept in SQLite in the user's data directory unless ``--db`` (or
``HANAMIKOJI_DATABASE_URL``) names another database (any SQLAlchemy URL, e.g.
``postgresql+psycopg://user:pw@localhost/hanamikoji``). Every setting, its flag and its
variable are written once, in :mod:`hanamikoji.interfaces.web_settings`.
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
from pathlib import Path

from hanamikoji.interfaces.cli import Command, Streams, register_command
from hanamikoji.interfaces.options import UsageError
from hanamikoji.interfaces.web_settings import add_options, read_settings

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


def _run(args: argparse.Namespace, streams: Streams) -> int:
    settings = read_settings(args, os.environ)  # UsageError: a bad environment variable
    try:
        import uvicorn
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        from hanamikoji.interfaces.web.app import create_app
        from hanamikoji.interfaces.web.cluster.instances import SecondInstanceError, hold_sqlite
        from hanamikoji.interfaces.web.http.connections import ConnectionGuard, guarded
        from hanamikoji.interfaces.web.services import ServerConfig
    except ImportError as error:
        streams.stderr.write(
            f"error: the web server needs the 'web' extra ({error.name} is missing):"
            " pip install 'hanamikoji[web]'\n"
        )
        return EXIT_FAILED
    url = settings.database_url or default_db_url(os.environ, sys.platform, str(Path.home()))
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    try:
        hold_sqlite(url)  # one instance per SQLite file: held until this process ends
    except SecondInstanceError as error:
        streams.stderr.write(f"error: {error}\n")
        return EXIT_FAILED
    shown = url.split("@")[-1] if "@" in url else url  # no password on the screen
    streams.stdout.write(
        f"Hanamikoji: open http://{settings.host}:{settings.port}/"
        f" (games in {shown}; Ctrl-C stops)\n"
    )
    streams.stdout.flush()
    # uvicorn times idle connections only between requests: each connection is wrapped
    # to time its headers and count it against its address (connections.py).
    proxies = list(settings.trusted_proxies)
    guard = ConnectionGuard(settings.connections_per_address, settings.header_timeout, proxies)
    uvicorn.run(
        create_app(ServerConfig(url, settings)),
        host=settings.host,
        port=settings.port,
        http=guarded(AutoHTTPProtocol, guard),
        log_level=settings.log_level,
        ws_max_size=64 * 1024,
        # States are small; compressing each one costs more CPU than it saves on a LAN.
        ws_per_message_deflate=False,
        # Behind a trusted proxy, the client's address is the one it forwards (the
        # limits per address count players, not the proxy); nobody else is believed.
        proxy_headers=bool(proxies),
        forwarded_allow_ips=",".join(proxies) or None,
    )
    return EXIT_OK


HELP = "play in the browser: start the web server"

EPILOG = (
    "Every option can also be set in the environment, by the variable its help names"
    " (HANAMIKOJI_DATABASE_URL for --db, ...): an option on the command line wins over"
    " its variable, which wins over the default. Keep a database password in the"
    " environment, where ps does not show it."
)

register_command(Command("serve", HELP, add_options, _run, EPILOG))


def main(argv: list[str] | None = None) -> int:
    """``python -m hanamikoji.interfaces.web_cli``: the same as ``hanamikoji serve``."""
    parser = argparse.ArgumentParser(prog="hanamikoji serve", description=HELP, epilog=EPILOG)
    add_options(parser)
    args = parser.parse_args(argv)
    try:
        return _run(args, Streams.system())
    except UsageError as error:
        parser.error(str(error))


if __name__ == "__main__":
    sys.exit(main())
