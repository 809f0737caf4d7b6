"""An instance's copy of the open seeks (every instance's) and its own pages, told of
each change as it comes: from the instance's own writes and the other instances'
``lobby`` events (``notes.py``), without a query per page.

A seek that went is remembered a while (:data:`FORGET_GONE_S`), so that a late reading
of the database does not bring it back; a reading (:meth:`SeekBoard.refresh`) leaves the
seeks that came or went during it as they are.
"""

from __future__ import annotations

import time

from hanamikoji.interfaces.web.lobby.clients import LobbyClient, visible_to
from hanamikoji.interfaces.web.lobby.messages import (
    lobby_message,
    paired_message,
    seek_message,
    unseek_message,
)
from hanamikoji.interfaces.web.lobby.notes import (
    Note,
    PairedNote,
    QueueNote,
    SeekNote,
    UnseekNote,
)
from hanamikoji.interfaces.web.lobby.seeks import Seek
from hanamikoji.interfaces.web.wire.lobby_messages import LobbyState
from hanamikoji.interfaces.web.wire.outgoing import WireStruct, encode

__all__ = ["FORGET_GONE_S", "SeekBoard"]

FORGET_GONE_S = 120.0
"""Seconds a gone seek's id is remembered, so that a late reading does not bring it back."""


class SeekBoard:
    """The open seeks in the order they came, the pages open here (by key) and those of
    them in the quick-pairing queue."""

    def __init__(self) -> None:
        self.clients: dict[str, LobbyClient] = {}
        self.seeks: dict[str, Seek] = {}
        self.queued: set[str] = set()  # this instance's pages in the queue
        self.changes = 0  # counts the copy's changes
        self._stamps: dict[str, int] = {}  # the change that added each seek
        self._gone: dict[str, float] = {}  # seeks gone, and when (monotonic)

    def join(self, client: LobbyClient) -> None:
        """A page opened: it gets the seeks it may see."""
        self.clients[client.key] = client
        client.send(encode(self.snapshot(client)))

    def leave(self, client: LobbyClient) -> None:
        """A page closed: it goes, with its place in the queue and its seeks."""
        self.clients.pop(client.key, None)
        self.queued.discard(client.key)
        for seek_id in self.seeks_of(client.key):
            self.drop(seek_id)

    def snapshot(self, client: LobbyClient) -> LobbyState:
        return lobby_message(client, self.seeks.values(), client.key in self.queued)

    def seeks_of(self, key: str) -> list[str]:
        """The ids of the open seeks of the page ``key``."""
        return [seek.id for seek in self.seeks.values() if seek.client == key]

    def tell(self, key: str, message: WireStruct) -> bool:
        """Send ``message`` to the page ``key`` if it is open here."""
        client = self.clients.get(key)
        if client is not None:
            client.send(encode(message))
        return client is not None

    def add(self, seek: Seek) -> None:
        """A seek opened: into the copy, and to the pages here that may see it."""
        if seek.id in self.seeks or seek.id in self._gone:
            return
        self.changes += 1
        self.seeks[seek.id] = seek
        self._stamps[seek.id] = self.changes
        owner = self.clients.get(seek.client)
        if owner is not None:
            owner.send(encode(seek_message(seek, True)))
        # One text for every other page: a seek is told to a thousand pages at once.
        message = encode(seek_message(seek, False))
        for other in self.clients.values():
            if other is not owner and visible_to(seek, other):
                other.send(message)

    def drop(self, seek_id: str) -> None:
        """A seek went: out of the copy, and the pages here that saw it are told."""
        self._gone[seek_id] = time.monotonic()
        seek = self.seeks.pop(seek_id, None)
        if seek is None:
            return
        self.changes += 1
        self._stamps.pop(seek_id, None)
        message = encode(unseek_message(seek.id))
        for other in self.clients.values():
            if visible_to(seek, other):
                other.send(message)

    def refresh(self, found: list[Seek], began: int) -> None:
        """Every open seek as read from the database (the reading began at change
        ``began``): the pages are told of the differences; seeks that came or went here
        during the reading stay as they are."""
        ids = {seek.id for seek in found}
        for seek_id in list(self.seeks):
            if seek_id not in ids and self._stamps.get(seek_id, 0) <= began:
                self.drop(seek_id)
        for seek in found:
            self.add(seek)
        forget = time.monotonic() - FORGET_GONE_S
        self._gone = {key: at for key, at in self._gone.items() if at >= forget}

    def hear(self, note: Note | None) -> bool:
        """Another instance's note: the copy and the pages here follow it. Whether it
        asks the matcher to look at the queue (a page queued)."""
        if isinstance(note, SeekNote):
            self.add(note.seek)
        elif isinstance(note, UnseekNote):
            self.drop(note.seek)
        elif isinstance(note, PairedNote):
            self.queued.discard(note.client)
            self.tell(note.client, paired_message(note.game, note.seat, None))
        return isinstance(note, QueueNote)
