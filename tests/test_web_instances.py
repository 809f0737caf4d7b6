"""Several server instances on one database (issue 27), in one process: two hubs, each
with its own connections to a fresh PostgreSQL schema, as two ``hanamikoji serve``
processes would have. The same through nginx, with real processes and ``kill -9``, is in
``tests/test_web_deploy.py``.

Also: SQLite serves one instance, and a second ``serve`` on its file is refused.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from postgres_db import DRIVER_MISSING, needs_postgres
from sqlalchemy import update

from hanamikoji.interfaces.clocks import TimeControl
from hanamikoji.interfaces.web.cluster.instances import SecondInstanceError, hold_sqlite
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import instances
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.games.thinkers import BotRunner

pytest.importorskip("psycopg", reason=DRIVER_MISSING)

from web_support import SeatPage, instance


async def at_ply(page: SeatPage, ply: int) -> dict[str, Any]:
    message: dict[str, Any] = await page.until(
        lambda m: m.get("type") == "state" and m["ply"] >= ply
    )
    return message


@needs_postgres
def test_the_two_players_of_a_game_on_two_instances_play_it_to_the_end(schema: str) -> None:
    """Each seat's page is on its own instance; every decision reaches the other's page
    through the database's events, and both see the same end."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with instance(schema) as one, instance(schema) as two:
            created = await one.create("classic", 0, None, seed=5)
            pages = (SeatPage(), SeatPage())
            hubs = (one, two)
            lives: list[LiveGame] = []
            for seat in (0, 1):
                lives.append(await hubs[seat].attach(created.id, seat, pages[seat].connection))
            rng = random.Random(1)
            ply = 0
            while True:
                states = [await at_ply(page, ply) for page in pages]
                assert states[0]["ply"] == states[1]["ply"] == ply
                if states[0]["outcome"] is not None:
                    return states[0], states[1]
                seat = states[0]["to_move"]
                choice = rng.choice(lives[seat].game.legal_moves).text()
                await hubs[seat].play(lives[seat], seat, choice, ply)
                ply += 1

    first, second = asyncio.run(scenario())
    assert first["outcome"] == second["outcome"]


@needs_postgres
def test_both_instances_see_each_seats_page_open_and_closed(schema: str) -> None:
    async def scenario() -> tuple[list[bool], list[bool]]:
        async with instance(schema) as one, instance(schema) as two:
            created = await one.create("classic", 0, None, seed=6)
            here, there = SeatPage(), SeatPage()
            await one.attach(created.id, 0, here.connection)
            live_two = await two.attach(created.id, 1, there.connection)
            both = await here.until(lambda m: m.get("connected") == [True, True])
            await two.detach(live_two, 1, there.connection)
            gone = await here.until(lambda m: m.get("connected") == [True, False])
            return both["connected"], gone["connected"]

    assert asyncio.run(scenario()) == ([True, True], [True, False])


class StuckBots(BotRunner):
    """A bot runner whose bots never decide (their instance dies mid-thought)."""

    async def choose(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()


@needs_postgres
def test_a_bot_game_whose_instance_dies_mid_thought_is_finished_by_the_other(
    schema: str,
) -> None:
    """The owner of a bot game thinks forever and stops beating its heartbeat (as a
    killed or frozen process would); the other instance buries it, takes the game over,
    and its bot decides; the human's page on the survivor sees it."""

    async def scenario() -> int:
        async with instance(schema, StuckBots(0)) as dying, instance(schema) as survivor:
            created = await dying.create("classic", 1, 2, seed=9)  # the bot decides first
            page = SeatPage()
            await survivor.attach(created.id, 0, page.connection)
            await asyncio.sleep(0.2)
            assert page.last_state()["ply"] == 0
            # The owner falls silent: no heartbeat from now on, the last one long ago.
            # The heartbeat task, on purpose: cancelled to make this instance fall silent.
            task = dying.cluster._task  # noqa: SLF001
            assert task is not None
            task.cancel()
            with dying.store.engine.begin() as connection:
                connection.execute(
                    update(instances).where(instances.c.id == dying.me).values(heartbeat_ms=0)
                )
            moved: int = (await at_ply(page, 1))["ply"]
            return moved

    assert asyncio.run(scenario()) >= 1


@needs_postgres
def test_an_instance_that_stops_hands_its_timed_games_over_at_once(schema: str) -> None:
    async def scenario() -> tuple[str | None, str, bool]:
        async with instance(schema) as survivor:
            async with instance(schema) as leaving:
                created = await leaving.create("classic", 0, None, clock=TimeControl.parse("3+2"))
            await survivor.cluster.look()
            # Whether the survivor took the game over.
            live = survivor.in_memory(created.id)
            assert live is not None
            return live.stored.owner, survivor.me, live.clock_timer is not None

    owner, me, armed = asyncio.run(scenario())
    assert owner == me and armed


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from hanamikoji.interfaces.web.cluster.instances import hold_sqlite\n"
            f"hold_sqlite({url!r}); print('held', flush=True); time.sleep(30)",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        with pytest.raises(SecondInstanceError, match="already running"):
            hold_sqlite(url)
        served = subprocess.run(
            [sys.executable, "-m", "hanamikoji", "serve", "--db", url, "--port", "1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert served.returncode != 0
        assert "already running" in served.stderr and "PostgreSQL" in served.stderr
    finally:
        holder.kill()
        holder.wait()
    hold_sqlite(url)  # free again once the other is gone


@needs_postgres
def test_an_event_arrives_after_its_commit_and_never_for_a_rollback(schema: str) -> None:
    from hanamikoji.interfaces.web.cluster.events import Event, Listener, notify

    async def scenario() -> list[Event]:
        heard: list[Event] = []
        arrived = asyncio.Event()

        async def handle(event: Event) -> None:
            heard.append(event)
            arrived.set()

        async def nothing() -> None:
            return None

        listener = Listener(schema, "listener")
        listener.on("game", handle)
        listener.on_reconnect(nothing)
        await listener.start()
        store = Store(schema)
        try:
            with store.engine.connect() as connection:
                with connection.begin() as transaction:
                    notify(connection, Event("game", "rolled-back", "writer"))
                    transaction.rollback()
                with connection.begin():
                    notify(connection, Event("game", "mine", "listener"))  # its own: dropped
                    notify(connection, Event("game", "committed", "writer", ply=2, move="S:A"))
            async with asyncio.timeout(10):
                await arrived.wait()
            await asyncio.sleep(0.2)
            return heard
        finally:
            await listener.close()
            store.close()

    assert asyncio.run(scenario()) == [Event("game", "committed", "writer", ply=2, move="S:A")]
