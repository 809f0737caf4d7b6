"""Who is online: a player with a page of the site open, on any instance.

Every page of a signed-in player opens the site socket (``WS /social/ws``). An instance
keeps its own pages per player (:class:`SitePages`) and, in the database, one row per
player it has a page of (``player_presence``: the player, the instance, when last
seen): written when the player's first page here opens, deleted when their last one
here closes, and touched for every player at once every :data:`TOUCH_S` seconds while
the instance runs (:meth:`PresenceStore.touch`, one statement). A player is **online**
while one of their rows was seen within :data:`ONLINE_MS`: an instance that dies stops
touching, and its players go offline within that time; one that stops cleanly deletes
its rows at once.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> presence = PresenceStore(Store("sqlite://"))
>>> presence.arrive("ann", 1_000)
>>> sorted(presence.online(["ann", "bob"], 1_000 + ONLINE_MS))
['ann']
>>> sorted(presence.online(["ann"], 1_001 + ONLINE_MS))
[]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

from sqlalchemy import ColumnElement, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import player_presence
from hanamikoji.interfaces.web.social.notes import SocialNote

__all__ = ["FORGET_MS", "ONLINE_MS", "TOUCH_S", "PresenceStore", "SitePages"]

TOUCH_S = 20.0
"""Seconds between two touches of this instance's rows."""

ONLINE_MS = 60_000
"""A player seen within this many ms is online (three touches: one missed is no gap)."""

FORGET_MS = 10 * ONLINE_MS
"""Rows not seen for this long (an instance that died) are deleted at a touch."""


class PresenceStore:
    """The ``player_presence`` rows of this instance (``store.instance``), and who is
    online on any instance."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.me = store.instance

    def _mine(self, player_id: str) -> ColumnElement[bool]:
        return (player_presence.c.player_id == player_id) & (
            player_presence.c.instance_id == self.me
        )

    def arrive(self, player_id: str, now: int) -> None:
        """The player's first page here opened: seen now."""
        for _ in range(2):
            with self.store.transaction() as connection:
                found = connection.execute(
                    update(player_presence).where(self._mine(player_id)).values(seen_ms=now)
                ).rowcount
            if found:
                return
            try:
                with self.store.transaction() as connection:
                    connection.execute(
                        insert(player_presence).values(
                            player_id=player_id, instance_id=self.me, seen_ms=now
                        )
                    )
                return
            except IntegrityError:
                continue  # written at this moment by another page of theirs: update it

    def leave(self, player_id: str) -> None:
        """The player's last page here closed."""
        with self.store.transaction() as connection:
            connection.execute(delete(player_presence).where(self._mine(player_id)))

    def touch(self, now: int) -> None:
        """Every player with a page here is seen now; rows nobody touched for
        :data:`FORGET_MS` (a dead instance's) go."""
        with self.store.transaction() as connection:
            connection.execute(
                update(player_presence)
                .where(player_presence.c.instance_id == self.me)
                .values(seen_ms=now)
            )
            connection.execute(
                delete(player_presence).where(player_presence.c.seen_ms < now - FORGET_MS)
            )

    def online(self, player_ids: Iterable[str], now: int) -> frozenset[str]:
        """Those of ``player_ids`` online at ``now``."""
        wanted = sorted(set(player_ids))
        if not wanted:
            return frozenset()
        with self.store.connection() as connection:
            rows = connection.execute(
                select(player_presence.c.player_id)
                .where(
                    player_presence.c.player_id.in_(wanted),
                    player_presence.c.seen_ms >= now - ONLINE_MS,
                )
                .distinct()
            ).all()
        return frozenset(str(row[0]) for row in rows)

    def clear_instance(self) -> None:
        """This instance stops: its players are no longer seen here."""
        with self.store.transaction() as connection:
            connection.execute(
                delete(player_presence).where(player_presence.c.instance_id == self.me)
            )


Send = Callable[[str], None]


class SitePages:
    """The site sockets open on this instance, per player: where a message for a player
    goes here."""

    def __init__(self) -> None:
        self._pages: dict[str, dict[int, Send]] = {}
        self._keys = itertools.count()

    def add(self, player_id: str, send: Send) -> tuple[int, bool]:
        """A page of the player opened: its key, and whether it is their first here."""
        key = next(self._keys)
        pages = self._pages.setdefault(player_id, {})
        pages[key] = send
        return key, len(pages) == 1

    def remove(self, player_id: str, key: int) -> bool:
        """A page closed: whether it was the player's last here."""
        pages = self._pages.get(player_id)
        if pages is None or pages.pop(key, None) is None:
            return False
        if pages:
            return False
        del self._pages[player_id]
        return True

    def here(self, player_id: str) -> bool:
        return player_id in self._pages

    def tell(self, player_ids: Iterable[str], text: str) -> None:
        """Send ``text`` to every page here of these players."""
        for player_id in set(player_ids):
            for send in list(self._pages.get(player_id, {}).values()):
                send(text)

    def deliver(self, notes: Iterable[SocialNote]) -> None:
        """Send each note's text to every page here of its players (the other instances
        hear of them from their events: ``notes.py``)."""
        for note in notes:
            self.tell(note.players, note.text)
