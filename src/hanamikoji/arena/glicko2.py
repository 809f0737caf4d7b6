"""Glicko-2 ratings, as Mark Glickman's "Example of the Glicko-2 system" defines them.

Ratings go in and come out on the Glicko scale (a new player is 1500, deviation 350,
volatility 0.06); the steps of the paper work on the Glicko-2 scale, ``mu = (r - 1500)
/ 173.7178`` and ``phi = RD / 173.7178``. A rating period's results update one player
from the ratings everybody had when the period began (:func:`rate`); the online case,
where every game is its own period and both players are updated from their ratings
before the game, is :func:`rate_game`. A player who does not play in a period only
grows less certain (:func:`idle`). The paper's worked example:

>>> player = Rating(1500, 200, 0.06)
>>> results = [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0),
...            Result(Rating(1700, 300), 0)]
>>> after = rate(player, results, tau=0.5)
>>> after
Rating(rating=1464.0506..., deviation=151.5165..., volatility=0.0599959...)

The paper prints 1464.06, 151.52 and 0.05999: it converts its rounded ``mu' =
-0.2069`` and ``phi' = 0.8722`` back to the Glicko scale, and shows five decimals of
the volatility, cut rather than rounded; these values agree with them to that last
digit.

A rating whose deviation is above :data:`PROVISIONAL_DEVIATION` (110) is provisional:

>>> Rating().provisional, after.provisional, Rating(1650, 80).provisional
(True, True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CONVERGENCE",
    "DEFAULT_DEVIATION",
    "DEFAULT_RATING",
    "DEFAULT_TAU",
    "DEFAULT_VOLATILITY",
    "PROVISIONAL_DEVIATION",
    "SCALE",
    "Rating",
    "Result",
    "expected_score",
    "g",
    "idle",
    "new_volatility",
    "provisional",
    "rate",
    "rate_game",
]

SCALE = 173.7178
"""Glicko points per unit of the Glicko-2 scale (400 / ln 10, as the paper rounds it)."""

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
"""A new player's rating, deviation and volatility (the paper's defaults)."""

DEFAULT_TAU = 0.5
"""The system constant tau: how fast the volatility may change. The paper suggests
0.3 to 1.2 and uses 0.5 in its example; it is to be tuned on a system's own games."""

CONVERGENCE = 0.000001
"""The paper's convergence tolerance epsilon for the volatility iteration."""

PROVISIONAL_DEVIATION = 110.0
"""A rating with a deviation above this is provisional. It is lichess's threshold: a
new player (deviation 350) leaves it after 10 games against an opponent rated
1500 +- 50 (one game a period), and below it the 95%
interval (+- 1.96 deviations) is narrower than +- 216 points, within which a rating
says something about a player's strength."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` (1500 for a new player),
    ``deviation`` (one standard deviation of the rating; 350 for a new player) and
    ``volatility`` (how erratic the player's strength is; 0.06).

    >>> Rating(1620.5, 95.0).interval()
    (1434.3..., 1806.6...)
    """

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating is a finite number, not {self.rating}")
        if not (math.isfinite(self.deviation) and self.deviation >= 0):
            raise ValueError(f"a deviation is a finite number >= 0, not {self.deviation}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"a volatility is a finite number > 0, not {self.volatility}")

    @property
    def provisional(self) -> bool:
        """Whether the deviation is above :data:`PROVISIONAL_DEVIATION`."""
        return provisional(self)

    def interval(self, z: float = 1.959963984540054) -> tuple[float, float]:
        """The rating plus or minus ``z`` deviations (95% by default)."""
        return (self.rating - z * self.deviation, self.rating + z * self.deviation)


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a rating period: the opponent's rating when the period began and the
    player's ``score`` (1 a win, 1/2 a draw, 0 a loss)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if not 0 <= self.score <= 1:
            raise ValueError(f"a score is between 0 and 1, not {self.score}")


def provisional(rating: Rating, threshold: float = PROVISIONAL_DEVIATION) -> bool:
    """Whether ``rating``'s deviation is above ``threshold``: too few recent games for
    the rating to be trusted, shown as provisional.

    >>> provisional(Rating(1500, 110.0)), provisional(Rating(1500, 110.5))
    (False, True)
    """
    return rating.deviation > threshold


def g(phi: float) -> float:
    """The paper's ``g(phi)``: how much an opponent whose deviation is ``phi`` (Glicko-2
    scale) counts; 1 for a certain rating, less the less certain it is.

    >>> round(g(30 / SCALE), 4), round(g(300 / SCALE), 4)
    (0.9955, 0.7242)
    """
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _logistic(x: float) -> float:
    # 1 / (1 + exp(-x)) without overflow for either sign of x.
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    t = math.exp(x)
    return t / (1 + t)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    # The paper's E(mu, mu_j, phi_j).
    return _logistic(g(phi_j) * (mu - mu_j))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent``, as Glicko-2
    reckons it (the opponent's deviation flattens it towards 1/2).

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    >>> round(expected_score(Rating(1500), Rating(1500)), 3)
    0.5
    """
    return _expected(
        (player.rating - DEFAULT_RATING) / SCALE,
        (opponent.rating - DEFAULT_RATING) / SCALE,
        opponent.deviation / SCALE,
    )


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility ``sigma'``, the root of its ``f`` found by
    the Illinois algorithm (regula falsi that halves the stale end's value) to within
    :data:`CONVERGENCE`. ``phi``, ``v`` (the estimated variance of the rating from the
    games) and ``delta`` (the estimated improvement) are on the Glicko-2 scale.

    >>> new_volatility(1.1513, 0.06, 1.7785, -0.4834, 0.5)
    0.059995...
    """
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    low = a
    if delta * delta > phi2 + v:
        high = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def _pre_period(phi: float, sigma: float) -> float:
    # Step 6: phi*, the deviation grown by one period's volatility.
    return math.sqrt(phi * phi + sigma * sigma)


def rate(player: Rating, results: Sequence[Result], tau: float = DEFAULT_TAU) -> Rating:
    """``player``'s rating after a rating period with ``results`` (each against the
    opponent's rating at the start of the period), steps 2-8 of the paper. With no
    results only the deviation grows, to the paper's ``phi*``:

    >>> round(rate(Rating(1500, 200, 0.06), []).deviation, 2)
    200.27
    """
    if tau <= 0:
        raise ValueError(f"tau is positive, not {tau}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Rating(player.rating, _pre_period(phi, sigma) * SCALE, sigma)
    information = 0.0  # 1 / v
    surprise = 0.0  # sum of g(phi_j) (s_j - E_j): delta / v
    for result in results:
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        g_j = g(result.opponent.deviation / SCALE)
        e_j = _logistic(g_j * (mu - mu_j))
        information += g_j * g_j * e_j * (1 - e_j)
        surprise += g_j * (result.score - e_j)
    if information <= 0:
        raise ValueError("the opponents' ratings are too far from the player's to rate")
    v = 1 / information
    sigma_new = new_volatility(phi, sigma, v, v * surprise, tau)
    phi_star = _pre_period(phi, sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + information)
    mu_new = mu + phi_new * phi_new * surprise
    return Rating(DEFAULT_RATING + SCALE * mu_new, SCALE * phi_new, sigma_new)


def rate_game(
    a: Rating, b: Rating, score_a: float, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """The online case: one game is one rating period. Both players are updated from
    their ratings before the game; ``score_a`` is A's score (B's is ``1 - score_a``).

    >>> winner, loser = rate_game(Rating(), Rating(), 1)
    >>> round(winner.rating, 1), round(loser.rating, 1), round(winner.deviation, 1)
    (1662.3, 1337.7, 290.3)
    """
    return (
        rate(a, [Result(b, score_a)], tau),
        rate(b, [Result(a, 1 - score_a)], tau),
    )


def idle(player: Rating, periods: int = 1, ceiling: float = DEFAULT_DEVIATION) -> Rating:
    """``player`` after ``periods`` rating periods without a game: step 6 of the paper
    once per period (the deviation grows as ``sqrt(RD^2 + periods (173.7178 sigma)^2)``;
    rating and volatility stay), up to ``ceiling``, a new player's deviation, as in
    Glickman's Glicko: a long absence leaves a player no less known than a newcomer,
    never less. A deviation already above the ceiling stays as it is.

    >>> round(idle(Rating(1800, 50, 0.06), periods=10).deviation, 1)
    59.9
    >>> idle(Rating(1800, 50, 0.06), periods=10_000).deviation
    350.0
    """
    if periods < 0:
        raise ValueError(f"a number of periods is not negative, not {periods}")
    step = player.volatility * SCALE
    grown = math.sqrt(player.deviation**2 + periods * step * step)
    if grown > ceiling:
        grown = max(ceiling, player.deviation)
    return Rating(player.rating, grown, player.volatility)
