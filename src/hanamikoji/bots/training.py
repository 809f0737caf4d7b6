"""Train the learned policy and value of :mod:`hanamikoji.bots.network` by expert iteration.

A generation plays self-play games in which every decision is made by the search of
:mod:`hanamikoji.bots.ismcts` at a fixed number of playouts (reproducible), over the
greedy judge's best decisions and, from generation 2 on, the previous network's best
(``network_candidates``). The search's value of each decision it compared becomes the
targets of that view: the policy target is a softmax of those values at
:data:`TARGET_TEMPERATURE`, the value target the values themselves (less noisy than one
game's return: each is the mean over the worlds the search played). A few decisions the
search did not compare are added as the policy's negatives. The network is then trained
from the previous generation's weights (Adam; a listwise cross-entropy for the policy,
a cross-entropy on the sigmoid for the value, the last tenth of the games held out) and
kept only if, as the ``learned`` bot, it beats the previous generation in a seeded,
seat-swapped match with its paired 95% interval above 50% (:func:`gate`).

``python -m hanamikoji.bots.training`` starts generation 1 from scratch;
``--resume`` plays the next generation from the committed checkpoint
(``data/value_network.npz`` and its log ``data/value_network.json``); ``--log FILE``
rewrites the training log's table in ``FILE`` (``docs/strength.md``). A generation's
seeds follow from its number, so the same commands on the same machine give the same
weights.

Self-play samples are kept in a folder (``--samples``, by default
``~/.cache/hanamikoji/self-play``), a file per chunk of games as it is played: a run
stopped midway plays only what is missing when run again, and ``--window W`` trains on
the last ``W`` generations' samples together (a replay window, as AlphaZero's), playing
again, from their seeds, those of an earlier generation that are not there.

Self-play and the matches run in chunks over ``--jobs`` processes, or as Ray tasks with
``--backend ray`` (the cluster at ``RAY_ADDRESS``, else a local instance of ``--jobs``
CPUs; :mod:`hanamikoji.bots.parallel`): each chunk is a function of its seeds, so the
samples and the matches are the same wherever they run.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import os
import random
import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hanamikoji.bots.base import Bot
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot, mixed_softmax
from hanamikoji.bots.network import (
    INPUT_SIZE,
    MANIFEST_FILE,
    OUTPUTS,
    POLICY,
    SCALE,
    VALUE,
    WEIGHTS_FILE,
    LearnedBot,
    ValueNetwork,
    action_features,
    judge_features,
    state_features,
)
from hanamikoji.bots.parallel import BACKENDS, Workers
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.outcome import Outcome
from hanamikoji.core.view import View

__all__ = ["Samples", "TrainingResult", "gate", "search_games", "train"]

Array = npt.NDArray[np.float32]

DATA_DIR = Path(__file__).with_name("data")
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
GATE_SEEDS = 500
"""Seeds of the gate's match (each played twice, the seats swapped)."""
GATE_FIRST_SEED = 900_001
"""The gate's seeds are fixed, and apart from every generation's self-play seeds."""
GAMES_PER_GENERATION = 100_000
"""Seeds reserved per generation: generation k plays seeds from (k - 1) times this, + 1."""


@dataclass
class Samples:
    """Rows of (view, decision) features (raw, before :data:`SCALE`) and their targets,
    a view's rows together."""

    features: Array
    policy: Array
    """The target probability of each row's decision in its view (0 for negatives)."""
    values: Array
    """The search's value of each row's decision (NaN for negatives)."""
    views: npt.NDArray[np.int32]
    """The view (decision point) each row belongs to, in increasing order."""
    games: npt.NDArray[np.int32]

    def save(self, path: Path) -> None:
        """Write the samples to ``path`` (NumPy's ``.npz``), whole or not at all."""
        partial = path.with_name(path.name + ".partial")
        with partial.open("wb") as out:
            np.savez(out, **{name: getattr(self, name) for name in _SAMPLE_ARRAYS})
        partial.replace(path)

    @staticmethod
    def load(path: Path) -> Samples:
        with np.load(path) as stored:
            return Samples(*(stored[name] for name in _SAMPLE_ARRAYS))

    @staticmethod
    def join(parts: Sequence[Samples]) -> Samples:
        shift = 0
        views = []
        for part in parts:
            views.append(part.views + shift)
            shift += int(part.views.max()) + 1 if len(part.views) else 0
        return Samples(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.policy for p in parts]),
            np.concatenate([p.values for p in parts]),
            np.concatenate(views).astype(np.int32),
            np.concatenate([p.games for p in parts]),
        )


_SAMPLE_ARRAYS = ("features", "policy", "values", "views", "games")


_networks: dict[bytes, ValueNetwork] = {}


def _network(weights: bytes | None) -> ValueNetwork | None:
    if weights is None:
        return None
    if weights not in _networks:
        _networks[weights] = ValueNetwork.from_bytes(weights)
    return _networks[weights]


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
    guide = _network(network)
    rows = _Rows()
    for number in range(first, first + count):
        rng = random.Random(number)
        search = _searcher(number, iterations, guide)
        judge = GreedyBot(seed=number, compiled=True)
        game = Game(VARIANT_MIX[number % len(VARIANT_MIX)], seed=number, first_player=number % 2)
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            legal = game.legal_moves()
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


def _in_parallel(
    task: Callable[..., Any],
    starts: Sequence[int],
    sizes: Sequence[int],
    workers: Workers,
    *rest: Any,
) -> list[Any]:
    """``task(start, size, *rest)`` for each chunk, on ``workers``, in order."""
    return workers.map(task, starts, sizes, *([value] * len(starts) for value in rest))


def _chunks(first: int, count: int, size: int) -> tuple[list[int], list[int]]:
    starts = list(range(first, first + count, size))
    return starts, [min(size, first + count - start) for start in starts]


def default_store() -> Path:
    """Where self-play samples are kept unless ``--samples`` says otherwise."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "hanamikoji" / "self-play"


def samples_folder(store: Path, first: int, iterations: int, guide: str | None) -> Path:
    """The folder of the self-play games from seed ``first`` at ``iterations`` playouts,
    guided by the network whose fingerprint is ``guide``."""
    return store / f"{first}-{iterations}-{(guide or 'none')[:12]}"


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
    starts, sizes = _chunks(first, games, 10)
    weights = None if network is None else network.to_bytes()
    folder = None
    if store is not None:
        guide = None if network is None else network.fingerprint()
        folder = samples_folder(store, first, iterations, guide)
        folder.mkdir(parents=True, exist_ok=True)
    parts = _in_parallel(_stored_games, starts, sizes, workers, iterations, weights, folder)
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
            starts, sizes = _chunks(first, last - first + 1, 10)
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


# Training ---------------------------------------------------------------------------


@dataclass
class TrainingResult:
    network: ValueNetwork
    history: list[dict[str, float]]


def initial_weights(rng: np.random.Generator, hidden: tuple[int, int]) -> dict[str, Array]:
    """He-initialised weights of a network with these hidden layers."""
    sizes = (INPUT_SIZE, *hidden, OUTPUTS)
    weights: dict[str, Array] = {}
    for layer, (fan_in, fan_out) in enumerate(itertools.pairwise(sizes), start=1):
        weights[f"w{layer}"] = (
            rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)
        ).astype(np.float32)
        weights[f"b{layer}"] = np.zeros(fan_out, dtype=np.float32)
    return weights


def _forward(w: dict[str, Array], x: Array) -> tuple[Array, Array, Array]:
    h1 = np.maximum(x @ w["w1"] + w["b1"], 0.0)
    h2 = np.maximum(h1 @ w["w2"] + w["b2"], 0.0)
    return h1, h2, h2 @ w["w3"] + w["b3"]


def _group_softmax(logits: Array, groups: npt.NDArray[np.int64], count: int) -> Array:
    top = np.full(count, -np.inf, dtype=np.float32)
    np.maximum.at(top, groups, logits)
    exp = np.exp(logits - top[groups])
    total = np.bincount(groups, weights=exp, minlength=count)
    result: Array = (exp / total[groups]).astype(np.float32)
    return result


@dataclass
class _Batch:
    x: Array
    policy: Array
    values: Array
    groups: npt.NDArray[np.int64]
    count: int


def _batch(samples: Samples, x: Array, chosen: npt.NDArray[np.int64], starts: Any) -> _Batch:
    """The rows of views ``chosen``, their views renumbered 0..len(chosen) - 1."""
    lengths = starts[chosen + 1] - starts[chosen]
    groups = np.repeat(np.arange(len(chosen)), lengths)
    offsets = np.repeat(starts[chosen] - np.cumsum(lengths) + lengths, lengths)
    rows = offsets + np.arange(int(lengths.sum()))
    return _Batch(x[rows], samples.policy[rows], samples.values[rows], groups, len(chosen))


@dataclass
class _Heads:
    """The last layer's outputs on a batch, read as the policy and the value."""

    out: Array
    chances: Array
    """Each row's policy probability within its view."""
    known: npt.NDArray[np.bool_]
    """The rows with a value target (not negatives)."""
    known_count: int
    """How many they are (at least 1): the value loss is their mean."""
    target: Array
    win: Array
    """Each row's predicted chance to win."""


def _heads(out: Array, batch: _Batch) -> _Heads:
    known = ~np.isnan(batch.values)
    return _Heads(
        out,
        _group_softmax(out[:, POLICY], batch.groups, batch.count),
        known,
        max(1, int(known.sum())),
        np.where(known, batch.values, 0.0).astype(np.float32),
        (1.0 / (1.0 + np.exp(-out[:, VALUE]))).astype(np.float32),
    )


def _losses(w: dict[str, Array], batch: _Batch) -> dict[str, float]:
    """The batch's policy cross-entropy, value KL divergence and argmax agreement."""
    heads = _heads(_forward(w, batch.x)[2], batch)
    eps = 1e-7
    target, win = heads.target, heads.win
    policy_loss = -float(np.sum(batch.policy * np.log(heads.chances + eps))) / batch.count
    cross = -(target * np.log(win + eps) + (1 - target) * np.log(1 - win + eps))
    entropy = -(target * np.log(target + eps) + (1 - target) * np.log(1 - target + eps))
    value_loss = float(np.sum((cross - entropy)[heads.known])) / heads.known_count
    agree = _argmax_agrees(heads.out[:, POLICY], batch)
    return {"policy": policy_loss, "value": value_loss, "agree": agree}


def _argmax_agrees(logits: Array, batch: _Batch) -> float:
    """The share of views whose highest logit is on the search's best decision."""
    best_logit = np.full(batch.count, -np.inf, dtype=np.float32)
    np.maximum.at(best_logit, batch.groups, logits)
    best_target = np.zeros(batch.count, dtype=np.float32)
    np.maximum.at(best_target, batch.groups, batch.policy)
    hit = (logits == best_logit[batch.groups]) & (batch.policy == best_target[batch.groups])
    return float(np.bincount(batch.groups, weights=hit, minlength=batch.count).clip(0, 1).mean())


def _gradients(w: dict[str, Array], batch: _Batch) -> dict[str, Array]:
    """The gradients of the batch's losses (those of :func:`_losses`) on the weights."""
    h1, h2, out = _forward(w, batch.x)
    heads = _heads(out, batch)
    grad = np.zeros_like(out)
    grad[:, POLICY] = (heads.chances - batch.policy) / batch.count
    grad[:, VALUE] = np.where(heads.known, heads.win - heads.target, 0.0) / heads.known_count
    d2 = (grad @ w["w3"].T) * (h2 > 0)
    d1 = (d2 @ w["w2"].T) * (h1 > 0)
    return {
        "w3": h2.T @ grad,
        "b3": grad.sum(axis=0),
        "w2": h1.T @ d2,
        "b2": d2.sum(axis=0),
        "w1": batch.x.T @ d1,
        "b1": d1.sum(axis=0),
    }


class _Adam:
    def __init__(self, weights: dict[str, Array]) -> None:
        self.moments = {name: np.zeros_like(value) for name, value in weights.items()}
        self.squares = {name: np.zeros_like(value) for name, value in weights.items()}
        self.step = 0

    def update(self, w: dict[str, Array], grads: dict[str, Array], rate: float) -> None:
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        self.step += 1
        for name, grad in grads.items():
            self.moments[name] = beta1 * self.moments[name] + (1 - beta1) * grad
            self.squares[name] = beta2 * self.squares[name] + (1 - beta2) * grad * grad
            m_hat = self.moments[name] / (1 - beta1**self.step)
            v_hat = self.squares[name] / (1 - beta2**self.step)
            w[name] = (w[name] - rate * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)


def _view_starts(samples: Samples) -> npt.NDArray[np.int64]:
    count = int(samples.views.max()) + 1
    sizes = np.bincount(samples.views, minlength=count)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def train(
    samples: Samples,
    start: dict[str, Array] | None = None,
    hidden: tuple[int, int] = (256, 128),
    epochs: int = 8,
    batch: int = 256,
    rate: float = 1e-3,
    seed: int = 0,
    held_out: float = 0.1,
    log: bool = False,
) -> TrainingResult:
    """Fit the network to ``samples`` from the weights ``start`` (or from scratch), by
    views of ``batch``. The last ``held_out`` share of the games is kept aside: the
    weights returned are those of the epoch with the lowest loss on them."""
    rng = np.random.default_rng(seed)
    x = (samples.features / SCALE).astype(np.float32)
    starts = _view_starts(samples)
    view_games = samples.games[starts[:-1]]
    games = np.unique(view_games)
    cut = games[int(len(games) * (1.0 - held_out))] if held_out > 0 else games[-1] + 1
    fit = np.flatnonzero(view_games < cut)
    check = _batch(samples, x, np.flatnonzero(view_games >= cut), starts)
    w = {k: v.copy() for k, v in start.items()} if start else initial_weights(rng, hidden)
    adam = _Adam(w)
    history: list[dict[str, float]] = []
    best: tuple[float, dict[str, Array]] | None = None
    for epoch in range(epochs):
        order = rng.permutation(fit)
        rate_now = rate * (0.5 ** (epoch / max(1, epochs // 3)))
        for begin in range(0, len(order), batch):
            part = _batch(samples, x, np.sort(order[begin : begin + batch]), starts)
            adam.update(w, _gradients(w, part), rate_now)
        entry = {"epoch": float(epoch + 1)}
        fitted = _batch(samples, x, fit[: min(len(fit), 20_000)], starts)
        entry.update({f"fit_{k}": v for k, v in _losses(w, fitted).items()})
        if check.count:
            entry.update({f"held_out_{k}": v for k, v in _losses(w, check).items()})
        history.append(entry)
        score = entry.get("held_out_policy", 0.0) + entry.get("held_out_value", -float(epoch))
        if best is None or score < best[0]:
            best = (score, {name: value.copy() for name, value in w.items()})
        if log:
            print("  ".join(f"{k} {v:.4f}" for k, v in entry.items()), flush=True)
    assert best is not None
    return TrainingResult(ValueNetwork(best[1]), history)


# Matches ----------------------------------------------------------------------------


def _player(weights: bytes | None, seed: int) -> Bot:
    network = _network(weights)
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
                legal = game.legal_moves()
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
    starts, sizes = _chunks(GATE_FIRST_SEED, seeds, 25)
    theirs = None if other is None else other.to_bytes()
    parts = _in_parallel(play_pairs, starts, sizes, workers, network.to_bytes(), theirs)
    pairs = [score for part in parts for score in part]
    # The normal interval of the mean over seeds (each seed's two games are one pair).
    score = statistics.fmean(pairs)
    margin = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))
    interval = (score - margin, score + margin)
    name = "greedy" if other is None else other.fingerprint()[:12]
    return Match(name, (GATE_FIRST_SEED, GATE_FIRST_SEED + seeds - 1), score, interval)


# The checkpoint and its log -------------------------------------------------------

LOG_START = "<!-- training log: start -->"
LOG_END = "<!-- training log: end -->"


def _checkpoint(folder: Path) -> tuple[ValueNetwork, dict[str, Any]]:
    """The committed network and its manifest (what ``--resume`` continues from)."""
    recorded: dict[str, Any] = json.loads((folder / MANIFEST_FILE).read_text("utf-8"))
    if recorded.get("format") != FORMAT:
        raise SystemExit(f"{folder / MANIFEST_FILE}: not a checkpoint of this training")
    return ValueNetwork.from_bytes((folder / WEIGHTS_FILE).read_bytes()), recorded


FORMAT = "hanamikoji-policy-value-network"


def log_table(generations: Sequence[dict[str, Any]]) -> str:
    """The training log as a Markdown table, a generation a row."""

    def rate(match: dict[str, Any]) -> str:
        low, high = match["interval"]
        return f"{100 * match['score']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"

    def trained_on(entry: dict[str, Any]) -> str:
        window = entry.get("window", [entry["generation"]])
        names = str(window[0]) if len(window) == 1 else f"{window[0]}-{window[-1]}"
        return f"{names}: {entry.get('training_rows', entry['rows']):,}"

    lines = [
        "| generation | date | kept | games (seeds) | decisions / rows"
        " | trained on (generations: rows)"
        " | self-play / training / matches | held-out policy / value loss, agreement"
        " | against the previous | against greedy |",
        "|---:|---|---|---|---|---|---|---|---|---|",
    ]
    for entry in generations:
        first, last = entry["games"]
        seconds = entry["seconds"]
        held = entry["held_out"]
        lines.append(
            f"| {entry['generation']} | {entry['date']} | {'yes' if entry['kept'] else 'no'} "
            f"| {last - first + 1:,} ({first}-{last}) "
            f"| {entry['decisions']:,} / {entry['rows']:,} | {trained_on(entry)} "
            f"| {seconds['self_play']:,} / {seconds['training']:,} / {seconds['matches']:,} s "
            f"| {held['policy']:.3f} / {held['value']:.4f}, {100 * held['agree']:.1f}% "
            f"| {rate(entry['against_previous'])} vs {entry['against_previous']['opponent']} "
            f"| {rate(entry['against_greedy'])} |"
        )
    return "\n".join(lines)


def write_log(path: Path, generations: Sequence[dict[str, Any]]) -> None:
    """Replace the table between the training log's markers in ``path``."""
    text = path.read_text("utf-8")
    pattern = re.compile(re.escape(LOG_START) + ".*?" + re.escape(LOG_END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{path}: no {LOG_START} ... {LOG_END} block for the training log")
    block = f"{LOG_START}\n{log_table(generations)}\n{LOG_END}"
    path.write_text(pattern.sub(lambda _: block, text), "utf-8")


def run_generation(
    args: argparse.Namespace,
    previous: ValueNetwork | None,
    generations: Sequence[dict[str, Any]],
) -> tuple[ValueNetwork, dict[str, Any]]:
    """Play, train and gate the generation after ``generations``: the network and its
    log entry."""
    number = len(generations) + 1
    first = (number - 1) * GAMES_PER_GENERATION + 1
    began = time.perf_counter()
    workers = Workers(args.jobs, args.backend)
    with workers.running():
        samples = collect(args.games, first, args.iterations, workers, previous, args.samples)
        earlier = earlier_samples(generations, args.window - 1, previous, workers, args.samples)
        window = Samples.join([*earlier, samples])
        played = time.perf_counter()
        print(
            f"generation {number}: {int(samples.views.max()) + 1} decisions,"
            f" {len(window.policy):,} rows to train on, in {played - began:.0f} s"
        )
        start = None if previous is None else previous.weights
        result = train(window, start=start, epochs=args.epochs, seed=number, log=True)
        trained = time.perf_counter()
        network = result.network
        against_greedy = gate(network, None, workers, args.gate_seeds)
        against_previous = (
            against_greedy
            if previous is None
            else gate(network, previous, workers, args.gate_seeds)
        )
    matched = time.perf_counter()
    best = min(result.history, key=lambda e: e["held_out_policy"] + e["held_out_value"])
    entry: dict[str, Any] = {
        "generation": number,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "command": "python -m hanamikoji.bots.training"
        + (" --resume" if previous is not None else "")
        + f" --games {args.games} --iterations {args.iterations} --epochs {args.epochs}"
        + (f" --gate-seeds {args.gate_seeds}" if args.gate_seeds != GATE_SEEDS else "")
        + (f" --window {args.window}" if args.window != 1 else ""),
        # Generation 1 has no network before it: it is the start.
        "kept": previous is None or against_previous.interval[0] > 0.5,
        "games": [first, first + args.games - 1],
        "iterations": args.iterations,
        "guide": None if previous is None else previous.fingerprint(),
        "decisions": int(samples.views.max()) + 1,
        "rows": len(samples.policy),
        "window": [
            *(g["generation"] for g in generations[len(generations) - len(earlier) :]),
            number,
        ],
        "training_rows": len(window.policy),
        "seconds": {
            "self_play": round(played - began),
            "training": round(trained - played),
            "matches": round(matched - trained),
        },
        "held_out": {k: best[f"held_out_{k}"] for k in ("policy", "value", "agree")},
        "history": result.history,
        "against_previous": against_previous.to_json(),
        "against_greedy": against_greedy.to_json(),
        "sha256": network.fingerprint(),
    }
    return network, entry


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Train the learned policy and value by expert iteration, a generation a run."
    )
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    parser.add_argument("--games", type=int, default=2000, help="self-play games per generation")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="playouts per decision")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument(
        "--gate-seeds", type=int, default=GATE_SEEDS, help="seeds of each match (2 games each)"
    )
    parser.add_argument(
        "--window", type=int, default=1, help="train on the last W generations' samples"
    )
    parser.add_argument(
        "--samples", type=Path, default=default_store(), help="the folder of self-play samples"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes (Ray: local CPUs)")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="processes",
        help="where self-play and matches run: this machine's processes, or Ray (the"
        " cluster at RAY_ADDRESS, else a local instance); the results are the same",
    )
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="the checkpoint's folder")
    parser.add_argument("--log", type=Path, help="a Markdown file with the training log's block")
    args = parser.parse_args(argv)
    if not 0 < args.games <= GAMES_PER_GENERATION:
        parser.error(f"--games is 1 to {GAMES_PER_GENERATION}")
    if args.gate_seeds < 2:
        parser.error("--gate-seeds is at least 2")
    if args.window < 1:
        parser.error("--window is at least 1")
    previous: ValueNetwork | None = None
    recorded: dict[str, Any] = {"format": FORMAT, "generations": []}
    if args.resume:
        previous, recorded = _checkpoint(args.out)
    number = len(recorded["generations"]) + 1
    network, entry = run_generation(args, previous, recorded["generations"])
    recorded["generations"].append(entry)
    verdict = "kept" if entry["kept"] else "not kept: the checkpoint stays"
    print(f"generation {number} {verdict}; against the previous {entry['against_previous']}")
    if entry["kept"]:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / WEIGHTS_FILE).write_bytes(network.to_bytes())
        recorded["sha256"] = network.fingerprint()
    # Every generation counts (a rejected one's seeds are spent): its commands in order
    # rebuild the checkpoint.
    recorded["command"] = " && ".join(g["command"] for g in recorded["generations"])
    text = json.dumps(recorded, indent=1) + "\n"
    (args.out / MANIFEST_FILE).write_text(text, encoding="utf-8")
    if args.log is not None:
        write_log(args.log, recorded["generations"])


if __name__ == "__main__":
    main()
