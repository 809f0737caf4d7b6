"""The chat's rows: every game's lines, the reports of lines, the accounts whose free
text is closed; each line written tells the other instances with its commit (a
``chat`` event, ``notes.py``).

The tables are in ``db/tables.py`` (migration ``r0010_chat.py`` makes them).

>>> from hanamikoji.interfaces.web.db.database import Store
>>> db = ChatStore(Store("sqlite://"))
>>> said = db.add_line(Line(0, "g1", "player", 0, "p1", "Ann", "chat_hello", None, 5, 0))
>>> [line.preset for line in db.lines("g1", "player")], db.lines("g1", "spectator")
(['chat_hello'], [])
>>> db.report(said.id, "p2", 6), db.report(said.id, "p2", 7)
(True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from hanamikoji.interfaces.web.chat.model import HISTORY_LINES, Line, Room
from hanamikoji.interfaces.web.chat.notes import TOPIC, encode_line
from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import chat_closures, chat_lines, chat_reports
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["ChatStore", "Report"]


@dataclass(frozen=True, slots=True)
class Report:
    """An open report: who reported which line, and when (ms)."""

    id: int
    reporter_id: str
    at: int
    line: Line


class ChatStore:
    """The statements of the chat's tables."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.me = store.instance

    # -- lines --------------------------------------------------------------------------

    def add_line(self, line: Line, rate: tuple[int, int] | None = None) -> Line:
        """Store ``line`` (its ``id`` is given by the database) and tell the other
        instances. With ``rate`` (lines, window in ms) a line of a player (``author_id``)
        who said that many in the window before it, on any instance, is refused
        (:class:`Refused` ``err_chat_rate``, ``seconds`` to wait) and not stored; on
        PostgreSQL the author's lines are counted under a lock of their own, so two
        instances never both admit one line too many."""
        with self.store.transaction() as connection:
            if rate is not None and line.author_id is not None:
                self._admit(connection, line.author_id, line.at, rate)
            result = connection.execute(
                insert(chat_lines)
                .values(
                    game_id=line.game_id,
                    room=line.room,
                    seat=line.seat,
                    author_id=line.author_id,
                    author_name=line.author_name,
                    preset=line.preset,
                    text=line.text,
                    created_ms=line.at,
                    ply=line.ply,
                )
                .returning(chat_lines.c.id)
            )
            stored = replace(line, id=int(result.scalar_one()))
            data = encode_line(stored)
            notify(connection, Event(TOPIC, line.game_id, self.me, data=data))
        return stored

    def _admit(self, connection: Any, author_id: str, now: int, rate: tuple[int, int]) -> None:
        count, window_ms = rate
        if self.store.dialect == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                {"key": "hanamikoji.chat:" + author_id},
            )
        times = (
            connection.execute(
                select(chat_lines.c.created_ms)
                .where(
                    chat_lines.c.author_id == author_id,
                    chat_lines.c.created_ms > now - window_ms,
                )
                .order_by(chat_lines.c.created_ms)
            )
            .scalars()
            .all()
        )
        if len(times) >= count:
            wait = (int(times[-count]) + window_ms - now) / 1000
            raise Refused("err_chat_rate", seconds=max(1, math.ceil(wait)))

    def lines(self, game_id: str, room: Room, limit: int = HISTORY_LINES) -> list[Line]:
        """The newest ``limit`` lines of a room, oldest first."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(chat_lines)
                .where(chat_lines.c.game_id == game_id, chat_lines.c.room == room)
                .order_by(chat_lines.c.id.desc())
                .limit(limit)
            ).all()
        return [_line(row._mapping) for row in reversed(rows)]

    def line(self, line_id: int) -> Line | None:
        with self.store.connection() as connection:
            row = connection.execute(select(chat_lines).where(chat_lines.c.id == line_id)).first()
        return None if row is None else _line(row._mapping)

    # -- reports ------------------------------------------------------------------------

    def report(self, line_id: int, reporter_id: str, at: int) -> bool:
        """Report a line; ``False`` if this reporter reported it already."""
        try:
            with self.store.transaction() as connection:
                connection.execute(
                    insert(chat_reports).values(
                        line_id=line_id, reporter_id=reporter_id, created_ms=at, open=True
                    )
                )
        except IntegrityError:
            return False
        return True

    def open_reports(self) -> list[Report]:
        """Every open report, oldest first, with its line."""
        joined = chat_reports.join(chat_lines, chat_lines.c.id == chat_reports.c.line_id)
        query = (
            select(
                chat_reports.c.id.label("report_id"),
                chat_reports.c.reporter_id,
                chat_reports.c.created_ms.label("reported_ms"),
                chat_lines,
            )
            .select_from(joined)
            .where(chat_reports.c.open.is_(True))
            .order_by(chat_reports.c.id)
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        return [
            Report(
                int(row._mapping["report_id"]),
                str(row._mapping["reporter_id"]),
                int(row._mapping["reported_ms"]),
                _line(row._mapping),
            )
            for row in rows
        ]

    def dismiss(self, report_id: int) -> bool:
        """Close an open report; ``False`` if there is no open report of that id."""
        with self.store.transaction() as connection:
            result = connection.execute(
                update(chat_reports)
                .where(chat_reports.c.id == report_id, chat_reports.c.open.is_(True))
                .values(open=False)
            )
        return bool(result.rowcount)

    # -- closed chats -------------------------------------------------------------------

    def close_chat(self, player_id: str, at: int) -> bool:
        """Close a player's free text; ``False`` if it was closed already."""
        with self.store.transaction() as connection:
            found = connection.execute(
                select(func.count())
                .select_from(chat_closures)
                .where(chat_closures.c.player_id == player_id)
            ).scalar_one()
            if found:
                return False
            connection.execute(insert(chat_closures).values(player_id=player_id, created_ms=at))
        return True

    def reopen_chat(self, player_id: str) -> bool:
        """Open a player's free text again; ``False`` if it was not closed."""
        with self.store.transaction() as connection:
            result = connection.execute(
                delete(chat_closures).where(chat_closures.c.player_id == player_id)
            )
        return bool(result.rowcount)

    def closed(self, player_id: str) -> bool:
        """Whether a moderator closed this player's free text."""
        with self.store.connection() as connection:
            found = connection.execute(
                select(chat_closures.c.player_id).where(chat_closures.c.player_id == player_id)
            ).first()
        return found is not None


def _line(row: Any) -> Line:
    room: Room = "spectator" if row["room"] == "spectator" else "player"
    return Line(
        id=int(row["id"]),
        game_id=str(row["game_id"]),
        room=room,
        seat=row["seat"],
        author_id=row["author_id"],
        author_name=row["author_name"],
        preset=row["preset"],
        text=row["text"],
        at=int(row["created_ms"]),
        ply=int(row["ply"]),
    )
