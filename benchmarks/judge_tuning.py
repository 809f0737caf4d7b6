"""Is the greedy judge's tuning a local optimum? Each knob moved either way, in the kernel.

Run: ``.venv/bin/python benchmarks/judge_tuning.py [--seeds N] [--first S] [--scales 1 2]
[--knobs K ...] [--variant V] [--jobs J] [--json]``

Every knob of :class:`hanamikoji.bots.judge.Tuning` (the unused-action worths one by
one; ``--knobs``: only those) is moved by ``scale`` times its step, down and up, and
``greedy`` with that tuning plays ``greedy`` with the default on the same ``N`` seeds
twice, the seats swapped (:class:`hanamikoji.kernel.Batch`, the compiled greedy policy:
a few thousand games a second). Each line is the moved greedy's score rate with the 95%
interval of the mean over seeds (both games of a seed together, so the luck of the deal
cancels); the same seeds for every line, so the lines compare with each other too. A
knob whose every move stays within its interval of 50%, or below it, is at an optimum
along its axis for play between greedy players (not necessarily for its other uses: the
search's playouts, the opponent model).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt
from machine import cpu_model

from hanamikoji import __version__
from hanamikoji.arena.stats import mean_interval
from hanamikoji.bots.judge import Tuning
from hanamikoji.kernel import Batch
from hanamikoji.kernel.policies import judge_tables, tie_breaks

STEPS = {
    "future_weight": 0.15,
    "response_hope": 0.1,
    "giveaway": 0.1,
    "discard": 0.1,
    "unused_secret": 0.05,
    "unused_trade_off": 0.05,
    "unused_gift": 0.05,
    "unused_competition": 0.05,
}
"""The step of each knob (the unused-action worths are ``Tuning.unused``'s four)."""
UNUSED = ("unused_secret", "unused_trade_off", "unused_gift", "unused_competition")


def knob_value(tuning: Tuning, knob: str) -> float:
    """The value of ``knob`` in ``tuning``."""
    return tuning.unused[UNUSED.index(knob)] if knob in UNUSED else float(getattr(tuning, knob))


def moved(knob: str, by: float) -> Tuning:
    """The default tuning with ``knob`` moved by ``by``."""
    base = Tuning()
    value = knob_value(base, knob) + by
    if knob in UNUSED:
        unused = list(base.unused)
        unused[UNUSED.index(knob)] = value
        return replace(base, unused=(unused[0], unused[1], unused[2], unused[3]))
    changes: dict[str, Any] = {knob: value}
    return replace(base, **changes)


def duel(tuning: Tuning, seeds: npt.NDArray[np.uint64], variant: str) -> npt.NDArray[np.float64]:
    """Per seed, the score rate of greedy with ``tuning`` against the default greedy over
    two games: in seat 0, then in seat 1 (the same first player, the seed's parity)."""
    count = len(seeds)
    both = np.concatenate([seeds, seeds])
    batch = Batch(variant, both, both % 2)
    seat = np.repeat(np.array([0, 1], dtype=np.int64), count)
    judges = judge_tables(tuning), judge_tables(Tuning())
    bot_seeds = np.arange(4 * count, dtype=np.uint64).reshape(2 * count, 2)
    ties = tie_breaks(bot_seeds, lazy=True), tie_breaks(bot_seeds, lazy=True)
    while not batch.done.all():
        moving = batch.to_move == seat
        mine = batch.greedy_actions(judges[0], ties[0], moving)
        theirs = batch.greedy_actions(judges[1], ties[1], ~moving)
        batch.step(np.where(moving, mine, theirs))
    winner = batch.games.winner
    points = np.where(winner == seat, 1.0, np.where(winner == 1 - seat, 0.0, 0.5))
    return np.asarray((points[:count] + points[count:]) / 2)


@dataclass(frozen=True)
class Line:
    """One moved tuning's result: its score rate against the default and its interval."""

    knob: str
    value: float
    score: float
    low: float
    high: float


def _line(job: tuple[str, float, int, int, str]) -> Line:
    knob, by, first, count, variant = job
    tuning = moved(knob, by)
    seeds = np.arange(first, first + count, dtype=np.uint64)
    mean, (low, high) = mean_interval(duel(tuning, seeds, variant).tolist())
    return Line(knob, round(knob_value(tuning, knob), 6), mean, low, high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=20_000, help="seeds, each played twice")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0], help="step multiples")
    parser.add_argument("--knobs", nargs="+", choices=list(STEPS), default=list(STEPS))
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    jobs = [
        (knob, sign * scale * STEPS[knob], args.first, args.seeds, args.variant)
        for knob in args.knobs
        for scale in args.scales
        for sign in (-1, 1)
    ]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        lines = list(pool.map(_line, jobs))
    figures = {
        "version": __version__,
        "cpu": cpu_model(),
        "variant": args.variant,
        "seeds": [args.first, args.first + args.seeds - 1],
        "seconds": round(time.perf_counter() - start, 1),
        "lines": [asdict(line) for line in lines],
    }
    if args.json:
        print(json.dumps(figures))
        return
    for line in lines:
        interval = f"[{line.low:.2%}, {line.high:.2%}]"
        print(f"{line.knob:<20} {line.value:>+7.3f}  {line.score:.2%} {interval}")
    print(f"{len(lines)} tunings, {args.seeds:,} seeds each, {figures['seconds']} s")


if __name__ == "__main__":
    main()
