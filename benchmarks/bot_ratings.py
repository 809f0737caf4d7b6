"""The bots' ratings: a round-robin of the difficulty levels, fitted to Glicko ratings.

Run: ``.venv/bin/python benchmarks/bot_ratings.py [--variant classic] [--games 40]
[--search-games 16] [--jobs 2] [--json] [--no-write]``

Every pair of levels (``hanamikoji.bots.levels``: each level's bot with its options, at
its own budget per decision; 28 pairs of the 8 levels) plays N games on the arena (N/2
seeds, each twice with the seats swapped; ``docs/arena.md``), except that a pair with a
searching level (one with a budget: it thinks up to a second a decision, where the
others decide in a millisecond) plays ``--search-games`` M games on the first M/2 of
those seeds, so that many games pin the cheap levels down in the time a few games
against the searching ones take. The levels' ratings are then fitted to all the pairings' scores at
once (``hanamikoji.arena.rating_fit``: maximum likelihood of the logistic model Elo and
Glicko share), with level 1 anchored at 1200, and each level's rating and deviation (the
fit's standard error) are written into ``src/hanamikoji/bots/data/ratings.json`` under
the variant, where ``hanamikoji.bots.ratings.bot_rating`` reads them for the web app's
rated games. Other variants' entries in the file are kept.

Why level 1 is the anchor: it plays uniformly at random, so its strength is the same on
every machine, at any load, and through every change to the other bots; the scale stays
put when the levels are fitted again. Why 1200: a new player starts at 1500, and a
person who has learned the rules beats random play most of the time; 300 points is an
expected score of 85% against it.

With N games per pair, a pairing's score rate has a standard error of up to
``0.5 / sqrt(N)``; the fit pools all the pairings, so each level's deviation is smaller
than one pairing alone would give, but pairings near a sweep (level 1 against the
others) say little beyond "far apart". The top level searches for a time, so on a loaded
machine it plays fewer playouts, and weaker, than on an idle one; the data file keeps its
playouts per second. (Level 7 stops at a number of playouts, well within its budget.)
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from machine import cpu_model

from hanamikoji.arena import MatchConfig, Plan, PlayerSpec, ProcessBackend, RecordWriter, run_plan
from hanamikoji.arena.games import GameResult
from hanamikoji.arena.rating_fit import FittedRating, PairScore, fit_ratings
from hanamikoji.arena.summary import TournamentSummary
from hanamikoji.bots.levels import LEVELS, Level
from hanamikoji.bots.ratings import ANCHOR_LEVEL, ANCHOR_RATING, DATA_PATH

DEFAULT_GAMES = 40
ROOT = Path(__file__).resolve().parent.parent


def label(number: int) -> str:
    return f"level {number}"


def player_of(level: Level) -> PlayerSpec:
    """The arena player of a level: its bot with its options and its own budget (seconds)."""
    return PlayerSpec.bot_named(level.budgeted_spec(), label(level.number))


def plans(games: int, search_games: int, first_seed: int, config: MatchConfig) -> list[Plan]:
    """The round-robin of the levels as two plans: the pairs of levels that decide at once
    (``games`` each), then the pairs with a searching level (``search_games`` each)."""
    numbers = sorted(LEVELS)
    players = tuple(player_of(LEVELS[number]) for number in numbers)
    searching = {i for i, number in enumerate(numbers) if LEVELS[number].budget is not None}
    pairs = [(a, b) for a in range(len(numbers)) for b in range(a + 1, len(numbers))]
    quick = tuple(pair for pair in pairs if not searching & set(pair))
    slow = tuple(pair for pair in pairs if searching & set(pair))
    return [
        Plan(players, pairings, count, first_seed, config)
        for pairings, count in ((quick, games), (slow, search_games))
        if pairings
    ]


def pair_scores(summary: TournamentSummary) -> list[PairScore]:
    return [PairScore(m.a, m.b, len(m.games), m.score) for m in summary.matches]


def fit(summary: TournamentSummary, anchor_rating: float) -> dict[str, FittedRating]:
    labels = [label(number) for number in sorted(LEVELS)]
    return fit_ratings(labels, pair_scores(summary), label(ANCHOR_LEVEL), anchor_rating)


def git_version() -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip() or None


def report(
    plans: Sequence[Plan],
    summary: TournamentSummary,
    ratings: dict[str, FittedRating],
    facts: dict[str, object],
) -> dict[str, object]:
    """The variant's entry of the data file: the ratings, the scores behind them, and
    how they were measured. ``plans`` are :func:`plans`' (the quick pairs' first)."""
    timing = {}
    for number in sorted(LEVELS):
        measured = summary.timing(label(number))
        timing[str(number)] = {
            "decisions": measured.decisions,
            "median_ms": round(measured.median * 1000, 1),
            "max_ms": round(measured.max * 1000, 1),
            "playouts_per_second": None
            if measured.iterations_per_second is None
            else round(measured.iterations_per_second),
        }
    return {
        "anchor": {"level": ANCHOR_LEVEL, "rating": ratings[label(ANCHOR_LEVEL)].rating},
        "bots": {str(number): LEVELS[number].budgeted_spec() for number in sorted(LEVELS)},
        "levels": {
            str(number): {
                "rating": round(ratings[label(number)].rating, 1),
                "deviation": round(ratings[label(number)].deviation, 1),
            }
            for number in sorted(LEVELS)
        },
        "games_per_pair": plans[0].games,
        "search_games_per_pair": plans[-1].games,
        "seeds": [min(plan.seeds[0] for plan in plans), max(plan.seeds[-1] for plan in plans)],
        "pairs": [
            {
                "levels": [int(m.a.split()[-1]), int(m.b.split()[-1])],
                "games": len(m.games),
                "score": m.score,
            }
            for m in summary.matches
        ],
        "timing": timing,
        **facts,
    }


def write_entry(path: Path, variant: str, entry: dict[str, object]) -> None:
    """Put ``entry`` under ``variant`` in the data file, keeping the other variants."""
    data: dict[str, object] = {}
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
    variants = data.get("variants")
    if not isinstance(variants, dict):
        variants = {}
    variants[variant] = entry
    data["about"] = (
        "Fixed Glicko ratings of the difficulty levels, per variant: maximum likelihood of"
        " the logistic model on a round-robin of the levels (benchmarks/bot_ratings.py),"
        f" level {ANCHOR_LEVEL} anchored at {ANCHOR_RATING:g}; deviation is the fit's"
        " standard error relative to the anchor. Read by hanamikoji.bots.ratings."
    )
    data["variants"] = dict(sorted(variants.items()))
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def table(entry: dict[str, object]) -> str:
    levels = entry["levels"]
    assert isinstance(levels, dict)
    lines = ["| level | bot | rating | deviation | 95% interval |", "|---|---|---:|---:|---|"]
    for number in sorted(LEVELS):
        fitted = levels[str(number)]
        rating, deviation = fitted["rating"], fitted["deviation"]
        low, high = rating - 1.96 * deviation, rating + 1.96 * deviation
        lines.append(
            f"| {number} | {describe(LEVELS[number])} | {rating:.0f} | {deviation:.0f} |"
            f" [{low:.0f}, {high:.0f}] |"
        )
    return "\n".join(lines)


def describe(level: Level) -> str:
    spec = level.spec()
    return spec if level.budget is None else f"{spec} {level.budget:g} s"


def play(plans: Sequence[Plan], jobs: int, records: Path | None, quiet: bool) -> TournamentSummary:
    """Every plan's games, as one round-robin."""
    writer = RecordWriter(records) if records is not None else None
    done = 0
    total = sum(plan.total_games for plan in plans)

    def on_results(games: Sequence[GameResult]) -> None:
        nonlocal done
        done += len(games)
        if writer is not None:
            writer.write(games)
        if not quiet:
            print(f"{done}/{total} games", file=sys.stderr, flush=True)

    summaries = [run_plan(plan, ProcessBackend(jobs), on_results) for plan in plans]
    matches = tuple(match for summary in summaries for match in summary.matches)
    return TournamentSummary(summaries[0].players, matches)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", default="classic", help="rules variant (classic)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per pair (even)")
    parser.add_argument(
        "--search-games",
        type=int,
        help="games per pair with a searching level (even; default: --games)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--anchor", type=float, default=ANCHOR_RATING, help="level 1's rating")
    parser.add_argument("--output", type=Path, default=DATA_PATH, help="the data file")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--records", type=Path, help="save every game's record here")
    parser.add_argument("--json", action="store_true", help="print the entry as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    search_games = args.games if args.search_games is None else args.search_games
    if min(args.games, search_games) < 2 or args.games % 2 or search_games % 2:
        parser.error("--games and --search-games are even numbers, at least 2")
    round_robin = plans(args.games, search_games, args.seed, MatchConfig(args.variant))
    start = time.perf_counter()
    summary = play(round_robin, args.jobs, args.records, args.quiet)
    elapsed = time.perf_counter() - start
    command = ".venv/bin/python benchmarks/bot_ratings.py " + shlex.join(sys.argv[1:])
    cpu = cpu_model()
    facts: dict[str, object] = {
        "command": command.strip(),
        "date": datetime.date.today().isoformat(),
        "version": git_version(),
        "cpu": cpu,
        "jobs": args.jobs,
        "seconds": round(elapsed),
        "forfeits": sum(1 for game in summary.games() if game.forfeit is not None),
    }
    entry = report(round_robin, summary, fit(summary, args.anchor), facts)
    if not args.no_write:
        write_entry(args.output, args.variant, entry)
    if args.json:
        print(json.dumps({"variant": args.variant, **entry}, indent=2))
    else:
        total = sum(plan.total_games for plan in round_robin)
        games = f"{total} games in {elapsed:.0f} s, {args.jobs} jobs"
        print(f"{command.strip()}  ({cpu}; {games})")
        print(table(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
