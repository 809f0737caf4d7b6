"""E-mail for correspondence games on several instances of one PostgreSQL database (issue
49): of two instances looking at once, one sends a player's batch (the row each claims in
``mail_batches``); and a player's page open on one instance keeps the other from
e-mailing about that game (the cluster's presence). The SMTP server is aiosmtpd's, on
loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import pytest
from postgres_db import DRIVER_MISSING, needs_postgres
from serving import free_port

from hanamikoji.interfaces.clocks import TimeControl
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.notices.batches import Notices
from hanamikoji.interfaces.web.players.store import new_player
from hanamikoji.interfaces.web.services import open_accounts, open_notices
from hanamikoji.interfaces.web_settings import ServeSettings

pytest.importorskip("psycopg", reason=DRIVER_MISSING)

from web_support import SeatPage, instance

aiosmtpd = pytest.importorskip("aiosmtpd.controller")

pytestmark = needs_postgres


class Inbox:
    def __init__(self) -> None:
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox, port = Inbox(), free_port()
    controller = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@asynccontextmanager
async def server(url: str, port: int) -> AsyncIterator[tuple[GameHub, Notices]]:
    settings = ServeSettings(
        smtp_host="127.0.0.1", smtp_port=port, smtp_tls="none", public_url="http://play.test"
    )
    async with instance(url) as hub:
        accounts = await open_accounts(hub.store, hub.writer, timedelta(days=1))
        yield hub, await open_notices(hub, accounts, settings, hub.now)


async def waiting_game(hub: GameHub, notices: Notices, name: str) -> tuple[str, str]:
    """An account opted in to e-mails, at seat 0 of a 1-day game whose first decision
    (seat 1's, by nobody's page) is made: it is the account's turn."""
    players = notices.players
    account = players.create_player(new_player("account", name), "$argon2id$")
    rows = notices.rows
    rows.set_address(account.id, f"{name.lower()}@example.org", "en")
    assert rows.verify(account.id, f"{name.lower()}@example.org")
    assert rows.set_notify(account.id, True)
    created = await hub.create("classic", 1, None, clock=TimeControl.parse("1d"))
    assert players.take_seat(created.id, 0, account.id) == "taken"
    live = await hub.get(created.id)
    assert live is not None
    await hub.play(live, 1, live.game.legal_moves[0].text(), 0)
    return account.id, created.id


def test_of_two_instances_looking_at_once_one_sends_the_batch(
    schema: str, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp

    async def scenario() -> list[int]:
        async with server(schema, port) as (one, mail_one), server(schema, port) as (_, mail_two):
            await waiting_game(one, mail_one, "Ann")
            return list(await asyncio.gather(mail_one.send_due(), mail_two.send_due()))

    assert sorted(asyncio.run(scenario())) == [0, 1]
    assert inbox.recipients == [["ann@example.org"]]


def test_a_page_open_on_one_instance_keeps_the_other_from_emailing(
    schema: str, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp

    async def scenario() -> tuple[int, int]:
        async with server(schema, port) as (one, mail_one), server(schema, port) as (two, _):
            _, game_id = await waiting_game(one, mail_one, "Bea")
            page = SeatPage()
            live = await two.attach(game_id, 0, page.connection)  # her page, on the other
            async with asyncio.timeout(10):
                while not any(r.pages for r in mail_one.cluster.presence(game_id) if r.seat == 0):
                    await asyncio.sleep(0.02)
            while_open = await mail_one.send_due()
            await two.detach(live, 0, page.connection)
            async with asyncio.timeout(10):
                while any(r.pages for r in mail_one.cluster.presence(game_id) if r.seat == 0):
                    await asyncio.sleep(0.02)
            return while_open, await mail_one.send_due()

    assert asyncio.run(scenario()) == (0, 1)
    assert inbox.recipients == [["bea@example.org"]]
