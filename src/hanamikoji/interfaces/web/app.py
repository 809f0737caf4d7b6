"""The Starlette application: the middleware, each feature's routes, the lifespan that
runs the services (``services.py``), ``/healthz``, and the one answer to an unreachable
database.

The games' routes and WebSockets are in :mod:`~hanamikoji.interfaces.web.games.routes`
and :mod:`~hanamikoji.interfaces.web.games.sockets`; the page's (``/``, ``/learn``,
``/rules/...``, ``/api/i18n/...``, ...) in :mod:`~hanamikoji.interfaces.web.pages.routes`;
the players' (``/api/me...``, ``/api/players/{name}``, ``/api/games/{id}/claim``) in
:mod:`~hanamikoji.interfaces.web.players.routes`; the ratings', the lobby's and friends
and challenges' (``social/``) in their folders.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any, cast

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ExceptionHandler
from starlette.websockets import WebSocket, WebSocketState

from hanamikoji.interfaces.web.api.openapi import openapi_routes
from hanamikoji.interfaces.web.api.routes import token_routes
from hanamikoji.interfaces.web.bots.routes import bot_routes
from hanamikoji.interfaces.web.browser.routes import browser_routes
from hanamikoji.interfaces.web.chat.routes import chat_routes
from hanamikoji.interfaces.web.db.health import (
    CLOSE_TRY_AGAIN,
    QUIET_OUTAGES,
    RETRY_AFTER_SECONDS,
    UNREACHABLE,
)
from hanamikoji.interfaces.web.games.routes import game_routes
from hanamikoji.interfaces.web.games.sockets import game_sockets, query_lang, send_and_close
from hanamikoji.interfaces.web.http.guards import SocketCap
from hanamikoji.interfaces.web.http.headers import SecurityHeaders
from hanamikoji.interfaces.web.http.refusals import (
    OriginCheck,
    error_message,
    no_route,
    refusal_response,
    refused,
    request_lang,
    unavailable_message,
)
from hanamikoji.interfaces.web.ladder.routes import ladder_routes
from hanamikoji.interfaces.web.lobby.routes import lobby_routes
from hanamikoji.interfaces.web.notices.routes import notice_routes
from hanamikoji.interfaces.web.pages.routes import page_routes, static_files
from hanamikoji.interfaces.web.players.routes import player_routes
from hanamikoji.interfaces.web.puzzles.routes import puzzle_routes
from hanamikoji.interfaces.web.ratings.routes import rating_routes
from hanamikoji.interfaces.web.services import (
    AppState,
    ServerConfig,
    guards_of,
    running_services,
    services,
)
from hanamikoji.interfaces.web.social.routes import social_routes
from hanamikoji.interfaces.web.social.sockets import social_sockets
from hanamikoji.interfaces.web.tournaments.routes import tournament_routes
from hanamikoji.interfaces.web.wire.answers import Health, WireResponse
from hanamikoji.interfaces.web.wire.outgoing import encode
from hanamikoji.interfaces.web.wire.refused import Refused, parse_lang
from hanamikoji.notation.names import LANGUAGES

__all__ = ["create_app"]

log = logging.getLogger("hanamikoji.web")

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
        *browser_routes(),  # before the games': /api/games/search is no game's id
        *player_routes(),
        *notice_routes(),
        *rating_routes(),
        *puzzle_routes(),
        *lobby_routes(),
        *social_routes(),
        *social_sockets(),
        *token_routes(),
        *openapi_routes(),
        *bot_routes(),
        *ladder_routes(),
        *game_routes(),
        *chat_routes(),
        *tournament_routes(),
        Route("/healthz", _health),
        *game_sockets(),
        static_files(),
    ]
    # One answer wherever a route or a socket finds the database unreachable.
    # (Starlette types a handler for requests or for sockets; this one serves both.)
    handlers = dict.fromkeys(UNREACHABLE, cast(ExceptionHandler, _database_unreachable))
    handlers[Refused] = cast(ExceptionHandler, refused)  # every route's refusals
    # A path or method no route takes: the bot API's form under its paths.
    statuses: dict[Any, ExceptionHandler] = dict.fromkeys((404, 405), no_route)
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={**handlers, **statuses})
    app.add_middleware(OriginCheck, allowed=guards.allowed_origins)
    app.add_middleware(
        SocketCap, per_address=config.settings.sockets_per_address, refusal=_too_many_sockets
    )
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(config.allowed_hosts))
    app.add_middleware(SecurityHeaders)
    return app


# -- health -----------------------------------------------------------------------------


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
    await send_and_close(websocket, unavailable_message(query_lang(websocket)), CLOSE_TRY_AGAIN)


def _too_many_sockets(lang: str, most: int) -> str:
    """What a socket over ``--sockets-per-address`` is told before it is closed."""
    chosen = parse_lang(lang) if lang in LANGUAGES else "en"
    return encode(error_message(Refused("err_too_many_sockets", max=most), chosen))
