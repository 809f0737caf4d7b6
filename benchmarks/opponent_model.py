"""How well inference's opponent model explains the decisions players really made.

Run: ``.venv/bin/python benchmarks/opponent_model.py DIR [DIR ...] [--temperatures ...]
[--surprises ...]`` on game records (``.hkr``) written by ``hanamikoji arena ... --records
DIR``.

The search weighs each hidden world by the chance that its opponent model
(:func:`hanamikoji.bots.ismcts.opponent_model`: a softmax over the greedy judge's scores
at a temperature, mixed with a share of uniform choice) gives to what the opponent did.
Records hold every card, so each recorded decision can be judged on the view its player
really had. For every player named in the records this prints how the judge ranked the
decisions they chose (per kind of decision), and the mean log-likelihood per decision of
the model at the search's default setting and at the best setting of a grid (temperature
and surprise): the setting that best predicts that player, the one inference should use
against them.

With ``--searches N ...``, a model of a player who searches is measured too
(:func:`hanamikoji.bots.ismcts.searching_model`: ``ismcts`` at ``N`` playouts on the
player's view, a softmax over the values it found, 0.5% uniform): on ``--searched`` of
each player's decisions (spread evenly; a search per decision takes milliseconds), how
often its likeliest decision and the judge's are the one made, and the mean
log-likelihood of the best temperature of ``--search-temperatures`` against the best
judge setting of the grid on the same decisions.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import (
    SURPRISE,
    TEMPERATURE,
    fixed_search,
    mixed_softmax,
    opponent_model,
)
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.notation.records import read_record

RANKS = ("1st", "2nd", "3rd", "lower")
SEARCH_SURPRISE = 0.005


@dataclass(frozen=True)
class Decision:
    """One recorded decision with more than one legal choice, as the judge scored it."""

    player: str
    phase: str
    scores: dict[Move, float]
    chosen: Move
    view: View

    def rank(self) -> int:
        """How many decisions the judge scored strictly higher than the one chosen."""
        chosen = self.scores[self.chosen]
        return sum(1 for score in self.scores.values() if score > chosen)


def recorded_decisions(paths: Sequence[Path], judge: GreedyBot) -> list[Decision]:
    decisions: list[Decision] = []
    for path in paths:
        record = read_record(path)
        for game, entry in record.decisions():
            legal = game.generate_legal_moves()
            if len(legal) > 1:
                view = game.view(entry.seat)
                scores = judge.scores(view, legal)
                player = record.players[entry.seat]
                decisions.append(Decision(player, view.phase.value, scores, entry.move, view))
    return decisions


def log_likelihood(decisions: Sequence[Decision], temperature: float, surprise: float) -> float:
    """The model's mean log-chance of the decisions made."""
    total = 0.0
    for decision in decisions:
        chances = opponent_model(decision.scores, temperature, surprise)
        total += math.log(chances[decision.chosen])
    return total / len(decisions)


def searched_fit(
    decisions: Sequence[Decision], iterations: int, temperatures: Sequence[float], seed: int
) -> tuple[float, dict[float, float]]:
    """How often the likeliest decision of the searching model (``ismcts`` at
    ``iterations`` playouts) is the one made, and the model's mean log-likelihood at each
    of ``temperatures`` (one search per decision serves them all)."""
    search = fixed_search(iterations, seed)
    agreed = 0
    totals = dict.fromkeys(temperatures, 0.0)
    for decision in decisions:
        legal = list(decision.scores)
        found = search.evaluate(decision.view, legal)
        values = {move: value for move, (_, value) in found.items()}
        agreed += max(values, key=values.__getitem__) == decision.chosen
        for temperature in temperatures:
            chances = mixed_softmax(values, legal, temperature, SEARCH_SURPRISE)
            totals[temperature] += math.log(chances[decision.chosen])
    count = len(decisions)
    return agreed / count, {t: total / count for t, total in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="+", type=Path, help="folders of .hkr records")
    parser.add_argument(
        "--temperatures",
        type=float,
        nargs="+",
        default=[0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.05, 0.06, 0.08],
    )
    parser.add_argument(
        "--surprises", type=float, nargs="+", default=[0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3]
    )
    parser.add_argument(
        "--searches",
        type=int,
        nargs="*",
        default=[],
        metavar="N",
        help="also measure the searching model at these numbers of playouts",
    )
    parser.add_argument("--searched", type=int, default=200, help="decisions per player searched")
    parser.add_argument(
        "--search-temperatures", type=float, nargs="+", default=[0.01, 0.02, 0.04, 0.08, 0.16]
    )
    args = parser.parse_args()
    if any(n < 1 for n in args.searches) or args.searched < 1:
        parser.error("--searches and --searched are positive numbers")
    paths = sorted(path for folder in args.directories for path in folder.glob("*.hkr"))
    if not paths:
        parser.error("no .hkr records in " + ", ".join(map(str, args.directories)))
    decisions = recorded_decisions(paths, GreedyBot(seed=0, compiled=True))
    print(f"{len(paths)} records, {len(decisions)} decisions with a choice")
    by_player: dict[str, list[Decision]] = defaultdict(list)
    for decision in decisions:
        by_player[decision.player].append(decision)
    print("\nThe judge's rank of the decision chosen:\n")
    print("| player | kind | decisions | " + " | ".join(RANKS) + " |")
    print("|---|---|---:|" + "---:|" * len(RANKS))
    for player, made in sorted(by_player.items()):
        by_phase: dict[str, list[int]] = defaultdict(list)
        for decision in made:
            by_phase[decision.phase].append(min(decision.rank(), len(RANKS) - 1))
        for phase, ranks in sorted(by_phase.items()):
            shares = " | ".join(f"{ranks.count(r) / len(ranks):.1%}" for r in range(len(RANKS)))
            print(f"| {player} | {phase} | {len(ranks):,} | {shares} |")
    print("\nMean log-likelihood per decision (higher predicts better):\n")
    print("| player | decisions | default (T, s) | log-lik. | best (T, s) | log-lik. |")
    print("|---|---:|---|---:|---|---:|")
    for player, made in sorted(by_player.items()):
        default = log_likelihood(made, TEMPERATURE, SURPRISE)
        grid = fitted_grid(made, args)
        best = max(grid, key=grid.__getitem__)
        print(
            f"| {player} | {len(made):,} | ({TEMPERATURE}, {SURPRISE}) | {default:.4f} |"
            f" ({best[0]}, {best[1]}) | {grid[best]:.4f} |"
        )
    if args.searches:
        print_searched(by_player, args)


def fitted_grid(
    decisions: Sequence[Decision], args: argparse.Namespace
) -> dict[tuple[float, float], float]:
    """The model's mean log-likelihood at each (temperature, surprise) of the grid."""
    return {
        (t, s): log_likelihood(decisions, t, s) for t in args.temperatures for s in args.surprises
    }


def print_searched(by_player: dict[str, list[Decision]], args: argparse.Namespace) -> None:
    """The searching model against the judge's (``--searches``), per player."""
    count = args.searched
    print(
        f"\nA searching model against the judge's, on {count} decisions per player (spread"
        f" evenly; surprise {SEARCH_SURPRISE}):\n"
    )
    print("| player | model | likeliest is the one made | best setting | log-lik. |")
    print("|---|---|---:|---|---:|")
    for player, made in sorted(by_player.items()):
        sample = made[:: max(1, len(made) // count)][:count]
        judged = sum(max(d.scores, key=d.scores.__getitem__) == d.chosen for d in sample)
        share = judged / len(sample)
        grid = fitted_grid(sample, args)
        best = max(grid, key=grid.__getitem__)
        print(f"| {player} | judge | {share:.1%} | ({best[0]}, {best[1]}) | {grid[best]:.4f} |")
        for iterations in args.searches:
            agreed, fits = searched_fit(sample, iterations, args.search_temperatures, seed=1)
            fitted = max(fits, key=fits.__getitem__)
            print(
                f"| {player} | ismcts at {iterations} playouts | {agreed:.1%} | T = {fitted}"
                f" | {fits[fitted]:.4f} |"
            )


if __name__ == "__main__":
    main()
