"""The OpenSpiel game ``python_hanamikoji`` and OpenSpiel bots as our bots."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python.algorithms import outcome_sampling_mccfr  # type: ignore[import-untyped]

import hanamikoji.openspiel
from hanamikoji.bots import make_bot
from hanamikoji.core import Game, Phase
from hanamikoji.core.cards import FULL_SET, counts
from hanamikoji.research.encoding import NUM_ACTIONS, decode, encode
from hanamikoji.research.observation import INFORMATION_STATE_SIZE, OBSERVATION_SIZE
from hanamikoji.research.openspiel import (
    GAME_NAME,
    HanamikojiGame,
    HanamikojiState,
    OpenSpielBot,
    state_from_view,
)

PARAMS = [
    {"variant": "three-rounds"},
    {"variant": "french", "first_player": 1},
    {"variant": "classic", "round_cap": 2},
]


def load(params: dict[str, object]) -> HanamikojiGame:
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, HanamikojiGame)
    return game


def deal_round(state: HanamikojiState, rng: random.Random) -> None:
    while state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, weights)[0])


def decision_states(game: HanamikojiGame, seed: int) -> Iterator[HanamikojiState]:
    """Every decision node of one random game (the same state object, advanced)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        deal_round(state, rng)
        if state.is_terminal():
            break
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


def test_importing_hanamikoji_openspiel_registers_the_game() -> None:
    assert GAME_NAME in pyspiel.registered_names()
    assert hanamikoji.openspiel.GAME_NAME == GAME_NAME


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(map(str, p.values())))
def test_random_simulations_pass_openspiels_checks(params: dict[str, object]) -> None:
    pyspiel.random_sim_test(load(params), num_sims=3, serialize=True, verbose=False)


def test_parameters_bound_the_game_without_changing_classic() -> None:
    classic = load({})
    assert classic.variant.name == "classic/cap=10" and classic.variant.max_rounds == 10
    assert classic.max_game_length() == 120
    assert classic.max_chance_nodes_in_history() == 210
    assert load({"variant": "three-rounds"}).variant.name == "three-rounds"
    one_round = load({"variant": "three-rounds", "round_cap": 1})
    assert one_round.variant.max_rounds == 1 and one_round.max_game_length() == 12
    assert classic.num_distinct_actions() == NUM_ACTIONS
    assert classic.max_chance_outcomes() == 7
    assert classic.information_state_tensor_shape() == [INFORMATION_STATE_SIZE]
    assert classic.observation_tensor_shape() == [OBSERVATION_SIZE]
    with pytest.raises(ValueError, match="first_player"):
        load({"first_player": 2})


def test_the_deal_is_card_by_card_in_proportion_to_copies_left() -> None:
    game = load({"variant": "three-rounds"})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(k, n / 21) for k, n in enumerate(counts(FULL_SET))]
    for card in (0, 0, 1):
        state.apply_action(card)
    outcomes = dict(state.chance_outcomes())
    assert 0 not in outcomes and outcomes[1] == pytest.approx(1 / 18)
    with pytest.raises(ValueError, match="not a card left"):
        state.apply_action(0)
    order = [2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 1]
    for card in order:
        assert state.is_chance_node()
        state.apply_action(card)
    assert state.current_player() == 0
    assert state.game.removed() == 0 and state.game.hand(1) == (3, 4, 4, 4, 5, 5)
    assert state.game.deck() == (5, 6, 6, 6, 6, 6, 1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 6) == "Deal G"


@pytest.mark.parametrize("seed", range(4))
def test_returns_follow_the_outcome(seed: int) -> None:
    game = load({"variant": "french", "first_player": seed % 2})
    state = game.new_initial_state()
    for state in decision_states(game, seed):
        assert state.returns() == [0.0, 0.0]
        assert state.legal_actions() == [encode(m) for m in state.game.legal_moves]
        assert state.current_player() == state.game.to_move
    assert state.is_terminal()
    outcome = state.game.outcome
    assert outcome is not None
    expected = {None: [0.0, 0.0], 0: [1.0, -1.0], 1: [-1.0, 1.0]}[outcome.winner]
    assert state.returns() == expected


def test_action_strings_are_the_move_notation() -> None:
    state = next(decision_states(load({"variant": "three-rounds"}), 5))
    for action in state.legal_actions():
        assert state.action_to_string(state.current_player(), action) == str(decode(action))


def test_clones_are_independent_and_serialization_replays() -> None:
    game = load({"variant": "three-rounds", "first_player": 1})
    state = next(decision_states(game, 2))
    clone = state.clone()
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before and str(clone) != before
    assert clone.history()[:-1] == state.history()
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, clone))
    assert str(restored) == str(clone) and restored.history() == clone.history()
    assert restored.game.view(0) == clone.game.view(0)


@pytest.mark.parametrize("params", PARAMS[:2], ids=["three-rounds", "french"])
def test_a_view_completed_into_a_state_looks_the_same_to_its_player(
    params: dict[str, object],
) -> None:
    game = load(params)
    rng = random.Random(3)
    for state in decision_states(game, 7):
        for player in (0, 1):
            view = state.view(player)
            completed = state_from_view(game, view, rng)
            assert completed.view(player) == view
            assert completed.information_state_string(player) == (
                state.information_state_string(player)
            )
            assert completed.observation_string(player) == state.observation_string(player)
            assert np.array_equal(
                completed.information_state_tensor(player), state.information_state_tensor(player)
            )
            assert completed.current_player() == state.current_player()


def test_resampling_varies_what_the_player_cannot_see() -> None:
    game = load({"variant": "three-rounds"})
    states = decision_states(game, 4)
    for _ in range(5):
        state = next(states)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(12):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        hands.add(sample.game.hand(1 - player))
    assert len(hands) > 1


def test_a_finished_game_completes_into_itself() -> None:
    game = load({"variant": "three-rounds"})
    final = game.new_initial_state()
    for final in decision_states(game, 9):  # noqa: B007  (the same state, played to the end)
        pass
    assert final.is_terminal()
    view = final.view(1)
    assert view.phase == Phase.OVER
    assert str(state_from_view(game, view, random.Random(0))) == str(final)


def test_views_of_another_game_are_refused() -> None:
    game = load({"variant": "three-rounds", "first_player": 1})
    with pytest.raises(ValueError, match="first player"):
        state_from_view(game, Game("three-rounds", seed=1).view(0), random.Random(0))
    with pytest.raises(ValueError, match="french"):
        state_from_view(game, Game("french", seed=1, first_player=1).view(0), random.Random(0))


def test_an_openspiel_bot_plays_as_our_bot() -> None:
    from open_spiel.python.bots.uniform_random import UniformRandomBot  # type: ignore[import-untyped]

    bot = OpenSpielBot(
        lambda game, player, seed: UniformRandomBot(player, np.random.RandomState(seed)), 1
    )
    game = Game("classic", seed=4, first_player=1)
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        move = bot.choose(game.view(seat), game.legal_moves)
        assert move in game.legal_moves
        game.push(move)
    assert game.round > 1  # later rounds complete earlier ones into the state too


def test_openspiel_ismcts_is_a_registered_bot() -> None:
    bot = make_bot("openspiel-ismcts", seed=2)
    assert bot.name == "openspiel-ismcts"
    game = Game("three-rounds", seed=8)
    for _ in range(3):
        seat = game.to_move
        assert seat is not None
        small = hanamikoji.openspiel.ismcts_bot(seed=2, simulations=8)
        move = small.choose(game.view(seat), game.legal_moves)
        assert move in game.legal_moves
        game.push(move)


def test_outcome_sampling_mccfr_runs_on_a_one_round_game() -> None:
    np.random.seed(0)
    game = load({"variant": "three-rounds", "round_cap": 1})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(5):
        solver.iteration()
    state = next(decision_states(game, 1))
    probabilities = solver.average_policy().action_probabilities(state)
    assert sorted(probabilities) == state.legal_actions()
    assert sum(probabilities.values()) == pytest.approx(1.0)


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    ("script", "arguments", "expected"),
    [
        ("openspiel_mccfr.py", ["--iterations", "10", "--games", "2"], "10 iterations"),
        (
            "openspiel_ismcts_vs_greedy.py",
            ["--pairs", "1", "--simulations", "4", "--opponent", "random"],
            "scored",
        ),
    ],
    ids=["mccfr", "ismcts"],
)
def test_the_examples_run(script: str, arguments: list[str], expected: str) -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout
