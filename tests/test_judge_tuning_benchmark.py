"""benchmarks/judge_tuning.py: its kernel duels are the games GreedyBot plays."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import greedy_game, load_benchmark

from hanamikoji.bots.judge import Tuning

bench = load_benchmark("judge_tuning")


def python_points(seed: int, game: int, seat: int, tuning: Tuning) -> float:
    """The moved greedy's points in the duel's game ``game`` (its seat ``seat``), played
    by the Python engine and GreedyBot with the tie-breaking seeds the duel gives."""
    tunings = (tuning, None) if seat == 0 else (None, tuning)
    played = greedy_game("classic", seed, (2 * game, 2 * game + 1), tunings=tunings)
    outcome = played.outcome
    assert outcome is not None
    return 0.5 if outcome.winner is None else float(outcome.winner == seat)


def test_moved_changes_one_knob() -> None:
    assert bench.moved("giveaway", -0.25) == Tuning(giveaway=0.6)
    assert bench.moved("unused_gift", 0.1).unused == (0.0, 0.0, 0.0, 0.0)
    assert bench.moved("unused_secret", 0.05).unused[0] == pytest.approx(0.05)


def test_duel_is_the_python_games() -> None:
    tuning = bench.moved("discard", -0.4)
    seeds = np.arange(11, 17, dtype=np.uint64)
    scores = bench.duel(tuning, seeds, "classic")
    count = len(seeds)
    for index, seed in enumerate(int(s) for s in seeds):
        first = python_points(seed, index, 0, tuning)
        second = python_points(seed, count + index, 1, tuning)
        assert scores[index] == (first + second) / 2
