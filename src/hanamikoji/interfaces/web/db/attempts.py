"""Sign-in attempts counted in the database (``sign_in_attempts``), so that every
instance on it shares one limit (issue 46).

>>> from hanamikoji.interfaces.web.db.database import Store
>>> store, key = Store("sqlite://"), attempt_key("sign-in-account", "ann")
>>> [count_attempt(store, [key], now, 2, 60_000) for now in (0, 1_000, 2_000)]
[None, None, 58000]
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import sign_in_attempts

__all__ = ["attempt_key", "count_attempt"]


def count_attempt(
    store: Store, keys: Sequence[str], now_ms: int, limit: int, window_ms: int
) -> int | None:
    """Count an attempt against each of ``keys`` (from :func:`attempt_key`) that has
    had fewer than ``limit`` attempts in the ``window_ms`` before ``now_ms``, in the
    table every instance shares (a moving window, as ``limits``' in memory): ``None``
    when every key allowed it, else the ms until the most loaded key allows one more.
    The keys' rows are locked in order, so two instances counting the same key at
    once count one after the other."""
    waits = []
    with store.transaction() as connection:
        _forget_expired_attempts(connection, now_ms)
        for key in sorted(set(keys)):
            wait = _count_attempt(connection, key, now_ms, limit, window_ms)
            if wait is not None:
                waits.append(wait)
    return max(waits) if waits else None


def attempt_key(kind: str, value: str) -> str:
    """The key under which attempts of ``kind`` (``sign-in-address``,
    ``sign-in-account``) by ``value`` are counted: a hash, so the table keeps no address
    or name."""
    return hashlib.sha256(f"{kind}\0{value}".encode()).hexdigest()


def _forget_expired_attempts(connection: Connection, now_ms: int) -> None:
    """Delete the rows whose attempts are all out of their window (those another
    instance is counting right now are left to the next look)."""
    expired = (
        select(sign_in_attempts.c.key)
        .where(sign_in_attempts.c.expires_ms < now_ms)
        .limit(100)
        .with_for_update(skip_locked=True)
    )
    keys = list(connection.execute(expired).scalars())
    if keys:
        connection.execute(delete(sign_in_attempts).where(sign_in_attempts.c.key.in_(keys)))


def _count_attempt(
    connection: Connection, key: str, now_ms: int, limit: int, window_ms: int
) -> int | None:
    """One key of :func:`count_attempt`, its row locked: ``None`` (counted) or the
    ms to wait."""
    locked = select(sign_in_attempts.c.attempts).where(sign_in_attempts.c.key == key)
    stored = connection.execute(locked.with_for_update()).scalar_one_or_none()
    if stored is None:
        try:
            with connection.begin_nested():  # another instance may insert it first
                connection.execute(
                    insert(sign_in_attempts).values(
                        key=key, attempts=str(now_ms), expires_ms=now_ms + window_ms
                    )
                )
            return None
        except IntegrityError:
            stored = connection.execute(locked.with_for_update()).scalar_one()
    times = [int(t) for t in stored.split(",") if t and int(t) > now_ms - window_ms]
    if len(times) >= limit:
        return times[len(times) - limit] + window_ms - now_ms
    times = [*times, now_ms][-limit:]
    connection.execute(
        update(sign_in_attempts)
        .where(sign_in_attempts.c.key == key)
        .values(attempts=",".join(map(str, times)), expires_ms=now_ms + window_ms)
    )
    return None
