"""Whether the database answers, as the server finds it.

When the database stops answering (PostgreSQL stopped or cut off, an SQLite file that
cannot be opened), every request that needs it fails the same way: the server answers
503 ``err_unavailable`` with ``Retry-After`` (one exception handler in ``app.py``), a
socket's message gets the same code, ``/healthz`` says the database is unreachable, and
the log says so **once**: one line when the outage starts and one when the database
answers again, never a traceback per request or per background task.

* :func:`unreachable` tells the errors of an unreachable database (SQLAlchemy's and the
  drivers' ``OperationalError`` and ``InterfaceError``, a connection found broken, a
  pool with no connection to give) from the others (a broken constraint is a defect).
* :class:`DatabaseHealth` watches an engine: its ``handle_error`` event marks the
  database down, and each connection handed out (after the pool's ping, when it pings)
  marks it up again; each change is logged once.
* :data:`QUIET_OUTAGES` is a logging filter that drops the records of failures caused by
  an unreachable database (the outage is logged once by :class:`DatabaseHealth`).

>>> from sqlalchemy.exc import IntegrityError, OperationalError
>>> unreachable(OperationalError("SELECT 1", {}, ConnectionRefusedError()))
True
>>> unreachable(IntegrityError("INSERT", {}, ValueError()))
False
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

__all__ = [
    "CLOSE_TRY_AGAIN",
    "QUIET_OUTAGES",
    "RETRY_AFTER_SECONDS",
    "UNREACHABLE",
    "DatabaseHealth",
    "unreachable",
]

log = logging.getLogger("hanamikoji.web")

RETRY_AFTER_SECONDS = 5
"""What ``Retry-After`` says while the database is unreachable."""

CLOSE_TRY_AGAIN = 1013
"""The close code of a socket the database's outage ends (RFC 6455's "try again later"):
the page reconnects after a while."""


UNREACHABLE: tuple[type[Exception], ...] = (
    OperationalError,
    InterfaceError,
    PoolTimeoutError,
    sqlite3.OperationalError,
    sqlite3.InterfaceError,
)
"""The exception classes of an unreachable database as the routes meet them (``app.py``
has one handler for them): SQLAlchemy's, and SQLite's own."""


def _driver_errors() -> tuple[type[BaseException], ...]:
    """psycopg's errors of an unreachable database, raised by the connections the event
    listener and the lobby's matcher open without SQLAlchemy; none if psycopg was never
    imported (then none of its errors can have been raised)."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is None:
        return ()
    return (psycopg.OperationalError, psycopg.InterfaceError)


def unreachable(error: BaseException | None) -> bool:
    """Whether ``error`` (or what caused it) says the database cannot be reached."""
    classes = UNREACHABLE + _driver_errors()
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, classes):
            return True
        if isinstance(error, DBAPIError) and error.connection_invalidated:
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


def _first_line(error: BaseException) -> str:
    """What an error says, without the SQL statement and SQLAlchemy's link."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0] if lines else ''}".rstrip(": ")


class DatabaseHealth:
    """Whether the database answered last time the server asked, and since when it has
    not; each change is logged once.

    Args:
        clock: seconds, for how long an outage lasted (monotonic by default).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._refused = 0
        self._ping: asyncio.Future[None] | None = None

    @property
    def down(self) -> bool:
        """Whether the database's last answer was a failure to reach it."""
        return self._down_since is not None

    def watch(self, engine: Engine) -> None:
        """Follow ``engine``: its connection errors, and each connection it hands out."""
        event.listen(engine, "handle_error", self._on_error)
        event.listen(engine.pool, "checkout", self._on_checkout)

    def failed(self, error: BaseException) -> None:
        """The database could not be reached (``error`` says why): logged if it could
        before."""
        with self._lock:
            self._refused += 1
            if self._down_since is not None:
                return
            self._down_since = self._clock()
            self._refused = 1
        log.error(
            "database unreachable (%s): requests that need it get 503 until it answers",
            _first_line(error),
        )

    def answered(self) -> None:
        """The database answered: logged if it could not be reached before."""
        if self._down_since is None:  # the common case, without the lock
            return
        with self._lock:
            since, self._down_since = self._down_since, None
            refused = self._refused
        if since is not None:
            log.warning(
                "database reachable again after %.1f s (%d failed requests or tasks meanwhile)",
                self._clock() - since,
                refused,
            )

    async def check(self, ping: Callable[[], None], timeout: float) -> bool:
        """Whether ``ping`` (a blocking ``SELECT 1``) answers within ``timeout`` seconds;
        one ping at a time runs, and callers meanwhile wait for its answer."""
        running = self._ping
        if running is None or running.done():
            running = self._ping = asyncio.ensure_future(asyncio.to_thread(ping))
        try:
            await asyncio.wait_for(asyncio.shield(running), timeout)
        except TimeoutError as error:
            self.failed(error)
            return False
        except Exception as error:
            if not unreachable(error):
                raise
            self.failed(error)
            return False
        self.answered()
        return True

    def _on_error(self, context: Any) -> None:
        error = context.sqlalchemy_exception or context.original_exception
        if context.is_disconnect or unreachable(error):
            self.failed(error)

    def _on_checkout(self, *_: object) -> None:
        self.answered()


class _QuietOutages(logging.Filter):
    """Drops the record of a failure caused by an unreachable database: the outage is
    logged once, when it starts (:meth:`DatabaseHealth.failed`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not unreachable(error)


QUIET_OUTAGES = _QuietOutages()
"""Added to the server's loggers (``hanamikoji.web``, ``uvicorn.error``) by ``app.py``."""
