"""The action encoding, the observation tensors and strings, and their generated docs."""

from __future__ import annotations

import doctest
import random
import re
from collections.abc import Iterator
from itertools import combinations, permutations
from pathlib import Path

import numpy as np
import pytest
from conftest import FULL_DECK, cards_of
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.core import Deal, Game, Move, MoveKind, Phase, View
from hanamikoji.core.moves import response_moves, turn_moves
from hanamikoji.research.encoding import (
    ENCODING_VERSION,
    KIND_OFFSETS,
    NUM_ACTIONS,
    all_moves,
    decode,
    encode,
    legal_action_mask,
    legal_actions,
)
from hanamikoji.research.observation import (
    HISTORY_TURN_LAYOUT,
    INFORMATION_STATE_LAYOUT,
    INFORMATION_STATE_SIZE,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    information_state_string,
    information_state_tensor,
    observation_string,
    observation_tensor,
)
from hanamikoji.research.tables import (
    action_table_markdown,
    encoding_fingerprint,
    with_layout_tables,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"
VARIANTS = ["classic/cap=3", "three-rounds", "french"]

FINGERPRINTS = {
    1: "d63cfbd09b56c4821d626daea5b63008db407a59d1f42af7d26b0fa77660d0cb",
}
"""The SHA-256 of each encoding version's id list. Changing the encoding changes the
fingerprint: bump ENCODING_VERSION and add the new one here, never edit an old one."""


def random_positions(variant: str, seed: int, first_player: int) -> Iterator[Game]:
    """Every position of one random game in which someone decides (the game object is
    reused: read it before the next one is yielded)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, first_player=first_player)
    while not game.is_over():
        yield game
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])


games = st.tuples(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 1))


# -- the encoding -------------------------------------------------------------------------


def test_the_action_space_has_every_kind_in_its_block() -> None:
    sizes = {kind: len(block) for kind, block in KIND_OFFSETS.items()}
    assert sizes == {
        MoveKind.SECRET: 7,
        MoveKind.TRADE_OFF: 28,
        MoveKind.GIFT: 81,
        MoveKind.COMPETITION: 383,
        MoveKind.GIFT_RESPONSE: 7,
        MoveKind.COMPETITION_RESPONSE: 28,
    }
    assert NUM_ACTIONS == sum(sizes.values()) == 534
    for kind, block in KIND_OFFSETS.items():
        assert all(decode(i).kind == kind for i in block)


def brute_force_decisions() -> set[str]:
    """Every decision text, from the 21 physical cards by position (no multiset logic)."""
    deck = [card for card, copies in sorted(FULL_DECK.items()) for _ in range(copies)]
    letters = "ABCDEFG"

    def text(cards: tuple[int, ...]) -> str:
        return "".join(letters[c] for c in sorted(cards))

    found = {f"S:{letters[c]}" for c in deck} | {f"G>{letters[c]}" for c in deck}
    for a, b in combinations(deck, 2):
        found |= {f"T:{text((a, b))}", f"C>{text((a, b))}"}
    found |= {f"G:{text(three)}" for three in combinations(deck, 3)}
    positions = range(len(deck))
    for a, b, c, d in permutations(positions, 4):
        pairs = sorted((text((deck[a], deck[b])), text((deck[c], deck[d]))))
        found.add(f"C:{pairs[0]}/{pairs[1]}")
    return found


def test_the_encoding_lists_exactly_the_decisions_the_cards_allow() -> None:
    texts = [str(move) for move in all_moves()]
    assert len(set(texts)) == len(texts) == NUM_ACTIONS
    assert set(texts) == brute_force_decisions()


def test_every_id_is_a_decision_some_state_allows() -> None:
    for move in all_moves():
        if move.kind.is_action:
            others = sum(1 << kind for kind in MoveKind if kind.is_action and kind != move.kind)
            assert move in turn_moves(move.packed, others)
        elif move.kind == MoveKind.GIFT_RESPONSE:
            card = move.cards[0]
            offer = Move.gift(card, (card + 1) % 7, (card + 2) % 7)
            assert move in response_moves(offer)
        else:
            pair = (move.cards[0], move.cards[1])
            offer = Move.competition(pair, (6, 6) if 6 not in pair else (5, 5))
            assert move in response_moves(offer)


def test_decode_inverts_encode() -> None:
    for action in range(NUM_ACTIONS):
        assert encode(decode(action)) == action
    assert decode(encode(Move.from_text("C:FG/AB"))) == Move.from_text("C:AB/FG")


@pytest.mark.parametrize("text", ["S", "T"])
def test_hidden_actions_have_no_id(text: str) -> None:
    with pytest.raises(ValueError, match="not a decision"):
        encode(Move.from_text(text))


def test_cards_the_game_lacks_have_no_id() -> None:
    with pytest.raises(ValueError, match="not a decision"):
        encode(Move.from_text("G:AAA"))


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 10**6])
def test_decode_refuses_ids_outside_the_range(action: int) -> None:
    with pytest.raises(ValueError, match="range"):
        decode(action)


def test_the_encoding_is_pinned_to_its_version() -> None:
    assert encoding_fingerprint() == FINGERPRINTS[ENCODING_VERSION]


@settings(max_examples=40, deadline=None)
@given(games)
def test_legal_decisions_map_one_to_one_onto_sorted_ids(setup: tuple[str, int, int]) -> None:
    for game in random_positions(*setup):
        legal = game.legal_moves
        ids = [encode(move) for move in legal]
        assert len(set(ids)) == len(legal)
        assert [decode(i) for i in ids] == list(legal)
        assert ids == sorted(ids) == legal_actions(game)
        mask = legal_action_mask(game)
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        assert np.flatnonzero(mask).tolist() == ids
        seat = game.to_move
        assert seat is not None
        assert legal_actions(game.view(seat)) == ids
        assert legal_actions(game.view(1 - seat)) == []


# -- observations -------------------------------------------------------------------------


def piece(tensor: np.ndarray, name: str) -> list[int]:
    return [int(x) for x in OBSERVATION_LAYOUT.slice(tensor, name)]


def test_the_observation_of_a_first_turn() -> None:
    game = Game(seed=7)
    view = game.view(0)
    tensor = observation_tensor(view)
    assert tensor.shape == (OBSERVATION_SIZE,) and tensor.dtype == np.float32
    assert piece(tensor, "hand") == [1, 0, 0, 1, 1, 2, 2]
    assert piece(tensor, "drawn") == [0, 0, 0, 0, 0, 0, 1]
    assert piece(tensor, "favor") == [0, 1, 0] * 7
    assert piece(tensor, "phase") == [1, 0, 0, 0, 0]
    assert piece(tensor, "to_move") == [1, 0, 0]
    assert piece(tensor, "starter") == [1, 0]
    assert piece(tensor, "round") == [1]
    assert piece(tensor, "last_round") == [0]
    assert piece(tensor, "deck_size") == [7]
    assert piece(tensor, "hand_sizes") == [7, 6]
    assert piece(tensor, "unseen") == [1, 2, 2, 2, 2, 2, 3]
    other = observation_tensor(game.view(1))
    assert piece(other, "drawn") == [0] * 7
    assert piece(other, "to_move") == [0, 1, 0]
    assert piece(other, "starter") == [0, 1]
    assert piece(other, "hand_sizes") == [6, 7]


def test_a_gift_and_its_answer_from_both_sides() -> None:
    game = Game(seed=7)
    game.push_text("G:FGG")
    responder = observation_tensor(game.view(1))
    assert piece(responder, "offer_cards") == [0, 0, 0, 0, 0, 1, 2]
    assert piece(responder, "phase") == [0, 1, 0, 0, 0]
    assert piece(responder, "used_theirs") == [0, 0, 1, 0]
    game.push_text("G>F")
    mine = observation_tensor(game.view(0))
    assert piece(mine, "placed_mine") == [0, 0, 0, 0, 0, 0, 2]
    assert piece(mine, "placed_theirs") == [0, 0, 0, 0, 0, 1, 0]
    assert piece(mine, "used_mine") == [0, 0, 1, 0]
    assert piece(mine, "offer_cards") == [0] * 7
    history = information_state_tensor(game.view(1))[INFORMATION_STATE_LAYOUT.offset("history") :]
    first_turn = history[: HISTORY_TURN_LAYOUT.size]
    assert [int(x) for x in HISTORY_TURN_LAYOUT.slice(first_turn, "actor")] == [0, 1]
    assert [int(x) for x in HISTORY_TURN_LAYOUT.slice(first_turn, "action")] == [0, 0, 1, 0]
    assert [int(x) for x in HISTORY_TURN_LAYOUT.slice(first_turn, "cards")] == [0] * 5 + [1, 2]
    assert [int(x) for x in HISTORY_TURN_LAYOUT.slice(first_turn, "taken")] == [0] * 5 + [1, 0]
    assert not history[HISTORY_TURN_LAYOUT.size :].any()


def test_the_opponents_secret_stays_hidden_in_the_history() -> None:
    game = Game(seed=7)
    game.push_text("S:G")
    turn = INFORMATION_STATE_LAYOUT.offset("history")
    cards = turn + HISTORY_TURN_LAYOUT.offset("cards")
    mine = information_state_tensor(game.view(0))
    theirs = information_state_tensor(game.view(1))
    assert mine[cards + 6] == 1 and theirs[cards : cards + 7].sum() == 0
    assert theirs[turn + HISTORY_TURN_LAYOUT.offset("action")] == 1
    assert piece(observation_tensor(game.view(0)), "my_secret") == [0, 0, 0, 0, 0, 0, 1]
    assert "S:G" in information_state_string(game.view(0))
    assert "S:G" not in information_state_string(game.view(1))


def hidden_twins() -> tuple[Game, Game]:
    """Two games that Player 1 cannot tell apart at the start (same hand, same first
    draw) but whose removed card and Player 2 hands differ."""
    mine = cards_of("AABCDE")
    first = Deal(6, (mine, cards_of("FFFFGG")), cards_of("GEEDDCBG"))
    second = Deal(5, (mine, cards_of("FFFGGG")), cards_of("GEEDDCBG"))
    return Game("three-rounds", deals=[first]), Game("three-rounds", deals=[second])


def test_nothing_hidden_reaches_the_tensors_or_strings() -> None:
    one, two = hidden_twins()
    for move in ("S:A", "S:G", None):
        v1, v2 = one.view(0), two.view(0)
        assert np.array_equal(observation_tensor(v1), observation_tensor(v2))
        assert np.array_equal(information_state_tensor(v1), information_state_tensor(v2))
        assert observation_string(v1) == observation_string(v2)
        assert information_state_string(v1) == information_state_string(v2)
        assert observation_string(one.view(1)) != observation_string(two.view(1))
        if move is not None:
            for game in (one, two):
                game.push_text(move)


ONE_HOT = ["favor", "phase", "to_move", "starter"]


def check_bounds(view: View) -> None:
    tensor = observation_tensor(view)
    high = OBSERVATION_LAYOUT.high()
    assert (tensor >= 0).all() and (tensor <= high).all()
    limit = view.variant.max_rounds
    assert limit is None or tensor[OBSERVATION_LAYOUT.offset("round")] <= limit
    for name in ONE_HOT:
        values = OBSERVATION_LAYOUT.slice(tensor, name)
        groups = values.reshape(-1, 3) if name == "favor" else values.reshape(1, -1)
        assert (groups.sum(axis=1) == 1).all(), name
    info = information_state_tensor(view)
    assert info.shape == (INFORMATION_STATE_SIZE,)
    assert np.array_equal(info[:OBSERVATION_SIZE], tensor)


@settings(max_examples=25, deadline=None)
@given(games)
def test_tensors_stay_in_their_documented_ranges(setup: tuple[str, int, int]) -> None:
    for game in random_positions(*setup):
        for seat in (0, 1):
            check_bounds(game.view(seat))
    for seat in (0, 1):
        view = game.view(seat)
        assert view.phase == Phase.OVER
        check_bounds(view)


def test_tensors_can_be_written_in_place() -> None:
    view = Game(seed=3).view(0)
    out = np.full(OBSERVATION_SIZE, 9.0, dtype=np.float32)
    assert observation_tensor(view, out) is out
    assert np.array_equal(out, observation_tensor(view))
    with pytest.raises(ValueError, match="vector"):
        information_state_tensor(view, out)


def test_information_state_strings_keep_the_whole_game() -> None:
    game = Game("three-rounds", seed=11)
    rng = random.Random(0)
    while game.round == 1:
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])
    text = information_state_string(game.view(0))
    assert "scored secrets" in text
    assert len(re.findall(r"\b1\.[1-8] P[12] ", text)) == 12


# -- generated documentation --------------------------------------------------------------


def test_the_committed_action_table_is_up_to_date() -> None:
    committed = (DOCS / "action-encoding.md").read_text(encoding="utf-8")
    assert committed == action_table_markdown(), "run scripts/make-action-table"


def test_the_committed_layout_tables_are_up_to_date() -> None:
    committed = (DOCS / "research.md").read_text(encoding="utf-8")
    assert committed == with_layout_tables(committed), "run scripts/make-action-table"


def test_the_action_table_names_every_id() -> None:
    table = action_table_markdown()
    assert f"version {ENCODING_VERSION}" in table
    for action in range(NUM_ACTIONS):
        assert f"| {action} | `{decode(action)}` |" in table


def test_the_examples_of_the_research_doc_run() -> None:
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    result = doctest.testfile(str(DOCS / "research.md"), module_relative=False, optionflags=flags)
    assert result.attempted > 0 and result.failed == 0
