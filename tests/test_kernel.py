"""The compiled engine (hanamikoji.kernel) against the core: tables, deals, legal sets,
markers, outcomes, observations, perft, and the greedy policy against GreedyBot.

The full differential check (100,000 games per variant) is benchmarks/kernel_check.py;
here a bounded sample of each variant.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import greedy_game
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.bots.judge import TIE_TOLERANCE
from hanamikoji.core import Game, Move
from hanamikoji.core.cards import FULL_SET, counts, from_counts
from hanamikoji.core.moves import turn_moves
from hanamikoji.core.rng import MAX_SEED, deal_for_round
from hanamikoji.kernel import policies, rules, tables
from hanamikoji.kernel.check import _compare, differential
from hanamikoji.kernel.encoding import all_moves, decode, encode, legal_action_mask
from hanamikoji.kernel.engine import (
    OBSERVATION_PIECES,
    Batch,
    IllegalActionError,
    stream_states,
)
from hanamikoji.kernel.policies import judge_tables, tie_breaks, tie_draws
from hanamikoji.research import encoding as research_encoding
from hanamikoji.research.observation import (
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    observation_tensor,
)

VARIANTS = ["classic", "three-rounds", "french", "classic/cap=2"]
PERFT = Path(__file__).parent / "perft"
CAPS = counts(FULL_SET)


# -- tables and the encoding --------------------------------------------------------------


def test_the_research_encoding_is_the_kernels() -> None:
    assert research_encoding.encode is encode
    assert research_encoding.all_moves is all_moves


def test_the_action_tables_are_the_encoding() -> None:
    moves = all_moves()
    assert tables.ACTION_KIND.tolist() == [int(m.kind) for m in moves]
    assert tables.ACTION_PACKED.tolist() == [m.packed for m in moves]
    for action, move in enumerate(moves):
        answers = tables.RESPONSES[action, : tables.RESPONSE_COUNT[action]].tolist()
        if move.kind in (2, 3):
            game_answers = {m for m in all_moves() if m.is_response and m.kind == move.kind + 2}
            assert {decode(a) for a in answers} <= game_answers
            assert answers == sorted(answers) and len(answers) >= 1


@settings(deadline=None)
@given(st.tuples(*(st.integers(0, c) for c in CAPS)), st.integers(0, 15))
def test_the_legal_table_lists_turn_moves(per_kind: tuple[int, ...], used: int) -> None:
    hand = from_counts(per_kind)
    row = rules.hand_index(hand)
    listed = [
        int(action)
        for kind in range(4)
        if not used >> kind & 1
        for action in tables.LEGAL_IDS[
            tables.LEGAL_START[row, kind] : tables.LEGAL_START[row, kind + 1]
        ]
    ]
    if sum(per_kind) <= tables.MOST_IN_HAND:
        assert listed == [encode(m) for m in turn_moves(hand, used)]
    else:
        assert listed == []


# -- deals ----------------------------------------------------------------------------------


@settings(deadline=None)  # the first example compiles
@given(st.integers(0, MAX_SEED), st.integers(1, 40))
def test_deals_are_the_cores(seed: int, round_number: int) -> None:
    order = np.empty(21, dtype=np.int8)
    rules.deal_order(np.uint64(seed), round_number, order)
    deal = deal_for_round(seed, round_number)
    assert order[0] == deal.removed
    assert tuple(sorted(order[1:7].tolist())) == deal.hands[0]
    assert tuple(sorted(order[7:13].tolist())) == deal.hands[1]
    assert tuple(order[13:].tolist()) == deal.deck


# -- the differential sample ------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_match_the_core(variant: str) -> None:
    seeds = np.arange(1000) * 7919 + 11
    report = differential(variant, seeds, seeds % 2, policy_seed=5)
    assert report.ok, report.differences
    assert report.games == 1000 and report.decisions > 20_000 and report.rounds >= 1000


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.lists(st.integers(0, MAX_SEED), min_size=1, max_size=8),
    st.integers(0, 1),
    st.integers(0, 2**32),
)
def test_any_seeds_match_the_core(
    variant: str, seeds: list[int], first: int, policy_seed: int
) -> None:
    report = differential(variant, seeds, first, policy_seed)
    assert report.ok, report.differences


def test_the_check_notices_a_difference() -> None:
    batch = Batch("classic", [4])
    game = Game("classic", seed=4)
    mask = batch.legal_mask()[0]
    assert _compare(batch, 0, game, mask) is None
    batch.games.favor[0, 3] = 1
    assert _compare(batch, 0, game, mask) == "markers"
    game.push(game.legal_moves[0])
    assert _compare(batch, 0, game, mask) == "legal decisions"


# -- perft --------------------------------------------------------------------------------------


def _perft_data() -> list[tuple[str, dict[str, Any]]]:
    files = sorted(PERFT.glob("*.json"))
    return [(path.stem, json.loads(path.read_text(encoding="utf-8"))) for path in files]


def _replayed(variant: str, line: dict[str, Any], after: int) -> Batch:
    batch = Batch(variant, [line["seed"]], line["first_player"])
    for text in line["decisions"][:after]:
        batch.step([encode(Move.from_text(text))])
    return batch


@pytest.mark.parametrize(("stem", "data"), _perft_data(), ids=lambda x: str(x)[:20])
def test_perft_lines_and_counts(stem: str, data: dict[str, Any]) -> None:
    lines = {line["id"]: line for line in data["lines"]}
    for line in data["lines"]:
        batch = _replayed(data["variant"], line, 0)
        seen = []
        for text in line["decisions"]:
            seen.append(int(batch.legal_counts()[0]))
            batch.step([encode(Move.from_text(text))])
        seen.append(int(batch.legal_counts()[0]))
        assert seen == line["legal_counts"], line["id"]
        outcome = batch.outcome(0)
        assert outcome is not None
        assert outcome.termination.value == line["outcome"]["termination"]
        assert outcome.winner == line["outcome"]["winner"]
        assert list(outcome.charm) == line["outcome"]["charm"]
        assert outcome.rounds == line["outcome"]["rounds"]
    for entry in data["perft"]:
        batch = _replayed(data["variant"], lines[entry["line"]], entry["after"])
        assert batch.perft(0, len(entry["counts"])) == entry["counts"], (stem, entry)


# -- policies -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lazy", [False, True])
def test_tie_breaks_draw_what_python_random_draws(lazy: bool) -> None:
    seeds = [[0, 1], [2**32 + 5, 2**63 + 12345], [MAX_SEED, 987654321]]
    ties = tie_breaks(seeds, lazy=lazy)
    assert (ties.position < 0).all() == lazy
    rng = random.Random(3)
    bounds = [rng.randrange(2, 300) for _ in range(2000)]
    for g, pair in enumerate(seeds):
        for seat, seed in enumerate(pair):
            python = random.Random(seed)
            assert tie_draws(ties, g, seat, bounds) == [python.randrange(b) for b in bounds]


@pytest.mark.parametrize("variant", VARIANTS[:3])
@pytest.mark.parametrize("compiled", [False, True])
def test_greedy_games_are_greedybots(variant: str, compiled: bool) -> None:
    seeds = np.arange(6 if not compiled else 16) + (300 if compiled else 200)
    bot_seeds = np.stack([seeds * 5, seeds * 5 + 2**40], axis=1)
    batch = Batch(variant, seeds, seeds % 2)
    trace = batch.play(("greedy", "greedy"), bot_seeds=bot_seeds, record=400)
    assert trace is not None
    for g, seed in enumerate(seeds.tolist()):
        pair = (int(bot_seeds[g, 0]), int(bot_seeds[g, 1]))
        game = greedy_game(variant, seed, pair, compiled)
        assert [int(a) for a in trace[g] if a >= 0] == [encode(m) for m in game.move_stack]
        assert batch.outcome(g) == game.outcome


def test_answers_chosen_by_their_gains_are_the_ones_the_scores_choose() -> None:
    """The greedy policy chooses an answer to a Gift or Competition by its gains alone
    where they stand clear of the tie tolerance, else by the full scores: wherever it
    can tell, the same answers as the scores, and it can tell almost always."""
    batch = Batch("three-rounds", np.arange(300), np.arange(300) % 2)
    judge, ties = judge_tables(), tie_breaks(np.zeros((300, 2), dtype=np.uint64))
    ids = np.empty(tables.ACTIONS_COUNT, dtype=np.int64)
    answered = told = 0
    while not batch.done.all():
        for g in np.flatnonzero(~batch.done & (batch.games.pending >= 0)).tolist():
            count = rules.legal_ids(batch.games.store, g, ids)
            if count < 2:
                continue
            scores = policies.greedy_scores(batch.games.store, g, ids, count, judge).copy()
            legal = ids[:count].copy()
            expected = legal[scores >= scores.max() - TIE_TOLERANCE].tolist()
            # The policy's inner step, on purpose: told answers are checked one by one.
            chosen = policies._clear_answers(batch.games.store, g, ids, count, judge)  # noqa: SLF001
            answered += 1
            if chosen:
                told += 1
                assert ids[:chosen].tolist() == expected
        batch.step(batch.greedy_actions(judge, ties))
    assert answered > 500 and told > 0.98 * answered


def test_only_the_games_asked_are_judged() -> None:
    judge = judge_tables()
    seeds = np.arange(12, dtype=np.uint64).reshape(6, 2)
    whole, part = Batch("classic", range(6)), Batch("classic", range(6))
    asked = np.array([True, False, True, True, False, False])
    every = whole.greedy_actions(judge, tie_breaks(seeds, lazy=True))
    some = part.greedy_actions(judge, tie_breaks(seeds, lazy=True), asked)
    assert np.array_equal(some, np.where(asked, every, -1))
    with pytest.raises(ValueError, match="one flag per game"):
        part.greedy_actions(judge, tie_breaks(seeds, lazy=True), [True])


def test_random_play_is_reproducible_and_uniform() -> None:
    first, second = Batch("french", range(50)), Batch("french", range(50))
    traces = first.play(seed=9, record=80), second.play(seed=9, record=80)
    assert traces[0] is not None and traces[1] is not None
    assert np.array_equal(traces[0], traces[1])
    batch = Batch("classic", [7] * 3000)
    chosen = batch.random_actions(stream_states(1, 3000))
    legal = np.flatnonzero(legal_action_mask(Game(seed=7)))
    assert set(chosen.tolist()) == set(legal.tolist())


def test_mixed_policies_play_to_the_end() -> None:
    batch = Batch("three-rounds", range(40))
    batch.play(("greedy", "random"), seed=2)
    assert batch.done.all() and (batch.to_move == -1).all()
    greedy_wins = int((batch.games.winner == 0).sum())
    assert greedy_wins > int((batch.games.winner == 1).sum())


# -- the batch interface -------------------------------------------------------------------------


def test_observations_are_the_research_tensors() -> None:
    assert sorted(OBSERVATION_PIECES) == sorted(p.name for p in OBSERVATION_LAYOUT.pieces)
    offsets = [OBSERVATION_LAYOUT.offset(name) for name in OBSERVATION_PIECES]
    for variant in VARIANTS:
        batch = Batch(variant, range(30), 1)
        games = [Game(variant, seed=s, first_player=1) for s in range(30)]
        states = stream_states(4, 30)
        while True:
            for seat in (0, 1):
                tensors = batch.observation(seat, offsets, size=OBSERVATION_SIZE)
                for g, game in enumerate(games):
                    assert np.array_equal(tensors[g], observation_tensor(game.view(seat)))
            if batch.done.all():
                break
            actions = batch.random_actions(states)
            for g, game in enumerate(games):
                if not game.is_over():
                    game.push(decode(int(actions[g])))
            batch.step(actions)


def test_step_refuses_an_illegal_action_and_changes_nothing() -> None:
    batch = Batch("classic", [1, 2])
    legal = batch.legal_mask()
    illegal = int(np.flatnonzero(legal[1] == 0)[0])
    before = batch.games.store.copy()
    with pytest.raises(IllegalActionError) as caught:
        batch.step([int(np.flatnonzero(legal[0])[0]), illegal])
    assert caught.value.game == 1 and caught.value.action == illegal
    assert np.array_equal(batch.games.store, before)


def test_rewards_and_outcomes_at_the_end() -> None:
    batch = Batch("french", range(200))
    assert not batch.rewards().any()
    assert batch.outcome(0) is None
    batch.play(seed=3)
    rewards = batch.rewards()
    for g in range(200):
        outcome = batch.outcome(g)
        assert outcome is not None
        expected = [0.0, 0.0]
        if outcome.winner is not None:
            expected[outcome.winner], expected[1 - outcome.winner] = 1.0, -1.0
        assert rewards[g].tolist() == expected
    assert not batch.legal_mask().any()
    batch.step([-1] * 200)  # games over are left alone


def test_restart_starts_games_again() -> None:
    batch = Batch("three-rounds", [5, 6, 7])
    batch.play(seed=1)
    batch.restart([0, 2], [70, 71], first_player=[1, 0])
    assert batch.done.tolist() == [False, True, False]
    fresh = Batch("three-rounds", [70, 71], [1, 0])
    assert np.array_equal(batch.games.store[:, [0, 2]], fresh.games.store)


def test_a_batch_refuses_bad_seats_and_seeds() -> None:
    with pytest.raises(ValueError):
        Batch("classic", [1], first_player=2)
    with pytest.raises(OverflowError):
        Batch("classic", [-1])
