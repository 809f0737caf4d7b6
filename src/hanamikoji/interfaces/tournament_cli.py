"""The ``hanamikoji tournament`` subcommand: a Swiss or an arena among bots and engines.

``hanamikoji tournament --swiss ROUNDS A B C ...`` plays a Swiss tournament of ROUNDS
rounds, ``--arena MINUTES`` an arena of that many minutes (``--games N``: one that
ends after N games, alone or with ``--arena``), with the pairing and scoring of
:mod:`hanamikoji.tournaments` (the web server's), on the arena's backends; it prints
the standings with their tiebreaks, or JSON with ``--json``, and writes every game's
record into one file with ``--records FILE``. ``docs/tournaments.md`` explains it.
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections.abc import Sequence
from pathlib import Path

from hanamikoji.arena.backends import make_backend
from hanamikoji.arena.games import MatchConfig
from hanamikoji.bots.base import NumberRange
from hanamikoji.core import UnknownVariantError, Variant
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.extras import MissingExtraError
from hanamikoji.interfaces.arena_cli import (
    Rows,
    backend_options,
    engine_argument,
    player_specs,
    report_console,
    rich_table,
)
from hanamikoji.interfaces.cli import Command, Streams, fail, register_command
from hanamikoji.interfaces.exits import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from hanamikoji.interfaces.options import (
    MAX_COUNT,
    UsageError,
    number,
    positive_milliseconds,
    seed,
    whole_number,
)
from hanamikoji.notation.record_files import records_to_json, records_to_text
from hanamikoji.notation.records import GameRecord
from hanamikoji.tournaments import Arena, Swiss, standings
from hanamikoji.tournaments.running import Field, Limit, Played, run_arena, run_swiss

__all__ = ["arena_rows", "configure_tournament", "run_tournament", "swiss_rows"]

MAX_ROUNDS = 1000
MAX_MINUTES = 7 * 24 * 60
DEFAULT_FIRST_SEED = 1


def configure_tournament(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="bots by name or spec (greedy, level:3, ismcts:iterations=800, ...) or engines"
        " named by --engine, two or more; a name given twice plays as NAME and NAME#2",
    )
    engine_argument(parser)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--swiss",
        type=whole_number(1, MAX_ROUNDS, "a number of rounds"),
        metavar="ROUNDS",
        help="a Swiss tournament of ROUNDS rounds",
    )
    kind.add_argument(
        "--arena",
        type=number(NumberRange(0.0, float(MAX_MINUTES), above=True), "minutes"),
        metavar="MINUTES",
        help="an arena of MINUTES minutes: whoever is free is paired again at once",
    )
    parser.add_argument(
        "--games",
        type=whole_number(1, MAX_COUNT, "a number of games"),
        metavar="N",
        help="an arena that ends when N games have ended (with --arena: at the time or"
        " after N games, whichever comes first)",
    )
    parser.add_argument(
        "--variant", default="classic", metavar="NAME", help="rules variant (default: classic)"
    )
    parser.add_argument(
        "--budget",
        type=positive_milliseconds,
        metavar="MS",
        help="thinking time per decision in milliseconds, for every bot (default: each bot's own)",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=DEFAULT_FIRST_SEED,
        metavar="S",
        help="the first game's seed; the n-th game paired plays seed S+n-1 (default: 1)",
    )
    backend_options(parser)
    parser.add_argument(
        "--records",
        type=Path,
        metavar="FILE",
        help="write every game's record into FILE: a JSON array if it ends in .json, else"
        " the text form, the records one after another",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the tournament and standings as JSON"
    )


def run_tournament(args: argparse.Namespace, streams: Streams) -> int:
    if args.swiss is None and args.arena is None and args.games is None:
        raise UsageError("one of --swiss ROUNDS, --arena MINUTES or --games N is required")
    if args.swiss is not None and args.games is not None:
        raise UsageError("--games bounds an arena, not a Swiss tournament")
    try:
        variant = Variant.by_name(args.variant)
    except UnknownVariantError as error:
        return fail(streams, str(error))
    names: list[str] = args.players
    if len(names) < 2:
        return fail(streams, "a tournament needs at least two players")
    try:
        players = player_specs(names, args.engine)
    except ValueError as error:
        return fail(streams, str(error))
    most_games = _most_games(args, len(names))
    if most_games is not None and args.seed + most_games - 1 > MAX_SEED:
        raise UsageError(f"argument --seed: the last seed would be past {MAX_SEED}")
    budget = None if args.budget is None else args.budget / 1000
    config = MatchConfig(variant.name, budget, datetime.date.today().strftime("%Y.%m.%d"))
    field = Field(tuple(players), config, args.seed)
    try:
        backend = make_backend(args.backend, args.jobs)
    except ImportError as error:  # Ray without its extra
        return fail(streams, str(error), EXIT_ERROR)
    played: list[Played] = []
    try:
        if args.swiss is not None:
            event: Swiss | Arena = run_swiss(
                Swiss(args.swiss, field.entrants()), field, backend, played.append
            )
        else:
            limit = Limit(None if args.arena is None else 60 * args.arena, args.games)
            event = run_arena(Arena(field.entrants()), field, backend, limit, played.append)
    except MissingExtraError as error:
        return fail(streams, str(error), EXIT_ERROR)
    except KeyboardInterrupt:
        streams.stderr.write("interrupted\n")
        return EXIT_INTERRUPTED
    if args.records is not None:
        try:
            _write_records(args.records, _in_event_order(event, played))
        except OSError as error:
            return fail(streams, f"{args.records}: {error.strerror or error}", EXIT_ERROR)
    if args.json:
        streams.stdout.write(json.dumps(_report(event, args, backend.name), indent=2) + "\n")
        return EXIT_OK
    console = report_console(streams.stdout)
    if isinstance(event, Swiss):
        title = f"Swiss, {len(event.played)} rounds, {variant.name}"
        console.print(rich_table(title, swiss_rows(event), text_columns=2))
        console.print("Tiebreaks: Buchholz (BH), then Sonneborn-Berger (SB); a bye scores 1.")
    else:
        title = f"Arena, {sum(g.result is not None for g in event.games)} games, {variant.name}"
        console.print(rich_table(title, arena_rows(event), text_columns=2))
        console.print("Points: win 2, draw 1; after two wins in a row, double until a non-win.")
    if args.records is not None:
        console.print(f"Records: {args.records}")
    return EXIT_OK


def _most_games(args: argparse.Namespace, players: int) -> int | None:
    """The most games the tournament can pair (None: bounded by time alone)."""
    if args.swiss is not None:
        rounds: int = args.swiss
        return rounds * (players // 2)
    if args.games is not None:
        # Up to every player's game still on when the last counted game ends.
        games: int = args.games
        return games + players // 2
    return None


def _in_event_order(event: Swiss | Arena, played: Sequence[Played]) -> list[GameRecord]:
    """The records of the games played, in the order they were paired."""
    by_seed = {game.result.seed: game for game in played}
    if isinstance(event, Swiss):
        games = [p.game for r in event.played for p in r.pairings]
    else:
        games = [p.game for p in event.games if p.result is not None]
    return [by_seed[int(game)].record() for game in games if game is not None]


def _write_records(path: Path, records: Sequence[GameRecord]) -> None:
    text = records_to_json(records) if path.suffix == ".json" else records_to_text(records)
    path.write_text(text, encoding="utf-8")


def _report(event: Swiss | Arena, args: argparse.Namespace, backend: str) -> dict[str, object]:
    lines = standings(event) if isinstance(event, Swiss) else event.standings()
    return {
        "kind": "swiss" if isinstance(event, Swiss) else "arena",
        "variant": args.variant,
        "first_seed": args.seed,
        "backend": backend,
        "records": None if args.records is None else str(args.records),
        "standings": [line.to_json() for line in lines],
        "tournament": event.to_json(),
    }


def _points(value: float) -> str:
    return f"{value:g}"


def swiss_rows(event: Swiss) -> Rows:
    """The Swiss standings: rank, player, score, tiebreaks, results, byes."""
    header = ["#", "player", "rating", "score", "BH", "SB", "won", "drawn", "lost", "byes"]
    rows = [
        [
            str(line.rank),
            line.name if line.active else f"{line.name} (withdrawn)",
            str(line.rating),
            _points(line.score),
            _points(line.buchholz),
            _points(line.sonneborn_berger),
            str(line.wins),
            str(line.draws),
            str(line.losses),
            str(line.byes),
        ]
        for line in standings(event)
    ]
    return header, rows


SHEET = 12
"""The games of a player's sheet shown: the last ones."""


def _sheet(points: Sequence[int]) -> str:
    """What each game was worth, the last :data:`SHEET` of them.

    >>> _sheet([2, 2, 4]), _sheet(list(range(14)))
    ('2 2 4', '… 2 3 4 5 6 7 8 9 10 11 12 13')
    """
    shown = " ".join(str(value) for value in points[-SHEET:])
    return shown if len(points) <= SHEET else f"… {shown}"


def arena_rows(event: Arena) -> Rows:
    """The arena standings: rank, player, points, streak, performance, results, and what
    their last games were worth."""
    header = ["#", "player", "rating", "points", "games", "won", "drawn", "lost", "perf", "sheet"]
    rows = [
        [
            str(line.rank),
            line.name + (" (on fire)" if line.fire else ""),
            str(line.rating),
            str(line.points),
            str(line.games),
            str(line.wins),
            str(line.draws),
            str(line.losses),
            "" if line.performance is None else str(line.performance),
            _sheet(line.sheet),
        ]
        for line in event.standings()
    ]
    return header, rows


register_command(
    Command(
        "tournament",
        "a Swiss or arena tournament among bots and engines, with standings and tiebreaks",
        configure_tournament,
        run_tournament,
    )
)
