"""Tournaments on the server (issue 51, ``web/tournaments/``): created by an account,
joined by people (and bot accounts through the bot API), our bot levels entered by the
creator, directed to the end through the store with the library's pairing and scoring,
its games finished through the hub; and the refusals of each route.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from serving import app_client, served
from starlette.testclient import TestClient
from test_web_spectators import spectator_audit
from web_support import COOKIE, PASSWORD, refusal, settings, stored_decisions

from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.tournaments.director import game_order, result_for
from hanamikoji.notation.record_files import records_from_text
from hanamikoji.tournaments import Pairing

JSONDict = dict[str, Any]


class Clock:
    """The server's time in ms, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@dataclass
class Person:
    name: str
    cookie: str
    csrf: str

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={self.cookie}", "X-CSRF-Token": self.csrf}


def person(client: TestClient, name: str) -> Person:
    client.cookies.clear()
    response = client.post("/api/me/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    cookie = client.cookies.get(COOKIE)
    client.cookies.clear()
    assert cookie is not None
    return Person(name, cookie, response.json()["csrf"])


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(clock: Clock) -> Iterator[TestClient]:
    with app_client(login_rate="off", clock=clock, direct_interval=0) as test_client:
        yield test_client


def create(client: TestClient, creator: Person, **settings: Any) -> str:
    body = {"name": "Friday", "time_control": "none", "starts_in": 1, **settings}
    made = client.post("/api/tournaments", json=body, headers=creator.headers)
    assert made.status_code == 201, made.text
    tournament_id: str = made.json()["id"]
    return tournament_id


def view(client: TestClient, tournament_id: str, who: Person | None = None) -> JSONDict:
    headers = {} if who is None else who.headers
    got = client.get(f"/api/tournaments/{tournament_id}", headers=headers)
    assert got.status_code == 200, got.text
    body: JSONDict = got.json()
    return body


def tick(client: TestClient) -> int:
    portal = client.portal
    assert portal is not None
    changes: int = portal.call(served(client).director.tick)
    return changes


async def _played(hub: GameHub, game_id: str) -> str | None:
    async with asyncio.timeout(60):
        live = await hub.get(game_id)
        assert live is not None
        while not live.ended:
            if live.bot_task is None:
                await asyncio.sleep(0.01)
            else:
                await asyncio.wait([live.bot_task])
        return live.stored.result


def played(client: TestClient, game_id: str) -> str | None:
    """Wait for the hub's bots to play a game between two levels to its end: its result."""
    portal = client.portal
    assert portal is not None
    result: str | None = portal.call(_played, served(client).hub, game_id)
    return result


async def _resign(hub: GameHub, game_id: str, seat: int) -> None:
    live = await hub.get(game_id)
    assert live is not None
    await hub.finishing.resign(live, seat)


def finish(client: TestClient, game_id: str, seat: int) -> None:
    portal = client.portal
    assert portal is not None
    portal.call(_resign, served(client).hub, game_id, seat)


def test_a_swiss_of_four_people_and_two_levels_is_played_to_its_end(
    client: TestClient, clock: Clock
) -> None:
    ann, bob, cyd, dee = (person(client, name) for name in ("Ann", "Bob", "Cyd", "Dee"))
    tid = create(client, ann, kind="swiss", rounds=3, entry="both")
    for player in (ann, bob, cyd, dee):
        joined = client.post(f"/api/tournaments/{tid}/join", headers=player.headers)
        assert joined.status_code == 200, joined.text
        assert joined.json()["mine"]["entered"]
    for level in (1, 2):
        entered = client.post(
            f"/api/tournaments/{tid}/level", json={"level": level}, headers=ann.headers
        )
        assert entered.status_code == 200, entered.text
    refusal(
        client.post(f"/api/tournaments/{tid}/level", json={"level": 3}, headers=bob.headers),
        403,
        "err_tournament_creator",
    )
    refusal(
        client.post(f"/api/tournaments/{tid}/join", headers=bob.headers), 409, "err_tournament_in"
    )
    assert tick(client) == 0  # not yet its time
    assert view(client, tid)["card"]["status"] == "created"
    clock.now += 60_000
    rng = random.Random(5)
    met: list[frozenset[str]] = []
    for number in (1, 2, 3):
        assert tick(client) == 1  # the results recorded, the round paired
        shown = view(client, tid)
        assert shown["card"]["status"] == "started" and shown["round"] == number
        boards = [b for b in shown["boards"] if b["round"] == number]
        assert len(boards) == 3 and not shown["byes"]
        for board in boards:
            met.append(frozenset((board["first"], board["second"])))
            assert board["game"] is not None  # every game may be watched
            if {board["first"], board["second"]} == {"Bot 1", "Bot 2"}:
                played(client, board["game"])  # the hub's bots play both seats
                continue
            finish(client, board["game"], rng.randrange(2))
        # A player sees their own game to open.
        mine = view(client, tid, bob)["mine"]
        assert mine["entered"] and (mine["game"] is None) == (mine["opponent"] is None)
    assert tick(client) == 1  # the last results: over
    shown = view(client, tid)
    assert shown["card"]["status"] == "finished"
    assert len(met) == len(set(met)) == 9, "no rematch"
    boards = shown["boards"]
    assert all(board["result"] in ("1-0", "0-1", "1/2-1/2") for board in boards)
    # The standings are the boards' scores, recomputed by hand.
    score: dict[str, float] = {}
    for board in boards:
        first = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[board["result"]]
        score[board["first"]] = score.get(board["first"], 0.0) + first
        score[board["second"]] = score.get(board["second"], 0.0) + 1.0 - first
    assert {line["name"]: line["score"] for line in shown["standings"]} == score
    assert sum(score.values()) == 9
    ranked = [line["score"] for line in shown["standings"]]
    assert ranked == sorted(ranked, reverse=True)
    # Its games as one record file, each with its round and board.
    records = client.get(f"/api/tournaments/{tid}/records")
    assert records.status_code == 200, records.text
    games = records_from_text(records.text)
    assert len(games) == len(boards) == 9
    events = [dict(record.tags)["Event"] for record in games]
    assert all(event.startswith("Friday: Swiss, round ") for event in events)
    assert client.get(f"/api/tournaments/{tid}/records?format=json").status_code == 200
    listed = client.get("/api/tournaments").json()
    assert [card["id"] for card in listed["finished"]] == [tid]


def test_an_arena_pairs_whoever_finishes_and_ends_at_its_time(
    client: TestClient, clock: Clock
) -> None:
    ann, bob, cyd = (person(client, name) for name in ("Ann", "Bob", "Cyd"))
    tid = create(client, ann, kind="arena", minutes=10)
    for player in (ann, bob, cyd):
        assert client.post(f"/api/tournaments/{tid}/join", headers=player.headers).is_success
    clock.now += 60_000
    assert tick(client) == 1
    shown = view(client, tid)
    (board,) = shown["boards"]
    waiting = ({"Ann", "Bob", "Cyd"} - {board["first"], board["second"]}).pop()
    finish(client, board["game"], 1)  # the second player resigns: the first wins
    assert tick(client) == 1
    shown = view(client, tid)
    newest = shown["boards"][0]
    assert waiting in (newest["first"], newest["second"]) and newest["result"] is None
    assert shown["boards"][1]["result"] == "1-0"
    winner = next(line for line in shown["standings"] if line["name"] == board["first"])
    assert winner["score"] == 2 and winner["sheet"] == [2]
    # Withdrawn: paired no more, keeps the points; time up: over, the game on counts nothing.
    assert client.post(f"/api/tournaments/{tid}/withdraw", headers=ann.headers).is_success
    clock.now += 10 * 60_000
    assert tick(client) == 1
    shown = view(client, tid)
    assert shown["card"]["status"] == "finished"
    assert sum(line["score"] for line in shown["standings"]) == 2


def test_a_player_joining_a_running_arena_is_paired_at_the_next_look(
    client: TestClient, clock: Clock
) -> None:
    ann, bob, cyd, dee = (person(client, name) for name in ("Ann", "Bob", "Cyd", "Dee"))
    tid = create(client, ann, kind="arena", minutes=10)
    for player in (ann, bob, cyd):
        assert client.post(f"/api/tournaments/{tid}/join", headers=player.headers).is_success
    clock.now += 60_000
    assert tick(client) == 1  # one game, one player waiting
    assert tick(client) == 0  # nothing changed: nothing written
    # A write of another than the director (here, a join): its next look sees it.
    assert client.post(f"/api/tournaments/{tid}/join", headers=dee.headers).is_success
    assert tick(client) == 1
    boards = view(client, tid)["boards"]
    assert len(boards) == 2 and "Dee" in (boards[0]["first"], boards[0]["second"])


def test_a_tournament_by_invitation_is_seen_and_joined_with_its_code_only(
    client: TestClient,
) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    tid = create(client, ann, invitation=True)
    code = view(client, tid, ann)["invite_code"]
    assert code
    refusal(client.get(f"/api/tournaments/{tid}", headers=bob.headers), 404, "err_no_tournament")
    refusal(
        client.post(f"/api/tournaments/{tid}/join", headers=bob.headers), 404, "err_no_tournament"
    )
    assert client.get("/api/tournaments").json()["upcoming"] == []
    joined = client.post(f"/api/tournaments/{tid}/join?code={code}", headers=bob.headers)
    assert joined.status_code == 200, joined.text
    assert view(client, tid, bob)["invite_code"] is None  # only its creator is shown it


def test_who_may_enter_is_the_creators_choice(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    tid = create(client, ann, entry="bots")
    refusal(
        client.post(f"/api/tournaments/{tid}/join", headers=bob.headers),
        403,
        "err_tournament_entry",
    )
    client.cookies.clear()
    refusal(client.post(f"/api/tournaments/{tid}/join"), 401, "err_signed_out")
    refusal(client.post("/api/tournaments", json={"name": "x"}), 401, "err_signed_out")
    refusal(client.get("/api/tournaments/nope"), 404, "err_no_tournament")
    refusal(client.get(f"/api/tournaments/{tid}/records"), 409, "err_not_over")


def test_a_pairings_game_seats_a_level_at_the_bot_seat() -> None:
    person_first = game_order("classic", "none", False, Pairing("p1", "level:2"))
    level_first = game_order("classic", "none", False, Pairing("level:2", "p1"))
    assert person_first is not None and level_first is not None
    seated = [(o.players, o.first, o.bot_level) for o in (person_first, level_first)]
    assert seated == [(("p1", None), 0, 2), (("p1", None), 1, 2)]
    # Two levels: the first at the bot seat, starting; the second at seat 0; unrated.
    both = game_order("classic", "5+5", True, Pairing("level:1", "level:2"))
    assert (both.players, both.first, both.bot_level, both.second_level) == ((None, None), 1, 1, 2)
    assert not both.rated
    assert result_for(Pairing("level:1", "level:2"), "1-0") == "0-1"
    # The game's result from seat 0's side, turned to the pairing's first player's.
    assert result_for(Pairing("p1", "level:2"), "1-0") == "1-0"
    assert result_for(Pairing("level:2", "p1"), "1-0") == "0-1"
    assert result_for(Pairing("p1", "p2"), "*") == "1/2-1/2"


def test_a_game_between_two_levels_is_played_by_the_hub_and_watched(
    client: TestClient, clock: Clock
) -> None:
    """Two of our levels meet in a game of the hub's, which a spectator watches through
    the game page's socket as any game (never shown a card it may not know); its result
    is the tournament's."""
    ann = person(client, "Ann")
    tid = create(client, ann, kind="swiss", rounds=1)
    for level in (1, 2):
        entered = client.post(
            f"/api/tournaments/{tid}/level", json={"level": level}, headers=ann.headers
        )
        assert entered.status_code == 200, entered.text
    clock.now += 60_000
    assert tick(client) == 1
    (board,) = view(client, tid)["boards"]
    game_id = board["game"]
    assert game_id is not None and board["result"] is None
    with client.websocket_connect(f"/ws/{game_id}/watch") as ws:
        messages = []
        while True:
            message = json.loads(ws.receive_text())
            messages.append(message)
            if message["type"] == "state" and message["outcome"] is not None:
                break
    states = [message for message in messages if message["type"] == "state"]
    # The pairing's first player sits at the bot seat (1), and starts; the second at 0.
    first_seat = 1
    level_of_name = {"Bot 1": 1, "Bot 2": 2}
    seated = [level_of_name[board["second"]], level_of_name[board["first"]]]
    for state in states:
        assert [player["kind"] for player in state["people"]] == ["bot", "bot"]
        assert [player["level"] for player in state["people"]] == seated
    game, decisions = settings(client, game_id), stored_decisions(client, game_id)
    assert game["first_player"] == first_seat
    for message in messages:
        spectator_audit(message, game, decisions)
    result = played(client, game_id)
    assert tick(client) == 1
    shown = view(client, tid)
    assert shown["card"]["status"] == "finished"
    expected = {"1-0": "0-1", "0-1": "1-0"}.get(result or "*", "1/2-1/2")
    assert shown["boards"][0]["result"] == expected
    records = client.get(f"/api/tournaments/{tid}/records")
    assert len(records_from_text(records.text)) == 1


def test_a_bot_account_joins_with_its_token_and_is_seated_in_its_games(
    client: TestClient, clock: Clock
) -> None:
    ann = person(client, "Ann")
    robo = person(client, "Robo")
    made = client.post(
        "/api/tokens", json={"name": "engine", "scopes": ["bot:play"]}, headers=robo.headers
    )
    assert made.status_code == 201, made.text
    token = {"Authorization": f"Bearer {made.json()['token']}"}
    client.cookies.clear()
    assert client.post("/api/bot/account/upgrade", headers=token).is_success
    people_only = create(client, ann, entry="people")
    refused = client.post(f"/api/tournament/{people_only}/join", headers=token)
    assert (refused.status_code, refused.json()["error"]) == (403, "err_tournament_entry")
    tid = create(client, ann, entry="both")
    # A bot account's session is not how it joins; nor does a token open the page's route.
    refusal(
        client.post(f"/api/tournaments/{tid}/join", headers=robo.headers),
        403,
        "err_tournament_entry",
    )
    refusal(client.post(f"/api/tournaments/{tid}/join", headers=token), 401, "err_signed_out")
    assert client.post(f"/api/tournament/{tid}/join", headers=token).json()["entered"]
    assert client.post(f"/api/tournaments/{tid}/join", headers=ann.headers).is_success
    clock.now += 60_000
    assert tick(client) == 2  # this one paired; the other, nobody in it, over
    assert view(client, people_only)["card"]["status"] == "finished"
    (board,) = view(client, tid)["boards"]
    # The game is the bot's as a challenge's is: its event stream polls these.
    players = served(client).accounts.store
    bot_id = client.get("/api/account", headers=token).json()["id"]
    assert [entry.id for entry in players.games_of(bot_id, "playing", 10)] == [board["game"]]
    left = client.post(f"/api/tournament/{tid}/withdraw", headers=token)
    assert left.status_code == 200 and not left.json()["entered"]
    listed = view(client, tid)["standings"]
    assert [line["bot"] for line in listed if line["name"] == "Robo"] == [True]


def test_no_tournament_message_can_hold_a_card() -> None:
    """Hidden information: a tournament's answers hold names, numbers and results only,
    never a card, a hand or a decision (every field's type, however deep, is one of
    them or another tournament Struct)."""
    import msgspec.inspect as mi

    from hanamikoji.interfaces.web.wire.tournament_messages import TOURNAMENT_ANSWERS

    plain = (mi.StrType, mi.IntType, mi.FloatType, mi.BoolType, mi.NoneType, mi.LiteralType)
    seen: set[str] = set()

    def walk(info: mi.Type) -> None:
        if isinstance(info, mi.StructType):
            assert info.cls.__module__.endswith("tournament_messages"), info.cls
            if info.cls.__name__ not in seen:
                seen.add(info.cls.__name__)
                for item in info.fields:
                    assert item.name not in ("hand", "hands", "cards", "decisions", "log")
                    walk(item.type)
        elif isinstance(info, mi.UnionType):
            for member in info.types:
                walk(member)
        elif isinstance(info, mi.VarTupleType | mi.ListType):
            walk(info.item_type)
        else:
            assert isinstance(info, plain), info

    for answer in TOURNAMENT_ANSWERS:
        walk(mi.type_info(answer))
    assert {"TournamentView", "TournamentLine", "TournamentBoard", "TournamentMine"} <= seen
