"""The web server through Starlette's test client: creating games, seats and tokens,
validation of every message, decisions, bots, restarts, records, and the hidden-card
audit of every message sent to a seat during whole games."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import (
    HIDDEN_TEXT,
    JSON_TYPE,
    JSONDict,
    Tap,
    all_keys,
    bearer,
    create,
    hello,
    legal_texts,
    make_client,
    play_to_the_end,
    receive_error,
    receive_state,
    settings,
    stored_decisions,
    take_seat,
)

from hanamikoji.bots.levels import LEVELS
from hanamikoji.core import Game, Move, MoveKind
from hanamikoji.core.cards import FULL_SET, counts, from_counts, pack
from hanamikoji.interfaces.web.catalog.lookup import client_catalog, text
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore, new_game_row
from hanamikoji.interfaces.web.games import thinkers as web_bots
from hanamikoji.interfaces.web.games.live import rebuild
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.notation.names import LANGUAGES
from hanamikoji.notation.records import GameRecord

STATIC = Path(__file__).resolve().parent.parent / "src/hanamikoji/interfaces/web/static"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with make_client() as test_client:
        yield test_client


# -- creating games -----------------------------------------------------------------------


def test_the_page_and_its_modules_are_served_with_strict_headers(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<script type="module" src="/static/js/main.js">' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert client.get("/g/anything").status_code == 200
    module = client.get("/static/js/table.js")
    assert module.status_code == 200
    assert "javascript" in module.headers["content-type"]


def test_a_game_against_a_bot_gives_one_token_and_a_friend_game_two(client: TestClient) -> None:
    bot = create(client, opponent="bot", level=1, variant="french", first="me")
    assert bot["friend_token"] is None and bot["seat"] == 0
    friend = create(client, opponent="friend", variant="classic", first="opponent")
    assert friend["friend_token"] and friend["friend_token"] != friend["token"]
    assert len(friend["token"]) >= 43  # 256 bits, URL-safe
    state = client.get(f"/api/games/{friend['id']}", headers=bearer(friend["friend_token"]))
    assert state.json()["seat"] == 1
    assert state.json()["to_move"] == 1  # "my opponent starts"
    mine = client.get(f"/api/games/{bot['id']}", headers=bearer(bot["token"])).json()
    assert mine["variant"] == "french" and mine["players"] == ["human", "bot"]
    assert mine["levels"] == [None, 1]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"opponent": "robot"}, "opponent"),
        ({"opponent": "bot", "level": 9}, "level"),
        ({"opponent": "bot", "level": True}, "level"),
        ({"variant": "chess"}, "variant"),
        ({"variant": "classic/cap=2"}, "variant"),
        ({"first": "both"}, "first"),
    ],
)
def test_invalid_game_options_are_refused_in_the_players_language(
    client: TestClient, body: JSONDict, field: str
) -> None:
    response = client.post("/api/games", json=body, headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert response.status_code == 400
    assert response.json()["code"] == "err_bad_field"
    assert response.json()["message"] == text("err_bad_field", "es", field=field)


def test_a_body_that_is_not_a_json_object_is_refused(client: TestClient) -> None:
    def post(body: bytes) -> Any:
        return client.post("/api/games", content=body, headers=JSON_TYPE)

    assert post(b"[1, 2]").json()["code"] == "err_not_object"
    assert post(b"{nope").json()["code"] == "err_not_json"
    assert post(b"x" * 5000).json()["code"] == "err_too_long"
    assert post(b"x" * 5000).status_code == 413


def test_a_cross_site_page_cannot_create_games_or_rematches(client: TestClient) -> None:
    refused = client.post("/api/games", json={}, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403 and refused.json()["code"] == "err_origin"
    same = client.post("/api/games", json={}, headers={"Origin": "http://testserver"})
    assert same.status_code == 201
    game = same.json()
    rematch = client.post(
        f"/api/games/{game['id']}/rematch",
        headers={**bearer(game["token"]), "Origin": "http://evil.example"},
    )
    assert rematch.status_code == 403 and rematch.json()["code"] == "err_origin"


# -- seats and tokens ---------------------------------------------------------------------


def test_a_wrong_or_missing_token_opens_nothing(client: TestClient) -> None:
    game = create(client, opponent="friend")
    for headers in ({}, bearer("x" * 43), {"Authorization": "Basic abc"}, bearer("y" * 500)):
        response = client.get(f"/api/games/{game['id']}", headers=headers)
        assert response.status_code == 404
        assert response.json()["code"] == "err_bad_token"
    # A real token of another game opens nothing here either.
    other = create(client, opponent="friend")
    assert client.get(f"/api/games/{game['id']}", headers=bearer(other["token"])).status_code == 404
    assert client.get("/api/games/nosuchgame", headers=bearer(game["token"])).status_code == 404


def test_the_socket_needs_a_seat_token_first(client: TestClient) -> None:
    game = create(client, opponent="friend")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "move", "move": "S:A"}))
        assert json.loads(ws.receive_text())["code"] == "err_hello_first"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4401
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "not-a-token", "lang": "fr"}))
        error = json.loads(ws.receive_text())
        assert error["message"] == text("err_bad_token", "fr")
        with pytest.raises(WebSocketDisconnect):
            ws.receive_text()


def test_sockets_from_another_site_are_refused(client: TestClient) -> None:
    game = create(client, opponent="friend")
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(
            f"/ws/{game['id']}", headers={"Origin": "http://evil.example"}
        ) as ws,
    ):
        ws.receive_text()
    assert refused.value.code == 4403
    with client.websocket_connect(
        f"/ws/{game['id']}", headers={"Origin": "http://testserver"}
    ) as ws:
        assert hello(ws, game["token"])["seat"] == 0


def test_nobody_can_act_for_the_other_seat(client: TestClient) -> None:
    game = create(client, opponent="friend", first="opponent")
    with take_seat(client, game) as (ws, state):
        assert state["to_move"] == 1
        # Player 1's token, Player 2's turn: any decision, even Player 2's legal one, fails.
        friend_view = client.get(
            f"/api/games/{game['id']}", headers=bearer(game["friend_token"])
        ).json()
        for move in legal_texts(friend_view)[:5]:
            ws.send_text(json.dumps({"type": "move", "move": move, "ply": 0}))
            assert receive_error(ws)["code"] == "err_not_your_turn"
    assert stored_decisions(client, game["id"]) == ()


# -- validation of messages and decisions ---------------------------------------------------


def test_malformed_messages_get_a_clear_error_and_change_nothing(client: TestClient) -> None:
    game = create(client, opponent="friend", first="me")
    with take_seat(client, game, lang="es") as (ws, state):
        hand = list(state["hand"])
        move_field: dict[str, object] = {"field": "move"}
        ply_field: dict[str, object] = {"field": "ply"}
        cases: list[tuple[str, str, dict[str, object]]] = [
            ("not json", "err_not_json", {}),
            ("[1, 2, 3]", "err_not_object", {}),
            ('{"type": "dance"}', "err_unknown_type", {}),
            ('{"move": "S:A"}', "err_unknown_type", {}),
            ('{"type": "move"}', "err_bad_field", move_field),
            ('{"type": "move", "move": 7}', "err_bad_field", move_field),
            ('{"type": "move", "move": "S:A", "ply": "zero"}', "err_bad_field", ply_field),
            ('{"type": "move", "move": "S:A", "ply": true}', "err_bad_field", ply_field),
            ('{"type": "move", "move": "S:A", "ply": -1}', "err_bad_field", ply_field),
            ('{"type": "move", "move": "' + "S" * 40 + '"}', "err_bad_field", move_field),
            ('{"type": "lang", "lang": "de"}', "err_bad_lang", {"langs": ", ".join(LANGUAGES)}),
            ('{"type": "move", "move": "' + "x" * 3000 + '"}', "err_too_long", {"limit": 2048}),
            ('{"type": "move", "move": "Q:AB"}', "err_not_a_move", {"text": "Q:AB"}),
            ('{"type": "move", "move": "S:AB"}', "err_not_a_move", {"text": "S:AB"}),
        ]
        for raw, code, fields in cases:
            ws.send_text(raw)
            error = receive_error(ws)
            assert error["code"] == code, raw
            assert error["message"] == text(code, "es", **fields)
        ws.send_bytes(b"\x00\x01")
        assert receive_error(ws)["code"] == "err_not_json"
        ws.send_text(json.dumps({"type": "move", "move": "G>A", "ply": 0}))
        assert receive_error(ws)["code"] == "err_no_offer"
    assert stored_decisions(client, game["id"]) == ()
    after = client.get(f"/api/games/{game['id']}", headers=bearer(game["token"])).json()
    assert after["ply"] == 0 and after["hand"] == hand


def test_illegal_decisions_say_why_in_the_players_language(client: TestClient) -> None:
    game = create(client, opponent="friend", first="me")
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws,
        client.websocket_connect(f"/ws/{game['id']}") as friend,
    ):
        state = hello(ws, game["token"], "fr")
        hello(friend, game["friend_token"], "en")
        hand = state["hand"]
        # Seven cards cannot hold two of each of the seven kinds (they may hold one of
        # each, about one deal in eighty): a Trade-off of two of such a kind is refused.
        short = next(card for card in range(7) if hand.count(card) < 2)
        letter = "ABCDEFG"[short]
        ws.send_text(json.dumps({"type": "move", "move": f"T:{letter}{letter}", "ply": 0}))
        error = receive_error(ws)
        assert error["code"] == "err_not_in_hand"
        assert error["message"].startswith("Pas dans votre main : ")
        # A Secret, then a second Secret in the same round is refused by name.
        ws.send_text(json.dumps({"type": "move", "move": f"S:{'ABCDEFG'[hand[0]]}", "ply": 0}))
        receive_state(ws, 1)
        friend_state = receive_state(friend, 1)
        friend.send_text(json.dumps({"type": "move", "move": legal_secret(friend_state)}))
        state = receive_state(ws, 2)
        ws.send_text(json.dumps({"type": "move", "move": f"S:{'ABCDEFG'[state['hand'][0]]}"}))
        assert receive_error(ws)["message"] == text("err_used", "fr", action="Secret")
        ws.send_text(json.dumps({"type": "move", "move": "G:" + "ABCDEFG"[state["hand"][0]]}))
        assert receive_error(ws)["code"] == "err_not_a_move"
        # Switching language switches the errors.
        ws.send_text(json.dumps({"type": "lang", "lang": "es"}))
        ws.send_text(json.dumps({"type": "move", "move": f"S:{'ABCDEFG'[state['hand'][0]]}"}))
        assert receive_error(ws)["message"] == text("err_used", "es", action="Secreto")
        ws.send_text(json.dumps({"type": "lang", "lang": "en-2018"}))
        trade = "T:" + "".join("ABCDEFG"[c] for c in state["hand"][:2])
        ws.send_text(json.dumps({"type": "move", "move": trade, "ply": 1}))
        assert receive_error(ws)["code"] == "err_stale"
        assert receive_state(ws)["ply"] == 2  # the current table comes with it
    assert len(stored_decisions(client, game["id"])) == 2


def legal_secret(state: JSONDict) -> str:
    return next(text_ for text_ in legal_texts(state) if text_.startswith("S:"))


def test_answering_an_offer_checks_what_was_offered(client: TestClient) -> None:
    game = create(client, opponent="friend", first="me")
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws,
        client.websocket_connect(f"/ws/{game['id']}") as friend,
    ):
        state = hello(ws, game["token"])
        hello(friend, game["friend_token"], "es")
        gift = next(text_ for text_ in legal_texts(state) if text_.startswith("G:"))
        ws.send_text(json.dumps({"type": "move", "move": gift, "ply": 0}))
        offered = receive_state(friend, 1)
        assert offered["pending"]["text"] == gift and offered["pending"]["by"] == 0
        not_offered = next(c for c in "ABCDEFG" if c not in gift[2:])
        friend.send_text(json.dumps({"type": "move", "move": f"G>{not_offered}"}))
        assert receive_error(friend)["message"] == text("err_not_offered", "es", action="Regalo")
        own_card = "ABCDEFG"[offered["hand"][0]]
        friend.send_text(json.dumps({"type": "move", "move": f"S:{own_card}"}))
        assert receive_error(friend)["code"] == "err_answer_first"
        friend.send_text(json.dumps({"type": "move", "move": f"g>{gift[2].lower()}"}))
        answered = receive_state(friend, 2)
        assert answered["log"][-1]["text"] == f"G>{gift[2]}"
    assert stored_decisions(client, game["id"]) == (gift, f"G>{gift[2]}")


def test_ping_gets_a_pong(client: TestClient) -> None:
    game = create(client, opponent="friend")
    with take_seat(client, game) as (ws, _):
        ws.send_text('{"type": "ping"}')
        answer = json.loads(ws.receive_text())
        if answer["type"] == "chat":  # a game between people: its chat room first
            answer = json.loads(ws.receive_text())
        assert answer == {"type": "pong"}


# -- bots, records, rematches ---------------------------------------------------------------


def test_the_bot_carries_what_it_inferred_from_one_decision_to_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    received: list[object] = []
    decide = web_bots.choose_move

    def remembering(level: int, seed: int, view: Any, memory: object = None) -> tuple[str, int]:
        received.append(memory)
        decision, _ = decide(level, seed, view, None)
        return decision, len(received)

    monkeypatch.setattr(web_bots, "choose_move", remembering)
    with make_client() as client:
        game = create(client, opponent="bot", level=2, variant="classic", first="opponent")
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            final = play_to_the_end(ws, hello(ws, game["token"]), random.Random(3))
    assert final["outcome"] is not None
    # Each decision was given what the one before it inferred (the first: nothing);
    # a round has 6 of the bot's.
    assert len(received) >= 6
    assert received == [None, *range(1, len(received))]


def test_a_whole_game_against_a_bot_then_its_record_and_replay(client: TestClient) -> None:
    game = create(client, opponent="bot", level=2, variant="three-rounds", first="opponent")
    with take_seat(client, game) as (ws, state):
        record_url = f"/api/games/{game['id']}/record"
        assert client.get(record_url, headers=bearer(game["token"])).status_code == 409
        assert client.get(f"/api/games/{game['id']}/replay", headers=bearer(game["token"])).json()[
            "code"
        ] == ("err_not_over")
        final = play_to_the_end(ws, state, random.Random(5))
    assert final["reveal"] is not None and final["outcome"]["result"] in ("1-0", "0-1", "1/2-1/2")
    text_record = client.get(record_url, headers=bearer(game["token"]))
    assert text_record.status_code == 200
    assert "attachment" in text_record.headers["content-disposition"]
    record = GameRecord.from_text(text_record.text)
    assert record.players == ("Player 1", "Bot level 2")
    replayed = record.replay()
    assert [m.text() for m in replayed.move_stack] == list(stored_decisions(client, game["id"]))
    as_json = client.get(record_url + "?format=json", headers=bearer(game["token"]))
    assert GameRecord.from_json(as_json.text) == record
    frames = client.get(f"/api/games/{game['id']}/replay", headers=bearer(game["token"])).json()
    assert len(frames["frames"]) == len(replayed.move_stack) + 1
    first = frames["frames"][0]
    assert first["removed"] == replayed.deals()[0].removed
    assert sorted(first["hands"][0] + first["hands"][1] + first["deck"] + [first["removed"]]) == [
        card for card, copies in enumerate(counts(FULL_SET)) for _ in range(copies)
    ]
    assert frames["frames"][-1]["outcome"] == final["outcome"]


def test_a_rematch_is_one_game_for_both_seats_with_the_same_tokens(client: TestClient) -> None:
    game = create(client, opponent="friend", first="me")
    assert (
        client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game["token"])).status_code
        == 409
    )
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
    ):
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        sockets = [ws0, ws1]
        rng = random.Random(11)
        ply = 0
        while states[0]["outcome"] is None:
            seat = states[0]["to_move"]
            move = rng.choice(legal_texts(states[seat]))
            sockets[seat].send_text(json.dumps({"type": "move", "move": move, "ply": ply}))
            ply += 1
            states = [receive_state(ws0, ply), receive_state(ws1, ply)]
        first = client.post(f"/api/games/{game['id']}/rematch", headers=bearer(game["token"]))
        second = client.post(
            f"/api/games/{game['id']}/rematch", headers=bearer(game["friend_token"])
        )
        assert first.json()["id"] == second.json()["id"] != game["id"]
        assert receive_state(ws1)["rematch"] == first.json()["id"]
    new_id = first.json()["id"]
    mine = client.get(f"/api/games/{new_id}", headers=bearer(game["token"])).json()
    theirs = client.get(f"/api/games/{new_id}", headers=bearer(game["friend_token"])).json()
    assert (mine["seat"], theirs["seat"]) == (0, 1)
    assert mine["to_move"] == 1  # the other player starts the rematch


def test_the_bot_plays_by_itself_and_resumes_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with make_client(url) as client:
        game = create(client, opponent="bot", level=1, first="opponent")
        with take_seat(client, game) as (ws, state):
            if state["ply"] == 0:
                state = receive_state(ws, 1)
            assert state["log"][0]["seat"] == 1
            played = len(stored_decisions(client, game["id"]))
    # The first server is gone; the next one rebuilds the game from the database.
    with make_client(url) as client, client.websocket_connect(f"/ws/{game['id']}") as ws:
        state = hello(ws, game["token"])
        assert state["ply"] == played
        final = play_to_the_end(ws, state, random.Random(3))
        assert final["outcome"] is not None


def test_after_a_restart_every_game_goes_on_exactly_where_it_was(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    rng = random.Random(8)
    before: dict[str, JSONDict] = {}
    with make_client(url) as client:
        games = [create(client, opponent="friend", first="me") for _ in range(3)]
        for number, game in enumerate(games):
            with take_seat(client, game) as (ws0, state):
                with take_seat(client, game, game["friend_token"]) as (ws1, other):
                    for _ in range(3 + 4 * number):
                        seat_ws, seat_state_ = (
                            (ws0, state) if state["to_move"] == 0 else (ws1, other)
                        )
                        move = rng.choice(legal_texts(seat_state_))
                        seat_ws.send_text(
                            json.dumps({"type": "move", "move": move, "ply": state["ply"]})
                        )
                        state = receive_state(ws0, state["ply"] + 1)
                        other = receive_state(ws1, state["ply"])
                before[game["id"]] = state
    with make_client(url) as client:
        for game in games:
            after = client.get(f"/api/games/{game['id']}", headers=bearer(game["token"])).json()
            for key in ("ply", "hand", "secret", "tradeoff", "placed", "used", "log", "favor"):
                assert after[key] == before[game["id"]][key], key


def test_two_servers_on_one_database_cannot_both_append_a_ply(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with make_client(url) as first, make_client(url) as second:
        game = create(first, opponent="friend", first="me")
        with (
            first.websocket_connect(f"/ws/{game['id']}") as ws_first,
            second.websocket_connect(f"/ws/{game['id']}") as ws_second,
        ):
            state = hello(ws_first, game["token"])
            hello(ws_second, game["token"])  # both servers now hold the game at ply 0
            moves = legal_texts(state)
            ws_first.send_text(json.dumps({"type": "move", "move": moves[0]}))
            receive_state(ws_first, 1)
            ws_second.send_text(json.dumps({"type": "move", "move": moves[1]}))
            # The second server throws its copy away, shows the stored game and says why.
            seen: dict[str, JSONDict] = {}
            while len(seen) < 2:
                message = json.loads(ws_second.receive_text())
                if message["type"] == "chat":  # a game between people's chat room
                    continue
                if message["type"] == "error" or message["ply"] == 1:
                    seen[message["type"]] = message
            assert seen["error"]["code"] == "err_conflict"
            assert seen["state"]["log"][0]["text"] == moves[0]
    assert GameStore(Store(url)).load(game["id"]).decisions == (moves[0],)  # type: ignore[union-attr]


# -- the hidden-card audit -------------------------------------------------------------------

_CARD_FIELDS = (
    "hand",
    "drawn",
    "secret",
    "tradeoff",
    "placed",
    "pending",
    "log",
    "unseen",
    "rounds",
    "reveal",
    "hand_sizes",
    "deck",
    "used",
    "favor",
)


def test_no_message_to_a_seat_ever_holds_a_hidden_card() -> None:
    """Whole games, both seats on sockets, with garbage and wrong-seat messages thrown in:
    every message the hub sent to a seat, and every message the seat's socket received,
    shows nothing that seat may not know."""
    tap = Tap()
    rng = random.Random(2024)
    with make_client(tap=tap) as client:
        finished = []
        for number in range(6):
            variant = ("classic", "three-rounds", "french")[number % 3]
            game = create(client, opponent="friend", variant=variant, first="random")
            received = _play_audited_game(client, game, rng)
            finished.append((game, received))
        bot_game = create(client, opponent="bot", level=2, variant="french")
        with client.websocket_connect(f"/ws/{bot_game['id']}") as ws:
            play_to_the_end(ws, hello(ws, bot_game["token"]), rng)
        for game, received in finished:
            decisions = stored_decisions(client, game["id"])
            secret_settings = settings(client, game["id"])
            for seat in (0, 1):
                sent = tap.sent[(game["id"], seat)]
                assert sent, "the tap saw the game"
                assert set(received[seat]) <= set(sent)
                for message in sent:
                    if json.loads(message).get("reveal") is None:
                        assert str(secret_settings["seed"]) not in message
                    audit(json.loads(message), secret_settings, seat, decisions)
        decisions = stored_decisions(client, bot_game["id"])
        for message in tap.sent[(bot_game["id"], 0)]:
            audit(json.loads(message), settings(client, bot_game["id"]), 0, decisions)
        assert not tap.sent[(bot_game["id"], 1)]  # nothing is ever sent to a bot's seat


def _play_audited_game(
    client: TestClient, game: JSONDict, rng: random.Random
) -> dict[int, list[str]]:
    received: dict[int, list[str]] = {0: [], 1: []}
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
    ):
        sockets = [ws0, ws1]

        def next_state(seat: int, ply: int) -> JSONDict:
            while True:
                raw = sockets[seat].receive_text()
                received[seat].append(raw)
                message: JSONDict = json.loads(raw)
                if message["type"] == "state" and message["ply"] >= ply:
                    return message

        sockets[0].send_text(json.dumps({"type": "hello", "token": game["token"]}))
        sockets[1].send_text(json.dumps({"type": "hello", "token": game["friend_token"]}))
        states = [next_state(0, 0), next_state(1, 0)]
        ply = 0
        while states[0]["outcome"] is None:
            seat = states[0]["to_move"]
            if rng.random() < 0.15:
                # Someone tries the other seat's move, a stale ply, or garbage.
                other = 1 - seat
                attempt = rng.choice(
                    [
                        {"type": "move", "move": rng.choice(legal_texts(states[seat]))},
                        {"type": "move", "move": "S:A", "ply": ply + 3},
                        {"type": "move", "move": "C:AB/CD"},
                        {"type": "hello", "token": game["token"]},
                    ]
                )
                sockets[other].send_text(json.dumps(attempt))
            move = rng.choice(legal_texts(states[seat]))
            sockets[seat].send_text(json.dumps({"type": "move", "move": move, "ply": ply}))
            ply += 1
            states = [next_state(0, ply), next_state(1, ply)]
        sockets[0].send_text('{"type": "ping"}')
        while True:
            raw = sockets[0].receive_text()
            received[0].append(raw)
            if json.loads(raw)["type"] == "pong":
                break
    return received


def audit(message: JSONDict, game: JSONDict, seat: int, decisions: tuple[str, ...]) -> None:
    """Fail if ``message`` to ``seat`` shows a card that seat may not know. ``game`` holds
    the server's settings of the game (:func:`settings`)."""
    if message["type"] != "state":
        # Errors and pongs carry no cards at all.
        assert not HIDDEN_TEXT.search(json.dumps(message)), message
        return
    truth = Game(game["variant"], seed=game["seed"], first_player=game["first_player"])
    for text_ in decisions[: message["ply"]]:
        truth.push_text(text_)
    opponent = 1 - seat
    over = truth.is_over()
    # 1. Exactly what the seat's own view holds, field by field.
    public = PublicGame(game["id"], ("human", "human"), (None, None), message["ply"])
    expected = to_plain(seat_state(truth.view(seat), public))
    for key in _CARD_FIELDS:
        assert message[key] == expected[key], key
    if over:
        return
    # 2. Independently of the serializer: own cards are the true own cards, the opponent's
    #    hidden actions carry no cards, nothing lists the opponent's hand, the deck or the
    #    removed card, and the tracker is the complement of what the seat has seen.
    assert message["hand"] == list(truth.hand(seat))
    assert message["reveal"] is None
    forbidden = {"hands", "removed", "deck_cards", "opponent_hand", "secrets", "tradeoffs"}
    # Scored rounds are public (both Secrets are revealed at scoring).
    keys = all_keys({key: value for key, value in message.items() if key != "rounds"})
    assert not forbidden & keys, forbidden & keys
    for entry in message["log"]:
        if entry["seat"] == opponent and entry["kind"] in ("secret", "trade-off"):
            assert entry["hidden"] and entry["cards"] == [] and entry["text"] in ("S", "T")
    own_hidden = {
        match.group(0)
        for entry in truth.log(seat)
        if entry.seat == seat
        for match in [HIDDEN_TEXT.fullmatch(entry.move.text())]
        if match
    }
    for found in HIDDEN_TEXT.finditer(json.dumps(message)):
        assert found.group(0) in own_hidden, found.group(0)
    seen = pack(message["hand"]) + pack(message["tradeoff"])
    if message["secret"] is not None:
        seen += pack([message["secret"]])
    seen += from_counts(message["placed"][0]) + from_counts(message["placed"][1])
    if message["pending"] is not None:
        seen += Move.from_text(message["pending"]["text"]).packed
    assert message["unseen"] == list(counts(FULL_SET - seen))
    assert message["hand_sizes"][opponent] == len(truth.hand(opponent))


def test_the_audit_catches_a_leaked_card() -> None:
    """The audit above can fail: a message with one hidden card slipped in is caught."""
    settings_ = {"id": "g", "variant": "classic", "seed": 12, "first_player": 0}
    game = Game("classic", seed=12, first_player=0)
    rng = random.Random(4)
    while not (MoveKind.SECRET in game.view(0).used[1] and game.to_move == 0):
        game.push(rng.choice(game.legal_moves))
    decisions = tuple(move.text() for move in game.move_stack)
    public = PublicGame("g", ("human", "human"), (None, None), len(decisions))
    honest = to_plain(seat_state(game.view(0), public))
    audit(honest, settings_, 0, decisions)
    secret_entry = next(
        index
        for index, entry in enumerate(game.log())
        if entry.seat == 1 and entry.move.kind == MoveKind.SECRET
    )
    leaks: list[JSONDict] = []
    leaked_log = json.loads(json.dumps(honest))
    full = game.log()[secret_entry].move
    leaked_log["log"][secret_entry].update(text=full.text(), cards=list(full.cards), hidden=False)
    leaks.append(leaked_log)
    leaked_hand = json.loads(json.dumps(honest))
    leaked_hand["hand"] = list(game.hand(1))
    leaks.append(leaked_hand)
    leaked_removed = json.loads(json.dumps(honest))
    leaked_removed["pending"] = {"removed": game.removed()}
    leaks.append(leaked_removed)
    for leak in leaks:
        with pytest.raises(AssertionError):
            audit(leak, settings_, 0, decisions)


# -- the catalog ------------------------------------------------------------------------------


def test_every_sentence_the_page_asks_for_exists(client: TestClient) -> None:
    used: set[str] = set()
    for module in (STATIC / "js").glob("*.js"):
        used |= set(re.findall(r"\bt\(\s*\"(\w+)\"", module.read_text(encoding="utf-8")))
    used |= {f"level_{n}" for n in LEVELS} | {f"theme_{n}" for n in ("auto", "light", "dark")}
    used |= {f"outcome_{n}" for n in ("charm", "geishas", "most_geishas", "most_charm")}
    for lang in LANGUAGES:
        catalog = client.get(f"/api/i18n/{lang}").json()
        assert used <= set(catalog["ui"]), used - set(catalog["ui"])
        assert catalog == client_catalog(lang)
    assert client.get("/api/i18n/de").status_code == 404


def test_the_catalog_uses_each_editions_terms() -> None:
    assert client_catalog("en")["actions"][1] == "Trade-off"
    assert client_catalog("en-2018")["actions"][1] == "Discard"
    assert client_catalog("es")["actions"][1] == "Renuncia"
    assert client_catalog("fr")["actions"][3] == "Échange"
    assert client_catalog("fr")["terms"]["charm"] == "points Art"


def test_a_rebuilt_game_equals_the_played_one() -> None:
    game = Game("classic", seed=99, first_player=1)
    rng = random.Random(1)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves))
    store = GameStore(Store("sqlite://"))

    row = store.create_game(new_game_row("classic", 99, 1, ("h", None), None, None))
    for ply, move in enumerate(game.move_stack):
        store.append(row.id, ply, move.text())
    loaded = store.load(row.id)
    assert loaded is not None
    assert rebuild(loaded).move_stack == game.move_stack
    assert MoveKind.SECRET.is_action
