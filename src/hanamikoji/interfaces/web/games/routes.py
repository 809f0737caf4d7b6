"""The game routes over HTTP (``app.py``'s table lists them all): a new game, the games
to watch, and a seat's routes (its state, the record, the replay, the rematch, the
analysis, a hint), each for the holder of a seat: its token in an ``Authorization:
Bearer`` header, or without one the seat of the session's player."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.clocks import TimeControl
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.games.people import people_of
from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.players.sessions import (
    acting_session,
    copy_seats,
    record_seat,
    session_seat,
)
from hanamikoji.interfaces.web.ratings.model import check_rated
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import (
    AnalysisRunning,
    GameCreated,
    Rematch,
    WatchableGame,
    WatchList,
    WireResponse,
)
from hanamikoji.interfaces.web.wire.incoming import MAX_BODY_BYTES, decode_new_game
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["WATCH_LIST_LIMIT", "game_routes", "request_seat"]


def game_routes() -> list[BaseRoute]:
    """The game routes, for the app to mount."""
    return [
        Route("/api/games", _create_game, methods=["POST"]),
        Route("/api/games", _watch_list, methods=["GET"]),
        Route("/api/games/{game_id}", _game_state),
        Route("/api/games/{game_id}/record", _record),
        Route("/api/games/{game_id}/replay", _replay),
        Route("/api/games/{game_id}/rematch", _rematch, methods=["POST"]),
        Route("/api/games/{game_id}/analysis", _analysis, methods=["GET"]),
        Route("/api/games/{game_id}/analysis", _start_analysis, methods=["POST"]),
        Route("/api/games/{game_id}/hint", _hint, methods=["POST"]),
    ]


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def request_seat(request: Request) -> tuple[LiveGame, int]:
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
        found = await services(request).hub.authenticate(game_id, token)
    if found is None:
        raise Refused("err_bad_token")
    return found


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
    wait = services(request).rates.allow_create(client)
    if wait is not None:
        raise Refused("err_rate_limited", seconds=max(1, round(wait)))
    first = settings.first
    first_player = {"me": 0, "opponent": 1}.get(first, secrets.randbelow(2))
    bot = settings.opponent == "bot"
    created = await services(request).hub.create(
        settings.variant,
        first_player,
        settings.level if bot else None,
        private=settings.private,
        clock=TimeControl.parse(settings.clock),
        rated=settings.rated,
    )
    if session is not None:
        await record_seat(request, created.id, 0, session.player)
        await services(request).hub.seats_changed(created.id)
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
    hub = services(request).hub
    rows = await asyncio.to_thread(hub.games.watchable_games, WATCH_LIST_LIMIT)
    seated = await asyncio.to_thread(people_of, hub.players, hub.ratings, rows)
    games = WatchList(
        games=tuple(
            WatchableGame(
                id=row.id,
                variant=row.variant,
                created=row.created.isoformat(),
                players=seated[row.id],
            )
            for row in rows
        )
    )
    return WireResponse(games, headers={"Cache-Control": "no-store"})


SeatRoute = Callable[[Request, LiveGame, int], Awaitable[Response]]


def _seated(route: SeatRoute) -> Callable[[Request], Awaitable[Response]]:
    """A route for the holder of a seat: a token that names no seat of the game is
    refused (``err_bad_token``, 404); the route's own refusals have their statuses
    (``refusals.STATUS``: 409 for a game not in a state for it, 429 with ``Retry-After``
    for too many at once)."""

    async def endpoint(request: Request) -> Response:
        live, seat = await request_seat(request)
        return await route(request, live, seat)

    return endpoint


@_seated
async def _game_state(request: Request, live: LiveGame, seat: int) -> Response:
    async with live.lock:
        state = services(request).hub.state_for(live, seat)
    return WireResponse(state, headers={"Cache-Control": "no-store"})


@_seated
async def _record(request: Request, live: LiveGame, seat: int) -> Response:
    fmt = request.query_params.get("format", "text")
    if fmt not in ("text", "json"):
        raise Refused("err_bad_field", field="format")
    async with live.lock:
        body = services(request).hub.finishing.record(live, fmt)
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
        replay = services(request).hub.finishing.replay(live)
    return WireResponse(replay, headers={"Cache-Control": "no-store"})


@_seated
async def _rematch(request: Request, live: LiveGame, seat: int) -> Response:
    new_id = await services(request).hub.finishing.rematch(live)
    await copy_seats(request, live.id, new_id)
    await services(request).hub.seats_changed(new_id)
    return WireResponse(Rematch(id=new_id))


@_seated
async def _start_analysis(request: Request, live: LiveGame, seat: int) -> Response:
    state = await services(request).hub.finishing.start_analysis(live)
    return WireResponse(state, status_code=202 if isinstance(state, AnalysisRunning) else 200)


@_seated
async def _analysis(request: Request, live: LiveGame, seat: int) -> Response:
    state = await services(request).hub.finishing.analysis(live)
    return WireResponse(state, headers={"Cache-Control": "no-store"})


@_seated
async def _hint(request: Request, live: LiveGame, seat: int) -> Response:
    hint = await services(request).hints.suggest(live, seat)
    return WireResponse(hint, headers={"Cache-Control": "no-store"})
