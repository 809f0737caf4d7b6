"""A bot game's bot turns, run by the game's owner: the bot thinks (``thinkers.py``) and
its decision is committed as a seat's is, one at a time, until a person is to decide (a
game between two of our bots, a tournament's, is played to its end so)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable

from hanamikoji.core.moves import Move
from hanamikoji.interfaces.web.games.chores import Chores
from hanamikoji.interfaces.web.games.live import MAX_LIVE_GAMES, LiveGame
from hanamikoji.interfaces.web.games.thinkers import BotRunner, bot_seed
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["BotTurns"]

log = logging.getLogger("hanamikoji.web")


class BotTurns:
    """The bots' turns of the live games this instance owns.

    Args:
        bots: where bots think.
        delay: seconds a bot waits before it acts, so a person sees one move at a time.
        me: this instance.
        chores: the hub's tasks and timers (none start once it is closing).
        commit: commits a decision of a game whose lock the caller holds.
        drop_if_idle: lets a game leave memory once nothing here needs it.
    """

    def __init__(
        self,
        bots: BotRunner,
        delay: float,
        me: str,
        chores: Chores,
        commit: Callable[[LiveGame, Move], Awaitable[None]],
        drop_if_idle: Callable[[LiveGame], None],
    ) -> None:
        self.bots = bots
        self.delay = delay
        self.me = me
        self.chores = chores
        self.commit = commit
        self.drop_if_idle = drop_if_idle
        # What each game's bot (each seat's, in a game between two) inferred at its
        # decisions so far (Bot.memory), kept on this instance only, the newest games' at
        # most: after a restart, or on another instance, the bot starts again from its
        # priors.
        self._memory: collections.OrderedDict[tuple[str, int], object] = collections.OrderedDict()

    def wake(self, live: LiveGame) -> None:
        """Start the bots' turns if one is to decide in a game this instance owns."""
        if (
            self.chores.closing
            or not live.owned_by(self.me)
            or live.bot_task is not None
            or live.game.to_move not in live.stored.bot_seats
            or live.ended
        ):
            return
        live.bot_task = asyncio.create_task(self._turns(live))

    async def stop(self, games: Iterable[LiveGame]) -> None:
        """Cancel the bots' turns of these games and wait for them to end."""
        tasks = [live.bot_task for live in games if live.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _turns(self, live: LiveGame) -> None:
        try:
            while (
                live.game.to_move in live.stored.bot_seats
                and not self.chores.closing
                and not live.ended
                and live.owned_by(self.me)
            ):
                seat = live.game.to_move
                level = live.stored.level_at(seat) or 1
                view = live.game.view(seat)
                ply = live.ply
                if self.delay > 0:
                    await asyncio.sleep(self.delay)
                seed = bot_seed(live.stored.seed, ply)
                remembered = self._memory.get((live.id, seat))
                choice, memory = await self.bots.choose(level, seed, view, remembered)
                async with live.lock:
                    if live.ply != ply:
                        continue
                    try:
                        await self.commit(live, live.game.parse_move(choice))
                        self._remember(live, seat, memory)
                    except Refused as refusal:
                        # Stored by another server first, or the database failed: retry
                        # from whatever the database now holds.
                        log.warning("game %s: bot decision not stored (%s)", live.id, refusal)
                        await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the bot failed", live.id)
        finally:
            live.bot_task = None
        async with live.lock:
            self.drop_if_idle(live)

    def _remember(self, live: LiveGame, seat: int, memory: object) -> None:
        key = (live.id, seat)
        self._memory[key] = memory
        self._memory.move_to_end(key)
        if live.ended:
            for either in ((live.id, 0), (live.id, 1)):
                self._memory.pop(either, None)
        while len(self._memory) > MAX_LIVE_GAMES:
            self._memory.popitem(last=False)
