"""The learned evaluation: its features hide what they must, its committed weights are
the ones the bots use, and its training learns."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import random_position
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji import Game
from hanamikoji.bots.determinize import determinize
from hanamikoji.bots.expert import ExpertBot
from hanamikoji.bots.network import (
    ACTION_SIZE,
    INPUT_SIZE,
    STATE_SIZE,
    LearnedBot,
    ValueNetwork,
    action_features,
    load_network,
    manifest,
    state_features,
)
from hanamikoji.bots.training import play_games, train
from hanamikoji.research.encoding import all_moves


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_state_features_read_only_what_the_player_knows(seed: int, steps: int) -> None:
    game = random_position("classic", seed, steps)
    if game.is_over():
        return
    rng = random.Random(seed)
    for seat in (0, 1):
        view = game.view(seat)
        features = state_features(view)
        assert len(features) == STATE_SIZE
        # Any other hidden world behind the same view gives the same features.
        other = determinize(view, rng)
        assert state_features(other.view(seat)) == features


def test_every_decision_has_its_own_features() -> None:
    moves = all_moves()
    rows = {action_features(move) for move in moves}
    assert len(rows) == len(moves)
    assert all(len(row) == ACTION_SIZE for row in rows)


def test_committed_weights_are_the_ones_the_bots_use() -> None:
    network = load_network()
    recorded = manifest()
    assert network.fingerprint() == recorded["sha256"]
    assert recorded["command"].startswith("python -m hanamikoji.bots.training")
    assert LearnedBot(seed=1).network.fingerprint() == recorded["sha256"]
    assert ExpertBot(seed=1).network is network


def test_values_are_chances_for_each_legal_decision() -> None:
    game = random_position("classic", 3, 5)
    seat = game.to_move
    assert seat is not None
    legal = game.legal_moves()
    values = load_network().values(game.view(seat), legal)
    assert values.shape == (len(legal),)
    assert np.all((values > 0.0) & (values < 1.0))


def test_weights_survive_a_round_trip() -> None:
    network = load_network()
    again = ValueNetwork.from_bytes(network.to_bytes())
    assert again.fingerprint() == network.fingerprint()


def test_a_network_of_the_wrong_size_is_refused() -> None:
    weights = dict(load_network().weights)
    weights["w1"] = weights["w1"][:-1]
    with pytest.raises(ValueError, match="inputs"):
        ValueNetwork(weights)


def test_learned_bot_plays_legal_decisions_to_the_end() -> None:
    game = Game("classic", seed=11)
    bots = [LearnedBot(seed=0), LearnedBot(seed=1)]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        legal = game.legal_moves()
        move = bots[seat].choose(game.view(seat), legal)
        assert move in legal
        game.push(move)


def test_self_play_labels_each_decision_with_its_return() -> None:
    samples = play_games(first=5, count=6, explore=0.5)
    assert samples.features.shape == (len(samples.targets), INPUT_SIZE)
    assert np.all((samples.targets >= 0.0) & (samples.targets <= 1.0))
    assert set(np.unique(samples.games)) == set(range(5, 11))
    # Returns are the decider's: over a whole match the two seats' returns do not all agree.
    assert len(np.unique(samples.targets)) > 2


def test_training_learns_and_is_reproducible() -> None:
    samples = play_games(first=1, count=30, explore=0.15)
    first = train(samples, hidden=(32, 16), epochs=4, batch=64, seed=7)
    again = train(samples, hidden=(32, 16), epochs=4, batch=64, seed=7)
    assert first.network.fingerprint() == again.network.fingerprint()
    assert first.history[-1]["fit_entropy"] < first.history[0]["fit_entropy"]
