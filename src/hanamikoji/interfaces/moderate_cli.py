"""``hanamikoji moderate``: the chat's moderation, on the database of ``hanamikoji serve``
(``--db``, or ``HANAMIKOJI_DATABASE_URL``, else the same default SQLite file).

- ``reports``: every open report of a chat line, oldest first (its id, when, the game,
  the room, who said the line and who reported it, the line);
- ``dismiss REPORT_ID``: close a report;
- ``close-chat NAME``: the account may no longer write free text (its preset phrases
  stay open); ``reopen-chat NAME`` gives it back. Every server on the database reads
  this at each line, so it takes effect at once.

Exit status: 0 done, 1 no such account or report (or the web extra is missing).
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from hanamikoji.interfaces.cli import Command, Streams, register_command
from hanamikoji.interfaces.clocks import wall_clock_ms
from hanamikoji.interfaces.web_cli import default_db_url

__all__ = ["EXIT_NOT_FOUND", "EXIT_OK"]

EXIT_OK = 0
EXIT_NOT_FOUND = 1

HELP = "moderate the chat: list and dismiss reports, close or reopen an account's chat"


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the games database of `hanamikoji serve` (default: HANAMIKOJI_DATABASE_URL,"
        " else SQLite in the user's data directory)",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("reports", help="list the open reports of chat lines")
    dismiss = actions.add_parser("dismiss", help="close a report")
    dismiss.add_argument("report", type=int, metavar="REPORT_ID")
    for name, what in (
        ("close-chat", "stop an account writing free text (preset phrases stay open)"),
        ("reopen-chat", "let an account write free text again"),
    ):
        action = actions.add_parser(name, help=what)
        action.add_argument("name", metavar="NAME")


def _moment(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _run(args: argparse.Namespace, streams: Streams) -> int:
    try:
        from hanamikoji.interfaces.web.chat.store import ChatStore
        from hanamikoji.interfaces.web.db.database import Store
        from hanamikoji.interfaces.web.players.store import PlayerStore
    except ImportError as error:
        streams.stderr.write(
            f"error: moderation needs the 'web' extra ({error.name} is missing):"
            " pip install 'hanamikoji[web]'\n"
        )
        return EXIT_NOT_FOUND
    url = (
        args.db
        or os.environ.get("HANAMIKOJI_DATABASE_URL")
        or default_db_url(os.environ, sys.platform, str(Path.home()))
    )
    store = Store(url)
    try:
        chat, players = ChatStore(store), PlayerStore(store)
        if args.action == "reports":
            reports = chat.open_reports()
            for report in reports:
                line = report.line
                reporter = players.player(report.reporter_id)
                words = line.text if line.text is not None else f"[{line.preset}]"
                streams.stdout.write(
                    f"#{report.id} {_moment(report.at)} game {line.game_id} ({line.room})"
                    f" line {line.id} by {line.author_name or 'anonymous'}"
                    f" reported by {reporter.name if reporter else report.reporter_id}:"
                    f" {words!r}\n"
                )
            streams.stdout.write(f"{len(reports)} open report(s)\n")
            return EXIT_OK
        if args.action == "dismiss":
            if not chat.dismiss(args.report):
                streams.stderr.write(f"error: no open report #{args.report}\n")
                return EXIT_NOT_FOUND
            streams.stdout.write(f"report #{args.report} dismissed\n")
            return EXIT_OK
        found = players.account(args.name)
        if found is None:
            streams.stderr.write(f"error: no account named {args.name!r}\n")
            return EXIT_NOT_FOUND
        player, _ = found
        if args.action == "close-chat":
            changed = chat.close_chat(player.id, wall_clock_ms())
            state = "closed" if changed else "was already closed"
        else:
            changed = chat.reopen_chat(player.id)
            state = "reopened" if changed else "was not closed"
        streams.stdout.write(f"the chat of {player.name} {state}\n")
        return EXIT_OK
    finally:
        store.close()


register_command(Command("moderate", HELP, _configure, _run))
