"""The Starlette application: the page, the JSON routes and the game WebSocket.

Routes (``TOKEN`` is a seat token, sent in an ``Authorization: Bearer`` header over HTTP
and in the first message over the WebSocket, never in a URL the server sees):

==========================================  =============================================
``GET /``, ``GET /g/{id}``                  the page (the seat token is in the fragment)
``GET /static/...``                         HTML, CSS and ES modules
``GET /api/i18n/{lang}``                    sentences and edition terms of a language
``POST /api/games``                         a new game against a bot or a friend
``GET /api/games/{id}``                     the seat's state (TOKEN)
``GET /api/games/{id}/record?format=text``  the record, ``text`` or ``json``, once over
``GET /api/games/{id}/replay``              every position with every card, once over
``POST /api/games/{id}/rematch``            the next game between the same seats
``WS /ws/{id}``                             live play: ``hello`` with TOKEN, then moves
==========================================  =============================================
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.errors import UnknownVariantError
from hanamikoji.core.variants import VARIANTS, Variant
from hanamikoji.interfaces.web.bots import BotRunner
from hanamikoji.interfaces.web.catalog import client_catalog
from hanamikoji.interfaces.web.checks import Refused, parse_client_message, parse_lang
from hanamikoji.interfaces.web.hub import Connection, GameHub, LiveGame, SeatTap, error_message
from hanamikoji.interfaces.web.payload import encode
from hanamikoji.interfaces.web.storage import Store
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["STATIC", "ServerConfig", "create_app", "origin_allowed"]

log = logging.getLogger("hanamikoji.web")

STATIC = Path(__file__).resolve().parent / "static"

HELLO_TIMEOUT = 10.0
"""Seconds a WebSocket may stay open without saying which seat it opens."""

CLOSE_POLICY = 4403
CLOSE_BAD_SEAT = 4401


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How the server runs.

    Args:
        db_url: the SQLAlchemy URL of the games database.
        bot_processes: worker processes for bot levels 3-5 (0: threads).
        bot_delay: seconds a bot waits before acting, so people see each move land.
        allowed_origins: extra page origins allowed to open WebSockets (a reverse proxy's
            public address); the server's own origin is always allowed.
        tap: sees every message sent to a seat (tests).
        gc_freeze_interval: seconds between moves of long-lived objects out of the
            cyclic garbage collector's sight (0: never); see :func:`_keep_collections_short`.
    """

    db_url: str
    bot_processes: int = 1
    bot_delay: float = 0.4
    allowed_origins: tuple[str, ...] = ()
    tap: SeatTap | None = None
    gc_freeze_interval: float = 10.0


def create_app(config: ServerConfig) -> Starlette:
    """The application. The database is opened (and its tables created) at startup."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, config.db_url)
        bots = BotRunner(config.bot_processes)
        hub = GameHub(store, bots, bot_delay=config.bot_delay, tap=config.tap)
        app.state.hub = hub
        keeper = asyncio.create_task(_keep_collections_short(config.gc_freeze_interval))
        try:
            yield
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            await hub.close()
            bots.close()
            store.close()

    routes = [
        Route("/", _page),
        Route("/g/{game_id}", _page),
        Route("/api/i18n/{lang}", _catalog),
        Route("/api/options", _options),
        Route("/api/games", _create_game, methods=["POST"]),
        Route("/api/games/{game_id}", _game_state),
        Route("/api/games/{game_id}/record", _record),
        Route("/api/games/{game_id}/replay", _replay),
        Route("/api/games/{game_id}/rematch", _rematch, methods=["POST"]),
        Route("/healthz", _health),
        WebSocketRoute("/ws/{game_id}", _game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.allowed_origins = frozenset(o.rstrip("/") for o in config.allowed_origins)
    app.add_middleware(_SecurityHeaders)
    return app


async def _keep_collections_short(interval: float) -> None:
    """Keep full garbage collections from pausing play.

    A full collection walks every tracked object, and the core's move caches alone hold
    hundreds of thousands of references: on this project's machine that pauses the event
    loop for 50-250 ms, every game at once. Every ``interval`` seconds the young
    generations are collected (cheap) and whatever survived is frozen, so full
    collections only ever see what is newer. Frozen objects are still freed by reference
    counting when dropped (games, connections); only reference cycles among them would
    outlive their use, and the server makes none on purpose.
    """
    if interval <= 0:
        return
    gc.freeze()
    while True:
        await asyncio.sleep(interval)
        gc.collect(1)
        gc.freeze()


# -- helpers ----------------------------------------------------------------------------


def _hub(connection: HTTPConnection) -> GameHub:
    hub: GameHub = connection.app.state.hub
    return hub


def _request_lang(request: Request) -> Lang:
    wanted = request.query_params.get("lang") or request.headers.get("x-hanamikoji-lang", "")
    if wanted in LANGUAGES:
        return parse_lang(wanted)
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in ("es", "fr", "en"):
            return parse_lang(code)
    return "en"


def _refusal(refusal: Refused, lang: Lang, status: int) -> JSONResponse:
    return JSONResponse(error_message(refusal, lang), status_code=status)


def origin_allowed(connection: HTTPConnection) -> bool:
    """Whether a browser page of another site is not the one calling. Browsers always
    send ``Origin`` on WebSockets and cross-site POSTs; other clients (scripts, the
    benchmark) send none and cannot be tricked into using a player's page."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    allowed: frozenset[str] = connection.app.state.allowed_origins
    if origin in allowed:
        return True
    host = connection.headers.get("host")
    parts = urlsplit(origin)
    return host is not None and parts.scheme in ("http", "https") and parts.netloc == host


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def _seat(request: Request) -> tuple[LiveGame, int]:
    token = _bearer(request)
    found = None
    if token is not None and len(token) <= 128:
        found = await _hub(request).authenticate(request.path_params["game_id"], token)
    if found is None:
        raise Refused("err_bad_token")
    return found


# -- HTTP -------------------------------------------------------------------------------


async def _page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def _catalog(request: Request) -> Response:
    try:
        lang = parse_lang(request.path_params["lang"])
    except Refused as refusal:
        return _refusal(refusal, "en", 404)
    return JSONResponse(client_catalog(lang), headers={"Cache-Control": "max-age=300"})


async def _options(request: Request) -> Response:
    return JSONResponse(
        {
            "variants": [{"name": v.name, "max_rounds": v.max_rounds} for v in VARIANTS.values()],
            "levels": sorted(LEVELS),
            "languages": list(LANGUAGES),
        }
    )


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > 4096:
        raise Refused("err_too_long", limit=4096)
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise Refused("err_not_json") from None
    if not isinstance(data, dict):
        raise Refused("err_not_object")
    return data


async def _create_game(request: Request) -> Response:
    lang = _request_lang(request)
    if not origin_allowed(request):
        return _refusal(Refused("err_origin"), lang, 403)
    try:
        data = await _json_body(request)
        opponent = data.get("opponent", "bot")
        if opponent not in ("bot", "friend"):
            raise Refused("err_bad_field", field="opponent")
        level = data.get("level", 2)
        if opponent == "bot" and (isinstance(level, bool) or level not in LEVELS):
            raise Refused("err_bad_field", field="level")
        variant = data.get("variant", "classic")
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise Refused("err_bad_field", field="variant")
        Variant.by_name(variant)
        first = data.get("first", "random")
        if first not in ("me", "opponent", "random"):
            raise Refused("err_bad_field", field="first")
    except Refused as refusal:
        return _refusal(refusal, lang, 400)
    except UnknownVariantError:
        return _refusal(Refused("err_bad_field", field="variant"), lang, 400)
    first_player = {"me": 0, "opponent": 1}.get(first, secrets.randbelow(2))
    created = await _hub(request).create(
        variant, first_player, level if opponent == "bot" else None
    )
    return JSONResponse(
        {
            "id": created.id,
            "seat": 0,
            "token": created.token,
            "friend_token": created.friend_token,
        },
        status_code=201,
    )


SeatRoute = Callable[[Request, Lang, LiveGame, int], Awaitable[Response]]


def _seated(route: SeatRoute) -> Callable[[Request], Awaitable[Response]]:
    """A route for the holder of a seat: a token that names no seat of the game is
    refused with 404, and a refusal by the route itself (the game is not in a state
    for it) with 409."""

    async def endpoint(request: Request) -> Response:
        lang = _request_lang(request)
        try:
            live, seat = await _seat(request)
        except Refused as refusal:
            return _refusal(refusal, lang, 404)
        try:
            return await route(request, lang, live, seat)
        except Refused as refusal:
            return _refusal(refusal, lang, 409)

    return endpoint


@_seated
async def _game_state(request: Request, lang: Lang, live: LiveGame, seat: int) -> Response:
    async with live.lock:
        state = _hub(request).state_for(live, seat)
    return JSONResponse(state, headers={"Cache-Control": "no-store"})


@_seated
async def _record(request: Request, lang: Lang, live: LiveGame, seat: int) -> Response:
    fmt = request.query_params.get("format", "text")
    if fmt not in ("text", "json"):
        return _refusal(Refused("err_bad_field", field="format"), lang, 400)
    async with live.lock:
        body = _hub(request).record(live, fmt)
    suffix, media = ("json", "application/json") if fmt == "json" else ("hkr", "text/plain")
    return Response(
        body,
        media_type=f"{media}; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="hanamikoji-{live.id}.{suffix}"',
            "Cache-Control": "no-store",
        },
    )


@_seated
async def _replay(request: Request, lang: Lang, live: LiveGame, seat: int) -> Response:
    async with live.lock:
        frames = _hub(request).replay(live)
    return JSONResponse({"frames": frames}, headers={"Cache-Control": "no-store"})


@_seated
async def _rematch(request: Request, lang: Lang, live: LiveGame, seat: int) -> Response:
    if not origin_allowed(request):
        return _refusal(Refused("err_origin"), lang, 403)
    new_id = await _hub(request).rematch(live)
    return JSONResponse({"id": new_id})


# -- WebSocket --------------------------------------------------------------------------


async def _game_socket(websocket: WebSocket) -> None:
    if not origin_allowed(websocket):
        # Closing before accepting refuses the handshake (HTTP 403).
        await websocket.close(code=CLOSE_POLICY)
        return
    await websocket.accept()
    hub = _hub(websocket)
    game_id = websocket.path_params["game_id"]
    lang: Lang = "en"
    try:
        hello = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT)
        if hello is None:
            return
        message = parse_client_message(hello)
        lang = message.lang
        if message.type != "hello":
            raise Refused("err_hello_first")
        found = await hub.authenticate(game_id, message.token)
        if found is None:
            raise Refused("err_bad_token")
    except Refused as refusal:
        await _send_and_close(websocket, error_message(refusal, lang), CLOSE_BAD_SEAT)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await websocket.close(code=CLOSE_BAD_SEAT)
        return
    _, seat = found
    connection = Connection(websocket.send_text, lang)
    live = await hub.attach(game_id, seat, connection)
    try:
        await _serve_seat(websocket, hub, live, seat, connection)
    finally:
        await hub.detach(live, seat, connection)


async def _serve_seat(
    websocket: WebSocket, hub: GameHub, live: LiveGame, seat: int, connection: Connection
) -> None:
    while True:
        raw = await _receive_text(websocket)
        if raw is None:
            return
        try:
            message = parse_client_message(raw)
            if message.type == "ping":
                hub.send(live, seat, connection, {"type": "pong"})
            elif message.type == "lang":
                connection.lang = message.lang
            elif message.type == "hello":
                connection.lang = message.lang
                await hub.resend(live, seat, connection)
            else:
                await hub.play(live, seat, message.move, message.ply)
        except Refused as refusal:
            hub.send(live, seat, connection, error_message(refusal, connection.lang))
            if refusal.key == "err_stale":
                await hub.resend(live, seat, connection)


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text message; ``None`` once the socket is closed. A binary message is
    handed on as text that fails validation."""
    try:
        message = await websocket.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return str(message["text"])
    return "\x00binary"


async def _send_and_close(websocket: WebSocket, message: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(encode(message))
        await websocket.close(code=code)


# -- headers ----------------------------------------------------------------------------

_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
        b" connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]


class _SecurityHeaders:
    """Every HTTP response says: no framing, no sniffing, no referrer, only our own code
    (the fragment of a page address holds a seat token)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name for name, _ in headers}
                headers.extend(item for item in _HEADERS if item[0] not in names)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
