"""Web server load: N concurrent bot-vs-bot games, or N players in the lobby, driven over
WebSockets on loopback.

Run: ``.venv/bin/python benchmarks/server.py [--games 500] [--duration 30] [--think 1]``
or ``.venv/bin/python benchmarks/server.py --scenario lobby [--players 1000] [--rate 10]``
or, behind nginx, ``... --instances 2 --db postgresql+psycopg://user:password@host/db``

The server runs as its own process (``hanamikoji serve`` on 127.0.0.1, a fresh SQLite
database in a temporary directory unless ``--db`` or ``--url`` says otherwise). The
benchmark creates ``--games`` friend games and plays both seats of each over their own
WebSocket, as two pages would: each seat picks a random legal decision from its own state
message, waits its think time (uniform in 0..2x ``--think`` seconds; 0 sends at once),
sends it, and waits for the update. A finished game is replaced by a new one, so
``--games`` games are always in play.

Reported: finished games per second, decisions per second, and the latency from sending
a decision to receiving the state that includes it (p50, p90, p99, max), over the
measured window after a warm-up; and the server's CPU use. The goal in the issue: 500
concurrent games with p99 <= 50 ms on the project's machine (2 cores). The latency is
measured twice: to the sender's own socket, and to the other seat's (the opponent's page
seeing the decision; on another instance, it has gone through PostgreSQL).

``--instances N`` runs the deployment of docs/deploy.md instead: N instances on the
database ``--db`` (PostgreSQL for N > 1) behind nginx (deploy/nginx.conf, started by
tests/stack.py as scripts/stack does), and every request and socket goes through nginx,
which sends each new socket to the instance with the fewest (least_conn): a game's two
seats are on different instances about (N-1)/N of the time, as real players' would be.
``--direct`` connects seat s of the k-th game straight to instance (k + s) mod N instead
(games still created through nginx): with N > 1, every decision crosses instances. The
CPU use is then given per instance, for nginx, and for the client processes; with a
PostgreSQL on this machine, for it too; and how busy the whole machine's cores were,
whatever ran on them. ``--json`` prints the figures as one JSON object.

The server's CPU per decision is the CPU time the OS counts for the server processes
(the instances; not nginx, PostgreSQL or the clients) over the measured window, divided
by the decisions made in it: ``server_cpu_ms_per_decision``, in all and per instance
(each instance's CPU over every decision: the shares add up to the whole), and the
main threads' part, the event loop's (``server_event_loop_ms_per_decision``; the rest
is the writer thread's and the blocking reads'). Unlike the latencies it holds on a
machine busy with other work. ``--instances 1,2,4`` runs the
benchmark once per count, in turn, and prints the decisions per server-CPU-second of
each and their ratio to the first count's: with ``--direct`` (every decision crosses
instances) it says whether instances add up. ``--against REV --runs 3`` compares this
tree's server with the code of the git revision ``REV`` on the same machine in one run:
the two alternate (REV's first), ``--runs`` times each, and the medians of each are
printed (the figures of a change's commit message).

The lobby scenario (``--scenario lobby``) signs in ``--players`` guests and keeps each
on its own lobby socket (``/lobby/ws``). Open loop, ``--rate`` times a second an idle
player posts a seek and another idle player, chosen then, accepts it as soon as its
socket shows it; both go back to idle once paired (each pairing makes a real game). Reported:
seeks and pairings per second, the latency of a seek's update from its post to each
other socket (p50, p99, max: one sample per socket per seek), the latency from an
acceptance to the ``paired`` message, and the CPU use of the server and of the client
(one process holds every socket: when it nears a whole core, the latencies are partly its
own); ``--json`` prints them as one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets

from hanamikoji.core import turn_moves
from hanamikoji.core.cards import pack
from hanamikoji.core.moves import MoveKind

KIND_BITS = {
    "secret": int(MoveKind.SECRET),
    "trade-off": int(MoveKind.TRADE_OFF),
    "gift": int(MoveKind.GIFT),
    "competition": int(MoveKind.COMPETITION),
}


def legal_texts(state: dict[str, Any]) -> list[str]:
    """The seat's legal decisions, from its own state message only."""
    if state["pending"] is not None:
        return [option["text"] for option in state["pending"]["options"]]
    used = sum(1 << KIND_BITS[name] for name in state["used"][state["seat"]])
    return [move.text() for move in turn_moves(pack(state["hand"]), used)]


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    # From a decision's sending to the other seat's update that includes it.
    other_latencies: list[float] = field(default_factory=list)
    decisions: int = 0
    games: int = 0
    errors: int = 0
    cpu: float = 0.0  # the client process's CPU seconds over the measured window


async def play_seat(
    url: str,
    game_id: str,
    token: str,
    think: float,
    rng: random.Random,
    stats: Stats,
    sent: dict[int, tuple[str, float]] | None = None,
) -> None:
    """Play one seat to the end. ``sent`` (shared by the game's two seats) holds each
    decision sent and not yet seen by the other seat: ply, the sender's token and time."""
    sent = {} if sent is None else sent
    async with websockets.connect(f"{url}/ws/{game_id}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_ply = -1
        acted_ply = -1
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "error":
                stats.errors += 1
                continue
            if message["type"] != "state":
                continue
            ply = message["ply"]
            now = time.perf_counter()
            if sent_at is not None and ply > sent_ply:
                if stats.measuring:
                    stats.latencies.append(now - sent_at)
                    stats.decisions += 1
                sent_at = None
            for other_ply, (sender, at) in list(sent.items()):
                if sender != token and ply > other_ply:
                    del sent[other_ply]
                    if stats.measuring:
                        stats.other_latencies.append(now - at)
            if message["outcome"] is not None:
                return
            if message["to_move"] == message["seat"] and ply != acted_ply:
                acted_ply = ply
                move = rng.choice(legal_texts(message))
                if think > 0:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                sent_ply = ply
                sent_at = time.perf_counter()
                sent[ply] = (token, sent_at)
                await ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))


async def create_game(client: httpx.AsyncClient, url: str) -> dict[str, Any]:
    # uvicorn closes idle keep-alive connections after 5 s: a request that picked one
    # up just then is sent again on a fresh connection.
    for attempt in range(3):
        try:
            response = await client.post(f"{url}/api/games", json={"opponent": "friend"})
            response.raise_for_status()
            game: dict[str, Any] = response.json()
            return game
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def game_slot(
    url: str,
    client: httpx.AsyncClient,
    think: float,
    seed: int,
    stats: Stats,
    stop: float,
    seat_urls: tuple[str, ...] = (),
) -> None:
    """Keep one game in play until ``stop``: create it, play both seats, start another.
    Seat s plays on ``seat_urls[(seed + s) % len(seat_urls)]`` if given, else on ``url``."""
    rng = random.Random(seed)
    while time.perf_counter() < stop:
        game = await create_game(client, url)
        seats = (game["token"], game["friend_token"])
        bases = [seat_urls[(seed + s) % len(seat_urls)] if seat_urls else url for s in (0, 1)]
        sent: dict[int, tuple[str, float]] = {}
        await asyncio.gather(
            *(
                play_seat(base.replace("http", "ws", 1), game["id"], t, think, rng, stats, sent)
                for base, t in zip(bases, seats, strict=True)
            )
        )
        if stats.measuring:
            stats.games += 1


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


def latency_figures(samples: list[float]) -> dict[str, float]:
    """Latencies in seconds as milliseconds: their count, p50, p90, p99, max and mean."""
    ordered = sorted(samples)
    named = {f"p{round(100 * q)}_ms": 1000 * percentile(ordered, q) for q in (0.5, 0.9, 0.99)}
    return {
        "samples": len(ordered),
        **named,
        "max_ms": 1000 * percentile(ordered, 1.0),
        "mean_ms": 1000 * statistics.fmean(ordered) if ordered else float("nan"),
    }


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU time of a process, or of one of its threads (Linux)."""
    where = f"/proc/{pid}" if thread is None else f"/proc/{pid}/task/{thread}"
    fields = Path(f"{where}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """User + system CPU time of this machine's PostgreSQL processes (its server and
    each connection's backend; a backend that ended is not counted)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if Path(f"/proc/{entry}/comm").read_text().strip() == "postgres":
                    total += cpu_seconds(int(entry))
    return total


def machine_busy_seconds() -> float:
    """CPU seconds this machine's cores have spent busy (not idle or waiting), in all."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# The load generator is one address creating hundreds of games at once, and at
# saturation it answers each state as soon as it arrives.
SERVER_OPTIONS = (
    "--bot-delay",
    "0",
    "--bot-processes",
    "0",
    "--create-rate",
    "off",
    "--message-rate",
    "off",
    "--login-rate",
    "off",
    # Every seat of the load comes from 127.0.0.1: lift the per-address caps (64
    # connections, 32 sockets by default) to their highest, or the server refuses the load.
    "--connections-per-address",
    "100000",
    "--sockets-per-address",
    "100000",
)


@contextlib.contextmanager
def server_process(db_url: str | None) -> Any:
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        url_db = db_url or f"sqlite:///{Path(scratch) / 'bench.sqlite3'}"
        command = [
            sys.executable,
            "-m",
            "hanamikoji.interfaces.web_cli",
            "--port",
            str(port),
            "--db",
            url_db,
            "--log-level",
            "warning",
            *SERVER_OPTIONS,
        ]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                        break
                time.sleep(0.1)
            else:
                raise RuntimeError("the server did not start")
            yield url, process.pid
        finally:
            process.terminate()
            process.wait(timeout=30)


async def run(
    url: str,
    games: int,
    first_seed: int,
    start_at: float,
    duration: float,
    warmup: float,
    think: float,
    seat_urls: tuple[str, ...] = (),
) -> Stats:
    stats = Stats()
    await asyncio.sleep(max(0.0, start_at - time.time()))
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        stop = time.perf_counter() + warmup + duration
        slots = [
            asyncio.create_task(game_slot(url, client, think, seed, stats, stop, seat_urls))
            for seed in range(first_seed, first_seed + games)
        ]
        await asyncio.sleep(warmup)
        stats.measuring = True
        cpu_at_start = time.process_time()
        await asyncio.sleep(duration)
        stats.measuring = False
        stats.cpu = time.process_time() - cpu_at_start
        # The games still in play are left unfinished, as closed pages leave them.
        for slot in slots:
            slot.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    return stats


def client_process(
    url: str,
    games: int,
    first_seed: int,
    start_at: float,
    duration: float,
    warmup: float,
    think: float,
    seat_urls: tuple[str, ...] = (),
) -> Stats:
    """One client process's share of the games (each page of a real game is in its own
    browser; one Python process for a thousand sockets would measure itself)."""
    # The client's own collector pauses would show up as server latency; a short run
    # frees its garbage by reference counting alone.
    gc.disable()
    return _run_loop(run(url, games, first_seed, start_at, duration, warmup, think, seat_urls))


def _run_loop(main: Coroutine[Any, Any, Stats]) -> Stats:
    """Run the clients on uvloop when it is there (uvicorn[standard] brings it): the
    client's own overhead is part of every latency measured."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def run_clients(
    url: str,
    games: int,
    clients: int,
    duration: float,
    warmup: float,
    think: float,
    seat_urls: tuple[str, ...] = (),
    cpu: Callable[[], dict[str, float]] | None = None,
    at_start: Callable[[], object] = lambda: None,
) -> tuple[Stats, list[dict[str, float]]]:
    """Run the clients; with ``cpu``, also its readings at the start and the end of the
    measured window. ``at_start`` runs as the window opens (the profiler)."""
    start_at = time.time() + 3.0  # every client process is up and measures the same window
    shares = [games // clients + (1 if n < games % clients else 0) for n in range(clients)]
    context = multiprocessing.get_context("spawn")
    readings: list[dict[str, float]] = []
    timers = [threading.Timer(start_at + warmup - time.time(), at_start)]
    timers += [
        threading.Timer(at - time.time(), lambda: readings.append(cpu()))
        for at in (start_at + warmup, start_at + warmup + duration)
        if cpu is not None
    ]
    for timer in timers:
        timer.start()
    with ProcessPoolExecutor(max_workers=clients, mp_context=context) as pool:
        futures = [
            pool.submit(
                client_process,
                url,
                share,
                sum(shares[:n]),
                start_at,
                duration,
                warmup,
                think,
                seat_urls,
            )
            for n, share in enumerate(shares)
        ]
        results = [future.result() for future in futures]
    total = Stats()
    for result in results:
        total.latencies.extend(result.latencies)
        total.other_latencies.extend(result.other_latencies)
        total.decisions += result.decisions
        total.games += result.games
        total.errors += result.errors
        total.cpu += result.cpu
    for timer in timers:
        timer.join()
    return total, readings


# -- the lobby scenario ---------------------------------------------------------------------


@dataclass
class LobbyStats:
    measuring: bool = False
    seeks: int = 0
    pairings: int = 0
    updates: list[float] = field(default_factory=list)
    pair_latencies: list[float] = field(default_factory=list)
    errors: int = 0
    cpu: float = float("nan")  # the server's CPU seconds over the measured window
    client_cpu: float = float("nan")  # this process's, the same window


@dataclass
class LobbyPlayer:
    name: str
    cookie: str
    ws: Any = None
    busy: bool = False
    posted_at: float = 0.0
    accept_sent_at: float = 0.0
    to_accept: str | None = None  # the name of the poster whose seek this one accepts


async def guest_cookie(client: httpx.AsyncClient, url: str, name: str) -> str:
    response = await client.post(f"{url}/api/me/guest", json={"nickname": name})
    response.raise_for_status()
    cookies = response.headers.get_list("set-cookie")
    return "; ".join(cookie.split(";", 1)[0] for cookie in cookies)


async def lobby_reader(
    player: LobbyPlayer, players: dict[str, LobbyPlayer], stats: LobbyStats
) -> None:
    async for raw in player.ws:
        now = time.perf_counter()
        message = json.loads(raw)
        kind = message["type"]
        if kind == "seek":
            seek = message["seek"]
            poster = players[seek["player"]["name"]]
            if stats.measuring and poster is not player:
                stats.updates.append(now - poster.posted_at)
            if player.to_accept == poster.name:
                player.to_accept = None
                player.accept_sent_at = time.perf_counter()
                await player.ws.send(json.dumps({"type": "accept", "seek": seek["id"]}))
        elif kind == "paired":
            if player.accept_sent_at and stats.measuring:
                stats.pair_latencies.append(now - player.accept_sent_at)
                stats.pairings += 1
            player.accept_sent_at = 0.0
            player.busy = False
        elif kind == "error":
            stats.errors += 1


async def run_lobby(
    url: str,
    count: int,
    rate: float,
    duration: float,
    warmup: float,
    server_cpu: Callable[[], float],
) -> LobbyStats:
    stats = LobbyStats()
    ws_url = url.replace("http", "ws", 1)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        names = [f"p{n}" for n in range(count)]
        cookies = await asyncio.gather(*(guest_cookie(client, url, name) for name in names))
    players = {name: LobbyPlayer(name, cookie) for name, cookie in zip(names, cookies, strict=True)}
    async with contextlib.AsyncExitStack() as stack:
        for player in players.values():
            player.ws = await stack.enter_async_context(
                websockets.connect(
                    f"{ws_url}/lobby/ws", additional_headers={"Cookie": player.cookie}
                )
            )
            json.loads(await player.ws.recv())  # the lobby as it is
        readers = [
            asyncio.create_task(lobby_reader(player, players, stats)) for player in players.values()
        ]
        rng = random.Random(26)
        began = time.perf_counter()
        ticks = 0
        cpu_at_start = client_at_start = float("nan")
        while (elapsed := time.perf_counter() - began) < warmup + duration:
            if not stats.measuring and elapsed >= warmup:
                stats.measuring = True
                cpu_at_start = server_cpu()
                client_at_start = time.process_time()
            idle = [p for p in players.values() if not p.busy]
            if len(idle) >= 2:
                poster, acceptor = rng.sample(idle, 2)
                poster.busy = acceptor.busy = True
                acceptor.to_accept = poster.name
                poster.posted_at = time.perf_counter()
                await poster.ws.send(json.dumps({"type": "seek"}))
                if stats.measuring:
                    stats.seeks += 1
            ticks += 1
            await asyncio.sleep(max(0.0, began + ticks / rate - time.perf_counter()))
        stats.measuring = False
        stats.cpu = server_cpu() - cpu_at_start
        stats.client_cpu = time.process_time() - client_at_start
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    return stats


def lobby_report(args: argparse.Namespace, stats: LobbyStats) -> dict[str, Any]:
    updates = sorted(stats.updates)
    pairs = sorted(stats.pair_latencies)
    return {
        "scenario": "lobby",
        "players": args.players,
        "rate": args.rate,
        "duration": args.duration,
        "seeks_per_second": stats.seeks / args.duration,
        "pairings_per_second": stats.pairings / args.duration,
        "update_samples": len(updates),
        "update_p50_ms": 1000 * percentile(updates, 0.5),
        "update_p99_ms": 1000 * percentile(updates, 0.99),
        "update_max_ms": 1000 * percentile(updates, 1.0),
        "pairing_p50_ms": 1000 * percentile(pairs, 0.5),
        "pairing_p99_ms": 1000 * percentile(pairs, 0.99),
        "server_cpu_share": stats.cpu / args.duration,
        "client_cpu_share": stats.client_cpu / args.duration,
        "errors": stats.errors,
    }


def print_lobby(report: dict[str, Any]) -> None:
    print(
        f"{report['players']} lobby sockets, {report['rate']:g} seeks/s asked,"
        f" measured {report['duration']:g} s"
    )
    print(
        f"seeks: {report['seeks_per_second']:.1f}/s,"
        f" pairings: {report['pairings_per_second']:.1f}/s"
    )
    print(
        f"seek update -> other sockets ({report['update_samples']} samples): p50"
        f" {report['update_p50_ms']:.1f} ms, p99 {report['update_p99_ms']:.1f} ms,"
        f" max {report['update_max_ms']:.1f} ms"
    )
    print(
        f"accept -> paired: p50 {report['pairing_p50_ms']:.1f} ms,"
        f" p99 {report['pairing_p99_ms']:.1f} ms"
    )
    print(
        f"CPU: server {report['server_cpu_share']:.0%}, this client"
        f" {report['client_cpu_share']:.0%} of one core"
    )
    if report["errors"]:
        print(f"refused messages: {report['errors']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="concurrent games (default 500)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean think time per decision in seconds (0: answer at once; default 1)",
    )
    parser.add_argument("--db", help="database URL for the server (default: a fresh SQLite file)")
    parser.add_argument("--url", help="use a running server instead (e.g. http://127.0.0.1:8000)")
    parser.add_argument(
        "--instances",
        type=instance_counts,
        metavar="N[,N...]",
        help="N instances on --db behind nginx (tests/stack.py), driven through nginx;"
        " several counts (1,2,4): one run each, and their decisions per server-CPU-second",
    )
    parser.add_argument(
        "--direct",
        action="store_true",
        help="with --instances: each game's seats straight to two different instances",
    )
    parser.add_argument(
        "--clients", type=int, default=1, help="client processes sharing the games (default 1)"
    )
    parser.add_argument(
        "--scenario", choices=("games", "lobby"), default="games", help="what to load"
    )
    parser.add_argument(
        "--players", type=int, default=1000, help="lobby sockets (lobby; default 1000)"
    )
    parser.add_argument(
        "--rate", type=float, default=10.0, help="seeks posted a second (lobby; default 10)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="alternate this tree's server with git revision REV's, --runs times each",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each with --against")
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="sample the (first) server with py-spy over the measured window into FILE"
        " (.svg: flame graph, .json: speedscope, else folded stacks)",
    )
    args = parser.parse_args()
    counts: list[int] = args.instances or []
    if counts:
        if args.url:
            parser.error("--instances starts its own stack: no --url")
        if not args.db or (max(counts) > 1 and not args.db.startswith("postgresql")):
            parser.error("--instances needs --db: a PostgreSQL URL (one database for all)")
        if len(counts) > 1 and args.scenario == "lobby":
            parser.error("the lobby scenario takes one --instances count")
    elif args.direct:
        parser.error("--direct needs --instances")
    args.instances = counts[0] if counts else None
    if args.scenario == "lobby":
        main_lobby(args)
        return
    if args.against:
        report = compare(args, counts[0] if counts else None)
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            print_comparison(report)
        return
    reports = []
    for count in counts or [0]:
        args.instances = count or None
        reports.append(run_games(args))
    report = scaling_report(reports) if len(reports) > 1 else reports[0]
    if args.json:
        print(json.dumps(report, indent=2))
    elif len(reports) > 1:
        print_scaling(report)
    else:
        print_games(report)


COMPARED = (
    "server_cpu_ms_per_decision",
    "server_event_loop_ms_per_decision",
    "decisions_per_second",
    "decisions_per_server_cpu_second",
)
"""The figures ``--against`` gives the medians of."""


def compare(args: argparse.Namespace, instances: int | None) -> dict[str, Any]:
    """Runs of the server of git revision ``args.against`` and of this tree, in turn."""
    root = Path(__file__).resolve().parent.parent
    args.instances = instances
    runs: dict[str, list[dict[str, Any]]] = {args.against: [], "this tree": []}
    with tempfile.TemporaryDirectory() as scratch:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", args.against, "src"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", scratch], input=archive, check=True)
        paths = {args.against: str(Path(scratch) / "src"), "this tree": str(root / "src")}
        before = os.environ.get("PYTHONPATH")
        try:
            for _ in range(args.runs):
                for label, path in paths.items():
                    os.environ["PYTHONPATH"] = path  # the server processes inherit it
                    runs[label].append(run_apart(args))
        finally:
            os.environ.pop("PYTHONPATH", None)
            if before is not None:
                os.environ["PYTHONPATH"] = before
    medians = {
        label: {key: statistics.median(r[key] for r in reports) for key in COMPARED}
        | {"latency_p99_ms": statistics.median(r["latency"]["p99_ms"] for r in reports)}
        for label, reports in runs.items()
    }
    return {"scenario": "comparison", "medians": medians, "runs": runs}


def print_comparison(report: dict[str, Any]) -> None:
    for label, reports in report["runs"].items():
        each = ", ".join(f"{r['server_cpu_ms_per_decision']:.3f}" for r in reports)
        print(f"{label}: server CPU ms per decision, run by run: {each}")
    for label, median in report["medians"].items():
        print(
            f"{label} (medians): {median['server_cpu_ms_per_decision']:.3f} ms of server CPU"
            f" per decision ({median['server_event_loop_ms_per_decision']:.3f} ms in the"
            f" event loop), {median['decisions_per_second']:.0f} decisions/s,"
            f" {median['decisions_per_server_cpu_second']:,.0f} per server-CPU-second,"
            f" p99 {median['latency_p99_ms']:.1f} ms"
        )


def run_apart(args: argparse.Namespace) -> dict[str, Any]:
    """:func:`run_games` on a database of its own: on PostgreSQL a new schema of ``--db``
    (dropped after), so that servers of two revisions, whose schemas differ, never meet
    one (a server refuses a schema a newer version upgraded); SQLite's file is new each
    run already."""
    if not (args.db or "").startswith("postgresql"):
        return run_games(args)
    from game_browser import postgres_schema

    with postgres_schema(args.db) as url:
        return run_games(argparse.Namespace(**{**vars(args), "db": url}))


def instance_counts(text: str) -> list[int]:
    """``--instances``: one count, or several separated by commas (each at least 1)."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count such as 2 or 1,2,4") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("each count of instances is at least 1")
    return counts


def run_games(args: argparse.Namespace) -> dict[str, Any]:
    """One run of the games scenario (``args.instances`` instances, or one server)."""
    profiler = Profiler(args.profile, args.duration) if args.profile else None
    with contextlib.ExitStack() as stack:
        serving = stack.enter_context(start_serving(args))
        stats, readings = run_clients(
            serving.url,
            args.games,
            max(1, args.clients),
            args.duration,
            args.warmup,
            args.think,
            serving.seat_urls if args.direct else (),
            serving.cpu,
            lambda: profiler.start(serving) if profiler else None,
        )
        if profiler:
            profiler.wait()
    before, after = readings
    return games_report(args, stats, before, after, serving.servers)


@dataclass
class Profiler:
    """py-spy sampling the (first) server process over the measured window, into
    ``path``: a flame graph (``.svg``), speedscope (``.json``) or folded stacks (else)."""

    path: str
    duration: float
    process: subprocess.Popen[bytes] | None = None

    def start(self, serving: Serving) -> None:
        program = Path(sys.executable).with_name("py-spy")
        spy = str(program) if program.exists() else "py-spy"
        kind = {".svg": "flamegraph", ".json": "speedscope"}.get(Path(self.path).suffix, "raw")
        pid = serving.pids[serving.servers[0]][0]
        command = [spy, "record", "--pid", str(pid), "--duration", str(round(self.duration))]
        command += ["--rate", "100", "--format", kind, "--output", self.path]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)

    def wait(self) -> None:
        if self.process is not None:
            self.process.wait(timeout=60)


def scaling_report(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Runs with different counts of instances: each count's decisions per second of
    the instances' CPU, and its ratio to the first count's (1.0: they add up)."""
    rates = {str(r["instances"]): r["decisions_per_server_cpu_second"] for r in reports}
    first = reports[0]["decisions_per_server_cpu_second"]
    return {
        "scenario": "scaling",
        "decisions_per_server_cpu_second": rates,
        "ratio_to_first": {count: rate / first for count, rate in rates.items()},
        "runs": reports,
    }


def print_scaling(report: dict[str, Any]) -> None:
    for run in report["runs"]:
        print_games(run)
        print()
    ratios = report["ratio_to_first"]
    print("decisions per server-CPU-second, by instances (ratio to the first count):")
    for count, rate in report["decisions_per_server_cpu_second"].items():
        print(f"  {count}: {rate:,.0f} ({ratios[count]:.2f})")


@dataclass
class Serving:
    """What the benchmark loads: its address, the instances' own (for ``--direct``), and
    the processes whose CPU is reported, by name."""

    url: str
    seat_urls: tuple[str, ...] = ()
    pids: dict[str, list[int]] = field(default_factory=dict)
    postgres: bool = False  # the database is this machine's PostgreSQL: count its CPU
    servers: tuple[str, ...] = ()  # the names of ``pids`` that are server processes

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of each named group of processes, and of the whole machine
        (``machine``: every core's busy time, whatever ran)."""
        shares = {
            name: sum(cpu_seconds(pid) for pid in pids if Path(f"/proc/{pid}").exists())
            for name, pids in self.pids.items()
        }
        for name in self.servers:
            # The main thread runs the event loop; the others are the writer's, the
            # blocking reads' (asyncio.to_thread) and SQLite's checkpoints.
            loop = sum(cpu_seconds(pid, pid) for pid in self.pids[name])
            shares[f"{name}: event loop"] = loop
        if self.postgres:
            shares["postgres"] = postgres_cpu_seconds()
        if self.pids:
            shares["machine"] = machine_busy_seconds()
        return shares


@contextlib.contextmanager
def start_serving(args: argparse.Namespace) -> Iterator[Serving]:
    """A running server at ``--url``, N instances behind nginx (``--instances``), or
    one server process on ``--db`` (a fresh SQLite file without it)."""
    if args.url:
        yield Serving(args.url.rstrip("/"))
    elif args.instances:
        # tests/stack.py is the one implementation of the stack (scripts/stack's, the
        # deployment tests'); benchmarks are scripts, not a package.
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from stack import Stack

        with Stack(args.db, args.instances, options=SERVER_OPTIONS) as running:
            pids = {f"instance {n + 1}": [i.pid] for n, i in enumerate(running.instances)}
            servers = tuple(pids)
            pids["nginx"] = running.nginx_pids()
            urls = tuple(i.url for i in running.instances)
            yield Serving(running.url, urls, pids, _local_postgres(args.db), servers)
    else:
        with server_process(args.db) as (url, pid):
            yield Serving(url, (), {"server": [pid]}, _local_postgres(args.db), ("server",))


def _local_postgres(db_url: str | None) -> bool:
    host = (db_url or "").partition("@")[2].split("/", 1)[0].rsplit(":", 1)[0]
    return bool(db_url and db_url.startswith("postgresql") and host in LOCAL_HOSTS)


LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "")


def games_report(
    args: argparse.Namespace,
    stats: Stats,
    cpu_before: dict[str, float],
    cpu_after: dict[str, float],
    servers: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The figures, CPU as a share of one core over the measured window, and the server
    processes' (``servers``) CPU per decision."""

    return {
        "scenario": "games",
        "games": args.games,
        "instances": args.instances,
        "seats": "direct" if args.direct else ("nginx" if args.instances else "server"),
        "think": args.think,
        "duration": args.duration,
        "warmup": args.warmup,
        "finished_games": stats.games,
        "games_per_second": stats.games / args.duration,
        "decisions": stats.decisions,
        "decisions_per_second": stats.decisions / args.duration,
        "latency": latency_figures(stats.latencies),
        "other_seat_latency": latency_figures(stats.other_latencies),
        "cpu_share": {
            name: (cpu_after[name] - cpu_before[name]) / args.duration for name in cpu_before
        },
        "client_cpu_share": stats.cpu / args.duration,
        **server_cpu(stats.decisions, {s: cpu_after[s] - cpu_before[s] for s in servers}),
        "server_event_loop_ms_per_decision": sum(
            1000 * (cpu_after[f"{s}: event loop"] - cpu_before[f"{s}: event loop"]) for s in servers
        )
        / max(1, stats.decisions),
        "errors": stats.errors,
    }


def server_cpu(decisions: int, used: dict[str, float]) -> dict[str, Any]:
    """The server processes' CPU (seconds each, ``used``) per decision, in all and per
    process, and the decisions per second of their CPU (NaN when not measured)."""
    total = sum(used.values()) if used else float("nan")
    return {
        "server_cpu_seconds": total,
        "server_cpu_ms_per_decision": 1000 * total / decisions if decisions else float("nan"),
        "server_cpu_ms_per_decision_by_instance": {
            name: 1000 * seconds / decisions if decisions else float("nan")
            for name, seconds in used.items()
        },
        "decisions_per_server_cpu_second": decisions / total if total > 0 else float("nan"),
    }


def print_games(report: dict[str, Any]) -> None:
    where = ""
    if report["instances"]:
        how = "seats straight to instances" if report["seats"] == "direct" else "all through nginx"
        where = f", {report['instances']} instance(s) behind nginx ({how})"
    print(
        f"{report['games']} concurrent games, think {report['think']:g} s, measured"
        f" {report['duration']:g} s (after {report['warmup']:g} s warm-up){where}"
    )
    print(f"finished games: {report['finished_games']} ({report['games_per_second']:.1f} games/s)")
    print(f"decisions: {report['decisions']} ({report['decisions_per_second']:.0f}/s)")
    for label, key in (
        ("latency send -> update", "latency"),
        ("latency send -> other seat's update", "other_seat_latency"),
    ):
        shown = report[key]
        print(
            f"{label}: p50 {shown['p50_ms']:.1f} ms, p90 {shown['p90_ms']:.1f} ms,"
            f" p99 {shown['p99_ms']:.1f} ms, max {shown['max_ms']:.1f} ms"
            f" (mean {shown['mean_ms']:.1f} ms)"
        )
    cpu = dict(report["cpu_share"])
    machine = cpu.pop("machine", None)
    shares = ", ".join(f"{name} {share:.0%}" for name, share in cpu.items())
    print(
        f"CPU (share of one core over the measured window): {shares + ', ' if shares else ''}"
        f"client processes {report['client_cpu_share']:.0%}"
    )
    if machine is not None:
        print(
            f"the whole machine: {machine:.2f} of its {os.cpu_count()} cores busy"
            " (whatever ran: these processes and any other)"
        )
    by_instance = report["server_cpu_ms_per_decision_by_instance"]
    if by_instance:
        each = ", ".join(f"{name} {ms:.3f}" for name, ms in by_instance.items())
        print(
            f"server CPU per decision: {report['server_cpu_ms_per_decision']:.3f} ms"
            f" ({each}); {report['decisions_per_server_cpu_second']:,.0f} decisions"
            " per server-CPU-second"
        )
    if report["errors"]:
        print(f"refused decisions: {report['errors']}")


def main_lobby(args: argparse.Namespace) -> None:
    with contextlib.ExitStack() as stack:
        serving = stack.enter_context(start_serving(args))
        gc.disable()

        def server_cpu() -> float:
            if not serving.pids:
                return float("nan")
            return sum(cpu for name, cpu in serving.cpu().items() if name in serving.pids)

        stats = _run_lobby_loop(
            run_lobby(serving.url, args.players, args.rate, args.duration, args.warmup, server_cpu)
        )
    report = lobby_report(args, stats)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_lobby(report)


def _run_lobby_loop(main: Coroutine[Any, Any, LobbyStats]) -> LobbyStats:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


if __name__ == "__main__":
    main()
