"""The flag timers of timed games: a game whose running side's time is out is ended by
its clock (lost on time, or aborted before each side has decided), by its owner's timer
or by whoever looks at it first. The clocks themselves are pure (``clocks.py``)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from hanamikoji.interfaces.clocks import Clocks
from hanamikoji.interfaces.web.games.chores import Chores
from hanamikoji.interfaces.web.games.finishing import Finishing
from hanamikoji.interfaces.web.games.live import LiveGame, live_clocks

__all__ = ["FlagTimers"]

log = logging.getLogger("hanamikoji.web")


class FlagTimers:
    """Ends timed games whose time is out.

    Args:
        me: this instance (only a game's owner sets its timer).
        chores: the hub's tasks and timers.
        holds: whether a game is still the copy in memory (a timer of a copy dropped or
            loaded again since does nothing).
        finishing: stores the end and rates it.
        announce: tells every page of a game its new state.
    """

    def __init__(
        self,
        me: str,
        chores: Chores,
        holds: Callable[[LiveGame], bool],
        finishing: Finishing,
        announce: Callable[[LiveGame], None],
    ) -> None:
        self.me = me
        self.chores = chores
        self.holds = holds
        self.finishing = finishing
        self.announce = announce

    async def check(self, live: LiveGame) -> None:
        """End the game if the running side's time is out (its flag fell while nobody
        looked, or the server was down); else set the timer for when it will be."""
        if not live.stored.clock.timed:
            return
        async with live.lock:
            await self.flag_if_out(live)

    async def flag_if_out(self, live: LiveGame) -> bool:
        """Whether the running side's time is out, the game then ended by its clock;
        else the flag timer is set. The caller holds the game's lock."""
        self.cancel(live)
        if live.ended:
            return live.stored.termination is not None
        state = live_clocks(live, self.chores.now())
        if state.flagged is None:
            self.arm(live, state)
            return False
        await self._end_by_clock(live, state.flagged)
        return True

    async def _end_by_clock(self, live: LiveGame, loser: int) -> None:
        """Store and announce the end of a game whose ``loser`` ran out of time: lost on
        time once each side has decided, aborted (not rated, no result) before."""
        both_decided = {decision.seat for decision in live.timeline} == {0, 1}
        termination = "time" if both_decided else "aborted"
        result = ("0-1" if loser == 0 else "1-0") if both_decided else "*"
        if await self.finishing.store_end(live, result, termination):
            log.info("game %s: %s, seat %d ran out of time", live.id, termination, loser)
            await self.finishing.ended(live)
            self.announce(live)

    def arm(self, live: LiveGame, state: Clocks | None = None) -> None:
        """Set the timer that ends the game when the running side's time reaches zero."""
        self.cancel(live)
        stored = live.stored
        if self.chores.closing or not stored.clock.timed or live.ended:
            return
        if not live.owned_by(self.me):
            return
        flag_time = (state or live_clocks(live, self.chores.now())).flag_time()
        if flag_time is None:
            return
        live.clock_timer = self.chores.call_at(flag_time, self._on_timer, live)

    @staticmethod
    def cancel(live: LiveGame) -> None:
        if live.clock_timer is not None:
            live.clock_timer.cancel()
            live.clock_timer = None

    def _on_timer(self, live: LiveGame) -> None:
        live.clock_timer = None
        self.chores.spawn(self._timer_check(live))

    async def _timer_check(self, live: LiveGame) -> None:
        try:
            if self.holds(live):
                await self.check(live)
            # Otherwise the game left memory (another instance owns it now) or was
            # loaded again, and that copy has its own timer.
        except Exception:
            log.exception("game %s: the clock check failed", live.id)
