"""Who plays the bridged games: a built-in bot (a level or a bot spec) or an external
engine speaking docs/protocol.md, made fresh for each game, and how long it may think
on the game's clock.

Each game gets its own :class:`~hanamikoji.bots.base.Bot`: an external engine is one
process per game (as ``lichess-bot`` runs one engine per game), started at its first
decision and closed when the game ends.

>>> from hanamikoji.interfaces.web.wire.outgoing import ClockState
>>> clock = ClockState(control="3+2", kind="realtime", remaining=(60_000, 90_000), running=0)
>>> decision_budget(5.0, clock, seat=0)
4.1
>>> decision_budget(1.0, clock, seat=0), decision_budget(1.0, None, seat=0)
(1.0, 1.0)
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from hanamikoji.bots import make_bot
from hanamikoji.bots.base import Bot
from hanamikoji.core.view import View
from hanamikoji.interfaces.clocks import TimeControl
from hanamikoji.interfaces.web.wire.outgoing import ClockState
from hanamikoji.protocol.client import ExternalEngineBot

__all__ = ["MIN_BUDGET", "OVERHEAD", "Contender", "decision_budget", "tell_game_over"]

OVERHEAD = 0.5
"""Seconds kept back from each decision on a real-time clock: the network and the
server's work between the engine's answer and the clock's stop."""

MIN_BUDGET = 0.05
"""The least time a decision is given, however short the clock."""


@dataclass(frozen=True, slots=True)
class Contender:
    """What plays: a built-in bot ``spec`` (``level:5``, ``greedy``) or an ``engine``
    command; ``movetime`` the seconds per decision (an engine's ``go movetime``; a
    built-in bot's own budget when ``None``)."""

    spec: str | None = None
    engine: tuple[str, ...] = ()
    movetime: float | None = None
    startup_seconds: float = 10.0

    def __post_init__(self) -> None:
        if (self.spec is None) == (not self.engine):
            raise ValueError("a contender is a bot spec or an engine command, one of them")

    def make(self) -> Bot:
        """A new bot for one game (an engine's process starts at its first decision).
        Raises ``ValueError`` for a spec that names no bot."""
        if self.spec is not None:
            return make_bot(self.spec, budget=self.movetime)
        return ExternalEngineBot(
            self.engine,
            budget_seconds=self.movetime if self.movetime is not None else 1.0,
            startup_seconds=self.startup_seconds,
        )

    def describe(self) -> str:
        return self.spec if self.spec is not None else " ".join(self.engine)


def decision_budget(default: float | None, clock: ClockState | None, seat: int) -> float | None:
    """The seconds a decision may take: ``default`` (``None``: the bot's own), lowered
    on a real-time clock to a twentieth of the time left plus most of the increment,
    less :data:`OVERHEAD`, never under :data:`MIN_BUDGET`. Correspondence and untimed
    games keep ``default``."""
    if clock is None or clock.kind != "realtime" or seat >= len(clock.remaining):
        return default
    try:
        increment = TimeControl.parse(clock.control).increment_ms / 1000
    except ValueError:
        increment = 0.0
    allowed = clock.remaining[seat] / 1000 / 20 + increment * 0.8 - OVERHEAD
    allowed = round(max(MIN_BUDGET, allowed), 3)
    return allowed if default is None or allowed < default else default


def tell_game_over(bot: Bot, view: View, result: str, reason: str) -> None:
    """Let an external engine hear how its game ended (nothing for a built-in bot),
    then close it."""
    if isinstance(bot, ExternalEngineBot):
        with contextlib.suppress(Exception):
            if view.outcome is not None:
                bot.game_over(view)
            else:
                bot.game_over(view, result=result, reason=reason)
        bot.close()
