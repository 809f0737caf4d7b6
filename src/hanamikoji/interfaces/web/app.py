"""The Starlette application: the page, the JSON routes and the game WebSocket.

Routes (``TOKEN`` is a seat token, sent in an ``Authorization: Bearer`` header over HTTP
and in the first message over the WebSocket, never in a URL the server sees):

==========================================  =============================================
``GET /``, ``GET /g/{id}``                  the page (the seat token is in the fragment)
``GET /learn``                              the page: learn to play, a scripted round
``GET /static/...``                         HTML, CSS and ES modules
``GET /api/i18n/{lang}``                    sentences and edition terms of a language
``GET /api/tutorial?step=N``                step N of the lesson, from the learner's seat
``GET /rules/{lang}``                       the rules in a language, a page of its own
``GET /api/rules/{lang}``                   the rules as an HTML fragment (the Rules panel)
``POST /api/games``                         a new game against a bot or a friend
``GET /api/games/{id}``                     the seat's state (TOKEN)
``GET /api/games/{id}/record?format=text``  the record, ``text`` or ``json``, once over
``GET /api/games/{id}/replay``              every position with every card, once over
``POST /api/games/{id}/rematch``            the next game between the same seats
``POST /api/games/{id}/analysis``           start the analysis of the finished game
``GET /api/games/{id}/analysis``            the analysis, or how far it has got
``POST /api/games/{id}/hint``               a hint for the seat's decision (bot games)
``WS /ws/{id}``                             live play: ``hello`` with TOKEN, then moves
``GET /w/{id}``                             the page: watch a game (no token)
``GET /lobby``                              the page: seeks, quick pairing, games to watch
``GET /api/games?watch=1``                  the newest ongoing games anyone may watch
``WS /ws/{id}/watch``                       a spectator's live public state (no token)
``WS /lobby/ws``                            the lobby: seeks, quick pairing, live updates
``GET /me``, ``GET /@/{name}``              the page: my games, a player's page
``GET /leaderboard``                        the page: the leaderboard per variant
==========================================  =============================================

The game routes and sockets are in :mod:`~hanamikoji.interfaces.web.games.routes` and
:mod:`~hanamikoji.interfaces.web.games.sockets`; the players' routes (``/api/me...``,
``/api/players/{name}``, ``/api/games/{id}/claim``) in
:mod:`~hanamikoji.interfaces.web.players.routes`. Where no TOKEN is sent, the seat
routes and ``hello`` open the seat the session cookie's player holds; a ``POST`` so
authenticated carries the session's CSRF token.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import cast

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, ExceptionHandler, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketState

from hanamikoji.bots.analysis import AnalysisSettings
from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.catalog.lookup import client_catalog
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.games.checks import Refused, parse_lang
from hanamikoji.interfaces.web.games.clocks import wall_clock_ms
from hanamikoji.interfaces.web.games.context import hub_of
from hanamikoji.interfaces.web.games.hints import Hints
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.games.live import SeatTap
from hanamikoji.interfaces.web.games.routes import game_routes
from hanamikoji.interfaces.web.games.sockets import game_sockets, query_lang, send_and_close
from hanamikoji.interfaces.web.games.thinkers import BotRunner
from hanamikoji.interfaces.web.guards import (
    LOOPBACK_HOSTS,
    RateGuard,
    SeatSockets,
    SocketCap,
    parse_rate,
)
from hanamikoji.interfaces.web.health import (
    CLOSE_TRY_AGAIN,
    QUIET_OUTAGES,
    RETRY_AFTER_SECONDS,
    UNREACHABLE,
)
from hanamikoji.interfaces.web.lobby.routes import lobby_routes, open_lobby, run_pairings
from hanamikoji.interfaces.web.players.cookies import CookieSettings
from hanamikoji.interfaces.web.players.routes import player_routes
from hanamikoji.interfaces.web.players.sessions import (
    open_accounts,
)
from hanamikoji.interfaces.web.ratings.routes import rating_routes
from hanamikoji.interfaces.web.refusals import (
    OriginCheck,
    error_message,
    path_lang,
    refusal_response,
    refused,
    request_lang,
    unavailable_message,
)
from hanamikoji.interfaces.web.rules_page import rules_document, rules_fragment
from hanamikoji.interfaces.web.tutorial import parse_step, tutorial_step
from hanamikoji.interfaces.web.wire.answers import (
    Health,
    Options,
    VariantOption,
    WireResponse,
)
from hanamikoji.interfaces.web.wire.outgoing import encode
from hanamikoji.interfaces.web_settings import ServeSettings
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["STATIC", "ServerConfig", "create_app"]

log = logging.getLogger("hanamikoji.web")

STATIC = Path(__file__).resolve().parent / "static"

HEALTH_TIMEOUT = 2.0
"""Seconds ``/healthz`` waits for the database's answer to ``SELECT 1``."""


_SERVE = ServeSettings()
"""The defaults of ``hanamikoji serve``'s settings, written once (web_settings.py)."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How the server runs; the defaults are ``hanamikoji serve``'s
    (:class:`~hanamikoji.interfaces.web_settings.ServeSettings`), and its settings of the
    same name are passed as they are (``web_cli.server_config``).

    Args:
        db_url: the SQLAlchemy URL of the games database.
        bot_processes: worker processes for the searching bot levels, 7-8 (0: threads).
        bot_delay: seconds a bot waits before acting, so people see each move land.
        allowed_hosts: the names (``Host`` headers) the server answers; any other is
            refused with 400 before any route runs.
        allowed_origins: extra page origins allowed to open WebSockets (a reverse proxy's
            public address); the server's own origin is always allowed.
        create_rate: new games one client address may create, as ``20/minute``
            (``off``: no limit).
        message_rate: WebSocket messages one page may send, as ``10/second`` (``off``).
        tap: sees every message sent to a seat (tests).
        clock: the games' clocks' time source, ms since the epoch (tests; the wall clock).
        gc_freeze_interval: seconds between moves of long-lived objects out of the
            cyclic garbage collector's sight (0: never); see :func:`_keep_collections_short`.
        analysis_worlds: sampled worlds per searched decision of a game's analysis
            (``bots/analysis.py``'s default unless given).
        analysis_limit: games analysed at once; more is refused with 429.
        login_rate: sign-in attempts one client address, and one account name, may
            make, as ``10/minute`` (``off``: no limit).
        secure_cookies: session cookies are ``Secure`` (the server is reached over https).
        session_days: how long a session lasts from sign-in.
        abort_timeout: seconds a side of an untimed rated game has for its first
            decision before the game is aborted, unrated (``ratings/forfeits.py``).
        abandon_timeout: seconds a player of an untimed rated game may be away, once
            each side has decided, before losing it.
        sockets_per_address: WebSockets (games, spectators, the lobby) one client
            address may have open at once; one more is refused (``err_too_many_sockets``).
    """

    db_url: str
    bot_processes: int = _SERVE.bot_processes
    bot_delay: float = _SERVE.bot_delay
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    allowed_origins: tuple[str, ...] = _SERVE.allowed_origins
    create_rate: str = _SERVE.create_rate
    message_rate: str = _SERVE.message_rate
    tap: SeatTap | None = None
    clock: Callable[[], int] | None = None
    gc_freeze_interval: float = 10.0
    analysis_worlds: int = _SERVE.analysis_worlds
    analysis_limit: int = _SERVE.analysis_limit
    login_rate: str = _SERVE.login_rate
    secure_cookies: bool = _SERVE.secure_cookies
    session_days: int = _SERVE.session_days
    abort_timeout: float = _SERVE.abort_timeout
    abandon_timeout: float = _SERVE.abandon_timeout
    sockets_per_address: int = _SERVE.sockets_per_address


def create_app(config: ServerConfig) -> Starlette:
    """The application. The database is opened (and its tables created) at startup.
    Raises ``ValueError`` for a rate that is not one."""
    rates = RateGuard(
        parse_rate(config.create_rate),
        parse_rate(config.message_rate),
        parse_rate(config.login_rate),
    )
    cookies = CookieSettings(config.secure_cookies, timedelta(days=config.session_days))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for name in ("hanamikoji.web", "uvicorn.error"):
            logging.getLogger(name).addFilter(QUIET_OUTAGES)  # one line per outage
        store = await asyncio.to_thread(Store, config.db_url)
        bots = BotRunner(config.bot_processes)
        hub = GameHub(
            store,
            bots,
            bot_delay=config.bot_delay,
            tap=config.tap,
            analysis=AnalysisSettings(worlds=config.analysis_worlds),
            analysis_limit=config.analysis_limit,
            now=config.clock or wall_clock_ms,
            abort_timeout=config.abort_timeout,
            abandon_timeout=config.abandon_timeout,
        )
        app.state.hub = hub
        await hub.start()
        app.state.accounts = await open_accounts(hub, cookies.lifetime)
        app.state.lobby = await open_lobby(hub, app.state.accounts)
        pairings = asyncio.create_task(run_pairings(app.state.lobby))
        app.state.hints = Hints(bots, config.analysis_worlds)
        keeper = asyncio.create_task(_keep_collections_short(config.gc_freeze_interval))
        try:
            yield
        finally:
            keeper.cancel()
            pairings.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            with contextlib.suppress(asyncio.CancelledError):
                await pairings
            await app.state.lobby.close()
            await app.state.hints.close()
            await hub.close()
            await asyncio.to_thread(bots.close)
            store.close()

    routes = [
        Route("/", _page),
        Route("/g/{game_id}", _page),
        Route("/learn", _page),
        Route("/me", _page),
        Route("/@/{name}", _page),
        Route("/w/{game_id}", _page),
        Route("/lobby", _page),
        Route("/leaderboard", _page),
        *player_routes(),
        *rating_routes(),
        *lobby_routes(),
        Route("/api/i18n/{lang}", _catalog),
        Route("/rules/{lang}", _rules_page),
        Route("/api/rules/{lang}", _rules_fragment),
        Route("/api/options", _options),
        Route("/api/tutorial", _tutorial),
        *game_routes(),
        Route("/healthz", _health),
        *game_sockets(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # One answer wherever a route or a socket finds the database unreachable.
    # (Starlette types a handler for requests or for sockets; this one serves both.)
    handlers = dict.fromkeys(UNREACHABLE, cast(ExceptionHandler, _database_unreachable))
    handlers[Refused] = cast(ExceptionHandler, refused)  # every route's refusals
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    app.state.allowed_origins = frozenset(o.rstrip("/") for o in config.allowed_origins)
    app.state.rates = rates
    app.state.cookies = cookies
    app.state.seat_sockets = SeatSockets[WebSocket]()
    app.add_middleware(OriginCheck, allowed=app.state.allowed_origins)
    app.add_middleware(SocketCap, per_address=config.sockets_per_address, refusal=_too_many_sockets)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(config.allowed_hosts))
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


# -- HTTP -------------------------------------------------------------------------------


async def _page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _health(request: Request) -> Response:
    """200 while the database answers ``SELECT 1`` within :data:`HEALTH_TIMEOUT`;
    503 (``"database": "unreachable"``) otherwise."""
    store = hub_of(request).store
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
    hub_of(connection).store.health.failed(error)
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


async def _catalog(request: Request) -> Response:
    lang = path_lang(request)
    return WireResponse(client_catalog(lang), headers={"Cache-Control": "max-age=300"})


async def _rules_page(request: Request) -> Response:
    return await _rules(request, rules_document)


async def _rules_fragment(request: Request) -> Response:
    return await _rules(request, rules_fragment)


async def _rules(request: Request, render: Callable[[Lang, str | None], str]) -> Response:
    """The rules in the path's language, the query's ``variant`` (if any) marked."""
    lang = path_lang(request)
    variant = request.query_params.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    body = await asyncio.to_thread(render, lang, variant)
    return HTMLResponse(body, headers={"Cache-Control": "max-age=300"})


async def _tutorial(request: Request) -> Response:
    index = parse_step(request.query_params.get("step", "0"))
    return WireResponse(
        tutorial_step(index, request_lang(request)), headers={"Cache-Control": "no-store"}
    )


async def _options(request: Request) -> Response:
    return WireResponse(
        Options(
            variants=tuple(
                VariantOption(name=v.name, max_rounds=v.max_rounds) for v in VARIANTS.values()
            ),
            levels=tuple(sorted(LEVELS)),
            languages=LANGUAGES,
        )
    )


def _too_many_sockets(lang: str, most: int) -> str:
    """What a socket over ``--sockets-per-address`` is told before it is closed."""
    chosen = parse_lang(lang) if lang in LANGUAGES else "en"
    return encode(error_message(Refused("err_too_many_sockets", max=most), chosen))


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
