"""Game analysis: the strongest search bot's verdict on every decision of a game.

For each decision with a choice, the bot searches the position as the player who
decided saw it (their view only) and estimates the chance to win the match after the
decision played and after its own preferred alternative. The difference is the
decision's cost; large costs are flagged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hanamikoji.bots.ismcts import ISMCTSBot
from hanamikoji.core.moves import Move
from hanamikoji.notation.records import GameRecord

__all__ = ["DecisionAnalysis", "GameAnalysis", "PlayerSummary", "analyze_record", "label_for"]

THRESHOLDS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
"""Cost in match-win chance from which a decision gets each label."""
FEW_PLAYOUTS = 12
"""Searched when the budget fits not one world: every searched decision gets a value."""
UNHURRIED = 60.0
"""The budget of that search, limited by its playouts instead."""


def label_for(cost: float) -> str:
    """``blunder``, ``mistake``, ``inaccuracy`` or ``""`` for a cost in win chance."""
    for threshold, label in THRESHOLDS:
        if cost >= threshold:
            return label
    return ""


@dataclass(frozen=True, slots=True)
class DecisionAnalysis:
    """One decision: what was played, what the bot preferred, and their estimated values
    (the decider's chance to win the match afterwards). ``forced`` when only one was legal."""

    round: int
    turn: int
    seat: int
    played: Move
    played_value: float
    best: Move
    best_value: float
    forced: bool

    @property
    def cost(self) -> float:
        return max(0.0, self.best_value - self.played_value) if self.best != self.played else 0.0

    @property
    def label(self) -> str:
        return label_for(self.cost)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    seat: int
    decisions: int
    mean_cost: float
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    decisions: tuple[DecisionAnalysis, ...]

    def summary(self, seat: int) -> PlayerSummary:
        """Per-player totals over the decisions that had a choice."""
        own = [d for d in self.decisions if d.seat == seat and not d.forced]
        labels = [d.label for d in own]
        return PlayerSummary(
            seat,
            len(own),
            sum(d.cost for d in own) / len(own) if own else 0.0,
            labels.count("inaccuracy"),
            labels.count("mistake"),
            labels.count("blunder"),
        )


def analyze_record(
    record: GameRecord,
    budget: float = 1.0,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse every decision of ``record`` with ``budget`` seconds of search each."""
    total = sum(len(rnd.moves) for rnd in record.rounds)
    results = []
    for index, (game, entry) in enumerate(record.decisions()):
        if progress is not None:
            progress(index, total)
        move = entry.move
        seat = game.to_move
        assert seat is not None
        legal = game.legal_moves()
        if len(legal) == 1:
            results.append(
                DecisionAnalysis(entry.round, entry.turn, seat, move, 0.0, move, 0.0, True)
            )
        else:
            view = game.view(seat)
            values = ISMCTSBot(seed=seed + index, budget=budget).evaluate(view, legal, (move,))
            if not values:
                # Not one world fitted in the budget: a few, however long they take.
                slow = ISMCTSBot(seed=seed + index, budget=UNHURRIED, iterations=FEW_PLAYOUTS)
                values = slow.evaluate(view, legal, (move,))
            # The bot's choice is its most searched decision, as in play.
            best = max(values, key=lambda m: values[m])
            played_value = values.get(move, (0, 0.0))[1]
            results.append(
                DecisionAnalysis(
                    entry.round,
                    entry.turn,
                    seat,
                    move,
                    played_value,
                    best,
                    values[best][1],
                    False,
                )
            )
    if progress is not None:
        progress(total, total)
    return GameAnalysis(tuple(results))
