"""The bot interface: a bot sees one player's view and the legal decisions, and picks one.

>>> from hanamikoji import Game
>>> game = Game(seed=3)
>>> bot = make_bot("random", seed=1)
>>> move = bot.choose(game.view(0), game.legal_moves())
>>> move in game.legal_moves()
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from hanamikoji.core.moves import Move
from hanamikoji.core.view import View

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot", "register"]


class Bot(ABC):
    """A player that decides from a :class:`View` only.

    A bot is reproducible given its seed: it draws all its randomness from ``self.rng``.
    ``budget`` is the time allowed per decision in seconds (``None``: the bot's default).
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None, budget: float | None = None) -> None:
        self.seed = seed
        self.budget = budget
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        """Return one of ``legal`` (never empty) for the player of ``view``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} budget={self.budget}>"


class RandomBot(Bot):
    """Uniform among the distinct legal decisions."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return legal[self.rng.randrange(len(legal))]


BotFactory = Callable[[int | None, float | None], Bot]
BOTS: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available to :func:`make_bot` and the command line under ``name``."""
    BOTS[name] = factory


def make_bot(name: str, seed: int | None = None, budget: float | None = None) -> Bot:
    """A bot by name. Raises ``ValueError`` naming the known bots."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}")
    return factory(seed, budget)


register("random", RandomBot)
