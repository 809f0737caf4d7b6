"""The opponent-model benchmark fits the judge's softmax and a searching model to records."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import BENCHMARKS

SCRIPT = BENCHMARKS / "opponent_model.py"


def _run(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(folder), *options],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_benchmark_compares_the_searching_model_with_the_judges(tmp_path: Path) -> None:
    subprocess.run(
        [
            *(sys.executable, "-m", "hanamikoji", "arena", "greedy", "random"),
            *("--games", "2", "--jobs", "1", "--records", str(tmp_path), "--quiet"),
        ],
        check=True,
        capture_output=True,
    )
    done = _run(
        tmp_path,
        *("--temperatures", "0.02", "--surprises", "0.05"),
        *("--searches", "10", "--searched", "3"),
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line.startswith("| ")]
    searched = [row for row in rows if len(row) == 5 and row[0] in ("| greedy", "| random")]
    assert [(row[0], row[1]) for row in searched] == [
        ("| greedy", "judge"),
        ("| greedy", "ismcts at 10 playouts"),
        ("| random", "judge"),
        ("| random", "ismcts at 10 playouts"),
    ]
    # The greedy bot plays the judge's choice: the judge predicts every decision.
    assert searched[0][2] == "100.0%"
    assert _run(tmp_path, "--searches", "0").returncode == 2
