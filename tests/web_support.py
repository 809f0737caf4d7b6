"""Helpers for the web tests that talk to the server through Starlette's test client:
creating games, taking a seat on a game's socket, reading what the server sends, the
seat's legal decisions worked out from its own state, and what the server stores.

Not a test module: the test modules import from here (the app itself comes from
:mod:`serving`)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from serving import app_client, served
from starlette.testclient import TestClient, WebSocketTestSession

from hanamikoji.core import turn_moves
from hanamikoji.core.cards import pack
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.games.live import Connection
from hanamikoji.interfaces.web.games.payload import KIND_NAMES
from hanamikoji.interfaces.web.games.thinkers import BotRunner
from hanamikoji.interfaces.web.pages.tutorial import tutorial_step
from hanamikoji.interfaces.web.services import running_games
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.interfaces.web_settings import ServeSettings

__all__ = [
    "COOKIE",
    "HIDDEN_TEXT",
    "JSON_TYPE",
    "KIND_BITS",
    "PASSWORD",
    "JSONDict",
    "SeatPage",
    "Tap",
    "all_keys",
    "as_guest",
    "bearer",
    "create",
    "csrf",
    "frames",
    "hello",
    "instance",
    "legal_texts",
    "make_client",
    "my_games",
    "play_to_the_end",
    "receive",
    "receive_error",
    "receive_state",
    "refusal",
    "register",
    "settings",
    "sign_in",
    "stored_decisions",
    "take_seat",
]

JSONDict = dict[str, Any]
JSON_TYPE = {"Content-Type": "application/json"}
KIND_BITS = {name: int(kind) for kind, name in KIND_NAMES.items() if kind.is_action}
COOKIE = "hanamikoji_session"
PASSWORD = "correct horse battery"
HIDDEN_TEXT = re.compile(r"\b([ST]):([A-G]{1,2})\b")
"""A secret or a tradeoff with its cards shown, in a decision's text."""


class Tap:
    """Every message the server hands to a seat, as the hub sends it."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], list[str]] = defaultdict(list)

    def __call__(self, game_id: str, seat: int, message: str) -> None:
        self.sent[(game_id, seat)].append(message)


def make_client(db_url: str = "sqlite://", tap: Tap | None = None) -> TestClient:
    return app_client(db_url, tap=tap)


def create(client: TestClient, **options: Any) -> JSONDict:
    response = client.post("/api/games", json=options)
    assert response.status_code == 201, response.text
    body: JSONDict = response.json()
    return body


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def receive_state(ws: Any, at_least_ply: int = 0) -> JSONDict:
    """The next state message with ``ply >= at_least_ply`` (earlier ones are skipped)."""
    while True:
        message: JSONDict = json.loads(ws.receive_text())
        if message["type"] == "state" and message["ply"] >= at_least_ply:
            return message


def receive_error(ws: Any) -> JSONDict:
    while True:
        message: JSONDict = json.loads(ws.receive_text())
        if message["type"] == "error":
            return message


def hello(ws: Any, token: str, lang: str = "en") -> JSONDict:
    ws.send_text(json.dumps({"type": "hello", "token": token, "lang": lang}))
    return receive_state(ws)


@contextmanager
def take_seat(
    client: TestClient, game: JSONDict, token: str | None = None, lang: str = "en"
) -> Iterator[tuple[WebSocketTestSession, JSONDict]]:
    """The socket of ``game`` (as :func:`create` answered) with the seat of ``token``
    taken (the creator's seat unless told), and the first state it got."""
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        yield ws, hello(ws, game["token"] if token is None else token, lang)


def legal_texts(state: JSONDict) -> list[str]:
    """The legal decisions of the seat, worked out from its own state message only."""
    if state["pending"] is not None:
        return [option["text"] for option in state["pending"]["options"]]
    used = sum(1 << KIND_BITS[name] for name in state["used"][state["seat"]])
    return [move.text() for move in turn_moves(pack(state["hand"]), used)]


def play_to_the_end(ws: Any, state: JSONDict, rng: random.Random) -> JSONDict:
    """Play random legal decisions for the seat of ``ws`` until the game is over (the
    other seat is a bot)."""
    while state["outcome"] is None:
        if state["to_move"] == state["seat"]:
            move = rng.choice(legal_texts(state))
            ws.send_text(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
            state = receive_state(ws, state["ply"] + 1)
        else:
            state = receive_state(ws, state["ply"] + 1)
    return state


def stored_decisions(client: TestClient, game_id: str) -> tuple[str, ...]:
    stored = served(client).games.load(game_id)
    assert stored is not None
    decisions: tuple[str, ...] = stored.decisions
    return decisions


def settings(client: TestClient, game_id: str) -> JSONDict:
    """What the server keeps to itself until the end: the seed above all."""
    stored = served(client).games.get(game_id)
    assert stored is not None
    return {
        "id": game_id,
        "variant": stored.variant,
        "seed": stored.seed,
        "first_player": stored.first_player,
    }


def all_keys(value: Any) -> set[str]:
    """Every key of every object nested in ``value`` (a message read from JSON)."""
    if isinstance(value, dict):
        found = set(value)
        for inner in value.values():
            found |= all_keys(inner)
        return found
    if isinstance(value, list):
        found = set()
        for inner in value:
            found |= all_keys(inner)
        return found
    return set()


# -- players ----------------------------------------------------------------------------


def register(client: TestClient, name: str, password: str = PASSWORD) -> JSONDict:
    """Register ``name`` from a browser with no session; the client keeps the cookie."""
    client.cookies.clear()
    response = client.post("/api/me/register", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    body: JSONDict = response.json()
    return body


def as_guest(client: TestClient, nickname: str) -> JSONDict:
    client.cookies.clear()
    response = client.post("/api/me/guest", json={"nickname": nickname})
    assert response.status_code == 201, response.text
    body: JSONDict = response.json()
    return body


def csrf(body: JSONDict) -> dict[str, str]:
    return {"X-CSRF-Token": body["csrf"]}


def refusal(response: Any, status: int, code: str) -> JSONDict:
    assert response.status_code == status, response.text
    body: JSONDict = response.json()
    assert body["code"] == code, body
    return body


def my_games(client: TestClient) -> JSONDict:
    response = client.get("/api/me/games")
    assert response.status_code == 200, response.text
    body: JSONDict = response.json()
    return body


def sign_in(
    client: TestClient, nickname: str | None = None, account: str | None = None
) -> dict[str, str]:
    """The cookie header of a new guest (or account) session."""
    client.cookies.clear()
    if account is not None:
        response = client.post("/api/me/register", json={"name": account, "password": PASSWORD})
    else:
        response = client.post("/api/me/guest", json={"nickname": nickname})
    assert response.status_code == 201, response.text
    cookie = client.cookies.get(COOKIE)
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={cookie}"}


def receive(ws: Any, kind: str) -> JSONDict:
    while True:
        message: JSONDict = json.loads(ws.receive_text())
        if message["type"] == kind:
            return message


# -- the lesson ---------------------------------------------------------------------------


def frames(index: int) -> list[JSONDict]:
    """The states of the lesson's step ``index`` (in English)."""
    found: list[JSONDict] = to_plain(tutorial_step(index, "en").frames)
    return found


# -- hubs without a server ---------------------------------------------------------------


class SeatPage:
    """A page at a seat of a hub run without a server (:func:`instance`): every message
    it was sent, and a way to wait for one."""

    def __init__(self) -> None:
        self.messages: list[JSONDict] = []
        self._arrived = asyncio.Event()
        self.connection = Connection(self._send, "en")

    async def _send(self, text: str) -> None:
        self.messages.append(json.loads(text))
        self._arrived.set()

    async def until(self, check: Callable[[dict[str, Any]], bool], timeout: float = 10) -> Any:
        """The first message (old or new) for which ``check`` holds."""
        async with asyncio.timeout(timeout):
            while True:
                for message in self.messages:
                    if check(message):
                        return message
                self._arrived.clear()
                await self._arrived.wait()

    def last_state(self) -> dict[str, Any]:
        return [m for m in self.messages if m.get("type") == "state"][-1]


@asynccontextmanager
async def instance(url: str, runner: BotRunner | None = None) -> AsyncIterator[GameHub]:
    store = Store(url)
    try:
        async with running_games(store, runner or BotRunner(0), ServeSettings()) as hub:
            yield hub
    finally:
        store.close()
