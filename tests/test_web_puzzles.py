"""Puzzles on the server (issue 52, ``web/puzzles/``): a puzzle before its answer carries
only what the solver's seat may know (audited against ``Puzzle.game()``'s hidden cards),
the reveal after it; an account's answer rated once; guests never rated; every refusal.
"""

from __future__ import annotations

import datetime
import json
import random
from typing import Any

import pytest
from serving import app_client, served
from starlette.testclient import TestClient
from web_support import as_guest, csrf, refusal, register

from hanamikoji.bots.exact import list_worlds
from hanamikoji.bots.inference import replayed_world
from hanamikoji.core.cards import letters
from hanamikoji.core.worlds import hidden_from
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
from hanamikoji.puzzles import Puzzle, shipped_puzzles
from hanamikoji.puzzles.choosing import daily_puzzle
from hanamikoji.puzzles.rating import starting_rating

PUZZLES = {puzzle.id: puzzle for puzzle in shipped_puzzles()}
SAMPLE = random.Random(14).sample(sorted(PUZZLES), 30)


class Clock:
    def __init__(self) -> None:
        self.now = 1_780_000_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def client() -> Any:
    with app_client(clock=Clock()) as running:
        yield running


def question(client: TestClient, puzzle_id: str) -> dict[str, Any]:
    response = client.get(f"/api/puzzles/{puzzle_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def answer(client: TestClient, puzzle_id: str, text: str, **extra: Any) -> Any:
    headers = extra.pop("headers", {})
    return client.post(
        f"/api/puzzles/{puzzle_id}/answer", json={"answer": text, **extra}, headers=headers
    )


def hidden_cards(puzzle: Puzzle) -> dict[str, str]:
    """What the solver may not know, as the page would write it: the opponent's hand,
    Secret and Trade-off, the removed card and the deck (letters)."""
    world = hidden_from(puzzle.game(), puzzle.seat)
    return {
        "hand": letters(world.opponent_hand),
        "secret": "" if world.opponent_secret is None else letters((world.opponent_secret,)),
        "tradeoff": letters(world.opponent_tradeoff),
        "removed": letters((world.removed,)),
        "deck": letters(world.deck),
    }


@pytest.mark.parametrize("puzzle_id", SAMPLE[:12])
def test_a_puzzle_before_its_answer_holds_only_the_solvers_view(
    client: TestClient, puzzle_id: str
) -> None:
    puzzle = PUZZLES[puzzle_id]
    body = question(client, puzzle_id)
    state = body["state"]
    game = puzzle.game()
    view = puzzle.view()
    assert state["seat"] == puzzle.seat and tuple(state["hand"]) == view.hand
    assert state["hand_sizes"][1 - puzzle.seat] == len(game.hand(1 - puzzle.seat))
    # the same question in every world of the solver's information set: nothing of the
    # opponent's hand, Secret, Trade-off, the removed card or the deck is in it
    assert state == json.loads(json.dumps(state))
    text = json.dumps(body)
    for field in ("seed", "moves", "values", "solution", "margin", "worlds", "source"):
        assert f'"{field}"' not in text
    assert body["decisions"] == sorted(text for text, _ in puzzle.values)
    assert isinstance(state["deck"], int) and '"removed"' not in text
    assert '"opponent_hand"' not in text and '"hands"' not in text
    hidden = hidden_cards(puzzle)
    unseen_total = sum(state["unseen"])
    assert unseen_total == sum(len(cards) for cards in hidden.values())
    assert state["secret"] == view.secret and state["tradeoff"] == list(view.tradeoff)
    assert state["unseen"] == list(view.unseen())


def test_the_question_is_the_same_in_every_world_of_the_information_set() -> None:
    # Two puzzles of one position whose hidden cards differ would be asked alike: the
    # question is made from the view alone (Puzzle.view), checked here on its fields.
    for puzzle_id in SAMPLE[:6]:
        puzzle = PUZZLES[puzzle_id]
        view = puzzle.view()
        public = PublicGame(puzzle.id, ("human", "human"), (None, None), puzzle.ply)
        asked = seat_state(view, public)
        listed = list_worlds(view, 200) or []
        for world, _ in listed[:10]:
            other = replayed_world(view, world, random.Random(0)).view(puzzle.seat)
            again = seat_state(other, public)
            assert (again.hand, again.placed, again.hand_sizes, again.unseen, again.pending) == (
                asked.hand,
                asked.placed,
                asked.hand_sizes,
                asked.unseen,
                asked.pending,
            )
            this_round = [line for line in asked.log if line.round == view.round]
            assert [line for line in again.log if line.round == view.round] == this_round
            assert all(  # the opponent's Secret and Trade-off: which, never their cards
                not line.cards
                for line in this_round
                if line.seat != puzzle.seat and line.kind in ("secret", "trade-off")
            )


def test_a_guest_answers_sees_the_reveal_and_is_never_rated(client: TestClient) -> None:
    puzzle = PUZZLES[SAMPLE[0]]
    wrong = puzzle.alternatives[0][0]
    guest = {"rating": 1500.0, "deviation": 350.0}
    response = answer(client, puzzle.id, wrong, guest=guest)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["correct"] is False and body["solution"] == puzzle.solution
    assert [v["decision"] for v in body["values"]] == [t for t, _ in puzzle.values]
    assert body["worlds"] and body["rated"] is False and body["after"] is None
    assert body["guest"]["rating"] < 1500
    assert body["puzzle_rating"] == round(starting_rating(puzzle.level).rating)
    # again, right this time: a guest's answers move nothing on the server
    again = answer(client, puzzle.id, puzzle.solution, guest=guest)
    assert again.status_code == 200 and again.json()["correct"] is True
    assert served(client).puzzles.store.ratings() == {}


def test_an_accounts_first_answer_is_rated_once(client: TestClient) -> None:
    me = register(client, "Solver")
    puzzle = PUZZLES[SAMPLE[1]]
    assert question(client, puzzle.id)["mine"]["rating"] == 1500
    first = answer(client, puzzle.id, puzzle.solution.lower(), headers=csrf(me))
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["rated"] and body["correct"] and body["after"]["rating"] > 1500
    assert body["after"]["attempts"] == 1 and body["after"]["solved"] == 1
    rated = body["after"]["rating"]
    for text, _ in puzzle.values:  # replaying answers changes nothing
        refusal(answer(client, puzzle.id, text, headers=csrf(me)), 409, "err_puzzle_answered")
    asked = question(client, puzzle.id)
    assert asked["answered"] is True and asked["mine"]["rating"] == rated
    assert asked["rating"] < round(starting_rating(puzzle.level).rating)
    # without the CSRF token an account's answer is refused before anything
    refusal(answer(client, SAMPLE[2], puzzle.solution), 403, "err_csrf")


def test_the_next_puzzle_skips_the_accounts_recent_ones(client: TestClient) -> None:
    me = register(client, "Next")
    seen = []
    for _ in range(3):
        response = client.get("/api/puzzles/next?theme=gift-answer")
        assert response.status_code == 200, response.text
        body = response.json()
        assert "gift-answer" in body["themes"] and body["id"] not in seen
        seen.append(body["id"])
        puzzle = PUZZLES[body["id"]]
        assert answer(client, puzzle.id, puzzle.solution, headers=csrf(me)).status_code == 200


def test_a_guests_next_puzzle_is_near_its_rating_and_not_seen(client: TestClient) -> None:
    as_guest(client, "Visitor")
    first = client.get("/api/puzzles/next?rating=1200").json()
    second = client.get(f"/api/puzzles/next?rating=1200&seen={first['id']}").json()
    assert first["id"] != second["id"] and first["mine"] is None


def test_the_daily_puzzle_is_todays_for_everyone(client: TestClient) -> None:
    now = served(client).now()
    day = datetime.datetime.fromtimestamp(now / 1000, datetime.UTC).date()
    expected = daily_puzzle(list(PUZZLES.values()), day).id
    assert client.get("/api/puzzles/daily").json()["id"] == expected
    assert client.get("/api/puzzles/themes").json()["daily"] == expected


def test_a_streak_is_seeded_and_rises(client: TestClient) -> None:
    run = client.get("/api/puzzles/streak?seed=5").json()
    assert run["seed"] == 5 and len(run["ids"]) == 30
    assert client.get("/api/puzzles/streak?seed=5").json() == run
    levels = [PUZZLES[i].level for i in run["ids"]]
    assert levels == sorted(levels)
    assert client.get("/api/puzzles/streak").json()["seed"] >= 0


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/puzzles/nope", 404, "err_no_puzzle"),
        ("/api/puzzles/" + "x" * 5000, 404, "err_no_puzzle"),
        ("/api/puzzles/own-zzz", 404, "err_no_puzzle"),
        ("/api/puzzles/next?theme=nope", 400, "err_bad_field"),
        ("/api/puzzles/next?rating=-5", 400, "err_bad_field"),
        ("/api/puzzles/next?rating=1e3", 400, "err_bad_field"),
        ("/api/puzzles/streak?seed=x", 400, "err_bad_field"),
    ],
)
def test_bad_requests_are_refused(client: TestClient, path: str, status: int, code: str) -> None:
    refusal(client.get(path), status, code)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"", "err_not_json"),
        (b"[]", "err_not_object"),
        (b'{"answer": ""}', "err_bad_field"),
        (b'{"answer": "' + b"G" * 41 + b'"}', "err_bad_field"),
        (b'{"answer": "G>A", "extra": 1}', "err_bad_field"),
        (b'{"answer": "G>A", "guest": {"rating": 9999, "deviation": 50}}', "err_not_object"),
        (b'{"answer": "G>A", "guest": {"rating": 1500, "deviation": 1}}', "err_not_object"),
        (b'{"answer": "hello"}', "err_puzzle_malformed"),
        (b'{"answer": "S"}', "err_puzzle_illegal"),
        (b'{"answer": "G:ABC"}', "err_puzzle_illegal"),
    ],
)
def test_malformed_answers_are_refused(client: TestClient, body: bytes, code: str) -> None:
    puzzle_id = SAMPLE[3]
    response = client.post(
        f"/api/puzzles/{puzzle_id}/answer",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert response.status_code in (400, 413), response.text
    assert response.json()["code"] == code
    assert served(client).puzzles.store.ratings() == {}


def test_an_illegal_answer_names_the_legal_ones(client: TestClient) -> None:
    puzzle = PUZZLES[SAMPLE[4]]
    body = refusal(answer(client, puzzle.id, "G:ABC"), 400, "err_puzzle_illegal")
    assert all(text in body["message"] for text, _ in puzzle.values)
