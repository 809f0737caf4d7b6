"""Clocks (issue 26): the pure clock module with made-up times, and the server with an
injected time source: increments, answers on the answerer's clock, flag fall (lost on
time, or aborted before each side has decided), restarts and reloads that read the
clocks exactly, downtime charged, correspondence days, and untimed games as before."""

from __future__ import annotations

import asyncio
import json
import typing
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from postgres_db import REASON, URL
from serving import app_client, served
from starlette.testclient import TestClient
from web_support import (
    bearer,
    create,
    csrf,
    hello,
    instance,
    legal_texts,
    my_games,
    receive_state,
    register,
    take_seat,
)

from hanamikoji.interfaces.clocks import (
    DAY_MS,
    PRESETS,
    UNTIMED,
    Decision,
    TimeControl,
    clocks,
    datetime_to_ms,
    ms_to_datetime,
)
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import Append, GameStore, new_game_row
from hanamikoji.interfaces.web.games.live import Connection
from hanamikoji.interfaces.web.wire.incoming import NewGameRequest
from hanamikoji.interfaces.web.wire.outgoing import to_plain

JSONDict = dict[str, Any]
START = 1_800_000_000_000
"""A made-up moment (ms since the epoch) the tests' clocks start from."""


class FakeClock:
    """The server's time source, moved by hand."""

    def __init__(self, ms: int = START) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)


# -- the clock module ------------------------------------------------------------------


def test_time_controls_read_and_name_themselves() -> None:
    assert TimeControl.parse("3+2") == TimeControl("realtime", 180_000, 2_000)
    assert TimeControl.parse("10+0").increment_ms == 0
    assert TimeControl.parse("3d") == TimeControl("correspondence", days=3)
    assert TimeControl.parse("none") == UNTIMED
    for name in PRESETS:
        assert TimeControl.parse(name).name == name
    for wrong in ("0+5", "3+", "0d", "fast", "3 + 2"):
        with pytest.raises(ValueError, match="time control"):
            TimeControl.parse(wrong)
    # The new-game schema offers exactly the presets.
    assert typing.get_args(typing.get_type_hints(NewGameRequest)["clock"]) == PRESETS


def test_a_decision_costs_its_time_and_earns_the_increment() -> None:
    control = TimeControl.parse("3+2")
    moves = [Decision(0, START + 10_000), Decision(1, START + 25_000), Decision(0, START + 26_000)]
    state = clocks(control, START, moves, running=1, now=START + 30_000)
    # Seat 0: 180 - 10 + 2 - 1 + 2; seat 1: 180 - 15 + 2, then 4 s running.
    assert state.remaining == (173_000, 163_000)
    assert state.running == 1 and state.flagged is None
    assert state.flag_time() == START + 30_000 + 163_000


def test_the_side_to_decide_runs_even_for_an_answer() -> None:
    # Seat 0 offers a Gift, seat 1 answers it and then takes its own turn: two decisions
    # in a row on seat 1's clock, each counted from the one before.
    control = TimeControl.parse("5+5")
    moves = [Decision(0, START + 1_000), Decision(1, START + 3_000), Decision(1, START + 10_000)]
    state = clocks(control, START, moves, running=0, now=START + 12_000)
    assert state.remaining == (302_000, 301_000)
    over = clocks(control, START, moves, running=None, now=START + 999_000)
    assert over.running is None and over.flagged is None
    assert over.remaining == (304_000, 301_000)


def test_the_flag_falls_at_exactly_zero() -> None:
    control = TimeControl.parse("10+0")
    moves = [Decision(0, START + 600_000 - 1)]
    just = clocks(control, START, moves, running=1, now=START + 1_200_000 - 2)
    assert just.flagged is None and just.remaining == (1, 1)
    zero = clocks(control, START, moves, running=1, now=START + 1_200_000 - 1)
    assert zero.flagged == 1 and zero.remaining == (1, 0)
    late = clocks(control, START, moves, running=1, now=START + 2_000_000)
    assert late.flagged == 1 and late.remaining == (1, 0)


def test_correspondence_gives_days_per_decision() -> None:
    control = TimeControl.parse("1d")
    moves = [Decision(0, START + DAY_MS - 1)]
    fresh = clocks(control, START, moves, running=1, now=START + DAY_MS)
    assert fresh.remaining == (DAY_MS, DAY_MS - 1)
    assert clocks(control, START, moves, running=1, now=START + 2 * DAY_MS - 2).flagged is None
    assert clocks(control, START, moves, running=1, now=START + 2 * DAY_MS - 1).flagged == 1


def test_an_untimed_game_has_no_running_clock() -> None:
    state = clocks(UNTIMED, START, [Decision(0, START + 5)], running=1, now=START + 10**9)
    assert state.running is None and state.flagged is None and state.flag_time() is None


def test_times_that_run_backwards_are_refused() -> None:
    with pytest.raises(ValueError, match="backwards"):
        clocks(TimeControl.parse("3+2"), START, [Decision(0, START - 1)], running=1, now=START)


def test_milliseconds_survive_the_database_times() -> None:
    for ms in (START, START + 1, START + 999, 0):
        assert datetime_to_ms(ms_to_datetime(ms)) == ms


# -- the server ------------------------------------------------------------------------


def clocked(db_url: str, clock: FakeClock) -> TestClient:
    return app_client(db_url, clock=clock)


def move(ws: Any, state: JSONDict, index: int = 0) -> JSONDict:
    """Play the seat's ``index``-th legal decision; the state after it."""
    text = legal_texts(state)[index]
    ws.send_text(json.dumps({"type": "move", "move": text, "ply": state["ply"]}))
    return receive_state(ws, state["ply"] + 1)


def state_of(client: TestClient, game: JSONDict, token_key: str = "token") -> JSONDict:
    response = client.get(f"/api/games/{game['id']}", headers=bearer(game[token_key]))
    assert response.status_code == 200, response.text
    body: JSONDict = response.json()
    return body


def test_a_timed_game_sends_both_clocks_and_charges_the_side_to_decide(tmp_path: Path) -> None:
    clock = FakeClock()
    with clocked(f"sqlite:///{tmp_path / 'g.sqlite3'}", clock) as client:
        game = create(client, opponent="friend", first="me", clock="3+2")
        with take_seat(client, game) as (ws, state):
            assert state["clock"] == {
                "control": "3+2",
                "kind": "realtime",
                "remaining": [180_000, 180_000],
                "running": 0,
            }
            clock.advance(7)
            state = move(ws, state)
        assert state["clock"]["remaining"] == [175_000, 180_000]
        assert state["clock"]["running"] == 1
        clock.advance(3)
        assert state_of(client, game, "friend_token")["clock"]["remaining"] == [175_000, 177_000]


def test_an_answer_runs_the_answerers_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    with clocked(f"sqlite:///{tmp_path / 'g.sqlite3'}", clock) as client:
        game = create(client, opponent="friend", first="me", clock="5+5")
        with (
            client.websocket_connect(f"/ws/{game['id']}") as ws0,
            client.websocket_connect(f"/ws/{game['id']}") as ws1,
        ):
            state = hello(ws0, game["token"])
            hello(ws1, game["friend_token"])
            gift = next(i for i, t in enumerate(legal_texts(state)) if t.startswith("G:"))
            state = move(ws0, state, gift)
            other = receive_state(ws1, state["ply"])
            assert other["pending"] is not None and other["to_move"] == 1
            assert other["clock"]["running"] == 1
            clock.advance(4)
            other = move(ws1, other)
            assert other["clock"]["remaining"] == [305_000, 301_000]


def test_the_flag_falls_and_the_game_is_lost_on_time_by_the_right_seat(tmp_path: Path) -> None:
    clock = FakeClock()
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with clocked(url, clock) as client:
        game = create(client, opponent="friend", first="me", clock="3+2")
        with (
            client.websocket_connect(f"/ws/{game['id']}") as ws0,
            client.websocket_connect(f"/ws/{game['id']}") as ws1,
        ):
            state = hello(ws0, game["token"])
            other = hello(ws1, game["friend_token"])
            state = move(ws0, state)  # seat 0 decides, then seat 1
            other = move(ws1, receive_state(ws1, state["ply"]))
            state = receive_state(ws0, other["ply"])
            assert state["to_move"] == 0
            clock.advance(182)  # seat 0 had 182 s: exactly zero now
            # A decision sent after the flag is refused; the game is lost on time.
            ws0.send_text(json.dumps({"type": "move", "move": legal_texts(state)[0]}))
            ended = receive_state(ws0)
            while ended["outcome"] is None:
                ended = receive_state(ws0)
            seen_by_winner = receive_state(ws1)
            while seen_by_winner["outcome"] is None:
                seen_by_winner = receive_state(ws1)
        for final in (ended, seen_by_winner):
            assert final["outcome"]["termination"] == "time"
            assert final["outcome"]["winner"] == 1 and final["outcome"]["result"] == "0-1"
            assert final["clock"]["running"] is None
            assert final["clock"]["remaining"][0] == 0
            assert final["ply"] == 2
        # Nothing hidden is shown: the loser's view still has no reveal.
        assert ended["reveal"] is None
        record = client.get(f"/api/games/{game['id']}/record", headers=bearer(game["token"]))
        assert record.status_code == 200
        assert '[Result "*"]' in record.text and '[WebTermination "time"]' in record.text
        assert '[WebResult "0-1"]' in record.text
        replay = client.get(f"/api/games/{game['id']}/replay", headers=bearer(game["token"]))
        assert replay.status_code == 200 and len(replay.json()["frames"]) == 3
        analysis = client.post(f"/api/games/{game['id']}/analysis", headers=bearer(game["token"]))
        assert analysis.status_code == 409 and analysis.json()["code"] == "err_not_over"
        # A spectator sees the game over too, and no hand.
        hub = served(client).hub
        live = client.portal.call(hub.get, game["id"])  # type: ignore[union-attr]
        assert live is not None
        watched = to_plain(hub.spectator_state_for(live))
        assert watched["outcome"]["termination"] == "time" and watched["hand"] == []
    stored = GameStore(Store(url)).load(game["id"])
    assert stored is not None
    assert (stored.status, stored.result, stored.termination) == ("finished", "0-1", "time")
    # The result survives a restart.
    with clocked(url, clock) as client:
        again = state_of(client, game)
        assert again["outcome"]["termination"] == "time" and again["outcome"]["winner"] == 1


def test_a_flag_before_each_side_has_decided_aborts_the_game(tmp_path: Path) -> None:
    clock = FakeClock()
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with clocked(url, clock) as client:
        game = create(client, opponent="friend", first="me", clock="3+2")
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            move(ws, hello(ws, game["token"]))
        clock.advance(180)  # the friend never came
        state = state_of(client, game)
        assert state["outcome"]["termination"] == "aborted"
        assert state["outcome"]["winner"] is None and state["outcome"]["result"] == "*"
    stored = GameStore(Store(url)).load(game["id"])
    assert stored is not None and (stored.result, stored.termination) == ("*", "aborted")


def test_a_restart_and_a_reload_read_the_same_clocks(tmp_path: Path) -> None:
    clock = FakeClock()
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with clocked(url, clock) as client:
        game = create(client, opponent="friend", first="me", clock="5+5")
        with take_seat(client, game) as (ws0, state):
            clock.advance(12.345)
            state = move(ws0, state)
            with take_seat(client, game, game["friend_token"]) as (ws1, other):
                clock.advance(3.21)
                other = move(ws1, other)
        clock.advance(1.5)
        before = state_of(client, game)["clock"]
        # A page reload: a new socket at the same moment gets the same times.
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            assert hello(ws, game["token"])["clock"] == before
    assert before["remaining"] == [292_655 - 1_500, 301_790]
    # Another server on the same database, at the same moment: the same clocks.
    with clocked(url, clock) as client:
        assert state_of(client, game)["clock"] == before
    # Downtime counts: the side to decide was charged while no server was up...
    clock.advance(60)
    with clocked(url, clock) as client:
        assert state_of(client, game)["clock"]["remaining"] == [231_155, 301_790]
    # ... and a flag that fell meanwhile ends the game at start (the sweep).
    clock.advance(300)
    with clocked(url, clock):
        pass
    stored = GameStore(Store(url)).load(game["id"])
    assert stored is not None and (stored.result, stored.termination) == ("0-1", "time")


def test_a_bots_clock_runs_too(tmp_path: Path) -> None:
    clock = FakeClock()
    with clocked(f"sqlite:///{tmp_path / 'g.sqlite3'}", clock) as client:
        game = create(client, opponent="bot", level=1, first="opponent", clock="3+2")
        with take_seat(client, game) as (ws, state):
            if state["ply"] == 0:
                state = receive_state(ws, 1)
            # The bot decided at once (the fake clock stood still): it earned its 2 s.
            assert state["clock"]["remaining"] == [180_000, 182_000]
            assert state["clock"]["running"] == 0


def test_a_correspondence_game_is_lost_after_its_days(tmp_path: Path) -> None:
    clock = FakeClock()
    with clocked(f"sqlite:///{tmp_path / 'g.sqlite3'}", clock) as client:
        game = create(client, opponent="friend", first="me", clock="1d")
        with take_seat(client, game) as (ws0, state):
            assert state["clock"]["kind"] == "correspondence"
            clock.advance(20 * 3600)
            state = move(ws0, state)
            assert state["clock"]["remaining"] == [DAY_MS, DAY_MS]
        with client.websocket_connect(f"/ws/{game['id']}") as ws1:
            other = move(ws1, hello(ws1, game["friend_token"]))
        clock.advance(24 * 3600)
        assert state_of(client, game)["outcome"] == {
            "winner": 1,
            "termination": "time",
            "reason": "outcome_time",
            "charm": other["charm"],
            "geishas": other["geishas"],
            "rounds": 1,
            "result": "0-1",
        }


def test_an_untimed_game_has_no_clock(client_untimed: TestClient) -> None:
    game = create(client_untimed, opponent="friend", first="me")
    assert state_of(client_untimed, game)["clock"] is None
    refused = client_untimed.post("/api/games", json={"clock": "2+1"})
    assert refused.status_code == 400 and refused.json()["code"] == "err_bad_field"


@pytest.fixture
def client_untimed() -> typing.Iterator[TestClient]:
    with app_client() as client:
        yield client


def test_the_flag_timer_ends_the_game_by_itself() -> None:
    """The real timer, on the wall clock: a game with a third of a second ends alone,
    and both seats hear it."""

    async def scenario() -> list[JSONDict]:
        heard: list[JSONDict] = []

        async def send(message: str) -> None:
            heard.append(json.loads(message))

        async with instance("sqlite://") as hub:
            created = await hub.create("classic", 0, None, clock=TimeControl("realtime", 300, 0))
            live = await hub.get(created.id)
            assert live is not None
            await hub.attach(created.id, 0, Connection(send, "en"))
            await asyncio.sleep(0.6)
            return heard

    heard = asyncio.run(scenario())
    assert heard[-1]["outcome"]["termination"] == "aborted"
    assert heard[-1]["clock"]["running"] is None


def test_my_games_shows_the_time_left_of_the_games_waiting_for_me(tmp_path: Path) -> None:
    clock = FakeClock()
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with app_client(url, clock=clock, login_rate="off") as client:
        made = register(client, "Postal")
        game = client.post(
            "/api/games",
            json={"opponent": "friend", "first": "me", "clock": "3d"},
            headers=csrf(made),
        ).json()
        untimed = client.post(
            "/api/games", json={"opponent": "bot", "first": "me"}, headers=csrf(made)
        ).json()
        clock.advance(5 * 3600)
        listed = {entry["id"]: entry for entry in my_games(client)["ongoing"]}
        assert listed[game["id"]]["your_turn"] is True
        assert listed[game["id"]]["clock"] == {
            "control": "3d",
            "kind": "correspondence",
            "remaining": [3 * DAY_MS - 5 * 3600 * 1000, 3 * DAY_MS],
            "running": 0,
        }
        assert listed[untimed["id"]]["clock"] is None


# -- storage, on SQLite and PostgreSQL ---------------------------------------------------


def _database(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'g.sqlite3'}"
    if URL is None:
        pytest.skip(REASON)
    return URL


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_database_keeps_what_the_clocks_need(kind: str, tmp_path: Path) -> None:
    database = Store(_database(kind, tmp_path))
    store = GameStore(database)
    try:
        control = TimeControl.parse("5+5")
        row = new_game_row("classic", 7, 0, ("h0", "h1"), None, None)
        row = replace(row, clock=control, created=ms_to_datetime(START + 1))
        store.create_game(row)
        store.append_many([Append(row.id, 0, "S:A", at=ms_to_datetime(START + 12_345))])
        loaded = store.load(row.id)
        assert loaded is not None and loaded.clock == control
        assert datetime_to_ms(loaded.created) == START + 1
        assert [datetime_to_ms(at) for at in loaded.decision_times] == [START + 12_345]
        assert row.id in store.timed_games_in_play()
        # Ended by the clock only while that ply is undecided, and only once.
        assert not store.end_outside_rules(row.id, 0, "0-1", "time")
        assert store.end_outside_rules(row.id, 1, "1-0", "time")
        assert not store.end_outside_rules(row.id, 1, "1-0", "time")
        ended = store.load(row.id)
        assert ended is not None
        assert (ended.status, ended.result, ended.termination) == ("finished", "1-0", "time")
        assert row.id not in store.timed_games_in_play()
        with pytest.raises(ValueError, match="termination"):
            store.end_outside_rules(row.id, 1, "1-0", "conceded")
        untimed = store.create_game(new_game_row("classic", 8, 0, ("h", None), 1, 1))
        again = store.load(untimed.id)
        assert again is not None and again.clock == UNTIMED and again.termination is None
    finally:
        database.close()


# -- the page (Chromium) ---------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_the_page_shows_two_ticking_clocks_against_a_bot(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from browser_support import CHROMIUM_ARGS
    from serving import Server, free_port

    with Server(tmp_path / "games.sqlite3", free_port()) as server:
        created = httpx.post(
            f"{server.url}/api/games",
            json={"opponent": "bot", "level": 1, "first": "me", "clock": "3+2"},
        ).json()
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server.url}/g/{created['id']}#t={created['token']}")
            page.wait_for_selector("[data-testid=clocks]")
            mine, bots = "[data-testid=clock-0] .time", "[data-testid=clock-1] .time"
            assert page.text_content(bots) == "3:00"
            first = page.text_content(mine)
            page.wait_for_timeout(1600)
            second = page.text_content(mine)
            assert first is not None and second is not None
            assert _seconds(second) < _seconds(first) <= 180, (first, second)
            assert page.text_content(bots) == "3:00"
            assert "running" in (page.get_attribute("[data-testid=clock-0]", "class") or "")
            assert page.get_attribute("[data-testid=clocks]", "data-control") == "3+2"
            browser.close()
            assert not errors, errors


def _seconds(shown: str) -> float:
    minutes, seconds = shown.split(":")
    return int(minutes) * 60 + float(seconds)


def test_the_owners_flag_timer_ends_a_game_nobody_watches() -> None:
    """A timed game nobody has opened stays with its owner (the instance that made it),
    whose timer ends it, in the database."""

    async def scenario() -> tuple[str | None, str | None, bool]:
        async with instance("sqlite://") as hub:
            created = await hub.create("classic", 0, None, clock=TimeControl("realtime", 300, 0))
            # Whether the game stayed in memory.
            in_memory = hub.in_memory(created.id) is not None
            await asyncio.sleep(0.6)
            stored = hub.games.load(created.id)
            assert stored is not None
            return stored.status, stored.termination, in_memory

    assert asyncio.run(scenario()) == ("finished", "aborted", True)


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_the_page_warns_of_low_time_once_and_says_a_loss_on_time(tmp_path: Path) -> None:
    """The game socket scripted with real seat states (as tests/test_web_table.py does):
    a clock under 20 s turns red and is announced once; a game lost on time says so."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from browser_support import CHROMIUM_ARGS
    from serving import Server, free_port

    from hanamikoji.core import Game
    from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
    from hanamikoji.interfaces.web.wire.outgoing import encode

    game = Game("classic", seed=11, first_player=0)
    base = PublicGame("scripted", ("human", "bot"), (None, 2), 0, (True, True))

    def state(**public: Any) -> str:
        return encode(seat_state(game.view(0), replace(base, **public)))

    low = {"control": "3+2", "kind": "realtime", "remaining": [15_000, 170_000], "running": 0}
    with (
        Server(tmp_path / "games.sqlite3", free_port()) as server,
        sync_api.sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        sockets: list[Any] = []

        def accept(socket: Any) -> None:
            sockets.append(socket)
            socket.on_message(
                lambda text: socket.send(state(clock=low)) if '"hello"' in text else None
            )

        page.route_web_socket("**/ws/scripted", accept)
        page.goto(f"{server.url}/g/scripted#t=token")
        page.wait_for_selector("[data-testid=clock-0].low")
        alert = ".clocks .clock-alert"
        page.wait_for_function(f"document.querySelector('{alert}').textContent !== ''")
        assert page.text_content(alert) == "Less than 20 seconds left on your clock."
        assert "low" not in (page.get_attribute("[data-testid=clock-1]", "class") or "")
        shown = page.text_content("[data-testid=clock-0] .time") or ""
        assert shown.startswith("0:1"), shown
        # Said once: the next state (a redrawing) does not say it again.
        sockets[0].send(state(clock=low))
        page.wait_for_timeout(300)
        assert page.text_content(alert) == ""
        ended = {**low, "remaining": [0, 170_000], "running": None}
        sockets[0].send(state(clock=ended, ended=("time", "0-1")))
        page.wait_for_selector("[data-testid=end]")
        assert "wins on time" in (page.text_content("[data-testid=end] .why") or "")
        assert page.text_content("[data-testid=clock-0] .time") == "0:00.0"
        browser.close()
