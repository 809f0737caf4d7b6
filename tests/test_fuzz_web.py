"""Fuzzing the web server's input surface: every HTTP body and every WebSocket message
(through Starlette's test client, with hypothesis), and a burst of malformed traffic at
a real ``hanamikoji serve`` on loopback.

Each input must get a documented answer (a state, a pong, or an error whose code the
catalog knows, with its sentence) and change nothing it was refused for; the real
server must print no traceback, and every game in its database must still replay.
Bounded: a few hundred inputs per surface.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import socket
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx2 as httpx
import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import Server, app_client, free_port, served
from starlette.testclient import TestClient
from web_support import legal_texts

from hanamikoji.interfaces.messages import MESSAGES
from hanamikoji.interfaces.web.catalog.lookup import UI
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore
from hanamikoji.interfaces.web.games.live import rebuild
from hanamikoji.interfaces.web.http.bearer import TokenRates

CODES = frozenset(key for key in (*UI, *MESSAGES) if key.startswith("err_"))
FIELDS = ("type", "token", "lang", "move", "ply", "opponent", "level", "variant", "first", "rated")
FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
    | st.sampled_from(["bot", "friend", "classic", "S:D", "G>F", "C:AB/FG", "en", "fr", "me"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=12,
)
objects = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), json_values, max_size=6)
message_types = st.sampled_from(
    ["hello", "move", "lang", "ping", "state", "", "MOVE", "resign", "abort", "RESIGN"]
)


@st.composite
def client_messages(draw: st.DrawFn) -> str:
    """Text a page might send, or nothing like it: typed objects with fields of any
    kind, other JSON, deep nesting, and text that is not JSON at all."""
    shape = draw(st.integers(0, 4))
    if shape == 0:
        message = draw(objects)
        message["type"] = draw(message_types)
        return json.dumps(message)
    if shape == 1:
        return json.dumps(draw(json_values))
    if shape == 2:
        depth = draw(st.integers(1, 1000))
        return draw(st.sampled_from(["[", '{"a":'])) * depth
    if shape == 3:
        return draw(st.text(max_size=300))
    return json.dumps(
        {"type": "move", "move": draw(st.text(max_size=40)), "ply": draw(json_values)}
    )


def make_client() -> TestClient:
    return app_client(login_rate="off")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client() as test_client:
        yield test_client


def store_of(client: TestClient) -> GameStore:
    return served(client).games


def assert_documented_error(body: Any) -> None:
    assert body["type"] == "error" and body["code"] in CODES, body
    assert isinstance(body["message"], str) and body["message"]


@FUZZ
@given(body=objects | json_values.map(lambda value: {"value": value}))
def test_any_new_game_body_is_created_or_refused_with_a_code(
    client: TestClient, body: dict[str, Any]
) -> None:
    before = store_of(client).count_games()
    response = client.post("/api/games", content=json.dumps(body).encode(), headers=JSON_TYPE)
    if response.status_code == 201:
        assert set(response.json()) == {"id", "seat", "token", "friend_token", "rated"}
        assert store_of(client).count_games() == before + 1
    elif response.status_code == 403:  # a rated game, and nobody signed in
        assert response.json()["code"] == "err_rated_needs_account"
        assert body.get("rated") is True and store_of(client).count_games() == before
    else:
        assert response.status_code in (400, 413)
        assert_documented_error(response.json())
        assert store_of(client).count_games() == before


@FUZZ
@given(raw=st.binary(max_size=600) | st.text(max_size=600).map(str.encode))
def test_any_raw_body_is_refused_or_taken(client: TestClient, raw: bytes) -> None:
    before = store_of(client).count_games()
    response = client.post("/api/games", content=raw, headers=JSON_TYPE)
    assert response.status_code in (201, 400, 413)
    if response.status_code != 201:
        assert_documented_error(response.json())
        assert store_of(client).count_games() == before


JSON_TYPE = {"Content-Type": "application/json"}
BODY_ROUTES = ("/api/games", "/api/me/guest", "/api/me/register", "/api/me/login")
"""Every route that takes a JSON body."""
BODY_FIELDS = (*FIELDS, "name", "password", "nickname")


@st.composite
def bodies_with_raw_bytes(draw: st.DrawFn) -> bytes:
    """A JSON object whose strings hold arbitrary bytes, UTF-8 or not (quotes and
    backslashes too). Random bytes as a whole body are almost never JSON, so they never
    reach the check of the bytes inside a string."""
    names = draw(st.lists(st.sampled_from(BODY_FIELDS), min_size=1, max_size=3, unique=True))
    members = [b'"%s":"%s"' % (name.encode(), draw(st.binary(max_size=24))) for name in names]
    return b"{" + b",".join(members) + b"}"


@FUZZ
@given(route=st.sampled_from(BODY_ROUTES), raw=bodies_with_raw_bytes())
def test_any_bytes_in_a_bodys_strings_get_a_documented_answer(
    client: TestClient, route: str, raw: bytes
) -> None:
    before = store_of(client).count_games()
    response = client.post(route, content=raw, headers=JSON_TYPE)
    client.cookies.clear()  # a session made here must not sign the next request in
    if response.status_code in (200, 201):
        return
    assert response.status_code in (400, 401, 409), raw
    assert_documented_error(response.json())
    assert store_of(client).count_games() == before


def answers_until_pong(ws: Any) -> list[dict[str, Any]]:
    """What the server said in answer to the last message, up to the pong of the ping
    sent after it."""
    ws.send_text(json.dumps({"type": "ping"}))
    answers: list[dict[str, Any]] = []
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["type"] == "pong":
            return answers
        answers.append(message)


@FUZZ
@given(messages=st.lists(client_messages(), min_size=1, max_size=8))
def test_any_socket_message_gets_a_documented_answer(
    client: TestClient, messages: list[str]
) -> None:
    created = client.post("/api/games", json={"opponent": "friend", "first": "me"}).json()
    store = store_of(client)
    with client.websocket_connect(f"/ws/{created['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": created["token"]}))
        assert json.loads(ws.receive_text())["type"] == "state"
        assert json.loads(ws.receive_text())["type"] == "chat"  # a friend game's chat room
        for message in messages:
            before = store.load(created["id"])
            assert before is not None
            ws.send_text(message)
            answers = answers_until_pong(ws)
            errors = [answer for answer in answers if answer["type"] == "error"]
            for error in errors:
                assert_documented_error(error)
            assert {answer["type"] for answer in answers} <= {"error", "state"}
            after = store.load(created["id"])
            assert after is not None
            played = len(after.decisions) - len(before.decisions)
            assert played == (0 if errors else played) and played in (0, 1)
            assert after.decisions[: len(before.decisions)] == before.decisions
        stored = store.load(created["id"])
        assert stored is not None
        rebuild(stored)  # every stored decision is legal, in order


ENDS = ("resign", "abort")


@st.composite
def end_messages(draw: st.DrawFn) -> tuple[bool, str]:
    """A resignation or an abort from a seat or a spectator, as sent or with fields of
    any kind added (refused), or a legal decision's slot (``move``)."""
    spectator = draw(st.booleans())
    kind = draw(st.sampled_from((*ENDS, "move")))
    if kind == "move":
        return spectator, kind
    keys = st.sampled_from(FIELDS) | st.text(max_size=8)
    extra = draw(st.dictionaries(keys, json_values, max_size=3))
    extra.pop("type", None)
    return spectator, json.dumps({"type": kind, **draw(st.sampled_from([{}, extra]))})


@FUZZ
@given(messages=st.lists(end_messages(), min_size=1, max_size=6))
def test_any_resignation_or_abort_ends_the_game_once_or_is_refused(
    client: TestClient, messages: list[tuple[bool, str]]
) -> None:
    created = client.post("/api/games", json={"opponent": "friend", "first": "me"}).json()
    store = store_of(client)
    rng = random.Random(len(messages))
    with (
        client.websocket_connect(f"/ws/{created['id']}") as ws,
        client.websocket_connect(f"/ws/{created['id']}/watch") as watcher,
    ):
        ws.send_text(json.dumps({"type": "hello", "token": created["token"]}))
        state = json.loads(ws.receive_text())
        json.loads(watcher.receive_text())
        for spectator, message in messages:
            before = store.load(created["id"])
            assert before is not None
            socket = watcher if spectator else ws
            if message == "move":  # the seat's legal decision when it is its turn
                if state["to_move"] != state["seat"] or state["outcome"]:
                    continue
                message = json.dumps({"type": "move", "move": rng.choice(legal_texts(state))})
            socket.send_text(message)
            answers = answers_until_pong(socket)
            errors = [answer for answer in answers if answer["type"] == "error"]
            for error in errors:
                assert_documented_error(error)
            after = store.load(created["id"])
            assert after is not None and after.decisions[: len(before.decisions)] == (
                before.decisions
            )
            if spectator or errors:
                assert (after.status, after.termination) == (before.status, before.termination)
            if spectator:
                assert {error["code"] for error in errors} <= {"err_spectator", *BAD_INPUT}
            ended = after.termination != before.termination
            assert not ended or (
                before.status == "playing"
                and after.termination in ("resigned", "aborted")
                and after.result == ("0-1" if after.termination == "resigned" else "*")
            )
            states = [answer for answer in answers if answer["type"] == "state"]
            state = states[-1] if states else answers_state(ws, state)


BAD_INPUT = {
    "err_not_json",
    "err_not_object",
    "err_unknown_type",
    "err_bad_field",
    "err_bad_lang",
    "err_too_long",
}


def answers_state(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The seat's latest state: the one it had, or a newer one if the game changed."""
    answers = answers_until_pong(ws)
    states = [answer for answer in answers if answer["type"] == "state"]
    return states[-1] if states else state


SOCKET_TYPES = ("hello", "move", "lang", "ping", "seek", "cancel", "accept", "quick", "")


@st.composite
def frames_with_raw_bytes(draw: st.DrawFn) -> bytes:
    """A binary frame: a message of a known type (or none) whose other strings hold
    arbitrary bytes, UTF-8 or not."""
    kind = draw(st.sampled_from(SOCKET_TYPES))
    names = draw(st.lists(st.sampled_from((*BODY_FIELDS, "seek")), max_size=2, unique=True))
    members = [b'"%s":"%s"' % (name.encode(), draw(st.binary(max_size=24))) for name in names]
    return b"{" + b",".join([b'"type":"%s"' % kind.encode(), *members]) + b"}"


@FUZZ
@given(frames=st.lists(frames_with_raw_bytes(), min_size=1, max_size=4))
def test_any_binary_frame_on_either_socket_gets_a_documented_answer(
    client: TestClient, frames: list[bytes]
) -> None:
    created = client.post("/api/games", json={"opponent": "friend", "first": "me"}).json()
    with (
        client.websocket_connect(f"/ws/{created['id']}") as game,
        client.websocket_connect("/lobby/ws") as lobby,
    ):
        game.send_text(json.dumps({"type": "hello", "token": created["token"]}))
        assert json.loads(game.receive_text())["type"] == "state"
        assert json.loads(game.receive_text())["type"] == "chat"
        assert json.loads(lobby.receive_text())["type"] == "lobby"
        for frame in frames:
            for ws in (game, lobby):
                ws.send_bytes(frame)
                for answer in answers_until_pong(ws):
                    if answer["type"] == "error":
                        assert_documented_error(answer)
                    else:
                        assert answer["type"] in ("state", "lobby", "seek", "unseek", "queued")
    stored = store_of(client).load(created["id"])
    assert stored is not None
    rebuild(stored)


@FUZZ
@given(first=client_messages())
def test_any_first_message_is_a_hello_or_an_error_and_a_close(
    client: TestClient, first: str
) -> None:
    created = client.post("/api/games", json={}).json()
    with client.websocket_connect(f"/ws/{created['id']}") as ws:
        ws.send_text(first)
        answer = json.loads(ws.receive_text())
        assert_documented_error(answer)
        assert ws.receive()["type"] == "websocket.close"


# -- a real server --------------------------------------------------------------------


def _raw_http(port: int, data: bytes) -> bytes:
    """Send bytes as they are to the server and read what it answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(data)
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_WR)
        received = b""
        with contextlib.suppress(OSError):
            while chunk := connection.recv(65536):
                received += chunk
        return received


RAW_REQUESTS = [
    b"GARBAGE\r\n\r\n",
    b"\x00\xff" * 100,
    b"GET / HTTP/1.1\r\n\r\n",  # no Host
    b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 99999999\r\n\r\n{",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n" + b"10000\r\n" + b" " * 65536 + b"\r\n" * 2,
    b"GET /api/games/%00 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \xff\r\n\r\n",
    b"GET /ws/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
]


def malformed_messages(rng: random.Random, count: int) -> list[str]:
    """Messages a page would send, then broken: cut, nested, retyped, bytes flipped."""
    valid: list[dict[str, Any]] = [
        {"type": "hello", "token": "x" * 43, "lang": "fr"},
        {"type": "move", "move": "S:D", "ply": 0},
        {"type": "lang", "lang": "es"},
        {"type": "ping"},
        {"opponent": "bot", "level": 3, "variant": "french", "first": "me"},
    ]
    out: list[str] = []
    for _ in range(count):
        message = dict(rng.choice(valid))
        field = rng.choice([*message, "extra"])
        breakage = rng.randrange(5)
        if breakage == 0:
            message[field] = rng.choice([[], {}, 1.5, True, None, -1, 2**80, "x" * 300])
        elif breakage == 1:
            message[field] = "[" * rng.randrange(1, 600)
        text = json.dumps(message)
        if breakage == 2:
            text = text[: rng.randrange(len(text))]
        elif breakage == 3:
            spot = rng.randrange(len(text))
            text = text[:spot] + chr(rng.randrange(0x30000)) + text[spot + 1 :]
        elif breakage == 4:
            text = "[" * rng.randrange(100, 1000) + text
        out.append(text)
    return out


async def _socket_burst(url: str, game: dict[str, Any], messages: list[str]) -> int:
    """Send malformed messages before and after ``hello``; the number of answers."""
    answered = 0
    for message in messages[:20]:  # before hello: each ends its socket
        with contextlib.suppress(websockets.ConnectionClosed):
            async with websockets.connect(f"{url}/ws/{game['id']}") as ws:
                await ws.send(message)
                await asyncio.wait_for(ws.recv(), 5)
                answered += 1
    async with websockets.connect(f"{url}/ws/{game['id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": game["token"]}))
        await asyncio.wait_for(ws.recv(), 5)
        for message in messages:
            await ws.send(message)
        await asyncio.sleep(1.1)  # past the message rate's window: what was over is dropped
        await ws.send(json.dumps({"type": "ping"}))
        while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
            answered += 1
    return answered


def test_a_real_server_survives_a_burst_of_malformed_traffic(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3", free_port(), "--bot-delay", "0")
    server.start()
    try:
        games = [
            httpx.post(f"{server.url}/api/games", json=body).json()
            for body in ({"level": 2, "first": "opponent"}, {"opponent": "friend"})
        ]
        statuses = set()
        for raw in RAW_REQUESTS:
            answer = _raw_http(server.port, raw)
            statuses.add(answer[:12])
        messages = malformed_messages(random.Random(24), 60)
        for message in messages[:40]:
            response = httpx.post(
                f"{server.url}/api/games", content=message.encode(), headers=JSON_TYPE
            )
            assert response.status_code in (201, 400, 413, 429)
        answered = asyncio.run(_socket_burst(server.url.replace("http", "ws"), games[1], messages))
        assert answered > 0
        assert httpx.get(f"{server.url}/healthz").json() == {"ok": True, "database": "ok"}
    finally:
        server.stop()
    assert "Traceback" not in server.stderr, server.stderr
    with sqlite3.connect(tmp_path / "games.sqlite3") as database:
        ids = [row[0] for row in database.execute("SELECT id FROM games")]
    assert len(ids) >= 2
    store = Store(server.db_url)
    try:
        for game_id in ids:
            stored = GameStore(store).load(game_id)
            assert stored is not None
            rebuild(stored)
    finally:
        store.close()


# -- e-mail for correspondence games (notices/) ------------------------------------------------


@pytest.fixture(scope="module")
def mail_client() -> Iterator[TestClient]:
    """A server with SMTP settings whose SMTP server is not there: an address it takes
    is refused at sending (``err_email_send``), after its rules were checked."""
    options: dict[str, Any] = {
        "smtp_host": "127.0.0.1",
        "smtp_port": free_port(),
        "smtp_tls": "none",
        "public_url": "http://testserver",
    }
    with app_client(login_rate="off", **options) as test_client:
        yield test_client


@FUZZ
@given(
    address=st.text(max_size=300)
    | st.from_regex(r"[a-z.+]{0,8}@[a-z0-9.-]{0,12}(\.[a-z]{1,4})?", fullmatch=True),
    raw=st.none() | bodies_with_raw_bytes(),
)
def test_any_email_address_gets_a_documented_answer(
    mail_client: TestClient, address: str, raw: bytes | None
) -> None:
    from hanamikoji.interfaces.web.notices.links import check_address

    if "x-csrf-token" not in mail_client.headers:
        me = mail_client.post("/api/me/register", json={"name": "Fuzz", "password": "x" * 8})
        mail_client.headers["X-CSRF-Token"] = me.json()["csrf"]
    body = raw if raw is not None else json.dumps({"address": address}).encode()
    before = mail_client.get("/api/me/email").json()
    response = mail_client.post("/api/me/email", content=body, headers=JSON_TYPE)
    assert response.status_code in (400, 413, 429, 503), response.text
    assert_documented_error(response.json())
    after = mail_client.get("/api/me/email").json()
    assert after["verified"] is False and after["notify"] is False
    if response.json()["code"] in ("err_email_send",):
        assert after["address"] == check_address(address)
    else:
        assert after == before


@FUZZ
@given(
    path=st.sampled_from(["/email/verify", "/email/unsubscribe"]),
    token=st.text(max_size=300)
    | st.from_regex(r"[A-Za-z0-9_-]{12}\.[0-9]{0,16}\.?[A-Za-z0-9_-]{0,44}", fullmatch=True),
)
def test_any_link_token_is_refused_with_a_page_and_changes_nothing(
    mail_client: TestClient, path: str, token: str
) -> None:
    response = mail_client.get(path, params={"t": token, "lang": "en"})
    assert response.status_code in (400, 410), response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "<script" not in response.text


# -- friends and challenges (social/) -------------------------------------------------------

CHALLENGE_FIELDS = ("opponent", "variant", "time_control", "rated", "first", "type")
challenge_values = json_values | st.sampled_from(
    ["Target", "Fuzzer", "nobody", "none", "3+2", "1d", "them", "random", "french", True]
)
challenge_bodies = st.dictionaries(
    st.sampled_from(CHALLENGE_FIELDS) | st.text(max_size=8), challenge_values, max_size=5
)


@pytest.fixture(scope="module")
def social_people(client: TestClient) -> dict[str, dict[str, str]]:
    """Two accounts' headers (session cookie and CSRF token): a fuzzer and its target."""
    people = {}
    for name in ("Fuzzer", "Target"):
        client.cookies.clear()
        response = client.post("/api/me/register", json={"name": name, "password": "x" * 12})
        assert response.status_code == 201, response.text
        cookie = client.cookies.get("hanamikoji_session")
        client.cookies.clear()
        people[name] = {
            "cookie": f"hanamikoji_session={cookie}",
            "X-CSRF-Token": response.json()["csrf"],
        }
    return people


@FUZZ
@given(body=challenge_bodies | json_values.map(lambda value: {"value": value}))
def test_any_challenge_body_is_made_or_refused_with_a_code(
    client: TestClient, social_people: dict[str, dict[str, str]], body: dict[str, Any]
) -> None:
    fuzzer = social_people["Fuzzer"]
    headers = {**fuzzer, **JSON_TYPE}
    before = client.get("/api/challenges", headers=fuzzer).json()["outgoing"]
    response = client.post("/api/challenges", content=json.dumps(body).encode(), headers=headers)
    after = client.get("/api/challenges", headers=fuzzer).json()["outgoing"]
    if response.status_code == 201:
        made = response.json()
        assert [c["id"] for c in after] == [*(c["id"] for c in before), made["id"]]
        cancel = client.post(f"/api/challenges/{made['id']}/cancel", headers=fuzzer)
        assert cancel.status_code == 204
    else:
        assert response.status_code in (400, 403, 404, 409, 413), response.text
        assert_documented_error(response.json())
        assert after == before


@FUZZ
@given(
    action=st.sampled_from(["relation", "follow", "unfollow", "block", "unblock"]),
    name=st.text(max_size=60) | st.sampled_from(["Target", "Fuzzer", "target", "x" * 41]),
    signed_in=st.booleans(),
)
def test_any_name_in_a_relation_route_gets_a_documented_answer(
    client: TestClient,
    social_people: dict[str, dict[str, str]],
    action: str,
    name: str,
    signed_in: bool,
) -> None:
    headers = social_people["Fuzzer"] if signed_in else {}
    path = f"/api/players/{quote(name, safe='')}/{action}"
    if action == "relation":
        response = client.get(path, headers=headers)
    else:
        response = client.post(path, headers=headers)
    if response.status_code == 200:
        assert set(response.json()) == {"name", "online", "following", "blocking", "bot"}
        return
    assert response.status_code in (400, 401, 403, 404, 405), response.text
    if response.status_code != 405 and response.headers["content-type"].startswith(
        "application/json"
    ):
        assert_documented_error(response.json())


@FUZZ
@given(
    action=st.sampled_from(["accept", "decline", "cancel", ""]),
    challenge=st.text(max_size=40) | st.sampled_from(["", "x" * 17]),
)
def test_any_challenge_id_gets_a_documented_answer(
    client: TestClient, social_people: dict[str, dict[str, str]], action: str, challenge: str
) -> None:
    headers = social_people["Target"]
    path = f"/api/challenges/{quote(challenge, safe='')}" + (f"/{action}" if action else "")
    response = client.post(path, headers=headers) if action else client.get(path, headers=headers)
    assert response.status_code in (400, 401, 403, 404, 405, 409), response.text
    if response.headers.get("content-type", "").startswith("application/json"):
        assert_documented_error(response.json())


@FUZZ
@given(messages=st.lists(client_messages() | st.text(max_size=80), min_size=1, max_size=6))
def test_any_site_socket_message_gets_a_documented_answer(
    client: TestClient, social_people: dict[str, dict[str, str]], messages: list[str]
) -> None:
    with client.websocket_connect("/social/ws", headers=social_people["Target"]) as ws:
        assert json.loads(ws.receive_text())["type"] == "social"
        for message in messages:
            ws.send_text(message)
            for answer in answers_until_pong(ws):
                assert_documented_error(answer)


# -- the chat (issue 49) ----------------------------------------------------------------

CHAT_TEXT = st.text(max_size=200) | st.sampled_from(
    ["gg", " ", "\u202egg", "a\nb", "<img src=x onerror=alert(1)>", "x" * 141, "\x00"]
)


@st.composite
def chat_messages(draw: st.DrawFn) -> str:
    """A chat line or report a page might send, or something like one."""
    message: dict[str, Any] = {"type": draw(st.sampled_from(["chat", "chat_report"]))}
    if draw(st.booleans()):
        message["room"] = draw(st.sampled_from(["player", "spectator", "", 3]))
    if draw(st.booleans()):
        message["preset"] = draw(st.sampled_from(["chat_hello", "chat_nope", ""]) | json_values)
    if draw(st.booleans()):
        message["text"] = draw(CHAT_TEXT | json_values)
    if draw(st.booleans()):
        message["line"] = draw(st.integers(-5, 2**63) | json_values)
    return json.dumps(message)


def chat_lines(client: TestClient, game_id: str) -> int:
    from hanamikoji.interfaces.web.chat.store import ChatStore

    store = ChatStore(served(client).store)
    return len(store.lines(game_id, "player")) + len(store.lines(game_id, "spectator"))


@FUZZ
@given(messages=st.lists(chat_messages(), min_size=1, max_size=6))
def test_any_chat_message_gets_a_documented_answer(client: TestClient, messages: list[str]) -> None:
    """On a seat's socket and a spectator's: a line said (once, to its own room), a report
    taken, or a documented refusal and nothing stored."""
    created = client.post("/api/games", json={"opponent": "friend", "first": "me"}).json()
    with (
        client.websocket_connect(f"/ws/{created['id']}") as seat,
        client.websocket_connect(f"/ws/{created['id']}/watch") as watcher,
    ):
        seat.send_text(json.dumps({"type": "hello", "token": created["token"]}))
        answers_until_pong(seat)
        answers_until_pong(watcher)
        for message in messages:
            for ws, room in ((seat, "player"), (watcher, "spectator")):
                before = chat_lines(client, created["id"])
                ws.send_text(message)
                answers = answers_until_pong(ws)
                kinds = {answer["type"] for answer in answers}
                assert kinds <= {"error", "chat_line", "chat_reported", "state"}, answers
                for answer in answers:
                    if answer["type"] == "error":
                        assert_documented_error(answer)
                    elif answer["type"] == "chat_line":
                        assert answer["line"]["room"] == room
                said = sum(answer["type"] == "chat_line" for answer in answers)
                assert chat_lines(client, created["id"]) == before + said and said <= 1


# -- puzzles (web/puzzles/) ----------------------------------------------------------------

PUZZLE_ID = "french-52000002-9"
"""A shipped puzzle (its decisions: C>BC, the solution, and C>DG)."""

puzzle_answers = st.one_of(
    objects.map(lambda body: {**body, "answer": body.get("answer", "C>BC")}),
    st.builds(
        lambda answer, guest: {"answer": answer, "guest": guest},
        st.text(max_size=50) | st.sampled_from(["C>BC", "c>cb", "C>DG", "S", "G>A", ""]),
        st.none() | json_values,
    ),
)


@FUZZ
@given(body=puzzle_answers, path=st.sampled_from([PUZZLE_ID, "nope", "own-x", "%00"]))
def test_any_puzzle_answer_gets_a_documented_answer_and_rates_nothing(
    client: TestClient, body: dict[str, Any], path: str
) -> None:
    client.cookies.clear()
    response = client.post(f"/api/puzzles/{path}/answer", json=body)
    answer = response.json()
    if response.status_code == 200:
        assert path == PUZZLE_ID and answer["rated"] is False
        assert answer["solution"] == "C>BC" and answer["answer"] in ("C>BC", "C>DG")
    else:
        assert_documented_error(answer)
    assert served(client).puzzles.store.ratings() == {}  # a guest never moves a rating


@FUZZ
@given(
    query=st.dictionaries(
        st.sampled_from(["theme", "rating", "seen", "seed"]), st.text(max_size=30), max_size=4
    )
)
def test_any_puzzle_query_gets_a_puzzle_or_a_documented_refusal(
    client: TestClient, query: dict[str, str]
) -> None:
    for route in ("/api/puzzles/next", "/api/puzzles/streak"):
        response = client.get(route, params=query)
        body = response.json()
        if response.status_code != 200:
            assert_documented_error(body)
        elif route.endswith("next"):
            assert "solution" not in body and "values" not in body


@FUZZ
@given(seed=st.text(max_size=30) | st.integers(-5, 2**40).map(str), account=st.booleans())
def test_any_new_streak_request_gets_a_streak_or_a_documented_refusal(
    client: TestClient, seed: str, account: bool
) -> None:
    client.cookies.clear()
    headers = {}
    if account:  # an account of its own, whose streak is kept on the server
        name = f"s{secrets.token_hex(4)}"
        made = client.post("/api/me/register", json={"name": name, "password": "fuzz fuzz fuzz"})
        assert made.status_code == 201, made.text
        headers = {"X-CSRF-Token": made.json()["csrf"]}
    response = client.post("/api/puzzles/streak", params={"seed": seed}, headers=headers)
    body = response.json()
    if response.status_code == 200:
        assert body["kept"] is account and body["seed"] == min(int(seed), 2**31 - 1)
        assert body["solved"] == 0
        assert "solution" not in response.text and "values" not in body
    else:
        assert response.status_code == 400
        assert_documented_error(body)


make_bodies = st.one_of(
    objects,
    st.builds(
        lambda game, ply: {"game": game, "ply": ply},
        st.text(max_size=40) | st.sampled_from(["nosuchgame", "a" * 32, "", "../x"]),
        st.integers(-5, 500) | json_values,
    ),
)


@FUZZ
@given(body=make_bodies, guest=st.booleans())
def test_any_make_a_puzzle_request_is_refused_as_documented_and_makes_nothing(
    client: TestClient, body: dict[str, Any], guest: bool
) -> None:
    client.cookies.clear()
    headers = {}
    if guest:  # a session of its own, which holds no seat of any game
        signed = client.post("/api/me/guest", json={"nickname": "Fuzz"})
        assert signed.status_code == 201, signed.text
        headers = {"X-CSRF-Token": signed.json()["csrf"]}
    response = client.post("/api/puzzles/make", json=body, headers=headers)
    assert response.status_code in (400, 403, 413), response.text
    assert_documented_error(response.json())
    assert served(client).puzzles.store.own_of(signed.json()["player"]["id"] if guest else "") == []


# -- tournaments (tournaments/) -----------------------------------------------------------

TOURNAMENT_FIELDS = (
    "name", "variant", "time_control", "rated", "kind", "rounds", "minutes", "starts_in",
    "invitation", "entry", "level",
)  # fmt: skip
tournament_values = json_values | st.sampled_from(
    ["Friday", "swiss", "arena", "people", "bots", "both", "5+5", "a\u0007b", " ", "x" * 61, 3, 0]
)
tournament_bodies = st.dictionaries(
    st.sampled_from(TOURNAMENT_FIELDS) | st.text(max_size=8), tournament_values, max_size=6
)


def tournament_count(client: TestClient) -> int:
    from sqlalchemy import func, select

    from hanamikoji.interfaces.web.db.tables import tournaments

    with served(client).store.connection() as connection:
        return int(connection.execute(select(func.count()).select_from(tournaments)).scalar_one())


@FUZZ
@given(body=tournament_bodies | json_values.map(lambda value: {"value": value}))
def test_any_tournament_body_is_made_or_refused_with_a_code(
    client: TestClient, social_people: dict[str, dict[str, str]], body: dict[str, Any]
) -> None:
    headers = {**social_people["Fuzzer"], **JSON_TYPE}
    before = tournament_count(client)
    response = client.post("/api/tournaments", content=json.dumps(body).encode(), headers=headers)
    if response.status_code == 201:
        made = response.json()["id"]
        shown = client.get(f"/api/tournaments/{made}", headers=social_people["Fuzzer"])
        assert shown.status_code == 200 and shown.json()["card"]["name"].strip()
        assert tournament_count(client) == before + 1
    else:
        assert response.status_code in (400, 413), response.text
        assert_documented_error(response.json())
        assert tournament_count(client) == before


@pytest.fixture(scope="module")
def real_tournament(client: TestClient, social_people: dict[str, dict[str, str]]) -> str:
    """A tournament of the fuzzer's, by invitation, for the fuzz to aim at."""
    body = {"name": "Fuzzed", "invitation": True}
    made = client.post("/api/tournaments", json=body, headers=social_people["Fuzzer"])
    assert made.status_code == 201, made.text
    tournament_id: str = made.json()["id"]
    return tournament_id


@FUZZ
@given(
    action=st.sampled_from(["", "join", "withdraw", "level", "records", "nope"]),
    tournament=st.text(max_size=40) | st.sampled_from(["", "x" * 17, "REAL"]),
    code=st.none() | st.text(max_size=40),
    body=tournament_bodies,
    signed_in=st.booleans(),
)
def test_any_tournament_route_gets_a_documented_answer(
    client: TestClient,
    social_people: dict[str, dict[str, str]],
    real_tournament: str,
    action: str,
    tournament: str,
    code: str | None,
    body: dict[str, Any],
    signed_in: bool,
) -> None:
    client.cookies.clear()
    tournament = real_tournament if tournament == "REAL" else tournament
    headers = {**social_people["Target"], **JSON_TYPE} if signed_in else JSON_TYPE
    path = f"/api/tournaments/{quote(tournament, safe='')}" + (f"/{action}" if action else "")
    params = {} if code is None else {"code": code}
    if action in ("", "records"):
        response = client.get(path, headers=headers, params=params)
    else:
        response = client.post(path, json=body, headers=headers, params=params)
    if response.status_code == 200:  # no id ("", "."): the list; or the real one
        shown = response.json()
        if tournament == real_tournament:
            assert shown["card"]["id"] == real_tournament and shown["invite_code"] is None
        else:
            assert set(shown) == {"upcoming", "running", "finished", "now"}
        return
    assert response.status_code in (400, 401, 403, 404, 405, 409, 415), response.text
    if response.headers.get("content-type", "").startswith("application/json"):
        assert_documented_error(response.json())


# -- the bot API (issue 50): tokens, headers, decisions, chat, challenges, floods, streams -----

API_STATUSES = frozenset({400, 401, 403, 404, 405, 409, 413, 415, 429})


def assert_api_error(response: Any) -> None:
    """A refused bot API request: a documented status, ``{"error", "message"}`` with a
    code the catalog knows, and the headers its code promises."""
    assert response.status_code in API_STATUSES, response.text
    body = response.json()
    assert body["error"] in CODES and isinstance(body["message"], str) and body["message"]
    if body["error"] == "err_token":
        assert response.headers["www-authenticate"].startswith("Bearer")
    if body["error"] == "err_rate":
        assert int(response.headers["retry-after"]) >= 1


def api_token(client: TestClient, name: str, scopes: list[str], *, bot: bool) -> str:
    """A new account's token (the account upgraded to a bot if ``bot``)."""
    client.cookies.clear()
    made = client.post("/api/me/register", json={"name": name, "password": "x" * 12})
    assert made.status_code == 201, made.text
    answer = client.post(
        "/api/tokens",
        json={"name": "fuzz", "scopes": scopes},
        headers={"X-CSRF-Token": made.json()["csrf"]},
    )
    token = str(answer.json()["token"])
    client.cookies.clear()
    if bot:
        upgraded = client.post("/api/bot/account/upgrade", headers=bearer(token))
        assert upgraded.status_code == 200, upgraded.text
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def bots(client: TestClient) -> dict[str, str]:
    """Tokens: two bots in a game (``ann``, ``bob``), a bot outside it (``cyd``), a
    read-only one, a person's, a revoked one; and the game's ``game`` id. The per-token
    rates are lifted here (their own test floods them)."""
    served(client).bearer.rates = TokenRates("100000 per second", "100000 per second")
    found = {
        "ann": api_token(client, "FuzzAnn", ["bot:play"], bot=True),
        "bob": api_token(client, "FuzzBob", ["bot:play"], bot=True),
        "cyd": api_token(client, "FuzzCyd", ["bot:play"], bot=True),
        "read": api_token(client, "FuzzRead", ["read"], bot=False),
        "person": api_token(client, "FuzzPerson", ["bot:play"], bot=False),
    }
    client.cookies.clear()
    made = client.post("/api/me/register", json={"name": "FuzzGone", "password": "x" * 12})
    csrf = {"X-CSRF-Token": made.json()["csrf"]}
    gone = client.post("/api/tokens", json={"name": "x", "scopes": ["bot:play"]}, headers=csrf)
    assert client.delete(f"/api/tokens/{gone.json()['id']}", headers=csrf).status_code == 204
    found["revoked"] = gone.json()["token"]
    client.cookies.clear()
    challenge = client.post(
        "/api/challenge/FuzzBob",
        json={"rated": False, "first": "challenger"},
        headers=bearer(found["ann"]),
    ).json()["challenge"]["id"]
    assert (
        client.post(f"/api/challenge/{challenge}/accept", headers=bearer(found["bob"])).status_code
        == 200
    )
    owner = served(client).bearer.tokens.owner(found["ann"])
    assert owner is not None
    found["game"] = served(client).accounts.store.games_of(owner.player_id, "playing", 1)[0].id
    return found


def decisions_of(client: TestClient, game_id: str) -> list[str]:
    stored = store_of(client).load(game_id)
    assert stored is not None
    rebuild(stored)  # still replays
    return list(stored.decisions)


header_texts = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80) | (
    st.sampled_from(["Bearer ", "bearer ", "Basic ", "Bearer hmk_", "Token "]).flatmap(
        lambda scheme: st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=60).map(
            lambda rest: scheme + rest
        )
    )
)


@FUZZ
@given(header=header_texts, who=st.sampled_from(["read", "person", "revoked", "cyd", None]))
def test_any_authorization_header_or_wrong_token_is_refused_with_its_code(
    client: TestClient, bots: dict[str, str], header: str, who: str | None
) -> None:
    game = bots["game"]
    before = decisions_of(client, game)
    auth = {"Authorization": header} if who is None else bearer(bots[who])
    # What each token must be refused: a bad header or a revoked token opens nothing, a
    # read token plays nothing, a person plays no bot route, a bot not in the game
    # finds no game. (The upgrade and the account, which some of these may use, are
    # left out: a person's bot:play token may upgrade it.)
    expected = {None: "err_token", "revoked": "err_token", "read": "err_scope"}
    expected |= {"person": "err_not_bot", "cyd": "err_no_game"}
    paths = [f"/api/bot/game/{game}/resign", f"/api/bot/game/{game}/move"]
    if who in (None, "revoked"):
        paths.append("/api/bot/account/upgrade")
    for path in paths:
        response = client.post(path, headers={**auth, **JSON_TYPE}, content=b'{"decision":"S:A"}')
        assert_api_error(response)
        assert response.json()["error"] == expected[who], (who, path, response.text)
    account = client.get("/api/account", headers=auth)
    if who in (None, "revoked"):
        assert_api_error(account)
        assert account.json()["error"] == "err_token"
    else:
        assert account.status_code == 200 and account.json()["bot"] == (who == "cyd")
    assert decisions_of(client, game) == before  # nothing played or resigned


decision_texts = (
    st.text(max_size=40)
    | st.sampled_from(["S:A", "D:AB", "G:ABC>", "C:AB/FG", "G>A", "C>FG", "S:", ":", "/", "%", ""])
    | st.text(st.sampled_from("SDGC:>/ABCDEFGHIJKLMNOPQRSTUVWXYZ"), max_size=12)
)


@FUZZ
@given(decision=decision_texts, in_path=st.booleans(), seat=st.sampled_from(["ann", "bob"]))
def test_any_decision_in_a_path_or_a_body_is_played_or_refused_with_a_code(
    client: TestClient, bots: dict[str, str], decision: str, in_path: bool, seat: str
) -> None:
    game = bots["game"]
    before = decisions_of(client, game)
    if in_path:
        response = client.post(
            f"/api/bot/game/{game}/move/{quote(decision, safe='')}", headers=bearer(bots[seat])
        )
    else:
        body = json.dumps({"decision": decision}).encode()
        response = client.post(
            f"/api/bot/game/{game}/move", content=body, headers={**bearer(bots[seat]), **JSON_TYPE}
        )
    after = decisions_of(client, game)
    if response.status_code == 200:
        assert response.json() == {"ok": True} and len(after) == len(before) + 1
    else:
        assert_api_error(response)
        assert response.json()["error"] in (
            "err_malformed",
            "err_illegal",
            "err_not_your_turn",
            "err_game_over",
            "err_no_route",
            "err_bad_field",
            "err_not_object",
            "err_not_json",
        ), response.text
        assert after == before


@FUZZ
@given(
    action=st.sampled_from(["join", "withdraw"]),
    tournament=st.text(max_size=40),
    header=st.text(max_size=80) | st.sampled_from(["Bearer hmk_x", "Bearer", ""]),
)
def test_any_bot_tournament_join_gets_an_api_error(
    client: TestClient, action: str, tournament: str, header: str
) -> None:
    client.cookies.clear()
    path = f"/api/tournament/{quote(tournament, safe='')}/{action}"
    headers = {"Authorization": header} if header.isprintable() and header.isascii() else {}
    response = client.post(path, headers=headers)
    assert response.status_code in (401, 404), response.text
    if response.status_code == 401:
        body = response.json()
        assert body["error"] == "err_token" and body["message"]


@FUZZ
@given(
    body=objects
    | json_values.map(lambda value: {"value": value})
    | st.fixed_dictionaries(
        {"room": st.sampled_from(["player", "spectator", "x"]), "text": st.text(max_size=1100)}
    ),
    raw=st.booleans(),
)
def test_any_chat_body_is_said_or_refused_with_a_code(
    client: TestClient, bots: dict[str, str], body: dict[str, Any], raw: bool
) -> None:
    content = json.dumps(body).encode() if not raw else str(body).encode()
    response = client.post(
        f"/api/bot/game/{bots['game']}/chat",
        content=content,
        headers={**bearer(bots["ann"]), **JSON_TYPE},
    )
    if response.status_code != 200:
        assert_api_error(response)


@FUZZ
@given(
    name=st.text(max_size=50) | st.sampled_from(["FuzzBob", "FuzzAnn", "fuzzcyd", "Nobody"]),
    body=objects
    | json_values.map(lambda value: {"value": value})
    | st.fixed_dictionaries(
        {},
        optional={
            "variant": st.sampled_from(["classic", "x", ""]) | st.text(max_size=10),
            "clock": st.sampled_from([None, "3+2", "1d", "9+9", 3]),
            "rated": st.booleans() | st.integers(),
            "first": st.sampled_from(["challenger", "dest", "random", "me"]),
        },
    ),
)
def test_any_api_challenge_is_made_or_refused_with_a_code(
    client: TestClient, bots: dict[str, str], name: str, body: dict[str, Any]
) -> None:
    response = client.post(
        f"/api/challenge/{quote(name, safe='')}",
        content=json.dumps(body).encode(),
        headers={**bearer(bots["cyd"]), **JSON_TYPE},
    )
    if response.status_code == 200:
        made = response.json()["challenge"]
        assert made["challenger"]["name"] == "FuzzCyd" and made["status"] == "open"
        cancel = client.post(f"/api/challenge/{made['id']}/cancel", headers=bearer(bots["cyd"]))
        assert cancel.status_code == 200, cancel.text
    else:
        assert_api_error(response)


@FUZZ
@given(
    body=objects
    | json_values.map(lambda value: {"value": value})
    | st.fixed_dictionaries(
        {
            "name": st.text(max_size=50),
            "scopes": st.lists(st.sampled_from(["bot:play", "read", "admin", ""]), max_size=3),
        }
    )
)
def test_any_token_body_is_made_or_refused_with_a_code(
    client: TestClient, social_people: dict[str, dict[str, str]], body: dict[str, Any]
) -> None:
    person = social_people["Target"]
    response = client.post(
        "/api/tokens", content=json.dumps(body).encode(), headers={**person, **JSON_TYPE}
    )
    listed = client.get("/api/tokens", headers=person).json()["tokens"]
    if response.status_code == 201:
        made = response.json()
        assert made["token"].startswith("hmk_") and made["id"] in [t["id"] for t in listed]
        revoked = client.delete(f"/api/tokens/{made['id']}", headers=person)
        assert revoked.status_code == 204
    else:
        assert response.status_code in (400, 409, 413), response.text
        assert_documented_error(response.json())
    assert len(listed) <= 20


def test_a_flooding_token_is_slowed_and_the_other_token_is_not() -> None:
    with make_client() as fresh:  # the per-token rates as served
        ann = api_token(fresh, "FloodAnn", ["bot:play"], bot=True)
        bob = api_token(fresh, "FloodBob", ["bot:play"], bot=True)
        codes = [
            fresh.post("/api/bot/game/nope/resign", headers=bearer(ann)).json()["error"]
            for _ in range(100)
        ]
        assert codes[:60] == ["err_no_game"] * 60  # ACTION_RATE: 60 per 2 seconds
        assert set(codes[60:]) == {"err_rate"}
        slowed = fresh.post("/api/bot/game/nope/resign", headers=bearer(ann))
        assert_api_error(slowed)
        assert slowed.status_code == 429 and 1 <= int(slowed.headers["retry-after"]) <= 2
        other = fresh.post("/api/bot/game/nope/resign", headers=bearer(bob))
        assert other.status_code == 404 and other.json()["error"] == "err_no_game"
        assert fresh.get("/api/account", headers=bearer(ann)).status_code == 200


class HeldStream:
    """An event stream held open in a thread: its status, and whether the server ended it."""

    def __init__(self, url: str, token: str) -> None:
        self.status = 0
        self.error = ""
        self.answered = threading.Event()
        self.ended = threading.Event()
        self.http = httpx.Client(timeout=httpx.Timeout(10, read=60))
        threading.Thread(target=self.read, args=(url, token), daemon=True).start()
        assert self.answered.wait(30)

    def read(self, url: str, token: str) -> None:
        try:
            with self.http.stream("GET", url, headers=bearer(token)) as response:
                self.status = response.status_code
                if self.status != 200:
                    self.error = json.loads(response.read())["error"]
                self.answered.set()
                for _ in response.iter_bytes():
                    pass
            self.ended.set()
        except httpx.HTTPError as error:
            self.error = self.error or repr(error)
        self.answered.set()
        self.http.close()  # no kept-alive connection: the server caps them per address

    def close(self) -> None:
        self.http.close()


def test_a_stream_opened_100_times_keeps_its_cap_and_closes_the_oldest(tmp_path: Path) -> None:
    with Server(tmp_path / "games.sqlite", free_port()) as server:
        http = httpx.Client(base_url=server.url, timeout=30)
        tokens = []
        for name in ("StreamBot", None):
            if name is not None:
                made = http.post("/api/me/register", json={"name": name, "password": "x" * 12})
                csrf = {"X-CSRF-Token": made.json()["csrf"]}
            answer = http.post(
                "/api/tokens", json={"name": "s", "scopes": ["bot:play"]}, headers=csrf
            )
            tokens.append(answer.json()["token"])
        assert http.post("/api/bot/account/upgrade", headers=bearer(tokens[0])).status_code == 200
        url = f"{server.url}/api/stream/event"
        streams = [HeldStream(url, tokens[0]) for _ in range(100)]
        try:
            opened = [stream for stream in streams if stream.status == 200]
            refused = [stream for stream in streams if stream.status != 200]
            assert len(opened) == 20 and streams[:20] == opened  # OPEN_RATE: 20 a minute
            assert {(s.status, s.error) for s in refused} == {(429, "err_rate")}
            # The cap: 4 event streams per token, a newer one closing the oldest.
            for stream in opened[:16]:
                assert stream.ended.wait(15)
            assert not any(stream.ended.is_set() for stream in opened[16:])
            # The other token of the same bot is unharmed.
            other = HeldStream(url, tokens[1])
            assert other.status == 200 and not other.ended.wait(1.5)
            other.close()
        finally:
            for stream in streams:
                stream.close()
        assert http.get("/healthz").status_code == 200
