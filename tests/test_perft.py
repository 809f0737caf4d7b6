"""Data-driven checks against tests/perft/*.json (written by scripts/make-perft).

Each file records fixed lines of play and perft counts. Here the lines are replayed by
the rule stated in the file, the counts are recomputed with the engine, and the small
depths are recounted by the brute-force generator of conftest.py, which does not use
the engine's move generator.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import brute_force_moves, brute_force_perft

from hanamikoji.core import Game, Move

PERFT_DIR = Path(__file__).parent / "perft"
FILES = sorted(PERFT_DIR.glob("*.json"))
DATA: dict[str, dict[str, Any]] = {
    path.stem: json.loads(path.read_text(encoding="utf-8")) for path in FILES
}

# The rule the files state in "line_rule".
MULTIPLIER = 7919
OFFSET = 13


def choose(index: int, moves: tuple[Move, ...]) -> Move:
    ordered = sorted(moves, key=str)
    return ordered[(index * MULTIPLIER + OFFSET) % len(ordered)]


LINES = [(stem, line) for stem, data in DATA.items() for line in data["lines"]]
PERFTS = [(stem, entry) for stem, data in DATA.items() for entry in data["perft"]]


def line_of(stem: str, line_id: str) -> dict[str, Any]:
    lines: list[dict[str, Any]] = [line for line in DATA[stem]["lines"] if line["id"] == line_id]
    (line,) = lines
    return line


def game_at(stem: str, line: dict[str, Any], after: int) -> Game:
    game = Game(DATA[stem]["variant"], seed=line["seed"], first_player=line["first_player"])
    for text in line["decisions"][:after]:
        game.push_text(text)
    return game


def perft_profile(game: Game, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(level: int) -> None:
        moves = game.legal_moves
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                game.push(move)
                walk(level + 1)
                game.pop()

    walk(0)
    return counts


def test_the_data_files_are_there_and_say_how_they_were_made() -> None:
    assert {path.stem for path in FILES} == {"classic", "three-rounds", "french", "classic-cap2"}
    for data in DATA.values():
        assert data["generated_by"] == ".venv/bin/python scripts/make-perft"
        assert f"(i * {MULTIPLIER} + {OFFSET}) % n" in data["line_rule"]
        assert data["lines"] and data["perft"]
        assert all(len(entry["counts"]) == data["depth"] >= 4 for entry in data["perft"])


def test_the_lines_cover_every_way_a_game_ends() -> None:
    endings = {(DATA[stem]["variant"], line["outcome"]["termination"]) for stem, line in LINES}
    assert endings >= {
        ("classic", "charm"),
        ("classic", "geishas"),
        ("three-rounds", "charm"),
        ("three-rounds", "most-geishas"),
        ("three-rounds", "most-charm"),
        ("three-rounds", "shared-win"),
        ("french", "most-charm"),
        ("french", "no-winner"),
        ("classic/cap=2", "round-cap"),
    }
    assert {line["first_player"] for _, line in LINES} == {0, 1}


@pytest.mark.parametrize(("stem", "line"), LINES, ids=[line["id"] for _, line in LINES])
def test_line_replays_with_the_recorded_legal_counts(stem: str, line: dict[str, Any]) -> None:
    game = game_at(stem, line, 0)
    decisions = line["decisions"]
    counts = line["legal_counts"]
    assert len(counts) == len(decisions) + 1
    for index, (text, count) in enumerate(zip(decisions, counts, strict=False)):
        moves = game.legal_moves
        assert len(moves) == count, f"decision {index}"
        assert len(brute_force_moves(game)) == count, f"decision {index} (brute force)"
        move = choose(index, moves)
        assert str(move) == text, f"decision {index}"
        game.push(move)
    assert len(game.legal_moves) == counts[-1] == 0
    outcome = game.outcome
    assert outcome is not None
    expected = line["outcome"]
    assert outcome.winner == expected["winner"]
    assert outcome.termination.value == expected["termination"]
    assert list(outcome.charm) == expected["charm"]
    assert list(outcome.geishas) == expected["geishas"]
    assert outcome.rounds == expected["rounds"]


@pytest.mark.parametrize(
    ("stem", "entry"), PERFTS, ids=[f"{e['line']}-after{e['after']}" for _, e in PERFTS]
)
def test_perft_counts(stem: str, entry: dict[str, Any]) -> None:
    game = game_at(stem, line_of(stem, entry["line"]), entry["after"])
    counts = entry["counts"]
    assert perft_profile(game, len(counts)) == counts


@pytest.mark.parametrize(
    ("stem", "entry"), PERFTS, ids=[f"{e['line']}-after{e['after']}" for _, e in PERFTS]
)
def test_perft_small_depths_by_brute_force(stem: str, entry: dict[str, Any]) -> None:
    game = game_at(stem, line_of(stem, entry["line"]), entry["after"])
    counts = entry["counts"]
    assert brute_force_perft(game, 1) == counts[0]
    assert brute_force_perft(game, 2) == counts[1]


@pytest.mark.parametrize("stem", sorted(DATA))
def test_perft_depth_three_by_brute_force_at_the_start(stem: str) -> None:
    (stem_, entry) = next((s, e) for s, e in PERFTS if s == stem and e["after"] == 0)
    game = game_at(stem_, line_of(stem_, entry["line"]), 0)
    assert brute_force_perft(game, 3) == entry["counts"][2]
