"""The inference benchmark compares sampled worlds with the true cards of recorded games."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from conftest import BENCHMARKS, load_benchmark

from hanamikoji.bots.determinize import World
from hanamikoji.core.view import View

SCRIPT = BENCHMARKS / "inference.py"


def _benchmark() -> ModuleType:
    return load_benchmark("inference")


def _records(folder: Path) -> None:
    subprocess.run(
        [
            *(sys.executable, "-m", "hanamikoji", "arena", "greedy", "random"),
            *("--games", "2", "--jobs", "1", "--records", str(folder), "--quiet"),
        ],
        check=True,
        capture_output=True,
    )


def test_a_share_right_counts_cards_as_multisets() -> None:
    bench = _benchmark()
    assert bench.share_right((0, 0, 3), (0, 3, 3)) == 2 / 3
    assert bench.share_right((1, 2), (1, 2)) == 1.0
    assert bench.share_right((4, 4), (5, 6)) == 0.0


def test_positions_hold_the_opponents_true_cards_and_worlds_guess_as_many(
    tmp_path: Path,
) -> None:
    bench = _benchmark()
    _records(tmp_path)
    positions = bench.recorded_positions(sorted(tmp_path.rglob("*.hkr")), "greedy")
    assert positions
    rng = random.Random(1)
    for position in positions:
        view = position.view
        assert any(e.round == view.round and e.seat != view.player for e in view.log)
        world = bench.sample_world(view, rng)
        assert len(bench.opponent_cards(world)) == len(position.cards)
        # The truth is one of the worlds behind the view: its cards are unseen ones.
        unseen = view.unseen()
        assert all(position.cards.count(k) <= unseen[k] for k in set(position.cards))
    measured = bench.measure(positions[:3], bench.uniform_sampler, 20, 1)
    assert all(0.0 <= m.share <= 1.0 for m in measured)
    # It counts the different worlds among a position's draws.
    early = max(positions, key=lambda position: position.view.deck_size)
    worlds = [bench.sample_world(early.view, rng) for _ in range(3)]
    assert len(set(worlds)) == 3

    def cycling(view: View, rng: random.Random) -> Callable[[], World]:
        draws = iter(worlds * 7)
        return lambda: next(draws)

    [three] = bench.measure([early], cycling, 20, 1)
    assert three.distinct == 3
    s0, s1, s2 = (bench.share_right(bench.opponent_cards(w), early.cards) for w in worlds)
    assert three.share == pytest.approx((7 * s0 + 7 * s1 + 6 * s2) / 20)


def test_the_benchmark_prints_each_sampler_against_the_first(tmp_path: Path) -> None:
    _records(tmp_path)
    done = subprocess.run(
        [
            *(sys.executable, str(SCRIPT), str(tmp_path), "--player", "greedy"),
            *("--models", "uniform", "0.02,0.05", "search:20,0.08,0.005"),
            *("--positions", "3", "--draws", "8"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert [row.split(" | ")[0] for row in rows[1:]] == [
        "| uniform",
        "| 0.02,0.05",
        "| search:20,0.08,0.005",
    ]
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--player", "greedy", "--models", "0.1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "a model is uniform, T,s or search:N,T,s" in bad.stderr
    for wrong in ("search:0,0.08,0.005", "search:20,0.08"):
        refused = subprocess.run(
            [sys.executable, str(SCRIPT), str(tmp_path), "--player", "greedy", "--models", wrong],
            capture_output=True,
            text=True,
            check=False,
        )
        assert refused.returncode == 2 and repr(wrong) in refused.stderr
