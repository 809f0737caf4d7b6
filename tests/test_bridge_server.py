"""``hanamikoji bridge`` against a real ``hanamikoji serve`` (issue 50): two bot accounts
made through the API, each played by a bridge process (one an external engine process,
``hanamikoji engine``, one a built-in level), a rated challenge made through the API and
accepted by the other bridge's policy, the whole game played and both records written.
Then the same through nginx in front of two instances on PostgreSQL, one of them killed
mid-game: the game finishes, both bridges' streams resume, no decision lost or posted
twice (marked as tests/test_web_deploy.py is: PostgreSQL and nginx)."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx2 as httpx
import pytest
from bridged import BridgeProcess, bearer, bot_account, unique_name, wait_for
from conftest import DEPLOYMENT_NOT_RUN
from postgres_db import URL, needs_postgres, postgres_schemas
from serving import Server, free_port
from stack import Stack, find_nginx

from hanamikoji.notation.records import read_record

ENGINE = ["--", sys.executable, "-m", "hanamikoji", "engine", "--bot", "greedy"]
GAME_SECONDS = 120.0


def challenge(base_url: str, token: str, dest: str) -> str:
    """A rated, untimed classic challenge to ``dest``, made through the API: its id."""
    made = httpx.post(
        f"{base_url}/api/challenge/{dest}",
        json={"variant": "classic", "clock": None, "rated": True, "first": "random"},
        headers=bearer(token),
        timeout=30,
    )
    assert made.status_code == 200, made.text
    found: str = made.json()["challenge"]["id"]
    return found


def game_of(bridge: BridgeProcess) -> str:
    """The id of the game the bridge started (its log's first game line)."""
    for line in bridge.log.splitlines():
        if ": ply " in line or " vs " in line:
            return line.split("game ", 1)[1].split(":", 1)[0]
    return ""


def check_game(bridges: tuple[BridgeProcess, BridgeProcess], game_id: str) -> None:
    """Both records written and alike; each bridge posted each of its decisions once, and
    every decision of the record is one a bridge posted (none lost, none twice)."""
    records = [bridge.record(game_id) for bridge in bridges]
    assert all(records), [bridge.log for bridge in bridges]
    games = [read_record(path).replay() for path in records if path]
    moves = [move.text() for move in games[0].move_stack]
    assert moves == [move.text() for move in games[1].move_stack]
    posted = sorted(bridges[0].played(game_id) + bridges[1].played(game_id))
    plies = [ply for ply, _ in posted]
    assert len(plies) == len(set(plies)), posted  # never twice for one position
    for ply, decision in posted:
        assert moves[ply] == decision, (ply, decision, moves)
    # The game's decisions are exactly the ones the bridges posted.
    assert len(posted) == len(moves), (posted, moves)
    for bridge in bridges:
        assert "was refused" not in bridge.log, bridge.log


def connected(bridge: BridgeProcess) -> None:
    wait_for(lambda: "listening" in bridge.log, 60, "the bridge connects")


def rating_games(base_url: str, token: str) -> int:
    account = httpx.get(f"{base_url}/api/account", headers=bearer(token), timeout=30).json()
    games: int = account["ratings"].get("classic", {}).get("games", 0)
    return games


def test_two_bridged_bots_play_a_rated_game_on_a_real_server(tmp_path: Path) -> None:
    with Server(tmp_path / "games.sqlite", free_port()) as server:
        names = unique_name("Eng"), unique_name("Lvl")
        tokens = [bot_account(server.url, name) for name in names]
        with (
            BridgeProcess(server.url, tokens[0], tmp_path / "engine", ENGINE) as engine,
            BridgeProcess(
                server.url, tokens[1], tmp_path / "level", ["--level", "3"], "--modes", "rated"
            ) as level,
        ):
            for bridge in (engine, level):
                connected(bridge)
            challenge_id = challenge(server.url, tokens[0], names[1])
            wait_for(lambda: f"challenge {challenge_id} from" in level.log, 30, "seen")
            assert "accepted" in level.log
            game_id = wait_for(lambda: game_of(engine), 30, "the game starts")
            wait_for(
                lambda: engine.record(game_id) and level.record(game_id),
                GAME_SECONDS,
                "both records",
            )
        check_game((engine, level), game_id)
        assert all(rating_games(server.url, token) == 1 for token in tokens)
        assert "engine failed" not in engine.log


@needs_postgres
@pytest.mark.skipif(
    find_nginx() is None,
    reason=f"{DEPLOYMENT_NOT_RUN}nginx is not installed (Debian: apt-get install nginx)",
)
class BackupStack(Stack):
    """The stack with its last instance nginx's ``backup``: nginx passes every request to
    the first until it fails, then to the second (so the first holds every stream)."""

    def site(self) -> str:
        last = f"server 127.0.0.1:{self.instances[-1].port};"
        return super().site().replace(last, last[:-1] + " backup;")


@needs_postgres
@pytest.mark.skipif(
    find_nginx() is None,
    reason=f"{DEPLOYMENT_NOT_RUN}nginx is not installed (Debian: apt-get install nginx)",
)
def test_a_bridged_game_survives_an_instance_killed_behind_nginx(tmp_path: Path) -> None:
    assert URL is not None
    # The built-in side thinks 1 s a decision: the game is long enough to kill an
    # instance in its middle.
    slow = ["--bot", "ismcts", "--movetime", "1"]
    fast = ("--bot-delay", "0", "--bot-processes", "0", "--create-rate", "off")
    with postgres_schemas() as new_schema, BackupStack(new_schema(), 2, options=fast) as stack:
        doomed, survivor = stack.instances
        names = unique_name("Eng"), unique_name("Lvl")
        tokens = [bot_account(stack.url, name) for name in names]
        with (
            BridgeProcess(stack.url, tokens[0], tmp_path / "engine", ENGINE) as engine,
            BridgeProcess(stack.url, tokens[1], tmp_path / "level", slow) as level,
        ):
            for bridge in (engine, level):
                connected(bridge)
            challenge(stack.url, tokens[0], names[1])
            game_id = wait_for(lambda: game_of(engine) and game_of(level), 30, "the game")
            wait_for(lambda: level.played(game_id), 60, "a first decision")
            before = len(engine.played(game_id)) + len(level.played(game_id))
            # Every stream of both bridges is on the first instance: all are cut.
            doomed.kill()
            wait_for(
                lambda: engine.record(game_id) and level.record(game_id),
                GAME_SECONDS,
                "both records after the kill",
            )
            assert survivor.running()
        check_game((engine, level), game_id)
        after = len(engine.played(game_id)) + len(level.played(game_id))
        assert after > before  # decisions made after the kill, on the survivor
        for bridge in (engine, level):
            # Each lost its streams to the killed instance and opened them again.
            assert "again in" in bridge.log, bridge.log
            assert "stopped:" not in bridge.log, bridge.log
