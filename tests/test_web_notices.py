"""E-mail for correspondence games (issue 49), against a real SMTP server: aiosmtpd's
``Controller`` on loopback, started by the tests. An account adds an address and follows
its verification link, opts in, and gets one batched e-mail listing the correspondence
games waiting for it, with a working unsubscribe link; no e-mail for a game it has open,
none before the batch's minutes are over, none when the server has no SMTP settings, none
once unsubscribed; the refusals and their codes; and no card the player may not know in
an e-mail. Batches are sent by calling ``Notices.send_due`` (the server's background task
calls it every 30 s), so no test waits on a timer.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from serving import app_client, free_port, served
from starlette.testclient import TestClient
from web_support import (
    JSONDict,
    all_keys,
    csrf,
    legal_texts,
    receive_state,
    refusal,
    register,
    take_seat,
)

from hanamikoji.core.cards import ITEM_LETTERS
from hanamikoji.interfaces.clocks import wall_clock_ms
from hanamikoji.interfaces.web.cluster.instances import ClusterStore
from hanamikoji.notation.names import item_name

aiosmtpd = pytest.importorskip("aiosmtpd.controller")

PUBLIC = "http://testserver"
HIDDEN_TEXT = re.compile(r"\b[ST]:[A-G]{1,2}\b")


@dataclass
class Inbox:
    """What the test's SMTP server received."""

    messages: list[EmailMessage] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 Message accepted"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


class Clock:
    """The server's clock: the wall clock, moved on by the test."""

    def __init__(self) -> None:
        self.offset = 0

    def __call__(self) -> int:
        return wall_clock_ms() + self.offset

    def advance(self, minutes: float) -> None:
        self.offset += int(minutes * 60_000)


@contextmanager
def mailing(port: int, clock: Clock, **options: Any) -> Iterator[TestClient]:
    settings = {
        "smtp_host": "127.0.0.1",
        "smtp_port": port,
        "smtp_tls": "none",
        "public_url": PUBLIC,
        "mail_from": "hanamikoji@testserver",
        **options,
    }
    with app_client(clock=clock, **settings) as client:
        yield client


def body_of(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    content: str = part.get_content()
    return content


def link_in(message: EmailMessage, path: str) -> str:
    """The site-relative address of the link to ``path`` in ``message``."""
    found = re.search(re.escape(PUBLIC + path) + r"\S*", body_of(message))
    assert found is not None, body_of(message)
    parts = urlsplit(found.group(0))
    return f"{parts.path}?{parts.query}"


def send_due(client: TestClient) -> int:
    sent: int = client.portal.call(served(client).notices.send_due)  # type: ignore[union-attr]
    return sent


def verified_account(client: TestClient, inbox: Inbox, name: str) -> JSONDict:
    """A new account with a verified address, opted in; its register answer."""
    me = register(client, name)
    address = f"{name.lower()}@example.org"
    answer = client.post("/api/me/email", json={"address": address}, headers=csrf(me))
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "enabled": True,
        "address": address,
        "verified": False,
        "notify": False,
    }
    mail = inbox.messages[-1]
    assert mail["To"] == address and "Verify" in mail["Subject"]
    refusal(
        client.post("/api/me/email/notify", json={"on": True}, headers=csrf(me)),
        409,
        "err_email_unverified",
    )
    page = client.get(link_in(mail, "/email/verify"))
    assert page.status_code == 200 and "verified" in page.text
    answer = client.post("/api/me/email/notify", json={"on": True}, headers=csrf(me))
    assert answer.json()["verified"] and answer.json()["notify"]
    return me


def correspondence_game(client: TestClient, me: JSONDict) -> JSONDict:
    """A 1-day friend game of the signed-in account (seat 0), the friend to decide."""
    response = client.post(
        "/api/games",
        json={"opponent": "friend", "clock": "1d", "first": "opponent"},
        headers=csrf(me),
    )
    assert response.status_code == 201, response.text
    game: JSONDict = response.json()
    return game


def friend_decides(client: TestClient, game: JSONDict, prefer: str = "S:") -> JSONDict:
    """The friend's seat (anonymous, by its link) makes one decision: a Secret if it can
    (its card hidden from the account), and keeps deciding until the account's turn."""
    with take_seat(client, game, game["friend_token"]) as (ws, state):
        while state["to_move"] == state["seat"]:
            moves = legal_texts(state)
            move = next((m for m in moves if m.startswith(prefer)), moves[0])
            ws.send_text(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
            state = receive_state(ws, state["ply"] + 1)
    return state


def wait_for_presence(client: TestClient, game_id: str, seat: int, open_: bool) -> None:
    """Until the cluster's presence says the seat is (or is no longer) open."""
    cluster = ClusterStore(served(client).store)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = [r for r in cluster.presence(game_id) if r.seat == seat]
        if any(r.pages > 0 for r in rows) == open_:
            return
        time.sleep(0.02)
    raise AssertionError("the seat's presence did not change")


def test_a_verified_account_gets_one_batched_email_with_a_working_unsubscribe_link(
    smtp: tuple[Inbox, int],
) -> None:
    inbox, port = smtp
    clock = Clock()
    with mailing(port, clock) as client:
        me = verified_account(client, inbox, "Ann")
        first, second = correspondence_game(client, me), correspondence_game(client, me)
        assert send_due(client) == 0  # the friend is to decide in both
        friend_decides(client, first)
        friend_decides(client, second)
        before = len(inbox.messages)
        assert send_due(client) == 1
        assert len(inbox.messages) == before + 1
        mail = inbox.messages[-1]
        text = body_of(mail)
        assert mail["To"] == "ann@example.org"
        assert mail["Subject"] == "Hanamikoji: 2 games are waiting for you"
        for game in (first, second):
            assert f"{PUBLIC}/g/{game['id']}" in text
        assert text.count("classic against Player 2") == 2
        assert "Their last action: Secret" in text
        unsubscribe = link_in(mail, "/email/unsubscribe")
        assert mail["List-Unsubscribe"] == f"<{PUBLIC}{unsubscribe}>"
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        # Nothing new, and within the batch's minutes: no second e-mail.
        assert send_due(client) == 0
        clock.advance(16)
        assert send_due(client) == 0  # the same games, no new turn
        # The unsubscribe link works without a session, in one click.
        client.cookies.clear()
        page = client.get(unsubscribe)
        assert page.status_code == 200 and "no more e-mails" in page.text
        client.post("/api/me/login", json={"name": "Ann", "password": "correct horse battery"})
        assert client.get("/api/me/email").json()["notify"] is False
        third = correspondence_game(client, client.get("/api/me").json())
        friend_decides(client, third)
        clock.advance(16)
        assert send_due(client) == 0
        assert len(inbox.messages) == before + 1


def test_no_email_for_a_game_the_player_has_open(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    clock = Clock()
    with mailing(port, clock) as client:
        me = verified_account(client, inbox, "Bea")
        game = correspondence_game(client, me)
        # Her page is open at her seat (opened by her session, no token).
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            receive_state(ws)
            wait_for_presence(client, game["id"], 0, open_=True)
            friend_decides(client, game)
            assert send_due(client) == 0
        wait_for_presence(client, game["id"], 0, open_=False)
        before = len(inbox.messages)
        assert send_due(client) == 1  # she left it waiting: now it is e-mailed
        assert f"/g/{game['id']}" in body_of(inbox.messages[before])


def test_a_post_to_the_unsubscribe_link_is_the_one_click_of_list_unsubscribe(
    smtp: tuple[Inbox, int],
) -> None:
    inbox, port = smtp
    with mailing(port, Clock()) as client:
        me = verified_account(client, inbox, "Cho")
        friend_decides(client, correspondence_game(client, me))
        assert send_due(client) == 1
        unsubscribe = link_in(inbox.messages[-1], "/email/unsubscribe")
        client.cookies.clear()
        assert client.post(unsubscribe).status_code == 200
        client.post("/api/me/login", json={"name": "Cho", "password": "correct horse battery"})
        assert client.get("/api/me/email").json()["notify"] is False


def test_an_email_carries_no_card_the_player_may_not_know(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with mailing(port, Clock()) as client:
        me = verified_account(client, inbox, "Dan")
        game = correspondence_game(client, me)
        state = friend_decides(client, game, prefer="S:")
        stored = served(client).games.load(game["id"])
        assert stored is not None and stored.decisions[-1].startswith("S:")
        assert send_due(client) == 1
        mail = inbox.messages[-1]
        text = body_of(mail) + "".join(f"{k}: {v}\n" for k, v in mail.items())
        assert HIDDEN_TEXT.search(text) is None
        assert str(stored.seed) not in text
        # No item is named at all: neither the friend's Secret nor any other card.
        for card in range(len(ITEM_LETTERS)):
            assert item_name(card, "en") not in text.lower(), item_name(card, "en")
        assert state["to_move"] == 0


def test_the_address_is_in_no_answer_but_the_accounts_own(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with mailing(port, Clock()) as client:
        me = verified_account(client, inbox, "Eve")
        game = correspondence_game(client, me)
        seen = [client.get("/api/me").json(), client.get("/api/me/games").json()]
        client.cookies.clear()
        seen += [client.get("/api/players/Eve").json()]
        seen += [client.get("/api/games?watch=1").json()]
        with take_seat(client, game, game["friend_token"]) as (_, state):
            seen.append(state)
        for answer in seen:
            assert "eve@example.org" not in json.dumps(answer)
            assert "address" not in all_keys(answer)
        refusal(client.get("/api/me/email"), 401, "err_signed_out")


def test_links_forged_or_expired_are_refused_with_their_codes(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    clock = Clock()
    with mailing(port, clock) as client:
        me = register(client, "Fay")
        client.post("/api/me/email", json={"address": "fay@example.org"}, headers=csrf(me))
        link = link_in(inbox.messages[-1], "/email/verify")
        forged = link[:-12] + ("A" if link[-12] != "A" else "B") + link[-11:]
        for bad in (forged, "/email/verify?t=nothing", "/email/verify?t=", "/email/verify"):
            page = client.get(bad)
            assert page.status_code == 400 and "not valid" in page.text, bad
        other = client.get("/email/unsubscribe?t=" + link.split("t=")[1].split("&")[0])
        assert other.status_code == 400  # a verification token is no unsubscribe token
        clock.advance(24 * 60 + 1)
        page = client.get(link)
        assert page.status_code == 410 and "expired" in page.text
        assert client.get("/api/me/email").json()["verified"] is False
        # A link sent for an address since changed no longer verifies anything.
        clock.advance(-(24 * 60 + 1))
        client.post("/api/me/email", json={"address": "fay2@example.org"}, headers=csrf(me))
        assert client.get(link).status_code == 400
        assert client.get("/email/verify?t=<script>&lang=fr").text.count("<script>") == 0


@pytest.mark.parametrize(
    "address",
    ["", "fay", "fay@", "@example.org", "fay@example", "fay example@example.org",
     "fay@exa mple.org", "fay\n@example.org", "fäy@example.org", "a" * 65 + "@example.org",
     "fay@" + "a" * 250 + ".org", "fay@@example.org", "fay@example..org"],
)  # fmt: skip
def test_a_bad_address_is_refused(smtp: tuple[Inbox, int], address: str) -> None:
    inbox, port = smtp
    with mailing(port, Clock()) as client:
        me = register(client, "Gus")
        answer = client.post("/api/me/email", json={"address": address}, headers=csrf(me))
        refusal(answer, 400, "err_email_address")
        assert client.get("/api/me/email").json()["address"] is None
        assert inbox.messages == []


def test_who_may_add_an_address_and_how_often(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with mailing(port, Clock()) as client:
        client.cookies.clear()
        refusal(
            client.post("/api/me/email", json={"address": "a@example.org"}), 401, "err_signed_out"
        )
        guest = client.post("/api/me/guest", json={"nickname": "Hana"}).json()
        answer = client.post(
            "/api/me/email", json={"address": "a@example.org"}, headers=csrf(guest)
        )
        refusal(answer, 403, "err_email_account")
        me = register(client, "Hal")
        refusal(client.post("/api/me/email", json={"address": "a@example.org"}), 403, "err_csrf")
        refusal(
            client.post("/api/me/email/notify", json={"on": True}, headers=csrf(me)),
            409,
            "err_email_none",
        )
        refusal(
            client.post("/api/me/email/notify", json={"on": "yes"}, headers=csrf(me)),
            400,
            "err_bad_field",
        )
        for _ in range(5):
            answer = client.post(
                "/api/me/email", json={"address": "hal@example.org"}, headers=csrf(me)
            )
            assert answer.status_code == 200
        answer = client.post("/api/me/email", json={"address": "hal@example.org"}, headers=csrf(me))
        refusal(answer, 429, "err_email_rate")
        assert "Retry-After" in answer.headers
        assert len(inbox.messages) == 5
        answer = client.post("/api/me/email/remove", headers=csrf(me))
        assert answer.json() == {
            "enabled": True,
            "address": None,
            "verified": False,
            "notify": False,
        }


def test_a_server_without_smtp_settings_sends_nothing(smtp: tuple[Inbox, int]) -> None:
    inbox, _ = smtp
    with app_client() as client:
        me = register(client, "Ivy")
        assert client.get("/api/me/email").json() == {
            "enabled": False,
            "address": None,
            "verified": False,
            "notify": False,
        }
        answer = client.post("/api/me/email", json={"address": "ivy@example.org"}, headers=csrf(me))
        refusal(answer, 404, "err_email_off")
        friend_decides(client, correspondence_game(client, me))
        assert send_due(client) == 0
    assert inbox.messages == []


def test_smtp_without_a_public_address_is_off(smtp: tuple[Inbox, int]) -> None:
    _, port = smtp
    with mailing(port, Clock(), public_url=None) as client:
        assert served(client).notices.enabled is False


def test_a_refused_send_is_said_and_keeps_the_address_unverified() -> None:
    with mailing(free_port(), Clock()) as client:  # nothing listens there
        me = register(client, "Joy")
        answer = client.post("/api/me/email", json={"address": "joy@example.org"}, headers=csrf(me))
        refusal(answer, 503, "err_email_send")
        assert client.get("/api/me/email").json()["verified"] is False


def test_an_email_is_written_in_the_players_language(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with mailing(port, Clock()) as client:
        me = register(client, "Kai")
        client.post(
            "/api/me/email",
            json={"address": "kai@example.org"},
            headers={**csrf(me), "X-Hanamikoji-Lang": "fr"},
        )
        mail = inbox.messages[-1]
        assert mail["Subject"] == "Vérifiez votre adresse de courriel pour Hanamikoji"
        assert "lang=fr" in link_in(mail, "/email/verify")
        page = client.get(link_in(mail, "/email/verify"))
        assert "Votre adresse de courriel est vérifiée." in page.text
