"""Compiled engine speed: random and greedy games per second, against the Python engine.

Run: ``.venv/bin/python benchmarks/kernel.py [--games N] [--greedy-games N] [--runs R]
[--json]``

Measured in one run (medians of R runs):

- *random*: N random games of ``classic`` (uniform over the distinct legal decisions)
  played to the end inside the kernel (``Batch.play``), in 1 process and split between
  2 processes: games and decisions per second;
- *greedy*: greedy-against-greedy games (``GreedyBot``'s decisions, compiled), in 1 and
  2 processes;
- *python*: random games through the Python engine's public API, as
  ``benchmarks/engine.py`` plays them, and the kernel's ratio to it;
- *compile*: the first use in a new process, once with an empty numba cache (compiling
  everything) and once with the cache this run left (``cache=True``): not in the
  figures above, whose processes are warmed up first.

``--json`` prints the figures as one JSON object (``random_games_per_s`` and
``greedy_games_per_s`` are the 2-process figures).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import numpy as np
from engine import api_games
from machine import cpu_model

from hanamikoji import __version__
from hanamikoji.kernel import Batch

VARIANT = "classic"
WARM_UP = """
import time
start = time.perf_counter()
from hanamikoji.kernel import Batch
Batch("classic", range(4)).play(("greedy", "random"))
print(time.perf_counter() - start)
"""


def play(policy: str, first: int, count: int) -> tuple[float, int]:
    """Seconds to deal and play ``count`` games (seeds from ``first``) with ``policy`` in
    both seats, and the decisions made."""
    start = time.perf_counter()
    seeds = np.arange(first, first + count, dtype=np.uint64)
    batch = Batch(VARIANT, seeds, seeds % 2)
    batch.play((policy, policy), seed=first)
    return time.perf_counter() - start, int(batch.games.decisions.sum())


def _warm(_: int) -> None:
    play("greedy", 0, 2)


def measure(policy: str, games: int, runs: int, processes: int) -> tuple[float, float]:
    """Median games/s and decisions/s of ``runs`` runs, the games split between
    ``processes`` warmed-up processes (1: this one)."""
    rates: list[tuple[float, float]] = []
    if processes == 1:
        play(policy, 0, 8)
        for run in range(runs):
            seconds, decisions = play(policy, run * games, games)
            rates.append((games / seconds, decisions / seconds))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(processes, mp_context=context) as pool:
            list(pool.map(_warm, range(processes)))
            share = games // processes
            for run in range(runs):
                firsts = [run * games + i * share for i in range(processes)]
                start = time.perf_counter()
                done = list(pool.map(play, [policy] * processes, firsts, [share] * processes))
                seconds = time.perf_counter() - start
                decisions = sum(d for _, d in done)
                rates.append((share * processes / seconds, decisions / seconds))
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def python_rate(games: int, runs: int) -> float:
    """Median random games/s of the Python engine (benchmarks/engine.py's loop)."""
    api_games(VARIANT, 200, random.Random(0))
    times = []
    for run in range(runs):
        start = time.perf_counter()
        api_games(VARIANT, games, random.Random(run))
        times.append(time.perf_counter() - start)
    return games / statistics.median(times)


def first_use(cache_dir: str | None) -> float:
    """Seconds of a new process's first use of the kernel (import, one game of each
    policy): with ``cache_dir`` as numba's cache (an empty one compiles everything)."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    done = subprocess.run(
        [sys.executable, "-c", WARM_UP], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.split()[-1])


def _timed(label: str, work: Callable[[], tuple[float, float]], quiet: bool) -> tuple[float, float]:
    games, decisions = work()
    if not quiet:
        print(f"{label:<32} {games:>12,.0f} games/s {decisions:>14,.0f} decisions/s", flush=True)
    return games, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000, help="random games per run")
    parser.add_argument("--greedy-games", type=int, default=2_000, help="greedy games per run")
    parser.add_argument("--python-games", type=int, default=3_000, help="Python games per run")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile timing")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    quiet = args.json
    figures: dict[str, object] = {
        "variant": VARIANT,
        "version": __version__,
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
    }
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as empty:
            figures["compile_s"] = round(first_use(empty), 2)
        figures["cache_load_s"] = round(first_use(None), 2)
        if not quiet:
            print(
                f"first use: {figures['compile_s']} s compiling, {figures['cache_load_s']} s cached"
            )
    policies = (("random", args.games, "random"), ("greedy", args.greedy_games, "greedy vs greedy"))
    for policy, games, label in policies:
        for processes in (1, 2):
            rates = _timed(
                f"{label}, {processes} process(es)",
                partial(measure, policy, games, args.runs, processes),
                quiet,
            )
            figures[f"{policy}_games_per_s_{processes}"] = round(rates[0])
            figures[f"{policy}_decisions_per_s_{processes}"] = round(rates[1])
    python = python_rate(args.python_games, args.runs)
    figures["python_games_per_s"] = round(python)
    figures["random_games_per_s"] = figures["random_games_per_s_2"]
    figures["greedy_games_per_s"] = figures["greedy_games_per_s_2"]
    for processes in (1, 2):
        rate = figures[f"random_games_per_s_{processes}"]
        assert isinstance(rate, int)
        figures[f"ratio_to_python_{processes}"] = round(rate / python, 1)
    if quiet:
        print(json.dumps(figures))
        return
    print(f"{'python engine, 1 process':<32} {python:>12,.0f} games/s")
    print(
        f"kernel / python: {figures['ratio_to_python_1']}x (1 process), "
        f"{figures['ratio_to_python_2']}x (2 processes)"
    )


if __name__ == "__main__":
    main()
