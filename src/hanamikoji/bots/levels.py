"""Player-facing difficulty levels 1-8, each a bot (with its options) and a time budget.

===== ======================================= ==========================================
level bot                                     budget per decision
===== ======================================= ==========================================
1     ``random``                              none: uniform among the distinct decisions
2     ``weakened:play_temperature=0.6``       none: greedy's judge, played very loosely
3     ``weakened:play_temperature=0.2``       none
4     ``weakened:play_temperature=0.1``       none
5     ``weakened:play_temperature=0.05``      none: greedy's judge, now and then a slip
6     ``greedy``                              none: one ply of heuristics (milliseconds)
7     ``ismcts:iterations=200,compiled=true`` 1 s at most (200 playouts: tens of ms)
8     ``expert``                              1 s
===== ======================================= ==========================================

Levels 2-5 are the greedy judge played by chance (:mod:`hanamikoji.bots.weakened`: a
softmax over its scores, the hotter the weaker), so their mistakes are those of a player
who sees roughly what is good, not random ones; level 7 is a short search, stopped by a
number of playouts rather than by the clock, so its strength does not depend on the
machine. The temperatures and the playouts were chosen so that the levels' ratings are
about evenly spaced between random play and the expert (docs/strength.md, "The levels'
ratings", has the round-robin behind them).

>>> describe_level(6)
'level 6: greedy'
>>> describe_level(3)
'level 3: weakened (play_temperature=0.2)'
>>> LEVELS[7].spec()
'ismcts:iterations=200,compiled=true'
"""

from __future__ import annotations

from dataclasses import dataclass

from hanamikoji.bots.base import BOTS, Bot, BotSpecError, SpecAlias, make_bot, register_alias

__all__ = ["LEVELS", "Level", "describe_level", "level_spec", "make_level_bot"]


@dataclass(frozen=True, slots=True)
class Level:
    """A difficulty level: which bot, with which options (``OPTION=VALUE,...``, as in a
    bot spec; empty: the bot's defaults) and which per-decision budget in seconds."""

    number: int
    bot: str
    budget: float | None
    options: str = ""

    def resolved_bot(self) -> str:
        """The bot actually used: a level naming an unregistered bot falls back to ``ismcts``."""
        return self.bot if self.bot in BOTS else "ismcts"

    def spec(self) -> str:
        """The bot spec of the level (:func:`hanamikoji.bots.base.make_bot`): the bot
        with its options (none if it fell back to ``ismcts``)."""
        bot = self.resolved_bot()
        return f"{bot}:{self.options}" if self.options and bot == self.bot else bot

    def budgeted_spec(self) -> str:
        """:meth:`spec` with the level's budget as an option (as the arena and the
        levels' ratings name the level's player).

        >>> LEVELS[8].budgeted_spec(), LEVELS[7].budgeted_spec()
        ('expert:budget=1', 'ismcts:iterations=200,compiled=true,budget=1')
        """
        spec = self.spec()
        if self.budget is None:
            return spec
        return f"{spec}{',' if ':' in spec else ':'}budget={self.budget:g}"


LEVELS: dict[int, Level] = {
    1: Level(1, "random", None),
    2: Level(2, "weakened", None, "play_temperature=0.6"),
    3: Level(3, "weakened", None, "play_temperature=0.2"),
    4: Level(4, "weakened", None, "play_temperature=0.1"),
    5: Level(5, "weakened", None, "play_temperature=0.05"),
    6: Level(6, "greedy", None),
    7: Level(7, "ismcts", 1.0, "iterations=200,compiled=true"),
    8: Level(8, "expert", 1.0),
}


def _level(number: int) -> Level:
    level = LEVELS.get(number)
    if level is None:
        raise ValueError(f"difficulty levels are 1-{max(LEVELS)}, not {number}")
    return level


def make_level_bot(number: int, seed: int | None = None) -> Bot:
    """The bot of difficulty level ``number`` (1 = easiest); ``make_bot("level:3")``
    is the same bot."""
    return make_bot(_level(number).budgeted_spec(), seed=seed)


def level_spec(argument: str) -> str:
    """The bot spec ``level:ARGUMENT`` stands for in :func:`~hanamikoji.bots.make_bot`:
    the level's bot, options and budget (:meth:`Level.budgeted_spec`).

    >>> level_spec("7")
    'ismcts:iterations=200,compiled=true,budget=1'
    >>> level_spec("9")
    Traceback (most recent call last):
    ...
    hanamikoji.bots.base.BotSpecError: 'level:9' is no level: the levels are level:1 to level:8
    """
    level = LEVELS.get(int(argument)) if argument.isdecimal() else None
    if level is None:
        raise BotSpecError(f"{'level:' + argument!r} is no level: the levels are {_ACCEPTED}")
    return level.budgeted_spec()


_ACCEPTED = f"level:{min(LEVELS)} to level:{max(LEVELS)}"
register_alias("level", SpecAlias(level_spec, _ACCEPTED))


def describe_level(number: int) -> str:
    """A short description of the level, such as ``level 6: greedy`` or
    ``level 7: ismcts (iterations=200,compiled=true), 1 s per decision``."""
    level = _level(number)
    text = f"level {number}: {level.resolved_bot()}"
    if level.options and level.spec() != level.resolved_bot():
        text += f" ({level.options})"
    if level.budget is not None:
        text += f", {level.budget:g} s per decision"
    return text
