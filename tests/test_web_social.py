"""Friends and challenges (issue 49, ``web/social/``): following and blocking, who is
online, challenges to a named player and through a link, told live on the site socket;
and every refusal (self, blocked, a guest's rated challenge, an unknown player, an
expired challenge, one accepted twice).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from serving import app_client, served
from starlette.testclient import TestClient
from web_support import COOKIE, PASSWORD, receive, refusal

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.players.store import PlayerStore, new_player
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.social.challenges import LIFETIME_MS, MAX_OPEN
from hanamikoji.interfaces.web.social.presence import ONLINE_MS, PresenceStore
from hanamikoji.interfaces.web.social.relations import BLOCK, FOLLOW, Relations
from hanamikoji.interfaces.web.social.service import Social
from hanamikoji.interfaces.web.wire.incoming import ChallengeRequest
from hanamikoji.interfaces.web.wire.refused import Refused

JSONDict = dict[str, Any]


class Clock:
    """The server's time in ms, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@dataclass
class Person:
    """A signed-in browser: its session cookie and CSRF token."""

    name: str
    cookie: str
    csrf: str

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={self.cookie}", "X-CSRF-Token": self.csrf}


def person(client: TestClient, name: str, *, guest: bool = False) -> Person:
    client.cookies.clear()
    if guest:
        response = client.post("/api/me/guest", json={"nickname": name})
    else:
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
    with app_client(login_rate="off", clock=clock) as test_client:
        yield test_client


def eventually(check: Callable[[], bool], tries: int = 200) -> bool:
    """Whether ``check`` holds, asked again until it does (the server handles a closed
    socket after the client has let go of it)."""
    for _ in range(tries):
        if check():
            return True
        time.sleep(0.05)
    return False


def post(client: TestClient, who: Person, path: str, body: JSONDict | None = None) -> Any:
    return client.post(path, json=body, headers=who.headers)


def challenge(client: TestClient, who: Person, **body: Any) -> JSONDict:
    response = post(client, who, "/api/challenges", body)
    assert response.status_code == 201, response.text
    made: JSONDict = response.json()
    return made


# -- relations ----------------------------------------------------------------------------


def test_follow_lists_friends_with_their_online_dot(client: TestClient) -> None:
    ann, bob, cy = person(client, "Ann"), person(client, "Bob"), person(client, "Cyd")
    for other in ("Bob", "Cyd"):
        answer = post(client, ann, f"/api/players/{other}/follow").json()
        assert answer == {
            "name": other,
            "online": False,
            "following": True,
            "blocking": False,
            "bot": False,
        }
    with client.websocket_connect("/social/ws", headers=cy.headers) as ws:
        assert receive(ws, "social") == {"type": "social", "incoming": [], "outgoing": []}
        friends = client.get("/api/me/friends", headers=ann.headers).json()
        assert friends["following"] == [
            {"name": "Cyd", "online": True, "bot": False},
            {"name": "Bob", "online": False, "bot": False},
        ]
        relation = client.get("/api/players/cyd/relation", headers=bob.headers).json()
        assert relation == {
            "name": "Cyd",
            "online": True,
            "following": False,
            "blocking": False,
            "bot": False,
        }
    # The last page closed: offline as soon as the server has seen it close.
    assert eventually(lambda: not client.get("/api/players/Cyd/relation").json()["online"])
    post(client, ann, "/api/players/Bob/unfollow")
    assert [
        f["name"] for f in client.get("/api/me/friends", headers=ann.headers).json()["following"]
    ] == ["Cyd"]


def test_relations_are_refused_to_guests_oneself_and_unknown_names(client: TestClient) -> None:
    ann, guest = person(client, "Ann"), person(client, "Hana", guest=True)
    refusal(post(client, guest, "/api/players/Ann/follow"), 403, "err_account_only")
    refusal(post(client, ann, "/api/players/ANN/block"), 400, "err_relation_self")
    refusal(post(client, ann, "/api/players/Nobody/follow"), 404, "err_no_player")
    refusal(client.post("/api/players/Ann/follow"), 401, "err_signed_out")
    csrf_less = {"cookie": ann.headers["cookie"]}
    refusal(client.post("/api/players/Hana/follow", headers=csrf_less), 403, "err_csrf")
    refusal(client.get("/api/me/friends"), 401, "err_signed_out")


def test_a_block_ends_follows_and_refuses_a_follow_back(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    post(client, bob, "/api/players/Ann/follow")
    blocked = post(client, ann, "/api/players/Bob/block").json()
    assert blocked["blocking"] and not blocked["following"]
    assert client.get("/api/me/friends", headers=bob.headers).json()["following"] == []
    assert client.get("/api/me/friends", headers=ann.headers).json()["blocked"] == ["Bob"]
    refusal(post(client, bob, "/api/players/Ann/follow"), 403, "err_blocked")
    post(client, ann, "/api/players/Bob/unblock")
    assert post(client, bob, "/api/players/Ann/follow").json()["following"]


def test_the_relations_a_chat_asks_for() -> None:
    relations = Relations(Store("sqlite://"))
    relations.set("ann", "bob", BLOCK, 0)
    relations.set("cy", "ann", BLOCK, 0)
    relations.set("ann", "dee", FOLLOW, 0)
    assert relations.blocked_by("ann") == frozenset({"bob"})
    assert relations.blocks("bob", "ann") and relations.blocks("ann", "cy")
    assert not relations.blocks("ann", "dee") and not relations.blocks("bob", "cy")
    assert relations.avoided("ann") == frozenset({"bob", "cy"})


def test_presence_counts_every_instance_and_forgets_a_dead_one() -> None:
    store = Store("sqlite://")
    here, there = PresenceStore(store), PresenceStore(store)
    there.me = "another-instance"
    here.arrive("ann", 0)
    there.arrive("ann", 0)
    here.leave("ann")
    assert there.online(["ann"], ONLINE_MS) == {"ann"}
    # The other instance died: nobody touches its row any more.
    here.touch(ONLINE_MS + 1)
    assert here.online(["ann"], ONLINE_MS + 1) == frozenset()


# -- challenges ---------------------------------------------------------------------------


def test_a_challenge_is_told_live_and_accepted_into_one_game(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    with (
        client.websocket_connect("/social/ws", headers=ann.headers) as ws_ann,
        client.websocket_connect("/social/ws", headers=bob.headers) as ws_bob,
    ):
        receive(ws_ann, "social"), receive(ws_bob, "social")
        made = challenge(
            client, ann, opponent="bob", variant="french", time_control="5+5", first="them"
        )
        told = receive(ws_bob, "challenge")["challenge"]
        assert told == made and told["opponent"] == "Bob"
        assert told["challenger"] == {
            "name": "Ann",
            "account": True,
            "rating": 1500,
            "provisional": True,
            "bot": False,
        }
        listed = client.get("/api/challenges", headers=bob.headers).json()
        assert [c["id"] for c in listed["incoming"]] == [made["id"]] and not listed["outgoing"]
        accepted = post(client, bob, f"/api/challenges/{made['id']}/accept").json()
        game = accepted["game"]
        for ws in (ws_ann, ws_bob):
            assert receive(ws, "challenge_game") == {
                "type": "challenge_game",
                "id": made["id"],
                "game": game,
            }
    refusal(post(client, bob, f"/api/challenges/{made['id']}/accept"), 409, "err_challenge_gone")
    for who, seat in ((ann, 0), (bob, 1)):
        state = client.get(f"/api/games/{game}", headers={"cookie": who.headers["cookie"]})
        assert state.status_code == 200, state.text
        assert state.json()["seat"] == seat and state.json()["variant"] == "french"
        assert state.json()["clock"]["control"] == "5+5"
        assert state.json()["to_move"] == 1  # Bob starts, as Ann chose
    view = client.get(f"/api/challenges/{made['id']}").json()
    assert view["challenge"]["status"] == "accepted" and view["challenge"]["game"] == game


def test_decline_and_cancel_tell_the_other_side(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    with (
        client.websocket_connect("/social/ws", headers=ann.headers) as ws_ann,
        client.websocket_connect("/social/ws", headers=bob.headers) as ws_bob,
    ):
        first = challenge(client, ann, opponent="Bob")
        assert receive(ws_bob, "challenge")["challenge"]["id"] == first["id"]
        declining = f"/api/challenges/{first['id']}/decline"
        refusal(post(client, ann, declining), 403, "err_challenge_not_yours")
        assert post(client, bob, declining).status_code == 204
        assert receive(ws_ann, "challenge_gone") == {
            "type": "challenge_gone",
            "id": first["id"],
            "reason": "declined",
        }
        second = challenge(client, ann, opponent="Bob")
        assert receive(ws_bob, "challenge")["challenge"]["id"] == second["id"]
        cancelling = f"/api/challenges/{second['id']}/cancel"
        refusal(post(client, bob, cancelling), 403, "err_challenge_not_yours")
        assert post(client, ann, cancelling).status_code == 204
        gone = receive(ws_bob, "challenge_gone")
        assert gone["id"] == second["id"] and gone["reason"] == "cancelled"
    refusal(post(client, bob, declining), 409, "err_challenge_gone")


def test_refused_challenges_say_why(client: TestClient) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    guest = person(client, "Hana", guest=True)
    refusal(post(client, ann, "/api/challenges", {"opponent": "ann"}), 400, "err_challenge_self")
    refusal(post(client, ann, "/api/challenges", {"opponent": "Zed"}), 404, "err_no_player")
    refusal(
        post(client, guest, "/api/challenges", {"opponent": "Ann", "rated": True}),
        403,
        "err_rated_needs_account",
    )
    refusal(client.post("/api/challenges", json={"opponent": "Ann"}), 401, "err_signed_out")
    refusal(post(client, ann, "/api/challenges", {"variant": "chess"}), 400, "err_bad_field")
    refusal(post(client, ann, "/api/challenges", {"first": "you"}), 400, "err_bad_field")
    refusal(post(client, ann, "/api/challenges", {"time_control": "1+0"}), 400, "err_bad_field")
    refusal(client.get("/api/challenges/nope"), 404, "err_no_challenge")
    refusal(client.get("/api/challenges/" + "x" * 500), 404, "err_no_challenge")
    # Blocked, either way.
    post(client, bob, "/api/players/Ann/block")
    refusal(post(client, ann, "/api/challenges", {"opponent": "Bob"}), 403, "err_blocked")
    refusal(post(client, bob, "/api/challenges", {"opponent": "Ann"}), 403, "err_blocked")
    open_one = challenge(client, ann)
    refusal(post(client, bob, f"/api/challenges/{open_one['id']}/accept"), 403, "err_blocked")
    assert not client.get(f"/api/challenges/{open_one['id']}", headers=bob.headers).json()[
        "for_you"
    ]
    # Someone else's named challenge; one's own.
    post(client, bob, "/api/players/Ann/unblock")
    cy = person(client, "Cyd")
    to_bob = challenge(client, ann, opponent="Bob")
    refusal(
        post(client, cy, f"/api/challenges/{to_bob['id']}/accept"), 403, "err_challenge_not_yours"
    )
    refusal(
        post(client, cy, f"/api/challenges/{to_bob['id']}/decline"), 403, "err_challenge_not_yours"
    )
    refusal(post(client, ann, f"/api/challenges/{to_bob['id']}/accept"), 400, "err_challenge_self")
    # A guest may not accept a rated open challenge.
    rated = challenge(client, ann, rated=True)
    refusal(
        post(client, guest, f"/api/challenges/{rated['id']}/accept"), 403, "err_rated_needs_account"
    )
    for _ in range(MAX_OPEN - 3):
        challenge(client, ann)
    refusal(post(client, ann, "/api/challenges", {}), 409, "err_too_many_challenges")


def test_a_challenge_expires_in_time_and_when_its_challenger_leaves(
    client: TestClient, clock: Clock
) -> None:
    ann, bob = person(client, "Ann"), person(client, "Bob")
    social = served(client).social
    portal = client.portal
    assert portal is not None, "the client is entered"
    with (
        client.websocket_connect("/social/ws", headers=ann.headers) as ws_ann,
        client.websocket_connect("/social/ws", headers=bob.headers) as ws_bob,
    ):
        made = challenge(client, ann, opponent="Bob")
        clock.now += LIFETIME_MS - 1
        assert portal.call(social.tick) == 0  # Ann's page is open: touched now
        clock.now += 1
        refusal(
            post(client, bob, f"/api/challenges/{made['id']}/accept"), 409, "err_challenge_gone"
        )
        assert portal.call(social.tick) == 1
        for ws in (ws_ann, ws_bob):
            assert receive(ws, "challenge_gone")["reason"] == "expired"
        assert portal.call(social.tick) == 0  # once
        left = challenge(client, ann, opponent="Bob")
    # Ann's page closed: her challenge stays a while (a reload), then ends.
    clock.now += ONLINE_MS
    assert portal.call(social.tick) == 0
    clock.now += 1
    assert portal.call(social.tick) == 1
    assert client.get(f"/api/challenges/{left['id']}").json()["challenge"]["status"] == "expired"


def test_an_open_challenge_is_taken_once_by_whoever_opens_its_link(client: TestClient) -> None:
    ann, bob, cy = person(client, "Ann"), person(client, "Bob"), person(client, "Cyd")
    made = challenge(client, ann)
    assert made["opponent"] is None
    view = client.get(f"/api/challenges/{made['id']}", headers=bob.headers).json()
    assert view["for_you"] and not view["yours"]
    assert client.get(f"/api/challenges/{made['id']}", headers=ann.headers).json()["yours"]

    def accept(who: Person) -> int:
        return int(post(client, who, f"/api/challenges/{made['id']}/accept").status_code)

    with ThreadPoolExecutor(2) as pool:
        statuses = sorted(pool.map(accept, (bob, cy)))
    assert statuses == [200, 409]
    games = [
        entry["id"]
        for who in (ann, bob, cy)
        for entry in client.get("/api/me/games", headers=who.headers).json()["ongoing"]
    ]
    assert len(games) == 2 and len(set(games)) == 1  # one game, Ann's and the winner's


def test_two_acceptances_at_once_in_the_service_make_one_game() -> None:
    async def scenario() -> None:
        store = Store("sqlite://")
        players = PlayerStore(store)
        ann, bob, cy = (
            players.create_player(new_player("account", name), "h")
            for name in ("Ann", "Bob", "Cyd")
        )
        made: list[tuple[str, str]] = []

        async def make_game(sides: tuple[str, str], *_: Any) -> str:
            await asyncio.sleep(0)
            made.append(sides)
            return f"g{len(made)}"

        social = Social(store, players, RatingStore(store), make_game)
        info = await social.challenge(ann, ChallengeRequest())
        results = await asyncio.gather(
            social.accept(bob, info.id), social.accept(cy, info.id), return_exceptions=True
        )
        refused = [r for r in results if isinstance(r, Refused)]
        assert len(made) == 1 and len(refused) == 1 and refused[0].key == "err_challenge_gone"
        store.close()

    asyncio.run(scenario())


def test_the_site_socket_needs_a_session_and_refuses_garbage(client: TestClient) -> None:
    ann = person(client, "Ann")
    with client.websocket_connect("/social/ws") as ws:
        assert json.loads(ws.receive_text())["code"] == "err_signed_out"
    with client.websocket_connect("/social/ws", headers=ann.headers) as ws:
        receive(ws, "social")
        for garbage in ("nope", "[]", '{"type": "move", "move": "S:A"}', "x" * 5000):
            ws.send_text(garbage)
            assert receive(ws, "error")["code"] in {
                "err_not_json",
                "err_not_object",
                "err_unknown_type",
                "err_too_long",
            }
        ws.send_text('{"type": "ping"}')
        assert receive(ws, "pong") == {"type": "pong"}


def test_a_blocked_players_seeks_are_hidden_in_the_lobby_both_ways(client: TestClient) -> None:
    ann, bob, cyd = person(client, "Ann"), person(client, "Bob"), person(client, "Cyd")
    post(client, ann, "/api/players/Bob/block")
    with (
        client.websocket_connect("/lobby/ws", headers=ann.headers) as ws_ann,
        client.websocket_connect("/lobby/ws", headers=bob.headers) as ws_bob,
        client.websocket_connect("/lobby/ws", headers=cyd.headers) as ws_cyd,
    ):
        for ws in (ws_ann, ws_bob, ws_cyd):
            receive(ws, "lobby")
        ws_bob.send_text(json.dumps({"type": "seek"}))
        bobs = receive(ws_cyd, "seek")["seek"]["id"]
        assert receive(ws_bob, "seek")["seek"]["mine"]
        ws_ann.send_text(json.dumps({"type": "seek"}))
        anns = receive(ws_cyd, "seek")["seek"]["id"]
        ws_ann.send_text(json.dumps({"type": "accept", "seek": bobs}))
        assert receive(ws_ann, "error")["code"] == "err_blocked"  # never shown to her
        ws_bob.send_text(json.dumps({"type": "accept", "seek": anns}))
        assert receive(ws_bob, "error")["code"] == "err_blocked"
        # Neither page was sent the other's seek; Cyd sees both and plays Bob.
        ws_ann.send_text(json.dumps({"type": "ping"}))
        ws_bob.send_text(json.dumps({"type": "ping"}))
        seen_by_ann = [m for m in until_pong(ws_ann) if m["type"] == "seek"]
        seen_by_bob = [m for m in until_pong(ws_bob) if m["type"] == "seek"]
        assert seen_by_ann == [] and seen_by_bob == []
        ws_cyd.send_text(json.dumps({"type": "accept", "seek": bobs}))
        assert receive(ws_bob, "paired")["seat"] == 0


def until_pong(ws: Any) -> list[JSONDict]:
    seen: list[JSONDict] = []
    while True:
        message: JSONDict = json.loads(ws.receive_text())
        if message["type"] == "pong":
            return seen
        seen.append(message)
