"""The Starlette application: the middleware, each feature's routes, the lifespan that
runs the services (``services.py``), and the games' routes and WebSockets.

Routes (``TOKEN`` is a seat token, sent in an ``Authorization: Bearer`` header over HTTP
and in the first message over the WebSocket, never in a URL the server sees):

==========================================  =============================================
``POST /api/games``                         a new game against a bot or a friend
``GET /api/games/{id}``                     the seat's state (TOKEN)
``GET /api/games/{id}/record?format=text``  the record, ``text`` or ``json``, once over
``GET /api/games/{id}/replay``              every position with every card, once over
``POST /api/games/{id}/rematch``            the next game between the same seats
``POST /api/games/{id}/analysis``           start the analysis of the finished game
``GET /api/games/{id}/analysis``            the analysis, or how far it has got
``POST /api/games/{id}/hint``               a hint for the seat's decision (bot games)
``WS /ws/{id}``                             live play: ``hello`` with TOKEN, then moves
``GET /api/games?watch=1``                  the newest ongoing games anyone may watch
``WS /ws/{id}/watch``                       a spectator's live public state (no token)
``WS /lobby/ws``                            the lobby: seeks, quick pairing, live updates
==========================================  =============================================

The page's routes (``/``, ``/learn``, ``/rules/...``, ``/api/i18n/...``, ...) are in
:mod:`~hanamikoji.interfaces.web.pages.routes`; the players' (``/api/me...``,
``/api/players/{name}``, ``/api/games/{id}/claim``) in
:mod:`~hanamikoji.interfaces.web.players.routes`. Where no TOKEN is sent, the seat
routes and ``hello`` open the seat the session cookie's player holds; a ``POST`` so
authenticated carries the session's CSRF token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import cast

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ExceptionHandler
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from hanamikoji.interfaces.web.checks import Refused, parse_lang
from hanamikoji.interfaces.web.clock import TimeControl
from hanamikoji.interfaces.web.http.guards import (
    MessageBudget,
    RateGuard,
    SocketCap,
    read_body,
    receive_message,
)
from hanamikoji.interfaces.web.http.headers import SecurityHeaders
from hanamikoji.interfaces.web.http.health import (
    CLOSE_TRY_AGAIN,
    QUIET_OUTAGES,
    RETRY_AFTER_SECONDS,
    UNREACHABLE,
)
from hanamikoji.interfaces.web.http.refusals import (
    OriginCheck,
    foreign_socket,
    refusal_response,
    refused,
    request_lang,
)
from hanamikoji.interfaces.web.hub import GameHub, error_message, unavailable_message
from hanamikoji.interfaces.web.live import SPECTATOR, Connection, LiveGame
from hanamikoji.interfaces.web.lobby.routes import lobby_routes
from hanamikoji.interfaces.web.pages.routes import page_routes, static_files
from hanamikoji.interfaces.web.players.routes import player_routes
from hanamikoji.interfaces.web.players.sessions import (
    acting_session,
    copy_seats,
    record_seat,
    session_seat,
)
from hanamikoji.interfaces.web.ratings.model import check_rated
from hanamikoji.interfaces.web.ratings.routes import rating_routes
from hanamikoji.interfaces.web.services import (
    AppState,
    ServerConfig,
    guards_of,
    running_services,
    services,
)
from hanamikoji.interfaces.web.wire.answers import (
    AnalysisRunning,
    GameCreated,
    Health,
    Rematch,
    WireResponse,
)
from hanamikoji.interfaces.web.wire.incoming import (
    MAX_BODY_BYTES,
    Hello,
    LangMessage,
    Ping,
    decode_client_message,
    decode_new_game,
)
from hanamikoji.interfaces.web.wire.outgoing import ErrorMessage, Pong, encode
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["create_app"]

log = logging.getLogger("hanamikoji.web")

HELLO_TIMEOUT = 10.0
"""Seconds a WebSocket may stay open without saying which seat it opens."""

CLOSE_BAD_SEAT = 4401
CLOSE_NO_GAME = 4404
CLOSE_REPLACED = 4409
"""A newer page opened the same seat (more than :data:`~.guards.SEAT_SOCKETS`)."""
CLOSE_SERVER_ERROR = 1011

HEALTH_TIMEOUT = 2.0
"""Seconds ``/healthz`` waits for the database's answer to ``SELECT 1``."""


def create_app(config: ServerConfig) -> Starlette:
    """The application. The database is opened (and its tables created) at startup.
    Raises ``ValueError`` for a rate that is not one."""
    guards = guards_of(config.settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[AppState]:
        for name in ("hanamikoji.web", "uvicorn.error"):
            logging.getLogger(name).addFilter(QUIET_OUTAGES)  # one line per outage
        async with running_services(config, guards) as running:
            yield {"services": running}

    routes = [
        *page_routes(),
        *player_routes(),
        *rating_routes(),
        *lobby_routes(),
        Route("/api/games", _create_game, methods=["POST"]),
        Route("/api/games", _watch_list, methods=["GET"]),
        Route("/api/games/{game_id}", _game_state),
        Route("/api/games/{game_id}/record", _record),
        Route("/api/games/{game_id}/replay", _replay),
        Route("/api/games/{game_id}/rematch", _rematch, methods=["POST"]),
        Route("/api/games/{game_id}/analysis", _analysis, methods=["GET"]),
        Route("/api/games/{game_id}/analysis", _start_analysis, methods=["POST"]),
        Route("/api/games/{game_id}/hint", _hint, methods=["POST"]),
        Route("/healthz", _health),
        WebSocketRoute("/ws/{game_id}", _game_socket),
        WebSocketRoute("/ws/{game_id}/watch", _watch_socket),
        static_files(),
    ]
    # One answer wherever a route or a socket finds the database unreachable.
    # (Starlette types a handler for requests or for sockets; this one serves both.)
    handlers = dict.fromkeys(UNREACHABLE, cast(ExceptionHandler, _database_unreachable))
    handlers[Refused] = cast(ExceptionHandler, refused)  # every route's refusals
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    app.add_middleware(OriginCheck, allowed=guards.allowed_origins)
    app.add_middleware(
        SocketCap, per_address=config.settings.sockets_per_address, refusal=_too_many_sockets
    )
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(config.allowed_hosts))
    app.add_middleware(SecurityHeaders)
    return app


# -- helpers ----------------------------------------------------------------------------


def _hub(connection: HTTPConnection) -> GameHub:
    return services(connection).hub


def _rates(connection: HTTPConnection) -> RateGuard:
    return services(connection).rates


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def _seat(request: Request) -> tuple[LiveGame, int]:
    """The seat a request opens: by its token, or without one the seat of the session's
    player (a ``POST`` then carries the session's CSRF token)."""
    token = _bearer(request)
    game_id = request.path_params["game_id"]
    found = None
    if token is None:
        if request.method != "GET":
            await acting_session(request)
        found = await session_seat(request, game_id)
    elif len(token) <= 128:
        found = await _hub(request).authenticate(game_id, token)
    if found is None:
        raise Refused("err_bad_token")
    return found


# -- HTTP -------------------------------------------------------------------------------


async def _health(request: Request) -> Response:
    """200 while the database answers ``SELECT 1`` within :data:`HEALTH_TIMEOUT`;
    503 (``"database": "unreachable"``) otherwise."""
    store = services(request).store
    if await store.health.check(store.ping, HEALTH_TIMEOUT):
        return WireResponse(Health(ok=True, database="ok"), headers={"Cache-Control": "no-store"})
    return WireResponse(
        Health(ok=False, database="unreachable"),
        status_code=503,
        headers={"Cache-Control": "no-store", "Retry-After": str(RETRY_AFTER_SECONDS)},
    )


async def _database_unreachable(connection: HTTPConnection, error: Exception) -> Response | None:
    """A route or a socket found the database unreachable: 503 ``err_unavailable`` with
    ``Retry-After``; a socket is told so and closed with 1013 (try again later), and its
    page reconnects. The outage is logged once (``health.py``), not here."""
    services(connection).store.health.failed(error)
    if isinstance(connection, WebSocket):
        await _close_unavailable(connection)
        return None
    lang = request_lang(connection)
    return refusal_response(Refused("err_unavailable", seconds=RETRY_AFTER_SECONDS), lang)


async def _close_unavailable(websocket: WebSocket) -> None:
    if websocket.application_state == WebSocketState.CONNECTING:
        await websocket.close(code=CLOSE_TRY_AGAIN)  # refuses the handshake
        return
    await _send_and_close(websocket, unavailable_message(_query_lang(websocket)), CLOSE_TRY_AGAIN)


async def _create_game(request: Request) -> Response:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    settings = decode_new_game(await read_body(request, MAX_BODY_BYTES))
    session = await acting_session(request)
    if settings.rated:
        level = settings.level if settings.opponent == "bot" else None
        check_rated(None if session is None else session.player, level, settings.variant)
    client = request.client.host if request.client is not None else ""
    wait = _rates(request).allow_create(client)
    if wait is not None:
        raise Refused("err_rate_limited", seconds=max(1, round(wait)))
    first = settings.first
    first_player = {"me": 0, "opponent": 1}.get(first, secrets.randbelow(2))
    bot = settings.opponent == "bot"
    created = await _hub(request).create(
        settings.variant,
        first_player,
        settings.level if bot else None,
        private=settings.private,
        clock=TimeControl.parse(settings.clock),
        rated=settings.rated,
    )
    if session is not None:
        await record_seat(request, created.id, 0, session.player)
    return WireResponse(
        GameCreated(
            id=created.id,
            seat=0,
            token=created.token,
            friend_token=created.friend_token,
            rated=settings.rated,
        ),
        status_code=201,
    )


WATCH_LIST_LIMIT = 50
"""The most games ``GET /api/games?watch=1`` lists."""


async def _watch_list(request: Request) -> Response:
    """The newest ongoing games between people that anyone may watch."""
    if request.query_params.get("watch") != "1":
        raise Refused("err_bad_field", field="watch")
    games = await _hub(request).watchable(WATCH_LIST_LIMIT)
    return WireResponse(games, headers={"Cache-Control": "no-store"})


SeatRoute = Callable[[Request, LiveGame, int], Awaitable[Response]]


def _seated(route: SeatRoute) -> Callable[[Request], Awaitable[Response]]:
    """A route for the holder of a seat: a token that names no seat of the game is
    refused (``err_bad_token``, 404); the route's own refusals have their statuses
    (``refusals.STATUS``: 409 for a game not in a state for it, 429 with ``Retry-After``
    for too many at once)."""

    async def endpoint(request: Request) -> Response:
        live, seat = await _seat(request)
        return await route(request, live, seat)

    return endpoint


@_seated
async def _game_state(request: Request, live: LiveGame, seat: int) -> Response:
    async with live.lock:
        state = _hub(request).state_for(live, seat)
    return WireResponse(state, headers={"Cache-Control": "no-store"})


@_seated
async def _record(request: Request, live: LiveGame, seat: int) -> Response:
    fmt = request.query_params.get("format", "text")
    if fmt not in ("text", "json"):
        raise Refused("err_bad_field", field="format")
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
async def _replay(request: Request, live: LiveGame, seat: int) -> Response:
    async with live.lock:
        replay = _hub(request).replay(live)
    return WireResponse(replay, headers={"Cache-Control": "no-store"})


@_seated
async def _rematch(request: Request, live: LiveGame, seat: int) -> Response:
    new_id = await _hub(request).rematch(live)
    await copy_seats(request, live.id, new_id)
    return WireResponse(Rematch(id=new_id))


@_seated
async def _start_analysis(request: Request, live: LiveGame, seat: int) -> Response:
    state = await _hub(request).start_analysis(live)
    return WireResponse(state, status_code=202 if isinstance(state, AnalysisRunning) else 200)


@_seated
async def _analysis(request: Request, live: LiveGame, seat: int) -> Response:
    state = await _hub(request).analysis(live)
    return WireResponse(state, headers={"Cache-Control": "no-store"})


@_seated
async def _hint(request: Request, live: LiveGame, seat: int) -> Response:
    hint = await services(request).hints.suggest(live, seat)
    return WireResponse(hint, headers={"Cache-Control": "no-store"})


# -- WebSocket --------------------------------------------------------------------------


async def _game_socket(websocket: WebSocket) -> None:
    if await foreign_socket(websocket, services(websocket).guards.allowed_origins):
        return
    await websocket.accept()
    try:
        await _open_seat(websocket)
    except UNREACHABLE:
        raise  # the app's handler tells the page (err_unavailable) and closes with 1013
    except Exception:  # a defect of ours: say so to the page, keep serving the others
        log.exception("WebSocket of game %s failed", websocket.path_params.get("game_id"))
        with contextlib.suppress(Exception):
            await websocket.close(code=CLOSE_SERVER_ERROR)


async def _open_seat(websocket: WebSocket) -> None:
    """Wait for ``hello``, then serve the seat it opens until the page goes."""
    hub = _hub(websocket)
    game_id = websocket.path_params["game_id"]
    lang: Lang = "en"
    try:
        hello = await asyncio.wait_for(receive_message(websocket), HELLO_TIMEOUT)
        if hello is None:
            return
        message = decode_client_message(hello)
        if isinstance(message, Hello | LangMessage):
            lang = message.lang
        if not isinstance(message, Hello):
            raise Refused("err_hello_first")
        if message.token is None:
            found = await session_seat(websocket, game_id)
        else:
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
    seats = services(websocket).guards.seat_sockets
    for oldest in seats.opened((game_id, seat), websocket):
        # A fifth page at the seat: the oldest stops (its page says so, and does not
        # reconnect by itself), so a reload always gets its seat.
        replaced = error_message(Refused("err_replaced"), lang)
        await _send_and_close(oldest, replaced, CLOSE_REPLACED)
    connection = Connection(websocket.send_text, lang)
    try:
        live = await hub.attach(game_id, seat, connection)
        try:
            await _serve_seat(websocket, live, seat, connection)
        finally:
            await hub.detach(live, seat, connection)
    finally:
        seats.closed((game_id, seat), websocket)


async def _serve_seat(
    websocket: WebSocket, live: LiveGame, seat: int, connection: Connection
) -> None:
    hub = _hub(websocket)
    budget = MessageBudget(_rates(websocket), str(id(connection)))
    while True:
        raw = await receive_message(websocket)
        if raw is None:
            return
        try:
            if not budget.admit():
                continue
            message = decode_client_message(raw)
            if isinstance(message, Ping):
                hub.send(live, seat, connection, Pong())
            elif isinstance(message, LangMessage):
                connection.lang = message.lang
            elif isinstance(message, Hello):
                raise Refused("err_hello_again")
            else:
                await hub.play(live, seat, message.move, message.ply)
        except Refused as refusal:
            hub.send(live, seat, connection, error_message(refusal, connection.lang))
            if refusal.key == "err_stale":
                await hub.resend(live, seat, connection)
        except UNREACHABLE as error:  # the page stays: its next message may get through
            services(websocket).store.health.failed(error)
            hub.send(live, seat, connection, unavailable_message(connection.lang))


async def _watch_socket(websocket: WebSocket) -> None:
    """A spectator: no token; the public state now and at every change, never a
    decision. A game that does not exist or is private closes the socket (4404)."""
    if await foreign_socket(websocket, services(websocket).guards.allowed_origins):
        return
    await websocket.accept()
    hub = _hub(websocket)
    lang = _query_lang(websocket)
    connection = Connection(websocket.send_text, lang)
    try:
        live = await hub.watch(websocket.path_params["game_id"], connection)
    except Refused as refusal:
        await connection.close()
        await _send_and_close(websocket, error_message(refusal, lang), CLOSE_NO_GAME)
        return
    try:
        await _serve_spectator(websocket, live, connection)
    except UNREACHABLE:
        raise  # the app's handler tells the page (err_unavailable) and closes with 1013
    except Exception:
        log.exception("spectator socket of game %s failed", live.id)
        with contextlib.suppress(Exception):
            await websocket.close(code=CLOSE_SERVER_ERROR)
    finally:
        await hub.unwatch(live, connection)


def _too_many_sockets(lang: str, most: int) -> str:
    """What a socket over ``--sockets-per-address`` is told before it is closed."""
    chosen = parse_lang(lang) if lang in LANGUAGES else "en"
    return encode(error_message(Refused("err_too_many_sockets", max=most), chosen))


def _query_lang(connection: HTTPConnection) -> Lang:
    wanted = connection.query_params.get("lang", "en")
    return parse_lang(wanted) if wanted in LANGUAGES else "en"


async def _serve_spectator(websocket: WebSocket, live: LiveGame, connection: Connection) -> None:
    """Pings, the page's language, and a refusal (``err_spectator``) for anything that
    tries to act: a spectator holds no seat."""
    hub = _hub(websocket)
    rates = _rates(websocket)
    key = str(id(connection))
    while True:
        raw = await receive_message(websocket)
        if raw is None:
            return
        if rates.allow_message(key) is not None:
            continue  # a spectator has nothing to lose by waiting: dropped unread
        try:
            message = decode_client_message(raw)
            if isinstance(message, Ping):
                hub.send(live, SPECTATOR, connection, Pong())
            elif isinstance(message, LangMessage) or (
                isinstance(message, Hello) and message.token is None
            ):
                # The page's socket says hello with its language and no seat.
                connection.lang = message.lang
            else:
                raise Refused("err_spectator")
        except Refused as refusal:
            hub.send(live, SPECTATOR, connection, error_message(refusal, connection.lang))


async def _send_and_close(websocket: WebSocket, message: ErrorMessage, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(encode(message))
        await websocket.close(code=code)
