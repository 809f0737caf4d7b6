"""The games database on PostgreSQL, through the same SQLAlchemy code as SQLite.

Runs when ``HANAMIKOJI_TEST_POSTGRES_URL`` names a database (an SQLAlchemy URL such as
``postgresql+psycopg://user:password@127.0.0.1:5432/dbname``), or when the local default
answers; skipped otherwise, saying why (``tests/postgres_db.py``). The tests only add rows
with fresh random ids, so any scratch database will do.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from postgres_db import URL, needs_postgres

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import Append, GameStore, PlyTakenError, new_game_row

pytestmark = needs_postgres


@pytest.fixture
def store() -> Iterator[GameStore]:
    assert URL is not None
    opened = Store(URL)
    yield GameStore(opened)
    opened.close()


def test_a_ply_is_appended_once_and_games_load_in_order(store: GameStore) -> None:
    row = store.create_game(new_game_row("classic", 7, 0, ("h0", "h1"), None, None))
    for ply, text in enumerate(["G:FGG", "G>F", "S:C"]):
        store.append(row.id, ply, text)
    with pytest.raises(PlyTakenError):
        store.append(row.id, 1, "G>G")
    loaded = store.load(row.id)
    assert loaded is not None
    assert loaded.decisions == ("G:FGG", "G>F", "S:C")
    assert loaded.token_hashes == ("h0", "h1") and loaded.seed == 7


def test_one_stale_decision_does_not_lose_the_rest_of_its_batch(store: GameStore) -> None:
    rows = [store.create_game(new_game_row("french", 9, 1, ("h", None), 1, 2)) for _ in range(3)]
    store.append(rows[1].id, 0, "S:A")
    outcomes = store.append_many(
        [
            Append(rows[0].id, 0, "S:B"),
            Append(rows[1].id, 0, "S:C"),  # already recorded by someone else
            Append(rows[2].id, 0, "S:D", result="1-0"),
        ]
    )
    assert [type(outcome) for outcome in outcomes] == [type(None), PlyTakenError, type(None)]
    decisions = [store.load(row.id).decisions for row in rows]  # type: ignore[union-attr]
    assert decisions == [("S:B",), ("S:A",), ("S:D",)]
    finished = store.get(rows[2].id)
    assert finished is not None and finished.status == "finished" and finished.result == "1-0"


def test_a_rematch_is_created_once(store: GameStore) -> None:
    old = store.create_game(new_game_row("classic", 1, 0, ("a", "b"), None, None))
    first = store.create_rematch(old.id, new_game_row("classic", 2, 1, ("a", "b"), None, None))
    second = store.create_rematch(old.id, new_game_row("classic", 3, 1, ("a", "b"), None, None))
    assert first == second


def test_a_whole_game_on_postgresql_survives_a_restart() -> None:
    from serving import app_config
    from starlette.testclient import TestClient
    from web_support import hello, legal_texts, receive_state

    from hanamikoji.interfaces.web.app import create_app

    assert URL is not None
    config = app_config(URL, create_rate="20/minute")
    rng = random.Random(6)
    with TestClient(create_app(config)) as client:
        game: dict[str, Any] = client.post("/api/games", json={"opponent": "friend"}).json()
        with (
            client.websocket_connect(f"/ws/{game['id']}") as ws0,
            client.websocket_connect(f"/ws/{game['id']}") as ws1,
        ):
            states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
            for ply in range(12):
                seat = states[0]["to_move"]
                move = rng.choice(legal_texts(states[seat]))
                (ws0, ws1)[seat].send_text(json.dumps({"type": "move", "move": move, "ply": ply}))
                states = [receive_state(ws0, ply + 1), receive_state(ws1, ply + 1)]
    with TestClient(create_app(config)) as client:
        again = client.get(
            f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {game['token']}"}
        ).json()
        assert again["ply"] == 12
        assert again["log"] == states[0]["log"] and again["hand"] == states[0]["hand"]


def test_an_analysis_is_stored_once_with_its_decisions_in_order(store: GameStore) -> None:
    from hanamikoji.interfaces.web.db.analyses import AnalysisStore, StoredAnalysis

    row = store.create_game(new_game_row("classic", 7, 0, ("h0", None), 1, 1))
    analyses = AnalysisStore(store.store)
    assert analyses.load_analysis(row.id) is None
    analysis = StoredAnalysis(
        '{"worlds": 4}', "1.0", "[]", tuple(f'{{"ply": {n}}}' for n in range(1, 13))
    )
    assert analyses.save_analysis(row.id, analysis)
    assert not analyses.save_analysis(row.id, StoredAnalysis("{}", "2.0", "[]", ()))
    assert analyses.load_analysis(row.id) == analysis
