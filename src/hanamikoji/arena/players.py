"""Players of the arena as picklable descriptions, built where the games are played.

A :class:`PlayerSpec` is a label and what to build: a registered bot by name, or an
external engine by its command line. Worker processes and Ray tasks receive specs, not
bots. They build a fresh bot for every game, with a seed derived from the game's seed
and seat, so every game stands on its own and the whole match is reproducible; an
engine is started once per batch of games and told when each game ends.

>>> spec = PlayerSpec.bot_named("random")
>>> bot = spec.build(seed=5, budget=None)
>>> bot.name, bot.seed
('random', 5)
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hanamikoji.bots import Bot, make_bot
from hanamikoji.bots.base import parse_bot_spec
from hanamikoji.core.rng import MAX_SEED, splitmix64
from hanamikoji.protocol import ExternalEngineBot

__all__ = ["PlayerSpec", "bot_seed", "file_safe", "players_from_names"]


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player of the arena: ``label`` (unique within a match or round-robin) and what
    it builds: the registered bot ``bot`` (see :data:`hanamikoji.bots.BOTS`), possibly
    with options (a spec such as ``ismcts:iterations=800``, see
    :func:`hanamikoji.bots.make_bot`), or the external engine started by the command
    line ``engine`` (``docs/protocol.md``)."""

    label: str
    bot: str | None = None
    engine: str | None = None

    def __post_init__(self) -> None:
        if (self.bot is None) == (self.engine is None):
            raise ValueError("a player is either a bot or an engine command")
        if self.engine is not None and not shlex.split(self.engine):
            raise ValueError(f"the engine {self.label!r} has an empty command")

    @classmethod
    def bot_named(cls, name: str, label: str | None = None) -> PlayerSpec:
        """The spec of a registered bot, by name or by a spec with options. Raises
        ``ValueError`` naming the known bots, or what is wrong with the options. A value
        only the bot's constructor refuses is found where the games build their bots: a
        bot that cannot start loses its games, with the reason."""
        parse_bot_spec(name)
        return cls(label if label is not None else name, bot=name)

    @classmethod
    def engine_command(cls, label: str, command: str) -> PlayerSpec:
        """The spec of an external engine: its command line, split as a POSIX shell
        would (without running one)."""
        return cls(label, engine=command)

    @property
    def is_engine(self) -> bool:
        return self.engine is not None

    def build(self, seed: int, budget: float | None) -> Bot:
        """A fresh player; ``budget`` is seconds per decision (``None``: the bot's own
        default). An engine bot starts its process at its first decision and can serve
        game after game."""
        if self.engine is not None:
            if budget is None:
                return ExternalEngineBot(self.engine, name=self.label)
            return ExternalEngineBot(self.engine, budget_seconds=budget, name=self.label)
        assert self.bot is not None
        return make_bot(self.bot, seed=seed, budget=budget)

    def describe(self) -> dict[str, str]:
        """What the player is, for summaries."""
        if self.engine is not None:
            return {"label": self.label, "engine": self.engine}
        assert self.bot is not None
        return {"label": self.label, "bot": self.bot}


def players_from_names(
    names: Sequence[str], engines: Mapping[str, str] | None = None
) -> list[PlayerSpec]:
    """Specs for player names as given on the command line: an engine of ``engines``
    (name to command line) if it has that name, else a registered bot. A name given
    twice gets a ``#2`` (``#3``, ...) label so that every player has its own label."""
    engines = engines or {}
    specs: list[PlayerSpec] = []
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        label = name if seen[name] == 1 else f"{name}#{seen[name]}"
        command = engines.get(name)
        if command is not None:
            specs.append(PlayerSpec.engine_command(label, command))
        else:
            specs.append(PlayerSpec.bot_named(name, label))
    return specs


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game with ``game_seed``.

    It depends on the seat, not on which player sits there: when two copies of one
    deterministic bot swap seats they play the very same game, as they should.

    >>> bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    _, mixed = splitmix64((game_seed * 2 + seat) & MAX_SEED)
    return mixed


_UNSAFE = re.compile(r"[^A-Za-z0-9._+=-]+")


def file_safe(label: str) -> str:
    """``label`` as a piece of a file name: runs of other characters become ``_``.

    >>> file_safe("ismcts#2 (200 ms)")
    'ismcts_2_200_ms_'
    """
    return _UNSAFE.sub("_", label) or "_"
