"""The expert: the top difficulty level.

- Early in a round it searches with ISMCTS (:mod:`hanamikoji.bots.ismcts`) over the
  decisions the one-ply judge ranks highest, scoring each round's end by the
  match-value table (:mod:`hanamikoji.bots.match_table`).
- From the last three turns of a round on, it solves the rest of the round exactly in
  each of many sampled hidden worlds (:mod:`hanamikoji.bots.solver`) and plays the
  decision with the best average: the exact answer for the world as it may be.

Within a 1 s budget per decision on a 2-core machine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from hanamikoji.bots.base import register
from hanamikoji.bots.ismcts import PLANNED, ISMCTSBot
from hanamikoji.bots.solver import RoundSolver, SolverTimeout
from hanamikoji.core.game import TURNS_PER_ROUND
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View

__all__ = ["ExpertBot"]

DEFAULT_BUDGET = 1.0
EXACT_TURNS = 1
"""Solve exactly when this many turns of the round (the current one included) are left."""


class ExpertBot(ISMCTSBot):
    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        worlds: int | None = None,
        exact_turns: int = EXACT_TURNS,
    ) -> None:
        super().__init__(seed, budget if budget is not None else DEFAULT_BUDGET, iterations)
        self.worlds = worlds
        self.exact_turns = exact_turns

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        turns_left = view.deck_size + 1
        if turns_left <= self.exact_turns:
            return self._solve(view, legal)
        return super().choose(view, legal)

    def solved_values(self, view: View, legal: Sequence[Move]) -> dict[Move, tuple[int, float]]:
        """For each legal decision: the number of worlds solved and its mean value (the
        chance that this player wins the match after it); empty if not one world could
        be solved within the budget."""
        start = time.perf_counter()
        assert self.budget is not None
        deadline = start + self.budget * PLANNED
        limit = self.worlds if self.worlds is not None else 1 << 62
        me = view.player
        totals = dict.fromkeys(legal, 0.0)
        solved = 0
        longest = 0.0
        clock = time.perf_counter
        sample = self._sampler(view)
        while solved < limit:
            begun = clock()
            world = sample()
            solver = RoundSolver(self.match_value, deadline)
            values: dict[Move, float] = {}
            try:
                for move in legal:
                    world.push(move)
                    values[move] = solver.value(world)
                    world.pop()
            except SolverTimeout:
                # A world not solved under every decision would bias the comparison.
                break
            for move, seat0 in values.items():
                totals[move] += seat0 if me == 0 else 1.0 - seat0
            solved += 1
            now = clock()
            longest = max(longest, now - begun)
            if now + longest >= deadline:
                break
        if not solved:
            return {}
        return {move: (solved, total / solved) for move, total in totals.items()}

    def _solve(self, view: View, legal: Sequence[Move]) -> Move:
        values = self.solved_values(view, legal)
        if not values:
            # Not one world solved within the budget: the one-ply judge decides.
            return self._by_judge(view, legal)[0]
        return max(legal, key=lambda move: values[move][1])


assert EXACT_TURNS <= TURNS_PER_ROUND
register("expert", ExpertBot)
