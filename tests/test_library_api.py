"""The API a python-chess user expects (issue 48): the legal decisions as a collection,
the table drawn by ``str``, short reprs, bots by level, the seat convention, printable
hands and records read whatever their suffix."""

from __future__ import annotations

import random
import re
from itertools import pairwise
from pathlib import Path

import pytest
from fuzz_strategies import fuzz_settings, reachable_games
from hypothesis import given
from hypothesis import strategies as st

from hanamikoji import (
    SEATS,
    Card,
    Cards,
    Game,
    LegalMoves,
    Move,
    seat_from_number,
    seat_number,
)
from hanamikoji.bots import make_bot
from hanamikoji.bots.base import BotSpecError
from hanamikoji.bots.levels import LEVELS, make_level_bot
from hanamikoji.core.worlds import World, from_view, hidden_from
from hanamikoji.notation.records import GameRecord, RecordError, read_record

SOURCES = Path(__file__).resolve().parent.parent / "src" / "hanamikoji"

# -- the legal decisions --------------------------------------------------------------------


@fuzz_settings(60)
@given(reachable_games())
def test_the_collection_agrees_with_the_tuple(game: Game) -> None:
    legal = game.generate_legal_moves()
    collection = game.legal_moves
    assert isinstance(collection, LegalMoves)
    assert len(collection) == len(legal) and list(collection) == list(legal)
    assert all(move in collection for move in legal)
    assert bool(collection) == (not game.is_over() and not game.needs_deal)
    for seat in (0, 1):
        view = game.view(seat)
        assert list(view.legal_moves) == list(view.generate_legal_moves())
        if view.my_turn:
            assert set(view.legal_moves) == set(legal)


def test_the_collection_refuses_what_is_not_legal() -> None:
    game = Game(seed=7)
    assert Move.from_text("S:G") in game.legal_moves
    assert Move.from_text("S:B") not in game.legal_moves  # not in Player 1's hand
    assert Move.from_text("G>F") not in game.legal_moves  # nothing to answer
    assert game.legal_moves[0] == game.generate_legal_moves()[0]


def test_calling_legal_moves_still_works_and_warns() -> None:
    game = Game(seed=7)
    with pytest.warns(DeprecationWarning, match="generate_legal_moves"):
        called = game.legal_moves()
    assert type(called) is tuple and called == game.generate_legal_moves()
    view = game.view(0)
    with pytest.warns(DeprecationWarning, match="collection"):
        assert view.legal_moves() == view.generate_legal_moves()


def test_the_package_never_calls_legal_moves() -> None:
    """The deprecated call is for users' old code: the package uses the collection or
    ``generate_legal_moves()`` (pyproject's filterwarnings also turns a call made from the
    package into an error while the tests run)."""
    calls = [
        f"{path.relative_to(SOURCES)}:{number}"
        for path in sorted(SOURCES.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\blegal_moves\(\)", re.sub(r"``[^`]*``", "", line))
    ]
    assert calls == []


# -- seats ----------------------------------------------------------------------------------


def test_seats_convert_to_player_numbers_and_back() -> None:
    assert [seat_number(seat) for seat in SEATS] == [1, 2]
    assert [seat_from_number(number) for number in (1, 2, "1", "2")] == [0, 1, 0, 1]
    for wrong in (0, 3, -1, True, "0", " 1", "one"):
        with pytest.raises(ValueError, match="a player number is 1 or 2"):
            seat_from_number(wrong)
    for wrong_seat in (2, -1, True):
        with pytest.raises(ValueError, match="a seat is 0 or 1"):
            seat_number(wrong_seat)


def test_the_formats_number_players_from_1_through_the_helpers() -> None:
    from hanamikoji.notation import GameRecord
    from hanamikoji.notation.outcomes import seat_name
    from hanamikoji.protocol.messages import format_seat, parse_seat

    game = Game(seed=7, first_player=1)
    record = GameRecord.from_game(game)
    assert record.tag("FirstPlayer") == "2" and record.first_player == 1
    assert [format_seat(seat) for seat in SEATS] == ["1", "2"]
    assert [parse_seat(text) for text in ("1", "2")] == [0, 1]
    assert seat_name(1) == "Player 2"


# -- the table as text ----------------------------------------------------------------------


def _another_world(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with the cards ``seat`` has not seen dealt again at random: the same
    public table, other hidden cards."""
    world = hidden_from(game, seat)
    secret = () if world.opponent_secret is None else (world.opponent_secret,)
    unseen = [*world.opponent_hand, *secret, *world.opponent_tradeoff, world.removed]
    unseen.extend(world.deck)
    rng.shuffle(unseen)
    sizes = (len(world.opponent_hand), len(secret), len(world.opponent_tradeoff), 1)
    cut = [sum(sizes[:index]) for index in range(len(sizes) + 1)]
    hand, secret, tradeoff, removed = (tuple(unseen[a:b]) for a, b in pairwise(cut))
    other = World(
        hand, secret[0] if secret else None, tradeoff, removed[0], tuple(unseen[cut[-1] :])
    )
    return from_view(game.view(seat), other)


@fuzz_settings(60)
@given(reachable_games(), st.randoms(use_true_random=False))
def test_the_printed_game_shows_no_hidden_card(game: Game, rng: random.Random) -> None:
    if game.to_move is None:  # over, or waiting for a deal: nothing is hidden
        assert "holds" not in str(game)
        return
    seat = game.to_move
    other = _another_world(game, seat, rng)
    assert str(other) == str(game), "the public table depends on hidden cards"
    assert str(other.view(seat)) == str(game.view(seat))
    assert "holds" not in str(game)
    shown = str(game.view(seat)).splitlines()[-1]
    assert shown.startswith(f"Player {seat + 1} (seat {seat}) holds: hand {Cards(game.hand(seat))}")


def test_the_table_is_drawn_with_markers_cards_counts_and_the_offer() -> None:
    game = Game(seed=7)
    for text in ("G:FGG", "G>F", "S:C", "T:AE"):
        game.push_text(text)
    drawn = str(game)
    assert drawn.splitlines()[0] == (
        "classic, round 1, turn 4 of 8, deck 4: Player 2 (seat 1) to move"
    )
    assert "      GG   G Ruri (5)       -" in drawn  # Player 1 kept two flowers
    assert "       -   F Anju (4)       F" in drawn  # and gave Player 2 the tea set
    assert "Player 1: charm 0, geishas 0, hand 3, used Trade-off, Gift" in drawn
    assert "Player 2: charm 0, geishas 0, hand 7, used Secret" in drawn
    game.push_text("C:BC/DF")
    assert "Player 2 offers C:BC/DF; the answers: C>BC, C>DF" in str(game)
    assert "(seat 0) to answer" in str(game).splitlines()[0]


def test_a_finished_game_shows_the_last_round_and_the_winner() -> None:
    game = Game(seed=7)
    rng = random.Random(3)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves))
    drawn = str(game)
    assert drawn.splitlines()[0] == "classic, over after round 2: Player 1 wins (1-0, charm)"
    assert "    GGGG < G Ruri (5)       G" in drawn
    assert drawn == str(game.view(0)) == str(game.view(1))  # nothing is hidden any more


def test_the_full_board_shows_every_hidden_card() -> None:
    game = Game(seed=7)
    board = game.full_board().splitlines()
    assert board[:-3] == str(game).splitlines()
    assert board[-3:] == [
        "Player 1 (seat 0) holds: hand ADEFFGG, drew G",
        "Player 2 (seat 1) holds: hand BCDFFG",
        "deck, top first: CGEGABE; removed: D",
    ]


def test_reprs_are_short() -> None:
    game = Game(seed=7)
    assert repr(game) == "<Game classic seed=7 round 1, seat 0 to move, 0 moves>"
    game.push_text("S:D")
    assert repr(game) == "<Game classic seed=7 round 1, seat 1 to move, 1 move>"
    assert repr(game.view(1)) == "<View of seat 1: classic round 1, seat 1 to move, hand BCCDFFG>"
    assert repr(Game(external_deals=True)) == "<Game classic round 1, awaiting a deal, 0 moves>"


# -- hands ----------------------------------------------------------------------------------


def test_a_hand_prints_without_lookup_tables() -> None:
    view = Game(seed=7).view(0)
    assert str(view.hand_cards) == "ADEFFGG" and view.hand_cards == view.hand
    assert [str(card) for card in view.hand_cards] == list("ADEFFGG")
    assert view.hand_cards[0].geisha.name == "Ayane" and view.hand_cards[-1].item == "flower"
    assert Cards("adg") == (Card.A, Card.D, Card.G) == (0, 3, 6)
    with pytest.raises(ValueError, match="'X' is not a card"):
        Cards("AX")
    with pytest.raises(ValueError):
        Cards((7,))


# -- bots by level --------------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(LEVELS))
def test_a_level_is_a_bot_spec(number: int) -> None:
    by_spec, by_level = make_bot(f"level:{number}", seed=5), make_level_bot(number, seed=5)
    assert type(by_spec) is type(by_level) and repr(by_spec) == repr(by_level)
    assert by_spec.budget == LEVELS[number].budget
    if LEVELS[number].budget is None:  # the searching levels take their time: not here
        game = Game(seed=11)
        for _ in range(3):
            view, legal = game.view(0), game.legal_moves
            assert by_spec.choose(view, legal) == by_level.choose(view, legal)


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("level:9", "'level:9' is no level: the levels are level:1 to level:8"),
        ("level:", "'level:' is no level"),
        ("level:three", "'level:three' is no level"),
        ("level3", "unknown bot 'level3' (level:3?); known: expert, greedy, ismcts, learned"),
        # (the research extra adds openspiel-ismcts before random once it is imported)
        ("levle:3", "random, weakened, level:1 to level:8"),
    ],
)
def test_an_unknown_level_names_the_levels(spec: str, error: str) -> None:
    with pytest.raises(BotSpecError, match=re.escape(error)):
        make_bot(spec)


def test_the_arena_takes_a_level() -> None:
    from hanamikoji.arena.players import PlayerSpec

    assert PlayerSpec.bot_named("level:6").build(seed=1, budget=None).name == "greedy"


# -- records whatever their suffix ----------------------------------------------------------


def test_a_record_file_is_read_by_its_content_whatever_its_name(tmp_path: Path) -> None:
    game = Game(seed=7)
    for text in ("G:FGG", "G>F", "S:C"):
        game.push_text(text)
    record = GameRecord.from_game(game, players=("Ann", "Bo"))
    for name, content in [
        ("game.json", record.to_text()),  # the text form behind a .json name
        ("game.hkr", record.to_json()),  # and JSON behind a .hkr one
        ("game", "\ufeff# a comment first\n\n" + record.to_text()),
        ("game.txt", "\n  " + record.to_json()),
    ]:
        (tmp_path / name).write_text(content, encoding="utf-8")
        assert read_record(tmp_path / name) == record, name


def test_a_record_that_is_neither_form_names_both_tries(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("Round 1\n1. S:D\n", encoding="utf-8")
    with pytest.raises(RecordError) as error:
        read_record(path)
    message = str(error.value)
    assert message.startswith("line 1, column 1: neither a text record nor a JSON record")
    assert "as text: line 1, column 1: the record has no Variant tag" in message
    assert "as JSON: line 1, column 1: not JSON" in message


def test_a_broken_record_of_a_clear_form_gets_that_form_s_error(tmp_path: Path) -> None:
    record = GameRecord.from_game(Game(seed=7))
    path = tmp_path / "game.hkr"
    path.write_text(record.to_json().replace('"classic"', '"chess"'), encoding="utf-8")
    with pytest.raises(RecordError, match=r"^\$\.tags\.Variant: ") as error:
        read_record(path)
    assert error.value.path == "$.tags.Variant"
    path.write_text(record.to_text().replace('"1"', '"3"'), encoding="utf-8")
    with pytest.raises(RecordError, match="FirstPlayer is 1 or 2") as error:
        read_record(path.rename(path.with_suffix(".json")))
    assert error.value.line == 3
