"""The session a request (or a socket's handshake) comes with, for every route: who it
is, its CSRF check for a request that changes something, the seat its player holds;
read from the running services (``services.py``).

Every ``POST`` has passed the Origin check (``refusals.OriginCheck``); one that a
session cookie comes with carries that session's CSRF token in ``X-CSRF-Token``.
"""

from __future__ import annotations

import asyncio

from starlette.requests import HTTPConnection, Request

from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.players.accounts import Session
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "CSRF_HEADER",
    "acting_session",
    "copy_seats",
    "current_session",
    "record_seat",
    "session_seat",
]

CSRF_HEADER = "x-csrf-token"

# -- sessions, for every route --------------------------------------------------------------


async def current_session(connection: HTTPConnection) -> Session | None:
    """The session the request's (or the WebSocket handshake's) cookie opens."""
    cookie = connection.cookies.get(services(connection).cookies.name)
    return await services(connection).accounts.session(cookie)


async def acting_session(request: Request) -> Session | None:
    """The session of a request that changes something: ``None`` without one, and
    :class:`Refused` (``err_csrf``) when its CSRF token is missing or wrong."""
    session = await current_session(request)
    if session is not None and not services(request).accounts.keys.csrf_ok(
        session.id, request.headers.get(CSRF_HEADER)
    ):
        raise Refused("err_csrf")
    return session


async def session_seat(connection: HTTPConnection, game_id: str) -> tuple[LiveGame, int] | None:
    """The game and the seat of it that the session's player holds, or ``None`` (no
    session, no such game, or no seat of it: the three are not told apart)."""
    session = await current_session(connection)
    if session is None:
        return None
    store = services(connection).accounts.store
    seat = await asyncio.to_thread(store.seat_of, game_id, session.player.id)
    if seat is None:
        return None
    live = await services(connection).hub.get(game_id)
    return None if live is None else (live, seat)


async def record_seat(request: Request, game_id: str, seat: int, player: Player) -> str:
    """Name ``player`` at a seat of the game (see ``PlayerStore.take_seat``)."""
    accounts = services(request).accounts
    return await accounts.writer.call(lambda: accounts.store.take_seat(game_id, seat, player.id))


async def copy_seats(request: Request, from_game: str, to_game: str) -> None:
    """The rematch ``to_game`` seats the players of ``from_game`` where they sat."""
    accounts = services(request).accounts
    await accounts.writer.call(lambda: accounts.store.copy_seats(from_game, to_game))
