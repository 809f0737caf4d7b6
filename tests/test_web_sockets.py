"""Caps on WebSockets (issue 46 item 7): a seat keeps its 4 newest sockets (a fifth page
closes the oldest with ``err_replaced`` and 4409, so a reload always gets its seat), and
one client address may have ``--sockets-per-address`` sockets of every kind open (one
more is told ``err_too_many_sockets`` and closed with 4429); 300 sockets on one seat,
each with its own message budget, were accepted before."""

from __future__ import annotations

import contextlib
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from serving import app_client
from web_support import create, hello

from hanamikoji.interfaces.web.games.sockets import CLOSE_REPLACED
from hanamikoji.interfaces.web.http.guards import CLOSE_TOO_MANY_SOCKETS, SEAT_SOCKETS


def until_closed(ws: Any) -> tuple[list[dict[str, Any]], int]:
    """The messages a socket gets until the server closes it, and the close code."""
    messages: list[dict[str, Any]] = []
    while True:
        message = ws.receive()
        if message["type"] == "websocket.close":
            return messages, int(message["code"])
        messages.append(json.loads(message["text"]))


def pong(ws: Any) -> bool:
    ws.send_text(json.dumps({"type": "ping"}))
    while True:
        message = json.loads(ws.receive_text())
        if message["type"] == "pong":
            return True


def test_a_fifth_page_at_a_seat_closes_the_oldest() -> None:
    with app_client() as client, contextlib.ExitStack() as stack:
        game = create(client, opponent="friend")
        path = f"/ws/{game['id']}"
        pages = []
        for _ in range(SEAT_SOCKETS):
            page = stack.enter_context(client.websocket_connect(path))
            hello(page, game["token"])
            pages.append(page)
        newest = stack.enter_context(client.websocket_connect(path))
        hello(newest, game["token"])
        waiting = ThreadPoolExecutor(1)  # fails, rather than hangs, if it stays open
        stack.callback(waiting.shutdown, wait=False)
        told, code = waiting.submit(until_closed, pages[0]).result(timeout=10)
        assert code == CLOSE_REPLACED
        assert [m["code"] for m in told if m["type"] == "error"] == ["err_replaced"]
        assert all(pong(page) for page in [*pages[1:], newest])
        # The other seat is another seat: its pages count apart.
        other = stack.enter_context(client.websocket_connect(path))
        hello(other, game["friend_token"])
        assert all(pong(page) for page in [*pages[1:], newest, other])


def test_one_address_may_open_only_so_many_sockets_of_any_kind() -> None:
    with app_client(sockets_per_address=3) as client, contextlib.ExitStack() as stack:
        game = create(client, opponent="friend")
        lobby = [stack.enter_context(client.websocket_connect("/lobby/ws")) for _ in range(2)]
        seat = stack.enter_context(client.websocket_connect(f"/ws/{game['id']}"))
        hello(seat, game["token"])
        with client.websocket_connect(f"/ws/{game['id']}/watch?lang=fr") as refused:
            told, code = until_closed(refused)
        assert code == CLOSE_TOO_MANY_SOCKETS
        assert [m["code"] for m in told] == ["err_too_many_sockets"]
        assert "3" in told[0]["message"] and "pages" in told[0]["message"]  # in French
        assert pong(seat) and all(pong(ws) for ws in lobby)
        lobby[0].close()
        deadline = time.monotonic() + 5  # the server notices the close in its own time
        while True:
            with client.websocket_connect(f"/ws/{game['id']}/watch") as watcher:
                first = json.loads(watcher.receive_text())
            if first["type"] == "state" or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert first["type"] == "state", first
