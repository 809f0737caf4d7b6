"""Match statistics: score, Wilson score interval, Elo difference, duplicate pairs, the
paired comparison of two players on the same games, and the normal interval of a mean.

All functions are pure. A game scores 1 for a win, 1/2 for a draw (or shared win) and
0 for a loss; a match's score rate is its score over its games.

>>> wilson_interval(10, 20)
(0.29929..., 0.70070...)
>>> round(elo_difference(0.75), 1)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "PAIR_OUTCOMES",
    "Z_95",
    "PairedComparison",
    "elo_difference",
    "elo_interval",
    "mean_interval",
    "pair_distribution",
    "pair_outcome",
    "paired_comparison",
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


@dataclass(frozen=True)
class PairedComparison:
    """Two players' scores on the same games (the same deals, seats and opponent), game
    by game: how often each did better, and the difference of their score rates."""

    games: int
    first: float
    second: float
    first_better: int
    second_better: int
    difference: float
    interval: tuple[float, float]
    p_value: float
    """Two-sided, of the sign test on the games where they differ: the chance of a split
    at least this uneven if each were as likely to do better."""


def paired_comparison(scores: Iterable[tuple[float, float]], z: float = Z_95) -> PairedComparison:
    """Compare two players from their scores on the same games, game by game.

    Pairing cancels how good each deal was: only the games where their results differ
    tell them apart. The interval of the difference of the rates is the normal one of
    the mean of the per-game differences; the sign test (exact) asks whether the games
    where one did better split unevenly.

    >>> compared = paired_comparison([(1, 1)] * 50 + [(1, 0)] * 12 + [(0, 1)] * 4 + [(0, 0)] * 34)
    >>> compared.first, compared.second, compared.first_better, compared.second_better
    (62.0, 54.0, 12, 4)
    >>> round(compared.difference, 2), round(compared.p_value, 3)
    (0.08, 0.077)
    """
    differences: list[float] = []
    first = second = 0.0
    for one, other in scores:
        for value in (one, other):
            if value not in (0, 0.5, 1):
                raise ValueError(f"a game scores 0, 1/2 or 1, not {value}")
        first += one
        second += other
        differences.append(one - other)
    games = len(differences)
    if games < 2:
        raise ValueError("a paired comparison needs at least two games")
    mean, interval = mean_interval(differences, z)
    first_better = sum(1 for value in differences if value > 0)
    second_better = sum(1 for value in differences if value < 0)
    return PairedComparison(
        games=games,
        first=first,
        second=second,
        first_better=first_better,
        second_better=second_better,
        difference=mean,
        interval=interval,
        p_value=_sign_test(first_better, second_better),
    )


def mean_interval(values: Sequence[float], z: float = Z_95) -> tuple[float, tuple[float, float]]:
    """The mean of ``values`` and its normal interval: ``z`` standard errors of the
    mean (from the sample's standard deviation) either side.

    >>> mean, (low, high) = mean_interval([0.0, 0.1, 0.2, 0.1])
    >>> round(mean, 3), round(low, 3), round(high, 3)
    (0.1, 0.02, 0.18)
    """
    count = len(values)
    if count < 2:
        raise ValueError("the interval of a mean needs at least two values")
    mean = sum(values) / count
    variance = sum((value - mean) ** 2 for value in values) / (count - 1)
    margin = z * math.sqrt(variance / count)
    return mean, (mean - margin, mean + margin)


def _sign_test(successes: int, failures: int) -> float:
    """The two-sided exact binomial test of an even split, by doubling the smaller tail."""
    trials = successes + failures
    if trials == 0:
        return 1.0
    tail = sum(math.comb(trials, k) for k in range(min(successes, failures) + 1))
    return min(1.0, 2 * tail / 2.0**trials)
