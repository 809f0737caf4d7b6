"""The lobby shared by several server instances on one database (issue 27), in one
process: two hubs, each with its accounts and its lobby, on a fresh PostgreSQL schema, as
two ``hanamikoji serve`` processes would have. A seek posted on one is seen and accepted
on the other and both pages land on their seats; of two acceptors racing for one seek,
one gets the game; quick pairing pairs pages of two instances, never two players of whom
one blocked the other; the seeks of an instance that dies leave the other's pages.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from postgres_db import DRIVER_MISSING, needs_postgres
from sqlalchemy import func, select, update

from hanamikoji.interfaces.web.db.tables import games, instances
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.lobby.clients import LobbyClient, LobbyPlayer
from hanamikoji.interfaces.web.lobby.service import Lobby
from hanamikoji.interfaces.web.players.accounts import Accounts
from hanamikoji.interfaces.web.players.store import new_player
from hanamikoji.interfaces.web.services import open_accounts, open_lobby
from hanamikoji.interfaces.web.social.relations import BLOCK, Relations
from hanamikoji.interfaces.web.wire.incoming import QuickMessage, SeekMessage
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.interfaces.web.wire.refused import Refused

pytest.importorskip("psycopg", reason=DRIVER_MISSING)

from web_support import SeatPage, instance

pytestmark = needs_postgres

Message = dict[str, Any]


@dataclass
class Server:
    """One instance: its hub, accounts and lobby."""

    hub: GameHub
    accounts: Accounts
    lobby: Lobby


@asynccontextmanager
async def server(url: str) -> AsyncIterator[Server]:
    async with instance(url) as hub:
        accounts = await open_accounts(hub.store, hub.writer, timedelta(days=1))
        blocked = Relations(hub.store).blocks
        lobby = await open_lobby(hub, accounts, hub.store, hub.listener, hub.now, blocked)
        try:
            yield Server(hub, accounts, lobby)
        finally:
            await lobby.close()


class LobbyPage(SeatPage):
    """A lobby page of a new guest on ``at``: every message it was sent."""

    def __init__(self, at: Server, name: str) -> None:
        super().__init__()
        self.at = at
        stored = at.accounts.store.create_player(new_player("guest", name), None)
        self.player = LobbyPlayer(stored.id, name, False)
        self.client = LobbyClient(self.player, self._receive)
        at.lobby.join(self.client)

    def _receive(self, text: str) -> None:
        self.messages.append(json.loads(text))
        self._arrived.set()

    async def paired(self) -> Message:
        paired: Message = await self.until(lambda m: m["type"] == "paired")
        return paired

    async def open_seat(self, game: str) -> dict[str, Any]:
        """Open the page's seat by its session, as ``/g/GAME`` without a token does
        (``session_seat``), on the page's instance: the state it is sent."""
        seat = self.at.accounts.store.seat_of(game, self.player.id)
        assert seat is not None, "the seat is named for the page's player"
        page = SeatPage()
        await self.at.hub.attach(game, seat, page.connection)
        state: dict[str, Any] = await page.until(lambda m: m.get("type") == "state")
        return state


def seen(seek_id: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "seek" and m["seek"]["id"] == seek_id


def gone(seek_id: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "unseek" and m["seek"] == seek_id


def count_games(at: Server) -> int:
    with at.hub.store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(games)).scalar_one())


def test_a_seek_posted_on_one_instance_is_accepted_on_the_other(schema: str) -> None:
    async def scenario() -> None:
        async with server(schema) as one, server(schema) as two:
            ann, bob = LobbyPage(one, "Ann"), LobbyPage(two, "Bob")
            seek = await one.lobby.seek(ann.client, SeekMessage(variant="french"))
            shown = (await bob.until(seen(seek.id)))["seek"]
            assert shown["player"]["name"] == "Ann" and not shown["mine"]
            late = LobbyPage(two, "Cy")  # opened after: in its first message
            assert [s["id"] for s in late.messages[0]["seeks"]] == [seek.id]
            await two.lobby.accept(bob.client, seek.id)
            to_ann, to_bob = await ann.paired(), await bob.paired()
            assert to_ann["game"] == to_bob["game"]
            assert (to_ann["seat"], to_bob["seat"]) == (0, 1)
            # Bob's game was made on his instance: his token; Ann's seat opens by session.
            assert "token" not in to_ann and to_bob["token"]
            found = await two.hub.authenticate(to_bob["game"], to_bob["token"])
            assert found is not None and found[1] == 1
            await late.until(gone(seek.id))
            states = [await ann.open_seat(to_ann["game"]), await bob.open_seat(to_bob["game"])]
            assert [s["seat"] for s in states] == [0, 1]
            assert {s["variant"] for s in states} == {"french"}
            assert to_plain(one.lobby.snapshot(ann.client))["seeks"] == []

    asyncio.run(scenario())


def test_a_page_that_closes_takes_its_seeks_from_every_instance(schema: str) -> None:
    async def scenario() -> None:
        async with server(schema) as one, server(schema) as two:
            ann, bob = LobbyPage(one, "Ann"), LobbyPage(two, "Bob")
            first = await one.lobby.seek(ann.client, SeekMessage())
            second = await one.lobby.seek(ann.client, SeekMessage(variant="french"))
            await bob.until(seen(second.id))
            await one.lobby.cancel(ann.client, first.id)
            await bob.until(gone(first.id))
            one.lobby.leave(ann.client)
            await bob.until(gone(second.id))
            assert to_plain(two.lobby.snapshot(bob.client))["seeks"] == []

    asyncio.run(scenario())


def test_of_two_acceptors_racing_for_one_seek_one_gets_the_game(schema: str) -> None:
    async def scenario() -> tuple[list[str], int, int]:
        async with server(schema) as one, server(schema) as two:
            ann = LobbyPage(one, "Ann")
            bob, cy = LobbyPage(one, "Bob"), LobbyPage(two, "Cy")
            seek = await one.lobby.seek(ann.client, SeekMessage())
            await cy.until(seen(seek.id))
            results = await asyncio.gather(
                one.lobby.accept(bob.client, seek.id),
                two.lobby.accept(cy.client, seek.id),
                return_exceptions=True,
            )
            outcomes = sorted(
                "refused: " + r.key if isinstance(r, Refused) else repr(r) for r in results
            )
            await ann.paired()
            await asyncio.sleep(0.3)  # no second pairing comes
            winners = sum(page.messages[-1]["type"] == "paired" for page in (bob, cy))
            paired = len([m for m in ann.messages if m["type"] == "paired"])
            assert winners == 1
            return outcomes, paired, count_games(one)

    outcomes, paired, made = asyncio.run(scenario())
    assert outcomes == ["None", "refused: err_seek_gone"]
    assert paired == 1 and made == 1


def test_quick_pairing_pairs_players_on_two_instances(schema: str) -> None:
    async def scenario() -> None:
        async with server(schema) as one, server(schema) as two:
            assert one.lobby.matching and not two.lobby.matching
            ann, bob = LobbyPage(one, "Ann"), LobbyPage(two, "Bob")
            # Bob waits on the instance that is not the matcher; Ann's arrival pairs them.
            await two.lobby.enqueue(bob.client, QuickMessage())
            await bob.until(lambda m: m["type"] == "queued" and m["queued"])
            await one.lobby.enqueue(ann.client, QuickMessage())
            to_ann, to_bob = await ann.paired(), await bob.paired()
            assert to_ann["game"] == to_bob["game"]
            states = [await ann.open_seat(to_ann["game"]), await bob.open_seat(to_bob["game"])]
            assert sorted(s["seat"] for s in states) == [0, 1]
            # And the other way round: a newcomer on the matcher's peer is paired at once.
            cy, dee = LobbyPage(one, "Cy"), LobbyPage(two, "Dee")
            await one.lobby.enqueue(cy.client, QuickMessage())
            await two.lobby.enqueue(dee.client, QuickMessage())
            assert (await cy.paired())["game"] == (await dee.paired())["game"]
            assert one.lobby.db.queue() == []

    asyncio.run(scenario())


def test_quick_pairing_never_pairs_a_blocked_pair_across_instances(schema: str) -> None:
    async def scenario() -> None:
        async with server(schema) as one, server(schema) as two:
            ann, bob = LobbyPage(one, "Ann"), LobbyPage(two, "Bob")
            Relations(one.hub.store).set(bob.player.id, ann.player.id, BLOCK, 0)
            await two.lobby.enqueue(bob.client, QuickMessage())
            await bob.until(lambda m: m["type"] == "queued" and m["queued"])
            await one.lobby.enqueue(ann.client, QuickMessage())
            assert await one.lobby.pair_queue() == 0
            assert len(one.lobby.db.queue()) == 2
            cy = LobbyPage(two, "Cy")
            await two.lobby.enqueue(cy.client, QuickMessage())
            to_cy = await cy.paired()
            [left] = [waiting.player for waiting in one.lobby.db.queue()]
            partner = bob if left == ann.player.id else ann
            assert left in {ann.player.id, bob.player.id} - {partner.player.id}
            assert (await partner.paired())["game"] == to_cy["game"]
            assert count_games(one) == 1

    asyncio.run(scenario())


def test_the_seeks_of_an_instance_that_dies_leave_the_others_pages(schema: str) -> None:
    """The matcher dies (no heartbeat from now on, its lock's connection gone, as with a
    killed process): the survivor buries it, becomes the matcher at its next look, and
    its pages are told the dead one's seeks went; its own seeks stay."""

    async def scenario() -> None:
        async with server(schema) as dying, server(schema) as survivor:
            assert dying.lobby.matching
            ann, bob = LobbyPage(dying, "Ann"), LobbyPage(survivor, "Bob")
            lost = await dying.lobby.seek(ann.client, SeekMessage())
            kept = await survivor.lobby.seek(bob.client, SeekMessage())
            await bob.until(seen(lost.id))
            # The heartbeat task and lobby lock, on purpose: this instance dies mid-write.
            task = dying.hub.cluster._task  # noqa: SLF001
            assert task is not None
            task.cancel()
            lock = dying.lobby._lock  # noqa: SLF001
            assert lock is not None
            await lock.release()
            with dying.hub.store.engine.begin() as connection:
                connection.execute(
                    update(instances).where(instances.c.id == dying.hub.me).values(heartbeat_ms=0)
                )
            await survivor.hub.cluster.look()
            await survivor.lobby.tick()
            assert survivor.lobby.matching
            await bob.until(gone(lost.id))
            assert [s["id"] for s in to_plain(survivor.lobby.snapshot(bob.client))["seeks"]] == [
                kept.id
            ]
            assert [seek.id for seek in survivor.lobby.db.seeks()] == [kept.id]

    asyncio.run(scenario())
