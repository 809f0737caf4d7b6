"""The learned policy and value: its features hide what they must, its committed weights
are the ones the bots use, and its training learns."""

from __future__ import annotations

import json
import random
from pathlib import Path

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
from hanamikoji.bots.parallel import Workers
from hanamikoji.research.encoding import all_moves
from hanamikoji.training import (
    Samples,
    collect,
    earlier_samples,
    gate,
    log_table,
    search_games,
    selfplay,
    train,
    write_log,
)
from hanamikoji.training.driver import main


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
    # The committed generations were trained when the command was hanamikoji.bots.training.
    assert recorded["command"].startswith(
        ("python -m hanamikoji.training", "python -m hanamikoji.bots.training")
    )
    assert LearnedBot(seed=1).network.fingerprint() == recorded["sha256"]
    assert ExpertBot(seed=1).network is network


def test_values_are_chances_and_logits_rank_each_legal_decision() -> None:
    game = random_position("classic", 3, 5)
    seat = game.to_move
    assert seat is not None
    legal = game.legal_moves
    view = game.view(seat)
    logits, values = load_network().evaluate(view, legal)
    assert logits.shape == values.shape == (len(legal),)
    assert np.all((values > 0.0) & (values < 1.0))
    assert load_network().best(view, legal) == legal[int(np.argmax(logits))]


def test_weights_survive_a_round_trip() -> None:
    network = load_network()
    again = ValueNetwork.from_bytes(network.to_bytes())
    assert again.fingerprint() == network.fingerprint()


def test_a_network_of_the_wrong_size_is_refused() -> None:
    weights = dict(load_network().weights)
    weights["w1"] = weights["w1"][:-1]
    with pytest.raises(ValueError, match="inputs"):
        ValueNetwork(weights)
    weights = dict(load_network().weights)
    weights["w3"], weights["b3"] = weights["w3"][:, :1], weights["b3"][:1]
    with pytest.raises(ValueError, match="1 outputs"):
        ValueNetwork(weights)


def test_learned_bot_plays_legal_decisions_to_the_end() -> None:
    game = Game("classic", seed=11)
    bots = [LearnedBot(seed=0), LearnedBot(seed=1)]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        legal = game.legal_moves
        move = bots[seat].choose(game.view(seat), legal)
        assert move in legal
        game.push(move)


@pytest.fixture(scope="module")
def searched() -> Samples:
    return search_games(first=5, count=3, iterations=40)


def test_self_play_targets_are_the_search_values_of_each_view(searched: Samples) -> None:
    rows = len(searched.policy)
    assert searched.features.shape == (rows, INPUT_SIZE)
    assert set(np.unique(searched.games)) == {5, 6, 7}
    views = np.unique(searched.views)
    assert np.array_equal(views, np.arange(len(views)))
    # Each view's policy target is a distribution over the decisions the search compared;
    # the negatives (not compared) have no value and no probability.
    totals = np.bincount(searched.views, weights=searched.policy)
    assert np.allclose(totals, 1.0, atol=1e-5)
    negatives = np.isnan(searched.values)
    assert negatives.any()
    assert np.all(searched.policy[negatives] == 0.0)
    known = searched.values[~negatives]
    assert np.all((known >= 0.0) & (known <= 1.0))


def test_the_search_prefers_what_it_values_most(searched: Samples) -> None:
    for view in range(int(searched.views.max()) + 1):
        rows = np.flatnonzero(searched.views == view)
        values = np.nan_to_num(searched.values[rows], nan=-1.0)
        assert searched.policy[rows][np.argmax(values)] == searched.policy[rows].max()


def test_training_learns_and_is_reproducible(searched: Samples) -> None:
    first = train(searched, hidden=(32, 16), epochs=4, batch=16, seed=7)
    again = train(searched, hidden=(32, 16), epochs=4, batch=16, seed=7)
    assert first.network.fingerprint() == again.network.fingerprint()
    assert first.history[-1]["fit_policy"] < first.history[0]["fit_policy"]
    # Training on from a network's weights starts where it stopped.
    more = train(searched, start=first.network.weights, epochs=1, batch=16, seed=8)
    assert more.history[0]["fit_policy"] <= first.history[0]["fit_policy"]


def test_the_gate_plays_each_seed_twice_with_the_seats_swapped() -> None:
    network = load_network()
    match = gate(network, network, Workers(), seeds=3)
    # The same network in both seats of each seed's two games scores exactly one half.
    assert match.score == 0.5
    assert match.seeds[1] - match.seeds[0] == 2
    assert gate(network, None, Workers(), seeds=2).opponent == "greedy"


def test_the_training_log_is_rewritten_between_its_markers(tmp_path: Path) -> None:
    entry = manifest()["generations"][0]
    page = tmp_path / "strength.md"
    page.write_text(
        "before\n<!-- training log: start -->\nold\n<!-- training log: end -->\nafter\n"
    )
    write_log(page, [entry])
    text = page.read_text()
    assert text.startswith("before\n") and text.endswith("after\n")
    assert log_table([entry]) in text and "old" not in text


def test_the_documented_training_log_is_the_checkpoints() -> None:
    page = Path(__file__).parent.parent / "docs" / "strength.md"
    assert log_table(manifest()["generations"]) in page.read_text("utf-8")


def test_a_generation_resumes_from_the_checkpoint_and_logs_itself(tmp_path: Path) -> None:
    page = tmp_path / "strength.md"
    page.write_text("<!-- training log: start -->\n<!-- training log: end -->\n")
    small = ["--games", "2", "--iterations", "12", "--epochs", "1", "--gate-seeds", "2"]
    store = ["--samples", str(tmp_path / "samples")]
    common = [*small, *store, "--jobs", "1", "--out", str(tmp_path), "--log", str(page)]
    main(common)
    first = json.loads((tmp_path / "value_network.json").read_text())
    assert [g["generation"] for g in first["generations"]] == [1]
    assert first["sha256"] == first["generations"][0]["sha256"]
    main(["--resume", *common])
    second = json.loads((tmp_path / "value_network.json").read_text())
    one, two = second["generations"]
    assert two["games"][0] == one["games"][0] + 100_000  # a generation's own seeds
    assert two["command"] == "python -m hanamikoji.training --resume " + " ".join(small)
    assert second["command"] == f"{one['command']} && {two['command']}"
    # The checkpoint moves only to a generation that beat the one before it.
    kept = two["sha256"] if two["kept"] else one["sha256"]
    assert second["sha256"] == kept
    weights = ValueNetwork.from_bytes((tmp_path / "value_network.npz").read_bytes())
    assert weights.fingerprint() == kept
    table = [line for line in page.read_text().splitlines() if line.startswith("|")]
    assert len(table) == 4  # the header, its rule and two generations
    # A replay window trains on the last generations' samples, read back where kept.
    main(["--resume", "--window", "2", *common])
    third = json.loads((tmp_path / "value_network.json").read_text())["generations"][2]
    assert third["window"] == [2, 3]
    assert third["training_rows"] == two["rows"] + third["rows"]
    assert third["command"].endswith(" --window 2")
    # The log's table says what each generation was trained on.
    lines = [line for line in page.read_text().splitlines() if line.startswith("|")]
    rows = [line.split(" | ")[5] for line in lines[2:]]
    assert rows == [
        f"1: {one['rows']:,}",
        f"2: {two['rows']:,}",
        f"2-3: {third['training_rows']:,}",
    ]


def test_self_play_is_kept_a_file_per_chunk_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = collect(12, 5, 12, Workers(), None, tmp_path)
    assert sorted(p.name for p in (tmp_path / "5-12-none").iterdir()) == ["15-2.npz", "5-10.npz"]

    def unplayable(*args: object) -> Samples:
        raise AssertionError("kept games are read back, not played again")

    monkeypatch.setattr(selfplay, "search_games", unplayable)
    again = collect(12, 5, 12, Workers(), None, tmp_path)
    for name in ("features", "policy", "values", "views", "games"):
        assert np.array_equal(getattr(again, name), getattr(played, name), equal_nan=True)


def test_self_play_on_ray_gives_the_samples_of_the_processes(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    on_processes = collect(4, 7, 12, Workers(2), None)
    workers = Workers(2, "ray")
    # The maps of one block share one instance, started and stopped by the block (one
    # start per test: a process forked after a second start of Ray in it can break).
    with workers.running():
        on_ray = collect(4, 7, 12, workers, None, tmp_path)
        assert ray.is_initialized()
        assert gate(load_network(), None, workers, seeds=2).opponent == "greedy"
    assert not ray.is_initialized()
    for name in ("features", "policy", "values", "views", "games"):
        assert np.array_equal(getattr(on_ray, name), getattr(on_processes, name), equal_nan=True)
    assert sorted(p.name for p in (tmp_path / "7-12-none").iterdir()) == ["7-4.npz"]


def test_a_window_needs_the_samples_of_a_guide_no_longer_at_hand(tmp_path: Path) -> None:
    one = {"generation": 1, "kept": True, "sha256": "ab" * 32, "games": [1, 2], "iterations": 12}
    two = {**one, "generation": 2, "kept": False, "games": [100_001, 100_002]}
    # Generation 2 was guided by generation 1's network, which is not the checkpoint here.
    with pytest.raises(SystemExit, match="generation 2's self-play is not"):
        earlier_samples([one, two], 1, None, Workers(), tmp_path)
