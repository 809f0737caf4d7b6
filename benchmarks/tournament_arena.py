"""An arena tournament under load (issue 51): N bridged bots in one arena on two instances.

Run: ``.venv/bin/python benchmarks/tournament_arena.py [--players 200] [--duration 300]
[--json]`` (``--db postgresql+psycopg://...``, or ``HANAMIKOJI_TEST_POSTGRES_URL``).

Two ``hanamikoji serve`` instances run on a new schema of the PostgreSQL database (made
for the run, dropped after it; benchmarks/server.py's ``--instances`` stack, with its
options: no per-address caps, no rates), each bringing its director. A person's account
creates an arena for bot accounts of ``--duration`` seconds (the arena's unit is the
minute: rounded up) starting ``--starts-in`` minutes later; meanwhile ``--players`` bot
accounts are made through the API (benchmarks/bot_ladder.py's), each bridged in this
process by its own :class:`~hanamikoji.interfaces.bridge.bridge.Bridge` task with a fast
built-in bot (``--bot random``), the k-th on instance k mod 2, and each joins through the
bot API (``POST /api/tournament/{id}/join``). The arena is measured from its start to its
end.

Reported:

* the **pairing delay**, from a player's game ending to its next ``gameStart`` on its
  event stream (the end as the bot first learns it: the last state on its game's stream,
  or ``gameFinish``), p50, p99, max; and the same from the database, the director's part
  alone: from the game's last decision to the creation of the player's next game;
* **double waits**: every 0.5 s the tournament is read from the database and its waiting
  players taken (no game on: the event's waiting players, and those whose game has
  ended and is not recorded yet); a sample counts when two or more of them have waited
  longer than the director's interval (from their game's end as their bot saw it), and
  as *pairable* when two of those may play each other (neither just played the other:
  the arena never pairs a rematch at once), and as *left by the director* when two such
  had their results recorded (the director saw them and paired neither). The count of
  such samples and the longest such double wait (the second longest wait of the
  sample) are reported;
* the games played (with a result in the arena), the players' ends left unpaired when
  the arena ended;
* the decisions posted and the server's CPU per decision (both instances' CPU over the
  window, as benchmarks/server.py counts it), the share of a core of each instance,
  nginx, PostgreSQL, this process (the bridges) and the whole machine; the refusals the
  bridges met. ``--json`` prints them as one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import os
import platform
import secrets
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from bot_ladder import GAME_STREAM, PASSWORD, Recorder, TimedApi, bot_accounts
from game_browser import postgres_schema
from machine import cpu_model
from server import cpu_seconds, latency_figures, server_cpu, start_serving
from sqlalchemy import func, select

from hanamikoji import __version__
from hanamikoji.interfaces.bridge.api import ApiError
from hanamikoji.interfaces.bridge.bridge import Bridge
from hanamikoji.interfaces.bridge.events import (
    Event,
    GameFinish,
    GameFull,
    GameStart,
    GameStateEvent,
    Unknown,
)
from hanamikoji.interfaces.bridge.players import Contender
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import decisions, games, tournament_games
from hanamikoji.interfaces.web.tournaments.director import DIRECT_INTERVAL
from hanamikoji.interfaces.web.tournaments.store import TournamentStore
from hanamikoji.tournaments import Arena

SAMPLE_S = 0.5
"""Seconds between two samples of the waiting players."""

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Waits:
    """Each player's games as its bot's streams show them: when each ended, when the
    next started (the pairing delays), and the double waits of the samples. Times are
    the wall clock's seconds (the database's rows are compared with them)."""

    start: float = math.inf
    end: float = math.inf
    interval: float = DIRECT_INTERVAL
    on: dict[str, str] = field(default_factory=dict)  # player -> its game on
    ended: dict[str, float] = field(default_factory=dict)  # player -> its last game's end
    done: set[tuple[str, str]] = field(default_factory=set)  # (player, game) ended
    delays: list[float] = field(default_factory=list)
    ends: int = 0
    samples: int = 0
    doubles: int = 0
    pairable: int = 0
    longest_double: float = 0.0
    longest_pairable: float = 0.0
    left_pairable: int = 0

    def measured(self, at: float) -> bool:
        return self.start <= at <= self.end

    def started(self, player: str, game: str, at: float) -> None:
        """``gameStart`` of ``game`` on ``player``'s event stream (again after a
        reconnection: counted once)."""
        if self.on.get(player) == game or (player, game) in self.done:
            return
        self.on[player] = game
        last = self.ended.pop(player, None)
        if last is not None and self.measured(last):
            self.delays.append(at - last)

    def finished(self, player: str, game: str, at: float) -> None:
        """``player``'s bot learnt that ``game`` ended (its stream's last state, or
        ``gameFinish``: the first of them counts)."""
        if (player, game) in self.done:
            return
        self.done.add((player, game))
        if self.on.get(player) == game:
            del self.on[player]
        self.ended[player] = at
        if self.measured(at):
            self.ends += 1

    def sample(
        self,
        waiting: Iterable[str],
        last: dict[str, str],
        at: float,
        left: frozenset[str] = frozenset(),
    ) -> None:
        """The waiting players read from the database at ``at`` (``last``: each one's
        last opponent; ``left``: those of them whose game's result the director has
        recorded, and left unpaired)."""
        if not self.measured(at):
            return
        self.samples += 1
        waits = {p: at - self.ended[p] for p in waiting if p in self.ended}
        long = sorted((p for p, w in waits.items() if w > self.interval), key=waits.__getitem__)
        if len(long) < 2:
            return
        self.doubles += 1
        second = waits[long[-2]]
        self.longest_double = max(self.longest_double, second)
        pairs = [
            (a, b)
            for i, a in enumerate(long)
            for b in long[i + 1 :]
            if last.get(a) != b and last.get(b) != a
        ]
        if pairs:
            self.pairable += 1
            both = max(min(waits[a], waits[b]) for a, b in pairs)
            self.longest_pairable = max(self.longest_pairable, both)
        if any(a in left and b in left for a, b in pairs):
            self.left_pairable += 1

    def unpaired(self) -> int:
        """Players whose game ended in the arena more than an interval before its end
        and who had no game after it."""
        return sum(1 for at in self.ended.values() if self.start <= at < self.end - self.interval)


def waiting_of(
    arena: Arena, ended_games: set[str]
) -> tuple[set[str], frozenset[str], dict[str, str]]:
    """The players without a game on (the arena's waiting players, and the players of
    its games that ended and are not recorded yet), the arena's waiting players alone
    (the director has seen them), and each player's last opponent; by their names (the
    bots know their names, the arena their ids)."""
    recorded = arena.waiting()
    waiting = set(recorded)
    last: dict[str, str] = {}
    for game in arena.games:
        last[game.first], last[game.second] = game.second, game.first
        if game.result is None and game.game in ended_games and not arena.over:
            waiting.update(game.players)
    names = {entrant.id: entrant.name for entrant in arena.entrants}
    left = frozenset(names[p] for p in recorded)
    return {names[p] for p in waiting}, left, {names[p]: names[o] for p, o in last.items()}


class ArenaApi(TimedApi):
    """A bridge's API that also tells :class:`Waits` of each game's start and end."""

    def __init__(self, server: str, token: str, bot: int, recorder: Recorder, waits: Waits):
        super().__init__(server, token, bot, recorder)
        self.waits = waits
        self.name = ""

    @asynccontextmanager
    async def stream(self, path: str) -> AsyncIterator[AsyncIterator[Event | Unknown]]:
        async with super().stream(path) as events:
            game = path.removeprefix(GAME_STREAM) if path.startswith(GAME_STREAM) else None
            yield self._watched(events, game)

    async def _watched(
        self, events: AsyncIterator[Event | Unknown], game: str | None
    ) -> AsyncIterator[Event | Unknown]:
        async for event in events:
            at = time.time()
            if isinstance(event, GameStart):
                self.waits.started(self.name, event.game.id, at)
            elif isinstance(event, GameFinish):
                self.waits.finished(self.name, event.game.id, at)
            elif (
                game is not None
                and isinstance(event, GameFull | GameStateEvent)
                and event.state.outcome is not None
            ):
                self.waits.finished(self.name, game, at)
            yield event


async def create_arena(url: str, minutes: int, starts_in: int, time_control: str) -> str:
    """A person's account and its arena for bot accounts: the arena's id."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        name = f"A{secrets.token_hex(3)}"
        made = await client.post("/api/me/register", json={"name": name, "password": PASSWORD})
        made.raise_for_status()
        body = {
            "name": "Arena under load",
            "kind": "arena",
            "minutes": minutes,
            "starts_in": starts_in,
            "time_control": time_control,
            "entry": "bots",
        }
        headers = {"X-CSRF-Token": made.json()["csrf"]}
        answer = await client.post("/api/tournaments", json=body, headers=headers)
        answer.raise_for_status()
        return str(answer.json()["id"])


async def join(api: ArenaApi, tournament: str) -> None:
    """The bot in the arena: again after a compare-and-set lost to other writers, or an
    answer that did not come in time (``err_tournament_in`` then: it was in)."""
    for attempt in range(20):
        try:
            await api.post(f"/api/tournament/{tournament}/join")
            return
        except ApiError as error:
            if error.code == "err_tournament_in":
                return
            if error.code != "err_conflict" or attempt == 19:
                raise
        except httpx.TimeoutException:
            if attempt == 19:
                raise
        await asyncio.sleep(0.05 * (attempt + 1))


async def sample_waits(db: TournamentStore, tournament: str, waits: Waits) -> None:
    """Read the tournament every :data:`SAMPLE_S` seconds and sample its waiting players."""
    while True:
        await asyncio.sleep(SAMPLE_S)
        found = await asyncio.to_thread(db.get, tournament)
        if found is None or not isinstance(found.event, Arena):
            continue
        arena = found.event
        on = [g.game for g in arena.games if g.result is None and g.game is not None]
        ended = set(await asyncio.to_thread(db.game_ends, on))
        waiting, left, last = waiting_of(arena, ended)
        waits.sample(waiting, last, time.time(), left)


def server_delays(store: Store, tournament: str, start: float, end: float) -> list[float]:
    """The director's part of the pairing delays, from the database: for each player and
    each of its games that ended in the arena and had a next one, the next game's
    creation less the game's last decision."""
    found = TournamentStore(store).get(tournament)
    assert found is not None and isinstance(found.event, Arena)
    last_decision = (
        select(decisions.c.game_id, func.max(decisions.c.created).label("ended"))
        .group_by(decisions.c.game_id)
        .subquery()
    )
    query = (
        select(tournament_games.c.game_id, games.c.created, last_decision.c.ended)
        .join(games, games.c.id == tournament_games.c.game_id)
        .join(last_decision, last_decision.c.game_id == games.c.id, isouter=True)
        .where(tournament_games.c.tournament_id == tournament)
    )
    with store.connection() as connection:
        rows = {row.game_id: (row.created, row.ended) for row in connection.execute(query)}
    ended: dict[str, float] = {}
    delays = []
    for game in found.event.games:
        if game.game not in rows:
            continue
        created, last = rows[game.game]
        for player in game.players:
            before = ended.pop(player, None)
            if before is not None:
                delays.append(created.timestamp() - before)
        if last is not None and game.result is not None and start <= last.timestamp() <= end:
            for player in game.players:
                ended[player] = last.timestamp()
    return delays


async def run_arena(args: argparse.Namespace, serving: Any, db_url: str) -> dict[str, Any]:
    """The arena and its bridges, measured; the report's figures."""
    instances = serving.seat_urls
    minutes = max(1, math.ceil(args.duration / 60))
    tournament = await create_arena(instances[0], minutes, args.starts_in, args.time_control)
    store = Store(db_url)
    db = TournamentStore(store)
    arena = await asyncio.to_thread(db.get, tournament)
    assert arena is not None and arena.settings.ends is not None
    waits = Waits(arena.settings.starts / 1000, arena.settings.ends / 1000)
    tokens = await bot_accounts(instances[0], args.players)
    recorder = Recorder()
    apis = [
        ArenaApi(instances[n % len(instances)], token, n, recorder, waits)
        for n, token in enumerate(tokens)
    ]
    for api in apis:
        api.name = str((await api.account())["name"])
    bridges = [Bridge(api, Contender(spec=args.bot), on_stop="leave") for api in apis]
    tasks = [asyncio.create_task(bridge.run()) for bridge in bridges]
    sampler = asyncio.create_task(sample_waits(db, tournament, waits))
    try:
        await asyncio.wait_for(asyncio.gather(*(b.connected.wait() for b in bridges)), 120)
        limit = asyncio.Semaphore(4)

        async def joined(api: ArenaApi) -> None:
            async with limit:
                await join(api, tournament)

        await asyncio.gather(*(joined(api) for api in apis))
        all_in = time.time()
        await asyncio.sleep(max(0.0, waits.start - time.time()))
        own, before = cpu_seconds(os.getpid()), serving.cpu()
        recorder.measuring = True
        await asyncio.sleep(max(0.0, waits.end - time.time()))
        recorder.measuring = False
        after, own = serving.cpu(), cpu_seconds(os.getpid()) - own
        await asyncio.sleep(2 * DIRECT_INTERVAL)  # the director ends the arena
    finally:
        sampler.cancel()
        for bridge in bridges:
            bridge.stop()
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            task.cancel()
        await asyncio.gather(sampler, *tasks, return_exceptions=True)
        await asyncio.gather(*(api.aclose() for api in apis))
    try:
        delays = await asyncio.to_thread(server_delays, store, tournament, waits.start, waits.end)
        final = await asyncio.to_thread(db.get, tournament)
    finally:
        store.close()
    assert final is not None and isinstance(final.event, Arena)
    played = sum(1 for g in final.event.games if g.result is not None)
    seconds = waits.end - waits.start
    used = {name: after[name] - before[name] for name in before}
    servers = {name: used[name] for name in serving.servers}
    return {
        "scenario": "tournament arena",
        "players": args.players,
        "instances": len(instances),
        "bot": args.bot,
        "time_control": args.time_control,
        "duration": seconds,
        "joined_before_start_s": waits.start - all_in,
        "director_interval_s": DIRECT_INTERVAL,
        "games_played": played,
        "game_ends_seen": waits.ends,
        "pairing_delay": latency_figures(waits.delays),
        "pairing_delay_database": latency_figures(delays),
        "decision_to_stream": latency_figures(recorder.latencies),
        "double_waits": {
            "samples": waits.samples,
            "double": waits.doubles,
            "pairable": waits.pairable,
            "longest_double_s": waits.longest_double,
            "longest_pairable_s": waits.longest_pairable,
            "pairable_left_by_the_director": waits.left_pairable,
        },
        "unpaired_ends": waits.unpaired(),
        "decisions": recorder.decisions,
        "decisions_per_second": recorder.decisions / seconds,
        **server_cpu(recorder.decisions, servers),
        "cpu_share": {name: value / seconds for name, value in used.items()},
        "bridges_cpu_share": own / seconds,
        "refusals": dict(recorder.refusals),
    }


def commit() -> str:
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return "?"
    return found.stdout.strip() or "?"


def print_report(figures_: dict[str, Any]) -> None:
    delay, database = figures_["pairing_delay"], figures_["pairing_delay_database"]
    doubles = figures_["double_waits"]
    print(
        f"{figures_['players']} bridged {figures_['bot']} bots in an arena"
        f" ({figures_['time_control']}) on {figures_['instances']} instances,"
        f" {figures_['duration']:.0f} s:"
    )
    print(
        f"  games played: {figures_['games_played']:,};"
        f" decisions: {figures_['decisions']:,} ({figures_['decisions_per_second']:,.1f}/s)"
    )
    for name, found in (("pairing delay", delay), ("  of it the director's", database)):
        print(
            f"  {name}: p50 {found['p50_ms']:.0f} ms, p99 {found['p99_ms']:.0f} ms,"
            f" max {found['max_ms']:.0f} ms ({found['samples']:,} samples)"
        )
    latency = figures_["decision_to_stream"]
    print(
        f"  a decision to the opponent's stream: p50 {latency['p50_ms']:.0f} ms,"
        f" p99 {latency['p99_ms']:.0f} ms ({latency['samples']:,} samples)"
    )
    print(
        f"  double waits (> {figures_['director_interval_s']:.1f} s): {doubles['double']}"
        f" of {doubles['samples']} samples (longest {doubles['longest_double_s']:.1f} s),"
        f" pairable {doubles['pairable']} (longest {doubles['longest_pairable_s']:.1f} s),"
        f" {doubles['pairable_left_by_the_director']} of them left so by the director;"
        f" ends left unpaired: {figures_['unpaired_ends']}"
    )
    shares = ", ".join(f"{name} {share:.0%}" for name, share in figures_["cpu_share"].items())
    print(
        f"  server CPU: {figures_['server_cpu_ms_per_decision']:.2f} ms a decision;"
        f" a core's share: {shares}, the bridges {figures_['bridges_cpu_share']:.0%}"
    )
    if figures_["refusals"]:
        print(f"  refusals: {figures_['refusals']}")
    print(
        f"  hanamikoji {figures_['version']} ({figures_['commit']}), {figures_['cpu_model']},"
        f" load {figures_['load_before']}, {figures_['date']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument(
        "--duration", type=float, default=300.0, help="the arena's seconds (whole minutes)"
    )
    parser.add_argument("--starts-in", type=int, default=1, help="minutes to the start")
    parser.add_argument("--bot", default="random", help="the built-in bot: random, greedy, ...")
    parser.add_argument("--time-control", default="5+5")
    parser.add_argument("--db", default=os.environ.get("HANAMIKOJI_TEST_POSTGRES_URL"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.db or not args.db.startswith("postgresql"):
        parser.error("two instances need PostgreSQL: --db or HANAMIKOJI_TEST_POSTGRES_URL")
    logging.getLogger("hanamikoji.bridge").setLevel(logging.ERROR)
    load = os.getloadavg()
    with postgres_schema(args.db) as db_url:
        # start_serving's other ways (an address, one server) are not this one's.
        serving_args = argparse.Namespace(url=None, instances=2, db=db_url)
        with start_serving(serving_args) as serving:
            figures_ = asyncio.run(run_arena(args, serving, db_url))
    figures_.update(
        version=__version__,
        commit=commit(),
        python=platform.python_version(),
        cpu_model=cpu_model(),
        cores=os.cpu_count(),
        load_before=" ".join(f"{x:.1f}" for x in load),
        date=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )
    if args.json:
        json.dump(figures_, sys.stdout, indent=2)
        print()
    else:
        print_report(figures_)


if __name__ == "__main__":
    main()
