"""``hanamikoji puzzle`` in the terminal: the line interface through the command, the
full-screen app through Textual's Pilot, the solver's record, hidden information, and
bad input."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from textual.pilot import Pilot

from hanamikoji.bots.determinize import sample_world
from hanamikoji.bots.exact import list_worlds
from hanamikoji.core import Game, Move, View
from hanamikoji.core.worlds import World, from_view
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.exits import EXIT_ERROR, EXIT_INPUT_ENDED, EXIT_OK, EXIT_USAGE
from hanamikoji.interfaces.line import Terminal
from hanamikoji.interfaces.line.puzzle import solve_puzzles, theme_name
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.puzzling import (
    Mode,
    PuzzleRun,
    SolverRecord,
    SolverRecordError,
    read_solver,
    write_solver,
)
from hanamikoji.interfaces.tui.app import TableApp, puzzles_app
from hanamikoji.interfaces.tui.modals import ShowScreen
from hanamikoji.interfaces.tui.puzzle import PuzzleScreen
from hanamikoji.notation.names import LANGUAGES, Lang
from hanamikoji.puzzles import Puzzle, shipped_puzzles, write_puzzles
from hanamikoji.puzzles.choosing import STREAK_LENGTH

PUZZLES = shipped_puzzles()
BY_ID = {puzzle.id: puzzle for puzzle in PUZZLES}
OFFER = "french-52000002-9"
"""A puzzle answering a Competition: C>BC is right, C>DG wrong."""
SAMPLE = random.Random(53).sample(list(PUZZLES), 30)
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def command(args: list[str], lines: list[str]) -> tuple[int, str, str]:
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout, stderr = io.StringIO(), io.StringIO()
    status = run_command(["puzzle", "--plain", *args], Streams(stdin, stdout, stderr))
    return status, stdout.getvalue(), stderr.getvalue()


def wrong_answer(puzzle: Puzzle) -> str:
    return puzzle.values[-1][0]


# -- the line interface through the command --------------------------------------------------


def test_a_right_answer_is_rated_once_and_kept(tmp_path: Path) -> None:
    record = tmp_path / "state" / "puzzles.json"
    status, out, _ = command(["--id", OFFER, "--record", str(record)], ["c>cb"])
    assert status == EXIT_OK
    assert message("cli_puzzle_right", "en", decision="C>BC").split(" (")[0][:10] in out
    assert "Your puzzle rating: 1500 → 1670 (+170)" in out
    kept = read_solver(record)
    assert kept.answered == {OFFER: True} and round(kept.rating.rating) == 1670
    # Answering it again (any form, even wrong) shows the reveal and changes nothing.
    status, out, _ = command(["--id", OFFER, "--record", str(record)], ["C>DG"])
    assert status == EXIT_OK
    assert "Not the best" in out and "You answered this puzzle before" in out
    assert read_solver(record) == kept


def test_a_wrong_answer_shows_every_value_and_the_worlds_where_it_fails(tmp_path: Path) -> None:
    puzzle = BY_ID[OFFER]
    status, out, _ = command(["--id", OFFER, "--record", str(tmp_path / "r.json")], ["2"])
    assert status == EXIT_OK
    legal = [move.text() for move in puzzle.view().generate_legal_moves()]
    assert legal[1] != puzzle.solution  # the list is not in the order of the values
    assert f"Not the best: {legal[1]}" in out and f"The best is {puzzle.solution}" in out
    for text, value in puzzle.values:
        assert f"{text} (" in out and f"): {round(value * 100)}%" in out
    assert "Where your answer does worse than the best:" in out
    assert out.count("Chance ") >= 1
    assert "Your puzzle rating: 1500 → " in out


def test_rated_puzzles_come_one_after_another_none_twice(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    args = ["--record", str(record), "--seed", "5", "--theme", "gift-answer"]
    status, out, _ = command(args, ["1", "", "1", "", "2", "q"])
    assert status == EXIT_OK and out.rstrip().endswith("Puzzles stopped.")
    answered = read_solver(record).answered
    assert len(answered) == 3
    assert all("gift-answer" in BY_ID[name].themes for name in answered)
    # The next run goes on with puzzles not answered yet.
    status, out, _ = command(args, ["1"])
    assert status == EXIT_OK
    assert len(read_solver(record).answered) == 4


def test_the_daily_puzzle_is_the_libraries_and_one_puzzle(tmp_path: Path) -> None:
    status, out, _ = command(["--daily", "--record", str(tmp_path / "r.json")], ["1", "1"])
    assert status == EXIT_OK
    assert out.count("Puzzle ") == 1 and "[Enter: next puzzle" not in out


def test_a_streak_ends_at_the_first_miss_and_is_not_rated(tmp_path: Path) -> None:
    run = PuzzleRun(PUZZLES, Mode.STREAK, SolverRecord(), seed=3)
    assert run.streak is not None and len(run.streak.puzzles) == STREAK_LENGTH
    first = run.current
    assert first is not None
    answered = run.answer(first.solution)
    assert not answered.counted and answered.streak is not None and answered.streak.solved == 1
    second = run.advance()
    assert second is not None and second != first
    missed = run.answer(wrong_answer(second))
    assert missed.streak is not None and missed.streak.over and not run.has_next
    assert run.record == SolverRecord()
    record = tmp_path / "r.json"
    status, out, _ = command(["--streak", "--seed", "3", "--record", str(record)], ["1"] * 40)
    assert status == EXIT_OK and "The streak ends" in out
    assert not record.exists()


def test_the_end_of_input_before_an_answer_is_status_4(tmp_path: Path) -> None:
    status, out, _ = command(["--id", OFFER, "--record", str(tmp_path / "r.json")], [])
    assert status == EXIT_INPUT_ENDED and "End of input" in out
    assert not (tmp_path / "r.json").exists()


def test_answers_are_read_in_every_form_and_commands_work(tmp_path: Path) -> None:
    lines = ["", "moves", "board", "log", "help", "AYUDA", "0", "3", "zz", "C>AA", "c > b c"]
    status, out, _ = command(["--id", OFFER, "--record", str(tmp_path / "r.json")], lines)
    assert status == EXIT_OK
    assert "There is no answer number 0" in out and "There is no answer number 3" in out
    assert "'zz' is not a decision" in out
    assert "'C>AA' is not a legal decision here" in out
    assert "Right: C>BC" in out


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["--id", "nope"], EXIT_ERROR, "no puzzle of that id"),
        (["--theme", "nope"], EXIT_USAGE, "invalid choice"),
        (["--daily", "--streak"], EXIT_USAGE, "not allowed with"),
        (["--daily", "--variant", "french"], EXIT_USAGE, "--daily is one puzzle for everyone"),
        (["--variant", "french", "--theme", "final-round", "--id", OFFER], EXIT_ERROR, "no puzzle"),
        (["--file", "/nonexistent/p.jsonl"], EXIT_ERROR, "/nonexistent/p.jsonl"),
    ],
)
def test_bad_options_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], status: int, said: str
) -> None:
    got, _, err = command([*args, "--record", str(tmp_path / "r.json")], [])
    assert got == status
    assert said in err + capsys.readouterr().err


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[]", b'{"format": "other"}', b"\xff\xfe", json.dumps({"format": "x"}).encode()],
)
def test_a_broken_record_is_refused_naming_it(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(SolverRecordError, match=str(path)):
        read_solver(path)
    status, _, err = command(["--id", OFFER, "--record", str(path)], ["1"])
    assert status == EXIT_ERROR and str(path) in err
    assert path.read_bytes() == content


def test_a_record_that_cannot_be_written_is_told_and_the_answer_still_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(record: SolverRecord, path: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("hanamikoji.interfaces.puzzling.write_solver", refuse)
    status, out, _ = command(["--id", OFFER, "--record", str(tmp_path / "r.json")], ["1"])
    assert status == EXIT_OK and "Right: C>BC" in out
    assert "Could not save your puzzle rating in" in out and "No space left" in out


def test_a_broken_puzzle_file_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text('{"format": "hanamikoji-puzzles", "schema": 1}\n{"id": 3}\n')
    status, out, err = command(["--file", str(path), "--record", str(tmp_path / "r.json")], [])
    assert status == EXIT_ERROR and "set.jsonl line 2" in err and out == ""


def test_another_puzzle_file_is_played(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl.gz"
    write_puzzles(path, [BY_ID[OFFER]])
    args = ["--file", str(path), "--record", str(tmp_path / "r.json")]
    status, out, _ = command(args, ["C>BC"])
    assert status == EXIT_OK and f"Puzzle {OFFER}" in out and "Right: C>BC" in out
    assert "[Enter: next puzzle" not in out  # that was the only puzzle
    assert out.rstrip().endswith(message("cli_puzzle_none_left", "en"))


@FAST
@given(
    st.binary(max_size=300)
    | st.builds(
        lambda d: json.dumps(d).encode(),
        st.dictionaries(
            st.sampled_from(["format", "rating", "deviation", "volatility", "answered", "x"]),
            st.none()
            | st.booleans()
            | st.floats()
            | st.text(max_size=5)
            | st.dictionaries(st.text(max_size=5), st.booleans() | st.integers(), max_size=3),
        ),
    )
)
def test_any_record_file_is_read_or_refused_naming_it(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.json"
        path.write_bytes(content)
        try:
            record = read_solver(path)
        except SolverRecordError as error:
            assert str(path) in str(error)
        else:
            assert isinstance(record.rating.rating, float)
            assert all(isinstance(value, bool) for value in record.answered.values())


def test_the_record_round_trips(tmp_path: Path) -> None:
    run = PuzzleRun(PUZZLES, Mode.ONE, SolverRecord(), puzzle_id=OFFER)
    run.answer("C>DG")
    write_solver(run.record, tmp_path / "r.json")
    again = read_solver(tmp_path / "r.json")
    assert again.answered == {OFFER: False}
    assert abs(again.rating.rating - run.record.rating.rating) < 0.01


# -- bad input ------------------------------------------------------------------------------


@FAST
@given(st.sampled_from(SAMPLE), st.lists(st.text(max_size=30), max_size=6))
def test_any_typed_lines_are_refused_or_answered_never_a_crash(
    puzzle: Puzzle, lines: list[str]
) -> None:
    typed = [" ".join(line.split()) for line in lines]  # one line each
    stdin = io.StringIO("".join(line + "\n" for line in typed))
    out = io.StringIO()
    run = PuzzleRun([puzzle], Mode.ONE, SolverRecord(), puzzle_id=puzzle.id)
    status = solve_puzzles(run, Terminal(stdin, out, "en"))
    assert status in (EXIT_OK, EXIT_INPUT_ENDED)
    shown = out.getvalue()
    revealed = "is the best decision" in shown or "Not the best" in shown
    assert revealed == (run.answered is not None)
    assert (status == EXIT_INPUT_ENDED) == (run.answered is None and "Puzzles stopped" not in shown)


# -- hidden information ----------------------------------------------------------------------


def transcript(puzzle: Puzzle, lines: list[str], lang: Lang = "en") -> str:
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    out = io.StringIO()
    run = PuzzleRun([puzzle], Mode.ONE, SolverRecord(), puzzle_id=puzzle.id)
    solve_puzzles(run, Terminal(stdin, out, lang))
    return out.getvalue()


def world_view(puzzle: Puzzle, world: World) -> View:
    """The solver's view had the hidden cards been ``world``'s: the same log (the
    solver saw it being played), every other field from a game of that world."""
    view = puzzle.view()
    return dataclasses.replace(from_view(view, world).view(puzzle.seat), log=view.log)


def no_full_game(self: Puzzle) -> Game:
    raise AssertionError(f"puzzle {self.id}: the full game is not for the solver")


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_nothing_before_the_answer_depends_on_the_hidden_cards(
    data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Everything shown before the answer (the board, the log, the list, the help) comes
    from the solver's view only: with the hidden cards of another world of their
    information set, and the full game out of reach, it is shown the same."""
    puzzle = data.draw(st.sampled_from(SAMPLE))
    lines = ["moves", "board", "log", "help", "quit"]
    shown = transcript(puzzle, lines)
    worlds = list_worlds(puzzle.view(), 5_000)
    if worlds is not None:
        world, _ = data.draw(st.sampled_from(worlds))
    else:  # a searched puzzle: too many worlds to list, one drawn at random
        world = sample_world(puzzle.view(), random.Random(data.draw(st.integers(0, 2**32))))
    other = world_view(puzzle, world)
    with monkeypatch.context() as patched:
        patched.setattr(Puzzle, "view", lambda self: other)
        patched.setattr(Puzzle, "game", no_full_game)
        assert transcript(puzzle, lines) == shown


def test_the_reveal_is_the_only_exception(tmp_path: Path) -> None:
    """The worlds' hidden cards appear only after the answer."""
    puzzle = BY_ID[OFFER]
    out = transcript(puzzle, ["board", wrong_answer(puzzle)])
    before, after = out.split("Not the best", 1)
    assert "Chance " not in before and "set aside" not in before
    assert "set aside" in after


# -- the full-screen app --------------------------------------------------------------------

SIZE = (100, 40)


def run_app(app: TableApp, script: object) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await script(app, pilot)  # type: ignore[operator]

    asyncio.run(main())


def keys_for(move: Move, puzzle: Puzzle) -> list[str]:
    view = puzzle.view()
    if move.is_response:
        return [str(view.legal_moves.index(move) + 1), "enter"]
    letter = {"S": "s", "T": "t", "G": "g", "C": "c"}[move.text()[0]]
    cards = move.pairs[0] + move.pairs[1] if move.pairs else move.cards
    slots: list[int] = []
    for card in cards:
        slots.append(next(i for i, c in enumerate(view.hand) if c == card and i not in slots))
    return [letter, *(str(slot + 1) for slot in slots), "enter"]


def test_the_app_answers_by_keys_shows_the_reveal_and_goes_on(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    run = PuzzleRun(PUZZLES, Mode.RATED, SolverRecord(), seed=2, record_path=record)
    first = run.current
    assert first is not None

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        await pilot.press(*keys_for(Move.from_text(first.solution), first))
        await pilot.pause()
        assert isinstance(app.screen, ShowScreen)
        assert run.answered is not None and run.answered.reveal.graded.correct
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen) and run.current != first
        second = run.current
        assert second is not None
        await pilot.press(*keys_for(Move.from_text(wrong_answer(second)), second))
        await pilot.pause()
        assert isinstance(app.screen, ShowScreen)
        await pilot.press("enter", "q")

    app = puzzles_app(run, "en")
    run_app(app, script)
    assert app.return_value == EXIT_OK
    assert list(read_solver(record).answered.values()) == [True, False]


def test_the_app_draws_only_the_solver_s_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app draws from the solver's seat's view only: no other seat's view is asked
    for, and with that view's hidden cards from another world of the information set
    (the full game's views replaced), the screen is drawn the same."""
    puzzle = BY_ID[OFFER]
    worlds = list_worlds(puzzle.view(), 5_000)
    assert worlds is not None and len(worlds) > 1
    drawn: list[str] = []
    seats: set[int] = set()

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        assert isinstance(app.screen, PuzzleScreen)
        drawn.append(screen_text(app))
        await pilot.press("q")

    for world, _ in (worlds[0], worlds[-1]):
        other = world_view(puzzle, world)

        def view_of(game: Game, seat: int, other: View = other) -> View:
            seats.add(seat)
            return other

        run = PuzzleRun([puzzle], Mode.ONE, SolverRecord(), puzzle_id=puzzle.id)
        with monkeypatch.context() as patched:
            patched.setattr(Game, "view", view_of)
            run_app(puzzles_app(run, "en"), script)
    assert seats == {puzzle.seat}
    assert drawn[0] == drawn[1]


def screen_text(app: TableApp) -> str:
    """The screen as plain text (as tests/test_tui.py reads it)."""
    console = Console(width=SIZE[0], file=io.StringIO(), color_system=None, record=True)
    # Textual has no public way to render the screen to text.
    compositor = app.screen._compositor  # noqa: SLF001
    background = app._background_screens  # noqa: SLF001
    console.print(compositor.render_update(full=True, screen_stack=background))
    return console.export_text()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_puzzle_speaks_every_language(lang: Lang) -> None:
    puzzle = BY_ID[OFFER]
    out = transcript(puzzle, ["zz", wrong_answer(puzzle)], lang)
    for key in ("cli_puzzle_values_title", "cli_puzzle_worlds_title", "cli_puzzle_help"):
        assert message(key, lang) in out, key
    assert message("cli_puzzle_malformed", lang, text="zz") in out


@pytest.mark.parametrize("lang", ["fr", "ja"])
def test_the_reveal_names_the_themes_in_the_language(lang: Lang) -> None:
    puzzle = BY_ID[OFFER]  # competition-answer, seventh-turn
    out = transcript(puzzle, [puzzle.solution], lang)
    named = {
        "fr": ("Répondre à un Échange", "Le septième tour"),
        "ja": ("競争への応答", "7番目の手番"),
    }[lang]
    assert all(name in out for name in named), out
    assert "competition-answer" not in out and "seventh-turn" not in out
    assert theme_name("competition-answer", "en") == "Answering a Competition"
    assert theme_name("trade-off", lang) != theme_name("trade-off", "en")
