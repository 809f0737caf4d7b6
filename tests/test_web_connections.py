"""Connections that never finish a request, and too many from one address (issue 46
item 5), against ``hanamikoji serve`` on loopback with real sockets: a connection that
sends nothing, or half a request trickled byte by byte, is closed after the header
timeout; the (N+1)th connection from one address is closed at once while the first N
stay open, and a trusted proxy's address is not capped; a normal client is served
meanwhile, and a game's WebSocket outlives the header timeout."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Iterator

import httpx2 as httpx
import pytest
import websockets
from serving import Server, free_port

from hanamikoji.interfaces.web.http.connections import ConnectionGuard

TIMEOUT = 2
CAP = 5
PROXY = "127.0.0.3"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("connections")
    options = (
        "--bot-delay", "0", "--bot-processes", "0",
        "--header-timeout", str(TIMEOUT),
        "--connections-per-address", str(CAP),
        "--trusted-proxy", PROXY,
    )  # fmt: skip
    with Server(root / "games.sqlite3", free_port(), *options) as running:
        yield running


def connect(server: Server, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the server from ``source`` (any 127.x address is loopback)."""
    client = socket.socket()
    client.bind((source, 0))
    client.connect(("127.0.0.1", server.port))
    return client


def closed_within(
    client: socket.socket, seconds: float, since: float | None = None
) -> float | None:
    """How long until the server closed ``client``, from ``since`` (a ``time.monotonic()``
    reading; by default now), or ``None`` if it is still open ``seconds`` from now; what
    it sent meanwhile is read and dropped."""
    began = time.monotonic() if since is None else since
    client.settimeout(seconds)
    try:
        while client.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - began


def still_open(client: socket.socket) -> bool:
    client.setblocking(False)
    try:
        return client.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        client.setblocking(True)


def ask_health(client: socket.socket, server: Server) -> bytes:
    """``GET /healthz`` on an open connection: the whole answer (status line, headers
    and body)."""
    client.settimeout(5)
    client.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += client.recv(4096)
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += client.recv(4096)
    return head + b"\r\n\r\n" + body


def healthy(server: Server) -> bool:
    return httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200


def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(
    server: Server,
) -> None:
    opened = time.monotonic()
    with connect(server) as silent:
        assert healthy(server)  # another client is served meanwhile
        # Timed from the connection's start, as the server times it: the health check
        # above may take a good part of the timeout on a busy machine.
        waited = closed_within(silent, TIMEOUT + 5, since=opened)
        assert waited is not None, "the silent connection was never closed"
        assert TIMEOUT - 0.5 <= waited <= TIMEOUT + 3


def test_half_a_request_trickled_byte_by_byte_is_closed_after_the_header_timeout(
    server: Server,
) -> None:
    with connect(server) as slow:
        began = time.monotonic()
        for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200:
            try:
                slow.send(bytes([byte]))
            except OSError:
                break
            if not still_open(slow):
                break
            time.sleep(0.1)
        assert closed_within(slow, TIMEOUT + 5) is not None
        assert time.monotonic() - began <= TIMEOUT + 3


def test_a_keep_alive_client_gets_each_request_answered(server: Server) -> None:
    """The timer restarts with each answer: requests on one connection, each sent
    well within the timeout, are all answered."""
    with connect(server) as client:
        for _ in range(3):
            answer = ask_health(client, server)
            assert answer.startswith(b"HTTP/1.1 200"), answer
            time.sleep(TIMEOUT * 0.6)


def test_one_address_holds_at_most_the_cap_and_others_are_served(server: Server) -> None:
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(connect(server, "127.0.0.2")) for _ in range(CAP)]
        time.sleep(0.2)
        one_more = stack.enter_context(connect(server, "127.0.0.2"))
        waited = closed_within(one_more, 1.0)
        assert waited is not None and waited < 1.0, "the connection over the cap stayed"
        assert all(still_open(client) for client in held)
        assert healthy(server)  # another address is served meanwhile
        # A trusted proxy's address carries every player behind it: no cap.
        proxied = [stack.enter_context(connect(server, PROXY)) for _ in range(CAP + 2)]
        time.sleep(0.2)
        assert all(still_open(client) for client in proxied)
    time.sleep(0.3)  # the held connections are closed: the address may connect again
    with connect(server, "127.0.0.2") as again:
        assert ask_health(again, server).startswith(b"HTTP/1.1 200")
    assert "holds 5 connections, the most one address may" in server.stderr


def test_a_game_socket_outlives_the_header_timeout(server: Server) -> None:
    game = httpx.post(f"{server.url}/api/games", json={"opponent": "friend"}, timeout=10).json()

    async def play() -> list[str]:
        url = f"ws://127.0.0.1:{server.port}/ws/{game['id']}"
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": game["token"]}))
            kinds = [json.loads(await ws.recv())["type"]]
            await asyncio.sleep(TIMEOUT + 1)
            await ws.send(json.dumps({"type": "ping"}))
            while kinds[-1] != "pong":
                kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 5))["type"])
            return kinds

    # A game between people also sends its chat room's history after the state.
    assert asyncio.run(play()) in (["state", "pong"], ["state", "chat", "pong"])


def test_the_guard_counts_each_address_apart() -> None:
    guard = ConnectionGuard(2, 10.0, exempt=["10.0.0.9"])
    assert guard.admit("10.0.0.1") and guard.admit("10.0.0.1")
    assert not guard.admit("10.0.0.1")
    assert guard.admit("10.0.0.2")
    assert all(guard.admit("10.0.0.9") for _ in range(5))
    guard.release("10.0.0.1")
    assert guard.open_from("10.0.0.1") == 1
    assert guard.admit("10.0.0.1")
