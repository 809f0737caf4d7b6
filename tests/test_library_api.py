"""The API a python-chess user expects (issue 48): the legal decisions as a collection,
the table drawn by ``str``, short reprs, bots by level, the seat convention, printable
hands and records read whatever their suffix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fuzz_strategies import fuzz_settings, reachable_games
from hypothesis import given

from hanamikoji import SEATS, Game, LegalMoves, Move, seat_from_number, seat_number

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
            seat_from_number(wrong)  # type: ignore[arg-type]
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
