"""Outcome-sampling MCCFR (OpenSpiel's own implementation) on one-round Hanamikoji.

Run: ``.venv/bin/python examples/openspiel_mccfr.py [--iterations N] [--seed S]``

The game is ``python_hanamikoji`` with ``variant=three-rounds`` and ``round_cap=1``: one
round, decided by the three-rounds tiebreak (most geishas, then most charm, then a
shared win). Hanamikoji has far too many information states for exact exploitability,
so the example reports what the solver has learnt: iterations, information states
visited, and the average policy at the first decision of a sampled deal, then plays the
average policy against uniform random play (seat-swapped, same deals both ways).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import outcome_sampling_mccfr  # type: ignore[import-untyped]

import hanamikoji.openspiel  # noqa: F401  (registers python_hanamikoji)
from hanamikoji.research.encoding import decode

Probabilities = dict[int, float]


def infostates(solver: outcome_sampling_mccfr.OutcomeSamplingSolver) -> dict[str, list[np.ndarray]]:
    """The solver's table, information state -> [regrets, average policy]. OpenSpiel's
    Python MCCFR keeps it only as ``_infostates``, with no public accessor."""
    return solver._infostates  # type: ignore[no-any-return]  # noqa: SLF001


class Evaluation:
    """Plays the average policy against uniform random play and remembers, among the
    decisions the policy made, the one the solver's table holds the most weight for."""

    def __init__(self, game: pyspiel.Game, solver: outcome_sampling_mccfr.OutcomeSamplingSolver):
        self.game = game
        self.table = infostates(solver)
        self.policy = solver.average_policy()
        self.best: tuple[float, str, Probabilities] = (0.0, "", {})

    def play(self, policy_seat: int, rng: random.Random) -> float:
        """One game, the policy in ``policy_seat``; the return of that seat."""
        state = self.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            elif state.current_player() == policy_seat:
                probabilities = self.policy.action_probabilities(state)
                self._remember(state, probabilities)
                choices = list(probabilities)
                odds = [probabilities[a] for a in choices]
                state.apply_action(rng.choices(choices, odds)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return float(state.returns()[policy_seat])

    def _remember(self, state: pyspiel.State, probabilities: Probabilities) -> None:
        key = state.information_state_string()
        entry = self.table.get(key)
        if entry is not None and entry[1].sum() > self.best[0]:
            self.best = (float(entry[1].sum()), key, probabilities)


def learnt_share(solver: outcome_sampling_mccfr.OutcomeSamplingSolver) -> float:
    """The share of visited information states where the average policy gives some
    decision at least twice the uniform probability."""
    learnt = 0
    for _, average in infostates(solver).values():
        total = average.sum()
        learnt += bool(total > 0 and average.max() / total >= 2 / len(average))
    return learnt / max(1, len(infostates(solver)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100, help="evaluation games per seat")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    np.random.seed(args.seed)  # OpenSpiel's MCCFR samples with NumPy's global generator

    game = pyspiel.load_game("python_hanamikoji", {"variant": "three-rounds", "round_cap": 1})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    start = time.perf_counter()
    for _ in range(args.iterations):
        solver.iteration()
    elapsed = time.perf_counter() - start
    print(f"game: {game}")
    print(
        f"{args.iterations} iterations in {elapsed:.1f} s ({args.iterations / elapsed:.0f}/s);"
        f" {len(infostates(solver))} information states visited, "
        f"{learnt_share(solver):.1%} of them with a clear preference"
    )

    evaluation = Evaluation(game, solver)
    total = 0.0
    for number in range(args.games):
        for seat in (0, 1):
            # The same seed for both seats: the same deals, seats swapped.
            total += evaluation.play(seat, random.Random(args.seed * 100003 + number))
    games = 2 * args.games
    print(f"average policy vs uniform random, {games} games: mean return {total / games:+.3f}")

    _, key, probabilities = evaluation.best
    if key:
        print("\nthe most trained decision met in those games, and its average policy:")
        print(f"  {key}")
        for action, probability in sorted(probabilities.items(), key=lambda i: -i[1])[:5]:
            print(f"    {decode(action)!s:<9} {probability:.3f}")


if __name__ == "__main__":
    main()
