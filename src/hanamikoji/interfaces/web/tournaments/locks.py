"""One director per tournament across instances: PostgreSQL session-level advisory
locks, one per tournament, on a connection of this instance's own (the lobby's matcher
does the same for its queue, ``lobby/matcher.py``). A lock goes with its connection, so
when its instance dies another instance takes the tournament over at its next look. On
SQLite there is one instance, which directs every tournament (:class:`SoleDirector`).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Protocol

from sqlalchemy.engine.url import make_url

__all__ = ["AdvisoryLocks", "DirectorLocks", "SoleDirector"]

log = logging.getLogger("hanamikoji.web")


class DirectorLocks(Protocol):
    async def take(self, tournament_id: str) -> bool: ...

    async def release(self, tournament_id: str) -> None: ...

    async def close(self) -> None: ...


class SoleDirector:
    """The one instance on SQLite: every tournament is its own."""

    async def take(self, tournament_id: str) -> bool:
        return True

    async def release(self, tournament_id: str) -> None:
        return None

    async def close(self) -> None:
        return None


class AdvisoryLocks:
    """The advisory locks of the tournaments this instance directs, on one connection:
    if it drops, every lock goes with it (and this instance takes back those still
    free at its next look)."""

    def __init__(self, url: str) -> None:
        self._conninfo = (
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self._connection: Any = None
        self.held: set[str] = set()

    async def _connect(self) -> Any:
        import psycopg

        if self._connection is None or self._connection.closed:
            self.held.clear()
            self._connection = await psycopg.AsyncConnection.connect(
                self._conninfo, autocommit=True
            )
        return self._connection

    async def take(self, tournament_id: str) -> bool:
        """Whether this instance directs the tournament (now, or still)."""
        try:
            connection = await self._connect()
            if tournament_id in self.held:
                await connection.execute("SELECT 1")  # the lock lives with this
                return tournament_id in self.held
            cursor = await connection.execute(
                "SELECT pg_try_advisory_lock(hashtext("
                "'hanamikoji.tournament:' || current_schema() || ':' || %s))",
                (tournament_id,),
            )
            row = await cursor.fetchone()
            if row and row[0]:
                self.held.add(tournament_id)
        except Exception:
            log.exception("tournaments: the director's connection failed")
            await self.close()
        return tournament_id in self.held

    async def release(self, tournament_id: str) -> None:
        """Let the tournament go (it is over)."""
        if tournament_id not in self.held or self._connection is None:
            return
        self.held.discard(tournament_id)
        with contextlib.suppress(Exception):
            await self._connection.execute(
                "SELECT pg_advisory_unlock(hashtext("
                "'hanamikoji.tournament:' || current_schema() || ':' || %s))",
                (tournament_id,),
            )

    async def close(self) -> None:
        self.held.clear()
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()
