"""Puzzles: the value and its file, judging, themes, mining, and the shipped set.

Every proved puzzle of the shipped set is proved again with the exact solver (about two
minutes of one core for the 3,435).
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanamikoji.bots.determinize import sample_world
from hanamikoji.bots.exact import list_worlds
from hanamikoji.core.game import Game
from hanamikoji.core.moves import MoveKind
from hanamikoji.core.variants import VARIANTS
from hanamikoji.core.worlds import from_view, hidden_from
from hanamikoji.notation.record_files import ndjson_line, records_to_json, records_to_text
from hanamikoji.notation.records import GameRecord, write_record
from hanamikoji.puzzles.judging import (
    CONFIRM_FACTOR,
    CONFIRM_SEED,
    EXACT_TURNS,
    PROVED_MARGIN,
    SEARCHED_MARGIN,
    exact_verdict,
    search_values,
    searched_verdict,
)
from hanamikoji.puzzles.mine import main
from hanamikoji.puzzles.mining import SEARCH_WORLDS, Miner, greedy_choice
from hanamikoji.puzzles.model import Method, Puzzle, PuzzleError
from hanamikoji.puzzles.selection import Selection
from hanamikoji.puzzles.store import (
    HEADER,
    append_puzzles,
    parse_puzzles,
    puzzle_json,
    read_puzzles,
    shipped_puzzles,
    write_puzzles,
)
from hanamikoji.puzzles.themes import THEMES, level_for

SHIPPED_KEEP_SOLVED = 350
"""The shipped set's ``--keep-solved`` (docs/puzzles.md's command)."""


@pytest.fixture(scope="module")
def mined() -> list[Puzzle]:
    """The puzzles of a few bot games, one per variant at least."""
    miner = Miner()
    return [
        puzzle
        for index, variant in enumerate(list(VARIANTS) * 2)
        for puzzle in miner.bot_game_puzzles(variant, 7, index)
    ]


def reproved(puzzle: Puzzle) -> None:
    """Fail unless the exact solver finds the puzzle's solution again, as far ahead, with
    the same values."""
    game = puzzle.game()
    verdict = exact_verdict(game.view(puzzle.seat), game.legal_moves)
    assert verdict is not None, puzzle.id
    assert verdict.best.text() == puzzle.solution, puzzle.id
    assert verdict.margin >= PROVED_MARGIN, puzzle.id
    found = {move.text(): value for move, value in verdict.values}
    for text, value in puzzle.values:
        assert found[text] == pytest.approx(value, abs=1e-4), (puzzle.id, text)


# -- the value and its file ---------------------------------------------------------------


def test_mined_puzzles_are_valid_proved_and_themed(mined: list[Puzzle]) -> None:
    assert len(mined) >= 6
    assert {p.variant for p in mined} == set(VARIANTS)
    for puzzle in mined:
        puzzle.check()
        view = puzzle.view()
        assert puzzle.greedy == greedy_choice(view, view.generate_legal_moves()).text()
        assert puzzle.method is Method.PROVED
        assert puzzle.margin >= PROVED_MARGIN
        assert set(puzzle.themes) <= set(THEMES) and puzzle.themes
        assert puzzle.level == level_for([value for _, value in puzzle.values])
        reproved(puzzle)


def test_a_puzzle_file_reads_back_what_was_written(tmp_path: Path, mined: list[Puzzle]) -> None:
    for name in ("set.jsonl", "set.jsonl.gz"):
        path = tmp_path / name
        write_puzzles(path, mined[:3])
        append_puzzles(path, mined[3:])
        back = read_puzzles(path)
        assert [puzzle_json(p) for p in back] == [puzzle_json(p) for p in mined]
    gzipped = (tmp_path / "set.jsonl.gz").read_bytes()
    assert gzip.decompress(gzipped).decode().splitlines()[0] == HEADER


def lines_with(data: dict[str, object] | str) -> list[str]:
    return [HEADER, data if isinstance(data, str) else json.dumps(data)]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"seed": "7"}, "field 'seed' has the wrong type (str)"),
        ({"values": [["S:A"]]}, "field 'values' holds [decision, value] pairs"),
        ({"method": "guessed"}, "field 'method' is 'proved' or 'searched', not 'guessed'"),
        ({"extra": 1}, "unknown fields ['extra']"),
        ({"level": 9}, "level is 1 to 5, not 9"),
        ({"moves": "Q:Z"}, "decision 1 ('Q:Z')"),
        ({"solution": "X"}, "the solution is not a decision: 'X'"),
        ({"solution": "S:A"}, "the solution is not the first of the values"),
        ({"margin": 0.01}, "margin is the best value less the next one"),
        ({"greedy": 3}, "field 'greedy' has the wrong type (int)"),
        ({"greedy": "S:A"}, "greedy's decision is not one of the values"),
    ],
)
def test_a_bad_puzzle_is_refused_saying_where(
    mined: list[Puzzle], change: dict[str, object], says: str
) -> None:
    data = {**puzzle_json(mined[0]), "id": "p1", **change}
    with pytest.raises(PuzzleError) as error:
        list(parse_puzzles(lines_with(data), "set.jsonl"))
    assert str(error.value).startswith("set.jsonl line 2: puzzle p1: " + says)


def test_a_bad_file_is_refused_saying_where(mined: list[Puzzle]) -> None:
    good = json.dumps(puzzle_json(mined[0]))
    cases = {
        "f line 1: the header is": ['{"format": "x"}', good],
        "f line 2: not JSON": [HEADER, "{"],
        "f line 3: puzzle classic-7000000-8: the id": [HEADER, good, good],
        "f line 2: a puzzle is a JSON object": [HEADER, "[]"],
        "f: no header line": [],
    }
    for says, lines in cases.items():
        with pytest.raises(PuzzleError, match="^" + says.replace("[", r"\[")):
            list(parse_puzzles(lines, "f"))


def test_a_puzzle_whose_values_miss_a_decision_is_refused(mined: list[Puzzle]) -> None:
    puzzle = dataclasses.replace(mined[0], values=mined[0].values[:1])
    with pytest.raises(PuzzleError, match="every legal decision once"):
        puzzle.check()


def test_a_search_keeps_only_a_best_decision_it_confirms() -> None:
    """Early positions are searched twice; a verdict, when there is one, is the second
    search's and clear (none on these positions at so few worlds)."""
    game = Game("classic", seed=5)
    for _ in range(3):
        view, legal = game.view(game.to_move or 0), game.legal_moves
        verdict = searched_verdict(view, legal, 1, 2)
        if verdict is not None:
            assert verdict.method is Method.SEARCHED and verdict.worlds == 8
            assert verdict.clear(SEARCHED_MARGIN) and len(verdict.values) == len(legal)
        assert exact_verdict(view, legal) is None
        game.push(legal[0])


# -- mining -------------------------------------------------------------------------------


def test_mining_resumes_without_repeating_a_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "set.jsonl"
    assert main(["--variant", "all", "--games", "2", "--seed", "3", "--out", str(out)]) == 0
    first = read_puzzles(out)
    assert main(["--variant", "all", "--games", "4", "--seed", "3", "--out", str(out)]) == 0
    second = read_puzzles(out)
    assert [p.id for p in second[: len(first)]] == [p.id for p in first]
    assert len({p.id for p in second}) == len(second) > len(first)
    assert main(["--variant", "all", "--games", "4", "--seed", "3", "--out", str(out)]) == 0
    assert len(read_puzzles(out)) == len(second)
    assert ", 0 new," in capsys.readouterr().out.splitlines()[-1]


def test_a_selection_keeps_what_greedy_misses_and_a_quota_of_the_rest(
    mined: list[Puzzle],
) -> None:
    missed = [dataclasses.replace(p, greedy=p.values[1][0]) for p in mined]
    solved = [dataclasses.replace(p, greedy=p.solution) for p in mined]
    selection = Selection(1)
    assert all(selection.keeps(p) for p in missed)
    kept = [p for p in solved if selection.keeps(p)]
    kinds = {(p.variant, p.solution_move().kind) for p in solved}
    assert len(kept) == len(kinds) < len(solved)
    resumed = Selection(1)
    resumed.count(kept)
    assert not any(resumed.keeps(p) for p in solved)


def test_mining_in_two_processes_keeps_the_same_puzzles(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    common = ["--variant", "all", "--games", "3", "--seed", "4", "--keep-solved", "2"]
    assert main([*common, "--out", str(one), "--quiet"]) == 0
    assert main([*common, "--out", str(two), "--quiet", "--jobs", "2"]) == 0
    assert one.read_text() == two.read_text()
    assert all(p.greedy is not None for p in read_puzzles(one))


def test_mining_on_ray_keeps_the_same_puzzles(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    here, there = tmp_path / "here.jsonl", tmp_path / "ray.jsonl"
    common = ["--variant", "all", "--games", "2", "--seed", "4", "--quiet"]
    assert main([*common, "--out", str(here)]) == 0
    assert main([*common, "--out", str(there), "--backend", "ray", "--jobs", "2"]) == 0
    assert here.read_text() == there.read_text() != ""


def finished_record(seed: int) -> GameRecord:
    game = Game("classic", seed=seed)
    while not game.is_over():
        game.push(game.legal_moves[0])
    return GameRecord.from_game(game)


def test_an_export_of_several_games_is_mined_game_by_game(tmp_path: Path) -> None:
    """A file of several records, as the web server exports a player's games, in each of
    its forms, gives the puzzles of each record's own file, once."""
    records = [finished_record(11), finished_record(12)]
    alone = tmp_path / "alone"
    alone.mkdir()
    for record in records:
        write_record(alone / f"{record.seed}.hkr", record)
    exports = tmp_path / "exports"
    exports.mkdir()
    (exports / "games.ndjson").write_text("".join(ndjson_line(r) for r in records))
    (exports / "games.json").write_text(records_to_json(records))
    (exports / "games.hkr").write_text(records_to_text(records))
    one, many = tmp_path / "alone.jsonl", tmp_path / "exports.jsonl"
    assert main(["--records", str(alone), "--out", str(one), "--quiet"]) == 0
    assert main(["--records", str(exports), "--out", str(many), "--quiet"]) == 0
    expected = {p.id for p in read_puzzles(one)}
    mined = read_puzzles(many)
    assert expected and {p.id for p in mined} == expected
    # The first export read (games.hkr) holds every puzzle; the others add none.
    assert {p.source for p in mined} <= {"record games.hkr#1", "record games.hkr#2"}
    assert main(["--records", str(exports), "--out", str(many), "--quiet"]) == 0
    assert len(read_puzzles(many)) == len(mined)


def test_records_are_mined_once_and_other_files_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    game = Game("classic", seed=11)
    while not game.is_over():
        game.push(game.legal_moves[0])
    write_record(folder / "a.hkr", GameRecord.from_game(game))
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    out = tmp_path / "set.jsonl"
    assert main(["--records", str(folder), "--out", str(out), "--quiet"]) == 0
    puzzles = read_puzzles(out)
    assert puzzles and all(p.source == "record a.hkr" for p in puzzles)
    assert all(p.id.startswith("classic-11-") and "-r" in p.id for p in puzzles)
    assert main(["--records", str(folder), "--out", str(out), "--quiet"]) == 0
    assert len(read_puzzles(out)) == len(puzzles)


# -- the shipped set ----------------------------------------------------------------------


def test_the_shipped_set_holds_2000_valid_puzzles_in_every_variant() -> None:
    puzzles = shipped_puzzles(check=True)
    assert len(puzzles) >= 2000
    assert {p.variant for p in puzzles} == set(VARIANTS)
    for puzzle in puzzles:
        assert set(puzzle.themes) <= set(THEMES)


def test_the_shipped_set_is_selected_as_documented() -> None:
    """Every puzzle records greedy's decision; greedy misses some, and of those it
    solves there are at most the documented quota of each variant and kind."""
    puzzles = shipped_puzzles()
    assert all(p.greedy is not None for p in puzzles)
    assert any(Selection.missed(p) for p in puzzles)
    solved = Selection(SHIPPED_KEEP_SOLVED)
    assert all(solved.keeps(p) for p in puzzles if not Selection.missed(p))
    assert {p.variant for p in puzzles if Selection.missed(p)} == set(VARIANTS)


def test_the_shipped_searched_puzzles_hold_their_record() -> None:
    """A searched puzzle is before its round's last two turns, its values are the second
    search's (four times the first's worlds), its margin and level are its values'."""
    searched = [p for p in shipped_puzzles() if p.method is Method.SEARCHED]
    assert searched
    for puzzle in searched:
        view = puzzle.view()
        assert view.deck_size >= EXACT_TURNS, puzzle.id
        assert puzzle.worlds == SEARCH_WORLDS * CONFIRM_FACTOR, puzzle.id
        numbers = [value for _, value in puzzle.values]
        assert puzzle.margin == pytest.approx(numbers[0] - numbers[1], abs=2e-4)
        assert puzzle.margin >= SEARCHED_MARGIN - 1e-4, puzzle.id
        assert puzzle.level == level_for(numbers), puzzle.id
        assert exact_verdict(view, view.generate_legal_moves()) is None


def test_a_shipped_searched_puzzle_is_searched_again_alike() -> None:
    """The second search, seeded from the puzzle's game and ply, finds its values again
    (the one with the fewest decisions, to keep the test short)."""
    searched = [p for p in shipped_puzzles() if p.method is Method.SEARCHED]
    puzzle = min(searched, key=lambda p: (len(p.values), p.id))
    view = puzzle.view()
    seed = puzzle.seed + puzzle.ply + CONFIRM_SEED
    values = search_values(view, view.generate_legal_moves(), seed, puzzle.worlds)
    found = {move.text(): value for move, value in values.items()}
    for text, value in puzzle.values:
        assert found[text] == pytest.approx(value, abs=1e-4), (puzzle.id, text)


def test_the_shipped_proved_puzzles_are_proved_again() -> None:
    proved = [p for p in shipped_puzzles() if p.method is Method.PROVED]
    assert proved
    for puzzle in proved:
        reproved(puzzle)


# -- hidden information -------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_solver_is_shown_nothing_their_seat_could_not_know(data: st.DataObject) -> None:
    """The solver's view is the same in any other world of their information set (so it
    holds nothing of the hidden cards), and the opponent's Secret and Trade-off cards
    this round are hidden in its log."""
    puzzle = data.draw(st.sampled_from(shipped_puzzles()))
    game = puzzle.game()
    view = puzzle.view()
    me, them = puzzle.seat, 1 - puzzle.seat
    assert view.player == me and view.reveal is None
    assert view.hand == game.hand(me)
    for entry in view.log:
        if entry.seat == them and entry.move.kind in (MoveKind.SECRET, MoveKind.TRADE_OFF):
            assert entry.move.hidden and not entry.move.cards
    if puzzle.method is Method.PROVED:
        worlds = list_worlds(view, 5_000)
        assert worlds is not None
        assert hidden_from(game, me) in [w for w, _ in worlds]
        world, _ = data.draw(st.sampled_from(worlds))
    else:  # too many worlds to list before the last two turns: one drawn at random
        world = sample_world(view, random.Random(data.draw(st.integers(0, 2**32))))
    other = from_view(view, world).view(me)
    shown = ("hand", "drawn", "secret", "tradeoff", "placed", "used", "hand_sizes", "deck_size")
    for name in (*shown, "pending", "favor", "to_move", "round", "rounds"):
        assert getattr(other, name) == getattr(view, name), name
