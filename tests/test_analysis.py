"""Game analysis (bots/analysis.py, bots/exact.py) and ``hanamikoji analyze``.

The record ``data/analysis-example.hkr`` is the game of project issue 33: at its last
decision Player 1 answers ``C:DF/DG`` knowing that the opponent's Secret is one of B, E,
E, F; ``C>DF`` wins the game at once in three of those four cases, ``C>DG`` loses it at
once in one.
"""

from __future__ import annotations

import io
import json
import math
import random
from itertools import permutations
from pathlib import Path

import pytest

from hanamikoji.bots.analysis import (
    AnalysisSettings,
    DecisionAnalysis,
    Method,
    PlayerSummary,
    analyse_decision,
    analyze_game,
    analyze_record,
    player_label,
)
from hanamikoji.bots.base import make_bot
from hanamikoji.bots.evaluation import round_end_value
from hanamikoji.bots.exact import InformationSet, judge_model, list_worlds
from hanamikoji.bots.inference import world_likelihood
from hanamikoji.bots.match_table import table_match_value
from hanamikoji.core.cards import from_counts, items
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.core.worlds import World, from_view
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.notation.records import GameRecord, read_record

EXAMPLE = Path(__file__).parent / "data" / "analysis-example.hkr"
FEW = AnalysisSettings(worlds=8)
"""A small, reproducible budget: the verdicts are not the point, their shape is."""


def example() -> GameRecord:
    return read_record(EXAMPLE)


def last_position(record: GameRecord) -> tuple[int, Game, Move]:
    """The index, position and decision of ``record``'s last decision."""
    *_, (index, game, move) = [
        (index, game.copy(), entry.move) for index, (game, entry) in enumerate(record.decisions())
    ]
    return index, game, move


def greedy_against_random(seed: int = 4242) -> GameRecord:
    """The issue's second example: a greedy-vs-random game of ``classic``, seed 4242,
    whose second decision is the answer ``G>A`` to ``G:ACE``."""
    game = Game(seed=seed, first_player=0)
    bots = [make_bot("greedy", seed=1), make_bot("random", seed=2)]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat), game.legal_moves))
    return GameRecord.from_game(game, ("greedy", "random"))


def check_best_is_highest(decision: DecisionAnalysis) -> None:
    values = [entry.value for entry in decision.values]
    assert decision.played_value is not None and decision.best_value is not None
    assert decision.played in [entry.move for entry in decision.values]
    assert decision.best_value == max(values)
    assert decision.best_value >= decision.played_value
    assert decision.cost == decision.best_value - decision.played_value
    assert decision.best == decision.played or decision.best_value > decision.played_value


# -- the verdicts -------------------------------------------------------------------------


def test_the_best_decision_is_the_highest_valued_never_below_the_one_played() -> None:
    for record in (example(), greedy_against_random()):
        analysis = analyze_record(record, FEW)
        for decision in analysis.decisions:
            if not decision.forced:
                check_best_is_highest(decision)


def test_the_second_decision_of_the_greedy_random_game_costs_what_its_values_say() -> None:
    record = greedy_against_random()
    decision = analyse_decision(record, 1, AnalysisSettings(worlds=30))
    assert str(decision.played) == "G>A" and decision.method is Method.SEARCH
    assert decision.worlds == 30
    check_best_is_highest(decision)


def test_a_searched_decision_compares_all_its_moves_on_the_same_worlds() -> None:
    record = example()
    decision = analyse_decision(record, 0, AnalysisSettings(worlds=12))
    assert decision.method is Method.SEARCH and decision.worlds == 12
    # The judge's 3 best and the one played.
    assert 2 <= len(decision.values) <= 4


def test_the_last_decision_is_exact_over_the_four_cases_of_the_opponents_secret() -> None:
    """Uniform worlds (no inference): every order of the four unseen cards B, E, E, F
    equally likely, as the shuffle makes them. The analysis's values are those of
    playing each order out here."""
    record = example()
    index, game, played = last_position(record)
    view = game.view(game.to_move or 0)
    unseen = items(from_counts(view.unseen()))
    assert unseen == (1, 4, 4, 5)  # B, E, E, F: the opponent's Secret, Trade-off, removed card
    decision = analyse_decision(record, index, AnalysisSettings(inference=False))
    assert decision.method is Method.EXACT and decision.exact
    assert str(played) == "C>DG" and str(decision.best) == "C>DF"
    by_move = {str(entry.move): entry for entry in decision.values}
    for move in view.legal_moves:
        value, wins, losses = played_out(view, move, uniform_orders(unseen))
        entry = by_move[str(move)]
        assert entry.value == pytest.approx(value, abs=1e-12)
        assert entry.wins_at_once == pytest.approx(wins, abs=1e-12)
        assert entry.loses_at_once == pytest.approx(losses, abs=1e-12)
    assert by_move["C>DF"].wins_at_once == pytest.approx(3 / 4)
    assert by_move["C>DF"].loses_at_once == 0.0
    assert by_move["C>DG"].loses_at_once == pytest.approx(1 / 4)
    assert by_move["C>DG"].wins_at_once == 0.0


def uniform_orders(unseen: tuple[int, ...]) -> list[tuple[World, float]]:
    """Each order of the unseen cards (Secret, Trade-off, removed), equally likely."""
    orders = list(permutations(unseen))
    return [(World((), p[0], tuple(sorted(p[1:3])), p[3], ()), 1 / len(orders)) for p in orders]


def played_out(
    view: View, move: Move, worlds: list[tuple[World, float]]
) -> tuple[float, float, float]:
    """``move``'s mean value, chance of winning and of losing at once over ``worlds``."""
    value = wins = losses = 0.0
    me = view.player
    for world, chance in worlds:
        game = from_view(view, world)
        game.push(move)
        assert game.pending is None  # the round is scored
        value += chance * round_end_value(game, me, table_match_value)
        outcome = game.outcome
        if outcome is not None and outcome.winner is not None:
            wins += chance * (outcome.winner == me)
            losses += chance * (outcome.winner != me)
    return value, wins, losses


def test_the_last_decision_with_inference_names_the_immediate_win_and_loss() -> None:
    """Weighed as the search weighs the worlds: the values are the weighed means over
    the seven distinct worlds, and C>DF still wins at once where C>DG loses."""
    record = example()
    index, game, _ = last_position(record)
    view = game.view(game.to_move or 0)
    decision = analyse_decision(record, index, AnalysisSettings())
    info = InformationSet(view, judge_model())
    assert decision.exact and decision.worlds == len(info.worlds) == 7
    weighed = [(w.world, w.chance) for w in info.worlds]
    by_move = {str(entry.move): entry for entry in decision.values}
    for move in view.legal_moves:
        value, wins, losses = played_out(view, move, weighed)
        entry = by_move[str(move)]
        assert (entry.value, entry.wins_at_once, entry.loses_at_once) == pytest.approx(
            (value, wins, losses), abs=1e-12
        )
    assert str(decision.best) == "C>DF" and decision.cost > 0
    assert by_move["C>DF"].wins_at_once and not by_move["C>DF"].loses_at_once
    assert by_move["C>DG"].loses_at_once and not by_move["C>DG"].wins_at_once
    assert decision.label == "blunder"


def test_exact_weights_are_the_search_weights_on_average() -> None:
    """A world's exact weight is the mean, over the pasts consistent with it, of the
    weight the search gives it with one sampled past."""
    record = example()
    _, game, _ = last_position(record)
    view = game.view(game.to_move or 0)
    model = judge_model()
    info = InformationSet(view, model)
    priors = dict(list_worlds(view) or [])
    rng = random.Random(1)
    sampled = {
        w.world: priors[w.world]
        * sum(world_likelihood(view, w.world, rng, model) for _ in range(300))
        / 300
        for w in info.worlds
    }
    total = sum(sampled.values())
    for w in info.worlds:
        assert w.chance == pytest.approx(sampled[w.world] / total, abs=0.03)


def test_worlds_are_listed_once_each_with_the_orders_that_deal_them() -> None:
    record = example()
    for index, (game, entry) in enumerate(record.decisions()):
        view = game.view(entry.seat)
        listed = list_worlds(view, 3000)
        if listed is None:
            continue
        assert len({world for world, _ in listed}) == len(listed)
        unseen = view.unseen()
        orders = math.factorial(sum(unseen)) // math.prod(math.factorial(c) for c in unseen)
        # Each order of the unseen cards deals one world (the deck in order).
        assert sum(prior for _, prior in listed) == orders, index


def test_the_seventh_turn_is_solved_over_every_world_and_earlier_turns_searched() -> None:
    analysis = analyze_record(example(), FEW)
    for decision in analysis.decisions:
        if decision.forced:
            continue
        assert decision.exact == (decision.turn >= 7)
        if not decision.exact:
            assert decision.worlds == 8


def test_the_verdict_is_the_same_in_one_process_or_two_and_reports_progress() -> None:
    record = greedy_against_random()
    calls: list[tuple[int, int]] = []
    alone = analyze_record(record, FEW, lambda done, total: calls.append((done, total)))
    total = len(alone.decisions)
    assert calls[-1] == (total, total)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert analyze_record(record, FEW, jobs=2) == alone


def test_analyze_game_is_analyze_record_of_its_record() -> None:
    record = greedy_against_random()
    game = record.replay()
    assert analyze_game(game, FEW, players=record.players) == analyze_record(record, FEW)


# -- the result -----------------------------------------------------------------------------


def test_summaries_count_in_words() -> None:
    assert PlayerSummary(0, 5, 0.1, 1, 0, 2).labels_text() == "1 inaccuracy, 2 blunders"
    assert PlayerSummary(0, 5, 0.1, 2, 1, 0).labels_text() == "2 inaccuracies, 1 mistake"
    assert PlayerSummary(0, 5, 0.0, 0, 0, 0).labels_text() == "no inaccuracy, mistake or blunder"
    assert player_label(("Player 1", "level 1 bot"), 0) == "Player 1"
    assert player_label(("Player 1", "level 1 bot"), 1) == "level 1 bot (Player 2)"


def test_the_json_form_says_whose_chance_how_it_was_found_and_with_what_budget() -> None:
    analysis = analyze_record(example(), FEW)
    data = analysis.to_json()
    assert data["budget"] == {
        "worlds": 8,
        "seconds": None,
        "seed": 0,
        "exact_turns": 2,
        "exact_limit": 5000,
        "root_candidates": 3,
        "inference": True,
    }
    assert isinstance(data["version"], str)
    assert "estimated from that player's view of the cards" in str(data["reading"])
    summary = data["summary"]
    assert isinstance(summary, list) and summary[1]["player"] == "level 1 bot"
    decisions = data["decisions"]
    assert isinstance(decisions, list)
    assert [d["ply"] for d in decisions] == list(range(1, len(analysis.decisions) + 1))
    last = decisions[-1]
    assert last["viewpoint"] == "estimated from Player 1's view of the cards"
    assert (last["played"], last["best"], last["label"], last["exact"]) == (
        "C>DG",
        "C>DF",
        "blunder",
        True,
    )
    assert last["cost"] == round(last["best_value"] - last["played_value"], 4)
    forced = next(d for d in decisions if d["forced"])
    assert forced["played_value"] is None and forced["method"] == "forced"
    json.dumps(data)


def test_a_capped_search_still_values_every_decision_compared() -> None:
    record = example()
    settings = AnalysisSettings(worlds=10_000, seconds=0.001)
    decision = analyse_decision(record, 0, settings)
    check_best_is_highest(decision)


# -- hanamikoji analyze -----------------------------------------------------------------------


def analyze(*options: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run_command(["analyze", str(EXAMPLE), *options], Streams(io.StringIO(), out, err))
    return status, out.getvalue(), err.getvalue()


def test_analyze_prints_a_table_saying_whose_chance_and_no_progress_into_a_file() -> None:
    status, out, err = analyze("--worlds", "8", "--jobs", "1")
    assert status == 0
    assert err == ""  # no progress bar, no carriage return: not a terminal
    assert "\r" not in out
    assert "estimated from that player's view of the cards" in out
    assert "Player 1: " in out and "Player 1 (Player 1)" not in out
    assert "level 1 bot (Player 2): " in out
    assert "1 inaccuracies" not in out and "1 mistakes" not in out and "1 blunders" not in out
    last = [line for line in out.splitlines() if line.lstrip().startswith("24 ")]
    assert len(last) == 1 and "C>DG" in last[0] and "C>DF" in last[0] and "exact" in last[0]
    assert "24. C>DG loses the game at once" in out
    assert "C>DF wins the game at once" in out


def test_analyze_json_has_each_ply_the_budget_and_the_version() -> None:
    status, out, err = analyze("--worlds", "8", "--json", "--seed", "3")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["budget"]["worlds"] == 8 and data["budget"]["seed"] == 3
    assert data["version"]
    first = data["decisions"][0]
    for key in ("ply", "played", "best", "played_value", "best_value", "cost", "label", "exact"):
        assert key in first
