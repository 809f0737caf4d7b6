"""The deployment of docs/deploy.md: nginx (deploy/nginx.conf, rendered by tests/stack.py)
in front of ``hanamikoji serve`` instances on loopback, all on one PostgreSQL database.

One instance behind nginx: the pages and static files through the proxy (static files
cached by nginx and marked for browsers), a whole game between two browsers through it, a
Host the server does not answer refused (400) and a page of another site refused a game
socket (403) through the proxy.

Two instances on one database (issue 27): a friend game whose two players are each on
another instance, played to the end; a bot game whose instance is killed (SIGKILL) while
its bot thinks, finished by the other instance; a player who reconnects to the other
instance and finds the game as it was.

Run where nginx (Debian: ``apt-get install nginx``, as .ci/run does) and PostgreSQL are
(``HANAMIKOJI_TEST_POSTGRES_URL``, or the local default: tests/postgres_db.py); skipped
otherwise, saying which is missing.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from conftest import DEPLOYMENT_NOT_RUN
from postgres_db import URL, needs_postgres
from stack import Stack, find_nginx
from web_support import legal_texts
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

try:
    from browser_support import CHROMIUM, DESKTOP, browser, play_both_until_over  # noqa: F401

    BROWSER = CHROMIUM.exists()
except pytest.skip.Exception:  # no Playwright: the browser test is skipped
    BROWSER = False

JSONDict = dict[str, Any]

pytestmark = [
    needs_postgres,
    pytest.mark.skipif(
        find_nginx() is None,
        reason=f"{DEPLOYMENT_NOT_RUN}nginx is not installed (Debian: apt-get install nginx)",
    ),
]

# Bots act at once and think in threads; every client is nginx's one loopback address,
# so no limit per address or per socket gets in the way of a test's quick decisions.
FAST = (
    "--bot-delay",
    "0",
    "--bot-processes",
    "0",
    "--create-rate",
    "off",
    "--message-rate",
    "off",
)
WAIT = 15.0
"""Seconds any one message may take to arrive (a generous bound: they take milliseconds)."""


# -- a game over the protocol, as a page plays it -----------------------------------------


def game_socket(base: str, game_id: str, *, origin: str | None = None) -> ClientConnection:
    """A game socket to ``base`` (nginx's or an instance's address), the page's origin
    ``origin`` if given (a browser always sends one)."""
    url = base.replace("http", "ws", 1) + f"/ws/{game_id}"
    return connect(url, origin=Origin(origin) if origin else None, open_timeout=WAIT)


def next_state(ws: ClientConnection, at_least_ply: int = 0) -> JSONDict:
    """The next state message at ``at_least_ply`` or later (earlier ones are skipped)."""
    deadline = time.monotonic() + WAIT
    while True:
        message: JSONDict = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
        if message["type"] == "error":
            raise AssertionError(f"the server refused: {message}")
        if message["type"] == "state" and message["ply"] >= at_least_ply:
            return message


def hello(ws: ClientConnection, token: str) -> JSONDict:
    ws.send(json.dumps({"type": "hello", "token": token}))
    return next_state(ws)


def decide(ws: ClientConnection, state: JSONDict, rng: random.Random) -> None:
    move = rng.choice(legal_texts(state))
    ws.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))


def play_friend_game(
    sockets: list[ClientConnection], states: list[JSONDict], rng: random.Random, plies: int = 999
) -> list[JSONDict]:
    """Both seats decide in turn, each over its own socket, for ``plies`` decisions or
    until the end; each decision must reach both seats. Returns both seats' last states."""
    for _ in range(plies):
        if states[0]["outcome"] is not None:
            break
        ply, seat = states[0]["ply"], states[0]["to_move"]
        decide(sockets[seat], states[seat], rng)
        states = [next_state(ws, ply + 1) for ws in sockets]
        assert [state["ply"] for state in states] == [ply + 1, ply + 1]
    return states


def create(base: str, **options: Any) -> JSONDict:
    response = httpx.post(f"{base}/api/games", json=options, timeout=WAIT)
    assert response.status_code == 201, response.text
    game: JSONDict = response.json()
    return game


def shared(state: JSONDict) -> JSONDict:
    """What a seat's state says about the game, whichever instance sent it (who is
    connected right now is each instance's own view)."""
    return {key: value for key, value in state.items() if key != "connected"}


# -- one instance behind nginx ----------------------------------------------------------


@pytest.fixture(scope="module")
def single() -> Iterator[Stack]:
    assert URL is not None
    with Stack(URL, 1, options=FAST) as running:
        yield running


def test_pages_and_static_files_come_through_the_proxy_and_static_files_are_cached(
    single: Stack,
) -> None:
    page = httpx.get(f"{single.url}/", timeout=WAIT)
    assert page.status_code == 200
    assert '<script type="module" src="/static/js/main.js">' in page.text
    # The instance's own headers come through unchanged.
    assert page.headers["cache-control"] == "no-cache"
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert httpx.get(f"{single.url}/lobby", timeout=WAIT).status_code == 200

    first = httpx.get(f"{single.url}/static/js/replay.js", timeout=WAIT)
    again = httpx.get(f"{single.url}/static/js/replay.js", timeout=WAIT)
    assert first.status_code == again.status_code == 200
    assert "javascript" in again.headers["content-type"] and again.content == first.content
    assert again.headers["cache-control"] == "max-age=300"
    assert again.headers["x-cache-status"] == "HIT"  # nginx answered, not the instance
    assert again.headers["x-content-type-options"] == "nosniff"  # kept with the copy
    revalidated = httpx.get(
        f"{single.url}/static/js/replay.js",
        headers={"If-None-Match": again.headers["etag"]},
        timeout=WAIT,
    )
    assert revalidated.status_code == 304


def test_a_host_the_server_does_not_answer_is_refused_through_the_proxy(single: Stack) -> None:
    evil = {"Host": "evil.example", "Origin": "http://evil.example"}
    assert httpx.get(f"{single.url}/", headers=evil, timeout=WAIT).status_code == 400
    response = httpx.post(f"{single.url}/api/games", json={}, headers=evil, timeout=WAIT)
    assert response.status_code == 400
    # Not even a static file from nginx's copy: the Host is part of its key.
    assert httpx.get(f"{single.url}/static/style.css", timeout=WAIT).status_code == 200
    static = httpx.get(f"{single.url}/static/style.css", headers=evil, timeout=WAIT)
    assert static.status_code == 400
    upgrade = {
        **evil,
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    assert httpx.get(f"{single.url}/ws/x", headers=upgrade, timeout=WAIT).status_code == 400


def test_a_page_of_another_site_cannot_open_a_game_socket_through_the_proxy(
    single: Stack,
) -> None:
    game = create(single.url, opponent="friend")
    with pytest.raises(InvalidStatus) as refused:
        game_socket(single.url, game["id"], origin="http://evil.example")
    assert refused.value.response.status_code == 403
    # The proxy's own origin (its Host with its port, as the browser sent it) is the
    # server's: the socket opens.
    with game_socket(single.url, game["id"], origin=single.url) as ws:
        assert hello(ws, game["token"])["seat"] == 0


def test_a_whole_game_over_sockets_through_the_proxy(single: Stack) -> None:
    game = create(single.url, opponent="friend", variant="classic")
    with (
        game_socket(single.url, game["id"], origin=single.url) as ws0,
        game_socket(single.url, game["id"], origin=single.url) as ws1,
    ):
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        states = play_friend_game([ws0, ws1], states, random.Random(27))
    assert states[0]["outcome"] is not None and states[0]["outcome"] == states[1]["outcome"]


@pytest.mark.e2e
@pytest.mark.skipif(not BROWSER, reason="needs Playwright and Debian's chromium")
def test_two_browsers_play_a_whole_game_through_the_proxy(browser: Any, single: Stack) -> None:
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    host, guest = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
    try:
        host.goto(f"{single.url}/")
        host.check("input[name=opponent][value=friend]")
        host.click("#start-button")
        host.wait_for_selector(".game")
        link = host.locator("#invite-link").input_value()
        assert link.startswith(f"{single.url}/g/") and "#t=" in link
        guest.goto(link)
        guest.wait_for_selector(".game")
        play_both_until_over([host, guest], seconds=50, by_mouse=host)
    finally:
        for context in contexts:
            context.close()
    assert errors == []


# -- two instances on one database ----------------------------------------------------------


@pytest.fixture(scope="module")
def pair() -> Iterator[Stack]:
    assert URL is not None
    with Stack(URL, 2, options=FAST) as running:
        yield running


def test_the_two_players_of_a_game_on_two_instances_play_it_to_the_end(pair: Stack) -> None:
    one, other = pair.instances
    game = create(pair.url, opponent="friend", variant="classic")
    with (
        game_socket(one.url, game["id"]) as ws0,
        game_socket(other.url, game["id"]) as ws1,
    ):
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        states = play_friend_game([ws0, ws1], states, random.Random(1))
    assert states[0]["outcome"] is not None and states[0]["outcome"] == states[1]["outcome"]
    # Either instance gives the same record of it.
    records = [
        httpx.get(
            f"{instance.url}/api/games/{game['id']}/record",
            headers={"Authorization": f"Bearer {game['token']}"},
            timeout=WAIT,
        )
        for instance in pair.instances
    ]
    assert [record.status_code for record in records] == [200, 200]
    assert records[0].text == records[1].text


def test_a_player_who_reconnects_to_the_other_instance_finds_the_game_as_it_was(
    pair: Stack,
) -> None:
    one, other = pair.instances
    game = create(pair.url, opponent="friend", variant="classic")
    rng = random.Random(2)
    with game_socket(other.url, game["id"]) as ws1:
        with game_socket(one.url, game["id"]) as ws0:
            states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
            states = play_friend_game([ws0, ws1], states, rng, plies=7)
        # Seat 0's page lost its socket to the first instance and comes back to the other.
        with game_socket(other.url, game["id"]) as ws0:
            back = hello(ws0, game["token"])
            assert shared(back) == shared(states[0])
            states = play_friend_game([ws0, ws1], [back, states[1]], rng)
    assert states[0]["outcome"] is not None


def test_a_bot_game_whose_instance_is_killed_mid_thought_is_finished_by_the_other() -> None:
    assert URL is not None
    # The first instance's bot waits 3 s before it acts: it is killed while it waits. The
    # other's acts at once.
    slow, fast = ["--bot-delay", "3"], ["--bot-delay", "0"]
    with Stack(URL, 2, options=FAST, instance_options=[slow, fast]) as stack:
        doomed, survivor = stack.instances
        game = create(doomed.url, opponent="bot", level=7, variant="classic", first="opponent")
        with game_socket(doomed.url, game["id"]) as ws:
            state = hello(ws, game["token"])
            assert state["to_move"] == 1 and state["ply"] == 0  # the bot's to decide
            doomed.kill()
            killed_at = time.monotonic()
        # The page reconnects through nginx, which can only reach the survivor now.
        rng = random.Random(3)
        with game_socket(stack.url, game["id"], origin=stack.url) as ws:
            state = hello(ws, game["token"])
            while state["ply"] == 0:
                state = next_state(ws, 1)
            took = time.monotonic() - killed_at
            while state["outcome"] is None:
                if state["to_move"] == state["seat"]:
                    decide(ws, state, rng)
                state = next_state(ws, state["ply"] + 1)
        assert survivor.running()
    assert took < 10, f"the other instance took {took:.1f} s to take the bot's turn over"
