"""How far ``hanamikoji analyze``'s verdicts can be trusted, and how long they take.

Run: ``.venv/bin/python benchmarks/analysis.py [--games 12] [--seed 1] [--worlds N]
[--jobs 2] [--timed 5] [--json]``.

Games are generated first, seeded, by the project's bots (``greedy`` against ``random``,
``greedy`` against itself, ``ismcts`` at 200 playouts against ``greedy``, in turn;
seats alternate), then:

- **(a) the last two turns.** At every decision with a choice on the last two turns of
  a round, the analysis's best decision (:func:`hanamikoji.bots.analysis.analyse_decision`)
  is compared with the exact best over the mover's information set
  (:func:`hanamikoji.bots.exact.exact_values` with no limit on the worlds: every world,
  weighed as the search weighs it). Where the analysis is exact the two are one
  computation, so the figure checks the plumbing; the share analysed exactly says how
  often that is. Beside it, the search alone (what the analysis did before the exact
  values: ``ismcts`` on ``--worlds`` sampled worlds) on the same decisions: its
  agreement with the exact best and its mean |difference| in the value of the decision
  played.
- **(b) the searched decisions.** Every decision the analysis searches (before the last
  two turns) is analysed at ``--worlds`` and at ten times as many, with other seeds:
  the share where both name the same best decision, where both give the same label,
  and the mean and median |difference| in the win chance of the decision played and in
  its cost.
- **(c) time.** The ``--timed`` games nearest to 30 decisions (a round has 12, so 36
  before 24) are analysed whole at ``--worlds`` in ``--jobs`` processes: the median and
  the largest wall-clock time per game, and per decision.

``--parts`` runs only some of them (``--parts c``). Prints the figures, or with
``--json`` the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from hanamikoji.bots.analysis import (
    DEFAULT_WORLDS,
    TIE,
    AnalysisSettings,
    DecisionAnalysis,
    Method,
    analyse_decision,
    analyze_record,
)
from hanamikoji.bots.base import make_bot
from hanamikoji.bots.exact import exact_values, judge_model
from hanamikoji.core.game import Game
from hanamikoji.notation.records import GameRecord

PAIRINGS = (
    ("greedy", "random"),
    ("greedy", "greedy"),
    ("ismcts:iterations=200,budget=100", "greedy"),
)
"""The bots that play the games, in turn."""


def play_game(seed: int) -> GameRecord:
    """One game of the pairing ``seed`` picks, seats alternating, every bot seeded."""
    first, second = PAIRINGS[seed % len(PAIRINGS)]
    specs = (first, second) if seed % 2 == 0 else (second, first)
    bots = [make_bot(spec, seed=seed * 2 + seat) for seat, spec in enumerate(specs)]
    game = Game(seed=seed)
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat), game.generate_legal_moves()))
    names = (specs[0].split(":")[0], specs[1].split(":")[0])
    return GameRecord.from_game(game, names)


@dataclass(frozen=True)
class LastTurns:
    decisions: int
    exact: int
    agree: int
    search_agree: int
    search_error: float


def last_turns(records: Sequence[GameRecord], settings: AnalysisSettings) -> LastTurns:
    """(a): the analysis and the search alone against the exact best, on the last two
    turns."""
    model = judge_model()
    search = AnalysisSettings(worlds=settings.worlds, seed=settings.seed, exact_turns=0)
    decisions = exact = agree = search_agree = 0
    errors: list[float] = []
    for record in records:
        for index, (game, entry) in enumerate(record.decisions()):
            legal = game.generate_legal_moves()
            view = game.view(entry.seat)
            if len(legal) == 1 or view.deck_size >= 2:
                continue
            solution = exact_values(view, legal, model)
            assert solution is not None
            values = {move: value.value for move, value in solution.values.items()}
            top = max(values.values())
            analysed = analyse_decision(record, index, settings)
            searched = analyse_decision(record, index, search)
            decisions += 1
            exact += analysed.method is Method.EXACT
            agree += values[analysed.best] >= top - TIE
            search_agree += values[searched.best] >= top - TIE
            assert searched.played_value is not None
            errors.append(abs(searched.played_value - values[entry.move]))
    return LastTurns(decisions, exact, agree, search_agree, statistics.fmean(errors))


@dataclass(frozen=True)
class Stability:
    decisions: int
    same_best: int
    same_label: int
    value_mean: float
    value_median: float
    cost_mean: float
    cost_median: float


def stability(records: Sequence[GameRecord], settings: AnalysisSettings, jobs: int) -> Stability:
    """(b): the searched decisions at ``settings`` against ten times the worlds."""
    more = AnalysisSettings(worlds=settings.worlds * 10, seed=settings.seed + 1_000_003)
    pairs: list[tuple[DecisionAnalysis, DecisionAnalysis]] = []
    for record in records:
        base = analyze_record(record, settings, jobs=jobs).decisions
        deep = analyze_record(record, more, jobs=jobs).decisions
        pairs += [(a, b) for a, b in zip(base, deep, strict=True) if a.method is Method.SEARCH]
    values = [abs(_value(a) - _value(b)) for a, b in pairs]
    costs = [abs(a.cost - b.cost) for a, b in pairs]
    return Stability(
        len(pairs),
        sum(a.best == b.best for a, b in pairs),
        sum(a.label == b.label for a, b in pairs),
        statistics.fmean(values),
        statistics.median(values),
        statistics.fmean(costs),
        statistics.median(costs),
    )


def _value(decision: DecisionAnalysis) -> float:
    assert decision.played_value is not None
    return decision.played_value


@dataclass(frozen=True)
class Timing:
    games: int
    decisions: list[int]
    seconds: list[float]


def timing(
    records: Sequence[GameRecord], settings: AnalysisSettings, jobs: int, count: int
) -> Timing:
    """(c): whole games of about 30 decisions, timed."""
    sizes = [sum(len(rnd.moves) for rnd in record.rounds) for record in records]
    # A game has 12 decisions a round: 36 are as near 30 as 24, and take longer.
    order = sorted(range(len(records)), key=lambda i: (abs(sizes[i] - 30), -sizes[i], i))
    chosen = order[:count]
    seconds = []
    for i in chosen:
        start = time.perf_counter()
        analyze_record(records[i], settings, jobs=jobs)
        seconds.append(time.perf_counter() - start)
    return Timing(len(chosen), [sizes[i] for i in chosen], seconds)


def last_turns_figures(a: LastTurns) -> dict[str, object]:
    return {
        "decisions": a.decisions,
        "analysed_exactly": a.exact / a.decisions,
        "best_is_exact_best": a.agree / a.decisions,
        "search_alone_best_is_exact_best": a.search_agree / a.decisions,
        "search_alone_mean_abs_error": a.search_error,
    }


def stability_figures(b: Stability) -> dict[str, object]:
    return {
        "decisions": b.decisions,
        "same_best": b.same_best / b.decisions,
        "same_label": b.same_label / b.decisions,
        "mean_abs_delta_win_chance": b.value_mean,
        "median_abs_delta_win_chance": b.value_median,
        "mean_abs_delta_cost": b.cost_mean,
        "median_abs_delta_cost": b.cost_median,
    }


def timing_figures(c: Timing) -> dict[str, object]:
    per_decision = [s / n for s, n in zip(c.seconds, c.decisions, strict=True)]
    return {
        "games": c.games,
        "decisions": c.decisions,
        "seconds": [round(s, 2) for s in c.seconds],
        "median_seconds": statistics.median(c.seconds),
        "max_seconds": max(c.seconds),
        "median_seconds_per_decision": statistics.median(per_decision),
    }


def print_table(figures: dict[str, object]) -> None:
    for section, values in figures.items():
        if not isinstance(values, dict):
            print(f"{section}: {values}")
            continue
        print(f"{section}:")
        for name, value in values.items():
            shown = f"{value:.4f}" if isinstance(value, float) else str(value)
            print(f"  {name:<40} {shown}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games generated (default 12)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="the budget measured")
    parser.add_argument("--jobs", type=int, default=2, help="processes for (b) and (c)")
    parser.add_argument("--timed", type=int, default=5, help="games timed in (c)")
    parser.add_argument("--parts", default="abc", help="which of (a), (b), (c) to run (abc)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    records = [play_game(seed) for seed in range(args.seed, args.seed + args.games)]
    settings = AnalysisSettings(worlds=args.worlds)
    figures: dict[str, object] = {
        "command": " ".join(["benchmarks/analysis.py", *sys.argv[1:]]),
        "worlds": args.worlds,
        "jobs": args.jobs,
    }
    if "a" in args.parts:
        figures["last_two_turns"] = last_turns_figures(last_turns(records, settings))
    if "b" in args.parts:
        figures["ten_times_the_worlds"] = stability_figures(stability(records, settings, args.jobs))
    if "c" in args.parts:
        figures["time"] = timing_figures(timing(records, settings, args.jobs, args.timed))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_table(figures)


if __name__ == "__main__":
    main()
