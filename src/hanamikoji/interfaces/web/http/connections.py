"""The connections a server accepts: a header timeout, and a cap per client address.

Reached without nginx, uvicorn closes an idle connection only between two requests (its
keep-alive timeout starts when a response ends); a connection that never completes a
request (nothing sent, or half a request line trickled byte by byte) stays open for
good, and 20,000 of them exhaust the process's file descriptors. So every connection is
wrapped (:func:`guarded`, the ``http`` protocol given to uvicorn) by a protocol that:

* **times the headers**: a request's headers must be complete (the empty line after them)
  within ``header_timeout`` seconds of the connection's start, or of the server's last
  write on it (the next request's turn); otherwise the connection is closed. Once the
  headers are in, the timer stops until the server answers; a connection upgraded to a
  WebSocket is timed no more (the server pings it every 20 s, and a game socket must say
  ``hello`` within 10 s);
* **caps connections per client address**: one address may hold at most
  ``per_address`` open connections (HTTP and WebSocket alike); one more is closed at once.
  The address is the TCP peer's: a reverse proxy's own address (``--trusted-proxy``) is
  exempt, since every player behind it shares it (nginx has its own limits,
  ``deploy/nginx.conf``).

The wrapper only relays what the asyncio transport and protocol say to each other: it
works with whichever HTTP and WebSocket implementation uvicorn chose.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any, cast

__all__ = ["ConnectionGuard", "GuardedProtocol", "guarded"]

log = logging.getLogger("hanamikoji.web")

HEADER_ENDS = (b"\r\n\r\n", b"\n\n")
"""What ends a request's headers (the second: a client that sends bare line feeds)."""


class ConnectionGuard:
    """The open connections per client address, and the limits on them.

    Args:
        per_address: connections one address may hold open at once.
        header_timeout: seconds a connection has to send a request's headers.
        exempt: addresses never capped (trusted reverse proxies).
    """

    def __init__(self, per_address: int, header_timeout: float, exempt: Iterable[str] = ()) -> None:
        self.per_address = per_address
        self.header_timeout = header_timeout
        self.exempt = frozenset(exempt)
        self._open: dict[str, int] = {}
        self._warned: set[str] = set()

    def admit(self, address: str) -> bool:
        """Whether a new connection from ``address`` may stay (counted if so)."""
        count = self._open.get(address, 0)
        if count >= self.per_address and address not in self.exempt:
            if address not in self._warned:  # once per address while it stays at its cap
                self._warned.add(address)
                log.warning(
                    "%s holds %d connections, the most one address may: refusing more",
                    address,
                    count,
                )
            return False
        self._open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        """A connection from ``address`` closed."""
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)
            self._warned.discard(address)

    def open_from(self, address: str) -> int:
        """How many connections ``address`` holds open now."""
        return self._open.get(address, 0)


class _Transport:
    """The transport as the wrapped protocol sees it: the real one, except that a write
    starts the header timer again and an upgrade swaps the protocol inside the wrapper."""

    def __init__(self, real: asyncio.Transport, owner: GuardedProtocol) -> None:
        self._real = real
        self._owner = owner

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._owner.server_wrote()
        self._real.write(data)

    def writelines(self, chunks: Iterable[bytes | bytearray | memoryview]) -> None:
        self._owner.server_wrote()
        self._real.writelines(chunks)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._owner.upgraded(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._owner.inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class GuardedProtocol(asyncio.Protocol):
    """Wraps one connection's protocol (``inner``) under ``guard``'s limits."""

    def __init__(self, inner: asyncio.Protocol, guard: ConnectionGuard) -> None:
        self.inner: asyncio.BaseProtocol = inner
        self.guard = guard
        self.address = ""
        self._admitted = False
        self._timed = True
        self._timer: asyncio.TimerHandle | None = None
        self._tail = b""
        self._transport: asyncio.Transport | None = None

    # -- what the transport tells the protocol -------------------------------------------

    def connection_made(self, base: asyncio.BaseTransport) -> None:
        # A stream's transport (uvloop's are not asyncio.Transport's subclasses).
        transport = cast(asyncio.Transport, base)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.guard.admit(self.address):
            transport.close()
            return
        self._admitted = True
        self._transport = transport
        self._arm()
        self.inner.connection_made(_Transport(transport, self))  # type: ignore[arg-type]

    def data_received(self, data: bytes) -> None:
        if not self._admitted:
            return
        if self._timer is not None:
            seen = self._tail + data
            if any(end in seen for end in HEADER_ENDS):
                self._disarm()  # the headers are in: the server's turn
            else:
                self._tail = seen[-3:]
        self.inner.data_received(data)  # type: ignore[attr-defined]

    def eof_received(self) -> bool | None:
        if not self._admitted:
            return None
        result: bool | None = self.inner.eof_received()  # type: ignore[attr-defined]
        return result

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._admitted = False
        self._disarm()
        self.guard.release(self.address)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self._admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self._admitted:
            self.inner.resume_writing()

    # -- what the wrapped protocol does --------------------------------------------------

    def server_wrote(self) -> None:
        """The server answered: the next request's headers are due within the timeout
        of its last write."""
        if self._timed:
            self._disarm()
            self._arm()

    def upgraded(self, protocol: asyncio.BaseProtocol) -> None:
        """The connection became a WebSocket: its new protocol gets what comes next."""
        self._timed = False
        self._disarm()
        self.inner = protocol

    # -- the header timer ----------------------------------------------------------------

    def _arm(self) -> None:
        self._tail = b""
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.guard.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expired(self) -> None:
        self._timer = None
        if self._transport is not None and not self._transport.is_closing():
            self._transport.close()


def guarded(
    inner: Callable[..., asyncio.Protocol], guard: ConnectionGuard
) -> type[asyncio.Protocol]:
    """A protocol class for uvicorn's ``http`` option: each connection gets ``inner``'s
    protocol (uvicorn's own, made with the arguments uvicorn passes), under ``guard``."""

    class Guarded(GuardedProtocol):
        def __init__(self, **options: Any) -> None:
            super().__init__(inner(**options), guard)

    return Guarded
