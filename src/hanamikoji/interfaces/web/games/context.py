"""Where the game routes and sockets find the services they use: one accessor each, the
one place to change if the app keeps them elsewhere."""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from hanamikoji.interfaces.web.games.hints import Hints
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.guards import RateGuard, SeatSockets

__all__ = ["hints_of", "hub_of", "rates_of", "seat_sockets_of"]


def hub_of(connection: HTTPConnection) -> GameHub:
    """The live games of the app a request (or a socket) came to."""
    hub: GameHub = connection.app.state.hub
    return hub


def hints_of(connection: HTTPConnection) -> Hints:
    hints: Hints = connection.app.state.hints
    return hints


def rates_of(connection: HTTPConnection) -> RateGuard:
    rates: RateGuard = connection.app.state.rates
    return rates


def seat_sockets_of(connection: HTTPConnection) -> SeatSockets[WebSocket]:
    """The open sockets of each seat (a fifth replaces the oldest)."""
    seats: SeatSockets[WebSocket] = connection.app.state.seat_sockets
    return seats
