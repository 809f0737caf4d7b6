"""What stands between the network and the routes: the hosts and origins the server
answers, bodies read with their limit, and rate limits.

* **Hosts.** A request whose ``Host`` is not one of the server's names is refused with
  400 before any route runs (Starlette's ``TrustedHostMiddleware``), so a page of
  another site that rebinds its name to this server's address (DNS rebinding) reaches
  nothing. By default the names are the listening address and loopback's.
* **Origins.** A browser page may call only from the server's own origin (the allowed
  ``Host`` with the server's scheme) or an origin named by ``--allow-origin``.
* **Bodies** are read as they stream in, and refused as soon as they pass the limit;
  socket messages are taken as they come, text or binary, for ``wire/incoming.py`` to decode.
* **Sockets.** One client address may hold a number of WebSockets at once (games,
  spectators, the lobby), and one seat a few (:data:`SEAT_SOCKETS`): a seat's newest page
  replaces its oldest, so a reload always works, and each socket's message budget cannot
  be multiplied by opening hundreds.
* **Rates.** New games per client address and messages per socket are limited
  (``limits``' moving window, in memory); sign-in attempts per client address and per
  account name too, counted in the database every instance shares; what goes over is
  refused, and nothing else is harmed. A socket over its message rate is told once per
  window, and the rest of that window is dropped unread (:class:`MessageBudget`, the
  game's socket's and the lobby's).

>>> loopback_hosts("0.0.0.0")[:3]
('localhost', '127.0.0.1', '[::1]')
>>> print(parse_rate("20/minute"))
20 per 1 minute
>>> parse_rate("off") is None
True
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar
from urllib.parse import parse_qs, urlsplit

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from hanamikoji.interfaces.web.wire.refused import Refused, whole_number

__all__ = [
    "CLOSE_TOO_MANY_SOCKETS",
    "LOOPBACK_HOSTS",
    "SEAT_SOCKETS",
    "MessageBudget",
    "RateGuard",
    "SeatSockets",
    "SocketCap",
    "loopback_hosts",
    "origin_allowed",
    "parse_rate",
    "read_body",
    "receive_message",
]

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
_WILDCARDS = ("0.0.0.0", "::", "")


def loopback_hosts(listen: str) -> tuple[str, ...]:
    """The names a server listening on ``listen`` answers by default: loopback's, the
    listening address, and, on every interface (``0.0.0.0``, ``::``), this machine's
    name and the addresses it resolves to."""
    names = list(LOOPBACK_HOSTS)
    if listen in _WILDCARDS:
        hostname = socket.gethostname()
        names.append(hostname)
        try:
            infos = socket.getaddrinfo(hostname, None)
        except OSError:
            infos = []
        names.extend(_host_form(str(info[4][0])) for info in infos)
    else:
        names.append(_host_form(listen))
    return tuple(dict.fromkeys(name.lower() for name in names))


def _host_form(address: str) -> str:
    """An address as it appears in a ``Host`` header (IPv6 in brackets)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    return f"[{parsed}]" if parsed.version == 6 else str(parsed)


def origin_allowed(connection: HTTPConnection, extra: frozenset[str]) -> bool:
    """Whether the caller is not a page of another site. Browsers always send
    ``Origin`` on WebSockets and cross-site POSTs; other clients (scripts, the
    benchmark) send none and cannot be made to act for a player's page. The ``Host``
    was already checked against the allowed names."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if origin in extra:
        return True
    secure = connection.url.scheme in ("https", "wss")
    parts = urlsplit(origin)
    return parts.scheme == ("https" if secure else "http") and parts.netloc == (
        connection.headers.get("host")
    )


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (``err_too_long``) as soon as it passes ``limit``
    bytes: a declared length over it is refused before anything is read."""
    declared = whole_number(request.headers.get("content-length", ""), limit + 1)
    if declared is not None and declared > limit:
        raise Refused("err_too_long", limit=limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused("err_too_long", limit=limit)
        chunks.append(chunk)
    return b"".join(chunks)


async def receive_message(websocket: WebSocket) -> str | bytes | None:
    """The next message of a socket, a text frame's text or a binary frame's bytes (the
    schema's decoder takes both, and refuses what is not JSON); ``None`` once the socket
    is closed."""
    try:
        message = await websocket.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


def parse_rate(text: str) -> RateLimitItem | None:
    """A rate such as ``20/minute`` or ``10/second``; ``off`` for none. Raises
    ``ValueError`` for anything else."""
    if text.strip().lower() == "off":
        return None
    try:
        rate = parse(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a rate such as 20/minute, 10/second or off") from None
    if rate.amount <= 0:
        raise ValueError(f"a rate allows at least 1, not {rate.amount}")
    return rate


class RateGuard:
    """Counts new games per client address and messages per socket, in this instance's
    memory; holds the sign-in limit, which is counted in the database that every
    instance shares (``db/attempts.py``).

    Args:
        create: new games one address may create (``None``: no limit).
        messages: messages one socket may send (``None``: no limit).
        login: sign-in attempts (signing in, registering, a guest's nickname) one address
            may make, and attempts to sign in to one account name (``None``: no limit).
    """

    def __init__(
        self,
        create: RateLimitItem | None,
        messages: RateLimitItem | None,
        login: RateLimitItem | None = None,
    ) -> None:
        self.create = create
        self.messages = messages
        self.login = login
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def allow_create(self, address: str) -> float | None:
        """``None`` if ``address`` may create a game now (counting it), else the
        seconds to wait."""
        return self._hit(self.create, "create", address)

    def allow_message(self, socket_key: str) -> float | None:
        """``None`` if the socket may send a message now (counting it), else the
        seconds to wait."""
        return self._hit(self.messages, "message", socket_key)

    def _hit(self, rate: RateLimitItem | None, *key: str) -> float | None:
        if rate is None or self._limiter.hit(rate, *key):
            return None
        reset = self._limiter.get_window_stats(rate, *key).reset_time
        return max(0.0, reset - time.time())


class MessageBudget:
    """One socket's messages against the message rate (:meth:`RateGuard.allow_message`):
    the first message over it in a window is refused with ``err_rate_limited`` (and the
    wait), what comes on top of that in the same window is dropped unread, so a flood
    costs the server no answers and the page hears it once.

    Args:
        rates: the server's rate limits.
        key: the socket's own key (one budget per socket).
        clock: seconds, monotonic (tests may pass their own).
    """

    def __init__(
        self, rates: RateGuard, key: str, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rates = rates
        self.key = key
        self._clock = clock
        self._told_until = float("-inf")

    def admit(self) -> bool:
        """Count the socket's next message: ``True`` to read it, ``False`` to drop it
        unread; raises :class:`Refused` (``err_rate_limited``) for the first message over
        the rate in a window, which the caller sends to the page."""
        wait = self.rates.allow_message(self.key)
        if wait is None:
            return True
        now = self._clock()
        if now < self._told_until:
            return False
        self._told_until = now + wait
        raise Refused("err_rate_limited", seconds=max(1, round(wait)))


SEAT_SOCKETS = 4
"""Sockets one seat of a game may have open on one instance: a fifth page at the seat
closes the oldest (``err_replaced``, close code 4409)."""

H = TypeVar("H")


class SeatSockets(Generic[H]):
    """The sockets open at each seat, oldest first, at most ``per_seat`` of them."""

    def __init__(self, per_seat: int = SEAT_SOCKETS) -> None:
        self.per_seat = per_seat
        self._open: dict[Hashable, list[H]] = {}

    def opened(self, seat: Hashable, socket: H) -> list[H]:
        """Count ``socket`` at ``seat``; the oldest ones it pushes over the cap, which the
        caller closes (they are counted no more)."""
        sockets = self._open.setdefault(seat, [])
        sockets.append(socket)
        over = len(sockets) - self.per_seat
        if over <= 0:
            return []
        oldest, sockets[:over] = sockets[:over], []
        return oldest

    def closed(self, seat: Hashable, socket: H) -> None:
        sockets = self._open.get(seat, [])
        if socket in sockets:
            sockets.remove(socket)
        if not sockets:
            self._open.pop(seat, None)

    def at(self, seat: Hashable) -> list[H]:
        """The sockets open at ``seat``, oldest first."""
        return list(self._open.get(seat, []))


CLOSE_TOO_MANY_SOCKETS = 4429


class SocketCap:
    """An ASGI middleware: every WebSocket counts against its client's address (the one
    ``--trusted-proxy``'s ``X-Forwarded-For`` names, as for the other limits per
    address); one over ``per_address`` is accepted, told ``refusal(lang)`` (the
    language of its ``lang`` query) and closed with 4429, before any route sees it."""

    def __init__(self, app: ASGIApp, per_address: int, refusal: Callable[[str, int], str]) -> None:
        self.app = app
        self.per_address = per_address
        self.refusal = refusal
        self._open: dict[str, int] = {}

    def open_from(self, address: str) -> int:
        return self._open.get(address, 0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        if self._open.get(address, 0) >= self.per_address:
            await self._refuse(scope, receive, send)
            return
        self._open[address] = self._open.get(address, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self._open[address] - 1
            if left:
                self._open[address] = left
            else:
                del self._open[address]

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message: Message = await receive()
        if message["type"] != "websocket.connect":
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        lang = (query.get("lang") or ["en"])[0]
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": self.refusal(lang, self.per_address)})
        await send({"type": "websocket.close", "code": CLOSE_TOO_MANY_SOCKETS})
