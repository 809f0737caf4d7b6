"""Events between server instances on one PostgreSQL database: LISTEN/NOTIFY.

Every write another instance must hear of (a decision, a game ended outside the rules,
a rematch, a page opened or closed at a seat, a lobby change) sends one :class:`Event`
with ``pg_notify`` inside the transaction that writes it (:func:`notify`), so it is
delivered after the commit, in commit order, and never for a write that rolled back.
Each instance listens on its own connection (:class:`Listener`) and hands each event to
the handler of its topic; its own events come back too and are dropped by origin.

A decision's event carries the decision itself (ply, text, time, the game's owner after
it), so an instance showing the game applies it without reading the database; any other
event says only which game (or lobby item) changed, and the instance reads it again.

On SQLite there is one instance (``instances.py`` refuses a second): :func:`notify` does
nothing and no listener runs.

>>> event = Event("game", "abc", "i1", ply=3, move="G>D", at=17)
>>> decode_event(encode_event(event)) == event
True
>>> decode_event("not an event") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import msgspec
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.engine.url import make_url

__all__ = ["CHANNEL", "Event", "Listener", "decode_event", "encode_event", "notify"]

log = logging.getLogger("hanamikoji.web")

CHANNEL = "hanamikoji"
"""The one NOTIFY channel every instance listens on."""

RECONNECT_DELAY = 0.5
"""Seconds between attempts to reconnect a listener whose connection dropped."""

START_TIMEOUT = 30.0
"""Seconds a starting server waits for its listener's first connection."""


class Event(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True):
    """Something another instance wrote.

    ``topic`` says what changed (``game``, ``presence``, ``lobby``), ``key`` which one
    (a game id), ``origin`` which instance wrote it. A ``game`` event for a decision
    carries its ``ply`` (≥ 0), ``move`` text, commit time ``at`` (ms) and the game's
    ``owner`` after it; other events leave them unset (``ply`` -1) and ``data`` is free
    for the topic's own use.
    """

    topic: str
    key: str
    origin: str
    ply: int = -1
    move: str = ""
    at: int = 0
    owner: str = ""
    data: str = ""


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)


def encode_event(event: Event) -> str:
    return _encoder.encode(event).decode("utf-8")


def decode_event(payload: str) -> Event | None:
    """The event of a payload; ``None`` for one this code cannot read."""
    try:
        return _decoder.decode(payload)
    except msgspec.DecodeError:
        return None


def notify(connection: Connection, *events: Event) -> None:
    """Send ``events`` when ``connection``'s transaction commits, in order, in one
    statement (PostgreSQL only)."""
    if connection.dialect.name == "postgresql" and events:
        connection.execute(
            text(
                "SELECT pg_notify(:channel, payload)"
                " FROM unnest(CAST(:payloads AS text[])) AS payload"
            ),
            {"channel": CHANNEL, "payloads": [encode_event(event) for event in events]},
        )


Handler = Callable[[Event], Awaitable[None]]


class Listener:
    """Listens on :data:`CHANNEL` on its own connection to the database at ``url`` (an
    SQLAlchemy PostgreSQL URL) and runs the handler of each event's topic, each in its
    own task. Events from ``origin`` (this instance) are dropped. A dropped connection is
    reopened; the ``on_reconnect`` callbacks then run, since events were missed
    meanwhile. One listener serves a whole instance (the hub's games, the lobby)."""

    def __init__(self, url: str, origin: str) -> None:
        self._conninfo = (
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self.origin = origin
        self._reconnected: list[Callable[[], Awaitable[None]]] = []
        self._handlers: dict[str, Handler] = {}
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._listening = asyncio.Event()

    def on(self, topic: str, handler: Handler) -> None:
        self._handlers[topic] = handler

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        self._reconnected.append(callback)

    async def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start listening; returns once the first LISTEN is in place. Raises
        ``TimeoutError`` when it is not within ``timeout`` seconds (the listener is
        stopped then)."""
        self._task = asyncio.create_task(self._run())
        try:
            await asyncio.wait_for(self._listening.wait(), timeout)
        except TimeoutError:
            await self.close()
            raise TimeoutError(f"could not LISTEN on the database within {timeout:g} s") from None

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for task in list(self._running):
            task.cancel()
        for task in list(self._running):
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if not first:
                        for callback in self._reconnected:
                            self._spawn(callback())
                    first = False
                    async for notice in connection.notifies():
                        self._dispatch(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("event listener: connection lost; reconnecting")
                first = False
                await asyncio.sleep(RECONNECT_DELAY)

    def _dispatch(self, payload: str) -> None:
        event = decode_event(payload)
        if event is None or event.origin == self.origin:
            return
        handler = self._handlers.get(event.topic)
        if handler is not None:
            self._spawn(handler(event))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("event handler failed")

        task = asyncio.create_task(run())
        self._running.add(task)
        task.add_done_callback(self._running.discard)
