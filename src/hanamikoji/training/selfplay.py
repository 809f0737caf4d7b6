"""Self-play by the search: the samples of a generation's games, played or read back
from where they are kept, and those of earlier generations for a replay window."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot, mixed_softmax
from hanamikoji.bots.network import (
    INPUT_SIZE,
    ValueNetwork,
    action_features,
    judge_features,
    state_features,
)
from hanamikoji.bots.parallel import Workers
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.training.samples import Samples, samples_folder
from hanamikoji.training.work import chunks, in_parallel, network_of

__all__ = [
    "EXPLORE",
    "GAMES_PER_GENERATION",
    "ITERATIONS",
    "NEGATIVES",
    "NETWORK_CANDIDATES",
    "ROOT_CANDIDATES",
    "TARGET_TEMPERATURE",
    "VARIANT_MIX",
    "collect",
    "earlier_samples",
    "guides",
    "search_games",
]

VARIANT_MIX = ("classic", "classic", "classic", "three-rounds")
"""Games cycle through these variants (most players play the classic one)."""
ITERATIONS = 240
"""Playouts per decision of the self-play search."""
ROOT_CANDIDATES = 8
"""The judge's best decisions the self-play search compares (30 worlds each)."""
NETWORK_CANDIDATES = 2
"""The previous network's best decisions it compares besides them."""
NEGATIVES = 4
"""Decisions the search did not compare, added to each view as the policy's negatives."""
TARGET_TEMPERATURE = 0.02
"""Of the policy target's softmax over the search's values (chances to win the match)."""
EXPLORE = 0.1
"""The share of self-play decisions drawn from the policy target instead of its best."""
GAMES_PER_GENERATION = 100_000
"""Seeds reserved per generation: generation k plays seeds from (k - 1) times this, + 1."""


def _searcher(number: int, iterations: int, network: ValueNetwork | None) -> ISMCTSBot:
    config = replace(DEFAULT_CONFIG, compiled=True, root_candidates=ROOT_CANDIDATES)
    search = ISMCTSBot(number, budget=1e9, iterations=iterations, config=config)
    if network is not None:
        # Guided by this network rather than the committed one.
        search.config = replace(config, network_candidates=NETWORK_CANDIDATES)
        search.network = network
    return search


def _targets(searched: dict[Move, tuple[int, float]]) -> dict[Move, float]:
    """The policy target: a softmax of the search's values at :data:`TARGET_TEMPERATURE`."""
    values = {move: value for move, (_, value) in searched.items()}
    return mixed_softmax(values, list(values), TARGET_TEMPERATURE, 0.0)


class _Rows:
    """Rows being collected, view by view."""

    def __init__(self) -> None:
        self.features: list[list[float]] = []
        self.policy: list[float] = []
        self.values: list[float] = []
        self.views: list[int] = []
        self.games: list[int] = []
        self.count = 0

    def add_view(
        self,
        judge: GreedyBot,
        view: View,
        legal: Sequence[Move],
        searched: dict[Move, tuple[int, float]],
        rng: random.Random,
        number: int,
    ) -> dict[Move, float]:
        """Add a view's rows (the searched decisions, then negatives); its policy target."""
        targets = _targets(searched)
        others = [m for m in legal if m not in searched]
        rows = list(searched) + rng.sample(others, min(NEGATIVES, len(others)))
        scores = judge.scores(view, legal)
        judged = dict(zip(legal, judge_features([scores[m] for m in legal]), strict=True))
        state = state_features(view)
        for move in rows:
            self.features.append([*state, *action_features(move), *judged[move]])
            self.policy.append(targets.get(move, 0.0))
            self.values.append(searched[move][1] if move in searched else math.nan)
            self.views.append(self.count)
            self.games.append(number)
        self.count += 1
        return targets

    def samples(self) -> Samples:
        return Samples(
            np.asarray(self.features, dtype=np.float32).reshape(-1, INPUT_SIZE),
            np.asarray(self.policy, dtype=np.float32),
            np.asarray(self.values, dtype=np.float32),
            np.asarray(self.views, dtype=np.int32),
            np.asarray(self.games, dtype=np.int32),
        )


def search_games(
    first: int, count: int, iterations: int = ITERATIONS, network: bytes | None = None
) -> Samples:
    """Self-play games ``first .. first + count - 1`` (each its own seed) decided by the
    search at ``iterations`` playouts, guided by the network whose weights are
    ``network``; the rows of every decision with more than one choice."""
    guide = network_of(network)
    rows = _Rows()
    for number in range(first, first + count):
        rng = random.Random(number)
        search = _searcher(number, iterations, guide)
        judge = GreedyBot(seed=number, compiled=True)
        game = Game(VARIANT_MIX[number % len(VARIANT_MIX)], seed=number, first_player=number % 2)
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            legal = game.generate_legal_moves()
            if len(legal) == 1:
                game.push(legal[0])
                continue
            view = game.view(seat)
            searched = search.evaluate(view, legal)
            targets = rows.add_view(judge, view, legal, searched, rng, number)
            if rng.random() < EXPLORE:
                moves = list(targets)
                move = rng.choices(moves, weights=[targets[m] for m in moves])[0]
            else:
                move = max(searched, key=lambda m: searched[m][1])
            game.push(move)
    return rows.samples()


def _stored_games(
    first: int, count: int, iterations: int, network: bytes | None, folder: Path | None
) -> Samples:
    """:func:`search_games`, read from ``folder`` if played there before, else played
    and written there."""
    if folder is None:
        return search_games(first, count, iterations, network)
    path = folder / f"{first}-{count}.npz"
    if path.exists():
        return Samples.load(path)
    samples = search_games(first, count, iterations, network)
    samples.save(path)
    return samples


def collect(
    games: int,
    first: int,
    iterations: int,
    workers: Workers,
    network: ValueNetwork | None,
    store: Path | None = None,
) -> Samples:
    """:func:`search_games` on ``workers``, in chunks of 10 games, each chunk
    kept in ``store`` (:func:`samples_folder`) and read back from there when it has been
    played already."""
    starts, sizes = chunks(first, games, 10)
    weights = None if network is None else network.to_bytes()
    folder = None
    if store is not None:
        guide = None if network is None else network.fingerprint()
        folder = samples_folder(store, first, iterations, guide)
        folder.mkdir(parents=True, exist_ok=True)
    parts = in_parallel(_stored_games, starts, sizes, workers, iterations, weights, folder)
    return Samples.join(parts)


def guides(generations: Sequence[dict[str, Any]]) -> list[str | None]:
    """The fingerprint of the network that guided each generation's self-play: the
    checkpoint when it was played (``None`` for the first)."""
    found: list[str | None] = []
    guide = None
    for entry in generations:
        found.append(guide)
        if entry["kept"]:
            guide = entry["sha256"]
    return found


def earlier_samples(
    generations: Sequence[dict[str, Any]],
    count: int,
    previous: ValueNetwork | None,
    workers: Workers,
    store: Path,
) -> list[Samples]:
    """The samples of the last ``count`` of ``generations``, from ``store``; those not
    there are played again from their seeds if the network that guided them is at
    hand (``previous``, the checkpoint, or none)."""
    parts = []
    chosen = list(zip(generations, guides(generations), strict=True))[-count:] if count else []
    for entry, guide in chosen:
        first, last = entry["games"]
        iterations = entry["iterations"]
        if guide is not None and (previous is None or previous.fingerprint() != guide):
            folder = samples_folder(store, first, iterations, guide)
            starts, sizes = chunks(first, last - first + 1, 10)
            paths = [folder / f"{s}-{n}.npz" for s, n in zip(starts, sizes, strict=True)]
            if not all(path.exists() for path in paths):
                raise SystemExit(
                    f"generation {entry['generation']}'s self-play is not (all) in {folder},"
                    f" and the network that guided it ({guide[:12]}) is no longer the"
                    " checkpoint: run the recorded commands in order with this --samples"
                )
            parts.append(Samples.join([Samples.load(path) for path in paths]))
            continue
        network = previous if guide is not None else None
        parts.append(collect(last - first + 1, first, iterations, workers, network, store))
    return parts
