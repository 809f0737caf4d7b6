"""Did a change to a bot win more on the same games? Two runs against one opponent,
compared game by game.

Run: ``.venv/bin/python benchmarks/paired.py FIRST SECOND --opponent NAME`` on two
folders of game records (``.hkr``, searched recursively) written by ``hanamikoji arena
A NAME ... --records FIRST`` and ``hanamikoji arena B NAME ... --records SECOND`` with
the same ``--seed`` and ``--games``. A game of one run is paired with the game of the
other on the same seed with the opponent in the same seat: the same deals, so a
comparison of the two bots that cancels how good the deals were (only games whose
results differ tell them apart). Prints each run's score, how many games each did
better, the difference of their score rates with its 95% interval, and the exact sign
test (:func:`hanamikoji.arena.stats.paired_comparison`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from hanamikoji.arena.stats import paired_comparison, wilson_interval
from hanamikoji.notation.records import read_record

SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
"""Each seat's score by result."""

GameKey = tuple[str, int, int]
"""A game of a run: its variant, its seed, and the opponent's seat."""


def run_scores(folder: Path, opponent: str) -> tuple[dict[GameKey, float], set[str]]:
    """The score of the opponent's opponent in each game recorded under ``folder``, and
    the names it played under."""
    scores: dict[GameKey, float] = {}
    names: set[str] = set()
    paths = sorted(folder.rglob("*.hkr"))
    if not paths:
        raise SystemExit(f"{folder}: no .hkr records")
    for path in paths:
        record = read_record(path, check=False)
        if opponent not in record.players:
            raise SystemExit(f"{path}: {opponent!r} did not play (players {record.players})")
        if record.seed is None or record.result not in SCORES:
            raise SystemExit(f"{path}: a record without a seed or a result cannot be paired")
        seat = record.players.index(opponent)
        names.add(record.players[1 - seat])
        key = (record.variant, record.seed, seat)
        if key in scores:
            raise SystemExit(f"{path}: a second game of seed {record.seed}, {opponent} seat {seat}")
        scores[key] = SCORES[record.result][1 - seat]
    return scores, names


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="the first run's folder of records")
    parser.add_argument("second", type=Path, help="the second run's folder of records")
    parser.add_argument("--opponent", required=True, help="the name both runs played against")
    args = parser.parse_args(argv)
    first, first_names = run_scores(args.first, args.opponent)
    second, second_names = run_scores(args.second, args.opponent)
    common = sorted(set(first) & set(second))
    if len(common) < 2:
        raise SystemExit("fewer than two games of the runs share a seed and seat")
    compared = paired_comparison((first[key], second[key]) for key in common)
    print(
        f"{compared.games} games paired (of {len(first)} and {len(second)}) against {args.opponent}"
    )
    for label, names, points in (
        ("first", first_names, compared.first),
        ("second", second_names, compared.second),
    ):
        low, high = wilson_interval(points, compared.games)
        rate = points / compared.games
        print(
            f"  {label:<6} {', '.join(sorted(names))}: {points:g}/{compared.games} = "
            f"{rate:.1%} [{low:.1%}, {high:.1%}]"
        )
    low, high = compared.interval
    print(
        f"  first better in {compared.first_better} games, second in {compared.second_better}; "
        f"difference {compared.difference:+.1%} [{low:+.1%}, {high:+.1%}]; "
        f"sign test p = {compared.p_value:.3f}"
    )


if __name__ == "__main__":
    main()
