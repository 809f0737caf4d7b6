"""Match statistics: score, Wilson score interval, Elo difference, duplicate pairs.

All functions are pure. A game scores 1 for a win, 1/2 for a draw (or shared win) and
0 for a loss; a match's score rate is its score over its games.

>>> wilson_interval(10, 20)
(0.29929..., 0.70070...)
>>> round(elo_difference(0.75), 1)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = [
    "PAIR_OUTCOMES",
    "Z_95",
    "elo_difference",
    "elo_interval",
    "pair_distribution",
    "pair_outcome",
    "score",
    "wilson_interval",
]

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

PAIR_OUTCOMES = ("2-0", "1.5-0.5", "1-1", "0.5-1.5", "0-2")
"""The score of one seed's two games (seats swapped), best first for the first player."""


def score(wins: int, draws: int) -> float:
    """Wins plus half the draws.

    >>> score(7, 2)
    8.0
    """
    if min(wins, draws) < 0:
        raise ValueError("counts of games are not negative")
    return wins + draws / 2


def wilson_interval(points: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (Wilson, 1927) of a score rate: ``points`` out of ``games``.

    Draws count half a point, so ``points`` may be a half-integer; the interval is the
    set of rates ``p`` for which the observed rate lies within ``z`` standard errors
    ``sqrt(p (1 - p) / games)`` of ``p``. Unlike the normal approximation it never
    leaves [0, 1] and is not empty at a score of 0 or 100%.
    """
    if games <= 0:
        raise ValueError("an interval needs at least one game")
    if not 0 <= points <= games:
        raise ValueError(f"{points} points is not between 0 and {games} games")
    rate = points / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / denominator
    half = z / denominator * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games))
    # At a score of 0 or 100% one end is exactly 0 or 1; rounding would leave it a hair off.
    low = 0.0 if points == 0 else max(0.0, centre - half)
    high = 1.0 if points == games else min(1.0, centre + half)
    return (low, high)


def _clamped(rate: float, games: int) -> float:
    # A score of 0 or 100% means an infinite Elo difference; the data cannot tell more
    # than half a game, so the rate is kept at least half a game from either end.
    margin = 1 / (2 * games)
    return min(max(rate, margin), 1 - margin)


def elo_difference(rate: float, games: int | None = None) -> float:
    """The Elo difference that predicts score rate ``rate``: ``-400 log10(1 / rate - 1)``.

    With ``games`` given, ``rate`` is first clamped to ``[1 / (2 games), 1 - 1 / (2 games)]``
    (half a game from a clean sweep), so a sweep gives a finite difference that grows
    with the number of games; without it, ``rate`` must lie strictly between 0 and 1.

    >>> elo_difference(0.5)
    0.0
    >>> round(elo_difference(1.0, games=20), 1)
    636.4
    """
    if games is not None:
        if games <= 0:
            raise ValueError("an Elo difference needs at least one game")
        rate = _clamped(rate, games)
    if not 0 < rate < 1:
        raise ValueError(f"a score rate of {rate} has no finite Elo difference")
    return 400 * math.log10(rate / (1 - rate))


def elo_interval(points: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Elo differences at the ends of the Wilson interval (each end clamped as in
    :func:`elo_difference`). Elo is increasing in the rate, so the ends map to the ends."""
    low, high = wilson_interval(points, games, z)
    return (elo_difference(low, games), elo_difference(high, games))


def pair_outcome(first: float, second: float) -> str:
    """The :data:`PAIR_OUTCOMES` label of one player's scores in a seed's two games."""
    total = first + second
    for label in PAIR_OUTCOMES:
        if float(label.split("-")[0]) == total:
            return label
    raise ValueError(f"a pair of games scores 0 to 2 in half points, not {total}")


def pair_distribution(pairs: Iterable[tuple[float, float]]) -> dict[str, int]:
    """How many seeds ended with each :data:`PAIR_OUTCOMES` label (all labels present)."""
    counts = dict.fromkeys(PAIR_OUTCOMES, 0)
    for first, second in pairs:
        counts[pair_outcome(first, second)] += 1
    return counts
