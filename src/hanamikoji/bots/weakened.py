"""The weakened greedy bot: the greedy judge's scores, played by chance instead of always
the best.

A person who knows the game does not play at random: they mostly play a good decision,
sometimes a slightly worse one, and now and then a careless one. This bot does the same
with the greedy judge (:mod:`hanamikoji.bots.judge`): it draws each decision from a
softmax over the judge's scores at ``play_temperature`` (in the judge's units: the
match's expected worth, from -1 lost to 1 won), mixed with a ``blunders`` share of
uniform choice. At a low temperature it plays the judge's choice, or one it can hardly
tell from it; at a higher one a decision that costs more is less likely but not
impossible, and ``blunders`` adds the rare blunder. The difficulty levels below ``greedy``
(:mod:`hanamikoji.bots.levels`) are this bot at several temperatures; the chances are
:func:`hanamikoji.bots.ismcts.mixed_softmax`, the model ``ismcts`` has of its opponent.

It is reproducible: the draw comes from the bot's seeded rng.

>>> from hanamikoji import Game
>>> game = Game(seed=3)
>>> bot = WeakenedBot(seed=1, play_temperature=0.1, blunders=0.05)
>>> bot.choose(game.view(0), game.legal_moves) in game.legal_moves
True
"""

from __future__ import annotations

from collections.abc import Sequence

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import mixed_softmax
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View

__all__ = ["DEFAULT_BLUNDERS", "DEFAULT_TEMPERATURE", "WeakenedBot"]

DEFAULT_TEMPERATURE = 0.1
"""The softmax temperature when a spec does not set one, in the judge's units."""
DEFAULT_BLUNDERS = 0.0
"""The share of uniform choice when a spec does not set one."""


class WeakenedBot(Bot):
    """The greedy judge's decisions drawn at random: a softmax over its scores, mixed
    with a share of uniform choice (the blunders).

    Args:
        seed: the draws (and the judge's ties).
        budget: unused (the bot decides at once).
        play_temperature: the softmax temperature, above 0, in the judge's units (the
            match's expected worth, -1 to 1): the lower, the closer to ``greedy``.
        blunders: the share of uniform choice among the legal decisions, from 0 to 1
            (1: ``random``).
        compiled: judge with the compiled kernel (the same scores, faster): as ``greedy``.
    """

    name = "weakened"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        play_temperature: float = DEFAULT_TEMPERATURE,
        blunders: float = DEFAULT_BLUNDERS,
        compiled: bool = False,
    ) -> None:
        if not play_temperature > 0:
            raise ValueError(f"play_temperature is above 0, not {play_temperature}")
        if not 0 <= blunders <= 1:
            raise ValueError(f"blunders is a share from 0 to 1, not {blunders}")
        super().__init__(seed, budget)
        self.play_temperature = play_temperature
        self.blunders = blunders
        self.judge = GreedyBot(seed, compiled=compiled)

    def chances(self, view: View, legal: Sequence[Move]) -> dict[Move, float]:
        """The chance of each of ``legal`` (distinct decisions) being played."""
        scores = self.judge.scores(view, legal)
        return mixed_softmax(scores, legal, self.play_temperature, self.blunders)

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        chances = self.chances(view, legal)
        return self.rng.choices(legal, weights=[chances[move] for move in legal])[0]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} seed={self.seed} play_temperature={self.play_temperature:g}"
            f" blunders={self.blunders:g}>"
        )


register("weakened", WeakenedBot)
