"""Other instances on the same database (``cluster/``): their decisions
applied here as their events come, their pages' presence merged with this one's, and the
games this instance takes over (its pending work: clocks, bots, forfeits)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from hanamikoji.core.moves import Move
from hanamikoji.interfaces.clocks import Decision
from hanamikoji.interfaces.web.cluster.events import Event, Listener
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.games.memory import LiveGames
from hanamikoji.interfaces.web.games.presence import Presence

__all__ = ["InstanceSync"]


class InstanceSync:
    """Keeps the live games of this instance in step with the others'.

    Args:
        memory: the games in memory here.
        get: the live game of an id, loaded if need be (its clock checked, its bot woken).
        reload: reads a game again from the database.
        changed: sets a changed game's timers and tells every page.
        wake_bot: starts a game's bot turns if they are this instance's to run.
        check_clock: ends a timed game whose time is out, else sets its flag timer.
        presence: the seats' presence.
    """

    def __init__(
        self,
        memory: LiveGames,
        get: Callable[[str], Awaitable[LiveGame | None]],
        reload: Callable[[LiveGame], Awaitable[None]],
        changed: Callable[[LiveGame], None],
        wake_bot: Callable[[LiveGame], None],
        check_clock: Callable[[LiveGame], Awaitable[None]],
        presence: Presence,
    ) -> None:
        self.memory = memory
        self.get = get
        self.reload = reload
        self.changed = changed
        self.wake_bot = wake_bot
        self.check_clock = check_clock
        self.presence = presence

    def listen(self, listener: Listener) -> None:
        """Hear the other instances' games and presence on ``listener``."""
        listener.on("game", self.on_game_event)
        listener.on("presence", self.on_presence_event)
        listener.on_reconnect(self.resync)

    async def on_game_event(self, event: Event) -> None:
        """Another instance wrote to a game: a decision (applied as it comes when it is
        the next one here), or anything else (the game is read again)."""
        live = self.memory.find(event.key)
        if live is None:
            return  # nobody here shows it, and it is not ours
        async with live.lock:
            if not self.memory.holds(live) or 0 <= event.ply < live.ply:
                return  # gone from memory, or a decision already applied
            if event.ply == live.ply and event.move and self._apply(live, event):
                self.changed(live)
            else:
                await self.reload(live)
        self.wake_bot(live)
        self.memory.drop_if_idle(live)

    def _apply(self, live: LiveGame, event: Event) -> bool:
        """Apply another instance's committed decision; ``False`` if it does not apply
        (the caller then reads the game again)."""
        seat = live.game.to_move
        try:
            live.game.push(Move.from_text(event.move))
        except ValueError:
            return False
        live.stored = replace(live.stored, owner=event.owner or None)
        outcome = live.game.outcome
        if outcome is not None:
            live.stored = replace(live.stored, status="finished", result=outcome.result())
        if seat is not None:
            live.timeline.append(Decision(seat, event.at))
        return True

    async def on_presence_event(self, event: Event) -> None:
        await self.presence.refresh([event.key])

    async def adopt(self, game_ids: list[str]) -> None:
        """This instance now owns these games: read each again (or load it), then run its
        pending work here."""
        for game_id in game_ids:
            live = self.memory.find(game_id)
            if live is None:
                await self.get(game_id)  # loading checks its clock, wakes its bot
                continue
            async with live.lock:
                await self.reload(live)
            await self.check_clock(live)
            self.wake_bot(live)

    async def demoted(self) -> None:
        """This instance was taken for dead: its pages count again, and every game is
        read again (some now have other owners)."""
        await self.resync()
        for live in self.memory.all():
            async with live.lock:
                for seat in (0, 1):
                    if live.connections[seat]:
                        self.presence.note_pages(live, seat)

    async def resync(self) -> None:
        """Events may have been missed: read every game in memory again."""
        for live in self.memory.all():
            async with live.lock:
                await self.reload(live)
            await self.presence.reread(live)
            self.wake_bot(live)
            self.memory.drop_if_idle(live)
