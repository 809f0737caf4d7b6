"""Train the learned evaluation of :mod:`hanamikoji.bots.network` by deep Monte Carlo.

Self-play games are played by a behaviour policy: the greedy judge's choice, except
that each decision explores with probability ``explore`` (half of the time one of the
judge's four best, half of the time any legal decision), so the network sees the
value of decisions the judge would not make. Every (view, decision) pair is then
labelled with the decider's return: the match value of the board the round left
(the match-value table's chance to win from it, 1/0/0.5 if the match ended). The
network regresses on those returns (cross-entropy on the sigmoid output); there is
no bootstrapping, as in DouZero (Zha et al., 2021).

Rebuild the committed weights with the command recorded in
``data/value_network.json`` (``python -m hanamikoji.bots.training``): games are
spread over processes in fixed seed ranges, and training is seeded, so the same
command on the same machine gives the same weights.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hanamikoji.bots.evaluation import round_end_value
from hanamikoji.bots.greedy import GreedyBot, best_first
from hanamikoji.bots.match_table import table_match_value
from hanamikoji.bots.network import (
    INPUT_SIZE,
    MANIFEST_FILE,
    SCALE,
    WEIGHTS_FILE,
    ValueNetwork,
    action_features,
    judge_features,
    state_features,
)
from hanamikoji.core.game import Game

__all__ = ["Samples", "TrainingResult", "play_games", "train"]

Features = npt.NDArray[np.float32]
Targets = npt.NDArray[np.float32]
Array = npt.NDArray[np.float32]

DATA_DIR = Path(__file__).with_name("data")
VARIANT_MIX = ("classic", "classic", "classic", "three-rounds")
"""Games cycle through these variants (most players play the classic one)."""
TOP = 4


@dataclass
class Samples:
    """Feature rows (raw, before :data:`~hanamikoji.bots.network.SCALE`), their returns,
    and the game each came from."""

    features: Features
    targets: Targets
    games: npt.NDArray[np.int32]


_behaviour: dict[bytes, ValueNetwork] = {}


def play_games(first: int, count: int, explore: float, behaviour: bytes | None = None) -> Samples:
    """Self-play games ``first .. first + count - 1`` (each its own seed), decisions
    ranked by the judge, or by the network whose weights are ``behaviour``."""
    network = None
    if behaviour is not None:
        if behaviour not in _behaviour:
            _behaviour[behaviour] = ValueNetwork.from_bytes(behaviour)
        network = _behaviour[behaviour]
    rows: list[list[float]] = []
    targets: list[float] = []
    games: list[int] = []
    for number in range(first, first + count):
        rng = random.Random(number)
        judge = GreedyBot(seed=number)
        game = Game(VARIANT_MIX[number % len(VARIANT_MIX)], seed=number, first_player=number % 2)
        pending: list[tuple[int, int]] = []  # (row, seat) of this round's decisions
        current = game.round
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            legal = game.legal_moves()
            view = game.view(seat)
            if len(legal) == 1:
                move = legal[0]
            else:
                scores = judge.scores(view, legal)
                if network is None:
                    worth = scores
                else:
                    values = network.values(view, legal, scores)
                    worth = {m: float(v) for m, v in zip(legal, values, strict=True)}
                ranked = best_first(legal, worth)
                if rng.random() < explore:
                    pool = ranked[:TOP] if rng.random() < 0.5 else ranked
                    move = pool[rng.randrange(len(pool))]
                else:
                    move = ranked[0]
                pending.append((len(rows), seat))
                judged = judge_features([scores[m] for m in legal])[legal.index(move)]
                rows.append([*state_features(view), *action_features(move), *judged])
                targets.append(0.0)
                games.append(number)
            game.push(move)
            if game.round != current or game.is_over():
                # The round is scored: label its decisions with what it left.
                for row, decider in pending:
                    targets[row] = round_end_value(game, decider, table_match_value)
                pending = []
                current = game.round
    return Samples(
        np.asarray(rows, dtype=np.float32).reshape(-1, INPUT_SIZE),
        np.asarray(targets, dtype=np.float32),
        np.asarray(games, dtype=np.int32),
    )


def _collect(
    games: int, seed: int, explore: float, jobs: int, behaviour: ValueNetwork | None
) -> Samples:
    chunk = 250
    starts = list(range(seed, seed + games, chunk))
    sizes = [min(chunk, seed + games - start) for start in starts]
    weights = None if behaviour is None else behaviour.to_bytes()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(
            pool.map(
                play_games,
                starts,
                sizes,
                [explore] * len(starts),
                [weights] * len(starts),
            )
        )
    return Samples(
        np.concatenate([p.features for p in parts]),
        np.concatenate([p.targets for p in parts]),
        np.concatenate([p.games for p in parts]),
    )


@dataclass
class TrainingResult:
    network: ValueNetwork
    history: list[dict[str, float]]


def _init(rng: np.random.Generator, hidden: tuple[int, int]) -> dict[str, Array]:
    sizes = (INPUT_SIZE, *hidden, 1)
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
    logits = (h2 @ w["w3"] + w["b3"])[:, 0]
    return h1, h2, logits


def _losses(w: dict[str, Array], x: Array, y: Targets) -> tuple[float, float]:
    """Cross-entropy and mean squared error of the predicted chances."""
    p = 1.0 / (1.0 + np.exp(-_forward(w, x)[2]))
    eps = 1e-6
    entropy = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
    return float(entropy), float(np.mean((p - y) ** 2))


def train(
    samples: Samples,
    hidden: tuple[int, int] = (256, 128),
    epochs: int = 12,
    batch: int = 512,
    rate: float = 1e-3,
    seed: int = 0,
    held_out: float = 0.1,
    log: bool = False,
) -> TrainingResult:
    """Fit the network to ``samples`` (Adam on cross-entropy). The last ``held_out``
    share of the games is kept aside: the weights returned are those of the epoch with
    the lowest loss on them."""
    rng = np.random.default_rng(seed)
    x_all = samples.features / SCALE
    y_all = samples.targets
    games = np.unique(samples.games)
    cut = games[int(len(games) * (1.0 - held_out))] if held_out > 0 else games[-1] + 1
    fit, check = samples.games < cut, samples.games >= cut
    x, y = x_all[fit], y_all[fit]
    x_check, y_check = x_all[check], y_all[check]
    w = _init(rng, hidden)
    moments = {name: np.zeros_like(value) for name, value in w.items()}
    squares = {name: np.zeros_like(value) for name, value in w.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    history: list[dict[str, float]] = []
    best: tuple[float, dict[str, Array]] | None = None
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        lr = rate * (0.5 ** (epoch / max(1, epochs // 3)))
        for start in range(0, len(order), batch):
            index = order[start : start + batch]
            xb, yb = x[index], y[index]
            h1, h2, logits = _forward(w, xb)
            # d(cross-entropy)/d(logit) = p - y, averaged over the batch.
            d3 = ((1.0 / (1.0 + np.exp(-logits)) - yb) / len(index))[:, None].astype(np.float32)
            d2 = (d3 @ w["w3"].T) * (h2 > 0)
            d1 = (d2 @ w["w2"].T) * (h1 > 0)
            grads = {
                "w3": h2.T @ d3,
                "b3": d3.sum(axis=0),
                "w2": h1.T @ d2,
                "b2": d2.sum(axis=0),
                "w1": xb.T @ d1,
                "b1": d1.sum(axis=0),
            }
            step += 1
            for name, grad in grads.items():
                moments[name] = beta1 * moments[name] + (1 - beta1) * grad
                squares[name] = beta2 * squares[name] + (1 - beta2) * grad * grad
                m_hat = moments[name] / (1 - beta1**step)
                v_hat = squares[name] / (1 - beta2**step)
                w[name] = (w[name] - lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)
        entry = {"epoch": float(epoch + 1)}
        entry["fit_entropy"], entry["fit_mse"] = _losses(w, x[:50_000], y[:50_000])
        if len(x_check):
            entry["held_out_entropy"], entry["held_out_mse"] = _losses(w, x_check, y_check)
        history.append(entry)
        # Keep the epoch that did best on the games it never saw: returns are noisy,
        # and later epochs start to learn the noise.
        score = entry.get("held_out_entropy", -float(epoch))
        if best is None or score < best[0]:
            best = (score, {name: value.copy() for name, value in w.items()})
        if log:
            print(
                "  ".join(
                    f"{k} {v:.5f}" if k != "epoch" else f"epoch {v:.0f}" for k, v in entry.items()
                )
            )
    assert best is not None
    return TrainingResult(ValueNetwork(best[1]), history)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Retrain the learned evaluation (deep Monte Carlo)."
    )
    parser.add_argument("--games", type=int, default=100_000, help="self-play games per generation")
    parser.add_argument("--generations", type=int, default=1, help="rounds of policy iteration")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed (and training's)")
    parser.add_argument("--explore", type=float, default=0.15)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="folder for the two files")
    args = parser.parse_args(argv)
    network: ValueNetwork | None = None
    generations: list[dict[str, Any]] = []
    for generation in range(args.generations):
        # Generation 1 plays by the judge, each later one by the network before it.
        first = args.seed + generation * args.games
        started = time.perf_counter()
        samples = _collect(args.games, first, args.explore, args.jobs, network)
        played = time.perf_counter() - started
        print(f"generation {generation + 1}: {len(samples.targets)} decisions in {played:.0f} s")
        result = train(samples, epochs=args.epochs, seed=args.seed + generation, log=True)
        trained = time.perf_counter() - started - played
        network = result.network
        generations.append(
            {
                "behaviour": "greedy" if generation == 0 else f"generation {generation}",
                "games": [first, first + args.games - 1],
                "decisions": len(samples.targets),
                "mean_return": float(samples.targets.mean()),
                "history": result.history,
                "seconds": {"self_play": round(played), "training": round(trained)},
                "sha256": network.fingerprint(),
            }
        )
    assert network is not None
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / WEIGHTS_FILE).write_bytes(network.to_bytes())
    manifest: dict[str, Any] = {
        "format": "hanamikoji-value-network",
        "sha256": network.fingerprint(),
        "command": "python -m hanamikoji.bots.training "
        f"--games {args.games} --generations {args.generations} --seed {args.seed} "
        f"--explore {args.explore} --epochs {args.epochs} --jobs {args.jobs}",
        "generations": generations,
    }
    (args.out / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out / WEIGHTS_FILE} ({network.fingerprint()[:12]})")


if __name__ == "__main__":
    main()
