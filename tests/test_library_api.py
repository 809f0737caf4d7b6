"""The API a python-chess user expects (issue 48): the legal decisions as a collection,
the table drawn by ``str``, short reprs, bots by level, the seat convention, printable
hands and records read whatever their suffix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fuzz_strategies import fuzz_settings, reachable_games
from hypothesis import given

from hanamikoji import Game, LegalMoves, Move

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
