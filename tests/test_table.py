"""The table model both terminal interfaces drive (``interfaces/table.py``): seats, whom
the screen faces, bots' decisions, forfeits, the record, the bots' release, rematches."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.bots import Bot, make_bot
from hanamikoji.core import Game, Move, Variant, View
from hanamikoji.interfaces.table import Player, Table, TableSettings
from hanamikoji.notation.records import FORFEIT_TAGS, read_record
from hanamikoji.protocol import EngineError, EngineFailure

CLASSIC = Variant.by_name("classic")


class Engine(Bot):
    """A bot that hears the game's end and is closed, as an external engine is; it
    fails at its decision when told to."""

    def __init__(self, *, fails: bool = False) -> None:
        self.fails = fails
        self.endings: list[tuple[int, str | None, str | None]] = []
        self.closed = 0

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if self.fails:
            raise EngineError(EngineFailure.CRASH, "exited with status 1")
        return legal[0]

    def game_over(
        self, view: View, *, result: str | None = None, reason: str | None = None
    ) -> None:
        self.endings.append((view.player, result, reason))

    def close(self) -> None:
        self.closed += 1


def person(seat: int) -> Player:
    return Player.seated(f"P{seat + 1}", seat, "en")


def bot(seat: int, made: Bot | None = None) -> Player:
    return Player.seated("random", seat, "en", made or make_bot("random", seed=seat))


def seated(
    players: tuple[Player, Player], *, hotseat: bool = False, save: Path | None = None
) -> Table:
    settings = TableSettings(CLASSIC, "en", hotseat=hotseat, save_path=save)
    return Table(settings, Game(seed=3, first_player=0), players)


def play_out(table: Table, moves: int | None = None) -> None:
    """Play the first legal decision for whoever is to move (``moves`` of them, or to the
    end)."""
    played = 0
    while not table.over and (moves is None or played < moves):
        table.play(table.game.legal_moves[0])
        played += 1


# -- whom the screen faces ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "facing"),
    [
        ((person(0), bot(1)), 0),
        ((bot(0), person(1)), 1),
        ((person(0), person(1)), None),
        ((bot(0), bot(1)), None),
    ],
    ids=["person-bot", "bot-person", "two-people", "two-bots"],
)
def test_the_one_person_faces_the_screen_from_the_start(
    players: tuple[Player, Player], facing: int | None
) -> None:
    table = seated(players)
    assert table.facing == facing
    assert table.viewer() == (0 if facing is None else facing)
    view = table.view()
    assert (view is None) == (facing is None)
    assert view is None or view.player == facing


def test_in_a_hotseat_game_the_screen_is_passed_to_each_person_before_they_decide() -> None:
    table = seated((person(0), person(1)), hotseat=True)
    passes: list[int] = []
    deciders: list[int] = []
    while not table.over:
        seat = table.to_move
        assert seat is not None
        if table.needs_pass():
            passes.append(seat)
            table.face(seat)
        assert not table.needs_pass()
        view = table.view()
        assert view is not None and view.player == seat
        deciders.append(seat)
        table.play(table.game.legal_moves[0])
    # A pass before the first decision and whenever the seat to decide changes, only then.
    changes = [seat for i, seat in enumerate(deciders) if i == 0 or deciders[i - 1] != seat]
    assert passes == changes
    assert len(passes) > 2


def test_a_person_is_not_asked_as_a_bot() -> None:
    table = seated((person(0), bot(1)))
    with pytest.raises(ValueError, match="seat 0 is a person's"):
        table.ask_bot(0)
    table.play(table.game.legal_moves[0])
    assert table.to_move == 1
    assert table.ask_bot(1)() in table.game.legal_moves


def test_without_a_hotseat_the_screen_is_never_passed() -> None:
    table = seated((person(0), person(1)))
    while not table.over:
        assert not table.needs_pass()
        table.play(table.game.legal_moves[0])


# -- whose turn, bots' decisions -----------------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), people=st.sampled_from([(0,), (1,), (0, 1), ()]))
@settings(max_examples=20, deadline=None)
def test_the_bot_to_move_is_the_seat_to_moves_bot_until_the_end(
    seed: int, people: tuple[int, ...]
) -> None:
    players = (
        person(0) if 0 in people else bot(0),
        person(1) if 1 in people else bot(1),
    )
    table = Table(TableSettings(CLASSIC, "en"), Game(seed=seed), players)
    while not table.over:
        seat = table.to_move
        assert seat is not None and seat == table.game.to_move
        made = table.bot_to_move()
        assert made is players[seat].bot
        legal = table.game.legal_moves
        move = legal[-1] if made is None else table.ask_bot(seat)()
        assert move in table.game.legal_moves
        table.play(move)
    assert table.to_move is None and table.bot_to_move() is None
    assert table.game.is_over()


# -- forfeits ----------------------------------------------------------------------------


def test_a_failing_engine_forfeits_the_game_and_hears_it(tmp_path: Path) -> None:
    engine = Engine(fails=True)
    path = tmp_path / "lost.hkr"
    table = seated((bot(0, engine), person(1)), save=path)
    with pytest.raises(EngineError) as failed:
        table.ask_bot(0)()
    forfeit = table.engine_failed(0, failed.value)
    assert (forfeit.seat, forfeit.kind) == (0, "crash")
    assert table.forfeit == forfeit
    assert table.over and table.to_move is None and table.bot_to_move() is None
    assert not table.game.is_over()
    assert engine.endings == [(0, forfeit.result, "crash")]
    table.save(path)
    tags = dict(read_record(path).tags)
    assert set(FORFEIT_TAGS) <= set(tags)
    assert tags["ForfeitResult"] == forfeit.result
    table.release()
    # The game was forfeited, not played to its end: the release tells no second ending.
    assert engine.endings == [(0, forfeit.result, "crash")]
    assert engine.closed == 1


# -- the record --------------------------------------------------------------------------


def test_the_record_is_saved_as_played_with_the_seats_names(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    table = seated((person(0), bot(1)), save=path)
    play_out(table, 5)
    assert table.autosave() is None
    record = read_record(path)
    assert record.players == ("P1", "random")
    assert record.replay().move_stack == table.game.move_stack


def test_a_failing_autosave_is_told_once_until_it_works_again(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "game.hkr"
    table = seated((person(0), bot(1)), save=missing)
    first = table.autosave()
    assert isinstance(first, OSError)
    assert table.autosave() is None
    missing.parent.mkdir()
    assert table.autosave() is None
    assert missing.exists()
    missing.parent.rename(tmp_path / "moved")
    assert isinstance(table.autosave(), OSError)


def test_without_a_record_file_autosave_writes_nothing(tmp_path: Path) -> None:
    table = seated((person(0), bot(1)))
    play_out(table, 3)
    assert table.autosave() is None
    assert not list(tmp_path.iterdir())


# -- the end -----------------------------------------------------------------------------


def test_release_tells_engines_the_end_once_and_closes_them() -> None:
    engines = (Engine(), Engine())
    table = seated((bot(0, engines[0]), bot(1, engines[1])))
    play_out(table)
    table.release()
    table.release()
    for seat, engine in enumerate(engines):
        assert engine.endings == [(seat, None, None)]
        assert engine.closed == 1


def test_release_before_the_end_closes_without_telling_an_end() -> None:
    engine = Engine()
    table = seated((person(0), bot(1, engine)))
    play_out(table, 2)
    table.release()
    assert engine.endings == []
    assert engine.closed == 1


def test_a_rematch_keeps_the_seating_swaps_the_starter_and_numbers_the_record(
    tmp_path: Path,
) -> None:
    made: list[Engine] = []

    def seating(draws: random.Random) -> tuple[Player, Player]:
        engine = Engine()
        made.append(engine)
        return (person(0), bot(1, engine))

    settings = TableSettings(CLASSIC, "en", seating, save_path=tmp_path / "game.hkr")
    table = Table(settings, Game(seed=3, first_player=0), seating(random.Random(3)))
    second = table.rematch()
    third = second.rematch()
    assert [made[0].closed, made[1].closed, made[2].closed] == [1, 1, 0]
    assert (second.number, third.number) == (2, 3)
    assert (second.game.first_player, third.game.first_player) == (1, 0)
    assert second.settings.save_path == tmp_path / "game-2.hkr"
    assert third.settings.save_path == tmp_path / "game-3.hkr"
    assert third.facing == 0


def test_a_table_without_a_seating_refuses_a_rematch() -> None:
    table = seated((person(0), bot(1)))
    with pytest.raises(ValueError, match="seating"):
        table.rematch()
