"""Chat at the table (issue 49, ``web/chat/``): the rules of a line, each writer's rate,
the rooms kept apart (players never see the spectators' lines, spectators never the
players'), presets for everyone and free text for accounts, every refusal with its code,
reports once per reporter, closed chats, blocked authors hidden, and the players' chat
in the replay for the two seats only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from serving import served
from starlette.testclient import TestClient
from web_support import (
    JSONDict,
    bearer,
    create,
    hello,
    make_client,
    receive,
    receive_error,
    sign_in,
)

from hanamikoji.interfaces.web.chat.model import (
    MAX_CHARS,
    PRESETS,
    RateWindow,
    clean_text,
)
from hanamikoji.interfaces.web.chat.store import ChatStore
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.wire.refused import Refused

HTML = '<img src=x onerror="alert(1)">'

# -- the model ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "gg\x00",
        "a\x1bb",
        "two\nlines",
        "tab\there",
        "c1\x85",
        "c1\x9b",
        "\u202egg",
        "\u2066isolate\u2069",
        "zero\u200bwidth",
        "\ufeffbom",
        "line\u2028sep",
        "private\ue000",
        "\U000e0041tag",
    ],
)
def test_control_and_invisible_characters_are_refused(text: str) -> None:
    with pytest.raises(Refused) as refused:
        clean_text(text)
    assert refused.value.key == "err_chat_chars"


@pytest.mark.parametrize(
    "text", ["good game", "¡Buena partida!", "良い対局でした", "👨\u200d👩\u200d👧", HTML]
)
def test_visible_text_is_kept_as_it_is(text: str) -> None:
    assert clean_text(f"  {text} ") == text


@pytest.mark.parametrize("text", ["", "   ", "\u3000\u00a0"])
def test_an_empty_line_is_refused(text: str) -> None:
    with pytest.raises(Refused) as refused:
        clean_text(text)
    assert refused.value.key == "err_chat_empty"


def test_a_line_is_at_most_max_chars() -> None:
    assert clean_text("x" * MAX_CHARS) == "x" * MAX_CHARS
    with pytest.raises(Refused) as refused:
        clean_text("x" * (MAX_CHARS + 1))
    assert refused.value.key == "err_chat_long" and refused.value.fields["limit"] == MAX_CHARS


def test_a_writer_has_five_lines_in_ten_seconds() -> None:
    window = RateWindow()
    for at in range(0, 5000, 1000):
        window.admit("ann", at)
    with pytest.raises(Refused) as refused:
        window.admit("ann", 5000)
    assert refused.value.key == "err_chat_rate" and refused.value.fields["seconds"] == 5
    window.admit("bob", 5000)  # one writer's rate is not another's
    window.admit("ann", 10_000)  # the first line left the window


def test_the_store_keeps_reports_and_closed_chats() -> None:
    from hanamikoji.interfaces.web.chat.model import Line

    db = ChatStore(Store("sqlite://"))
    line = db.add_line(Line(0, "g1", "player", 1, "p1", "Ann", None, "hi", 10, 3))
    assert db.line(line.id) == line and line.id >= 1
    assert db.report(line.id, "p2", 11) and db.report(line.id, "p3", 12)
    assert not db.report(line.id, "p2", 13)
    reports = db.open_reports()
    assert [(r.reporter_id, r.line.text) for r in reports] == [("p2", "hi"), ("p3", "hi")]
    assert db.dismiss(reports[0].id) and not db.dismiss(reports[0].id)
    assert [r.reporter_id for r in db.open_reports()] == ["p3"]
    assert not db.closed("p1") and db.close_chat("p1", 20) and not db.close_chat("p1", 21)
    assert db.closed("p1") and db.reopen_chat("p1") and not db.reopen_chat("p1")


# -- on the sockets ----------------------------------------------------------------------


def say(ws: Any, room: str = "player", **line: Any) -> None:
    ws.send_text(json.dumps({"type": "chat", "room": room, **line}))


def said(ws: Any) -> JSONDict:
    line: JSONDict = receive(ws, "chat_line")["line"]
    return line


def refused(ws: Any, code: str) -> JSONDict:
    error = receive_error(ws)
    assert error["code"] == code, error
    return error


class Table:
    """A friend game between two accounts, Ann (seat 0) and Bob (seat 1), on sockets."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.ann = sign_in(client, account="Ann")
        self.bob = sign_in(client, account="Bob")
        self.game = create(client, opponent="friend", first="me")


def open_seat(client: TestClient, game: JSONDict, token: str, cookie: dict[str, str]) -> Any:
    ws = client.websocket_connect(f"/ws/{game['id']}", headers=cookie)
    return ws


@pytest.fixture
def client() -> Any:
    with make_client() as test_client:
        yield test_client


def test_players_and_spectators_each_have_their_own_room(client: TestClient) -> None:
    table = Table(client)
    game = table.game
    carol = sign_in(client, nickname="Carol")
    with (
        open_seat(client, game, game["token"], table.ann) as ann,
        open_seat(client, game, game["friend_token"], table.bob) as bob,
        client.websocket_connect(f"/ws/{game['id']}/watch", headers=carol) as watcher,
    ):
        hello(ann, game["token"])
        hello(bob, game["friend_token"])
        rooms = [receive(ws, "chat") for ws in (ann, bob, watcher)]
        assert [room["room"] for room in rooms] == ["player", "player", "spectator"]
        assert rooms[0]["free_text"] and not rooms[2]["free_text"]
        assert rooms[0]["presets"] == list(PRESETS) and rooms[0]["lines"] == []
        say(ann, preset="chat_good_luck")
        say(bob, text=f"  {HTML}  ")
        for ws in (ann, bob):
            first, second = said(ws), said(ws)
            assert first["preset"] == "chat_good_luck" and first["author"] == "Ann"
            assert first["seat"] == 0 and first["text"] is None
            assert second["text"] == HTML and second["author"] == "Bob" and second["seat"] == 1
        say(watcher, "spectator", preset="chat_nice")
        line = said(watcher)
        assert line["room"] == "spectator" and line["author"] == "Carol" and line["seat"] is None
        # A ping after each: what came before it is all each page was sent.
        for ws in (ann, bob):
            ws.send_text('{"type": "ping"}')
            while (message := json.loads(ws.receive_text()))["type"] != "pong":
                assert message["type"] != "chat_line", message
        watcher.send_text('{"type": "ping"}')
        while (message := json.loads(watcher.receive_text()))["type"] != "pong":
            assert message["type"] != "chat_line", message
    # The history when a page (re)connects: its own room only.
    with client.websocket_connect(f"/ws/{game['id']}/watch") as again:
        history = receive(again, "chat")
        assert [line["preset"] for line in history["lines"]] == ["chat_nice"]
    with open_seat(client, game, game["token"], {}) as again:
        hello(again, game["token"])
        history = receive(again, "chat")
        assert [(ln["preset"], ln["text"]) for ln in history["lines"]] == [
            ("chat_good_luck", None),
            (None, HTML),
        ]
        assert not history["free_text"]  # no session: a seat opened by its link


def test_every_refusal_has_its_code(client: TestClient) -> None:
    table = Table(client)
    game = table.game
    guest = sign_in(client, nickname="Gus")
    with open_seat(client, game, game["token"], table.ann) as ann:
        hello(ann, game["token"])
        receive(ann, "chat")
        cases: list[tuple[dict[str, Any], str]] = [
            ({"text": "x" * (MAX_CHARS + 1)}, "err_chat_long"),
            ({"text": " \u3000 "}, "err_chat_empty"),
            ({}, "err_chat_empty"),
            ({"text": "hi\u202e"}, "err_chat_chars"),
            ({"text": "a\nb"}, "err_chat_chars"),
            ({"preset": "chat_nope"}, "err_chat_preset"),
            ({"preset": "chat_hello", "text": "hi"}, "err_bad_field"),
            ({"text": 5}, "err_bad_field"),
        ]
        for line, code in cases:
            say(ann, **line)
            refused(ann, code)
        say(ann, "spectator", preset="chat_hello")
        refused(ann, "err_chat_room")
        for _ in range(5):
            say(ann, preset="chat_oops")
            said(ann)
        say(ann, preset="chat_oops")
        error = refused(ann, "err_chat_rate")
        assert 1 <= error["seconds"] <= 10 and str(error["seconds"]) in error["message"]
        ann.send_text(json.dumps({"type": "chat_report", "line": 10**9}))
        refused(ann, "err_chat_no_line")
    with open_seat(client, game, game["friend_token"], guest) as gus:
        hello(gus, game["friend_token"])
        assert not receive(gus, "chat")["free_text"]
        say(gus, text="hello")
        refused(gus, "err_chat_account")
        say(gus, preset="chat_hello")
        assert said(gus)["author"] == "Gus"
    with client.websocket_connect(f"/ws/{game['id']}/watch") as nobody:
        say(nobody, "spectator", preset="chat_hello")
        refused(nobody, "err_signed_out")
        say(nobody, "player", preset="chat_hello")
        refused(nobody, "err_chat_room")
    bot_game = create(client, opponent="bot", level=1)
    with open_seat(client, bot_game, bot_game["token"], table.ann) as ann:
        hello(ann, bot_game["token"])
        say(ann, preset="chat_hello")
        refused(ann, "err_chat_none")
    stored = ChatStore(served(client).store).lines(game["id"], "player")
    assert [line.preset for line in stored] == ["chat_oops"] * 5 + ["chat_hello"]


def test_a_closed_chat_keeps_its_presets_and_a_report_is_taken_once(client: TestClient) -> None:
    table = Table(client)
    game = table.game
    chat = served(client).chat
    ann_id = client.get("/api/me", headers=table.ann).json()["player"]["id"]
    with (
        open_seat(client, game, game["token"], table.ann) as ann,
        open_seat(client, game, game["friend_token"], table.bob) as bob,
    ):
        hello(ann, game["token"])
        hello(bob, game["friend_token"])
        receive(ann, "chat")
        receive(bob, "chat")
        say(ann, text="you will lose")
        line = said(bob)
        chat.store.close_chat(ann_id, 0)
        say(ann, text="again")
        refused(ann, "err_chat_closed")
        say(ann, preset="chat_good_game")
        assert said(bob)["preset"] == "chat_good_game"
        bob.send_text(json.dumps({"type": "chat_report", "line": line["id"]}))
        assert receive(bob, "chat_reported")["line"] == line["id"]
        bob.send_text(json.dumps({"type": "chat_report", "line": line["id"]}))
        refused(bob, "err_chat_reported")
    other = create(client, opponent="friend")
    with open_seat(client, other, other["token"], table.bob) as bob_elsewhere:
        hello(bob_elsewhere, other["token"])
        receive(bob_elsewhere, "chat")
        bob_elsewhere.send_text(json.dumps({"type": "chat_report", "line": line["id"]}))
        refused(bob_elsewhere, "err_chat_no_line")  # a line of another game
    reports = chat.store.open_reports()
    assert [(r.line.text, r.line.author_name) for r in reports] == [("you will lose", "Ann")]


def test_a_reader_does_not_see_the_lines_of_players_it_hides(client: TestClient) -> None:
    table = Table(client)
    game = table.game
    chat = served(client).chat
    ann_id = client.get("/api/me", headers=table.ann).json()["player"]["id"]
    bob_id = client.get("/api/me", headers=table.bob).json()["player"]["id"]
    chat.hidden_authors = lambda reader: frozenset({ann_id}) if reader == bob_id else frozenset()
    with (
        open_seat(client, game, game["token"], table.ann) as ann,
        open_seat(client, game, game["friend_token"], table.bob) as bob,
    ):
        hello(ann, game["token"])
        hello(bob, game["friend_token"])
        receive(ann, "chat")
        receive(bob, "chat")
        say(ann, text="blocked words")
        assert said(ann)["text"] == "blocked words"
        say(bob, preset="chat_hello")
        assert said(ann)["preset"] == "chat_hello"
        assert said(bob)["preset"] == "chat_hello"  # Ann's line never came
    history = client.get(
        f"/api/games/{game['id']}/chat", headers={**table.bob, **bearer(game["friend_token"])}
    )
    assert [line["preset"] for line in history.json()["lines"]] == ["chat_hello"]


def test_the_players_chat_is_in_the_replay_for_the_two_seats_only(client: TestClient) -> None:
    table = Table(client)
    game = table.game
    with open_seat(client, game, game["token"], table.ann) as ann:
        hello(ann, game["token"])
        receive(ann, "chat")
        say(ann, preset="chat_good_game")
        said(ann)
    with client.websocket_connect(f"/ws/{game['id']}/watch", headers=table.bob) as watcher:
        say(watcher, "spectator", preset="chat_hello")
        said(watcher)
    for token in (game["token"], game["friend_token"]):
        answer = client.get(f"/api/games/{game['id']}/chat", headers=bearer(token))
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["room"] == "player"
        assert [line["preset"] for line in body["lines"]] == ["chat_good_game"]
    for headers in ({}, bearer("not a token"), table.bob):  # Bob holds no seat by session
        answer = client.get(f"/api/games/{game['id']}/chat", headers=headers)
        assert answer.status_code == 404 and answer.json()["code"] == "err_bad_token"
    record = client.get(f"/api/games/{game['id']}/record", headers=bearer(game["token"]))
    assert "good" not in record.text.lower()


# -- moderation ----------------------------------------------------------------------------


def moderate(url: str, *args: str) -> tuple[int, str, str]:
    import io

    from hanamikoji.interfaces.cli import Streams, run_command

    out, err = io.StringIO(), io.StringIO()
    status = run_command(["moderate", "--db", url, *args], Streams(io.StringIO(), out, err))
    return status, out.getvalue(), err.getvalue()


def test_the_moderation_command_lists_dismisses_and_closes(tmp_path: Any) -> None:
    from hanamikoji.interfaces.web.chat.model import Line
    from hanamikoji.interfaces.web.players.store import PlayerStore, new_player

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(url)
    try:
        players = PlayerStore(store)
        ann = players.create_player(new_player("account", "Ann"), "hash")
        bob = players.create_player(new_player("account", "Bob"), "hash")
        db = ChatStore(store)
        line = db.add_line(Line(0, "g1", "player", 0, ann.id, "Ann", None, "rude words", 1, 2))
        assert db.report(line.id, bob.id, 3)
    finally:
        store.close()
    status, out, _ = moderate(url, "reports")
    assert status == 0 and "rude words" in out and "by Ann reported by Bob" in out
    assert "1 open report(s)" in out
    report_id = out.split()[0].lstrip("#")
    assert moderate(url, "close-chat", "ann")[:2] == (0, "the chat of Ann closed\n")
    assert moderate(url, "close-chat", "Ann")[1] == "the chat of Ann was already closed\n"
    assert moderate(url, "dismiss", report_id)[0] == 0
    assert moderate(url, "dismiss", report_id)[0] == 1
    assert "0 open report(s)" in moderate(url, "reports")[1]
    assert moderate(url, "close-chat", "Nobody")[0] == 1
    store = Store(url)
    try:
        assert ChatStore(store).closed(ann.id)
    finally:
        store.close()
    assert moderate(url, "reopen-chat", "Ann")[1] == "the chat of Ann reopened\n"


def test_the_spectator_audit_sees_the_chat_and_no_player_line() -> None:
    from test_web_spectators import spectator_audit
    from web_support import Tap, settings, stored_decisions

    from hanamikoji.interfaces.web.games.live import SPECTATOR

    tap = Tap()
    with make_client(tap=tap) as client:
        table = Table(client)
        game = table.game
        carol = sign_in(client, nickname="Carol")
        with (
            open_seat(client, game, game["token"], table.ann) as ann,
            client.websocket_connect(f"/ws/{game['id']}/watch", headers=carol) as watcher,
        ):
            hello(ann, game["token"])
            receive(ann, "chat")
            receive(watcher, "chat")
            say(ann, text="secret plan for the players")
            said(ann)
            say(watcher, "spectator", text="a guest may not")
            refused(watcher, "err_chat_account")
            say(watcher, "spectator", preset="chat_have_fun")
            said(watcher)
        sent = tap.sent[(game["id"], SPECTATOR)]
        kinds = [json.loads(raw)["type"] for raw in sent]
        assert "chat" in kinds and "chat_line" in kinds
        assert not any("secret plan" in raw for raw in sent)
        secret_settings = settings(client, game["id"])
        decisions = stored_decisions(client, game["id"])
        for raw in sent:
            spectator_audit(json.loads(raw), secret_settings, decisions)
