"""Friends and challenges across two server instances on one PostgreSQL database (issue
49), in one process as ``test_web_lobby_instances.py`` runs its two: a challenge made on
one instance reaches its opponent's page on the other, is accepted there, and both
pages go to the one game made, each seat named for its player; a decline is told back
across; a player online on one instance is online for the other; two acceptors of one
open challenge, one per instance, make one game; a game made and ended on one instance
(however made: ``games/making.py``) is told to its players' pages on both (issue 50: the
bot API's ``gameStart`` and ``gameFinish`` come of it, no polling).
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
from sqlalchemy import func, select

from hanamikoji.interfaces.web.db.tables import games
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.players.accounts import Accounts
from hanamikoji.interfaces.web.players.store import Player, new_player
from hanamikoji.interfaces.web.services import open_accounts, open_social, people_game
from hanamikoji.interfaces.web.social.service import Social
from hanamikoji.interfaces.web.wire.incoming import ChallengeRequest
from hanamikoji.interfaces.web.wire.refused import Refused

pytest.importorskip("psycopg", reason=DRIVER_MISSING)

from web_support import SeatPage, instance

pytestmark = needs_postgres

Message = dict[str, Any]


@dataclass
class Server:
    hub: GameHub
    accounts: Accounts
    social: Social


@asynccontextmanager
async def server(url: str) -> AsyncIterator[Server]:
    async with instance(url) as hub:
        accounts = await open_accounts(hub.store, hub.writer, timedelta(days=1))
        social = await open_social(hub, accounts, hub.store, hub.listener, hub.now)
        try:
            yield Server(hub, accounts, social)
        finally:
            await social.close()


class SitePage:
    """A page of ``player`` open on ``at`` (its site socket): every message it was sent."""

    def __init__(self, at: Server, player: Player) -> None:
        self.at = at
        self.player = player
        self.messages: list[Message] = []
        self._arrived = asyncio.Event()

    def _receive(self, text: str) -> None:
        self.messages.append(json.loads(text))
        self._arrived.set()

    async def open(self) -> SitePage:
        await self.at.social.open_page(self.player, self._receive)
        return self

    async def until(self, check: Callable[[Message], bool], timeout: float = 10) -> Message:
        async with asyncio.timeout(timeout):
            while True:
                for message in self.messages:
                    if check(message):
                        return message
                self._arrived.clear()
                await self._arrived.wait()


def account(at: Server, name: str) -> Player:
    return at.accounts.store.create_player(new_player("account", name), "hash")


def of_type(kind: str) -> Callable[[Message], bool]:
    return lambda message: message["type"] == kind


def count_games(at: Server) -> int:
    with at.hub.store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(games)).scalar_one())


def test_a_challenge_made_on_one_instance_is_accepted_on_the_other(schema: str) -> None:
    async def scenario() -> None:
        async with server(schema) as one, server(schema) as two:
            ann, bob = account(one, "Ann"), account(one, "Bob")
            on_one = await SitePage(one, ann).open()
            on_two = await SitePage(two, bob).open()
            assert await one.social.online([bob.id]) == {bob.id}  # his page is on two
            request = ChallengeRequest(opponent="bob", variant="french", first="me")
            made = await one.social.challenge(ann, request)
            told = (await on_two.until(of_type("challenge")))["challenge"]
            assert told["id"] == made.id and told["challenger"]["name"] == "Ann"
            accepted = await two.social.accept(bob, made.id)
            for page in (on_one, on_two):
                game = await page.until(of_type("challenge_game"))
                assert game["game"] == accepted.game
            # Both seats are named: each page opens its seat by its session, anywhere.
            for at, player, seat in ((one, ann, 0), (two, bob, 1)):
                assert at.accounts.store.seat_of(accepted.game, player.id) == seat
                table = SeatPage()
                await at.hub.attach(accepted.game, seat, table.connection)
                state = await table.until(lambda m: m.get("type") == "state")
                assert state["variant"] == "french" and state["to_move"] == 0

            declined = await one.social.challenge(ann, ChallengeRequest(opponent="Bob"))
            await on_two.until(
                lambda m: m["type"] == "challenge" and m["challenge"]["id"] == declined.id
            )
            await two.social.decline(bob, declined.id)
            gone = await on_one.until(of_type("challenge_gone"))
            assert gone == {"type": "challenge_gone", "id": declined.id, "reason": "declined"}

    asyncio.run(scenario())


def test_two_instances_accepting_one_open_challenge_make_one_game(schema: str) -> None:
    async def scenario() -> None:
        async with server(schema) as one, server(schema) as two:
            ann, bob, cyd = account(one, "Ann"), account(one, "Bob"), account(two, "Cyd")
            await SitePage(one, ann).open()
            made = await one.social.challenge(ann, ChallengeRequest())
            before = count_games(one)
            results = await asyncio.gather(
                one.social.accept(bob, made.id),
                two.social.accept(cyd, made.id),
                return_exceptions=True,
            )
            refused = [r for r in results if isinstance(r, Refused)]
            assert len(refused) == 1 and refused[0].key == "err_challenge_gone"
            assert count_games(one) == before + 1

    asyncio.run(scenario())


def test_a_game_made_and_ended_on_one_instance_is_told_to_its_players_on_both(
    schema: str,
) -> None:
    async def scenario() -> None:
        async with server(schema) as one, server(schema) as two:
            ann, bob = account(one, "Ann"), account(one, "Bob")
            ann_here, bob_here = await SitePage(one, ann).open(), await SitePage(one, bob).open()
            ann_there = await SitePage(two, ann).open()
            make = people_game(one.hub, one.accounts)
            seats = await make((ann.id, bob.id), "classic", "none", False, 0)
            game = seats[0].game
            for page in (ann_here, bob_here, ann_there):
                started = await page.until(of_type("game_start"))
                assert started == {"type": "game_start", "game": game}
            live = await one.hub.get(game)
            assert live is not None
            await one.hub.finishing.resign(live, 1)
            for page in (ann_here, bob_here, ann_there):
                finished = await page.until(of_type("game_finish"))
                assert finished == {"type": "game_finish", "game": game}
            # Told once each: the instance that wrote it tells its own pages, not twice.
            assert [m["type"] for m in ann_here.messages].count("game_start") == 1
            assert [m["type"] for m in ann_there.messages].count("game_finish") == 1

    asyncio.run(scenario())
