"""The gate a generation's network must pass: seeded, seat-swapped matches against the
previous network and against greedy, with paired 95% intervals."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

from hanamikoji.bots.base import Bot
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.network import LearnedBot, ValueNetwork
from hanamikoji.bots.parallel import Workers
from hanamikoji.core.game import Game
from hanamikoji.core.outcome import Outcome
from hanamikoji.training.work import chunks, in_parallel, network_of

__all__ = ["GATE_FIRST_SEED", "GATE_SEEDS", "Match", "gate", "play_pairs"]

GATE_SEEDS = 500
"""Seeds of the gate's match (each played twice, the seats swapped)."""
GATE_FIRST_SEED = 900_001
"""The gate's seeds are fixed, and apart from every generation's self-play seeds."""


def _player(weights: bytes | None, seed: int) -> Bot:
    network = network_of(weights)
    return GreedyBot(seed=seed) if network is None else LearnedBot(seed, network=network)


def play_pairs(first: int, count: int, weights: bytes, other: bytes | None) -> list[float]:
    """Seeds ``first .. first + count - 1`` of classic, each played twice with the
    seats swapped, between the network ``weights`` and ``other`` (``None``: greedy):
    the first player's mean score on each seed."""
    pairs: list[float] = []
    for seed in range(first, first + count):
        total = 0.0
        for seat in (0, 1):
            game = Game("classic", seed=seed)
            players = [_player(weights, seed), _player(other, seed + 1)]
            if seat == 1:
                players.reverse()
            while not game.is_over():
                mover = game.to_move
                assert mover is not None
                legal = game.generate_legal_moves()
                game.push(
                    legal[0] if len(legal) == 1 else players[mover].choose(game.view(mover), legal)
                )
            outcome = game.outcome
            assert isinstance(outcome, Outcome)
            total += 0.5 if outcome.winner is None else float(outcome.winner == seat)
        pairs.append(total / 2)
    return pairs


@dataclass(frozen=True)
class Match:
    """A seeded, seat-swapped match: the first player's score rate and its paired 95%
    interval (over seeds, each the mean of its two games)."""

    opponent: str
    seeds: tuple[int, int]
    score: float
    interval: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "opponent": self.opponent,
            "seeds": list(self.seeds),
            "score": self.score,
            "interval": list(self.interval),
        }


def gate(
    network: ValueNetwork, other: ValueNetwork | None, workers: Workers, seeds: int = GATE_SEEDS
) -> Match:
    """``network`` against ``other`` (``None``: the greedy bot) on the gate's seeds."""
    starts, sizes = chunks(GATE_FIRST_SEED, seeds, 25)
    theirs = None if other is None else other.to_bytes()
    parts = in_parallel(play_pairs, starts, sizes, workers, network.to_bytes(), theirs)
    pairs = [score for part in parts for score in part]
    # The normal interval of the mean over seeds (each seed's two games are one pair).
    score = statistics.fmean(pairs)
    margin = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))
    interval = (score - margin, score + margin)
    name = "greedy" if other is None else other.fingerprint()[:12]
    return Match(name, (GATE_FIRST_SEED, GATE_FIRST_SEED + seeds - 1), score, interval)
