"""People at the table (issue 49): each seat's player named in every state (seats and
spectators), the games to watch and the records; a seat resigning at any moment (rated
as any end, ``resigned`` in the game and its record) or aborting before each side has
decided (not rated), and what is refused."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import Server, app_client, free_port
from starlette.testclient import TestClient
from test_web_ratings import create_game, friend_game, log_in, made
from web_support import (
    Tap,
    as_guest,
    bearer,
    csrf,
    hello,
    legal_texts,
    receive_error,
    receive_state,
    register,
)

from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.web.games.people import record_name
from hanamikoji.interfaces.web.wire.outgoing import SeatPlayer
from hanamikoji.notation.records import RESIGNED, GameRecord

try:
    from browser_support import (
        CHROMIUM,
        DESKTOP,
        browser,  # noqa: F401  (a fixture)
        close_summaries,
        decide,
        game_data,
        sign_up,
    )

    BROWSER = CHROMIUM.exists()
except pytest.skip.Exception:  # no Playwright: the browser test is skipped
    BROWSER = False

JSONDict = dict[str, Any]

PERSON_FIELDS = {"kind", "name", "level", "rating", "provisional", "bot"}


@pytest.fixture
def tap() -> Tap:
    return Tap()


@pytest.fixture
def client(tap: Tap) -> Iterator[TestClient]:
    with app_client("sqlite://", login_rate="off", tap=tap) as test_client:
        yield test_client


def send(ws: Any, **message: Any) -> None:
    ws.send_text(json.dumps(message))


def decide_on(ws: Any, state: JSONDict, rng: random.Random) -> None:
    send(ws, type="move", move=rng.choice(legal_texts(state)), ply=state["ply"])


def test_each_seat_and_a_spectator_see_both_names(client: TestClient) -> None:
    game, _, _ = friend_game(client)
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
        client.websocket_connect(f"/ws/{game['id']}/watch") as watcher,
    ):
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        watched = receive_state(watcher)
        for state in (*states, watched):
            names = [(p["kind"], p["name"]) for p in state["people"]]
            assert names == [("account", "Ann"), ("account", "Bob")]
            assert state["players"] == ["human", "human"]  # as before, for old pages


def test_a_claim_names_the_seat_on_pages_already_open(client: TestClient) -> None:
    register(client, "Bob")
    ann = register(client, "Ann")
    game = made(create_game(client, ann, opponent="friend"))
    with client.websocket_connect(f"/ws/{game['id']}") as ws0:
        state = hello(ws0, game["token"])
        assert [p["kind"] for p in state["people"]] == ["account", "anonymous"]
        bob = log_in(client, "Bob")
        claimed = client.post(
            f"/api/games/{game['id']}/claim",
            headers={**csrf(bob), **bearer(game["friend_token"])},
        )
        assert claimed.status_code == 200, claimed.text
        while state["people"][1]["kind"] != "account":
            state = receive_state(ws0)
        assert state["people"][1]["name"] == "Bob"


def test_a_guest_is_its_nickname_marked_guest_and_a_bot_its_level(client: TestClient) -> None:
    guest = as_guest(client, "Kim")
    game = made(create_game(client, guest, opponent="bot", level=2, first="me"))
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        state = hello(ws, game["token"])
    kim, bot = (SeatPlayer(**p) for p in state["people"])
    assert (kim.kind, kim.name) == ("guest", "Kim") and record_name(kim, 0) == "Kim (guest)"
    assert (bot.kind, bot.level) == ("bot", 2) and bot.rating is not None


def test_a_rated_game_names_ratings_after_a_resignation_out_of_turn(
    client: TestClient, tap: Tap, tmp_path: Path
) -> None:
    game, _, _ = friend_game(client)
    rng = random.Random(3)
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
    ):
        sockets = (ws0, ws1)
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        for _ in range(3):
            seat = states[0]["to_move"]
            decide_on(sockets[seat], states[seat], rng)
            states = [receive_state(ws, states[0]["ply"] + 1) for ws in sockets]
        loser = 1 - states[0]["to_move"]  # the seat NOT to decide resigns
        send(sockets[loser], type="resign")
        ends = [until_over(ws) for ws in sockets]
        for end in ends:
            assert end["outcome"]["termination"] == "resigned"
            assert end["outcome"]["reason"] == "outcome_resigned"
            assert end["outcome"]["winner"] == 1 - loser
        send(sockets[loser], type="resign")
        assert receive_error(sockets[loser])["code"] == "err_game_over"
        send(sockets[loser], type="abort")
        assert receive_error(sockets[loser])["code"] == "err_game_over"
    ratings = client.get(f"/api/games/{game['id']}/ratings").json()
    deltas = [change["delta"] for change in ratings["changes"]]
    assert deltas[1 - loser] > 0 > deltas[loser]
    # The record: unfinished under the rules, the resignation in its forfeit tags.
    record = client.get(f"/api/games/{game['id']}/record", headers=bearer(game["token"]))
    parsed = GameRecord.from_text(record.text)
    assert parsed.players == ("Ann", "Bob") and parsed.result == "*"
    assert parsed.forfeit is not None and parsed.forfeit.kind == RESIGNED
    assert parsed.forfeit.seat == loser and parsed.tag("WebTermination") == "resigned"
    # ``hanamikoji replay`` names both players and says who resigned.
    path = tmp_path / "resigned.hkr"
    path.write_text(record.text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run_command(["replay", str(path)], Streams(io.StringIO(), out, err)) == 0
    labels = ("Ann (Player 1)", "Bob (Player 2)")
    said = " ".join(out.getvalue().split())
    assert "Ann (Player 1) vs Bob (Player 2)" in said
    assert f"{labels[loser]} resigned: {labels[1 - loser]} wins." in said
    # The next states name the new ratings.
    with client.websocket_connect(f"/ws/{game['id']}/watch") as watcher:
        watched = receive_state(watcher)
    assert [p["rating"] for p in watched["people"]] == [c["after"] for c in ratings["changes"]]
    assert all(p["provisional"] for p in watched["people"])
    assert_no_cards_in_people(tap)


def test_abort_before_each_side_decided_and_not_after(client: TestClient) -> None:
    game, _, _ = friend_game(client)
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
        client.websocket_connect(f"/ws/{game['id']}/watch") as watcher,
    ):
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        receive_state(watcher)
        send(watcher, type="abort")
        assert receive_error(watcher)["code"] == "err_spectator"
        send(watcher, type="resign")
        assert receive_error(watcher)["code"] == "err_spectator"
        seat = states[0]["to_move"]
        decide_on((ws0, ws1)[seat], states[seat], random.Random(1))
        receive_state(ws0, 1)
        send(ws1, type="abort")  # one side has decided: still in time
        end = until_over(ws0)
        assert end["outcome"]["termination"] == "aborted" and end["outcome"]["result"] == "*"
        assert until_over(watcher)["outcome"]["winner"] is None
    ratings = client.get(f"/api/games/{game['id']}/ratings").json()
    assert ratings == {"rated": True, "changes": None}


def test_abort_is_refused_once_each_side_has_decided(client: TestClient) -> None:
    ann = register(client, "Ann")
    game = made(create_game(client, ann, opponent="friend"))
    rng = random.Random(4)
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
    ):
        sockets = (ws0, ws1)
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        while len({0, 1} - decided(states[0])) > 0:
            seat = states[0]["to_move"]
            decide_on(sockets[seat], states[seat], rng)
            states = [receive_state(ws, states[0]["ply"] + 1) for ws in sockets]
        send(ws0, type="abort")
        assert receive_error(ws0)["code"] == "err_abort_late"
        send(ws0, type="resign")
        assert until_over(ws1)["outcome"]["winner"] == 1


def until_over(ws: Any) -> JSONDict:
    while True:
        state = receive_state(ws)
        if state["outcome"] is not None:
            return state


def decided(state: JSONDict) -> set[int]:
    return {line["seat"] for line in state["log"]}


def test_the_games_to_watch_name_both_players(client: TestClient) -> None:
    game, _, _ = friend_game(client)
    listed = client.get("/api/games?watch=1").json()["games"]
    (entry,) = [g for g in listed if g["id"] == game["id"]]
    assert [(p["kind"], p["name"]) for p in entry["players"]] == [
        ("account", "Ann"),
        ("account", "Bob"),
    ]
    assert all(set(p) == PERSON_FIELDS for p in entry["players"])


def assert_no_cards_in_people(tap: Tap) -> None:
    """Every ``people`` sent holds a seat's kind, name, level, rating and whether it is a
    bot account: nothing of a card can hide in it."""
    seen = 0
    for messages in tap.sent.values():
        for text in messages:
            message = json.loads(text)
            if message.get("type") != "state":
                continue
            for person in message["people"]:
                assert set(person) == PERSON_FIELDS
                assert person["kind"] in ("account", "guest", "bot", "anonymous")
                assert isinstance(person["name"], str | None)
                assert isinstance(person["rating"], int | None)
                assert isinstance(person["bot"], bool)
                seen += 1
    assert seen > 0


# -- in Chromium ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def people_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    options = ("--bot-delay", "0", "--bot-processes", "0", "--login-rate", "off")
    folder = tmp_path_factory.mktemp("people")
    with Server(folder / "games.sqlite3", free_port(), *options) as server:
        yield server


@pytest.mark.e2e
@pytest.mark.skipif(not BROWSER, reason="needs Playwright and Debian's chromium")
def test_two_accounts_see_each_other_and_one_resigns(browser: Any, people_server: Server) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(3)]
    host, friend, watcher = (context.new_page() for context in contexts)
    errors: list[str] = []
    for one in (host, friend, watcher):
        one.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_up(host, people_server, "Hana")
        sign_up(friend, people_server, "Kaze")
        host.check("input[name=opponent][value=friend]")
        host.check("#rated")
        host.click("#start-button")
        host.wait_for_selector(".game")
        game_id = host.url.split("/g/")[1].split("#")[0]
        friend.goto(host.locator("#invite-link").input_value())
        friend.wait_for_selector(".game")
        pages = [host, friend]
        while int(game_data(host)["ply"]) < 2:  # each side decides: an abort is too late
            for one in pages:
                close_summaries(one)
                if game_data(one)["mine"] == "yes" and game_data(one)["busy"] == "no":
                    decide(one, by_mouse=False)
            host.wait_for_timeout(30)
        for one in pages:
            one.wait_for_function(
                "() => document.querySelectorAll('[data-testid=seat-names] a').length === 2"
            )
            names = one.locator("[data-testid=seat-names]").inner_text()
            assert "Hana" in names and "Kaze" in names and "1500?" in names
            assert one.locator("#abort").count() == 0 and one.locator("#resign").count() == 1
        watcher.goto(people_server.url + f"/w/{game_id}")
        watcher.wait_for_selector("[data-testid=seat-names] a")
        assert "Hana" in watcher.locator("[data-testid=seat-names]").inner_text()
        assert watcher.locator("#resign").count() == 0
        # Kaze resigns, out of turn or not, with the keyboard in the confirm dialog.
        friend.click("#resign")
        friend.wait_for_selector("dialog.concede-confirm[open]")
        friend.keyboard.press("Escape")  # asked again: nothing sent
        # The dialog goes at its close event, which the browser queues after Escape.
        friend.wait_for_selector("dialog.concede-confirm", state="detached")
        friend.click("#resign")
        friend.keyboard.press("Tab")
        friend.keyboard.press("Enter")
        for one in (host, friend, watcher):
            one.wait_for_selector("[data-testid=end] .why")
            assert one.locator("[data-testid=end] .why").inner_text() == (
                "Kaze resigned: Hana wins."
            )
        for one, other in zip(pages, ("Kaze", "Hana"), strict=True):
            one.wait_for_selector("[data-testid=end-ratings]:not([hidden])")
            block = one.locator("[data-testid=end-ratings]").inner_text()
            assert f"{other}: " in block and "You: " in block
            deltas = one.locator("[data-testid=rating-delta]").all_inner_texts()
            assert sorted(d.strip()[0] for d in deltas) == ["+", "\u2212"]
            assert one.locator("#rematch").count() == 1
        assert "Kaze" in host.locator("[data-testid=end] .why").inner_text()
        assert errors == []
    finally:
        for context in contexts:
            context.close()
