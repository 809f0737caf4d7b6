"""Running a match or a round-robin: the plan, the batches, the records, the summary.

>>> from hanamikoji.arena.backends import ProcessBackend
>>> from hanamikoji.arena.players import players_from_names
>>> a, b = players_from_names(["random", "random"])
>>> plan = Plan.match(a, b, games=6, config=MatchConfig("three-rounds"))
>>> summary = run_plan(plan, ProcessBackend(jobs=1))
>>> match = summary.matches[0]
>>> (match.a, match.b, len(match.games), match.rate)
('random', 'random#2', 6, 0.5)
"""

from __future__ import annotations

import datetime
import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hanamikoji.arena.backends import Backend
from hanamikoji.arena.games import (
    DEFAULT_CONFIG,
    Batch,
    GameResult,
    MatchConfig,
    seeds_for,
    split_seeds,
)
from hanamikoji.arena.players import PlayerSpec, file_safe
from hanamikoji.arena.summary import MatchSummary, TournamentSummary
from hanamikoji.notation.records import RECORD_SUFFIX

__all__ = [
    "BATCHES_PER_WORKER",
    "Plan",
    "RecordWriter",
    "default_records_dir",
    "run_plan",
]

BATCHES_PER_WORKER = 4
"""Batches per worker: enough for the workers to stay busy to the end and for the
progress bar to move, few enough to keep the overhead per batch negligible."""


@dataclass(frozen=True, slots=True)
class Plan:
    """Who plays whom: ``pairings`` are (A, B) indices into ``players``; each pairing
    plays ``games`` games (an even number), on the seeds ``first_seed``,
    ``first_seed + 1``, ... (``games / 2`` of them, each played twice, seats swapped)."""

    players: tuple[PlayerSpec, ...]
    pairings: tuple[tuple[int, int], ...]
    games: int
    first_seed: int = 1
    config: MatchConfig = DEFAULT_CONFIG

    def __post_init__(self) -> None:
        seeds_for(self.first_seed, self.games)  # checks the number of games
        labels = [player.label for player in self.players]
        if len(set(labels)) != len(labels):
            raise ValueError(f"every player needs its own label, not {labels}")
        for a, b in self.pairings:
            if a == b or not (0 <= a < len(labels) and 0 <= b < len(labels)):
                raise ValueError(f"a pairing is two different players, not {(a, b)}")

    @classmethod
    def match(
        cls,
        a: PlayerSpec,
        b: PlayerSpec,
        games: int,
        first_seed: int = 1,
        config: MatchConfig = DEFAULT_CONFIG,
    ) -> Plan:
        return cls((a, b), ((0, 1),), games, first_seed, config)

    @classmethod
    def round_robin(
        cls,
        players: Sequence[PlayerSpec],
        games: int,
        first_seed: int = 1,
        config: MatchConfig = DEFAULT_CONFIG,
    ) -> Plan:
        """Every pair of ``players`` meets, on the same seeds."""
        if len(players) < 2:
            raise ValueError("a round-robin needs at least two players")
        pairings = tuple(itertools.combinations(range(len(players)), 2))
        return cls(tuple(players), pairings, games, first_seed, config)

    @property
    def seeds(self) -> tuple[int, ...]:
        return seeds_for(self.first_seed, self.games)

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)

    def batches(self, workers: int) -> list[Batch]:
        """The work in batches of consecutive seeds, about :data:`BATCHES_PER_WORKER`
        per worker over all pairings."""
        per_pairing = math.ceil(workers * BATCHES_PER_WORKER / len(self.pairings))
        batches = []
        for index, (a, b) in enumerate(self.pairings):
            players = (self.players[a], self.players[b])
            for seeds in split_seeds(self.seeds, per_pairing):
                batches.append(Batch(self.config, index, players, seeds))
        return batches

    def describe(self) -> dict[str, object]:
        """The plan for summaries: what decides every game."""
        seeds = self.seeds
        budget = self.config.budget
        return {
            "variant": self.config.variant,
            "games_per_pairing": self.games,
            "seeds": [seeds[0], seeds[-1]],
            "first_player": "seed % 2",
            "budget_ms": None if budget is None else round(budget * 1000, 3),
            "players": [player.describe() for player in self.players],
        }


def run_plan(
    plan: Plan,
    backend: Backend,
    on_results: Callable[[Sequence[GameResult]], None] | None = None,
) -> TournamentSummary:
    """Play every game of ``plan`` on ``backend``; ``on_results`` sees each finished
    batch (for a progress bar, or to save records as they come)."""
    results: list[GameResult] = []
    for batch_results in backend.run(plan.batches(backend.workers)):
        results.extend(batch_results)
        if on_results is not None:
            on_results(batch_results)
    results.sort(key=lambda game: (game.pairing, game.seed, game.swapped))
    matches = []
    for index, (a, b) in enumerate(plan.pairings):
        games = tuple(game for game in results if game.pairing == index)
        matches.append(MatchSummary(plan.players[a].label, plan.players[b].label, games))
    return TournamentSummary(tuple(player.label for player in plan.players), tuple(matches))


def default_records_dir(now: datetime.datetime | None = None) -> Path:
    """``arena-records/YYYYMMDD-HHMMSS`` (local time)."""
    moment = now if now is not None else datetime.datetime.now()
    return Path("arena-records") / moment.strftime("%Y%m%d-%H%M%S")


class RecordWriter:
    """Writes every game's record into one directory, as
    ``<seed>-<seat 0 player>-vs-<seat 1 player>.hkr``, and the summary as ``summary.json``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def path_of(self, game: GameResult) -> Path:
        first, second = (file_safe(label) for label in game.players)
        return self.directory / f"{game.seed}-{first}-vs-{second}{RECORD_SUFFIX}"

    def write(self, games: Sequence[GameResult]) -> None:
        for game in games:
            self.path_of(game).write_text(game.record, encoding="utf-8")

    def write_summary(self, summary: dict[str, object]) -> Path:
        path = self.directory / "summary.json"
        path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        return path
