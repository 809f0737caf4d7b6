"""The lobby: open seeks that others accept, and a quick-pairing queue by rating, shared
by every instance on the database (issue 27).

* A **seek** is one page's offer of a game: variant, time control, rated or not, and the
  ratings it accepts (``range``; anyone without one). Only the pages whose player's
  rating is in range see it. It goes when it is accepted, cancelled, or its page (or its
  instance) is gone.
* **Accepting** a seek makes the game with both seats named (:data:`GameMaker`) and
  sends each side its seat (``paired``).
* **Quick pairing** pairs the closest ratings among those waiting for the same settings,
  within a window that widens while they wait (:func:`window`).

**Where it lives.** The seeks and the queue are rows of the database (``lobby_store.py``),
each naming its instance and its page. Each instance keeps a copy of the open seeks in
memory (:class:`Lobby`), from its own writes and the other instances' ``lobby`` events,
so that its pages (:class:`LobbyClient`) are told of each change without a query per
page. The database decides who takes a seek or a pair (one of two acceptors deletes the
row, the other is told it is gone); the instance that takes it makes the game and tells
its own pages their seats with their tokens, and the other pages' instances through an
event, without a token (a token never goes through the database server): those pages
open their seats by their sessions, both seats being named for their players.

Quick pairing needs one matcher at a time: the instance that holds a session-level
advisory lock of PostgreSQL on a connection of its own (:class:`_MatcherLock`; the lock
goes with the connection, so when its instance dies another takes it over at its next
look). The matcher also clears the rows of dead instances, telling the others. On
SQLite there is one instance, which is the matcher.

A player's identity comes from :class:`LobbyPlayer` (the session's guest or account);
a rated game needs an account on both sides. Ratings are per variant: a seek's range,
and the quick-pairing gap, use the ratings in the game's variant; a player with no rating
in it counts as Glicko-2's new player: 1500, provisional.

>>> window(0.0), window(10.0), window(600.0)
(100.0, 300.0, 700.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec
from sqlalchemy.engine.url import make_url

from hanamikoji.arena.glicko2 import Rating, provisional
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.checks import Refused
from hanamikoji.interfaces.web.clock import wall_clock_ms
from hanamikoji.interfaces.web.cluster.events import Event, Listener
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.lobby_store import (
    LobbyStore,
    PairedNote,
    QueueNote,
    Seek,
    SeekNote,
    SeekPlayer,
    UnseekNote,
    Waiting,
    decode_note,
)
from hanamikoji.interfaces.web.wire.incoming import QuickMessage, SeekMessage
from hanamikoji.interfaces.web.wire.lobby_messages import (
    LobbyPlayerInfo,
    LobbyState,
    Paired,
    Queued,
    SeekPosted,
    SeekWithdrawn,
    ShownRating,
)
from hanamikoji.interfaces.web.wire.outgoing import encode

__all__ = [
    "MAX_SEEKS",
    "GameMaker",
    "Lobby",
    "LobbyClient",
    "LobbyPlayer",
    "Pairing",
    "Seat",
    "Seek",
    "candidates",
    "window",
]

log = logging.getLogger("hanamikoji.web")

T = TypeVar("T")

MAX_SEEKS = 3
"""Open seeks one page may have at once."""

WINDOW_START = 100.0
WINDOW_GROWTH = 20.0
WINDOW_MAX = 700.0

RESYNC_EVERY = 15
"""Looks (:meth:`Lobby.tick`) between two readings of every seek from the database, in
case an event was missed (they are read again at once when the listener reconnects)."""

FORGET_GONE_S = 120.0
"""Seconds a gone seek's id is remembered, so that a late reading does not bring it back."""


def window(waited: float) -> float:
    """How far apart two ratings may be for a quick pairing, after ``waited`` seconds in
    the queue: 100 at once, 20 more each second, at most 700."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * waited)


@dataclass(frozen=True, slots=True)
class LobbyPlayer:
    """Who is in the lobby: the session's player (``account`` or a guest) and their
    rating in each variant they have one in."""

    id: str
    name: str
    account: bool
    ratings: Mapping[str, Rating] = field(default_factory=dict)

    def rating(self, variant: str) -> Rating:
        """The rating in ``variant``; a new player's (1500, provisional) without one."""
        rating = self.ratings.get(variant)
        return Rating() if rating is None else rating

    def in_seek(self, variant: str) -> SeekPlayer:
        """The player as a seek of ``variant`` shows them, on every instance."""
        rating = self.rating(variant)
        return SeekPlayer(self.id, self.name, self.account, rating.rating, provisional(rating))

    def rating_json(self, variant: str) -> ShownRating:
        rating = self.rating(variant)
        return ShownRating(rating=round(rating.rating), provisional=provisional(rating))

    def you(self) -> LobbyPlayerInfo:
        """The player as their own lobby page shows them: a rating per variant."""
        ratings = {variant: self.rating_json(variant) for variant in VARIANTS}
        return LobbyPlayerInfo(name=self.name, account=self.account, ratings=ratings)


class LobbyClient:
    """One open lobby page: its player (``None``: nobody signed in, it may only look)
    and where its messages go."""

    def __init__(self, player: LobbyPlayer | None, send: Callable[[str], None]) -> None:
        self.player = player
        self.send = send
        self.key = secrets.token_urlsafe(9)


def visible_to(seek: Seek, client: LobbyClient) -> bool:
    """Whether the page ``client`` may see ``seek``: its own, or its player is in range."""
    if client.key == seek.client:
        return True
    return client.player is not None and seek.admits(client.player.rating(seek.variant).rating)


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players (their ids) to seat in a new game of these settings (``seeker`` at
    seat 0)."""

    seeker: str
    opponent: str
    variant: str
    time_control: str
    rated: bool


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a paired game, and its token (``None``: not known here; the seat opens
    by its player's session)."""

    game: str
    seat: int
    token: str | None


GameMaker = Callable[[Pairing], Awaitable[tuple[Seat, Seat]]]
"""Creates the game of a pairing with both seats named; returns (seeker's, opponent's)."""

Run = Callable[[Callable[[], Any]], Awaitable[Any]]
"""Runs a blocking database write off the event loop (the hub's writer)."""


async def _in_thread(work: Callable[[], T]) -> T:
    return await asyncio.to_thread(work)


def candidates(queue: list[Waiting], now: int) -> list[tuple[Waiting, Waiting]]:
    """Pairs of ``queue`` that may play at ``now`` (ms), closest ratings first (then the
    longest waiting): same settings, two players, ratings within both windows."""
    found = []
    for a, b in itertools.combinations(queue, 2):
        if (a.variant, a.time_control, a.rated) != (b.variant, b.time_control, b.rated):
            continue
        if a.player == b.player:
            continue  # two pages of one player: never paired together
        gap = abs(a.rating - b.rating)
        if gap <= min(window((now - a.since) / 1000), window((now - b.since) / 1000)):
            found.append((gap, min(a.since, b.since), a, b))
    found.sort(key=lambda item: (item[0], item[1]))
    return [(a, b) for _, _, a, b in found]


class _MatcherLock:
    """PostgreSQL's session-level advisory lock of the lobby's matcher, on a connection
    of its own: held until released or until the connection (or its process) dies."""

    def __init__(self, url: str) -> None:
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
                    "SELECT pg_try_advisory_lock(hashtext('hanamikoji.lobby:' || current_schema()))"
                )
                row = await cursor.fetchone()
                self.held = bool(row and row[0])
        except Exception:
            log.exception("lobby: the matcher's connection failed")
            await self.release()
        return self.held

    async def release(self) -> None:
        self.held = False
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()


class Lobby:
    """The open seeks and the quick-pairing queue, as this instance serves them.

    Args:
        make_game: creates a pairing's game.
        store: the database.
        now: the server's time in ms (the hub's), for the queue's widening windows.
        run: runs a blocking write (the hub's writer; a thread by default).
        listener: the instance's events from the others (the hub's; needed on a shared
            database).
    """

    def __init__(
        self,
        make_game: GameMaker,
        store: Store,
        *,
        now: Callable[[], int] = wall_clock_ms,
        run: Run = _in_thread,
        listener: Listener | None = None,
    ) -> None:
        self.make_game = make_game
        self.now = now
        self.db = LobbyStore(store)
        self.me = store.instance
        self.shared = store.dialect != "sqlite"
        self._url = store.url
        self.listener = listener
        self._run = run
        self._clients: dict[str, LobbyClient] = {}
        # The copy of every open seek (all instances'), in the order they came.
        self._seeks: dict[str, Seek] = {}
        self._changes = 0  # counts the copy's changes
        self._stamps: dict[str, int] = {}  # the change that added each seek
        self._gone: dict[str, float] = {}  # seeks gone, and when (monotonic)
        self._queued: set[str] = set()  # this instance's pages in the queue
        self._lock: _MatcherLock | None = None
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
            self._lock = _MatcherLock(self._url)
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
        self._clients[client.key] = client
        client.send(encode(self.snapshot(client)))

    def leave(self, client: LobbyClient) -> None:
        """A page closed: its seeks go, and its place in the queue (here at once, in the
        database just after; nothing here waits, so a cancelled page's task still
        counts)."""
        self._clients.pop(client.key, None)
        self._queued.discard(client.key)
        mine = [seek.id for seek in self._seeks.values() if seek.client == client.key]
        for seek_id in mine:
            self._drop(seek_id)
        self._spawn(self._clear_page(client.key))

    async def _clear_page(self, key: str) -> None:
        try:
            await self._run(lambda: self.db.clear_page(key))
        except Exception:
            log.exception("lobby: could not clear a closed page's seeks")

    def snapshot(self, client: LobbyClient) -> LobbyState:
        return LobbyState(
            you=None if client.player is None else client.player.you(),
            seeks=tuple(
                s.public(s.client == client.key)
                for s in self._seeks.values()
                if visible_to(s, client)
            ),
            queued=client.key in self._queued,
        )

    @property
    def clients(self) -> int:
        return len(self._clients)

    # -- seeks ------------------------------------------------------------------------

    async def seek(self, client: LobbyClient, request: SeekMessage) -> Seek:
        """Open a seek. Raises :class:`Refused`: nobody signed in, a rated seek without
        an account, or too many open seeks."""
        player = _player(client, rated=request.rated)
        if sum(seek.client == client.key for seek in self._seeks.values()) >= MAX_SEEKS:
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
        self._add(seek)
        return seek

    async def cancel(self, client: LobbyClient, seek_id: str) -> None:
        """Withdraw a seek of this page's. Raises :class:`Refused` (``err_seek_gone``)."""
        seek = self._seeks.get(seek_id)
        if seek is None or seek.client != client.key:
            raise Refused("err_seek_gone")
        if not await self._run(lambda: self.db.withdraw(seek_id, client.key)):
            raise Refused("err_seek_gone")  # just accepted: its pairing is on its way
        self._drop(seek_id)

    async def accept(self, client: LobbyClient, seek_id: str) -> None:
        """Accept a seek: the game is made and both sides sent their seats. Raises
        :class:`Refused` when the seek is gone (another took it first), is the page's
        own, or does not admit the page's player (out of range, or rated without an
        account)."""
        seek = self._seeks.get(seek_id)
        if seek is None:
            raise Refused("err_seek_gone")
        player = _player(client, rated=seek.rated)
        if seek.client == client.key or seek.player.id == player.id:
            raise Refused("err_seek_own")
        if not seek.admits(player.rating(seek.variant).rating):
            raise Refused("err_seek_range")
        taken = await self._run(lambda: self.db.take_seek(seek_id, client.key))
        if taken is None:
            self._drop(seek_id)
            raise Refused("err_seek_gone")
        for removed in taken[1]:
            self._drop(removed)
        self._queued.discard(client.key)
        pairing = Pairing(seek.player.id, player.id, seek.variant, seek.time_control, seek.rated)
        await self._make(pairing, ((seek.client, seek.instance), (client.key, self.me)))

    def _add(self, seek: Seek) -> None:
        """A seek opened: into the copy, and to the pages here that may see it."""
        if seek.id in self._seeks or seek.id in self._gone:
            return
        self._changes += 1
        self._seeks[seek.id] = seek
        self._stamps[seek.id] = self._changes
        owner = self._clients.get(seek.client)
        if owner is not None:
            owner.send(encode(SeekPosted(seek=seek.public(True))))
        # One text for every other page: a seek is told to a thousand pages at once.
        message = encode(SeekPosted(seek=seek.public(False)))
        for other in self._clients.values():
            if other is not owner and visible_to(seek, other):
                other.send(message)

    def _drop(self, seek_id: str) -> None:
        """A seek went: out of the copy, and the pages here that saw it are told."""
        self._gone[seek_id] = time.monotonic()
        seek = self._seeks.pop(seek_id, None)
        if seek is None:
            return
        self._changes += 1
        self._stamps.pop(seek_id, None)
        message = encode(SeekWithdrawn(seek=seek.id))
        for other in self._clients.values():
            if visible_to(seek, other):
                other.send(message)

    async def resync(self) -> None:
        """Read every open seek again (events may have been missed) and tell the pages
        of the differences; seeks that came or went here during the reading stay as
        they are."""
        async with self._reading:
            began = self._changes
            rows = await asyncio.to_thread(self.db.seeks)
            found = {seek.id: seek for seek in rows}
            for seek_id in list(self._seeks):
                if seek_id not in found and self._stamps.get(seek_id, 0) <= began:
                    self._drop(seek_id)
            for seek in rows:
                self._add(seek)
            forget = time.monotonic() - FORGET_GONE_S
            self._gone = {key: at for key, at in self._gone.items() if at >= forget}

    # -- quick pairing ----------------------------------------------------------------

    async def enqueue(self, client: LobbyClient, request: QuickMessage) -> None:
        """Wait for an opponent with these settings; paired at once if one is close
        enough. Raises :class:`Refused` as :meth:`seek` does."""
        player = _player(client, rated=request.rated)
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
        self._queued.add(client.key)
        client.send(encode(Queued(queued=True)))
        if self.matching:  # else the matcher hears of it (QueueNote) and looks
            await self.pair_queue()

    async def dequeue(self, client: LobbyClient) -> None:
        if client.key in self._queued:
            self._queued.discard(client.key)
            await self._run(lambda: self.db.dequeue(client.key))
            client.send(encode(Queued(queued=False)))

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
                first, second = sorted((a, b), key=lambda waiting: waiting.since)
                removed = await self._run(
                    functools.partial(self.db.take_pair, first.client, second.client)
                )
                if removed is None:
                    continue  # one of them left meanwhile
                paired |= {a.client, b.client}
                for seek_id in removed:
                    self._drop(seek_id)
                sides = ((first.client, first.instance), (second.client, second.instance))
                for key, _ in sides:
                    self._queued.discard(key)
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
                self._drop(seek_id)
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
            client = self._clients.get(key)
            if client is not None:
                client.send(encode(_paired(seat.game, seat.seat, seat.token)))
            elif instance != self.me:
                await self._run(functools.partial(self.db.tell_paired, key, seat.game, seat.seat))

    # -- other instances (cluster/events.py) ------------------------------------------

    async def _on_event(self, event: Event) -> None:
        note = decode_note(event.data)
        if isinstance(note, SeekNote):
            self._add(note.seek)
        elif isinstance(note, UnseekNote):
            self._drop(note.seek)
        elif isinstance(note, PairedNote):
            self._queued.discard(note.client)
            client = self._clients.get(note.client)
            if client is not None:
                client.send(encode(_paired(note.game, note.seat, None)))
        elif isinstance(note, QueueNote) and self.matching:
            self._spawn(self._pair_quietly())

    async def _pair_quietly(self) -> None:
        try:
            await self.pair_queue()
        except Exception:
            log.exception("quick pairing failed")

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _paired(game: str, seat: int, token: str | None) -> Paired:
    """A page's seat: with its token when known here, else opened by the session."""
    return Paired(game=game, seat=seat, token=msgspec.UNSET if token is None else token)


def _player(client: LobbyClient, *, rated: bool) -> LobbyPlayer:
    """The page's player, who may seek or accept: refused without one, or without an
    account for a rated game."""
    if client.player is None:
        raise Refused("err_signed_out")
    if rated and not client.player.account:
        raise Refused("err_rated_account")
    return client.player
