"""Glicko-2 (hanamikoji.arena.glicko2): Glickman's worked example, and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.arena.glicko2 import (
    DEFAULT_DEVIATION,
    SCALE,
    Rating,
    Result,
    expected_score,
    g,
    idle,
    new_volatility,
    provisional,
    rate,
    rate_game,
)

# "Example of the Glicko-2 system" (Glickman): a player rated 1500, deviation 200,
# volatility 0.06 plays three opponents in one period with tau = 0.5.
PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = (Rating(1400, 30), Rating(1550, 100), Rating(1700, 300))
SCORES = (1.0, 0.0, 0.0)
EXAMPLE = [Result(o, s) for o, s in zip(OPPONENTS, SCORES, strict=True)]


def test_the_papers_worked_example_to_its_printed_precision() -> None:
    after = rate(PLAYER, EXAMPLE, tau=0.5)
    # On the Glicko-2 scale the paper prints mu' = -0.2069 and phi' = 0.8722.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    # On the Glicko scale it prints 1464.06, 151.52 and 0.05999, converted from those
    # rounded values: within one unit of the last printed digit.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_intermediate_values() -> None:
    phi = 200 / SCALE
    assert round(phi, 4) == 1.1513
    gs = [g(o.deviation / SCALE) for o in OPPONENTS]
    assert [round(x, 4) for x in gs] == [0.9955, 0.9531, 0.7242]
    es = [expected_score(PLAYER, o) for o in OPPONENTS]
    assert [round(e, 3) for e in es] == [0.639, 0.432, 0.303]
    # The paper works v and delta out from g and E rounded as printed above, which moves
    # them in the fourth decimal: 1.7785 and -0.4834 there, 1.77898 and -0.48343 here.
    v = 1 / sum(gj * gj * e * (1 - e) for gj, e in zip(gs, es, strict=True))
    assert v == pytest.approx(1.7785, abs=0.001)
    delta = v * sum(gj * (s - e) for gj, s, e in zip(gs, SCORES, es, strict=True))
    assert delta == pytest.approx(-0.4834, abs=0.001)
    sigma = new_volatility(phi, 0.06, v, delta, 0.5)
    assert sigma == pytest.approx(0.05999, abs=0.00001)
    # Step 6: phi* = sqrt(phi^2 + sigma'^2) = 1.152862 in the paper, from phi = 1.1513.
    assert math.hypot(1.1513, sigma) == pytest.approx(1.152862, abs=1e-6)


def test_no_games_grows_the_deviation_to_phi_star() -> None:
    after = rate(PLAYER, [])
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    assert after.deviation == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06**2))


def test_idle_grows_with_the_periods_up_to_a_new_players_deviation() -> None:
    start = Rating(1800, 50, 0.06)
    assert idle(start, 0) == start
    assert idle(start, 4).deviation == pytest.approx(math.hypot(50, 2 * 0.06 * SCALE))
    assert idle(idle(start, 3), 5).deviation == pytest.approx(idle(start, 8).deviation)
    assert idle(start, 10**6).deviation == DEFAULT_DEVIATION
    assert idle(Rating(1500, 400), 1).deviation == 400
    with pytest.raises(ValueError):
        idle(start, -1)


def test_provisional_is_a_deviation_above_110() -> None:
    assert provisional(Rating())
    assert not provisional(Rating(1500, 110))
    assert provisional(Rating(1500, 110.01))
    assert not Rating(2100, 45).provisional
    assert provisional(Rating(1500, 90), threshold=80)


def test_a_new_player_leaves_provisional_after_ten_games() -> None:
    player, games = Rating(), 0
    while player.provisional:
        player, _ = rate_game(player, Rating(1500, 50), games % 2)
        games += 1
    assert games == 10


@pytest.mark.parametrize(
    ("rating", "deviation", "volatility"),
    [(math.nan, 100, 0.06), (1500, -1, 0.06), (1500, math.inf, 0.06), (1500, 100, 0)],
)
def test_ratings_out_of_range_are_refused(
    rating: float, deviation: float, volatility: float
) -> None:
    with pytest.raises(ValueError):
        Rating(rating, deviation, volatility)


def test_scores_and_tau_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError):
        Result(Rating(), 1.5)
    with pytest.raises(ValueError):
        rate(Rating(), [Result(Rating(), 1)], tau=0)


# -- properties -------------------------------------------------------------------------

ratings = st.builds(
    Rating,
    rating=st.floats(0, 3500),
    deviation=st.floats(30, 350),
    volatility=st.floats(0.01, 0.2),
)
scores = st.sampled_from([0.0, 0.5, 1.0])
taus = st.floats(0.2, 1.2)
periods = st.lists(st.builds(Result, ratings, scores), min_size=1, max_size=8)


@settings(max_examples=300)
@given(ratings, st.lists(st.builds(Result, ratings, scores), max_size=6), ratings, taus)
def test_a_win_never_lowers_the_rating(
    player: Rating, others: list[Result], opponent: Rating, tau: float
) -> None:
    # Against any opponent alone, and compared with a loss in the same period.
    assert rate(player, [Result(opponent, 1)], tau).rating >= player.rating
    won = rate(player, [*others, Result(opponent, 1)], tau).rating
    lost = rate(player, [*others, Result(opponent, 0)], tau).rating
    assert won >= lost


@settings(max_examples=300)
@given(ratings, periods, taus)
def test_deviation_never_grows_by_playing(
    player: Rating, results: list[Result], tau: float
) -> None:
    played = rate(player, results, tau)
    # The games only add information: the deviation ends no larger than the paper's phi*
    # for the new volatility. A surprising result may raise the volatility, and phi*
    # with it (a player rated 504 +- 30, volatility 0.125, losing to one rated 0 +- 30
    # at tau 1 ends less certain than had they not played); while the volatility does
    # not grow, playing leaves the deviation no larger than sitting the period out.
    phi_star = math.hypot(player.deviation, played.volatility * SCALE)
    assert played.deviation <= phi_star
    if played.volatility <= player.volatility:
        assert played.deviation <= rate(player, []).deviation


@settings(max_examples=300)
@given(ratings, scores, taus)
def test_symmetric_players_get_symmetric_results(player: Rating, score: float, tau: float) -> None:
    a, b = rate_game(player, player, score, tau)
    assert a.rating - player.rating == pytest.approx(player.rating - b.rating, abs=1e-9)
    assert a.deviation == pytest.approx(b.deviation)
    assert a.volatility == pytest.approx(b.volatility)
    if score == 0.5:
        assert a.rating == pytest.approx(player.rating, abs=1e-9)
    # Swapping the players swaps the results.
    c, d = rate_game(player, player, 1 - score, tau)
    assert (c.rating, d.rating) == pytest.approx((b.rating, a.rating))


@settings(max_examples=300)
@given(ratings, periods, taus)
def test_a_period_stays_within_its_bounds(
    player: Rating, results: list[Result], tau: float
) -> None:
    after = rate(player, results, tau)
    assert after.deviation > 0 and after.volatility > 0
    # mu' - mu = phi'^2 * sum of g (s - E), each term less than 1 in size.
    change = abs(after.rating - player.rating)
    assert change <= after.deviation**2 / SCALE * len(results)
    if all(r.score == 1 for r in results):
        assert after.rating >= player.rating
    if all(r.score == 0 for r in results):
        assert after.rating <= player.rating


@settings(max_examples=200)
@given(ratings, ratings)
def test_expected_scores_lie_between_zero_and_one_and_favour_the_higher(
    a: Rating, b: Rating
) -> None:
    e = expected_score(a, b)
    assert 0 <= e <= 1
    if a.rating > b.rating:
        assert e >= 0.5
    assert expected_score(a, Rating(a.rating, b.deviation)) == pytest.approx(0.5)
