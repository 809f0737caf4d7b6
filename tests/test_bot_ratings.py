"""The levels' ratings: the maximum-likelihood fit (hanamikoji.arena.rating_fit), the
data file and its loader (hanamikoji.bots.ratings), and benchmarks/bot_ratings.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import load_benchmark

from hanamikoji.arena import MatchConfig, Plan, PlayerSpec, ProcessBackend, run_plan
from hanamikoji.arena.rating_fit import ELO_SCALE, PairScore, fit_ratings
from hanamikoji.bots import ratings
from hanamikoji.bots.levels import LEVELS
from hanamikoji.bots.ratings import (
    ANCHOR_LEVEL,
    ANCHOR_RATING,
    DATA_PATH,
    bot_rating,
    current_table,
    rated_variants,
)
from hanamikoji.core import Variant


def expected(a: float, b: float) -> float:
    return 1 / (1 + 10 ** ((b - a) / 400))


# -- the fit ----------------------------------------------------------------------------


def test_the_fit_recovers_the_ratings_behind_exact_scores() -> None:
    truth = {"a": 1200.0, "b": 1530.0, "c": 1610.0, "d": 1900.0}
    names = list(truth)
    scores = [
        PairScore(x, y, 50, 50 * expected(truth[x], truth[y]))
        for i, x in enumerate(names)
        for y in names[i + 1 :]
    ]
    fit = fit_ratings(names, scores, anchor="a", anchor_rating=1200)
    for name, rating in truth.items():
        assert fit[name].rating == pytest.approx(rating, abs=1e-6)
    assert fit["a"].deviation == 0
    # The anchor only shifts the scale.
    shifted = fit_ratings(names, scores, anchor="b", anchor_rating=0)
    assert shifted["d"].rating - shifted["c"].rating == pytest.approx(290, abs=1e-6)


def test_two_players_deviation_is_the_binomial_standard_error() -> None:
    fit = fit_ratings(["x", "y"], [PairScore("x", "y", 64, 48)], "x", 1000)
    assert fit["y"].rating == pytest.approx(1000 - 400 * math.log10(3))
    p = 0.75
    assert fit["y"].deviation == pytest.approx(ELO_SCALE / math.sqrt(64 * p * (1 - p)))
    quadrupled = fit_ratings(["x", "y"], [PairScore("x", "y", 256, 192)], "x", 1000)
    assert quadrupled["y"].deviation == pytest.approx(fit["y"].deviation / 2)
    low, high = quadrupled["y"].interval()
    assert low < quadrupled["y"].rating < high


def test_a_sweep_is_kept_half_a_game_from_it() -> None:
    fit = fit_ratings(["x", "y"], [PairScore("x", "y", 10, 10)], "x", 0)
    assert fit["y"].rating == pytest.approx(-400 * math.log10(19))
    # Scores of one pairing given in two parts add up before the clamp.
    split = fit_ratings(["x", "y"], [PairScore("x", "y", 6, 6), PairScore("y", "x", 4, 0)], "x", 0)
    assert split["y"].rating == pytest.approx(fit["y"].rating)


def test_the_fit_refuses_what_it_cannot_rate() -> None:
    with pytest.raises(ValueError, match="connect"):
        fit_ratings(["a", "b", "c"], [PairScore("a", "b", 4, 2)], "a", 0)
    with pytest.raises(ValueError):
        fit_ratings(["a", "b"], [PairScore("a", "z", 4, 2)], "a", 0)
    with pytest.raises(ValueError):
        fit_ratings(["a", "b"], [PairScore("a", "b", 4, 2)], "q", 0)
    with pytest.raises(ValueError):
        PairScore("a", "b", 4, 5)
    with pytest.raises(ValueError):
        PairScore("a", "a", 4, 2)


# -- the data file and its loader ------------------------------------------------------


def test_the_data_file_rates_every_level_in_every_variant_it_rates() -> None:
    data = json.loads(DATA_PATH.read_text(encoding="utf-8"))
    assert "classic" in rated_variants()
    current = {
        name for name, entry in data["variants"].items() if entry.get("bots") == current_table()
    }
    assert tuple(sorted(current)) == rated_variants()
    for variant in data["variants"]:
        Variant.by_name(variant)
        if variant not in current:  # rated for another table of levels: not rated now
            with pytest.raises(LookupError, match="another table"):
                bot_rating(1, variant)
    for variant in current:
        entry = data["variants"][variant]
        assert set(entry["levels"]) == {str(number) for number in LEVELS}
        for number in LEVELS:
            rating = bot_rating(number, variant)
            assert (rating.level, rating.variant) == (number, variant)
            assert math.isfinite(rating.rating) and rating.deviation >= 0
        anchor = bot_rating(ANCHOR_LEVEL, variant)
        assert (anchor.rating, anchor.deviation) == (ANCHOR_RATING, 0.0)
        assert entry["games_per_pair"] >= 2 and entry["command"] and entry["cpu"]
        pairs = {tuple(pair["levels"]) for pair in entry["pairs"]}
        assert len(pairs) == len(LEVELS) * (len(LEVELS) - 1) // 2


def test_a_variant_rated_for_another_table_of_levels_is_not_rated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    levels = {str(n): {"rating": 1200.0 + n, "deviation": 1.0} for n in LEVELS}
    data = {
        "variants": {
            "classic": {"bots": current_table(), "levels": levels},
            "french": {"bots": {**current_table(), "2": "greedy"}, "levels": levels},
            "three-rounds": {"levels": levels},  # from before the entries named their bots
        }
    }
    monkeypatch.setattr(ratings, "_data", lambda: data)
    assert rated_variants() == ("classic",)
    assert bot_rating(2, "classic").rating == 1202.0
    for variant in ("french", "three-rounds"):
        with pytest.raises(LookupError, match="another table of levels"):
            bot_rating(2, variant)


def test_the_loader_refuses_unknown_levels_and_variants() -> None:
    with pytest.raises(ValueError, match="1-8"):
        bot_rating(9)
    with pytest.raises(LookupError, match="no ratings"):
        bot_rating(1, "no-such-variant")


# -- the benchmark ----------------------------------------------------------------------


def test_the_benchmark_plays_each_level_at_its_own_budget() -> None:
    bench = load_benchmark("bot_ratings")
    specs = [bench.player_of(LEVELS[number]) for number in sorted(LEVELS)]
    assert [spec.label for spec in specs] == [f"level {n}" for n in sorted(LEVELS)]
    assert specs[0].bot == "random" and specs[5].bot == "greedy"
    assert specs[1].bot == "weakened:play_temperature=0.6"
    assert specs[6].bot == "ismcts:iterations=200,compiled=true,budget=1"
    assert specs[7].bot == "expert:budget=1"


def test_the_benchmark_plays_fewer_games_in_the_pairs_with_a_searching_level() -> None:
    bench = load_benchmark("bot_ratings")
    quick, slow = bench.plans(40, 6, 1, MatchConfig("classic"))
    searching = {i for i, n in enumerate(sorted(LEVELS)) if LEVELS[n].budget is not None}
    assert (quick.games, slow.games) == (40, 6) and slow.seeds == quick.seeds[:3]
    assert all(not searching & set(pair) for pair in quick.pairings)
    assert all(searching & set(pair) for pair in slow.pairings)
    n = len(LEVELS)
    assert sorted(quick.pairings + slow.pairings) == [
        (a, b) for a in range(n) for b in range(a + 1, n)
    ]


def test_the_benchmark_fits_and_writes_one_variant_keeping_the_others(tmp_path: Path) -> None:
    bench = load_benchmark("bot_ratings")
    # Cheap stand-ins under the levels' labels: the pipeline, not the bots, is tested.
    bots = ["random", "random", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy"]
    players = [
        PlayerSpec.bot_named(bot, f"level {n}") for n, bot in zip(sorted(LEVELS), bots, strict=True)
    ]
    plan = Plan.round_robin(players, games=4, config=MatchConfig("three-rounds"))
    summary = run_plan(plan, ProcessBackend(jobs=1))
    entry = bench.report([plan], summary, bench.fit(summary, 1200.0), {"command": "x"})
    assert entry["levels"]["1"] == {"rating": 1200.0, "deviation": 0.0}
    assert entry["games_per_pair"] == 4 and len(entry["pairs"]) == 28
    path = tmp_path / "ratings.json"
    path.write_text(json.dumps({"variants": {"french": {"kept": True}}}), encoding="utf-8")
    bench.write_entry(path, "three-rounds", entry)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["variants"]["french"] == {"kept": True}
    assert data["variants"]["three-rounds"]["levels"] == entry["levels"]
    assert "| 8 | expert 1 s |" in bench.table(entry)
