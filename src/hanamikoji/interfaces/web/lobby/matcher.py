"""The lobby's one matcher: quick pairing needs one matcher at a time, the instance that
holds a session-level advisory lock of PostgreSQL on a connection of its own
(:class:`MatcherLock`; the lock goes with the connection, so when its instance dies
another takes it over at its next look). On SQLite there is one instance, which is the
matcher, and no lock.

The same lock under another ``name`` makes one of any other kind of matcher at a time
(the bot ladder's pairer, ``ladder/``).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from sqlalchemy.engine.url import make_url

__all__ = ["MatcherLock"]

log = logging.getLogger("hanamikoji.web")


class MatcherLock:
    """PostgreSQL's session-level advisory lock of the lobby's matcher, on a connection
    of its own: held until released or until the connection (or its process) dies.
    ``name`` says whose lock it is (the lobby's by default)."""

    def __init__(self, url: str, name: str = "lobby") -> None:
        self.name = name
        self._conninfo = (
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self._connection: Any = None
        self.held = False

    async def take(self) -> bool:
        """Whether this instance holds the lock (now taken, or still held)."""
        import psycopg

        try:
            if self._connection is None or self._connection.closed:
                self.held = False
                self._connection = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True
                )
            if self.held:
                await self._connection.execute("SELECT 1")  # the lock lives with this
            else:
                cursor = await self._connection.execute(
                    "SELECT pg_try_advisory_lock(hashtext(%s::text || current_schema()))",
                    (f"hanamikoji.{self.name}:",),
                )
                row = await cursor.fetchone()
                self.held = bool(row and row[0])
        except Exception:
            log.exception("%s: the matcher's connection failed", self.name)
            await self.release()
        return self.held

    async def release(self) -> None:
        self.held = False
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()
