"""An account's puzzle streak kept on the server (issue 52, ``web/puzzles/streaks.py``):
started by ``POST /api/puzzles/streak``, read back from any browser, moved only by the
account's first answer to the puzzle it is at (replayed answers, answers to other
puzzles and a guest's answers never raise it), its best kept; a guest's is its page's.
"""

from __future__ import annotations

from typing import Any

import pytest
from postgres_db import DRIVER_MISSING, REASON, postgres_schemas
from postgres_db import URL as POSTGRES
from serving import app_client, served
from starlette.testclient import TestClient
from web_support import PASSWORD, as_guest, csrf, refusal, register

from hanamikoji.puzzles import shipped_puzzles
from hanamikoji.puzzles.choosing import STREAK_LENGTH

PUZZLES = {puzzle.id: puzzle for puzzle in shipped_puzzles()}


@pytest.fixture
def client() -> Any:
    with app_client() as running:
        yield running


def answer(client: TestClient, me: dict[str, Any], puzzle_id: str, right: bool) -> Any:
    puzzle = PUZZLES[puzzle_id]
    text = puzzle.solution if right else puzzle.alternatives[0][0]
    return client.post(f"/api/puzzles/{puzzle_id}/answer", json={"answer": text}, headers=csrf(me))


def kept(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/puzzles/streak")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["kept"] is True
    return body


def test_an_accounts_streak_is_kept_and_counted_once(client: TestClient) -> None:
    me = register(client, "Streaker")
    # a puzzle answered before the streak is never one of its puzzles
    first = sorted(PUZZLES)[0]
    assert answer(client, me, first, True).status_code == 200
    started = client.post("/api/puzzles/streak?seed=5", headers=csrf(me))
    assert started.status_code == 200, started.text
    run = started.json()
    ids = run["ids"]
    assert run["kept"] and len(ids) == STREAK_LENGTH and first not in ids
    assert (run["at"], run["solved"], run["over"], run["best"]) == (0, 0, False, 0)
    assert kept(client) == run

    moved = answer(client, me, ids[0], True)
    assert moved.status_code == 200, moved.text
    streak = moved.json()["streak"]
    assert (streak["at"], streak["solved"], streak["best"], streak["over"]) == (1, 1, 1, False)
    # replaying answers, right or wrong, is refused and raises nothing
    for right in (True, False, True):
        refusal(answer(client, me, ids[0], right), 409, "err_puzzle_answered")
    assert kept(client) == streak
    # a right answer to a later puzzle of the streak (another tab) does not count: the
    # streak passes over it when it gets there
    later = answer(client, me, ids[2], True)
    assert later.status_code == 200 and later.json()["streak"] is None
    assert kept(client)["solved"] == 1
    streak = answer(client, me, ids[1], True).json()["streak"]
    assert (streak["at"], streak["solved"], streak["best"]) == (3, 2, 2)
    # a miss ends it; the best stays
    streak = answer(client, me, ids[3], False).json()["streak"]
    assert (streak["at"], streak["solved"], streak["over"], streak["best"]) == (3, 2, True, 2)
    assert answer(client, me, ids[4], True).json()["streak"] is None
    assert kept(client) == streak
    # a new streak: none of its puzzles answered, the best kept
    again = client.post("/api/puzzles/streak?seed=6", headers=csrf(me)).json()
    answered = {first, *ids[:5]}
    assert not answered & set(again["ids"])
    assert (again["at"], again["solved"], again["over"], again["best"]) == (0, 0, False, 2)


def test_the_streak_follows_the_account_to_another_browser(client: TestClient) -> None:
    me = register(client, "Traveller")
    run = client.post("/api/puzzles/streak?seed=9", headers=csrf(me)).json()
    assert answer(client, me, run["ids"][0], True).status_code == 200
    first = dict(client.cookies)
    client.cookies.clear()  # another browser: a session of its own
    signed = client.post("/api/me/login", json={"name": "Traveller", "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    assert dict(client.cookies) != first
    there = kept(client)
    assert there["ids"] == run["ids"] and (there["at"], there["solved"]) == (1, 1)
    # answered there, seen here
    moved = answer(client, signed.json(), run["ids"][1], True).json()["streak"]
    client.cookies.clear()
    client.cookies.update(first)
    assert kept(client) == moved and moved["solved"] == 2


def test_a_guests_streak_is_its_pages(client: TestClient) -> None:
    for guest in (False, True):
        client.cookies.clear()
        headers = csrf(as_guest(client, "Visitor")) if guest else {}
        run = client.post("/api/puzzles/streak?seed=5", headers=headers).json()
        assert run["kept"] is False and run == client.get("/api/puzzles/streak?seed=5").json()
        assert client.get("/api/puzzles/streak").json()["kept"] is False
        puzzle = PUZZLES[run["ids"][0]]
        body = {"answer": puzzle.solution, "guest": {"rating": 1500, "deviation": 350}}
        done = client.post(f"/api/puzzles/{puzzle.id}/answer", json=body, headers=headers)
        assert done.status_code == 200 and done.json()["streak"] is None
    assert served(client).puzzles.store.ratings() == {}


def test_a_seeded_get_is_a_fresh_run_even_for_an_account(client: TestClient) -> None:
    me = register(client, "Seeded")
    run = client.post("/api/puzzles/streak?seed=3", headers=csrf(me)).json()
    fresh = client.get("/api/puzzles/streak?seed=3").json()
    assert fresh["kept"] is False and kept(client) == run


def test_bad_streak_requests_are_refused_and_keep_nothing(client: TestClient) -> None:
    me = register(client, "Careful")
    refusal(client.post("/api/puzzles/streak?seed=x", headers=csrf(me)), 400, "err_bad_field")
    refusal(client.post("/api/puzzles/streak?seed=-1", headers=csrf(me)), 400, "err_bad_field")
    refusal(client.post("/api/puzzles/streak"), 403, "err_csrf")
    assert client.get("/api/puzzles/streak").json()["kept"] is False
    assert served(client).puzzles.store.kept_streak(me["player"]["id"]) is None


def test_two_instances_on_postgresql_keep_one_streak() -> None:
    pytest.importorskip("psycopg", reason=DRIVER_MISSING)
    if POSTGRES is None:
        pytest.skip(REASON)
    with postgres_schemas() as new_schema:
        url = new_schema()
        with app_client(url) as one, app_client(url) as two:
            me = register(one, "Everywhere")
            two.cookies.update(dict(one.cookies))
            run = two.post("/api/puzzles/streak?seed=11", headers=csrf(me)).json()
            assert run["kept"] and kept(one) == run
            moved = answer(one, me, run["ids"][0], True).json()["streak"]
            refusal(answer(two, me, run["ids"][0], True), 409, "err_puzzle_answered")
            assert kept(two) == moved and moved["solved"] == 1
