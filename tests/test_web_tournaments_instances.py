"""Tournaments on two server instances sharing PostgreSQL (issue 51), in one process as
tests/test_web_lobby_instances.py runs them: one director per tournament at a time (the
other instance's looks change nothing), players joining on either instance, a page on
one instance told of the other's changes, and the director's instance dying mid-round:
the other takes the tournament over, records the round and pairs the next, with no game
lost or paired twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

import pytest
from postgres_db import DRIVER_MISSING, needs_postgres
from sqlalchemy import func, select

from hanamikoji.interfaces.web.db.tables import games, tournament_games
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.players.accounts import Accounts
from hanamikoji.interfaces.web.players.store import Player, new_player
from hanamikoji.interfaces.web.services import open_accounts
from hanamikoji.interfaces.web.tournaments.directing import open_tournaments
from hanamikoji.interfaces.web.tournaments.director import Director
from hanamikoji.interfaces.web.tournaments.requests import CreateRequest
from hanamikoji.interfaces.web.tournaments.service import Tournaments, Watcher
from hanamikoji.interfaces.web.wire.tournament_messages import TournamentView
from hanamikoji.tournaments import Swiss

pytest.importorskip("psycopg", reason=DRIVER_MISSING)

from web_support import instance

pytestmark = needs_postgres


@dataclass
class Server:
    hub: GameHub
    accounts: Accounts
    tournaments: Tournaments
    director: Director


@asynccontextmanager
async def server(url: str) -> AsyncIterator[Server]:
    async with instance(url) as hub:
        accounts = await open_accounts(hub.store, hub.writer, timedelta(days=1))
        tournaments, director = open_tournaments(hub, hub.now)
        try:
            yield Server(hub, accounts, tournaments, director)
        finally:
            await director.close()


def account(at: Server, name: str) -> Player:
    return at.accounts.store.create_player(new_player("account", name), None)


async def finish_round(at: Server, event: Swiss) -> None:
    for pairing in event.played[-1].pairings:
        assert pairing.game is not None
        live = await at.hub.get(pairing.game)
        assert live is not None
        await at.hub.finishing.resign(live, 1)


def test_the_director_dies_mid_round_and_the_other_instance_takes_over(schema: str) -> None:
    async def scenario() -> None:
        async with server(schema) as dying, server(schema) as survivor:
            ann, bob = account(dying, "Ann"), account(dying, "Bob")
            cyd, dee = account(survivor, "Cyd"), account(survivor, "Dee")
            request = CreateRequest(name="Takeover", time_control="none", rounds=3, starts_in=0)
            made = await dying.tournaments.create(ann, request)
            for at, player in ((dying, ann), (dying, bob), (survivor, cyd), (survivor, dee)):
                await at.tournaments.join(player, made.id, None)
            seen: list[TournamentView] = []
            told = asyncio.Event()

            def send(view: TournamentView) -> None:
                seen.append(view)
                told.set()

            survivor.tournaments.watch(made.id, Watcher(None, None, send))

            assert await dying.director.tick() == 1  # it directs: round 1 paired
            assert await survivor.director.tick() == 0  # one director at a time
            assert not await survivor.director.locks.take(made.id)
            await asyncio.wait_for(told.wait(), 10)  # a page on the other instance is told
            assert seen[-1].round == 1 and len(seen[-1].boards) == 2

            tournament = survivor.tournaments.db.get(made.id)
            assert tournament is not None and isinstance(tournament.event, Swiss)
            await finish_round(survivor, tournament.event)
            # The director's instance dies: its locks' connection goes with it.
            await dying.director.locks.close()
            assert await survivor.director.tick() == 1  # taken over: recorded, round 2 paired
            assert await dying.director.tick() == 0  # back, but the other holds it now
            assert not await dying.director.locks.take(made.id)
            tournament = survivor.tournaments.db.get(made.id)
            assert tournament is not None and isinstance(tournament.event, Swiss)
            event = tournament.event
            assert [r.complete for r in event.played] == [True, False]
            await finish_round(survivor, event)
            while await survivor.director.tick():
                tournament = survivor.tournaments.db.get(made.id)
                assert tournament is not None and isinstance(tournament.event, Swiss)
                if tournament.event.round_on is not None:
                    await finish_round(survivor, tournament.event)
            final = survivor.tournaments.db.get(made.id)
            assert final is not None and final.status == "finished"
            assert isinstance(final.event, Swiss) and len(final.event.played) == 3
            ids = [p.game for r in final.event.played for p in r.pairings]
            with survivor.hub.store.engine.begin() as connection:
                linked = connection.execute(
                    select(tournament_games.c.game_id).where(
                        tournament_games.c.tournament_id == made.id
                    )
                ).all()
                made_games = connection.execute(select(func.count()).select_from(games)).scalar()
            assert len(ids) == len(set(ids)) == 6, "no game lost or paired twice"
            assert sorted(row[0] for row in linked) == sorted(ids)  # type: ignore[type-var]
            assert made_games == 6

    asyncio.run(scenario())
