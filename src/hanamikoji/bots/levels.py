"""Player-facing difficulty levels 1-5, each a bot with a time budget.

===== ============ ====================================================
level bot          budget per decision
===== ============ ====================================================
1     ``random``   none: uniform among the distinct legal decisions
2     ``greedy``   none: one ply of heuristics (a few milliseconds)
3     ``ismcts``   0.2 s
4     ``ismcts``   0.5 s
5     ``expert``   1 s
===== ============ ====================================================

The top level is the ``expert`` bot since a seeded, seat-swapped match showed it
stronger than ``ismcts`` at equal budget (1 s; docs/strength.md has the figures).

>>> describe_level(2)
'level 2: greedy'
"""

from __future__ import annotations

from dataclasses import dataclass

from hanamikoji.bots.base import BOTS, Bot, make_bot

__all__ = ["LEVELS", "Level", "describe_level", "make_level_bot"]


@dataclass(frozen=True, slots=True)
class Level:
    """A difficulty level: which bot, with which per-decision budget in seconds."""

    number: int
    bot: str
    budget: float | None

    def resolved_bot(self) -> str:
        """The bot actually used: a level naming an unregistered bot falls back to ``ismcts``."""
        return self.bot if self.bot in BOTS else "ismcts"


LEVELS: dict[int, Level] = {
    1: Level(1, "random", None),
    2: Level(2, "greedy", None),
    3: Level(3, "ismcts", 0.2),
    4: Level(4, "ismcts", 0.5),
    5: Level(5, "expert", 1.0),
}


def _level(number: int) -> Level:
    level = LEVELS.get(number)
    if level is None:
        raise ValueError(f"difficulty levels are 1-{max(LEVELS)}, not {number}")
    return level


def make_level_bot(number: int, seed: int | None = None) -> Bot:
    """The bot of difficulty level ``number`` (1 = easiest)."""
    level = _level(number)
    return make_bot(level.resolved_bot(), seed=seed, budget=level.budget)


def describe_level(number: int) -> str:
    """A short description such as ``level 3: ismcts, 0.2 s per decision``."""
    level = _level(number)
    text = f"level {number}: {level.resolved_bot()}"
    if level.budget is not None:
        text += f", {level.budget:g} s per decision"
    return text
