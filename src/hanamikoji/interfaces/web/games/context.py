"""Where the game routes and sockets find the services they use: one accessor each, read
from the server's typed lifespan state (``services.py``)."""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from hanamikoji.interfaces.web.games.hints import Hints
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.http.guards import RateGuard, SeatSockets
from hanamikoji.interfaces.web.services import services

__all__ = ["allowed_origins_of", "hints_of", "hub_of", "rates_of", "seat_sockets_of"]


def hub_of(connection: HTTPConnection) -> GameHub:
    """The live games of the server a request (or a socket) came to."""
    return services(connection).hub


def hints_of(connection: HTTPConnection) -> Hints:
    return services(connection).hints


def rates_of(connection: HTTPConnection) -> RateGuard:
    return services(connection).rates


def seat_sockets_of(connection: HTTPConnection) -> SeatSockets[WebSocket]:
    """The open sockets of each seat (a fifth replaces the oldest)."""
    return services(connection).guards.seat_sockets


def allowed_origins_of(connection: HTTPConnection) -> frozenset[str]:
    """The page origins allowed besides the server's own (``--allow-origin``)."""
    return services(connection).guards.allowed_origins
