"""The lobby in the games database: its open seeks and its quick-pairing queue, shared by
every instance on the database (issue 27).

Each row names the instance and the page (its client key) it belongs to; a seek's row
holds what any instance needs to show it (``seeks.py``). Every write sends, with its
commit, the ``lobby`` events (``cluster/events.py``) the other instances need to keep
their copies (``notes.py``).

Taking is decided here, by the database: :meth:`LobbyStore.take_seek` and
:meth:`LobbyStore.take_pair` delete the rows they pair, and of two instances taking one
row, one deletes it, the other finds nothing.

The tables are in ``db/tables.py`` (migration ``r0007_lobby.py`` makes them).

>>> from hanamikoji.interfaces.web.db.database import Store
>>> db = LobbyStore(Store("sqlite://"))
>>> ann = SeekPlayer("p1", "Ann", False, 1500.0, True)
>>> db.add_seek(Seek("s1", db.me, "k1", ann, "classic", "none", False, None, 0))
>>> [seek.id for seek in db.seeks()], db.take_seek("s1", "k2") is not None
(['s1'], True)
>>> db.take_seek("s1", "k3") is None
True
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import instances, lobby_queue, lobby_seeks
from hanamikoji.interfaces.web.lobby.notes import (
    TOPIC,
    Note,
    PairedNote,
    QueueNote,
    SeekNote,
    UnseekNote,
    encode_note,
)
from hanamikoji.interfaces.web.lobby.seeks import Seek, SeekPlayer, Waiting

__all__ = ["LobbyStore"]


class _Lost(Exception):
    """One of a pair's rows was gone: the transaction rolls back."""


class LobbyStore:
    """The statements of ``lobby_seeks`` and ``lobby_queue``; each write tells the other
    instances with its commit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.me = store.instance

    def _tell(self, connection: Connection, key: str, note: Note) -> None:
        notify(connection, Event(TOPIC, key, self.me, data=encode_note(note)))

    def _gone(self, connection: Connection, removed: list[str]) -> list[str]:
        for seek_id in removed:
            self._tell(connection, seek_id, UnseekNote(seek_id))
        return removed

    # -- seeks --------------------------------------------------------------------------

    def add_seek(self, seek: Seek) -> None:
        low, high = (None, None) if seek.range is None else seek.range
        with self.store.transaction() as connection:
            connection.execute(
                insert(lobby_seeks).values(
                    id=seek.id,
                    instance_id=seek.instance,
                    client_key=seek.client,
                    player_id=seek.player.id,
                    player_name=seek.player.name,
                    account=seek.player.account,
                    rating=seek.player.rating,
                    provisional=seek.player.provisional,
                    variant=seek.variant,
                    time_control=seek.time_control,
                    rated=seek.rated,
                    range_low=low,
                    range_high=high,
                    created_ms=seek.created,
                )
            )
            self._tell(connection, seek.id, SeekNote(seek))

    def withdraw(self, seek_id: str, client: str) -> bool:
        """Withdraw a seek of the page ``client``; ``False`` if it is gone already."""
        with self.store.transaction() as connection:
            gone = connection.execute(
                delete(lobby_seeks)
                .where(lobby_seeks.c.id == seek_id, lobby_seeks.c.client_key == client)
                .returning(lobby_seeks.c.id)
            ).all()
            self._gone(connection, [str(row[0]) for row in gone])
        return bool(gone)

    def take_seek(self, seek_id: str, acceptor: str) -> tuple[Seek, list[str]] | None:
        """Accept a seek for the page ``acceptor``: the seek goes, and with it the other
        seeks and the queue places of both pages. Returns the seek and the ids of every
        seek gone; ``None`` if another took it first (or it was withdrawn)."""
        with self.store.transaction() as connection:
            row = connection.execute(
                delete(lobby_seeks).where(lobby_seeks.c.id == seek_id).returning(lobby_seeks)
            ).first()
            if row is None:
                return None
            seek = _seek(row)
            removed = [seek.id, *_clear_pages(connection, [seek.client, acceptor])]
            return seek, self._gone(connection, removed)

    def seeks(self) -> list[Seek]:
        """Every open seek, the oldest first."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(lobby_seeks).order_by(lobby_seeks.c.created_ms, lobby_seeks.c.id)
            ).all()
        return [_seek(row) for row in rows]

    # -- the queue ----------------------------------------------------------------------

    def enqueue(self, waiting: Waiting) -> None:
        """Put the page in the queue (again: with these settings, waiting from now)."""
        with self.store.transaction() as connection:
            connection.execute(
                delete(lobby_queue).where(lobby_queue.c.client_key == waiting.client)
            )
            connection.execute(
                insert(lobby_queue).values(
                    client_key=waiting.client,
                    instance_id=waiting.instance,
                    player_id=waiting.player,
                    variant=waiting.variant,
                    time_control=waiting.time_control,
                    rated=waiting.rated,
                    rating=waiting.rating,
                    since_ms=waiting.since,
                )
            )
            self._tell(connection, waiting.client, QueueNote(waiting.client))

    def dequeue(self, client: str) -> bool:
        with self.store.transaction() as connection:
            gone = connection.execute(
                delete(lobby_queue).where(lobby_queue.c.client_key == client)
            ).rowcount
        return bool(gone)

    def queue(self) -> list[Waiting]:
        """Every page waiting, the longest first."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(lobby_queue).order_by(lobby_queue.c.since_ms, lobby_queue.c.client_key)
            ).all()
        return [
            Waiting(
                str(row.client_key),
                str(row.instance_id),
                str(row.player_id),
                str(row.variant),
                str(row.time_control),
                bool(row.rated),
                float(row.rating),
                int(row.since_ms),
            )
            for row in rows
        ]

    def take_pair(self, first: str, second: str) -> list[str] | None:
        """Pair two waiting pages: both leave the queue, and their seeks go (their ids are
        returned); ``None`` (nothing changes) if either has left it."""
        try:
            with self.store.transaction() as connection:
                taken = connection.execute(
                    delete(lobby_queue)
                    .where(lobby_queue.c.client_key.in_([first, second]))
                    .returning(lobby_queue.c.client_key)
                ).all()
                if len(taken) != 2:
                    raise _Lost
                return self._gone(connection, _clear_pages(connection, [first, second]))
        except _Lost:
            return None

    # -- pages, instances ---------------------------------------------------------------

    def tell_paired(self, client: str, game: str, seat: int) -> None:
        """Tell the instance of the page ``client`` that it was paired."""
        with self.store.transaction() as connection:
            self._tell(connection, client, PairedNote(client, game, seat))

    def clear_page(self, client: str) -> list[str]:
        """A page closed: its seeks and its queue place go; the ids of its seeks."""
        with self.store.transaction() as connection:
            return self._gone(connection, _clear_pages(connection, [client]))

    def clear_instance(self, instance: str) -> list[str]:
        """An instance stops: its rows go; the ids of its seeks."""
        with self.store.transaction() as connection:
            connection.execute(delete(lobby_queue).where(lobby_queue.c.instance_id == instance))
            removed = connection.execute(
                delete(lobby_seeks)
                .where(lobby_seeks.c.instance_id == instance)
                .returning(lobby_seeks.c.id)
            ).all()
            return self._gone(connection, [str(row[0]) for row in removed])

    def clear_dead(self) -> list[str]:
        """The rows of instances no longer in ``instances`` (dead and buried, or an
        earlier run's on SQLite) go; the ids of their seeks."""
        alive = select(instances.c.id)
        with self.store.transaction() as connection:
            connection.execute(delete(lobby_queue).where(lobby_queue.c.instance_id.not_in(alive)))
            removed = connection.execute(
                delete(lobby_seeks)
                .where(lobby_seeks.c.instance_id.not_in(alive))
                .returning(lobby_seeks.c.id)
            ).all()
            return self._gone(connection, [str(row[0]) for row in removed])


def _clear_pages(connection: Connection, clients: list[str]) -> list[str]:
    """Remove these pages' seeks and queue places; the ids of the seeks."""
    connection.execute(delete(lobby_queue).where(lobby_queue.c.client_key.in_(clients)))
    removed = connection.execute(
        delete(lobby_seeks).where(lobby_seeks.c.client_key.in_(clients)).returning(lobby_seeks.c.id)
    ).all()
    return [str(row[0]) for row in removed]


def _seek(row: Any) -> Seek:
    has_range = row.range_low is not None and row.range_high is not None
    return Seek(
        str(row.id),
        str(row.instance_id),
        str(row.client_key),
        SeekPlayer(
            str(row.player_id),
            str(row.player_name),
            bool(row.account),
            float(row.rating),
            bool(row.provisional),
        ),
        str(row.variant),
        str(row.time_control),
        bool(row.rated),
        (int(row.range_low), int(row.range_high)) if has_range else None,
        int(row.created_ms),
    )
