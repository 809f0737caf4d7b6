"""\"Make this a puzzle\" (issue 52, ``POST /api/puzzles/make``): a decision of the
session's player's own finished game becomes a proved puzzle, judged in the bots'
workers; refused for another's game or decision, a game in play, a position out of the
exact solver's reach or without a clearly best decision; made once."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from serving import app_client, served
from starlette.testclient import TestClient
from web_support import csrf, legal_texts, receive_state, refusal, register

from hanamikoji.core.game import Game
from hanamikoji.interfaces.web.games import thinkers
from hanamikoji.puzzles.making import make_puzzle
from hanamikoji.puzzles.model import Puzzle

JSONDict = dict[str, Any]


@dataclass
class Played:
    """A finished game of the signed-in account (seat 0) against the level 1 bot, and
    what the exact solver makes of each of its decisions (by ply, from 1)."""

    id: str
    session: JSONDict
    verdicts: dict[int, Puzzle | str]
    seats: dict[int, int]


NEW_GAME = {"opponent": "bot", "level": 1, "first": "me", "variant": "classic"}


def play(client: TestClient, session: JSONDict, seed: int) -> tuple[str, int]:
    """A new game against the level 1 bot, played to its end by random decisions."""
    created = client.post("/api/games", json=NEW_GAME, headers=csrf(session))
    assert created.status_code == 201, created.text
    game = created.json()
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
        state = receive_state(ws)
        while state["outcome"] is None:
            if state["to_move"] == state["seat"]:
                move = rng.choice(legal_texts(state))
                ws.send_text(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
            state = receive_state(ws, state["ply"] + 1)
    return game["id"], int(state["ply"])


def judged(client: TestClient, game_id: str) -> tuple[dict[int, Puzzle | str], dict[int, int]]:
    stored = served(client).games.load(game_id)
    assert stored is not None
    game = Game(stored.variant, seed=stored.seed, first_player=stored.first_player)
    verdicts: dict[int, Puzzle | str] = {}
    seats: dict[int, int] = {}
    for ply, text in enumerate(stored.decisions, start=1):
        seat = game.to_move
        assert seat is not None
        seats[ply] = seat
        if seat == 0:
            verdicts[ply] = make_puzzle(
                stored.variant, stored.seed, stored.first_player, stored.decisions[: ply - 1], "x"
            )
        game.push_text(text)
    return verdicts, seats


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with app_client() as running:
        yield running


@pytest.fixture(scope="module")
def played(client: TestClient) -> Played:
    session = register(client, "maker")
    for seed in range(20):
        game_id, _ = play(client, session, seed)
        verdicts, seats = judged(client, game_id)
        kinds = {type(v).__name__ if isinstance(v, Puzzle) else v for v in verdicts.values()}
        if {"Puzzle", "out_of_reach"} <= kinds:
            return Played(game_id, session, verdicts, seats)
    raise AssertionError("no game of 20 had a puzzle")


def make(client: TestClient, session: JSONDict | None, game: str, ply: Any) -> Any:
    headers = {} if session is None else csrf(session)
    return client.post("/api/puzzles/make", json={"game": game, "ply": ply}, headers=headers)


def test_a_clear_decision_of_ones_own_game_becomes_a_puzzle(
    client: TestClient, played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    ply, puzzle = next((p, v) for p, v in played.verdicts.items() if isinstance(v, Puzzle))
    response = make(client, played.session, played.id, ply)
    assert response.status_code == 201, response.text
    made = response.json()["id"]
    assert made == f"own-{played.id}-{ply}"
    question = client.get(f"/api/puzzles/{made}").json()
    assert question["state"]["seat"] == 0 and question["state"]["ply"] == ply - 1
    assert sorted(question["decisions"]) == sorted(text for text, _ in puzzle.values)
    # the question holds no hidden card: what a new puzzle shows is the view only
    for field in ("seed", "moves", "values", "solution", "opponent_hand", "removed"):
        assert f'"{field}"' not in json.dumps(question)
    result = client.post(
        f"/api/puzzles/{made}/answer",
        json={"answer": puzzle.solution},
        headers=csrf(played.session),
    )
    assert result.status_code == 200, result.text
    assert result.json()["correct"] is True and result.json()["solution"] == puzzle.solution
    # made once: asked again, the same puzzle, judged no more
    calls: list[Any] = []

    def counted(*args: Any) -> Any:
        calls.append(args)
        return make_puzzle(*args)

    monkeypatch.setattr(thinkers, "make_puzzle", counted)
    again = make(client, played.session, played.id, ply)
    assert again.status_code == 201 and again.json()["id"] == made and calls == []
    owned = served(client).puzzles.store.own_of(played.session["player"]["id"])
    assert [p.id for p in owned] == [made]


def test_what_is_not_a_puzzle_is_refused_with_its_code(client: TestClient, played: Played) -> None:
    far = next(p for p, v in played.verdicts.items() if v == "out_of_reach")
    refusal(make(client, played.session, played.id, far), 422, "err_puzzle_out_of_reach")
    unclear = [p for p, v in played.verdicts.items() if v == "unclear"]
    if unclear:
        refusal(make(client, played.session, played.id, unclear[0]), 422, "err_puzzle_unclear")
    theirs = next(p for p, seat in played.seats.items() if seat == 1)
    refusal(make(client, played.session, played.id, theirs), 403, "err_puzzle_not_yours")
    refusal(make(client, played.session, played.id, 400), 400, "err_bad_field")
    refusal(make(client, played.session, played.id, 0), 400, "err_bad_field")
    refusal(make(client, played.session, "nosuchgame", 1), 403, "err_puzzle_not_yours")
    refusal(
        client.post("/api/puzzles/make", json={"game": played.id, "ply": 1}),
        403,
        "err_csrf",
    )


def test_another_players_game_and_a_game_in_play_are_refused(
    client: TestClient, played: Played
) -> None:
    ply = next(p for p, v in played.verdicts.items() if isinstance(v, Puzzle))
    other = register(client, "stranger")
    refusal(make(client, other, played.id, ply), 403, "err_puzzle_not_yours")
    client.cookies.clear()
    refusal(make(client, None, played.id, ply), 403, "err_puzzle_not_yours")
    mine = register(client, "newcomer")
    created = client.post("/api/games", json=NEW_GAME, headers=csrf(mine))
    assert created.status_code == 201
    refusal(make(client, mine, created.json()["id"], 1), 409, "err_not_over")
