"""Ratings fitted to a round-robin's scores: maximum likelihood of the logistic model
that Elo and Glicko share.

Player ``i`` rated ``r_i`` is expected to score ``1 / (1 + 10^((r_j - r_i) / 400))``
against player ``j`` (Glicko's expectation for an opponent of deviation 0). Given every
pairing's games and score (a draw half a point, as the arena counts it), the ratings
that make the scores most likely are found by Newton's method; one player, the anchor,
is fixed at a given rating, since the model only sees differences. Each deviation is
the standard error from the observed information (the inverse of the log-likelihood's
curvature), relative to the anchor, which has none.

A sweep would have no finite maximum, so every pairing's score is first kept half a
game from a sweep, as the arena's Elo difference is (``docs/arena.md``). The games of a
duplicate pair share their deal's luck, and the model counts them as independent, so
the deviations err on the wide side, as the arena's Wilson intervals do.

>>> fit = fit_ratings(["a", "b", "c"], [PairScore("a", "b", 100, 36), PairScore("b", "c",
...     100, 36), PairScore("a", "c", 100, 24)], anchor="a", anchor_rating=1000)
>>> {name: round(r.rating) for name, r in fit.items()}
{'a': 1000, 'b': 1100, 'c': 1200}
>>> round(fit["c"].deviation)
32
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["ELO_SCALE", "FittedRating", "PairScore", "fit_ratings"]

ELO_SCALE = 400 / math.log(10)
"""Rating points per unit of log-odds (173.7178: Glicko-2's scale)."""

_TOLERANCE = 1e-10
_MAX_STEPS = 100


@dataclass(frozen=True, slots=True)
class PairScore:
    """``a``'s ``score`` over ``games`` games against ``b`` (a draw counts 1/2)."""

    a: str
    b: str
    games: int
    score: float

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a pairing is two different players, not {self.a!r} twice")
        if self.games <= 0 or not 0 <= self.score <= self.games:
            raise ValueError(f"a score of {self.score} over {self.games} games")


@dataclass(frozen=True, slots=True)
class FittedRating:
    """A fitted rating and its standard error (0 for the anchor)."""

    rating: float
    deviation: float

    def interval(self, z: float = 1.959963984540054) -> tuple[float, float]:
        """The rating plus or minus ``z`` standard errors (95% by default)."""
        return (self.rating - z * self.deviation, self.rating + z * self.deviation)


def _tables(
    players: Sequence[str], scores: Sequence[PairScore]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    # games[i, j]: games between i and j; points[i, j]: i's score against j, each
    # pairing's total kept half a game from a sweep.
    index = {name: i for i, name in enumerate(players)}
    n = len(players)
    games = np.zeros((n, n))
    points = np.zeros((n, n))
    for pair in scores:
        if pair.a not in index or pair.b not in index:
            raise ValueError(f"{pair.a!r} or {pair.b!r} is not one of {list(players)}")
        i, j = index[pair.a], index[pair.b]
        games[i, j] += pair.games
        games[j, i] += pair.games
        points[i, j] += pair.score
        points[j, i] += pair.games - pair.score
    margin = np.minimum(0.5, games / 2)
    points = np.clip(points, margin, games - margin)
    return games, points


def _connected(games: npt.NDArray[np.float64]) -> bool:
    seen, frontier = {0}, [0]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(games[i]):
            if int(j) not in seen:
                seen.add(int(j))
                frontier.append(int(j))
    return len(seen) == len(games)


def _log_likelihood(
    theta: npt.NDArray[np.float64],
    games: npt.NDArray[np.float64],
    points: npt.NDArray[np.float64],
) -> float:
    diff = theta[:, None] - theta[None, :]
    # points[i, j] * log p_ij over ordered pairs counts each pairing's wins and losses.
    return float(np.sum(points * -np.logaddexp(0.0, -diff)))


def _newton_step(
    theta: npt.NDArray[np.float64],
    games: npt.NDArray[np.float64],
    points: npt.NDArray[np.float64],
    free: npt.NDArray[np.intp],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    # The step for the free players, and the information matrix (minus the Hessian).
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    gradient = np.sum(points - games * p, axis=1)
    weights = games * p * p.T
    information = np.diag(weights.sum(axis=1)) - weights
    reduced = information[np.ix_(free, free)]
    return np.linalg.solve(reduced, gradient[free]), reduced


def fit_ratings(
    players: Sequence[str],
    scores: Sequence[PairScore],
    anchor: str,
    anchor_rating: float,
) -> dict[str, FittedRating]:
    """The maximum-likelihood ratings of ``players`` from ``scores``, with ``anchor``
    fixed at ``anchor_rating``. Raises ``ValueError`` when the pairings do not connect
    every player (their ratings would not be comparable)."""
    if len(set(players)) != len(players) or anchor not in players:
        raise ValueError(f"players are distinct names and include the anchor {anchor!r}")
    games, points = _tables(players, scores)
    if not _connected(games):
        raise ValueError("the pairings do not connect every player")
    anchor_index = list(players).index(anchor)
    free = np.array([i for i in range(len(players)) if i != anchor_index], dtype=np.intp)
    theta = np.zeros(len(players))
    for _ in range(_MAX_STEPS):
        step, information = _newton_step(theta, games, points, free)
        before = _log_likelihood(theta, games, points)
        scale = 1.0
        while True:  # the log-likelihood is concave: a short enough step never loses
            trial = theta.copy()
            trial[free] += scale * step
            if _log_likelihood(trial, games, points) >= before - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta = trial
        if float(np.max(np.abs(scale * step))) < _TOLERANCE:
            break
    _, information = _newton_step(theta, games, points, free)
    variances = np.zeros(len(players))
    variances[free] = np.diag(np.linalg.inv(information))
    return {
        name: FittedRating(
            anchor_rating + ELO_SCALE * float(theta[i]),
            ELO_SCALE * math.sqrt(float(variances[i])),
        )
        for i, name in enumerate(players)
    }
