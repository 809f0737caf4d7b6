"""The greedy bot: one ply, each decision judged by an estimate of how the round will end.

The judge (:mod:`hanamikoji.bots.judge`; its model is explained in
:mod:`hanamikoji.bots.judge.reference`) estimates, geisha by geisha, where each favor
marker ends the round, and values those chances by what they mean for the match. The
bot plays the decision it values most, ties broken by its seeded generator.

>>> from hanamikoji import Game
>>> game = Game(seed=3)
>>> bot = GreedyBot(seed=1)
>>> bot.choose(game.view(0), game.legal_moves) in game.legal_moves
True
"""

from __future__ import annotations

from collections.abc import Sequence

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.judge import (
    TIE_TOLERANCE,
    ReferenceJudge,
    Tuning,
    compiled_scores,
    warm_up,
)
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View

__all__ = ["GreedyBot"]


class GreedyBot(Bot):
    """One-ply heuristic player: the decision whose estimated round end is worth most for
    the match. Ties between equally good decisions are broken by the bot's seeded rng.

    Args:
        seed: breaks ties.
        budget: unused (the bot decides at once).
        tuning: the estimate's knobs.
        compiled: judge with the compiled kernel (:mod:`hanamikoji.bots.judge.kernel`:
            the same scores, several times faster, after compiling for tens of seconds
            the first time on a machine). Off by default: alone, greedy decides in about
            a millisecond either way; searches that judge thousands of positions per
            decision turn it on.
    """

    name = "greedy"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        tuning: Tuning | None = None,
        compiled: bool = False,
    ) -> None:
        super().__init__(seed, budget)
        self.tuning = tuning or Tuning()
        self.compiled = compiled
        if compiled:
            # Compiling (or loading the compiled code) takes seconds at first: not in the
            # time of a decision.
            warm_up()

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        scores = self._score_list(view, legal)
        best = max(scores)
        choices = [m for m, s in zip(legal, scores, strict=True) if s >= best - TIE_TOLERANCE]
        return choices[self.rng.randrange(len(choices))] if len(choices) > 1 else choices[0]

    def scores(self, view: View, legal: Sequence[Move]) -> dict[Move, float]:
        """The worth the bot sees in each decision (for tests and analysis)."""
        return dict(zip(legal, self._score_list(view, legal), strict=True))

    def _score_list(self, view: View, legal: Sequence[Move]) -> list[float]:
        if self.compiled:
            scores = compiled_scores(view, legal, self.tuning)
            if scores is not None:
                return scores
        judge = ReferenceJudge(view, self.tuning)
        return [judge.score(move, view.pending) for move in legal]


register("greedy", GreedyBot)
