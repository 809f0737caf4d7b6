"""Game clocks, recomputed from what the database keeps: pure, no server, no real time.

A game's :class:`TimeControl` is none (untimed), real time (an initial time and an
increment added after each of a player's decisions) or correspondence (days per
decision). Its clocks are never kept as running counters: :func:`clocks` recomputes both
sides' remaining times from the time control, the moment the game started, each
decision's seat and commit time (the decisions table keeps them), and now. The same
inputs always give the same times, so a restart or a second server reads the clocks
exactly as the server that ran them did. Times are whole milliseconds since the epoch.

The side whose clock runs is the seat to decide (the answerer of a Gift or a
Competition too). Server downtime counts: the clocks are wall clocks, and a side whose
time ran out while no server was up has lost on time at the first look after it.

>>> control = TimeControl.parse("3+2")
>>> start = 1_000_000
>>> moves = (Decision(0, start + 10_000), Decision(1, start + 15_000))
>>> clocks(control, start, moves, running=0, now=start + 20_000).remaining
(167000, 177000)
>>> clocks(control, start, moves, running=0, now=start + 187_000).flagged
0
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

__all__ = [
    "DAY_MS",
    "PRESETS",
    "UNTIMED",
    "Clocks",
    "Decision",
    "TimeControl",
    "clocks",
    "datetime_to_ms",
    "ms_to_datetime",
    "wall_clock_ms",
]

DAY_MS = 86_400_000

Kind = Literal["none", "realtime", "correspondence"]

PRESETS = ("none", "3+2", "5+5", "10+0", "1d", "3d")
"""The time controls the start page offers (``POST /api/games`` takes these names)."""

_REALTIME = re.compile(r"(\d{1,3})\+(\d{1,3})")
_CORRESPONDENCE = re.compile(r"(\d{1,2})d")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How a game is timed. ``initial_ms`` and ``increment_ms`` for real time,
    ``days`` for correspondence; an untimed game has none of them."""

    kind: Kind = "none"
    initial_ms: int = 0
    increment_ms: int = 0
    days: int = 0

    @staticmethod
    def parse(name: str) -> TimeControl:
        """``none``, ``M+S`` (minutes, then seconds added per decision) or ``Nd`` (days per
        decision). Raises ``ValueError`` naming what is wrong."""
        if name == "none":
            return TimeControl()
        realtime = _REALTIME.fullmatch(name)
        if realtime is not None:
            minutes, seconds = int(realtime.group(1)), int(realtime.group(2))
            if minutes == 0:
                raise ValueError(f"time control {name!r}: a real-time game needs some minutes")
            return TimeControl("realtime", minutes * 60_000, seconds * 1000)
        days = _CORRESPONDENCE.fullmatch(name)
        if days is not None and int(days.group(1)) > 0:
            return TimeControl("correspondence", days=int(days.group(1)))
        raise ValueError(
            f"time control {name!r} is none of 'none', 'M+S' (minutes + seconds) or 'Nd' (days)"
        )

    @property
    def name(self) -> str:
        """The name :meth:`parse` reads back."""
        if self.kind == "realtime":
            return f"{self.initial_ms // 60_000}+{self.increment_ms // 1000}"
        if self.kind == "correspondence":
            return f"{self.days}d"
        return "none"

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    @property
    def per_decision_ms(self) -> int:
        """A correspondence decision's limit."""
        return self.days * DAY_MS


UNTIMED = TimeControl()
"""No clocks (every game made before clocks)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A committed decision: the seat that made it and when (ms since the epoch)."""

    seat: int
    at: int


@dataclass(frozen=True, slots=True)
class Clocks:
    """Both sides' remaining milliseconds at ``now`` (never below zero), whose clock
    runs (``None``: none, the game is over or untimed), and the seat whose time is out
    (``None``: nobody's)."""

    remaining: tuple[int, int]
    running: int | None
    now: int
    flagged: int | None

    def flag_time(self) -> int | None:
        """When the running side's time reaches zero (ms since the epoch), if nothing
        is decided before."""
        if self.running is None:
            return None
        return self.now + self.remaining[self.running]


def clocks(
    control: TimeControl,
    start: int,
    decisions: Sequence[Decision],
    running: int | None,
    now: int,
) -> Clocks:
    """The clocks at ``now`` of a game started at ``start`` (ms) after ``decisions``,
    with ``running`` the seat to decide (``None`` once the game is over).

    A side whose time reaches exactly zero has flagged. An untimed game's clocks are
    zero and never run. Raises ``ValueError`` if the times run backwards.
    """
    if not control.timed:
        return Clocks((0, 0), None, now, None)
    remaining = [_full(control), _full(control)]
    since = start
    for decision in decisions:
        if decision.at < since:
            raise ValueError(f"decision times run backwards: {decision.at} before {since}")
        took = decision.at - since
        remaining[decision.seat] = _after_decision(control, remaining[decision.seat], took)
        since = decision.at
    if running is None:
        return Clocks((max(0, remaining[0]), max(0, remaining[1])), None, now, None)
    remaining[running] -= max(0, now - since)
    flagged = running if remaining[running] <= 0 else None
    return Clocks((max(0, remaining[0]), max(0, remaining[1])), running, now, flagged)


def _full(control: TimeControl) -> int:
    return control.initial_ms if control.kind == "realtime" else control.per_decision_ms


def _after_decision(control: TimeControl, remaining: int, took: int) -> int:
    """A side's time after a decision that took ``took`` ms."""
    if control.kind == "correspondence":
        return control.per_decision_ms
    return remaining - took + control.increment_ms


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def wall_clock_ms() -> int:
    """The server's time: whole milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


def ms_to_datetime(ms: int) -> datetime:
    return EPOCH + timedelta(milliseconds=ms)


def datetime_to_ms(moment: datetime) -> int:
    """Whole milliseconds since the epoch (a time written by :func:`ms_to_datetime` comes
    back exactly)."""
    return (moment - EPOCH) // timedelta(milliseconds=1)
