"""The bot API (issue 50, docs/bot-api.md): personal tokens, bot accounts, the NDJSON
streams and the actions; a whole game between two bot accounts through the API against a
real server, every stream line audited for hidden cards."""

from __future__ import annotations

import json
import queue
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
from serving import Server, app_client, free_port
from web_support import PASSWORD, JSONDict, csrf, legal_texts, register

from hanamikoji.core.game import Game
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
from hanamikoji.interfaces.web.wire.outgoing import to_plain

SEAT_FIELDS: tuple[str, ...] = (
    *("hand", "drawn", "secret", "tradeoff", "placed", "pending", "log", "unseen"),
    *("used", "hand_sizes", "deck", "reveal", "rounds", "outcome"),
)
FORBIDDEN_KEYS = {"hands", "removed", "deck_cards", "opponent_hand", "secrets", "tradeoffs"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_token(client: Any, body: JSONDict, scopes: tuple[str, ...] = ("bot:play",)) -> str:
    made = client.post(
        "/api/tokens", json={"name": "engine", "scopes": list(scopes)}, headers=csrf(body)
    )
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    assert token.startswith("hmk_") and len(token) == 47
    return token


def api_error(response: Any, status: int, code: str) -> JSONDict:
    assert response.status_code == status, response.text
    found: JSONDict = response.json()
    assert found["error"] == code, found
    return found


# -- tokens and accounts, in the test client -----------------------------------------------


def test_tokens_are_made_listed_and_revoked_by_the_session_only() -> None:
    with app_client() as client:
        ann = register(client, "Ann")
        token = make_token(client, ann, ("bot:play", "read"))
        listed = client.get("/api/tokens").json()["tokens"]
        assert [entry["name"] for entry in listed] == ["engine"]
        assert token not in json.dumps(listed) and "token" not in listed[0]
        # The token opens the API, never a page's session.
        cookies = dict(client.cookies)
        client.cookies.clear()
        account = client.get("/api/account", headers=bearer(token))
        assert account.status_code == 200 and account.json()["name"] == "Ann"
        assert client.get("/api/me", headers=bearer(token)).json().get("player") is None
        assert client.get("/api/tokens", headers=bearer(token)).status_code == 401
        assert client.get("/api/tokens").status_code == 401
        # A session never opens the API.
        client.cookies.update(cookies)
        refused = api_error(client.get("/api/account"), 401, "err_token")
        assert refused["message"]
        assert client.get("/api/account").headers["www-authenticate"].startswith("Bearer")
        # Revoked: it opens nothing from then on; a second revocation finds none.
        token_id = listed[0]["id"]
        assert client.delete(f"/api/tokens/{token_id}", headers=csrf(ann)).status_code == 204
        assert client.delete(f"/api/tokens/{token_id}", headers=csrf(ann)).status_code == 404
        api_error(client.get("/api/account", headers=bearer(token)), 401, "err_token")
        assert client.get("/api/tokens").json()["tokens"] == []


def test_bad_tokens_and_scopes_are_refused_with_their_codes() -> None:
    with app_client() as client:
        ann = register(client, "Ann")
        read_only = make_token(client, ann, ("read",))
        play = make_token(client, ann)
        client.cookies.clear()
        for header in ("", "Bearer", "Bearer hmk_x", "Basic abc", "Bearer " + "x" * 300):
            response = client.get("/api/stream/event", headers={"Authorization": header})
            api_error(response, 401, "err_token")
        api_error(client.get("/api/stream/event", headers=bearer(read_only)), 403, "err_scope")
        api_error(
            client.post("/api/bot/account/upgrade", headers=bearer(read_only)), 403, "err_scope"
        )
        # Not yet a bot: the bot routes are refused, the upgrade is not.
        api_error(client.post("/api/bot/game/x/resign", headers=bearer(play)), 403, "err_not_bot")
        upgraded = client.post("/api/bot/account/upgrade", headers=bearer(play))
        assert upgraded.status_code == 200 and upgraded.json() == {"bot": True}
        assert client.get("/api/account", headers=bearer(play)).json()["bot"] is True
        api_error(client.post("/api/bot/game/x/resign", headers=bearer(play)), 404, "err_no_game")
        body = client.post("/api/tokens", json={"name": "", "scopes": ["bot:play"]})
        assert body.status_code in (400, 401, 403)
        bad = client.post("/api/tokens", json={"name": "x", "scopes": ["admin"]}, headers=csrf(ann))
        assert bad.status_code in (400, 401)


def test_an_account_that_has_played_cannot_become_a_bot() -> None:
    with app_client() as client:
        bob = register(client, "Bob")
        token = make_token(client, bob)
        game = client.post("/api/games", json={"level": 1}, headers=csrf(bob)).json()
        claimed = client.post(
            f"/api/games/{game['id']}/claim",
            headers={**csrf(bob), "Authorization": f"Bearer {game['token']}"},
        )
        assert claimed.status_code == 200, claimed.text
        client.cookies.clear()
        refused = client.post("/api/bot/account/upgrade", headers=bearer(token))
        api_error(refused, 409, "err_has_games")
        assert client.get("/api/account", headers=bearer(token)).json()["bot"] is False


def test_the_account_page_upgrades_a_session_to_a_bot_once_and_never_after_a_game() -> None:
    with app_client() as client:
        cleo = register(client, "Cleo")
        token = make_token(client, cleo, ("read",))
        # Found once (and kept: http/bearer.py), then upgraded by the page: seen at once.
        assert client.get("/api/account", headers=bearer(token)).json()["bot"] is False
        assert client.post("/api/me/bot").status_code == 403  # no CSRF token: refused
        upgraded = client.post("/api/me/bot", headers=csrf(cleo))
        assert upgraded.status_code == 200 and upgraded.json() == {"bot": True}
        assert client.get("/api/account", headers=bearer(token)).json()["bot"] is True
        assert client.get("/api/me").json()["player"]["bot"] is True
        assert client.get("/api/players/Cleo").json()["player"]["bot"] is True
        client.cookies.clear()
        assert client.post("/api/me/bot").status_code == 401
        dan = register(client, "Dan")
        game = client.post("/api/games", json={"level": 1}, headers=csrf(dan)).json()
        claimed = client.post(
            f"/api/games/{game['id']}/claim",
            headers={**csrf(dan), "Authorization": f"Bearer {game['token']}"},
        )
        assert claimed.status_code == 200, claimed.text
        refused = client.post("/api/me/bot", headers=csrf(dan))
        assert refused.status_code == 409 and refused.json()["code"] == "err_has_games"
        assert client.get("/api/me").json()["player"]["bot"] is False
        # Dan follows Cleo: the friends' list carries her BOT badge.
        assert client.post("/api/players/Cleo/follow", headers=csrf(dan)).status_code == 200
        friends = client.get("/api/me/friends").json()["following"]
        assert friends == [{"name": "Cleo", "online": False, "bot": True}]


# -- a whole game between two bots, on a real server -------------------------------------------


class Stream:
    """An NDJSON stream read in a thread: its lines (keep-alives aside) in a queue."""

    def __init__(self, url: str, token: str) -> None:
        self.lines: queue.Queue[JSONDict] = queue.Queue()
        self.raw: list[str] = []
        self.status = 0
        self.content_type = ""
        self.client = httpx.Client(timeout=httpx.Timeout(30, read=60))
        self.thread = threading.Thread(target=self._read, args=(url, token), daemon=True)
        self.thread.start()

    def _read(self, url: str, token: str) -> None:
        try:
            with self.client.stream("GET", url, headers=bearer(token)) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                for text in response.iter_lines():
                    self.raw.append(text)
                    if text.strip():
                        self.lines.put(json.loads(text))
        except httpx.HTTPError:
            pass
        self.lines.put({"type": "_closed"})

    def next(self, kind: str | None = None, timeout: float = 30) -> JSONDict:
        while True:
            found = self.lines.get(timeout=timeout)
            if kind is None or found["type"] in (kind, "_closed"):
                return found

    def close(self) -> None:
        self.client.close()


@contextmanager
def streaming(url: str, token: str) -> Iterator[Stream]:
    stream = Stream(url, token)
    try:
        yield stream
    finally:
        stream.close()


def bot(http: httpx.Client, name: str) -> str:
    """A new bot account and its token."""
    http.cookies.clear()
    made = http.post("/api/me/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    token = make_token(http, made.json())
    http.cookies.clear()
    assert http.post("/api/bot/account/upgrade", headers=bearer(token)).status_code == 200
    return token


def seat_audit(state: JSONDict, seat: int, stored: Any, decisions: list[str]) -> None:
    """Fail if a seat's state shows more than the seat may know: its card fields must be
    exactly the core's view of the seat (its own hand, the public table, the reveal only
    once over), and no field of another seat's cards exists."""
    truth = Game(stored.variant, seed=stored.seed, first_player=stored.first_player)
    for text_ in decisions[: state["ply"]]:
        truth.push_text(text_)
    assert state["seat"] == seat
    public = PublicGame(stored.id, ("human", "human"), (None, None), state["ply"])
    expected = to_plain(seat_state(truth.view(seat), public))
    for key in SEAT_FIELDS:
        assert state[key] == expected[key], key
    keys = {key for key in state if key != "rounds"}
    assert not FORBIDDEN_KEYS & keys
    if not truth.is_over():
        assert state["reveal"] is None
        other = list(truth.hand(1 - seat))
        assert state["hand_sizes"][1 - seat] == len(other)


def test_two_bots_play_a_whole_game_through_the_api(tmp_path: Path) -> None:
    rng = random.Random(50)
    with Server(tmp_path / "games.sqlite", free_port()) as server:
        http = httpx.Client(base_url=server.url, timeout=30)
        ann, bob = bot(http, "AnnBot"), bot(http, "BobBot")
        with (
            streaming(f"{server.url}/api/stream/event", ann) as ann_events,
            streaming(f"{server.url}/api/stream/event", bob) as bob_events,
        ):
            made = http.post(
                "/api/challenge/BobBot",
                json={"variant": "classic", "clock": None, "rated": True, "first": "challenger"},
                headers=bearer(ann),
            )
            assert made.status_code == 200, made.text
            challenge = made.json()["challenge"]
            assert challenge["dest"]["name"] == "BobBot" and challenge["dest"]["bot"]
            seen = bob_events.next("challenge")["challenge"]
            assert seen["id"] == challenge["id"] and seen["challenger"]["bot"]
            assert ann_events.status == 200 and ann_events.content_type.startswith(
                "application/x-ndjson"
            )
            accepted = http.post(f"/api/challenge/{challenge['id']}/accept", headers=bearer(bob))
            assert accepted.status_code == 200, accepted.text
            start_a = ann_events.next("gameStart")["game"]
            start_b = bob_events.next("gameStart")["game"]
            assert start_a["id"] == start_b["id"] and start_a["seat"] == 0
            assert start_b["opponent"]["name"] == "AnnBot" and start_b["opponent"]["bot"]
            game_id = start_a["id"]
            played = play_game(server, http, game_id, {0: ann, 1: bob}, rng)
            finish = ann_events.next("gameFinish")["game"]
            assert finish["id"] == game_id
        assert played >= 12  # a round at least


def play_game(
    server: Server, http: httpx.Client, game_id: str, tokens: dict[int, str], rng: random.Random
) -> int:
    """Both seats play random legal decisions through the API until the end; every line
    of both game streams audited. The number of decisions."""
    stored = GameStore(Store(server.db_url)).load(game_id)
    assert stored is not None
    decisions: list[str] = []
    with (
        streaming(f"{server.url}/api/bot/game/stream/{game_id}", tokens[0]) as first,
        streaming(f"{server.url}/api/bot/game/stream/{game_id}", tokens[1]) as second,
    ):
        streams = {0: first, 1: second}
        states: dict[int, JSONDict] = {}
        for seat, stream in streams.items():
            full = stream.next()
            assert full["type"] == "gameFull" and full["seat"] == seat, full
            assert full["people"][1 - seat]["bot"]
            states[seat] = full["state"]
        while True:
            to_move = states[0]["to_move"]
            if states[0]["outcome"] is not None:
                break
            state = states[to_move]
            if state["ply"] < len(decisions):
                states[to_move] = streams[to_move].next("gameState")["state"]
                continue
            choice = rng.choice(legal_texts(state))
            if rng.random() < 0.5:
                answer = http.post(
                    f"/api/bot/game/{game_id}/move",
                    json={"decision": choice},
                    headers=bearer(tokens[to_move]),
                )
            else:
                encoded = httpx.URL(f"/api/bot/game/{game_id}/move/").join(
                    choice.replace(":", "%3A").replace("/", "%2F").replace(">", "%3E")
                )
                answer = http.post(encoded, headers=bearer(tokens[to_move]))
            assert answer.status_code == 200, (choice, answer.text)
            decisions.append(choice)
            for seat in (0, 1):
                while states[seat]["ply"] < len(decisions):
                    line = streams[seat].next()
                    assert line["type"] in ("gameState", "opponentGone", "chatLine"), line
                    if line["type"] == "gameState":
                        states[seat] = line["state"]
                        seat_audit(states[seat], seat, stored, decisions)
            if states[0]["outcome"] is not None:
                break
        for seat in (0, 1):
            assert streams[seat].next()["type"] == "_closed"  # ends after the outcome
            for text in streams[seat].raw:
                assert text == "" or json.loads(text)["type"] != "_closed"
    assert states[0]["outcome"] == states[1]["outcome"]
    return len(decisions)


def test_a_bot_never_enters_the_peoples_pairing() -> None:
    with app_client() as client:
        bob = register(client, "BobBot")
        token = make_token(client, bob)
        assert client.post("/api/bot/account/upgrade", headers=bearer(token)).status_code == 200
        with client.websocket_connect("/lobby/ws") as ws:
            for message in (
                {"type": "seek", "variant": "classic"},
                {"type": "quick", "variant": "classic"},
            ):
                ws.send_text(json.dumps(message))
                while True:
                    said = json.loads(ws.receive_text())
                    if said["type"] == "error":
                        break
                assert said["code"] == "err_bot_pairing", said
