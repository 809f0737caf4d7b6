"""What the pages on a game are sent: a seat's state, a spectator's, and the new state
to every page after a change; every message passes the tap (tests) on its way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from hanamikoji.interfaces.web.games.live import (
    SPECTATOR,
    Connection,
    LiveGame,
    SeatTap,
    clock_json,
    live_clocks,
)
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state, spectator_state
from hanamikoji.interfaces.web.wire.outgoing import (
    SeatState,
    SpectatorState,
    WireStruct,
    encode,
)

__all__ = ["GameStates"]


class GameStates:
    """The states of live games as their pages get them.

    Args:
        now: the server time, ms since the epoch (the clocks).
        tap: sees every message sent to a seat or a spectator (tests).
    """

    def __init__(self, now: Callable[[], int], tap: SeatTap | None) -> None:
        self.now = now
        self.tap = tap

    def public(self, live: LiveGame) -> PublicGame:
        """The game's public settings with its clocks (at this moment) and, for a game a
        clock ended, how it ended."""
        public = live.public()
        stored = live.stored
        ended = None
        if stored.termination is not None:
            ended = (stored.termination, stored.result or "*")
        if not stored.clock.timed:
            return replace(public, ended=ended)
        clock = clock_json(stored.clock, live_clocks(live, self.now()))
        return replace(public, clock=clock, ended=ended)

    def seat(self, live: LiveGame, seat: int) -> SeatState:
        """What the pages at ``seat`` see."""
        return seat_state(live.game.view(seat), self.public(live))

    def spectator(self, live: LiveGame) -> SpectatorState:
        """What a spectator sees: the public part of the game (the end reveal once over)."""
        return spectator_state(live.game.view(0), self.public(live))

    def send(self, live: LiveGame, seat: int, connection: Connection, message: WireStruct) -> None:
        """Send a message to one page (an error, a pong): through the tap like the rest."""
        self.deliver(live.id, seat, connection, encode(message), is_state=False)

    def deliver(
        self, game_id: str, seat: int, connection: Connection, message: str, *, is_state: bool
    ) -> None:
        """Send an encoded message to one page (``seat`` is :data:`SPECTATOR` for a
        spectator's)."""
        if self.tap is not None:
            self.tap(game_id, seat, message)
        connection.push(message, is_state=is_state)

    def announce(self, live: LiveGame) -> None:
        """The game's state now, to every page open on it."""
        public = self.public(live)
        for seat in (0, 1):
            if not live.connections[seat]:
                continue
            message = encode(seat_state(live.game.view(seat), public))
            for connection in live.connections[seat]:
                self.deliver(live.id, seat, connection, message, is_state=True)
        if live.watchers:
            message = encode(spectator_state(live.game.view(0), public))
            for connection in live.watchers:
                self.deliver(live.id, SPECTATOR, connection, message, is_state=True)
