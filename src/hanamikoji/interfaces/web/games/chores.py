"""The hub's background work: tasks it cancels when it closes, and timers that fire at a
server time (a game's flag, an untimed rated game's forfeit)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from hanamikoji.interfaces.web.games.live import LiveGame

__all__ = ["FLAG_MARGIN", "MAX_TIMER", "Chores"]

FLAG_MARGIN = 0.005
"""Seconds a timer waits past its time, so the check finds the time out."""

MAX_TIMER = 3600.0
"""The longest a timer sleeps at once (a correspondence game's wakes up and sets its
next one)."""


class Chores:
    """Tasks and timers of one hub; nothing new starts once :attr:`closing`.

    Args:
        now: the server time, ms since the epoch.
    """

    def __init__(self, now: Callable[[], int]) -> None:
        self.now = now
        self.closing = False
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task cancelled when the hub closes (nothing once closing)."""
        if self.closing:
            work.close()
            return
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def call_at(
        self, at: int, callback: Callable[[LiveGame], None], live: LiveGame
    ) -> asyncio.TimerHandle:
        """Call ``callback(live)`` just after the server time ``at`` (ms), or after
        :data:`MAX_TIMER` seconds at most (the callback then arms its timer again)."""
        delay = max(0.0, (at - self.now()) / 1000) + FLAG_MARGIN
        return asyncio.get_running_loop().call_later(min(delay, MAX_TIMER), callback, live)

    def cancel(self) -> None:
        """Cancel every task still running (the hub is closing)."""
        for task in list(self._tasks):
            task.cancel()
