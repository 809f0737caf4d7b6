"""The web server against hostile and broken clients: every defect found by trying it as
an attacker would is a test here (bodies of the wrong kind, deep nesting, DNS rebinding,
huge bodies, floods, a second ``hello``), and so is the server's cleanup (no worker
process outlives it, however it stops)."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from serving import Server, app_client, descendants, free_port, served
from starlette.requests import Request
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.types import Message
from web_support import bearer

from hanamikoji.bots.levels import LEVELS
from hanamikoji.interfaces.messages import MESSAGES
from hanamikoji.interfaces.web.catalog.lookup import UI
from hanamikoji.interfaces.web.games.sockets import CLOSE_BAD_SEAT
from hanamikoji.interfaces.web.http.guards import RateGuard, loopback_hosts, parse_rate, read_body
from hanamikoji.interfaces.web.http.refusals import STATUS
from hanamikoji.interfaces.web.wire.refused import Refused

WEB_DOC = Path(__file__).resolve().parent.parent / "docs" / "web.md"
JSON_TYPE = {"Content-Type": "application/json"}
NESTED = "[" * 2000 + "]" * 2000


def make_client(**options: Any) -> TestClient:
    return app_client(**options)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with make_client() as test_client:
        yield test_client


def new_game(client: TestClient, **settings: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=settings)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def games_in(client: TestClient) -> int:
    store = served(client).store
    with store.engine.connect() as connection:
        count: int = connection.exec_driver_sql("SELECT count(*) FROM games").scalar_one()
    return count


def next_message(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["type"] == kind:
            return message


# -- bodies ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"opponent": "bot", "level": []},
        {"opponent": "bot", "level": {}},
        {"level": 1.0},
        {"level": True},
        {"level": "2"},
        {"level": 99},
        {"level": None},
    ],
)
def test_a_level_of_the_wrong_kind_is_refused_not_a_crash(
    client: TestClient, body: dict[str, Any]
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert response.json()["code"] == "err_bad_field"
    assert "'level'" in response.json()["message"]
    assert games_in(client) == 0


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": ["classic"]}, "err_bad_field"),
        ({"first": 0}, "err_bad_field"),
        ({"opponent": "friend", "extra": 1}, "err_bad_field"),
        ({"opponent": {"nested": [1, [2]]}}, "err_bad_field"),
    ],
)
def test_every_field_is_checked_by_its_schema(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    response = client.post("/api/games", json=body)
    assert (response.status_code, response.json()["code"]) == (400, code)


def test_an_empty_object_means_every_default(client: TestClient) -> None:
    assert new_game(client)["friend_token"] is None


def test_a_body_that_is_not_json_by_its_type_is_refused(client: TestClient) -> None:
    for media in ("text/plain", "application/x-www-form-urlencoded", ""):
        response = client.post("/api/games", content=b"{}", headers={"Content-Type": media})
        assert response.status_code == 415
        assert response.json()["code"] == "err_content_type"
    assert games_in(client) == 0
    typed = client.post("/api/games", content=b"{}", headers={"Content-Type": "application/json"})
    assert typed.status_code == 201


def test_a_deeply_nested_body_is_refused_not_a_crash(client: TestClient) -> None:
    response = client.post("/api/games", content=NESTED.encode(), headers=JSON_TYPE)
    assert response.status_code == 400 and response.json()["code"] == "err_not_object"
    inside = '{"level": ' + NESTED + "}"
    response = client.post("/api/games", content=inside.encode(), headers=JSON_TYPE)
    assert response.status_code == 400 and response.json()["code"] == "err_bad_field"


NOT_UTF8_BODIES = [
    ("/api/games", b'{"variant":"\xc3\x28"}'),  # a two-byte lead, then "("
    ("/api/me/guest", b'{"nickname":"Hana\xff"}'),
    ("/api/me/register", b'{"name":"\xc3\x28","password":"a good password"}'),
    ("/api/me/login", b'{"name":"Ann","password":"\xed\xa0\x80"}'),  # a surrogate's bytes
]
"""A body per route whose JSON is well formed but one of whose strings is not UTF-8."""


def players_in(client: TestClient) -> int:
    store = served(client).store
    with store.engine.connect() as connection:
        count: int = connection.exec_driver_sql("SELECT count(*) FROM players").scalar_one()
    return count


@pytest.mark.parametrize(("route", "body"), NOT_UTF8_BODIES)
def test_a_string_that_is_not_utf8_is_not_json(client: TestClient, route: str, body: bytes) -> None:
    response = client.post(route, content=body, headers=JSON_TYPE)
    assert response.status_code == 400 and response.json()["code"] == "err_not_json"
    assert games_in(client) == 0 and players_in(client) == 0


def test_a_string_that_is_not_utf8_keeps_a_real_servers_connection(tmp_path: Path) -> None:
    """Over one keep-alive connection: each route answers 400, the connection stays
    open for the next request, and the server logs no traceback."""
    with Server(tmp_path / "games.sqlite3", free_port()) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            for route, body in NOT_UTF8_BODIES:
                connection.request("POST", route, body=body, headers=JSON_TYPE)
                response = connection.getresponse()
                answer = json.loads(response.read())
                assert (response.status, answer["code"]) == (400, "err_not_json"), route
                assert not response.will_close and connection.sock is not None, route
            connection.request("GET", "/healthz")
            assert connection.getresponse().status == 200
        finally:
            connection.close()
    assert "Traceback" not in server.stderr, server.stderr


def test_a_declared_length_over_the_limit_is_refused_unread(client: TestClient) -> None:
    headers = {**JSON_TYPE, "Content-Length": str(20 * 1024 * 1024)}
    response = client.post("/api/games", content=b"{}" + b" " * 5000, headers=headers)
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("declared", "refused"),
    [("9" * 5000, True), ("0" * 5000 + "2", False), ("\u00b2", False), ("4097", True)],
)
def test_a_declared_length_of_any_digits_is_read_without_int(declared: str, refused: bool) -> None:
    """A ``Content-Length`` past ``int()``'s 4,300 digits is over the limit (413), not a
    crash; one that is no number in ASCII digits leaves the limit to the body itself."""

    async def receive() -> Message:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    headers = [(b"content-length", declared.encode("latin-1"))]
    request = Request({"type": "http", "method": "POST", "headers": headers}, receive)
    if refused:
        with pytest.raises(Refused, match="err_too_long"):
            asyncio.run(read_body(request, 4096))
    else:
        assert asyncio.run(read_body(request, 4096)) == b"{}"


def test_a_streamed_body_is_refused_as_soon_as_it_passes_the_limit() -> None:
    """A 20 MB body sent without a length: reading stops at the first chunk past the
    limit instead of taking it all in."""
    chunk = b" " * 65536
    sent = 0

    async def receive() -> Message:
        nonlocal sent
        sent += 1
        return {"type": "http.request", "body": chunk, "more_body": sent < 320}

    request = Request({"type": "http", "method": "POST", "headers": []}, receive)
    with pytest.raises(Refused) as refused:
        asyncio.run(read_body(request, 4096))
    assert refused.value.key == "err_too_long"
    assert sent == 1


# -- hosts and origins ----------------------------------------------------------------


@pytest.fixture
def loopback_client() -> Iterator[TestClient]:
    """A server with the default host names of one listening on 127.0.0.1."""
    with make_client(allowed_hosts=loopback_hosts("127.0.0.1")) as test_client:
        yield test_client


def test_dns_rebinding_is_refused_before_any_route(loopback_client: TestClient) -> None:
    evil = {"Host": "evil.example:18800", "Origin": "http://evil.example:18800"}
    response = loopback_client.post("/api/games", json={}, headers=evil)
    assert response.status_code == 400
    assert loopback_client.get("/", headers=evil).status_code == 400
    assert games_in(loopback_client) == 0
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        loopback_client.websocket_connect("ws://evil.example:18800/ws/x", headers=evil),
    ):
        pass
    assert denied.value.status_code == 400


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"])
def test_loopback_names_are_answered(loopback_client: TestClient, host: str) -> None:
    origin = f"http://{host}"
    response = loopback_client.post("/api/games", json={}, headers={"Host": host, "Origin": origin})
    assert response.status_code == 201


def test_allowed_hosts_are_the_listening_address_and_loopback() -> None:
    assert loopback_hosts("192.0.2.7") == ("localhost", "127.0.0.1", "[::1]", "192.0.2.7")
    assert "[2001:db8::1]" in loopback_hosts("2001:db8::1")
    assert len(loopback_hosts("0.0.0.0")) > 3


def test_an_https_origin_on_an_http_server_is_refused(loopback_client: TestClient) -> None:
    headers = {"Host": "127.0.0.1:8000", "Origin": "https://127.0.0.1:8000"}
    response = loopback_client.post("/api/games", json={}, headers=headers)
    assert response.status_code == 403 and response.json()["code"] == "err_origin"


def test_a_named_origin_behind_a_proxy_is_allowed() -> None:
    options = {"allowed_hosts": ("play.example",), "allowed_origins": ("https://play.example",)}
    with make_client(**options) as proxied:
        headers = {"Host": "play.example", "Origin": "https://play.example"}
        assert proxied.post("/api/games", json={}, headers=headers).status_code == 201


# -- sockets --------------------------------------------------------------------------


def test_deep_nesting_before_hello_gets_an_error_and_a_close_frame(client: TestClient) -> None:
    game = new_game(client)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text("[" * 1000 + "]" * 1000)
        assert json.loads(ws.receive_text())["code"] == "err_not_object"
        closed = ws.receive()
        assert closed == {"type": "websocket.close", "code": CLOSE_BAD_SEAT, "reason": ""}


def test_deep_nesting_after_hello_is_refused_and_the_seat_stays_open(
    client: TestClient,
) -> None:
    game = new_game(client, opponent="friend", first="me")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
        next_message(ws, "state")
        deep = "[" * 900 + "]" * 900
        for nested, code in (
            (deep, "err_not_object"),
            ('{"type": "move", "move": ' + deep + "}", "err_bad_field"),
        ):
            ws.send_text(nested)
            assert next_message(ws, "error")["code"] == code
        ws.send_text(json.dumps({"type": "ping"}))
        assert next_message(ws, "pong") == {"type": "pong"}


def test_a_second_hello_is_refused_and_the_seat_is_unchanged(client: TestClient) -> None:
    game = new_game(client, opponent="friend", first="me")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
        state = next_message(ws, "state")
        assert state["seat"] == 0
        for token in (game["friend_token"], game["token"], "garbage"):
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert next_message(ws, "error")["code"] == "err_hello_again"
        ws.send_text(json.dumps({"type": "ping"}))
        next_message(ws, "pong")
    # The socket still belonged to seat 0: its state shows seat 0's hand.
    seat_state = client.get(f"/api/games/{game['id']}", headers=bearer(game["token"])).json()
    assert seat_state["seat"] == 0 and seat_state["hand"] == state["hand"]


def test_socket_messages_not_in_utf8_are_refused_and_the_socket_stays_open(
    client: TestClient,
) -> None:
    """A binary frame is JSON in UTF-8 (bytes that are not UTF-8 are not JSON), and so is
    a text frame (a lone surrogate is not); the game's socket, before and after
    ``hello``, and the lobby's answer ``err_not_json`` and go on."""
    game = new_game(client, opponent="friend", first="me")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_bytes(b'{"type":"hello","token":"\xc3\x28"}')
        assert next_message(ws, "error")["code"] == "err_not_json"
        assert ws.receive()["type"] == "websocket.close"
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_bytes(json.dumps({"type": "hello", "token": game["token"]}).encode())
        next_message(ws, "state")
        ws.send_bytes(b'{"type":"move","move":"S:\xc3\x28"}')
        assert next_message(ws, "error")["code"] == "err_not_json"
        ws.send_text('{"type":"lang","lang":"\udc80"}')
        assert next_message(ws, "error")["code"] == "err_not_json"
        ws.send_bytes(b'{"type":"ping"}')
        assert next_message(ws, "pong") == {"type": "pong"}
    with client.websocket_connect("/lobby/ws") as ws:
        next_message(ws, "lobby")
        ws.send_bytes(b'{"type":"lang","lang":"\xff"}')
        assert next_message(ws, "error")["code"] == "err_not_json"
        ws.send_text('{"type":"seek","variant":"\udc80"}')
        assert next_message(ws, "error")["code"] == "err_not_json"
        ws.send_bytes(b"\x00\x01")
        assert next_message(ws, "error")["code"] == "err_not_json"
        ws.send_bytes(b'{"type":"ping"}')
        assert next_message(ws, "pong") == {"type": "pong"}


# -- rate limits ----------------------------------------------------------------------


def test_game_creation_is_limited_per_address() -> None:
    with make_client(create_rate="3/minute") as limited:
        for _ in range(3):
            new_game(limited)
        refused = limited.post("/api/games", json={})
        assert refused.status_code == 429
        assert refused.json()["code"] == "err_rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert games_in(limited) == 3


def test_the_limit_counts_each_address_on_its_own() -> None:
    guard = RateGuard(parse_rate("2/minute"), None)
    assert guard.allow_create("192.0.2.1") is None
    assert guard.allow_create("192.0.2.1") is None
    wait = guard.allow_create("192.0.2.1")
    assert wait is not None and 0 < wait <= 60
    assert guard.allow_create("192.0.2.2") is None
    assert guard.allow_message("any socket") is None


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_proxy_the_limit_counts_the_forwarded_addresses(
    tmp_path: Path, trusted: bool
) -> None:
    """Behind nginx every request comes from the proxy's address: with
    ``--trusted-proxy`` the limit counts each forwarded client; without it, nobody's
    X-Forwarded-For is believed (a client cannot escape its limit by sending one)."""
    options = ["--create-rate", "2/minute", "--bot-processes", "0"]
    with Server(
        tmp_path / "games.sqlite3",
        free_port(),
        *options,
        *(["--trusted-proxy", "127.0.0.1"] if trusted else []),
    ) as server:

        def create(client: str) -> int:
            forwarded = {"X-Forwarded-For": client}
            return httpx.post(f"{server.url}/api/games", json={}, headers=forwarded).status_code

        assert [create("192.0.2.1") for _ in range(3)] == [201, 201, 429]
        assert create("192.0.2.2") == (201 if trusted else 429)


def test_bad_rates_are_refused() -> None:
    for text in ("fast", "0/second", "-1/minute", ""):
        with pytest.raises(ValueError, match="rate"):
            parse_rate(text)


def test_a_flood_of_messages_is_throttled_and_the_game_goes_on() -> None:
    with make_client(message_rate="5/second") as limited:
        game = new_game(limited, opponent="friend", first="me")
        with limited.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
            next_message(ws, "state")
            next_message(ws, "chat")  # a game between people: its chat room follows
            for _ in range(40):
                ws.send_text(json.dumps({"type": "ping"}))
            ws.send_text(json.dumps({"type": "lang", "lang": "fr"}))
            answers = [json.loads(ws.receive_text()) for _ in range(6)]
            kinds = [answer["type"] for answer in answers]
            assert kinds.count("pong") == 5 and kinds.count("error") == 1
            assert answers[-1]["code"] == "err_rate_limited"
            time.sleep(1.1)
            ws.send_text(json.dumps({"type": "ping"}))
            assert next_message(ws, "pong") == {"type": "pong"}


# -- processes ------------------------------------------------------------------------


def _server_with_a_thinking_bot(tmp_path: Path) -> Server:
    server = Server(tmp_path / "games.sqlite3", free_port(), "--bot-processes", "1")
    server.start()
    game = httpx.post(
        f"{server.url}/api/games", json={"level": max(LEVELS), "first": "opponent"}
    ).json()
    # Loading the game wakes the bot, which thinks in a worker process.
    httpx.get(f"{server.url}/api/games/{game['id']}", headers=bearer(game["token"]))
    return server


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in alive if _alive(pid)]
    return alive


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")
def test_no_process_outlives_a_killed_server(tmp_path: Path) -> None:
    server = _server_with_a_thinking_bot(tmp_path)
    assert server.process is not None
    deadline = time.monotonic() + 20
    workers = descendants(server.process.pid)
    while len(workers) < 2 and time.monotonic() < deadline:  # worker and resource tracker
        time.sleep(0.1)
        workers = descendants(server.process.pid)
    assert workers
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=10)
    server.process = None
    assert _wait_gone(workers, 5.0) == []


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")
def test_a_clean_stop_leaves_nothing_behind(tmp_path: Path) -> None:
    server = _server_with_a_thinking_bot(tmp_path)
    assert server.process is not None
    time.sleep(0.5)
    workers = descendants(server.process.pid)
    server.process.send_signal(signal.SIGINT)
    server.process.wait(timeout=30)
    server.process = None
    assert _wait_gone(workers, 5.0) == []
    assert "leaked" not in server.stderr and "Traceback" not in server.stderr


def test_every_error_code_is_described_in_one_place() -> None:
    """docs/web.md's table of codes is the catalog's: none missing, none made up."""
    table = WEB_DOC.read_text().split("### Messages", 1)[1]
    described = set(re.findall(r"`(err_[a-z_]+)`", table))
    assert described == {key for key in (*UI, *MESSAGES) if key.startswith("err_")}


def _documented_statuses() -> tuple[dict[str, int], set[str]]:
    """docs/web.md's error table: each code's HTTP status, and the codes of the socket
    only. A row's statuses go to its codes in order, or its one status to all of them."""
    table = WEB_DOC.read_text().split("### Messages", 1)[1].split("\n### ", 1)[0]
    statuses: dict[str, int] = {}
    socket_only: set[str] = set()
    for row in table.splitlines():
        cells = row.split(" | ")
        if not row.startswith("| `err_") or len(cells) < 3:
            continue
        keys = re.findall(r"`(err_[a-z_]+)`", cells[0])
        numbers = [int(n) for n in re.findall(r"\b[1-5]\d\d\b", cells[1])]
        if not numbers:
            socket_only.update(keys)
            continue
        pairs = (
            zip(keys, numbers, strict=True)
            if len(numbers) == len(keys)
            else ((key, numbers[0]) for key in keys)
        )
        statuses.update(pairs)
    return statuses, socket_only


def test_the_status_table_is_the_documented_one() -> None:
    """Every code docs/web.md gives an HTTP status has that status in ``refusals.STATUS``,
    and every code a route of the web package raises has a status there (or is a
    socket's only), so the table and the doc cannot drift apart."""
    statuses, socket_only = _documented_statuses()
    assert len(statuses) > 30
    assert {key: STATUS.get(key) for key in statuses} == statuses
    web = Path(__file__).resolve().parent.parent / "src" / "hanamikoji" / "interfaces" / "web"
    raised = {
        key
        for source in web.rglob("*.py")
        for key in re.findall(r"Refused\(\s*\"(err_[a-z_]+)\"", source.read_text())
    }
    assert len(raised) > 30
    assert raised - socket_only <= set(STATUS)
    assert set(STATUS) <= {key for key in (*UI, *MESSAGES) if key.startswith("err_")}
