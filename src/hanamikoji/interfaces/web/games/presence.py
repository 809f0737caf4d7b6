"""Who is at each seat, on every instance, and the forfeits of untimed rated games: a
side that never decides is aborted, a player away too long once each side has decided
loses (``ratings/forfeits.py``); the game's owner sets the timer."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable

from hanamikoji.interfaces.clocks import datetime_to_ms
from hanamikoji.interfaces.web.cluster.instances import ClusterStore, PresenceRow, away_since
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.games.chores import Chores
from hanamikoji.interfaces.web.games.finishing import Finishing
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.ratings.forfeits import Forfeit, forfeit_due

__all__ = ["Presence"]

log = logging.getLogger("hanamikoji.web")


class Presence:
    """The seats' presence of live games and their forfeit timers.

    Args:
        me: this instance.
        chores: the hub's tasks and timers.
        db: the instances' rows (``seat_presence``).
        writer: the database's writer.
        find: the game of an id in memory, if it is.
        finishing: stores a forfeit and rates it.
        announce: tells every page of a game its new state.
        abort_ms: how long a side of an untimed rated game has for its first decision.
        abandon_ms: how long a player of one may be away once each side has decided.
    """

    def __init__(
        self,
        me: str,
        chores: Chores,
        db: ClusterStore,
        writer: DecisionWriter,
        find: Callable[[str], LiveGame | None],
        finishing: Finishing,
        announce: Callable[[LiveGame], None],
        *,
        abort_ms: int,
        abandon_ms: int,
    ) -> None:
        self.me = me
        self.chores = chores
        self.db = db
        self.writer = writer
        self.find = find
        self.finishing = finishing
        self.announce = announce
        self.abort_ms = abort_ms
        self.abandon_ms = abandon_ms
        self._unstored: dict[tuple[str, int], tuple[int, int]] = {}
        """The seats' page counts (and since when) not yet written, by (game, seat)."""
        self._storing = False

    def set(self, live: LiveGame, rows: list[PresenceRow]) -> None:
        """The presence rows of ``live``, and since when each seat has been away."""
        live.presence = rows
        live.absent_since = [away_since(rows, seat, live.loaded_at) for seat in (0, 1)]

    def merge(self, live: LiveGame, rows: list[PresenceRow]) -> None:
        """The other instances' presence rows as read, this one's as it knows them (its
        writes may not have reached the database yet)."""
        mine = [row for row in live.presence if row.instance == self.me]
        self.set(live, [row for row in rows if row.instance != self.me] + mine)

    async def refresh(self, game_ids: list[str]) -> None:
        """Read again who is at the seats of these games (those in memory here)."""
        for game_id in game_ids:
            live = self.find(game_id)
            if live is None:
                continue
            rows = await asyncio.to_thread(self.db.presence, game_id)
            async with live.lock:
                self.merge(live, rows)
                self.arm(live)
                self.announce(live)

    async def reread(self, live: LiveGame) -> None:
        """Read again who is at the seats of ``live`` (no timer set, no page told)."""
        rows = await asyncio.to_thread(self.db.presence, live.id)
        async with live.lock:
            self.merge(live, rows)

    def note_pages(self, live: LiveGame, seat: int) -> None:
        """This instance's first page at ``seat`` opened, or its last closed: the seat's
        presence changes here at once, and in the database (for the other instances)
        just after; the caller holds the lock. Nothing here waits, so a page closing
        while its task is cancelled still counts."""
        pages, now = min(1, len(live.connections[seat])), self.chores.now()
        mine = PresenceRow(seat, self.me, pages, now)
        rows = [r for r in live.presence if (r.seat, r.instance) != (seat, self.me)]
        self.set(live, [*rows, mine])
        self.arm(live)
        self._unstored[(live.id, seat)] = (pages, now)
        if not self._storing and not self.chores.closing:
            self._storing = True
            self.chores.spawn(self._store_pages())

    async def _store_pages(self) -> None:
        """Write the seats' changes in batches: those made while one batch is written
        go in the next, a seat's latest alone (a page opened and closed meanwhile is
        one write), in one commit."""
        try:
            while self._unstored:
                batch, self._unstored = self._unstored, {}
                try:
                    await self.writer.call(functools.partial(self.db.set_pages, batch))
                except Exception:
                    log.exception("could not store the presence of %d seats", len(batch))
        finally:
            self._storing = False

    # -- forfeits (ratings/forfeits.py) -----------------------------------------------

    def arm(self, live: LiveGame) -> None:
        """Set the timer of an untimed rated game's next forfeit (ratings.forfeit_due)."""
        self.cancel(live)
        forfeit = self._forfeit_due(live)
        if forfeit is None or self.chores.closing or not live.owned_by(self.me):
            return
        live.presence_timer = self.chores.call_at(forfeit.at, self._on_timer, live)

    @staticmethod
    def cancel(live: LiveGame) -> None:
        if live.presence_timer is not None:
            live.presence_timer.cancel()
            live.presence_timer = None

    def next_forfeit(self, live: LiveGame) -> Forfeit | None:
        """The forfeit coming in ``live`` (an untimed rated game), if any: the bot API
        tells a bot when it may claim its opponent's (``bots/streams.py``)."""
        return self._forfeit_due(live)

    def _forfeit_due(self, live: LiveGame) -> Forfeit | None:
        stored = live.stored
        if not stored.rated or stored.clock.timed or live.ended:
            return None
        last = live.timeline[-1].at if live.timeline else datetime_to_ms(stored.created)
        return forfeit_due(
            decided={decision.seat for decision in live.timeline},
            to_move=live.game.to_move,
            last_decision=last,
            absent_since=(live.absent_since[0], live.absent_since[1]),
            bot_seat=stored.bot_seat,
            abort_ms=self.abort_ms,
            abandon_ms=self.abandon_ms,
        )

    def _on_timer(self, live: LiveGame) -> None:
        live.presence_timer = None
        self.chores.spawn(self._check(live))

    async def _check(self, live: LiveGame) -> None:
        try:
            current = self.find(live.id)
            if current is not None and current is not live:
                return  # loaded again since: that copy keeps its own timer
            async with live.lock:
                forfeit = self._forfeit_due(live)
                if forfeit is not None and forfeit.at <= self.chores.now():
                    await self._forfeit(live, forfeit)
                else:
                    self.arm(live)
        except Exception:
            log.exception("game %s: the forfeit check failed", live.id)

    async def _forfeit(self, live: LiveGame, forfeit: Forfeit) -> None:
        """End an untimed rated game by ``forfeit``, through the stored result as a loss
        on time is: aborted before each side has decided, else lost by the absent seat."""
        termination = forfeit.termination
        result = "*" if termination == "unstarted" else ("0-1" if forfeit.seat == 0 else "1-0")
        if await self.finishing.store_end(live, result, termination):
            log.info("game %s: %s by seat %d", live.id, termination, forfeit.seat)
            await self.finishing.ended(live)
            self.announce(live)
