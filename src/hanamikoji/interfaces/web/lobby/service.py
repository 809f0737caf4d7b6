"""The lobby an instance serves: open seeks that others accept, and a quick-pairing queue
by rating, shared by every instance on the database (issue 27).

* A seek (``seeks.py``) is seen only by the pages whose player's rating is in its range.
  It goes when it is accepted, cancelled, or its page (or its instance) is gone.
* **Accepting** a seek makes the game with both seats named (``GameMaker``) and sends
  each side its seat (``paired``).
* **Quick pairing** pairs the closest ratings among those waiting for the same settings,
  within a window that widens while they wait (``seeks.window``).
* Two players of whom one blocked the other never meet here: neither sees the other's
  seeks (``clients.visible_to``, by the blocks read as the page opened), neither may
  accept the other's seek, and the queue never pairs them; the last two ask the block
  list (``seeks.BlockedPair``) as the pairing is made, so a block made since the page
  opened holds too.

**Where it lives.** The seeks and the queue are rows of the database (``store.py``),
each naming its instance and its page. Each instance keeps a copy of the open seeks in
memory (``board.py``), from its own writes and the other instances' ``lobby`` events
(``notes.py``), so that its pages (``clients.py``) are told of each change without a
query per page. The database decides who takes a seek or a pair (one of two acceptors
deletes the row, the other is told it is gone); the instance that takes it makes the
game and tells its own pages their seats with their tokens, and the other pages'
instances through an event, without a token (a token never goes through the database
server): those pages open their seats by their sessions, both seats being named for
their players.

Quick pairing needs one matcher at a time (``matcher.py``); the matcher also clears the
rows of dead instances, telling the others. On SQLite there is one instance, which is
the matcher.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from hanamikoji.interfaces.clocks import wall_clock_ms
from hanamikoji.interfaces.web.cluster.events import Event, Listener
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.lobby.board import SeekBoard
from hanamikoji.interfaces.web.lobby.clients import LobbyClient, player_of
from hanamikoji.interfaces.web.lobby.matcher import MatcherLock
from hanamikoji.interfaces.web.lobby.messages import paired_message, queued_message
from hanamikoji.interfaces.web.lobby.notes import decode_note
from hanamikoji.interfaces.web.lobby.seeks import (
    MAX_SEEKS,
    NOBODY_BLOCKED,
    BlockedPair,
    GameMaker,
    Pairing,
    Seek,
    Waiting,
    candidates,
)
from hanamikoji.interfaces.web.lobby.store import LobbyStore
from hanamikoji.interfaces.web.wire.incoming import QuickMessage, SeekMessage
from hanamikoji.interfaces.web.wire.lobby_messages import LobbyState
from hanamikoji.interfaces.web.wire.outgoing import encode
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["RESYNC_EVERY", "Lobby", "Run"]

log = logging.getLogger("hanamikoji.web")

T = TypeVar("T")

RESYNC_EVERY = 15
"""Looks (:meth:`Lobby.tick`) between two readings of every seek from the database, in
case an event was missed (they are read again at once when the listener reconnects)."""

Run = Callable[[Callable[[], Any]], Awaitable[Any]]
"""Runs a blocking database write off the event loop (the hub's writer)."""


async def _in_thread(work: Callable[[], T]) -> T:
    return await asyncio.to_thread(work)


class Lobby:
    """The open seeks and the quick-pairing queue, as this instance serves them.

    Args:
        make_game: creates a pairing's game.
        store: the database.
        now: the server's time in ms (the hub's), for the queue's widening windows.
        run: runs a blocking write (the hub's writer; a thread by default).
        listener: the instance's events from the others (the hub's; needed on a shared
            database).
        blocked: whether one of two players blocked the other (a blocking query; the
            social part's block list, plugged in by ``services.py``).
    """

    def __init__(
        self,
        make_game: GameMaker,
        store: Store,
        *,
        now: Callable[[], int] = wall_clock_ms,
        run: Run = _in_thread,
        listener: Listener | None = None,
        blocked: BlockedPair = NOBODY_BLOCKED,
    ) -> None:
        self.make_game = make_game
        self.blocked = blocked
        self.now = now
        self.db = LobbyStore(store)
        self.me = store.instance
        self.shared = store.dialect != "sqlite"
        self._url = store.url
        self.listener = listener
        self._run = run
        self.board = SeekBoard()
        self._lock: MatcherLock | None = None
        self._pairing = asyncio.Lock()
        self._reading = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticks = 0

    @property
    def matching(self) -> bool:
        """Whether this instance is the matcher (always on SQLite)."""
        return self._lock is None or self._lock.held

    async def start(self) -> None:
        """Listen to the other instances (PostgreSQL), try to be the matcher, clear the
        rows of instances gone (an earlier run's on SQLite), and read every open seek."""
        if self.shared:
            assert self.listener is not None, "a shared lobby hears the others on a listener"
            self.listener.on("lobby", self._on_event)
            self.listener.on_reconnect(self.resync)
            self._lock = MatcherLock(self._url)
            await self._lock.take()
        await self._run(self.db.clear_dead)
        await self.resync()

    async def close(self) -> None:
        """Stop: this instance's seeks and queue places go, and the others are told."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._lock is not None:
            await self._lock.release()
        with contextlib.suppress(Exception):
            await self._run(lambda: self.db.clear_instance(self.me))

    # -- pages ------------------------------------------------------------------------

    def join(self, client: LobbyClient) -> None:
        """A page opened: it gets the seeks it may see."""
        self.board.join(client)

    def leave(self, client: LobbyClient) -> None:
        """A page closed: its seeks go, and its place in the queue (here at once, in the
        database just after; nothing here waits, so a cancelled page's task still
        counts)."""
        self.board.leave(client)
        key = client.key
        clear = functools.partial(self._run, lambda: self.db.clear_page(key))
        self._spawn(clear, "lobby: could not clear a closed page's seeks")

    def snapshot(self, client: LobbyClient) -> LobbyState:
        return self.board.snapshot(client)

    @property
    def clients(self) -> int:
        return len(self.board.clients)

    # -- seeks ------------------------------------------------------------------------

    async def seek(self, client: LobbyClient, request: SeekMessage) -> Seek:
        """Open a seek. Raises :class:`Refused`: nobody signed in, a rated seek without
        an account, or too many open seeks."""
        player = player_of(client, rated=request.rated)
        if len(self.board.seeks_of(client.key)) >= MAX_SEEKS:
            raise Refused("err_too_many_seeks", max=MAX_SEEKS)
        seek = Seek(
            secrets.token_urlsafe(9),
            self.me,
            client.key,
            player.in_seek(request.variant),
            request.variant,
            request.time_control,
            request.rated,
            request.range,
            self.now(),
        )
        await self._run(lambda: self.db.add_seek(seek))
        self.board.add(seek)
        return seek

    async def cancel(self, client: LobbyClient, seek_id: str) -> None:
        """Withdraw a seek of this page's. Raises :class:`Refused` (``err_seek_gone``)."""
        seek = self.board.seeks.get(seek_id)
        if seek is None or seek.client != client.key:
            raise Refused("err_seek_gone")
        if not await self._run(lambda: self.db.withdraw(seek_id, client.key)):
            raise Refused("err_seek_gone")  # just accepted: its pairing is on its way
        self.board.drop(seek_id)

    async def accept(self, client: LobbyClient, seek_id: str) -> None:
        """Accept a seek: the game is made and both sides sent their seats. Raises
        :class:`Refused` when the seek is gone (another took it first), is the page's
        own, or does not admit the page's player (one of the two blocked the other, out
        of range, or rated without an account)."""
        seek = self.board.seeks.get(seek_id)
        if seek is None:
            raise Refused("err_seek_gone")
        player = player_of(client, rated=seek.rated)
        if seek.client == client.key or seek.player.id == player.id:
            raise Refused("err_seek_own")
        if seek.player.id in player.avoids or await asyncio.to_thread(
            self.blocked, seek.player.id, player.id
        ):
            raise Refused("err_blocked")
        if not seek.admits(player.rating(seek.variant).rating):
            raise Refused("err_seek_range")
        taken = await self._run(lambda: self.db.take_seek(seek_id, client.key))
        if taken is None:
            self.board.drop(seek_id)
            raise Refused("err_seek_gone")
        for removed in taken[1]:
            self.board.drop(removed)
        self.board.queued.discard(client.key)
        pairing = Pairing(seek.player.id, player.id, seek.variant, seek.time_control, seek.rated)
        await self._make(pairing, ((seek.client, seek.instance), (client.key, self.me)))

    async def resync(self) -> None:
        """Read every open seek again (events may have been missed) and tell the pages
        of the differences; seeks that came or went here during the reading stay as
        they are."""
        async with self._reading:
            began = self.board.changes
            rows = await asyncio.to_thread(self.db.seeks)
            self.board.refresh(rows, began)

    # -- quick pairing ----------------------------------------------------------------

    async def enqueue(self, client: LobbyClient, request: QuickMessage) -> None:
        """Wait for an opponent with these settings; paired at once if one is close
        enough. Raises :class:`Refused` as :meth:`seek` does."""
        player = player_of(client, rated=request.rated)
        waiting = Waiting(
            client.key,
            self.me,
            player.id,
            request.variant,
            request.time_control,
            request.rated,
            player.rating(request.variant).rating,
            self.now(),
        )
        await self._run(lambda: self.db.enqueue(waiting))
        self.board.queued.add(client.key)
        client.send(encode(queued_message(True)))
        if self.matching:  # else the matcher hears of it (QueueNote) and looks
            await self.pair_queue()

    async def dequeue(self, client: LobbyClient) -> None:
        if client.key in self.board.queued:
            self.board.queued.discard(client.key)
            await self._run(lambda: self.db.dequeue(client.key))
            client.send(encode(queued_message(False)))

    async def pair_queue(self) -> int:
        """The matcher pairs whoever may be paired now, closest ratings first; the number
        of games (0 on an instance that is not the matcher)."""
        if not self.matching:
            return 0
        async with self._pairing:
            queue = await asyncio.to_thread(self.db.queue)
            paired: set[str] = set()
            games = 0
            for a, b in candidates(queue, self.now()):
                if a.client in paired or b.client in paired:
                    continue
                if await asyncio.to_thread(self.blocked, a.player, b.player):
                    continue  # one blocked the other: they wait for someone else
                first, second = sorted((a, b), key=lambda waiting: waiting.since)
                removed = await self._run(
                    functools.partial(self.db.take_pair, first.client, second.client)
                )
                if removed is None:
                    continue  # one of them left meanwhile
                paired |= {a.client, b.client}
                for seek_id in removed:
                    self.board.drop(seek_id)
                sides = ((first.client, first.instance), (second.client, second.instance))
                for key, _ in sides:
                    self.board.queued.discard(key)
                pairing = Pairing(first.player, second.player, a.variant, a.time_control, a.rated)
                await self._make(pairing, sides)
                games += 1
            return games

    async def tick(self) -> int:
        """One look, every second or so: take the matcher's lock if it is free (its
        holder died), clear the rows of dead instances (the matcher), read every seek
        again now and then, and pair the queue. The number of games made."""
        self._ticks += 1
        if self._lock is not None and await self._lock.take():
            removed = await self._run(self.db.clear_dead)
            for seek_id in removed:
                self.board.drop(seek_id)
        if self._ticks % RESYNC_EVERY == 0:
            await self.resync()
        return await self.pair_queue()

    # -- pairing ----------------------------------------------------------------------

    async def _make(self, pairing: Pairing, sides: tuple[tuple[str, str], ...]) -> None:
        """Make the game of pages already taken out of the lobby (``sides``: each page's
        key and instance) and send each its seat. Raises :class:`Refused`
        (``err_pairing``) when the game cannot be made: the pages are back to the lobby,
        without their seeks."""
        try:
            seats = await self.make_game(pairing)
        except Exception as error:
            log.exception("the lobby could not make a game")
            raise Refused("err_pairing") from error
        for (key, instance), seat in zip(sides, seats, strict=True):
            if self.board.tell(key, paired_message(seat.game, seat.seat, seat.token)):
                continue
            if instance != self.me:
                await self._run(functools.partial(self.db.tell_paired, key, seat.game, seat.seat))

    # -- other instances (cluster/events.py) --------------------------------------------

    async def _on_event(self, event: Event) -> None:
        if self.board.hear(decode_note(event.data)) and self.matching:
            self._spawn(self.pair_queue, "quick pairing failed")  # a page queued: look

    def _spawn(self, work: Callable[[], Awaitable[Any]], failure: str) -> None:
        """Run ``work`` in the background (cancelled by :meth:`close`), ``failure``
        logged if it fails."""

        async def run() -> None:
            try:
                await work()
            except Exception:
                log.exception(failure)

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
