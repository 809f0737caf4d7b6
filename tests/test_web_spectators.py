"""Spectators: whole games watched from ``/ws/{id}/watch`` with every message the hub sent
to the spectator audited for hidden cards (as the seat audit of test_web_server.py does),
the end reveal only once the game is over, no decision from a spectator, private games
unwatchable, and the list of games to watch."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from serving import served
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import (
    HIDDEN_TEXT,
    Tap,
    all_keys,
    create,
    hello,
    legal_texts,
    make_client,
    receive_state,
    settings,
    stored_decisions,
    take_seat,
)

from hanamikoji.core import Game, Move, MoveKind
from hanamikoji.core.cards import FULL_SET, counts, from_counts
from hanamikoji.interfaces.web.games.live import SPECTATOR
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state, spectator_state
from hanamikoji.interfaces.web.wire.outgoing import to_plain

JSONDict = dict[str, Any]


CHAT_LINE_FIELDS = {"id", "room", "seat", "author", "preset", "text", "at", "ply"}


def spectator_audit(message: JSONDict, game: JSONDict, decisions: tuple[str, ...]) -> None:
    """Fail if ``message`` to a spectator shows a card hidden from either seat's opponent
    (a hand, a drawn card, a Secret, a Trade-off, the removed card, the deck), or the
    reveal before the end. ``game`` holds the server's settings (web_support.settings)."""
    if message["type"] != "state":
        assert not HIDDEN_TEXT.search(json.dumps(message)), message
        # The chat (issue 49): the spectators' room only, and nothing but chat.
        if message["type"] == "chat":
            assert message["room"] == "spectator"
            assert all(line["room"] == "spectator" for line in message["lines"])
        if message["type"] == "chat_line":
            assert message["line"]["room"] == "spectator"
            assert set(message["line"]) == CHAT_LINE_FIELDS
        return
    truth = Game(game["variant"], seed=game["seed"], first_player=game["first_player"])
    for text_ in decisions[: message["ply"]]:
        truth.push_text(text_)
    assert message["seat"] is None
    if truth.is_over():
        # The end reveal, as each seat gets it.
        assert message["reveal"] is not None
        for seat in (0, 1):
            public = PublicGame(game["id"], ("human", "human"), (None, None), message["ply"])
            expected = to_plain(seat_state(truth.view(seat), public))
            for key in ("reveal", "log", "rounds", "outcome", "favor"):
                assert message[key] == expected[key], key
        return
    # 1. Nothing of either seat's own knowledge: compare with what each seat holds now.
    assert message["reveal"] is None
    assert str(game["seed"]) not in json.dumps(message)
    assert message["hand"] == [] and message["drawn"] is None
    assert message["secret"] is None and message["tradeoff"] == []
    for seat in (0, 1):
        view = truth.view(seat)
        if view.hand:
            assert message["hand"] != list(view.hand)
        assert message["hand_sizes"][seat] == len(truth.hand(seat))
    forbidden = {"hands", "removed", "deck_cards", "opponent_hand", "secrets", "tradeoffs"}
    keys = all_keys({key: value for key, value in message.items() if key != "rounds"})
    assert not forbidden & keys, forbidden & keys
    # 2. Not one Secret or Trade-off of either seat in the notation, anywhere.
    assert not HIDDEN_TEXT.search(json.dumps(message)), HIDDEN_TEXT.search(json.dumps(message))
    for entry in message["log"]:
        if entry["kind"] in ("secret", "trade-off"):
            assert entry["hidden"] and entry["cards"] == [] and entry["text"] in ("S", "T")
    # 3. The cards shown are exactly the public ones: the sides and the offer on the table;
    #    the tracker is every other card (hands, hidden actions, removed card, deck).
    view = truth.view(0)
    assert message["placed"] == [list(view.placed[0]), list(view.placed[1])]
    shown = from_counts(view.placed[0]) + from_counts(view.placed[1])
    if truth.pending is not None:
        assert message["pending"]["text"] == truth.pending.text()
        shown += truth.pending.packed
    else:
        assert message["pending"] is None
    assert message["unseen"] == list(counts(FULL_SET - shown))
    # 4. And the serializer's own projection agrees, field by field.
    public = PublicGame(game["id"], ("human", "human"), (None, None), message["ply"])
    expected = to_plain(spectator_state(view, public))
    for key in ("hand", "secret", "tradeoff", "placed", "pending", "log", "unseen", "used"):
        assert message[key] == expected[key], key


def watch_to_the_end(ws: Any) -> list[JSONDict]:
    """Every message the spectator's socket receives until the final state."""
    received = []
    while True:
        message: JSONDict = json.loads(ws.receive_text())
        received.append(message)
        if message["type"] == "state" and message["outcome"] is not None:
            return received


def play_friend_game(
    client: TestClient, game: JSONDict, spectator: Any, rng: random.Random
) -> None:
    """Both seats on sockets play random legal decisions to the end; the spectator tries to
    play now and then and is refused."""
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
    ):
        sockets = [ws0, ws1]
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        ply = 0
        while states[0]["outcome"] is None:
            seat = states[0]["to_move"]
            move = rng.choice(legal_texts(states[seat]))
            if rng.random() < 0.1:
                spectator.send_text(json.dumps({"type": "move", "move": move, "ply": ply}))
            if rng.random() < 0.1:  # the players chat: never shown to the spectator
                line = {"type": "chat", "room": "player", "preset": "chat_good_luck"}
                sockets[seat].send_text(json.dumps(line))
            sockets[seat].send_text(json.dumps({"type": "move", "move": move, "ply": ply}))
            ply += 1
            states = [receive_state(ws0, ply), receive_state(ws1, ply)]


def test_no_message_to_a_spectator_ever_holds_a_hidden_card() -> None:
    tap = Tap()
    rng = random.Random(26)
    with make_client(tap=tap) as client:
        games = []
        for number in range(4):
            variant = ("classic", "three-rounds", "french")[number % 3]
            game = create(client, opponent="friend", variant=variant, first="random")
            with client.websocket_connect(f"/ws/{game['id']}/watch") as spectator:
                first = json.loads(spectator.receive_text())
                assert first["type"] == "state" and first["seat"] is None
                play_friend_game(client, game, spectator, rng)
                received = [first, *watch_to_the_end(spectator)]
            games.append((game, received))
        bot_game = create(client, opponent="bot", level=2, variant="french")
        with client.websocket_connect(f"/ws/{bot_game['id']}/watch") as spectator:
            with take_seat(client, bot_game) as (ws, state):
                while state["outcome"] is None:
                    if state["to_move"] == 0:
                        move = rng.choice(legal_texts(state))
                        ws.send_text(
                            json.dumps({"type": "move", "move": move, "ply": state["ply"]})
                        )
                    state = receive_state(ws, state["ply"] + 1)
            games.append((bot_game, watch_to_the_end(spectator)))
        for game, received in games:
            decisions = stored_decisions(client, game["id"])
            secret_settings = settings(client, game["id"])
            sent = tap.sent[(game["id"], SPECTATOR)]
            assert len(sent) > 10, "the tap saw the spectator's messages"
            received_text = [
                json.dumps(message, separators=(",", ":"), ensure_ascii=False)
                for message in received
            ]
            assert set(received_text) <= set(sent)
            reveals = 0
            for raw in sent:
                message = json.loads(raw)
                spectator_audit(message, secret_settings, decisions)
                reveals += message.get("reveal") is not None
            assert reveals >= 1 and json.loads(sent[-1])["reveal"] is not None
            errors = [json.loads(raw) for raw in sent if json.loads(raw)["type"] == "error"]
            assert all(error["code"] == "err_spectator" for error in errors)


def test_a_spectator_cannot_play_or_act() -> None:
    with make_client() as client:
        game = create(client, opponent="friend", first="me")
        with (
            client.websocket_connect(f"/ws/{game['id']}/watch") as spectator,
            client.websocket_connect(f"/ws/{game['id']}") as seat,
        ):
            state = json.loads(spectator.receive_text())
            seated = hello(seat, game["token"])
            move = legal_texts(seated)[0]
            for attempt in (
                {"type": "move", "move": move, "ply": 0},
                {"type": "move", "move": move},
                {"type": "hello", "token": game["token"]},
            ):
                spectator.send_text(json.dumps(attempt))
                while (message := json.loads(spectator.receive_text()))["type"] != "error":
                    pass
                assert message["code"] == "err_spectator"
            spectator.send_text(json.dumps({"type": "lang", "lang": "fr"}))
            spectator.send_text(json.dumps({"type": "move", "move": move}))
            while (message := json.loads(spectator.receive_text()))["type"] != "error":
                pass
            assert message["message"].startswith("Vous regardez")
            spectator.send_text('{"type": "ping"}')
            while json.loads(spectator.receive_text())["type"] != "pong":
                pass
            assert state["hand"] == [] and state["seat"] is None
        assert stored_decisions(client, game["id"]) == ()
        # Nor can a spectator fetch a seat's state, record or replay without a token.
        assert client.get(f"/api/games/{game['id']}").status_code == 404


def test_a_private_game_cannot_be_watched_or_listed() -> None:
    with make_client() as client:
        private = create(client, opponent="friend", private=True)
        public = create(client, opponent="friend")
        with client.websocket_connect(f"/ws/{private['id']}/watch") as ws:
            message = json.loads(ws.receive_text())
            assert message["code"] == "err_no_game"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == 4404
        with client.websocket_connect("/ws/nosuchgame/watch") as ws:
            assert json.loads(ws.receive_text())["code"] == "err_no_game"
        listed = [game["id"] for game in client.get("/api/games?watch=1").json()["games"]]
        assert public["id"] in listed and private["id"] not in listed
        stored = served(client).games.get(private["id"])
        assert stored is not None and stored.private


class _NoSpectator:
    def send_text(self, text: str) -> None:
        pass


def test_the_rematch_of_a_private_game_is_private() -> None:
    with make_client() as client:
        game = create(client, opponent="friend", private=True)
        play_friend_game(client, game, _NoSpectator(), random.Random(7))
        response = client.post(
            f"/api/games/{game['id']}/rematch",
            headers={"Authorization": f"Bearer {game['token']}"},
        )
        rematch = response.json()["id"]
        with client.websocket_connect(f"/ws/{rematch}/watch") as ws:
            assert json.loads(ws.receive_text())["code"] == "err_no_game"


def test_the_watch_list_is_ongoing_games_between_people_newest_first() -> None:
    with make_client() as client:
        first = create(client, opponent="friend")
        bot = create(client, opponent="bot")
        second = create(client, opponent="friend", variant="french")
        listed = client.get("/api/games?watch=1").json()["games"]
        ids = [game["id"] for game in listed]
        assert ids[:2] == [second["id"], first["id"]] and bot["id"] not in ids
        assert listed[0]["variant"] == "french"
        assert client.get("/api/games").status_code == 400
        # A finished game leaves the list.
        rng = random.Random(3)
        with client.websocket_connect(f"/ws/{second['id']}/watch") as spectator:
            play_friend_game(client, second, spectator, rng)
        ids = [game["id"] for game in client.get("/api/games?watch=1").json()["games"]]
        assert second["id"] not in ids and first["id"] in ids


def test_the_spectator_audit_catches_a_leaked_card() -> None:
    """The audit above can fail: a seat's state, or a public state with one hidden card
    slipped in, is caught."""
    settings_ = {"id": "g", "variant": "classic", "seed": 12, "first_player": 0}
    game = Game("classic", seed=12, first_player=0)
    rng = random.Random(4)
    while not (MoveKind.SECRET in game.view(0).used[1] and game.to_move == 0):
        game.push(rng.choice(game.legal_moves))
    decisions = tuple(move.text() for move in game.move_stack)
    public = PublicGame("g", ("human", "human"), (None, None), len(decisions))
    honest = to_plain(spectator_state(game.view(1), public))
    spectator_audit(honest, settings_, decisions)
    leaks: list[JSONDict] = [
        {**to_plain(seat_state(game.view(seat), public)), "seat": None} for seat in (0, 1)
    ]
    secret_index = next(
        index
        for index, entry in enumerate(game.log())
        if entry.seat == 1 and entry.move.kind == MoveKind.SECRET
    )
    full: Move = game.log()[secret_index].move
    leaked_log = json.loads(json.dumps(honest))
    leaked_log["log"][secret_index].update(text=full.text(), cards=list(full.cards), hidden=False)
    leaks.append(leaked_log)
    leaked_unseen = json.loads(json.dumps(honest))
    leaked_unseen["unseen"] = list(counts(FULL_SET))
    leaks.append(leaked_unseen)
    for leak in leaks:
        with pytest.raises(AssertionError):
            spectator_audit(leak, settings_, decisions)
