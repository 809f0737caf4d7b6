"""The pages open on live games: a seat's pages (attached, detached, sent the state
again) and the spectators' (watching, leaving). A seat's first page here, or its last,
changes its presence (``presence.py``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from hanamikoji.interfaces.web.games.live import SPECTATOR, Connection, LiveGame
from hanamikoji.interfaces.web.games.memory import LiveGames
from hanamikoji.interfaces.web.games.states import GameStates
from hanamikoji.interfaces.web.wire.outgoing import encode
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["Pages"]


class Pages:
    """Adds and removes the pages of live games.

    Args:
        memory: the games in memory here.
        get: the live game of an id, loaded if need be.
        states: what each page is sent.
        note_pages: a seat's first page here opened, or its last closed (the caller
            holds the game's lock).
    """

    def __init__(
        self,
        memory: LiveGames,
        get: Callable[[str], Awaitable[LiveGame | None]],
        states: GameStates,
        note_pages: Callable[[LiveGame, int], None],
    ) -> None:
        self.memory = memory
        self.get = get
        self.states = states
        self.note_pages = note_pages

    async def attach(self, game_id: str, seat: int, connection: Connection) -> LiveGame:
        """Add an open page; everyone gets the state (the seat's presence changed)."""
        while True:
            live = await self.get(game_id)
            if live is None:
                raise Refused("err_no_game")
            async with live.lock:
                # A game nobody watched may have left memory while this page waited.
                if self.memory.holds(live):
                    live.connections[seat].add(connection)
                    if len(live.connections[seat]) == 1:
                        self.note_pages(live, seat)
                    self.states.announce(live)
                    return live

    async def resend(self, live: LiveGame, seat: int, connection: Connection) -> None:
        """The full state again, to one page."""
        async with live.lock:
            message = encode(self.states.seat(live, seat))
            self.states.deliver(live.id, seat, connection, message, is_state=True)

    async def detach(self, live: LiveGame, seat: int, connection: Connection) -> None:
        async with live.lock:
            live.connections[seat].discard(connection)
            if not live.connections[seat]:
                self.note_pages(live, seat)
            if self.memory.idle(live):
                # Nobody is looking: the database has it all, memory need not.
                self.memory.drop_if_idle(live)
            else:
                self.states.announce(live)
        await connection.close()

    async def watch(self, game_id: str, connection: Connection) -> LiveGame:
        """Add a spectator's page to a game anyone may watch and send it the public state.
        Raises :class:`Refused` (``err_no_game``) for a game that does not exist or is
        private: the two are not told apart."""
        while True:
            live = await self.get(game_id)
            if live is None or live.stored.private:
                raise Refused("err_no_game")
            async with live.lock:
                if self.memory.holds(live):
                    live.watchers.add(connection)
                    message = encode(self.states.spectator(live))
                    self.states.deliver(live.id, SPECTATOR, connection, message, is_state=True)
                    return live

    async def unwatch(self, live: LiveGame, connection: Connection) -> None:
        async with live.lock:
            live.watchers.discard(connection)
            self.memory.drop_if_idle(live)
        await connection.close()
