"""The bot ladder under load (issue 50): N bridged bots paired with each other on one server.

Run: ``.venv/bin/python benchmarks/bot_ladder.py [--bots 200] [--duration 60] [--json]``
(``--db postgresql+psycopg://...`` for PostgreSQL; a fresh SQLite file without it).

One ``hanamikoji serve`` runs as its own process (benchmarks/server.py's, with its
options: no per-address caps, no login rate). ``--bots`` bot accounts are made through the
API as a bot author would make one (sign up, a ``bot:play`` token, the upgrade), then each
is bridged in this process by its own :class:`~hanamikoji.interfaces.bridge.bridge.Bridge`
task (``hanamikoji bridge --ladder``'s, with a fast built-in bot: ``--bot random`` or
``greedy``), all on the ladder in ``--variant`` with ``--concurrency`` games at once. With
``--think S`` each bot waits a random time before it posts each decision (exponential, S
seconds on average, as benchmarks/server.py's players think); without it the bots post at
once and the server runs flat out. After ``--warmup`` seconds, ``--duration`` seconds are
measured.

Reported: the decisions posted (and per second), the latency from a bridge starting to
POST a decision to the opponent's game stream receiving the line that carries it (the
first state of a later ply: p50, p90, p99, max), the server's CPU per decision (the CPU
time the OS counts for the server process over the window, as benchmarks/server.py
reports it, with its event loop's part), the share of a core the server, this process
(the 200 bridges: the latencies are partly its own when it nears a whole core), a local
PostgreSQL and the whole machine used, and the refusals the bridges met, by status and
code (a 429 is a token's rate: docs/bot-api.md). ``--json`` prints them as one JSON object;
``--profile FILE`` samples the server with py-spy over the window (as benchmarks/server.py's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import platform
import random
import secrets
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
from machine import cpu_model
from server import (
    Profiler,
    Serving,
    cpu_seconds,
    latency_figures,
    server_cpu,
    start_serving,
)

from hanamikoji import __version__
from hanamikoji.interfaces.bridge.api import ApiError, BotApi
from hanamikoji.interfaces.bridge.bridge import Bridge
from hanamikoji.interfaces.bridge.events import Event, GameFull, GameStateEvent, Unknown
from hanamikoji.interfaces.bridge.players import Contender
from hanamikoji.interfaces.bridge.policy import Policy

GAME_STREAM = "/api/bot/game/stream/"
PASSWORD = "ladder benchmark password"


@dataclass
class Recorder:
    """What the bridges did: decisions posted, their latencies to the opponent's stream,
    refusals. Only what happens while ``measuring`` counts."""

    measuring: bool = False
    decisions: int = 0
    latencies: list[float] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    games: set[str] = field(default_factory=set)
    # game -> the decisions posted and not yet seen by the opponent: (ply, time, bot)
    sent: dict[str, list[tuple[int, float, int]]] = field(default_factory=dict)
    # (bot, game) -> the ply of the last state on that bot's stream of the game
    ply: dict[tuple[int, str], int] = field(default_factory=dict)

    def posting(self, bot: int, game: str) -> tuple[int, float, int]:
        entry = (self.ply.get((bot, game), -1), time.perf_counter(), bot)
        self.sent.setdefault(game, []).append(entry)
        return entry

    def posted(self, game: str, entry: tuple[int, float, int], ok: bool) -> None:
        if ok:
            if self.measuring:
                self.decisions += 1
            return
        waiting = self.sent.get(game, [])
        if entry in waiting:
            waiting.remove(entry)

    def seen(self, bot: int, game: str, ply: int) -> None:
        """A state of ``ply`` on ``bot``'s stream of ``game``: every decision the other
        bot posted at an earlier ply has reached it."""
        now = time.perf_counter()
        self.ply[(bot, game)] = ply
        if self.measuring:
            self.games.add(game)
        waiting = self.sent.get(game)
        if not waiting:
            return
        kept = []
        for entry in waiting:
            posted_ply, at, sender = entry
            if sender != bot and posted_ply < ply:
                if self.measuring:
                    self.latencies.append(now - at)
            else:
                kept.append(entry)
        self.sent[game] = kept

    def refused(self, error: ApiError) -> None:
        if self.measuring:
            self.refusals[f"{error.status} {error.code or 'error'}"] += 1


class TimedApi(BotApi):
    """A bridge's API that tells the :class:`Recorder` of each decision posted and each
    state its game streams carry."""

    def __init__(
        self, server: str, token: str, bot: int, recorder: Recorder, think: float = 0.0
    ) -> None:
        super().__init__(server, token, timeout=30.0)
        self.bot = bot
        self.recorder = recorder
        self.think = think
        self.random = random.Random(bot)

    async def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        try:
            return await super().post(path, body)
        except ApiError as error:
            self.recorder.refused(error)
            raise

    async def move(self, game: str, decision: str) -> None:
        if self.think > 0:
            await asyncio.sleep(self.random.expovariate(1 / self.think))
        entry = self.recorder.posting(self.bot, game)
        ok = False
        try:
            await super().move(game, decision)
            ok = True
        finally:
            self.recorder.posted(game, entry, ok)

    @asynccontextmanager
    async def stream(self, path: str) -> AsyncIterator[AsyncIterator[Event | Unknown]]:
        opened = False
        try:
            async with super().stream(path) as events:
                opened = True
                if path.startswith(GAME_STREAM):
                    yield self._timed(events, path.removeprefix(GAME_STREAM))
                else:
                    yield events
        except ApiError as error:
            if not opened:
                self.recorder.refused(error)
            raise

    async def _timed(
        self, events: AsyncIterator[Event | Unknown], game: str
    ) -> AsyncIterator[Event | Unknown]:
        async for event in events:
            if isinstance(event, GameFull | GameStateEvent):
                self.recorder.seen(self.bot, game, event.state.ply)
            yield event


async def bot_account(client: httpx.AsyncClient, name: str) -> str:
    """A new bot account ``name``, made through the API: its ``bot:play`` token."""
    client.cookies.clear()
    made = await client.post("/api/me/register", json={"name": name, "password": PASSWORD})
    made.raise_for_status()
    csrf = {"X-CSRF-Token": made.json()["csrf"]}
    answer = await client.post(
        "/api/tokens", json={"name": "ladder", "scopes": ["bot:play"]}, headers=csrf
    )
    answer.raise_for_status()
    token: str = answer.json()["token"]
    client.cookies.clear()
    upgraded = await client.post(
        "/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"}
    )
    upgraded.raise_for_status()
    return token


async def bot_accounts(url: str, count: int) -> list[str]:
    tag = secrets.token_hex(2)
    tokens: list[str] = []
    # One client per account at a time, a few at once: sign-ups hash a password.
    for start in range(0, count, 8):
        names = [f"L{tag}b{n}" for n in range(start, min(count, start + 8))]
        clients = [httpx.AsyncClient(base_url=url, timeout=60) for _ in names]
        try:
            made = await asyncio.gather(
                *(bot_account(c, n) for c, n in zip(clients, names, strict=True))
            )
        finally:
            await asyncio.gather(*(c.aclose() for c in clients))
        tokens.extend(made)
    return tokens


async def run_ladder(
    args: argparse.Namespace, serving: Serving, profiler: Profiler | None = None
) -> tuple[Recorder, dict[str, float], dict[str, float], float]:
    """The bridges on the ladder; the recorder, the CPU before and after the measured
    window, and this process's CPU seconds in it. ``profiler`` samples the server over
    the window."""
    url, cpu = serving.url, serving.cpu
    tokens = await bot_accounts(url, args.bots)
    recorder = Recorder()
    policy = Policy(concurrency=args.concurrency, variants=(args.variant,))
    apis = [
        TimedApi(url, token, number, recorder, args.think) for number, token in enumerate(tokens)
    ]
    bridges = [
        Bridge(api, Contender(spec=args.bot), policy, on_stop="leave", ladder=True) for api in apis
    ]
    tasks = [asyncio.create_task(bridge.run()) for bridge in bridges]
    try:
        await asyncio.sleep(args.warmup)
        own = cpu_seconds(os.getpid())
        before = cpu()
        if profiler is not None:
            profiler.start(serving)
        recorder.measuring = True
        await asyncio.sleep(args.duration)
        recorder.measuring = False
        after = cpu()
        own = cpu_seconds(os.getpid()) - own
    finally:
        for bridge in bridges:
            bridge.stop()
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(api.aclose() for api in apis))
    return recorder, before, after, own


def report(
    args: argparse.Namespace,
    recorder: Recorder,
    before: dict[str, float],
    after: dict[str, float],
    own: float,
) -> dict[str, Any]:
    used = {name: after[name] - before[name] for name in before}
    return {
        "scenario": "bot ladder",
        "bots": args.bots,
        "bot": args.bot,
        "variant": args.variant,
        "concurrency": args.concurrency,
        "think": args.think,
        "database": "postgresql" if (args.db or "").startswith("postgresql") else "sqlite",
        "duration": args.duration,
        "warmup": args.warmup,
        "games_seen": len(recorder.games),
        "decisions": recorder.decisions,
        "decisions_per_second": recorder.decisions / args.duration,
        "decision_to_stream": latency_figures(recorder.latencies),
        "cpu_share": {name: seconds / args.duration for name, seconds in used.items()},
        "bridges_cpu_share": own / args.duration,
        **server_cpu(recorder.decisions, {"server": used["server"]}),
        "server_event_loop_ms_per_decision": 1000
        * used["server: event loop"]
        / max(1, recorder.decisions),
        "refusals": dict(recorder.refusals),
        "version": __version__,
        "python": platform.python_version(),
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
    }


def print_report(figures_: dict[str, Any]) -> None:
    latency = figures_["decision_to_stream"]
    print(
        f"{figures_['bots']} bridged {figures_['bot']} bots on the {figures_['variant']} ladder"
        f" ({figures_['database']}, {figures_['concurrency']} game(s) each,"
        f" {figures_['think']} s think),"
        f" {figures_['duration']:.0f} s measured:"
    )
    print(
        f"  decisions: {figures_['decisions']:,} ({figures_['decisions_per_second']:,.1f}/s)"
        f" in {figures_['games_seen']} games"
    )
    print(
        f"  decision to the opponent's stream: p50 {latency['p50_ms']:.1f} ms,"
        f" p90 {latency['p90_ms']:.1f} ms, p99 {latency['p99_ms']:.1f} ms,"
        f" max {latency['max_ms']:.1f} ms ({latency['samples']:,} samples)"
    )
    print(
        f"  server CPU: {figures_['server_cpu_ms_per_decision']:.2f} ms a decision"
        f" (event loop {figures_['server_event_loop_ms_per_decision']:.2f} ms)"
    )
    shares = ", ".join(f"{name} {share:.0%}" for name, share in figures_["cpu_share"].items())
    print(f"  a core's share: {shares}, the bridges {figures_['bridges_cpu_share']:.0%}")
    if figures_["refusals"]:
        print(f"  refusals: {figures_['refusals']}")
    print(f"  hanamikoji {figures_['version']}, {figures_['cpu_model']}, {figures_['date']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before them")
    parser.add_argument("--bot", default="random", help="the built-in bot: random, greedy, ...")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--concurrency", type=int, default=1, help="ladder games per bot")
    parser.add_argument(
        "--think", type=float, default=0.0, help="a bot's mean seconds before each decision"
    )
    parser.add_argument("--db", default=None, help="the server's database (SQLite without)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--profile",
        default=None,
        help="py-spy samples the server over the window into this file: a flame graph"
        " (.svg), speedscope (.json) or folded stacks (any other name)",
    )
    args = parser.parse_args()
    # start_serving's other ways (an address, instances behind nginx) are not this one's.
    args.url, args.instances = None, None
    logging.getLogger("hanamikoji.bridge").setLevel(logging.ERROR)
    profiler = Profiler(args.profile, args.duration) if args.profile else None
    with start_serving(args) as serving:
        recorder, before, after, own = asyncio.run(run_ladder(args, serving, profiler))
        if profiler is not None:
            profiler.wait()
    figures_ = report(args, recorder, before, after, own)
    if args.json:
        json.dump(figures_, sys.stdout, indent=2)
        print()
    else:
        print_report(figures_)


if __name__ == "__main__":
    main()
