"""Several server instances on one database: who is alive, who owns which game's pending
work, and at which seats each instance has pages open.

**Instances.** Each server registers a row in ``instances`` and beats its heartbeat
every :data:`HEARTBEAT_MS`. A row whose heartbeat is older than :data:`LEASE_MS` is a
dead server's (killed, frozen, cut off): the first live instance to see it buries it
(:meth:`ClusterStore.bury_dead`, one instance per row thanks to ``FOR UPDATE SKIP
LOCKED``): the pages it had open count as closed since its last heartbeat, and its row
goes. An instance that finds its own row gone was buried while it was alive but silent:
it registers again and gives up what it owned.

**Owners.** Work that must happen once per game (the bot's turn, the flag of a clock,
the forfeit of an absent player in an untimed rated game) is run by the game's owner,
``games.owner``. The instance that commits a decision becomes the owner when work is
pending after it (``NULL`` otherwise), in the same commit; the one that creates a game
when work is pending from the start. A game whose owner is not a live instance is
claimed (:meth:`ClusterStore.claim`) by the first live instance that looks, within
about :data:`LEASE_MS` plus :data:`HEARTBEAT_MS` of the owner's death. Two instances
that both act (an owner thought dead but only slow) are told apart by the decision log:
one ``(game, ply)`` row, one winner.

**Presence.** ``seat_presence`` counts each instance's open pages per seat, so any
instance can say whether a seat is there (:func:`away_since`), wherever its pages are.

**SQLite** serves one instance: :func:`hold_sqlite` locks the database's file for the
life of the process, and a second ``serve`` on it is refused (:class:`SecondInstanceError`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol, TypeVar

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.sql.dml import Insert

from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import PLAYING
from hanamikoji.interfaces.web.db.tables import games, instances, seat_presence

__all__ = [
    "HEARTBEAT_MS",
    "LEASE_MS",
    "Cluster",
    "ClusterStore",
    "PresenceRow",
    "SecondInstanceError",
    "away_since",
    "hold_sqlite",
]

log = logging.getLogger("hanamikoji.web")

HEARTBEAT_MS = 1000
"""How often an instance beats its heartbeat, buries the dead and claims their games."""

LEASE_MS = 3000
"""How long an instance may stay silent before it counts as dead."""

CLAIM_BATCH = 200
"""Games one instance claims at one look (several survivors share a dead one's games)."""

T = TypeVar("T")


class SecondInstanceError(RuntimeError):
    """Another server already serves this SQLite database."""


@dataclass(frozen=True, slots=True)
class PresenceRow:
    """One instance's open pages at one seat of a game, since ``changed`` (ms)."""

    seat: int
    instance: str
    pages: int
    changed: int


def away_since(rows: Iterable[PresenceRow], seat: int, default: int) -> int | None:
    """Since when (ms) ``seat`` has had no page open on any instance; ``None`` while one
    is open; ``default`` when no instance ever had one open (rows of dead instances
    are closed by :meth:`ClusterStore.bury_dead`).

    >>> rows = [PresenceRow(0, "a", 0, 50), PresenceRow(0, "b", 1, 40), PresenceRow(1, "a", 0, 70)]
    >>> away_since(rows, 0, 10), away_since(rows, 1, 10), away_since([], 1, 10)
    (None, 70, 10)
    """
    mine = [row for row in rows if row.seat == seat]
    if any(row.pages > 0 for row in mine):
        return None
    return max((row.changed for row in mine), default=default)


class ClusterStore:
    """The statements of ``instances``, ``games.owner`` and ``seat_presence``; every
    write sends the events other instances need with its commit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.me = store.instance

    def register(self, now: int) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                insert(instances).values(id=self.me, started_ms=now, heartbeat_ms=now)
            )

    def heartbeat(self, now: int) -> bool:
        """Beat this instance's heartbeat; ``False`` if its row was buried."""
        with self.store.transaction() as connection:
            beat = connection.execute(
                update(instances).where(instances.c.id == self.me).values(heartbeat_ms=now)
            )
        return beat.rowcount == 1

    def leave(self, now: int) -> list[str]:
        """This instance stops: its pages close now and its row goes, so that the others
        claim its games at their next look. Returns the games whose presence changed."""
        with self.store.transaction() as connection:
            changed = _close_pages(connection, self.me, now, self.me)
            connection.execute(delete(instances).where(instances.c.id == self.me))
        return changed

    def forget_others(self) -> None:
        """Remove every other instance's row and pages (SQLite: this one holds the file,
        so the others are gone)."""
        with self.store.transaction() as connection:
            connection.execute(delete(instances).where(instances.c.id != self.me))
            connection.execute(delete(seat_presence).where(seat_presence.c.instance_id != self.me))

    def bury_dead(self, now: int) -> list[str]:
        """Bury every instance silent past the lease: its pages count as closed since its
        last heartbeat, its row goes. Returns the games whose presence changed."""
        changed: list[str] = []
        with self.store.transaction() as connection:
            dead = connection.execute(
                select(instances.c.id, instances.c.heartbeat_ms)
                .where(instances.c.heartbeat_ms < now - LEASE_MS)
                .with_for_update(skip_locked=True)
            ).all()
            for instance_id, heartbeat in dead:
                log.warning("instance %s silent since %d ms: taking over", instance_id, heartbeat)
                changed += _close_pages(connection, str(instance_id), int(heartbeat), self.me)
                connection.execute(delete(instances).where(instances.c.id == instance_id))
        return changed

    def claim(self, limit: int = CLAIM_BATCH) -> list[str]:
        """Take over games in play whose owner is no live instance, and timed or rated
        games in play with no owner (made before owners existed); at most ``limit``."""
        orphaned = or_(
            games.c.owner.not_in(select(instances.c.id)),
            games.c.owner.is_(None) & (games.c.clock_kind.is_not(None) | games.c.rated.is_(True)),
        )
        candidates = (
            select(games.c.id)
            .where(games.c.status == PLAYING, orphaned)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        with self.store.transaction() as connection:
            ids = [str(game_id) for (game_id,) in connection.execute(candidates).all()]
            if ids:
                connection.execute(update(games).where(games.c.id.in_(ids)).values(owner=self.me))
            notify(connection, *(Event("game", game_id, self.me) for game_id in ids))
        return ids

    def claim_unowned(self, game_id: str) -> bool:
        """Own a game in play that has no owner (one made before owners existed whose bot
        is to move); ``False`` if it has one or is over."""
        with self.store.transaction() as connection:
            taken = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status == PLAYING, games.c.owner.is_(None))
                .values(owner=self.me)
            )
        return taken.rowcount == 1

    def set_pages(self, changes: Mapping[tuple[str, int], tuple[int, int]]) -> None:
        """This instance has ``pages`` pages open at each ``(game id, seat)`` of
        ``changes``, since ``now`` (its ``(pages, now)``): one statement for them all, one
        commit, and one event per game."""
        if not changes:
            return
        rows = [
            {"game_id": g, "seat": seat, "instance_id": self.me, "pages": pages, "changed_ms": now}
            for (g, seat), (pages, now) in changes.items()
        ]
        with self.store.transaction() as connection:
            connection.execute(_upsert_pages(connection.dialect.name), rows)
            games_changed = dict.fromkeys(game_id for game_id, _ in changes)
            notify(connection, *(Event("presence", g, self.me) for g in games_changed))

    def presence(self, game_id: str) -> list[PresenceRow]:
        with self.store.connection() as connection:
            rows = connection.execute(
                select(
                    seat_presence.c.seat,
                    seat_presence.c.instance_id,
                    seat_presence.c.pages,
                    seat_presence.c.changed_ms,
                ).where(seat_presence.c.game_id == game_id)
            ).all()
        return [PresenceRow(int(s), str(i), int(p), int(c)) for s, i, p, c in rows]

    def forget_presence(self, game_id: str) -> None:
        """A finished game's presence rows (nobody needs them any more)."""
        with self.store.transaction() as connection:
            connection.execute(delete(seat_presence).where(seat_presence.c.game_id == game_id))


def _upsert_pages(dialect: str) -> Insert:
    """Insert a seat's row of this instance, or set its pages and time if it is there
    (SQLite and PostgreSQL say it the same way)."""
    upsert = sqlite_insert if dialect == "sqlite" else postgresql_insert
    statement = upsert(seat_presence)
    return statement.on_conflict_do_update(
        index_elements=[seat_presence.c.game_id, seat_presence.c.seat, seat_presence.c.instance_id],
        set_={"pages": statement.excluded.pages, "changed_ms": statement.excluded.changed_ms},
    )


def _close_pages(connection: Connection, instance_id: str, since: int, origin: str) -> list[str]:
    """Count ``instance_id``'s open pages as closed since ``since``; tell the games."""
    closed = connection.execute(
        update(seat_presence)
        .where(seat_presence.c.instance_id == instance_id, seat_presence.c.pages > 0)
        .values(pages=0, changed_ms=since)
        .returning(seat_presence.c.game_id)
    ).all()
    changed = sorted({str(game_id) for (game_id,) in closed})
    notify(connection, *(Event("presence", game_id, origin) for game_id in changed))
    return changed


_held: dict[Path, IO[bytes]] = {}


def hold_sqlite(url: str) -> None:
    """Lock the SQLite database file of ``url`` for this process (again: nothing to do).
    Raises :class:`SecondInstanceError` when another process holds it. An in-memory
    database, or another kind of database, needs no lock."""
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        return
    path = Path(url.removeprefix("sqlite:///")).resolve()
    if path in _held:
        return
    import fcntl

    lock_path = path.with_name(path.name + "-serve.lock")
    handle = lock_path.open("ab")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SecondInstanceError(
            f"another hanamikoji server is already running on {path}: an SQLite database"
            " serves one instance (stop the other, or use PostgreSQL for several: --db"
            " postgresql+psycopg://...)"
        ) from None
    with contextlib.suppress(OSError):
        handle.truncate(0)
        handle.write(f"{os.getpid()}\n".encode())
        handle.flush()
    _held[path] = handle


class Writer(Protocol):
    """Runs a blocking database call off the event loop (the hub's writer)."""

    def __call__(self, write: Callable[[], T]) -> Awaitable[T]: ...


class Cluster:
    """This instance's part in the cluster: registered at :meth:`start`, then (on a
    shared database) a heartbeat that also buries the dead and claims their games.

    Args:
        store: the database.
        run: runs a blocking write (the hub's writer).
        now: the server's time in ms.
        adopt: called with the ids of games this instance has just claimed.
        presence_changed: called with the ids of games whose presence it changed.
        demoted: called when this instance finds it was buried (it owns nothing now).
    """

    def __init__(
        self,
        store: Store,
        run: Writer,
        now: Callable[[], int],
        *,
        adopt: Callable[[list[str]], Awaitable[None]],
        presence_changed: Callable[[list[str]], Awaitable[None]],
        demoted: Callable[[], Awaitable[None]],
    ) -> None:
        self.db = ClusterStore(store)
        self.me = self.db.me
        self.shared = store.dialect != "sqlite"
        self._run = run
        self._now = now
        self._adopt = adopt
        self._presence_changed = presence_changed
        self._demoted = demoted
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Register; on SQLite, take the file (:func:`hold_sqlite`) and every game left
        by an earlier run; on a shared database, start the heartbeat."""
        if not self.shared:
            hold_sqlite(self.db.store.url)
            await self._run(self.db.forget_others)
        await self._run(lambda: self.db.register(self._now()))
        await self.look()
        if self.shared:
            self._task = asyncio.create_task(self._beat())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await self._run(lambda: self.db.leave(self._now()))

    async def look(self) -> None:
        """Bury the dead, then claim the games nobody alive owns."""
        buried = await self._run(lambda: self.db.bury_dead(self._now()))
        if buried:
            await self._presence_changed(buried)
        while True:
            claimed = await self._run(self.db.claim)
            if not claimed:
                break
            await self._adopt(claimed)
            if len(claimed) < CLAIM_BATCH:
                break

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_MS / 1000)
            try:
                alive = await self._run(lambda: self.db.heartbeat(self._now()))
                if not alive:
                    log.warning("instance %s was taken for dead: registering again", self.me)
                    await self._run(lambda: self.db.register(self._now()))
                    await self._demoted()
                await self.look()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("instance %s: heartbeat failed", self.me)
