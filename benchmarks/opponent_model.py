"""How well inference's opponent model explains the decisions players really made.

Run: ``.venv/bin/python benchmarks/opponent_model.py DIR [DIR ...] [--temperatures ...]
[--surprises ...] [--shortlists ...]`` on game records (``.hkr``) written by ``hanamikoji
arena ... --records DIR``.

The search weighs each hidden world by the chance that its opponent model
(:func:`hanamikoji.bots.ismcts.opponent_model`: a softmax over the greedy judge's scores
at a temperature, mixed with a share of uniform choice) gives to what the opponent did.
Records hold every card, so each recorded decision can be judged on the view its player
really had. For every player named in the records this prints how the judge ranked the
decisions they chose (per kind of decision), and the mean log-likelihood per decision of
the model at the search's default setting and at the best setting of a grid (temperature,
surprise, and the shortlist the softmax is over: ``none`` for every decision): the
setting that best predicts that player, the one inference should use against them. A
player who searches the judge's few best decisions is told by the shortlist.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import SURPRISE, TEMPERATURE, opponent_model
from hanamikoji.core.moves import Move
from hanamikoji.notation.records import read_record

RANKS = ("1st", "2nd", "3rd", "lower")


@dataclass(frozen=True)
class Decision:
    """One recorded decision with more than one legal choice, as the judge scored it."""

    player: str
    phase: str
    scores: dict[Move, float]
    chosen: Move

    def rank(self) -> int:
        """How many decisions the judge scored strictly higher than the one chosen."""
        chosen = self.scores[self.chosen]
        return sum(1 for score in self.scores.values() if score > chosen)


def recorded_decisions(paths: Sequence[Path], judge: GreedyBot) -> list[Decision]:
    decisions: list[Decision] = []
    for path in paths:
        record = read_record(path)
        for game, entry in record.decisions():
            legal = game.legal_moves()
            if len(legal) > 1:
                view = game.view(entry.seat)
                scores = judge.scores(view, legal)
                player = record.players[entry.seat]
                decisions.append(Decision(player, view.phase.value, scores, entry.move))
    return decisions


def log_likelihood(
    decisions: Sequence[Decision], temperature: float, surprise: float, shortlist: int | None
) -> float:
    """The model's mean log-chance of the decisions made."""
    total = 0.0
    for decision in decisions:
        chances = opponent_model(decision.scores, temperature, surprise, shortlist)
        total += math.log(chances[decision.chosen])
    return total / len(decisions)


def shortlist_value(text: str) -> int | None:
    """A ``--shortlists`` value: a positive number of decisions, or ``none``."""
    if text.lower() == "none":
        return None
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"a shortlist is a positive number, not {value}")
    return value


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
        "--shortlists", type=shortlist_value, nargs="+", default=[None, 2, 3, 5, 8, 12]
    )
    args = parser.parse_args()
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
    print(
        "| player | decisions | default (T, s) | log-lik. | best (T, s) over all | log-lik."
        " | best (T, s, shortlist) | log-lik. |"
    )
    print("|---|---:|---|---:|---|---:|---|---:|")
    for player, made in sorted(by_player.items()):
        default = log_likelihood(made, TEMPERATURE, SURPRISE, None)
        grid = {
            (t, s, k): log_likelihood(made, t, s, k)
            for t in args.temperatures
            for s in args.surprises
            for k in args.shortlists
        }
        over_all = max((key for key in grid if key[2] is None), key=grid.__getitem__, default=None)
        best = max(grid, key=grid.__getitem__)
        unlisted = "-" if over_all is None else f"({over_all[0]}, {over_all[1]})"
        unlisted_value = "-" if over_all is None else f"{grid[over_all]:.4f}"
        print(
            f"| {player} | {len(made):,} | ({TEMPERATURE}, {SURPRISE}) | {default:.4f} |"
            f" {unlisted} | {unlisted_value} | ({best[0]}, {best[1]}, {best[2] or 'none'}) |"
            f" {grid[best]:.4f} |"
        )


if __name__ == "__main__":
    main()
