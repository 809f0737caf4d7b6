"""Names, resignations and aborts across server instances on one PostgreSQL database
(issue 49), in one process: two hubs on a fresh schema. A seat claimed on one instance
names its player on the other's pages; a resignation or an abort on one reaches the
other's page through the end's event."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from postgres_db import DRIVER_MISSING, needs_postgres

from hanamikoji.interfaces.web.players.store import new_player

pytest.importorskip("psycopg", reason=DRIVER_MISSING)

from web_support import SeatPage, instance

pytestmark = needs_postgres


def named(message: dict[str, Any]) -> list[str | None]:
    return [person["name"] for person in message.get("people", ())]


def test_a_claim_and_a_resignation_on_one_instance_reach_the_other(schema: str) -> None:
    async def scenario() -> dict[str, Any]:
        async with instance(schema) as one, instance(schema) as two:
            created = await one.create("classic", 0, None, seed=5)
            there = SeatPage()
            live_two = await two.attach(created.id, 1, there.connection)
            await there.until(lambda m: m.get("type") == "state")
            # Ann and Bob take their seats through instance one.
            for seat, name in enumerate(("Ann", "Bob")):
                player = one.players.create_player(new_player("account", name), "$argon2id$x")
                assert one.players.take_seat(created.id, seat, player.id) == "taken"
            await there.until(lambda m: named(m) == ["Ann", "Bob"])
            # Seat 0 decides on one; seat 1 (on two) is then to decide, and seat 0 resigns.
            here = SeatPage()
            live_one = await one.attach(created.id, 0, here.connection)
            await one.play(live_one, 0, live_one.game.legal_moves[0].text(), 0)
            await there.until(lambda m: m.get("ply") == 1)
            await one.finishing.resign(live_one, 0)
            end: dict[str, Any] = await there.until(
                lambda m: (m.get("outcome") or {}).get("reason") == "outcome_resigned"
            )
            assert live_two.ended and live_two.stored.termination == "resigned"
            return end

    end = asyncio.run(scenario())
    assert end["outcome"]["winner"] == 1 and end["outcome"]["result"] == "0-1"
    assert named(end) == ["Ann", "Bob"]


def test_an_abort_on_one_instance_reaches_the_other(schema: str) -> None:
    async def scenario() -> dict[str, Any]:
        async with instance(schema) as one, instance(schema) as two:
            created = await one.create("classic", 0, None, seed=6)
            here, there = SeatPage(), SeatPage()
            live_one = await one.attach(created.id, 0, here.connection)
            await two.attach(created.id, 1, there.connection)
            await there.until(lambda m: m.get("type") == "state")
            await one.finishing.abort(live_one, 0)
            end: dict[str, Any] = await there.until(lambda m: m.get("outcome") is not None)
            return end

    end = asyncio.run(scenario())
    assert end["outcome"]["termination"] == "aborted" and end["outcome"]["result"] == "*"
