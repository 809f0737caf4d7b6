"""An in-process fake of the server's bot API (/work/wt/BOTAPI-CONTRACT.md,
docs/bot-api.md) for the bridge's tests: real games (:class:`~hanamikoji.core.Game`)
behind it, states built by the page's own ``games/payload.seat_state`` and encoded by
``wire/outgoing`` (the real schema), the other seat played by a seeded random bot.

It serves the routes the bridge uses (``/api/account``, ``/api/stream/event``,
``/api/bot/game/stream/{id}``, move, resign, challenge accept and decline) on loopback
with uvicorn (:func:`serving`), and a few ``/fake/...`` routes a test drives it with:
``POST /fake/challenge`` (a challenge to the bot), ``POST /fake/drop/{game}`` (the
game's streams cut mid-game), ``POST /fake/fail`` (the next requests of a kind answered
with a status). An end-to-end test can swap it for the real server: only the ``/fake``
routes are its own.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from hanamikoji.bots.base import RandomBot
from hanamikoji.core import Game
from hanamikoji.core.errors import IllegalMoveError, InvalidMoveError
from hanamikoji.core.moves import Move
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
from hanamikoji.interfaces.web.wire.outgoing import SeatPlayer, to_plain

TOKEN = "hmk_" + "b" * 43
BOT_NAME = "bridgebot"
NDJSON = "application/x-ndjson"


class Dropped(Exception):
    """Raised in a stream's body: the connection is cut, as a dead instance cuts it."""


@dataclass
class FakeGame:
    id: str
    game: Game
    seat: int
    opponent: str
    rated: bool
    clock: str | None
    rng: random.Random
    ended: tuple[str, str] | None = None
    posted: list[tuple[int, str]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    listeners: list[asyncio.Queue[bytes | None]] = field(default_factory=list)
    streams_opened: int = 0

    @property
    def over(self) -> bool:
        return self.game.is_over() or self.ended is not None

    def people(self) -> tuple[SeatPlayer, SeatPlayer]:
        me = SeatPlayer(kind="account", name=BOT_NAME)
        them = SeatPlayer(kind="account", name=self.opponent)
        return (me, them) if self.seat == 0 else (them, me)

    def state(self) -> dict[str, Any]:
        public = PublicGame(
            self.id,
            ("human", "human"),
            (None, None),
            len(self.game.move_stack),
            ended=self.ended,
            rated=self.rated,
            people=self.people(),
        )
        plain: dict[str, Any] = to_plain(seat_state(self.game.view(self.seat), public))
        return plain

    def full_line(self) -> bytes:
        people = [to_plain(p) | {"bot": p.name == BOT_NAME} for p in self.people()]
        return _line(
            {
                "type": "gameFull",
                "id": self.id,
                "seat": self.seat,
                "variant": self.game.variant.name,
                "rated": self.rated,
                "clock": self.clock,
                "people": people,
                "state": self.state(),
            }
        )

    def publish(self) -> None:
        line = _line({"type": "gameState", "state": self.state()})
        for queue in self.listeners:
            queue.put_nowait(line)

    def opponent_moves(self) -> None:
        """The other seat's decisions until the bot's turn or the end."""
        opponent = RandomBot(seed=self.rng.randrange(1 << 30))
        game = self.game
        while not game.is_over() and game.to_move == 1 - self.seat:
            game.push(opponent.choose(game.view(1 - self.seat), game.legal_moves))


def _line(value: dict[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


def _error(status: int, code: str, message: str = "") -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": code, "message": message or code}, status, headers=headers)


class FakeServer:
    """The fake's state and its Starlette app (:attr:`app`)."""

    def __init__(self, keepalive: float = 0.2, seed: int = 1) -> None:
        self.keepalive = keepalive
        self.rng = random.Random(seed)
        self.games: dict[str, FakeGame] = {}
        self.challenges: dict[str, dict[str, Any]] = {}
        self.declined: dict[str, str] = {}
        self.event_listeners: list[asyncio.Queue[bytes | None]] = []
        self.failures: dict[str, list[int]] = {}
        self.requests: list[str] = []
        self.cut_after_moves: int | None = None
        """Cut the game's streams at the bot's Nth decision, which counts but is
        answered 503: the answer lost with the connection."""
        self.bot_moves = 0
        self.app = Starlette(
            routes=[
                Route("/api/account", self.account),
                Route("/api/stream/event", self.event_stream),
                Route("/api/bot/game/stream/{id}", self.game_stream),
                Route("/api/bot/game/{id}/move", self.move, methods=["POST"]),
                Route("/api/bot/game/{id}/move/{decision:path}", self.move, methods=["POST"]),
                Route("/api/bot/game/{id}/resign", self.resign, methods=["POST"]),
                Route("/api/challenge/{id}/accept", self.accept, methods=["POST"]),
                Route("/api/challenge/{id}/decline", self.decline, methods=["POST"]),
                Route("/fake/challenge", self.fake_challenge, methods=["POST"]),
                Route("/fake/drop/{id}", self.fake_drop, methods=["POST"]),
                Route("/fake/fail", self.fake_fail, methods=["POST"]),
            ]
        )

    # -- helpers ------------------------------------------------------------------------

    def _refused(self, request: Request, kind: str) -> Response | None:
        self.requests.append(kind)
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return _error(401, "err_token", "No valid token.")
        failures = self.failures.get(kind)
        if failures and kind != "move":
            return _error(failures.pop(0), "err_unavailable")
        return None

    def _game(self, request: Request) -> FakeGame | None:
        return self.games.get(request.path_params["id"])

    # -- the API ------------------------------------------------------------------------

    async def account(self, request: Request) -> Response:
        refused = self._refused(request, "account")
        if refused is not None:
            return refused
        return JSONResponse({"id": BOT_NAME, "name": BOT_NAME, "bot": True, "ratings": {}})

    async def event_stream(self, request: Request) -> Response:
        refused = self._refused(request, "events")
        if refused is not None:
            return refused
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        for challenge in self.challenges.values():
            if challenge["status"] == "created":
                queue.put_nowait(_line({"type": "challenge", "challenge": challenge}))
        for game in self.games.values():
            if not game.over:
                queue.put_nowait(_line({"type": "gameStart", "game": self._ref(game)}))
        return self._stream(queue, self.event_listeners)

    async def game_stream(self, request: Request) -> Response:
        refused = self._refused(request, "game stream")
        if refused is not None:
            return refused
        game = self._game(request)
        if game is None:
            return _error(404, "err_no_game")
        game.streams_opened += 1
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        queue.put_nowait(game.full_line())
        if game.over:
            queue.put_nowait(None)
        return self._stream(queue, game.listeners, closes_after_end=game)

    def _stream(
        self,
        queue: asyncio.Queue[bytes | None],
        listeners: list[asyncio.Queue[bytes | None]],
        closes_after_end: FakeGame | None = None,
    ) -> Response:
        listeners.append(queue)

        async def body() -> AsyncIterator[bytes]:
            try:
                while True:
                    try:
                        line = await asyncio.wait_for(queue.get(), self.keepalive)
                    except TimeoutError:
                        yield b"\n"
                        continue
                    if line is None:
                        return
                    if line == b"drop":
                        raise Dropped
                    yield line
                    if closes_after_end is not None and closes_after_end.over:
                        return
            finally:
                listeners.remove(queue)

        return StreamingResponse(body(), media_type=NDJSON)

    async def move(self, request: Request) -> Response:
        refused = self._refused(request, "move")
        if refused is not None:
            return refused
        game = self._game(request)
        if game is None:
            return _error(404, "err_no_game")
        decision = request.path_params.get("decision")
        if decision is None:
            decision = (await request.json()).get("decision", "")
        game.posted.append((len(game.game.move_stack), decision))
        if game.over or game.game.to_move != game.seat:
            game.refused.append(decision)
            return _error(409, "err_not_your_turn")
        try:
            game.game.push(Move.from_text(decision))
        except InvalidMoveError:
            return _error(400, "err_malformed")
        except IllegalMoveError:
            return _error(400, "err_illegal")
        game.opponent_moves()
        self.bot_moves += 1
        if self.bot_moves == self.cut_after_moves:
            for queue in list(game.listeners):
                queue.put_nowait(b"drop")
            return _error(503, "err_unavailable")
        game.publish()
        failures = self.failures.get("move")
        if failures:
            # The decision counted, but its answer is lost: a 5xx after the fact.
            return _error(failures.pop(0), "err_unavailable")
        return JSONResponse({"ok": True})

    async def resign(self, request: Request) -> Response:
        refused = self._refused(request, "resign")
        if refused is not None:
            return refused
        game = self._game(request)
        if game is None or game.over:
            return _error(404, "err_no_game")
        game.ended = ("resigned", "0-1" if game.seat == 0 else "1-0")
        game.publish()
        return JSONResponse({"ok": True})

    async def accept(self, request: Request) -> Response:
        refused = self._refused(request, "accept")
        if refused is not None:
            return refused
        challenge = self.challenges.get(request.path_params["id"])
        if challenge is None or challenge["status"] != "created":
            return _error(404, "err_no_challenge")
        challenge["status"] = "accepted"
        first = challenge["first"]
        seat = 0 if first == "dest" else 1 if first == "challenger" else self.rng.randrange(2)
        game = FakeGame(
            id=challenge["id"],
            game=Game(challenge["variant"], seed=self.rng.randrange(1 << 32)),
            seat=seat,
            opponent=challenge["challenger"]["name"],
            rated=challenge["rated"],
            clock=challenge["clock"],
            rng=random.Random(self.rng.randrange(1 << 30)),
        )
        game.opponent_moves()
        self.games[game.id] = game
        for queue in self.event_listeners:
            queue.put_nowait(_line({"type": "gameStart", "game": self._ref(game)}))
        return JSONResponse({"ok": True})

    async def decline(self, request: Request) -> Response:
        refused = self._refused(request, "decline")
        if refused is not None:
            return refused
        challenge = self.challenges.get(request.path_params["id"])
        if challenge is None or challenge["status"] != "created":
            return _error(404, "err_no_challenge")
        challenge["status"] = "declined"
        self.declined[challenge["id"]] = "declined"
        return JSONResponse({"ok": True})

    def _ref(self, game: FakeGame) -> dict[str, Any]:
        return {
            "id": game.id,
            "seat": game.seat,
            "variant": game.game.variant.name,
            "rated": game.rated,
            "clock": game.clock,
            "opponent": {"kind": "account", "name": game.opponent, "bot": False},
        }

    # -- the test's controls ------------------------------------------------------------

    async def fake_challenge(self, request: Request) -> Response:
        body = await request.json()
        challenge = {
            "id": f"c{len(self.challenges) + 1}",
            "challenger": {
                "kind": "account",
                "name": body.get("from", "ann"),
                "bot": bool(body.get("bot", False)),
            },
            "dest": {"kind": "account", "name": BOT_NAME, "bot": True},
            "variant": body.get("variant", "classic"),
            "clock": body.get("clock"),
            "rated": bool(body.get("rated", False)),
            "first": body.get("first", "random"),
            "status": "created",
        }
        self.challenges[challenge["id"]] = challenge
        for queue in self.event_listeners:
            queue.put_nowait(_line({"type": "challenge", "challenge": challenge}))
        return JSONResponse({"challenge": challenge})

    async def fake_drop(self, request: Request) -> Response:
        game = self._game(request)
        assert game is not None
        for queue in list(game.listeners):
            queue.put_nowait(b"drop")
        return JSONResponse({"dropped": len(game.listeners)})

    async def fake_fail(self, request: Request) -> Response:
        body = await request.json()
        self.failures.setdefault(body["kind"], []).extend(body["statuses"])
        return JSONResponse({"ok": True})


@contextmanager
def serving(server: FakeServer) -> Iterator[str]:
    """Run ``server`` with uvicorn on a loopback port in a thread; its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(server.app, log_level="critical", lifespan="off")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    started = threading.Event()

    def wait_started() -> None:
        while not runner.started and thread.is_alive():
            started.wait(0.01)

    wait_started()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        runner.should_exit = True
        thread.join(timeout=10)
        sock.close()
