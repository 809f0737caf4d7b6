"""The game browser at scale: a fresh database filled with finished games among many
players, then the time to list 20 games of one player (the issue's goal: under 50 ms
among 1,000,000 games).

Run: ``.venv/bin/python benchmarks/game_browser.py [--games 1000000] [--players 10000]
[--queries 300] [--db postgresql+psycopg://user:password@host/db] [--json]``

A fresh SQLite file (in a temporary directory) gets the server's schema (its migrations,
as ``hanamikoji serve`` makes it) and ``--games`` games, inserted with ``executemany`` in
batches of ``--batch`` rows: two seats each between ``--players`` accounts (a quarter of
the games against a bot: one seat), their variant, result, rated or not and start spread
over two years; 5% of them private and 2% still in play, which no search may list. One
account, the "heavy" player, sits in ``--heavy`` of all games (2%: 20,000 of a million),
as the most active players of a site do. With ``--db``, the same is done in a new schema
of that PostgreSQL database (dropped at the end), after ``ANALYZE``.

Then each query is timed ``--queries`` times (median and p99, ms), as the route runs it
(``browser/service.py``: the account by its name, a page of 21 games, the names at
their seats): the first page of a random player's games; the same for the heavy player;
the newest games of everyone; a random player's won games in one variant; the page after
a cursor. ``--json`` prints every figure as one JSON object.
"""

from __future__ import annotations

import argparse
import base64
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import cpu_model
from sqlalchemy import create_engine, insert, make_url, text

from hanamikoji.interfaces.web.browser.filters import Filters
from hanamikoji.interfaces.web.browser.store import BrowserStore
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import game_seats, games, players, private_games

PAGE = 20
START = datetime(2024, 1, 1, tzinfo=UTC)
SPAN_SECONDS = 2 * 365 * 86_400
VARIANTS = ("classic", "classic", "classic", "three-rounds", "french")
RESULTS = ("1-0", "1-0", "0-1", "0-1", "1/2-1/2", "*")


def _game_id(rng: random.Random) -> str:
    return base64.urlsafe_b64encode(rng.randbytes(9)).decode()


def player_name(index: int) -> str:
    return f"Player{index}"


def fill(
    store: Store,
    n_games: int,
    n_players: int,
    *,
    seed: int = 1,
    heavy: float = 0.02,
    batch: int = 50_000,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Fill ``store`` (empty, migrated) with ``n_players`` accounts and ``n_games`` games
    (account 0 in a ``heavy`` share of them), a batch of rows per ``executemany``."""
    rng = random.Random(seed)
    now = datetime.now(UTC)
    with store.transaction() as connection:
        for first in range(0, n_players, batch):
            connection.execute(
                insert(players),
                [
                    {
                        "id": f"p{index}",
                        "kind": "account",
                        "name": player_name(index),
                        "name_key": player_name(index).casefold(),
                        "password_hash": "$argon2id$benchmark",
                        "created": now,
                    }
                    for index in range(first, min(n_players, first + batch))
                ],
            )
    made = 0
    while made < n_games:
        size = min(batch, n_games - made)
        game_rows, seat_rows, private_rows = [], [], []
        for _ in range(size):
            game_id = _game_id(rng)
            created = START + timedelta(seconds=rng.random() * SPAN_SECONDS)
            bot_seat = rng.choice((0, 1)) if rng.random() < 0.25 else None
            playing = rng.random() < 0.02
            result = None if playing else rng.choice(RESULTS)
            game_rows.append(
                {
                    "id": game_id,
                    "variant": rng.choice(VARIANTS),
                    "seed": rng.randrange(1 << 53),
                    "first_player": rng.randrange(2),
                    "token_hash_0": None,
                    "token_hash_1": None,
                    "bot_seat": bot_seat,
                    "bot_level": None if bot_seat is None else rng.randint(1, 8),
                    "created": created,
                    "status": "playing" if playing else "finished",
                    "result": result,
                    "rematch_id": None,
                    "termination": "aborted" if result == "*" else None,
                    "rated": rng.random() < 0.5,
                    "owner": None,
                }
            )
            people = rng.sample(range(1, n_players), 2)
            if rng.random() < heavy:
                people[rng.randrange(2)] = 0
            for seat in (0, 1):
                if seat != bot_seat:
                    seat_rows.append(
                        {
                            "game_id": game_id,
                            "seat": seat,
                            "player_id": f"p{people[seat]}",
                            "claimed": created,
                            "game_created": created,
                        }
                    )
            if rng.random() < 0.05:
                private_rows.append({"game_id": game_id, "created": created})
        with store.transaction() as connection:
            connection.execute(insert(games), game_rows)
            connection.execute(insert(game_seats), seat_rows)
            if private_rows:
                connection.execute(insert(private_games), private_rows)
        made += size
        if progress is not None:
            progress(made)


def page(
    browser: BrowserStore, filters: Filters, cursor: Any = None
) -> tuple[list[Any], dict[Any, Any]]:
    """One page as the route reads it: the account, 21 games, the names at their seats."""
    player_id = None
    if filters.player is not None:
        account = browser.account(filters.player)
        assert account is not None
        player_id = account.id
    found = browser.search(filters, player_id, cursor, PAGE + 1)
    return found, browser.holders([game.id for game in found[:PAGE]])


def timed(run: Callable[[], object], repeats: int) -> dict[str, float]:
    """The median and p99 (and max) of ``repeats`` runs, in ms."""
    run()  # warm the caches once
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return {"median_ms": statistics.median(times), "p99_ms": p99, "max_ms": times[-1]}


def measure(store: Store, n_players: int, repeats: int, seed: int) -> dict[str, Any]:
    """Each query's times (see the module's docstring)."""
    browser = BrowserStore(store)
    rng = random.Random(seed)

    def some_player() -> Filters:
        return Filters(player=player_name(rng.randrange(1, n_players)))

    first_page, _ = page(browser, Filters(player=player_name(0)))
    after = first_page[PAGE - 1].cursor if len(first_page) > PAGE else None
    runs: dict[str, Callable[[], object]] = {
        "player": lambda: page(browser, some_player()),
        "heavy_player": lambda: page(browser, Filters(player=player_name(0))),
        "everyone": lambda: page(browser, Filters()),
        "player_won_classic": lambda: page(
            browser,
            Filters(player=some_player().player, variant="classic", result="won"),
        ),
        "heavy_player_next_page": lambda: page(browser, Filters(player=player_name(0)), after),
    }
    return {name: timed(run, repeats) for name, run in runs.items()}


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A new schema of the database ``url`` (first on the search path), dropped on exit."""
    admin = create_engine(url)
    name = f"bench_browser_{random.randrange(1 << 32):08x}"
    with admin.begin() as connection:
        connection.exec_driver_sql(f'CREATE SCHEMA "{name}"')
    try:
        scoped = make_url(url).update_query_dict({"options": f"-csearch_path={name}"})
        yield scoped.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f'DROP SCHEMA "{name}" CASCADE')
        admin.dispose()


def run_on(url: str, args: argparse.Namespace, label: str) -> dict[str, Any]:
    store = Store(url)
    try:
        began = time.perf_counter()

        def progress(made: int) -> None:
            if not args.json:
                print(f"  {label}: {made:,} games", file=sys.stderr, end="\r")

        fill(
            store,
            args.games,
            args.players,
            seed=args.seed,
            heavy=args.heavy,
            batch=args.batch,
            progress=progress,
        )
        filled = time.perf_counter() - began
        with store.transaction() as connection:
            connection.execute(text("ANALYZE"))  # the planners' statistics, as in service
        heavy_games = _count_games(store, "p0")
        times = measure(store, args.players, args.queries, args.seed)
    finally:
        store.close()
    return {"database": label, "fill_seconds": filled, "heavy_games": heavy_games, **times}


def _count_games(store: Store, player_id: str) -> int:
    with store.connection() as connection:
        count = connection.execute(
            text("SELECT count(*) FROM game_seats WHERE player_id = :p"), {"p": player_id}
        ).scalar_one()
    return int(count)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--heavy", type=float, default=0.02, help="the heavy player's share")
    parser.add_argument("--queries", type=int, default=300, help="timed runs of each query")
    parser.add_argument("--batch", type=int, default=50_000, help="rows per executemany")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="also a PostgreSQL database (a new schema of it)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        results.append(run_on(f"sqlite:///{Path(folder) / 'games.sqlite3'}", args, "sqlite"))
    if args.db:
        with postgres_schema(args.db) as url:
            results.append(run_on(url, args, "postgresql"))
    report = {
        "games": args.games,
        "players": args.players,
        "queries": args.queries,
        "date": datetime.now(UTC).date().isoformat(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "results": results,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.games:,} games among {args.players:,} players; {report['cpu']}")
    for result in results:
        print(
            f"{result['database']}: filled in {result['fill_seconds']:.0f} s;"
            f" the heavy player has {result['heavy_games']:,} games"
        )
        for name, value in result.items():
            if isinstance(value, dict):
                print(
                    f"  {name:24} median {value['median_ms']:7.2f} ms"
                    f"  p99 {value['p99_ms']:7.2f} ms  max {value['max_ms']:7.2f} ms"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
