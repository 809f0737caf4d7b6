"""The lobby: seeks posted, seen live by other pages, accepted (a game with both seats
named) or cancelled (by hand or by closing the page), rating ranges, rated seeks and
accounts, refused seeks, the quick-pairing queue's order and widening window; and one
Chromium check (two players through the lobby page, a third watching their game)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from serving import Server, app_client, free_port
from starlette.testclient import TestClient
from web_support import receive, sign_in

from hanamikoji.arena.glicko2 import Rating
from hanamikoji.interfaces.clocks import PRESETS
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.lobby.clients import LobbyClient, LobbyPlayer
from hanamikoji.interfaces.web.lobby.seeks import (
    NOBODY_BLOCKED,
    BlockedPair,
    GameMaker,
    Pairing,
    Seat,
)
from hanamikoji.interfaces.web.lobby.service import Lobby
from hanamikoji.interfaces.web.wire.incoming import QuickMessage, SeekMessage, TimeControlName
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.interfaces.web.wire.refused import Refused

JSONDict = dict[str, Any]


# -- the lobby itself, with players of chosen ratings ------------------------------------------


class Page:
    """A lobby page: its player and every message it was sent."""

    def __init__(
        self, lobby: Lobby, name: str | None, rating: float = 1500.0, *, account: bool = False
    ) -> None:
        ratings = {"classic": Rating(rating)}
        player = None if name is None else LobbyPlayer(name, name, account, ratings)
        self.sent: list[JSONDict] = []
        self.client = LobbyClient(player, lambda text: self.sent.append(json.loads(text)))
        lobby.join(self.client)

    def of_type(self, kind: str) -> list[JSONDict]:
        return [message for message in self.sent if message["type"] == kind]


class Clock:
    """The server's time in ms."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


Scenario = Callable[[Lobby, list[Pairing], Clock], Coroutine[Any, Any, None]]


def with_lobby(
    scenario: Scenario, make_game: GameMaker | None = None, blocked: BlockedPair = NOBODY_BLOCKED
) -> None:
    """Run ``scenario`` with a lobby of one server on an in-memory database whose games
    are made up (``g1``, ``g2``...), the pairings made, and the lobby's clock;
    ``blocked``: the block list the lobby asks."""
    made: list[Pairing] = []
    clock = Clock()

    async def fake_game(pairing: Pairing) -> tuple[Seat, Seat]:
        made.append(pairing)
        game = f"g{len(made)}"
        return Seat(game, 0, f"{game}-t0"), Seat(game, 1, f"{game}-t1")

    async def run() -> None:
        store = Store("sqlite://")
        lobby = Lobby(make_game or fake_game, store, now=clock, blocked=blocked)
        await lobby.start()
        try:
            await scenario(lobby, made, clock)
        finally:
            await lobby.close()
            store.close()

    asyncio.run(run())


def test_a_seek_is_seen_live_by_the_other_pages_and_accepting_pairs_both() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], _: Clock) -> None:
        ann, bob = Page(lobby, "ann"), Page(lobby, "bob")
        seek = await lobby.seek(ann.client, SeekMessage(variant="french", time_control="3+2"))
        seen = bob.of_type("seek")[-1]["seek"]
        assert seen["id"] == seek.id and seen["variant"] == "french"
        assert seen["time_control"] == "3+2"
        player = {"name": "ann", "rating": 1500, "provisional": True, "account": False}
        assert seen["player"] == player
        assert not seen["mine"] and ann.of_type("seek")[-1]["seek"]["mine"]
        late = Page(lobby, "cy")
        assert [s["id"] for s in late.sent[0]["seeks"]] == [seek.id]
        await lobby.accept(bob.client, seek.id)
        assert made == [Pairing("ann", "bob", "french", "3+2", False)]
        paired = {"type": "paired", "game": "g1"}
        assert ann.of_type("paired") == [{**paired, "seat": 0, "token": "g1-t0"}]
        assert bob.of_type("paired") == [{**paired, "seat": 1, "token": "g1-t1"}]
        assert late.of_type("unseek") == [{"type": "unseek", "seek": seek.id}]
        with pytest.raises(Refused, match="err_seek_gone"):
            await lobby.accept(late.client, seek.id)

    with_lobby(scenario)


def test_seeks_go_when_cancelled_or_when_their_page_closes() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], _: Clock) -> None:
        ann, bob = Page(lobby, "ann"), Page(lobby, "bob")
        first = await lobby.seek(ann.client, SeekMessage())
        second = await lobby.seek(ann.client, SeekMessage(variant="three-rounds"))
        with pytest.raises(Refused, match="err_seek_gone"):
            await lobby.cancel(bob.client, first.id)  # not bob's
        await lobby.cancel(ann.client, first.id)
        lobby.leave(ann.client)
        assert [m["seek"] for m in bob.of_type("unseek")] == [first.id, second.id]
        assert to_plain(lobby.snapshot(bob.client))["seeks"] == []
        assert not made
        await asyncio.sleep(0.1)  # the database forgets them just after
        assert lobby.db.seeks() == []

    with_lobby(scenario)


def test_a_range_shows_the_seek_only_to_players_it_admits() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], _: Clock) -> None:
        ann = Page(lobby, "ann", 1500)
        near, far = Page(lobby, "near", 1600), Page(lobby, "far", 1900)
        onlooker = Page(lobby, None)
        seek = await lobby.seek(ann.client, SeekMessage(range=(1400, 1700)))
        assert near.of_type("seek") and not far.of_type("seek") and not onlooker.of_type("seek")
        assert to_plain(lobby.snapshot(far.client))["seeks"] == []
        with pytest.raises(Refused, match="err_seek_range"):
            await lobby.accept(far.client, seek.id)
        with pytest.raises(Refused, match="err_signed_out"):
            await lobby.accept(onlooker.client, seek.id)
        await lobby.accept(near.client, seek.id)
        assert made[0].opponent == "near"

    with_lobby(scenario)


def test_a_range_reads_the_rating_in_the_seeks_variant() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], _: Clock) -> None:
        ann = Page(lobby, "ann")
        ratings = {"classic": Rating(1500), "french": Rating(1800, 80)}
        french = LobbyPlayer("fr", "fr", False, ratings)
        sent: list[JSONDict] = []
        lobby.join(LobbyClient(french, lambda text: sent.append(json.loads(text))))
        assert sent[0]["you"]["ratings"]["french"] == {"rating": 1800, "provisional": False}
        await lobby.seek(ann.client, SeekMessage(variant="french", range=(1700, 1900)))
        await lobby.seek(ann.client, SeekMessage(variant="classic", range=(1700, 1900)))
        assert [m["seek"]["variant"] for m in sent if m["type"] == "seek"] == ["french"]

    with_lobby(scenario)


def test_refused_seeks_say_why() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], _: Clock) -> None:
        guest, nobody = Page(lobby, "guest"), Page(lobby, None)
        member = Page(lobby, "member", account=True)
        with pytest.raises(Refused, match="err_signed_out"):
            await lobby.seek(nobody.client, SeekMessage())
        with pytest.raises(Refused, match="err_rated_account"):
            await lobby.seek(guest.client, SeekMessage(rated=True))
        rated = await lobby.seek(member.client, SeekMessage(rated=True))
        with pytest.raises(Refused, match="err_rated_account"):
            await lobby.accept(guest.client, rated.id)
        with pytest.raises(Refused, match="err_seek_own"):
            await lobby.accept(member.client, rated.id)
        await lobby.seek(member.client, SeekMessage())
        await lobby.seek(member.client, SeekMessage())
        with pytest.raises(Refused, match="err_too_many_seeks"):
            await lobby.seek(member.client, SeekMessage())

    with_lobby(scenario)


def names(made: list[Pairing]) -> list[tuple[str, str]]:
    return [(pairing.seeker, pairing.opponent) for pairing in made]


def test_quick_pairing_pairs_the_closest_ratings_first() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], clock: Clock) -> None:
        ratings = [("a", 1500), ("b", 1650), ("c", 1780), ("d", 1910)]
        pages = [Page(lobby, name, rating) for name, rating in ratings]
        for page in pages:
            clock.now += 1  # in this order
            await lobby.enqueue(page.client, QuickMessage())
        assert not made  # every neighbour is more than 100 away
        clock.now = 2000  # windows of 140: b-c and c-d (130) qualify, a-b (150) not yet
        assert await lobby.pair_queue() == 1
        assert names(made) == [("b", "c")]
        clock.now = 100_000  # the widest window (700): a and d, 410 apart, meet
        assert await lobby.pair_queue() == 1
        assert names(made)[1] == ("a", "d")

    async def newcomers(lobby: Lobby, made: list[Pairing], clock: Clock) -> None:
        # A newcomer close to someone waiting is paired at once, the closest first.
        waiting = [Page(lobby, name, rating) for name, rating in [("a", 1500), ("b", 1700)]]
        waiting.append(Page(lobby, "c", 1900))
        for page in [*waiting, Page(lobby, "d", 1690), Page(lobby, "e", 1510)]:
            clock.now += 1
            await lobby.enqueue(page.client, QuickMessage())
        assert names(made) == [("b", "d"), ("a", "e")]
        assert waiting[2].of_type("queued")[-1]["queued"] is True
        assert not waiting[2].of_type("paired")

    with_lobby(scenario)
    with_lobby(newcomers)


def test_the_quick_pairing_window_widens_while_players_wait() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], clock: Clock) -> None:
        low, high = Page(lobby, "low", 1500), Page(lobby, "high", 1800)
        casual_other = Page(lobby, "other", 1500)
        await lobby.enqueue(low.client, QuickMessage())
        await lobby.enqueue(casual_other.client, QuickMessage(variant="french"))
        clock.now = 1  # the longest waiting is the seeker
        await lobby.enqueue(high.client, QuickMessage())
        assert not made  # 300 apart, and the 1500 in French wants another variant
        clock.now = 5000  # both windows are 200 wide
        assert await lobby.pair_queue() == 0
        clock.now = 10_001  # 300 wide: they meet
        assert await lobby.pair_queue() == 1
        assert names(made) == [("low", "high")]
        await lobby.dequeue(casual_other.client)
        assert casual_other.of_type("queued")[-1]["queued"] is False
        assert lobby.db.queue() == []

    with_lobby(scenario)


def test_a_game_that_cannot_be_made_is_refused_to_the_one_who_accepted() -> None:
    async def broken(pairing: Pairing) -> tuple[Seat, Seat]:
        raise OSError("the database is gone")

    async def scenario(lobby: Lobby, made: list[Pairing], _: Clock) -> None:
        ann, bob = Page(lobby, "ann"), Page(lobby, "bob")
        seek = await lobby.seek(ann.client, SeekMessage())
        with pytest.raises(Refused, match="err_pairing"):
            await lobby.accept(bob.client, seek.id)
        assert to_plain(lobby.snapshot(bob.client))["seeks"] == [] and not ann.of_type("paired")
        await lobby.seek(bob.client, SeekMessage())  # both are still in the lobby
        assert ann.of_type("seek")[-1]["seek"]["player"]["name"] == "bob"

    with_lobby(scenario, broken)


def test_two_pages_of_one_player_are_never_paired() -> None:
    async def scenario(lobby: Lobby, made: list[Pairing], _: Clock) -> None:
        tab1, tab2 = Page(lobby, "same"), Page(lobby, "same")
        seek = await lobby.seek(tab1.client, SeekMessage())
        with pytest.raises(Refused, match="err_seek_own"):
            await lobby.accept(tab2.client, seek.id)
        await lobby.enqueue(tab1.client, QuickMessage())
        await lobby.enqueue(tab2.client, QuickMessage())
        assert not made

    with_lobby(scenario)


def test_a_blocked_pair_is_never_paired_nor_meets_through_a_seek() -> None:
    """Ann blocked Bob after both pages opened (so neither page's ``avoids`` knows it):
    the queue leaves them waiting and pairs each with someone else, and neither may
    accept the other's seek."""
    blocks = {frozenset({"ann", "bob"})}

    def blocked(a: str, b: str) -> bool:
        return frozenset({a, b}) in blocks

    async def scenario(lobby: Lobby, made: list[Pairing], clock: Clock) -> None:
        ann, bob = Page(lobby, "ann", 1500), Page(lobby, "bob", 1500)
        await lobby.enqueue(ann.client, QuickMessage())
        clock.now = 1
        await lobby.enqueue(bob.client, QuickMessage())
        clock.now = 100_000  # the widest window: only the block keeps them apart
        assert await lobby.pair_queue() == 0 and not made
        cy = Page(lobby, "cy", 1550)
        await lobby.enqueue(cy.client, QuickMessage())
        assert names(made) == [("ann", "cy")]
        assert not bob.of_type("paired") and bob.of_type("queued")[-1]["queued"]
        await lobby.dequeue(bob.client)
        seek = await lobby.seek(bob.client, SeekMessage())
        with pytest.raises(Refused, match="err_blocked"):
            await lobby.accept(ann.client, seek.id)
        assert seek.id in lobby.board.seeks  # nothing else harmed: still open for others
        await lobby.accept(Page(lobby, "dee").client, seek.id)
        assert names(made)[-1] == ("bob", "dee")

    with_lobby(scenario, blocked=blocked)


# -- through the server -------------------------------------------------------------------------


@pytest.fixture
def client() -> Iterator[TestClient]:
    with app_client(login_rate="off") as test_client:
        yield test_client


def test_through_the_socket_a_seek_is_accepted_into_a_game_with_both_seats(
    client: TestClient,
) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    with (
        client.websocket_connect("/lobby/ws", headers=ann) as ws_ann,
        client.websocket_connect("/lobby/ws", headers=bob) as ws_bob,
    ):
        assert receive(ws_ann, "lobby")["you"]["name"] == "Ann"
        assert receive(ws_bob, "lobby")["seeks"] == []
        ws_ann.send_text(json.dumps({"type": "seek", "variant": "french", "time_control": "5+5"}))
        seek = receive(ws_bob, "seek")["seek"]
        assert seek["player"]["name"] == "Ann" and seek["time_control"] == "5+5"
        ws_bob.send_text(json.dumps({"type": "accept", "seek": seek["id"]}))
        paired = receive(ws_ann, "paired"), receive(ws_bob, "paired")
    game = paired[0]["game"]
    assert paired[1]["game"] == game and [p["seat"] for p in paired] == [0, 1]
    for side in paired:
        state = client.get(
            f"/api/games/{game}", headers={"Authorization": f"Bearer {side['token']}"}
        )
        assert state.json()["seat"] == side["seat"] and state.json()["variant"] == "french"
        assert state.json()["clock"]["control"] == "5+5"
    for cookie in (ann, bob):
        # Each side's session holds its seat: My games lists it.
        mine = client.get("/api/me/games", headers=cookie).json()["ongoing"]
        assert [entry["id"] for entry in mine] == [game]
    assert game in [g["id"] for g in client.get("/api/games?watch=1").json()["games"]]


def test_through_the_socket_closing_the_page_cancels_its_seeks(client: TestClient) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    with client.websocket_connect("/lobby/ws", headers=bob) as ws_bob:
        receive(ws_bob, "lobby")
        with client.websocket_connect("/lobby/ws", headers=ann) as ws_ann:
            receive(ws_ann, "lobby")
            ws_ann.send_text(json.dumps({"type": "seek"}))
            seek = receive(ws_bob, "seek")["seek"]
        assert receive(ws_bob, "unseek")["seek"] == seek["id"]


def test_through_the_socket_bad_messages_are_refused_and_onlookers_may_only_look(
    client: TestClient,
) -> None:
    guest = sign_in(client, "Ann")
    with client.websocket_connect("/lobby/ws", headers=guest) as ws:
        receive(ws, "lobby")
        for message, code in [
            ({"type": "seek", "variant": "chess"}, "err_bad_field"),
            ({"type": "seek", "time_control": "90+0"}, "err_bad_field"),
            ({"type": "seek", "range": [1800, 1200]}, "err_bad_field"),
            ({"type": "seek", "range": [0, 9000]}, "err_bad_field"),
            ({"type": "seek", "rated": True}, "err_rated_account"),
            ({"type": "accept", "seek": "nope"}, "err_seek_gone"),
            ({"type": "move", "move": "S:A"}, "err_unknown_type"),
        ]:
            ws.send_text(json.dumps(message))
            assert receive(ws, "error")["code"] == code, message
    with client.websocket_connect("/lobby/ws") as ws:
        assert receive(ws, "lobby")["you"] is None
        ws.send_text(json.dumps({"type": "seek"}))
        assert receive(ws, "error")["code"] == "err_signed_out"


def test_seek_creation_is_rate_limited() -> None:
    with app_client(login_rate="off", create_rate="2/minute") as client:
        ann = sign_in(client, "Ann")
        with client.websocket_connect("/lobby/ws", headers=ann) as ws:
            receive(ws, "lobby")
            for _ in range(2):
                ws.send_text(json.dumps({"type": "seek"}))
                receive(ws, "seek")
            ws.send_text(json.dumps({"type": "seek"}))
            assert receive(ws, "error")["code"] == "err_rate_limited"


WINDOW = 4.0
"""Seconds of the message rate's window in the flood test (10 messages in it)."""


def answers_to_a_burst(ws: Any, count: int) -> list[str]:
    """Send ``count`` pings at once, wait for the rate's window to pass, then a message
    refused for its language (the mark): what the socket answered before the mark, as
    ``pong`` or the error's code."""
    for _ in range(count):
        ws.send_text(json.dumps({"type": "ping"}))
    time.sleep(WINDOW + 0.3)
    ws.send_text(json.dumps({"type": "lang", "lang": "xx"}))
    answers: list[str] = []
    while True:
        message: JSONDict = json.loads(ws.receive_text())
        if message.get("code") == "err_bad_lang":
            return answers
        answers.append(message["type"] if message["type"] != "error" else message["code"])


@pytest.mark.parametrize("socket", ["lobby", "game"])
def test_a_flood_is_told_once_per_window_and_the_rest_dropped_on_either_socket(
    socket: str,
) -> None:
    """80 messages at once where 10 fit a window: 10 answered, one ``err_rate_limited``,
    69 dropped unread; the same in the next window (which the mark has used one of).
    The lobby's socket and the game's share the one budget (``guards.MessageBudget``)."""
    with app_client(login_rate="off", message_rate=f"10/{WINDOW:.0f} seconds") as client:
        if socket == "lobby":
            opened = client.websocket_connect("/lobby/ws")
        else:
            game = client.post("/api/games", json={"opponent": "friend"}).json()
            opened = client.websocket_connect(f"/ws/{game['id']}")
        with opened as ws:
            if socket == "lobby":
                receive(ws, "lobby")
            else:
                ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
                receive(ws, "state")
                receive(ws, "chat")  # a game between people: its chat room follows
            first = answers_to_a_burst(ws, 80)
            second = answers_to_a_burst(ws, 80)
    assert first == ["pong"] * 10 + ["err_rate_limited"]
    assert second == ["pong"] * 9 + ["err_rate_limited"]


def test_a_rated_seek_between_accounts(client: TestClient) -> None:
    ann, bob = sign_in(client, account="Annie"), sign_in(client, account="Bobby")
    with (
        client.websocket_connect("/lobby/ws", headers=ann) as ws_ann,
        client.websocket_connect("/lobby/ws", headers=bob) as ws_bob,
    ):
        assert receive(ws_ann, "lobby")["you"]["account"] is True
        receive(ws_bob, "lobby")
        ws_ann.send_text(json.dumps({"type": "seek", "rated": True, "range": [1400, 1600]}))
        seek = receive(ws_bob, "seek")["seek"]
        assert seek["rated"] and seek["range"] == [1400, 1600]
        ws_bob.send_text(json.dumps({"type": "accept", "seek": seek["id"]}))
        assert receive(ws_ann, "paired")["game"] == receive(ws_bob, "paired")["game"]


def test_quick_pairing_through_the_socket(client: TestClient) -> None:
    ann, bob = sign_in(client, "Ann"), sign_in(client, "Bob")
    with (
        client.websocket_connect("/lobby/ws", headers=ann) as ws_ann,
        client.websocket_connect("/lobby/ws", headers=bob) as ws_bob,
    ):
        receive(ws_ann, "lobby")
        receive(ws_bob, "lobby")
        ws_ann.send_text(json.dumps({"type": "quick"}))
        assert receive(ws_ann, "queued")["queued"] is True
        ws_bob.send_text(json.dumps({"type": "quick"}))
        assert receive(ws_ann, "paired")["game"] == receive(ws_bob, "paired")["game"]


# -- in Chromium ---------------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_two_browsers_meet_in_the_lobby_and_a_third_watches(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with (
        Server(tmp_path / "games.sqlite3", free_port()) as server,
        sync_api.sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        errors: list[str] = []
        pages = []
        for nickname in ("Ann", "Bob", None):
            context = browser.new_context(locale="en-GB")
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            if nickname is not None:
                response = page.request.post(
                    f"{server.url}/api/me/guest",
                    data={"nickname": nickname},
                    headers={"Origin": server.url},
                )
                assert response.status == 201, response.text()
            page.goto(f"{server.url}/lobby")
            pages.append(page)
        ann, bob, watcher = pages
        ann.wait_for_selector("[data-testid=lobby-you]")
        bob.wait_for_selector("[data-testid=lobby-you]")
        ann.select_option("select[name=variant]", "french")
        # Bob's seek redraws Ann's lobby: her choice stays.
        bob.click("#post-seek")
        ann.wait_for_selector(".accept-seek")
        assert ann.eval_on_selector("select[name=variant]", "el => el.value") == "french"
        ann.click("#post-seek")
        bob.wait_for_selector(".accept-seek")
        assert "Ann" in bob.inner_text("[data-testid=seeks]")
        bob.click(".accept-seek")
        for page in (ann, bob):
            page.wait_for_url("**/g/*", timeout=15_000)
            page.wait_for_selector(".game")
        game = ann.url.split("/g/")[1].split("#")[0]
        assert game == bob.url.split("/g/")[1].split("#")[0]
        seats = {page.inner_text(".status .facts") for page in (ann, bob)}
        assert any("Player 1" in text for text in seats) and any(
            "Player 2" in text for text in seats
        )
        watcher.goto(f"{server.url}/lobby")
        watcher.wait_for_selector(f"[data-watch='{game}']")
        watcher.click(f"[data-watch='{game}']")
        watcher.wait_for_selector(".game")
        facts = watcher.inner_text(".status .facts")
        assert "Watching" in facts and "French" in facts.title(), facts
        assert watcher.locator(".composer").count() == 0
        assert watcher.locator("[data-testid=my-side] .hand button").count() == 0
        browser.close()
        assert not errors, errors


def test_the_lobby_offers_the_time_controls_game_creation_takes() -> None:
    assert get_args(TimeControlName) == PRESETS
