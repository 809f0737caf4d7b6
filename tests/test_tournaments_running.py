"""``hanamikoji tournament`` and the offline runner: games on the arena's backends."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from hanamikoji.arena import MatchConfig, ProcessBackend, players_from_names
from hanamikoji.interfaces import tournament_cli
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.notation.record_files import records_from_json, records_from_text
from hanamikoji.tournaments import Arena, Swiss, standings
from hanamikoji.tournaments.running import Field, Limit, Played, run_arena, run_swiss


def _run(argv: list[str]) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    code = run_command(argv, Streams(io.StringIO(), stdout, stderr))
    return code, stdout.getvalue(), stderr.getvalue()


def _field(*names: str) -> Field:
    return Field(tuple(players_from_names(list(names))), MatchConfig("french"), first_seed=10)


def test_every_game_starts_with_its_pairing_s_first_player() -> None:
    field = _field("random", "greedy", "random", "greedy")
    played: list[Played] = []
    event = run_swiss(Swiss(3, field.entrants()), field, ProcessBackend(jobs=1), played.append)
    assert event.finished and len(played) == 6
    seeds = [int(str(p.game)) for r in event.played for p in r.pairings]
    assert seeds == list(range(10, 16))  # the n-th game paired plays seed first_seed + n
    for game in played:
        result = game.result
        assert result.players[result.first_player] == game.pairing.first
        record = game.record()
        assert record.event is not None and record.event.startswith("hanamikoji tournament")


def test_an_arena_on_two_processes_pairs_players_as_their_games_end() -> None:
    field = _field("random", "greedy", "random", "greedy", "random")
    played: list[Played] = []
    arena = run_arena(
        Arena(field.entrants()), field, ProcessBackend(jobs=2), Limit(games=9), played.append
    )
    assert arena.over
    counted = [game for game in arena.games if game.result is not None]
    assert len(counted) == len(played) == 9
    for entrant in arena.entrants:
        opponents = [g.opponent_of(entrant.id) for g in arena.history(entrant.id)]
        assert all(a != b for a, b in itertools.pairwise(opponents))
    assert sum(line.games for line in arena.standings()) == 18


def test_an_arena_whose_time_is_up_counts_no_more_games() -> None:
    ticks = iter([0.0, 1.0, 2.0, 100.0, 200.0, 300.0])
    field = _field("random", "greedy", "random", "greedy")
    limit = Limit(seconds=10, clock=lambda: next(ticks))
    arena = run_arena(Arena(field.entrants()), field, ProcessBackend(jobs=1), limit)
    # Start at 0; two games end at 1 and 2 (counted), the third at 100 (too late).
    assert sum(game.result is not None for game in arena.games) == 2
    assert arena.over


def test_the_swiss_command_prints_standings_and_writes_the_records(tmp_path: Path) -> None:
    assert tournament_cli.configure_tournament is not None
    records = tmp_path / "event.hkr"
    argv = ["tournament", "--swiss", "3", "random", "greedy", "random", "--variant", "french"]
    code, out, err = _run([*argv, "--jobs", "1", "--records", str(records)])
    assert code == 0, err
    assert "Swiss, 3 rounds, french" in out
    assert "BH" in out and "SB" in out and "random#2" in out
    assert f"Records: {records}" in out
    read = records_from_text(records.read_text(encoding="utf-8"))
    assert len(read) == 3  # one game a round, one player with the bye
    assert all((r.event or "").startswith("hanamikoji tournament: Swiss, round") for r in read)


def test_the_json_report_is_the_tournament_and_its_standings(tmp_path: Path) -> None:
    records = tmp_path / "event.json"
    argv = ["tournament", "--swiss", "2", "random", "greedy", "random", "greedy", "--json"]
    runs = []
    for _ in range(2):
        code, out, err = _run(
            [*argv, "--variant", "french", "--jobs", "1", "--records", str(records)]
        )
        assert code == 0, err
        runs.append(json.loads(out))
    first: dict[str, Any] = runs[0]
    assert first["tournament"] == runs[1]["tournament"]  # seeded: the same event again
    event = Swiss.from_json(first["tournament"])
    assert first["standings"] == [line.to_json() for line in standings(event)]
    read = records_from_json(records.read_text(encoding="utf-8"))
    pairings = [p for r in event.played for p in r.pairings]
    assert len(read) == len(pairings) == 4
    for record, pairing in zip(read, pairings, strict=True):
        assert set(record.players) == set(pairing.players)
        assert record.players[record.first_player] == pairing.first
        assert record.seed == int(str(pairing.game))


def test_the_arena_command_bounded_by_games() -> None:
    argv = ["tournament", "--games", "5", "random", "greedy", "random", "--variant", "french"]
    code, out, err = _run([*argv, "--jobs", "1", "--json"])
    assert code == 0, err
    report = json.loads(out)
    assert report["kind"] == "arena"
    arena = Arena.from_json(report["tournament"])
    assert arena.over and sum(game.result is not None for game in arena.games) == 5
    assert [line["rank"] for line in report["standings"]] == [1, 2, 3]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "random", "greedy"], "one of --swiss"),
        (["tournament", "--swiss", "2", "--games", "3", "random", "greedy"], "bounds an arena"),
        (["tournament", "--swiss", "2", "random"], "at least two players"),
        (["tournament", "--swiss", "0", "random", "greedy"], "a number of rounds"),
        (["tournament", "--arena", "nan", "random", "greedy"], "minutes"),
        (["tournament", "--swiss", "1", "random", "nobot"], "unknown bot"),
        (["tournament", "--swiss", "1", "random", "greedy", "--variant", "x"], "variant"),
        (["tournament", "--swiss", "1", "a", "b", "--engine", "c=cmd"], "not among"),
    ],
)
def test_what_the_command_refuses(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(argv)
    assert code == 2
    assert message in err + capsys.readouterr().err
