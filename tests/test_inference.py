"""Policy-based inference: replaying a round in a sampled world, and weighing worlds."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from conftest import random_position
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.bots.determinize import sample_world
from hanamikoji.bots.inference import (
    WorldSampler,
    replay_round,
    uniform_model,
    world_likelihood,
    world_likelihoods,
)
from hanamikoji.core import Game, Move, MoveKind, Phase, View
from hanamikoji.core.worlds import from_view

VARIANT_NAMES = ["classic", "three-rounds", "french"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(VARIANT_NAMES),
    st.integers(0, 2**32 - 1),
    st.integers(0, 60),
    st.integers(0, 1),
    st.integers(0, 2**32 - 1),
)
def test_a_replayed_round_reaches_the_sampled_world(
    variant: str, seed: int, plies: int, seat: int, world_seed: int
) -> None:
    game = random_position(variant, seed, plies)
    view = game.view(seat)
    if view.phase in (Phase.OVER, Phase.AWAITING_DEAL):
        return
    rng = random.Random(world_seed)
    world = sample_world(view, rng)
    replayed, moves = replay_round(view, world, rng)
    for move in moves:
        replayed.push(move)
    # The same world reached by replay (every decision legal, with a dealt past) and
    # by completing the view directly.
    assert replayed.position_key() == from_view(view, world).position_key()
    mine = replayed.view(seat)
    assert (mine.hand, mine.secret, mine.tradeoff) == (view.hand, view.secret, view.tradeoff)
    assert [entry.move for entry in mine.log] == [
        entry.move for entry in view.log if entry.round == view.round
    ]


def test_the_true_past_is_one_of_the_sampled_ones() -> None:
    # Seat 1's hand at its first decision is its dealt hand plus its first draw: every
    # sampled past must agree with the cards seat 1 played.
    game = random_position("classic", 7, 5)
    view = game.view(0)
    rng = random.Random(1)
    for _ in range(20):
        replayed, moves = replay_round(view, sample_world(view, rng), rng)
        for move in moves:
            seat = replayed.to_move
            assert seat is not None
            if not move.is_response and seat == 1:
                assert Counter(move.cards) <= Counter(replayed.hand(1))
            replayed.push(move)


def test_a_round_with_no_decision_of_the_opponent_weighs_one() -> None:
    game = Game("classic", seed=3, first_player=0)
    view = game.view(0)

    def refuse(view: View, legal: Sequence[Move]) -> dict[Move, float]:
        raise AssertionError("no decision of the opponent to judge")

    assert (
        world_likelihood(view, sample_world(view, random.Random(0)), random.Random(0), refuse)
        == 1.0
    )


def test_the_model_sees_only_the_opponents_view_of_each_decision() -> None:
    game = random_position("classic", 11, 9)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    seen: list[View] = []

    def model(opponent_view: View, legal: Sequence[Move]) -> dict[Move, float]:
        seen.append(opponent_view)
        assert opponent_view.player == view.opponent
        assert tuple(legal) == opponent_view.legal_moves
        return {move: 1.0 / len(legal) for move in legal}

    likelihood = world_likelihood(
        view, sample_world(view, random.Random(2)), random.Random(2), model
    )
    choices = [len(v.legal_moves) for v in seen]
    assert seen and all(count > 1 for count in choices)
    expected = 1.0
    for count in choices:
        expected /= count
    assert abs(likelihood - expected) < 1e-12


def test_resampling_favours_the_worlds_the_model_explains() -> None:
    # A model under which the opponent offers this Gift almost only when they hold no
    # card of kind 0: worlds where their hand then held one weigh little.
    game = Game("classic", seed=21, first_player=1)
    opponent_gift = next(
        m for m in game.legal_moves if m.kind == MoveKind.GIFT and 0 not in m.cards
    )
    game.push(opponent_gift)
    view = game.view(0)

    def model(opponent_view: View, legal: Sequence[Move]) -> dict[Move, float]:
        holds = 0 in opponent_view.hand
        return {
            move: (0.01 if holds else 0.99) if move == opponent_gift else 1.0 / len(legal)
            for move in legal
        }

    uniform, weighted = Counter[bool](), Counter[bool]()
    rng = random.Random(5)
    sampler = WorldSampler(view, random.Random(6), model)
    for _ in range(400):
        uniform[0 in sample_world(view, rng)[0]] += 1
        weighted[0 in sampler.draw()[0]] += 1
    assert weighted[True] < uniform[True] / 2


def test_remembered_answers_weigh_worlds_alike_with_fewer_questions() -> None:
    """The model's answers kept by the opponent's information set: the same weights, and
    the model is asked once per information set, not once per world."""
    game = random_position("classic", 11, 9)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    asked: Counter[bool] = Counter()
    remembering = False

    def model(opponent_view: View, legal: Sequence[Move]) -> dict[Move, float]:
        asked[remembering] += 1
        # Not uniform: the weights depend on the opponent's hand.
        bias = 1.0 + sum(opponent_view.hand) / 100
        weights = {move: bias ** (index + 1) for index, move in enumerate(legal)}
        total = sum(weights.values())
        return {move: weight / total for move, weight in weights.items()}

    remembered: dict[tuple[object, ...], Mapping[Move, float]] = {}
    plain, kept = [], []
    for seed in range(30):
        world = sample_world(view, random.Random(seed))
        remembering = False
        plain.append(world_likelihood(view, world, random.Random(seed), model))
        remembering = True
        kept.append(world_likelihood(view, world, random.Random(seed), model, remembered))
    assert plain == kept
    assert asked[True] == len(remembered) < asked[False]


def test_worlds_are_weighed_under_several_models_from_one_replay() -> None:
    game = random_position("classic", 12, 10)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)

    def leaning(opponent_view: View, legal: Sequence[Move]) -> dict[Move, float]:
        weights = {move: 1.0 + index for index, move in enumerate(legal)}
        total = sum(weights.values())
        return {move: weight / total for move, weight in weights.items()}

    for seed in range(20):
        world = sample_world(view, random.Random(seed))
        both = world_likelihoods(
            view, world, random.Random(seed), (leaning, uniform_model), ({}, None)
        )
        assert both == [
            world_likelihood(view, world, random.Random(seed), leaning),
            world_likelihood(view, world, random.Random(seed), uniform_model),
        ]


def test_the_model_drawn_with_a_world_follows_its_posterior() -> None:
    """Two models of an opponent who has decided several times: one that explains their
    decisions, and the uniform one. Drawn with the worlds, the explaining one dominates
    from an even prior, and a sampler with one model draws as it did before models were
    drawn."""
    game = random_position("classic", 13, 9)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    made = {
        entry.move for entry in view.log if entry.seat == view.opponent and not entry.move.hidden
    }
    assert made

    def explaining(opponent_view: View, legal: Sequence[Move]) -> dict[Move, float]:
        hits = [move for move in legal if move in made]
        return {
            move: (0.9 / len(hits) if move in hits else 0.1 / (len(legal) - len(hits)))
            if hits and len(hits) < len(legal)
            else 1.0 / len(legal)
            for move in legal
        }

    sampler = WorldSampler(view, random.Random(1), uniform_model, alternatives=[(0.5, explaining)])
    drawn = Counter(sampler.draw_typed()[1] for _ in range(200))
    assert drawn[1] > 4 * drawn[0]
    with pytest.raises(ValueError, match="prior"):
        WorldSampler(view, random.Random(1), uniform_model, alternatives=[(1.0, explaining)])
    single, typed = (WorldSampler(view, random.Random(2), explaining) for _ in range(2))
    for _ in range(50):
        world, model = typed.draw_typed()
        assert single.draw() == world and model == 0
