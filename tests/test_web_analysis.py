"""The analysis of a finished game over HTTP: refused before the end and to a wrong
token, run in the bots' workers with its progress, stored once (a second request, a
restart, the other seat: no decision is analysed again), limited in number."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import app_client
from starlette.testclient import TestClient
from web_support import bearer, legal_texts, receive_state

from hanamikoji.bots.analysis import THRESHOLDS, AnalysisSettings, analyse_decision
from hanamikoji.interfaces.web.catalog.lookup import UI
from hanamikoji.interfaces.web.db.analyses import AnalysisStore, StoredAnalysis
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore, new_game_row
from hanamikoji.interfaces.web.games import thinkers as web_bots
from hanamikoji.notation.records import GameRecord

JSONDict = dict[str, Any]
WORLDS = 4
"""Few worlds per searched decision: a whole game's analysis in a second or two."""
LABELS = {"", *(label for _, label in THRESHOLDS)}


def make_client(db_url: str = "sqlite://", limit: int = 2) -> TestClient:
    return app_client(db_url, analysis_worlds=WORLDS, analysis_limit=limit)


class Counting:
    """``analyse_decision`` counted, and held back while ``gate`` is closed."""

    def __init__(self) -> None:
        self.calls = 0
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, record: GameRecord, index: int, settings: AnalysisSettings) -> Any:
        self.calls += 1
        assert settings.worlds == WORLDS
        if not self.gate.wait(timeout=30):
            raise TimeoutError("the gate stayed closed")
        return analyse_decision(record, index, settings)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counting]:
    counter = Counting()
    monkeypatch.setattr(web_bots, "analyse_decision", counter)
    yield counter
    counter.gate.set()


@pytest.fixture
def client() -> Iterator[TestClient]:
    with make_client() as test_client:
        yield test_client


def new_game(client: TestClient) -> JSONDict:
    response = client.post(
        "/api/games", json={"opponent": "bot", "level": 1, "first": "me", "variant": "classic"}
    )
    assert response.status_code == 201, response.text
    body: JSONDict = response.json()
    return body


def play_to_the_end(client: TestClient, game: JSONDict, seed: int) -> int:
    """Random legal decisions against the level 1 bot until the game is over; its plies."""
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
        state = receive_state(ws)
        while state["outcome"] is None:
            if state["to_move"] == state["seat"]:
                move = rng.choice(legal_texts(state))
                ws.send_text(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
            state = receive_state(ws, state["ply"] + 1)
    ply: int = state["ply"]
    return ply


def analysis_url(game: JSONDict) -> str:
    return f"/api/games/{game['id']}/analysis"


def wait_until_done(client: TestClient, game: JSONDict, token: str | None = None) -> JSONDict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        response = client.get(analysis_url(game), headers=bearer(token or game["token"]))
        assert response.status_code == 200, response.text
        body: JSONDict = response.json()
        assert body["status"] in ("running", "done"), body
        assert 0 <= body["done"] <= body["total"]
        if body["status"] == "done":
            return body
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


# -- the tests ----------------------------------------------------------------------------


def test_the_analysis_is_refused_before_the_end_and_stored_once_after(
    client: TestClient, counting: Counting
) -> None:
    game = new_game(client)
    for method in (client.get, client.post):
        refused = method(analysis_url(game), headers=bearer(game["token"]))
        assert refused.status_code == 409 and refused.json()["code"] == "err_not_over"
    plies = play_to_the_end(client, game, seed=1)
    assert counting.calls == 0  # nothing is analysed before anyone asks
    assert client.get(analysis_url(game), headers=bearer(game["token"])).json() == {
        "status": "none",
        "done": 0,
        "total": 0,
    }
    started = client.post(analysis_url(game), headers=bearer(game["token"]))
    assert started.status_code in (200, 202), started.text
    assert started.json()["total"] == plies
    done = wait_until_done(client, game)
    decisions = done["decisions"]
    assert done["total"] == done["done"] == len(decisions) == plies
    assert [d["ply"] for d in decisions] == list(range(1, plies + 1))
    analysed = [d for d in decisions if not d["forced"]]
    assert counting.calls == len(analysed) > 0  # forced decisions are not searched
    for decision in analysed:
        assert decision["label"] in LABELS
        assert 0 <= decision["played_value"] <= decision["best_value"] <= 1
        assert decision["played_move"]["text"] == decision["played"]
        assert decision["best_move"]["text"] == decision["best"]
    assert [s["seat"] for s in done["summary"]] == [1, 2]
    assert done["budget"]["worlds"] == WORLDS
    # Asked again, with either route: the stored analysis, nothing analysed again.
    again = client.post(analysis_url(game), headers=bearer(game["token"]))
    assert again.status_code == 200 and again.json() == done
    assert counting.calls == len(analysed)


def test_a_stored_analysis_outlives_a_restart(tmp_path: Path, counting: Counting) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with make_client(url) as client:
        game = new_game(client)
        play_to_the_end(client, game, seed=2)
        client.post(analysis_url(game), headers=bearer(game["token"]))
        done = wait_until_done(client, game)
    calls = counting.calls
    with make_client(url) as restarted:
        assert restarted.get(analysis_url(game), headers=bearer(game["token"])).json() == done
        answer = restarted.post(analysis_url(game), headers=bearer(game["token"]))
        assert answer.json() == done
    assert counting.calls == calls


def test_a_wrong_token_or_another_site_gets_nothing(client: TestClient, counting: Counting) -> None:
    game = new_game(client)
    play_to_the_end(client, game, seed=3)
    for method in (client.get, client.post):
        for headers in (bearer("not-a-seat"), {}):
            refused = method(analysis_url(game), headers=headers)
            assert refused.status_code == 404 and refused.json()["code"] == "err_bad_token"
    cross_site = client.post(
        analysis_url(game), headers={**bearer(game["token"]), "Origin": "http://evil.example"}
    )
    assert cross_site.status_code == 403 and cross_site.json()["code"] == "err_origin"
    unknown = client.get("/api/games/nope/analysis", headers=bearer(game["token"]))
    assert unknown.status_code == 404
    assert counting.calls == 0


def test_one_run_per_game_and_a_limit_on_games_at_once(counting: Counting) -> None:
    with make_client(limit=1) as client:
        first, second = new_game(client), new_game(client)
        play_to_the_end(client, first, seed=4)
        play_to_the_end(client, second, seed=5)
        counting.gate.clear()
        started = client.post(analysis_url(first), headers=bearer(first["token"]))
        assert started.status_code == 202 and started.json()["status"] == "running"
        # The same game again: the same run, not another.
        again = client.post(analysis_url(first), headers=bearer(first["token"]))
        assert again.status_code == 202 and again.json()["status"] == "running"
        over = client.post(analysis_url(second), headers=bearer(second["token"]))
        assert over.status_code == 429 and over.json()["code"] == "err_rate_limited"
        assert int(over.headers["Retry-After"]) > 0
        assert client.get(analysis_url(second), headers=bearer(second["token"])).json()[
            "status"
        ] == ("none")
        deadline = time.monotonic() + 10
        while counting.calls == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert counting.calls == 1  # held at its first decision: one run, one at a time
        counting.gate.set()
        wait_until_done(client, first)
        # Done: the next game may be analysed.
        assert client.post(analysis_url(second), headers=bearer(second["token"])).status_code in (
            200,
            202,
        )
        wait_until_done(client, second)


def test_an_analysis_that_fails_can_be_asked_for_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(record: GameRecord, index: int, settings: AnalysisSettings) -> Any:
        raise RuntimeError("a defect")

    game = new_game(client)
    play_to_the_end(client, game, seed=6)
    monkeypatch.setattr(web_bots, "analyse_decision", failing)
    client.post(analysis_url(game), headers=bearer(game["token"]))
    deadline = time.monotonic() + 10
    status = "running"
    while status == "running" and time.monotonic() < deadline:
        status = client.get(analysis_url(game), headers=bearer(game["token"])).json()["status"]
    assert status == "none"
    monkeypatch.setattr(web_bots, "analyse_decision", analyse_decision)
    client.post(analysis_url(game), headers=bearer(game["token"]))
    assert wait_until_done(client, game)["total"] > 0


def test_the_store_keeps_one_analysis_per_game() -> None:
    store = Store("sqlite://")
    row = GameStore(store).create_game(new_game_row("classic", 1, 0, ("h", None), 1, 1))
    analyses = AnalysisStore(store)
    assert analyses.load_analysis(row.id) is None
    analysis = StoredAnalysis('{"worlds": 4}', "1.0", "[]", ('{"ply": 1}', '{"ply": 2}'))
    assert analyses.save_analysis(row.id, analysis)
    assert not analyses.save_analysis(row.id, StoredAnalysis("{}", "2.0", "[]", ('{"ply": 1}',)))
    assert analyses.load_analysis(row.id) == analysis


def test_the_summary_counts_are_counted_sentences() -> None:
    """The page says "1 mistake", "2 mistakes" with the language's plural rule (tCount)."""
    counted = {key for key, entry in UI.items() if entry.english_plural is not None}
    assert counted >= {"n_decisions", "n_inaccuracies", "n_mistakes", "n_blunders"}
