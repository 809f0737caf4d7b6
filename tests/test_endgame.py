"""The endgame solved per information set: exact where nothing is hidden that matters,
near an equilibrium otherwise, a function of the view and the seed, and legal."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from hanamikoji.arena.exploitability import greedy_position, sample_worlds
from hanamikoji.bots.determinize import sample_world
from hanamikoji.bots.endgame import Endgame, endgame_decision, endgame_worlds
from hanamikoji.bots.inference import replayed_world
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot, SearchConfig
from hanamikoji.bots.match_table import table_match_value
from hanamikoji.bots.solver import RoundSolver
from hanamikoji.core.game import Game
from hanamikoji.core.moves import MoveKind

ENDGAME = replace(DEFAULT_CONFIG, endgame_turns=3, compiled=True)


def answering_last_offer() -> Game:
    """Round 1's last turn: seat 1 has offered a Competition, seat 0 answers, and the
    round ends: the answer is the last decision of the round."""
    game = greedy_position(1, 7)
    game.push(game.legal_moves[0])
    assert game.to_move == 0 and len(game.legal_moves) == 2
    return game


def test_with_no_decision_left_to_the_opponent_it_is_the_per_world_solvers_choice() -> None:
    game = answering_last_offer()
    worlds = sample_worlds(game.view(0), 12, random.Random(5))
    endgame = Endgame([[(world, 1.0) for world in worlds]], table_match_value)
    endgame.solve(100)
    solver = RoundSolver(table_match_value)
    means = {}
    for move in game.legal_moves:
        total = 0.0
        for world in worlds:
            world.push(move)
            total += solver.value(world)
            world.pop()
        means[move] = total / len(worlds)
    best = max(means, key=means.__getitem__)
    chances = endgame.strategy(worlds[0], 0)
    assert chances[best] > 0.99
    assert endgame.value() == pytest.approx(means[best], abs=1e-3)


@pytest.mark.parametrize(("seed", "seat"), [(1, 1), (6, 1), (2, 0)])
def test_the_solution_nears_an_equilibrium_of_the_worlds_it_joins(seed: int, seat: int) -> None:
    game = greedy_position(seed, 6 if seat == 0 else 7)
    view = game.view(seat)
    rng = random.Random(seed)
    groups = list(endgame_worlds(view, rng, 6, 2))
    endgame = Endgame(groups, table_match_value)
    endgame.solve(50)
    early = endgame.best_response(0) + endgame.best_response(1) - 1.0
    endgame.solve(950)
    value = endgame.value()
    responses = endgame.best_response(0), endgame.best_response(1)
    # Each best response does at least as well as the strategy it replaces...
    assert responses[0] >= value - 1e-9 and responses[1] >= 1.0 - value - 1e-9
    # ...and gains next to nothing once solved: the two values add up to the game's.
    gain = responses[0] + responses[1] - 1.0
    assert gain < 0.002 and gain <= early + 1e-9


def test_the_worlds_of_one_draw_differ_only_in_what_the_opponent_has_not_seen() -> None:
    game = greedy_position(4, 5)
    me = game.to_move
    assert me is not None
    view = game.view(me)
    rng = random.Random(4)
    for group in endgame_worlds(view, rng, 3, 4):
        drawn = group[0][0]
        assert drawn.information_key(me) == game.information_key(me)
        for world, _ in group:
            assert world.information_key(1 - me) == drawn.information_key(1 - me)


def test_a_node_budget_takes_whole_groups_until_it_is_reached() -> None:
    game = greedy_position(4, 5)
    view = game.view(1)
    rng = random.Random(4)
    endgame = Endgame(endgame_worlds(view, rng, 20, 2), table_match_value, 500)
    assert endgame.nodes >= 500 and len(endgame.worlds) % 3 == 0 and len(endgame.worlds) < 60


def test_two_deals_with_the_same_view_get_the_same_decision() -> None:
    game = greedy_position(6, 5)
    game.push(next(move for move in game.legal_moves if move.kind >= MoveKind.GIFT))
    me = game.to_move
    assert me is not None
    view = game.view(me)
    rng = random.Random(6)
    other = replayed_world(view, sample_world(view, rng), rng)
    assert other.view(me) == view and other.hand(1 - me) != game.hand(1 - me)
    decisions = [
        ISMCTSBot(seed=9, config=ENDGAME).choose(seen.view(me), seen.legal_moves)
        for seen in (game, other)
    ]
    assert decisions[0] == decisions[1]


def test_the_decision_is_legal_and_a_function_of_the_view_and_the_seed() -> None:
    for seed in range(4):
        game = greedy_position(seed, 6 + seed % 2)
        while len(game.legal_moves) == 1:
            game.push(game.legal_moves[0])
        me = game.to_move
        assert me is not None
        view, legal = game.view(me), game.legal_moves
        first = ISMCTSBot(seed=seed, config=ENDGAME).choose(view, legal)
        assert first in legal
        assert ISMCTSBot(seed=seed, config=ENDGAME).choose(view, legal) == first
        rng = random.Random(seed)
        assert endgame_decision(view, legal, rng, table_match_value) in legal


def test_the_search_solves_endgames_only_over_the_turns_the_solver_takes_on() -> None:
    with pytest.raises(ValueError, match="endgame_turns is 0 to 3, not 4"):
        SearchConfig(endgame_turns=4)
