"""Fitting the network to samples: its forward and backward passes, the policy and
value losses, Adam, epochs with a held-out share of the games."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hanamikoji.bots.network import INPUT_SIZE, OUTPUTS, POLICY, SCALE, VALUE, ValueNetwork
from hanamikoji.training.samples import Array, Samples

__all__ = ["TrainingResult", "initial_weights", "train"]


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
