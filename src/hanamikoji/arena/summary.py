"""What a match or round-robin shows: scores with 95% intervals, Elo, standings, timing.

Scores are from the first player's side of a pairing (A against B). The interval is the
Wilson score interval on the score rate (:func:`~hanamikoji.arena.stats.wilson_interval`);
it treats the games as independent, which errs on the wide side for duplicate pairs,
whose two games share their luck.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from hanamikoji.arena.games import GameResult
from hanamikoji.arena.stats import (
    elo_difference,
    elo_interval,
    pair_distribution,
    score,
    wilson_interval,
)

__all__ = ["MatchSummary", "PlayerTiming", "Standing", "TournamentSummary"]


@dataclass(frozen=True, slots=True)
class PlayerTiming:
    """A player's decisions over a set of games: how many, the thinking time, the median
    and longest decision, how many were overtime, and search iterations if reported."""

    decisions: int
    seconds: float
    median: float
    max: float
    overtime: int
    iterations: int | None

    @property
    def decisions_per_second(self) -> float | None:
        return self.decisions / self.seconds if self.seconds > 0 else None

    @property
    def iterations_per_second(self) -> float | None:
        if self.iterations is None or self.seconds <= 0:
            return None
        return self.iterations / self.seconds

    @classmethod
    def of(cls, label: str, games: Sequence[GameResult]) -> PlayerTiming:
        times: list[float] = []
        overtime = 0
        iterations: int | None = None
        for game in games:
            for seat in (0, 1):
                if game.players[seat] != label:
                    continue
                timing = game.timing[seat]
                times.extend(timing.times)
                overtime += timing.overtime
                if timing.iterations is not None:
                    iterations = (iterations or 0) + timing.iterations
        return cls(
            decisions=len(times),
            seconds=sum(times),
            median=statistics.median(times) if times else 0.0,
            max=max(times, default=0.0),
            overtime=overtime,
            iterations=iterations,
        )

    def to_json(self) -> dict[str, object]:
        per_second = self.decisions_per_second
        iterations_rate = self.iterations_per_second
        return {
            "decisions": self.decisions,
            "seconds": round(self.seconds, 6),
            "decisions_per_second": None if per_second is None else round(per_second, 3),
            "median_ms": round(self.median * 1000, 3),
            "max_ms": round(self.max * 1000, 3),
            "overtime": self.overtime,
            "iterations": self.iterations,
            "iterations_per_second": None if iterations_rate is None else round(iterations_rate, 1),
        }


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The games between ``a`` and ``b`` (every seed twice, seats swapped), from A's side."""

    a: str
    b: str
    games: tuple[GameResult, ...]

    @property
    def wins(self) -> int:
        return sum(1 for game in self.games if game.points_of_a == 1)

    @property
    def draws(self) -> int:
        return sum(1 for game in self.games if game.points_of_a == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for game in self.games if game.points_of_a == 0)

    @property
    def score(self) -> float:
        return score(self.wins, self.draws)

    @property
    def rate(self) -> float:
        return self.score / len(self.games)

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, len(self.games))

    @property
    def elo(self) -> float:
        return elo_difference(self.rate, len(self.games))

    @property
    def elo_interval(self) -> tuple[float, float]:
        return elo_interval(self.score, len(self.games))

    def pairs(self) -> dict[str, int]:
        """How many seeds A scored 2-0, 1.5-0.5, 1-1, 0.5-1.5 and 0-2 over its two games."""
        by_seed: dict[int, list[float]] = {}
        for game in self.games:
            by_seed.setdefault(game.seed, []).append(game.points_of_a)
        return pair_distribution((points[0], points[1]) for points in by_seed.values())

    def forfeits(self) -> list[GameResult]:
        return [game for game in self.games if game.forfeit is not None]

    def timing(self, label: str) -> PlayerTiming:
        return PlayerTiming.of(label, self.games)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        elo_low, elo_high = self.elo_interval
        return {
            "players": [self.a, self.b],
            "games": len(self.games),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "rate": round(self.rate, 6),
            "interval": [round(low, 6), round(high, 6)],
            "elo": round(self.elo, 1),
            "elo_interval": [round(elo_low, 1), round(elo_high, 1)],
            "pairs": self.pairs(),
            "forfeits": [
                {
                    "seed": game.seed,
                    "players": list(game.players),
                    "player": game.players[game.forfeit.seat],
                    "kind": game.forfeit.kind,
                    "reason": game.forfeit.reason,
                }
                for game in self.forfeits()
                if game.forfeit is not None
            ],
            "timing": {label: self.timing(label).to_json() for label in (self.a, self.b)},
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's total over all its games of a round-robin."""

    label: str
    games: int
    score: float

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "player": self.label,
            "games": self.games,
            "score": self.score,
            "rate": round(self.rate, 6),
            "interval": [round(low, 6), round(high, 6)],
        }


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """Every pairing of a match (one pairing) or a round-robin (every pair of players)."""

    players: tuple[str, ...]
    matches: tuple[MatchSummary, ...]

    def match(self, row: str, column: str) -> tuple[float, float, float] | None:
        """``row``'s score rate and its interval against ``column`` (``None`` if they did
        not meet), whichever of them was A."""
        for match in self.matches:
            low, high = match.interval
            if (match.a, match.b) == (row, column):
                return (match.rate, low, high)
            if (match.b, match.a) == (row, column):
                return (1 - match.rate, 1 - high, 1 - low)
        return None

    def standings(self) -> list[Standing]:
        """Players by total score rate, best first (ties keep the order given)."""
        totals = {label: [0, 0.0] for label in self.players}
        for match in self.matches:
            games = len(match.games)
            totals[match.a][0] += games
            totals[match.a][1] += match.score
            totals[match.b][0] += games
            totals[match.b][1] += games - match.score
        standings = [
            Standing(label, int(games), points) for label, (games, points) in totals.items()
        ]
        return sorted(standings, key=lambda standing: -standing.rate)

    def timing(self, label: str) -> PlayerTiming:
        return PlayerTiming.of(label, [game for match in self.matches for game in match.games])

    def games(self) -> list[GameResult]:
        return [game for match in self.matches for game in match.games]

    def to_json(self) -> dict[str, object]:
        return {
            "matches": [match.to_json() for match in self.matches],
            "standings": [standing.to_json() for standing in self.standings()],
            "timing": {label: self.timing(label).to_json() for label in self.players},
        }
