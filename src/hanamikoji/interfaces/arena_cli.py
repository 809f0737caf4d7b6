"""The ``hanamikoji arena`` subcommand: matches and round-robins between bots.

``hanamikoji arena A B --games N`` plays N games (N/2 seeds, each twice with the seats
swapped) and prints wins, draws and losses, the score rate with its 95% Wilson interval
and the Elo difference with its interval; ``--round-robin A B C ...`` plays every pair
and prints a table; ``--json`` prints the same for machines. ``docs/arena.md`` explains
the method.
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from hanamikoji.arena.backends import BACKENDS, Backend, make_backend
from hanamikoji.arena.games import GameResult, MatchConfig
from hanamikoji.arena.players import PlayerSpec, players_from_names
from hanamikoji.arena.runner import Plan, RecordWriter, default_records_dir, run_plan
from hanamikoji.arena.summary import MatchSummary, PlayerTiming, TournamentSummary
from hanamikoji.core import UnknownVariantError, Variant
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.interfaces.cli import Command, Streams, fail, register_command
from hanamikoji.interfaces.exits import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from hanamikoji.interfaces.options import (
    UsageError,
    command_line,
    jobs,
    positive_int,
    positive_milliseconds,
    seed,
)
from hanamikoji.interfaces.styled import (
    BarColumn,
    Console,
    MofNCompleteColumn,
    Progress,
    Table,
    TextColumn,
    TimeRemainingColumn,
)

__all__ = [
    "Rows",
    "backend_options",
    "configure_arena",
    "engine_argument",
    "engine_option",
    "match_rows",
    "plan_header",
    "play_with_progress",
    "player_specs",
    "report_console",
    "rich_table",
    "round_robin_rows",
    "run_arena",
    "timing_rows",
]

DEFAULT_GAMES = 100
DEFAULT_FIRST_SEED = 1
REPORT_WIDTH = 120


def engine_option(text: str) -> tuple[str, str]:
    """An argparse type: ``--engine NAME=CMD``, as ``(name, command line)``."""
    name, equals, command = text.partition("=")
    name, command = name.strip(), command.strip()
    if not equals or not name or not command:
        raise argparse.ArgumentTypeError(f"expected NAME=COMMAND, not {text!r}")
    return name, command_line(command)


def engine_argument(parser: argparse.ArgumentParser) -> None:
    """``--engine NAME=CMD``: an external engine playing as a named player (the arena's
    and the tournament's)."""
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        type=engine_option,
        metavar="NAME=CMD",
        help="an external engine (docs/protocol.md) playing as NAME, started with the"
        " command line CMD; then use NAME as a PLAYER. May be given several times",
    )


def backend_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--backend``: where the games are played (the arena's and the
    tournament's)."""
    parser.add_argument(
        "--jobs",
        type=jobs,
        metavar="J",
        help="worker processes, or CPUs of a local Ray instance (default: all CPUs)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="processes",
        help="processes on this machine (default), or Ray: the cluster at RAY_ADDRESS, else"
        " a local instance (needs the extra: pip install 'hanamikoji[ray]')",
    )


def configure_arena(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="bots by name (see 'hanamikoji bots'), bots with options set"
        " (NAME:OPTION=VALUE,..., e.g. ismcts:iterations=800) or engines named by --engine:"
        " two for a match, two or more with --round-robin; a name given twice plays as NAME"
        " and NAME#2",
    )
    engine_argument(parser)
    parser.add_argument(
        "--round-robin",
        action="store_true",
        help="every pair of players plays a match; prints a table and a ranking",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=DEFAULT_GAMES,
        metavar="N",
        help=f"games per pair of players, an even number: N/2 seeds each played twice with"
        f" the seats swapped; an odd N is rounded up (default: {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--variant", default="classic", metavar="NAME", help="rules variant (default: classic)"
    )
    parser.add_argument(
        "--budget",
        type=positive_milliseconds,
        metavar="MS",
        help="thinking time per decision in milliseconds, for every bot (default: each"
        " bot's own); a soft limit: decisions over it are counted as overtime",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=DEFAULT_FIRST_SEED,
        metavar="S",
        help=f"the first seed; the games use seeds S, S+1, ... (default: {DEFAULT_FIRST_SEED})",
    )
    backend_options(parser)
    records = parser.add_mutually_exclusive_group()
    records.add_argument(
        "--records",
        type=Path,
        metavar="DIR",
        help="where every game's record and summary.json go"
        " (default: arena-records/YYYYMMDD-HHMMSS)",
    )
    records.add_argument("--no-records", action="store_true", help="save no records")
    parser.add_argument(
        "--json", action="store_true", help="print the summary as JSON instead of tables"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no notes")


def player_specs(names: Sequence[str], engines: Sequence[tuple[str, str]]) -> list[PlayerSpec]:
    """The players named on the command line, ``engines`` the ``--engine`` options
    (name, command line). Raises ``ValueError``: an engine given twice or not among the
    players, an unknown bot."""
    commands: dict[str, str] = {}
    for name, command in engines:
        if name in commands:
            raise ValueError(f"the engine {name!r} is given twice")
        commands[name] = command
    unused = [name for name in commands if name not in names]
    if unused:
        raise ValueError(f"the engine {unused[0]!r} is not among the players {list(names)}")
    return players_from_names(names, commands)


def run_arena(args: argparse.Namespace, streams: Streams) -> int:
    errors = Console(file=streams.stderr, highlight=False, markup=False, emoji=False)

    def note(text: str) -> None:
        if not args.quiet:
            errors.print(text)

    try:
        variant = Variant.by_name(args.variant)
    except UnknownVariantError as error:
        return fail(streams, str(error))
    names: list[str] = args.players
    if args.round_robin and len(names) < 2:
        return fail(streams, "a round-robin needs at least two players")
    if not args.round_robin and len(names) != 2:
        return fail(
            streams, f"a match is between two players, not {len(names)} (or use --round-robin)"
        )
    try:
        players = player_specs(names, args.engine)
    except ValueError as error:
        return fail(streams, str(error))
    games: int = args.games
    if games % 2:
        games += 1
        note(f"note: {args.games} games rounded up to {games}: every seed is played twice")
    last_seed = args.seed + games // 2 - 1
    if last_seed > MAX_SEED:
        raise UsageError(
            f"argument --seed: {games} games use seeds {args.seed} to {last_seed}; the last"
            f" seed is at most {MAX_SEED}"
        )
    budget = None if args.budget is None else args.budget / 1000
    config = MatchConfig(variant.name, budget, datetime.date.today().strftime("%Y.%m.%d"))
    plan = (
        Plan.round_robin(players, games, args.seed, config)
        if args.round_robin
        else Plan.match(players[0], players[1], games, args.seed, config)
    )
    try:
        backend = make_backend(args.backend, args.jobs)
    except ImportError as error:  # Ray without its extra
        return fail(streams, str(error), EXIT_ERROR)

    writer: RecordWriter | None = None
    if not args.no_records:
        directory: Path = args.records if args.records is not None else _fresh_records_dir()
        try:
            writer = RecordWriter(directory)
        except OSError as error:
            return fail(streams, f"{directory}: {error.strerror or error}", EXIT_ERROR)

    try:
        summary = play_with_progress(plan, backend, writer, errors, args.quiet)
    except KeyboardInterrupt:
        errors.print("interrupted")
        if writer is not None:
            errors.print(f"records so far: {writer.directory}")
        return EXIT_INTERRUPTED

    report = _report(plan, backend, summary, writer, args.round_robin)
    if writer is not None:
        writer.write_summary(report)
    if args.json:
        streams.stdout.write(json.dumps(report, indent=2) + "\n")
        streams.stdout.flush()
        return EXIT_OK
    console = report_console(streams.stdout)
    if args.round_robin:
        _show_round_robin(console, plan, summary)
    else:
        _show_match(console, plan, summary.matches[0])
    _show_timing(console, summary)
    _show_forfeits(console, summary)
    if writer is not None:
        console.print(f"Records: {writer.directory}")
    return EXIT_OK


def report_console(stdout: TextIO) -> Console:
    """A console for reports: plain text, and 120 columns when not a terminal, so that
    piped or saved tables keep one line per row."""
    console = Console(file=stdout, highlight=False, markup=False, emoji=False)
    if not console.is_terminal:
        console.width = REPORT_WIDTH
    return console


def _fresh_records_dir() -> Path:
    directory = default_records_dir()
    candidate, number = directory, 1
    while candidate.exists():
        number += 1
        candidate = directory.with_name(f"{directory.name}-{number}")
    return candidate


def play_with_progress(
    plan: Plan,
    backend: Backend,
    writer: RecordWriter | None,
    errors: Console,
    quiet: bool,
) -> TournamentSummary:
    """Run ``plan`` with a progress bar on ``errors`` (none when it is not a terminal or
    with ``quiet``), saving records as batches finish."""
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=errors,
        disable=quiet or not errors.is_terminal,
    )
    with progress:
        task = progress.add_task("games", total=plan.total_games)

        def on_results(games: Sequence[GameResult]) -> None:
            if writer is not None:
                writer.write(games)
            progress.advance(task, len(games))

        return run_plan(plan, backend, on_results)


def _report(
    plan: Plan,
    backend: Backend,
    summary: TournamentSummary,
    writer: RecordWriter | None,
    round_robin: bool,
) -> dict[str, object]:
    return {
        "kind": "round-robin" if round_robin else "match",
        **plan.describe(),
        "backend": backend.name,
        "jobs": backend.workers if backend.name == "processes" else None,
        "records": None if writer is None else str(writer.directory),
        **summary.to_json(),
    }


# -- tables ------------------------------------------------------------------------------

Rows = tuple[list[str], list[list[str]]]
"""A table as text: its header and its rows (shown with rich here, as Markdown by
``benchmarks/strength.py``)."""


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _rate_with_interval(rate: float, low: float, high: float) -> str:
    return f"{_percent(rate)} [{100 * low:.1f}, {100 * high:.1f}]"


def _elo(value: float) -> str:
    """An Elo difference to the point, signed; one that rounds to nothing is ``0``.

    >>> [_elo(value) for value in (-0.4, 0.3, -12.6, 7.5)]
    ['0', '0', '-13', '+8']
    """
    points = round(value)
    return f"{points:+d}" if points else "0"


def _rate(per_second: float) -> str:
    return f"{per_second:,.0f}" if per_second >= 100 else f"{per_second:.1f}"


def _points(value: float) -> str:
    return f"{value:g}"


def plan_header(plan: Plan) -> str:
    """The conditions of a match or round-robin in one line."""
    seeds = plan.seeds
    budget = plan.config.budget
    time_control = "each bot's own budget" if budget is None else f"{budget * 1000:g} ms/decision"
    which = f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {seeds[0]}-{seeds[-1]}"
    return (
        f"{plan.config.variant}, {plan.games} games per pair ({which}, each played twice"
        f" with the seats swapped), {time_control}"
    )


def match_rows(match: MatchSummary) -> Rows:
    """Both players' wins, draws, losses, score rate and Elo difference with 95% intervals."""
    header = ["player", "wins", "draws", "losses", "score", "score rate [95%]", "Elo [95%]"]
    games = len(match.games)
    low, high = match.interval
    elo_low, elo_high = match.elo_interval
    rows = [
        [
            match.a,
            str(match.wins),
            str(match.draws),
            str(match.losses),
            f"{_points(match.score)}/{games}",
            _rate_with_interval(match.rate, low, high),
            f"{_elo(match.elo)} [{_elo(elo_low)}, {_elo(elo_high)}]",
        ],
        [
            match.b,
            str(match.losses),
            str(match.draws),
            str(match.wins),
            f"{_points(games - match.score)}/{games}",
            _rate_with_interval(1 - match.rate, 1 - high, 1 - low),
            f"{_elo(-match.elo)} [{_elo(-elo_high)}, {_elo(-elo_low)}]",
        ],
    ]
    return header, rows


def round_robin_rows(summary: TournamentSummary) -> Rows:
    """Players ranked by total score rate; each cell the row player's score rate against
    the column player, with its 95% interval."""
    standings = summary.standings()
    header = ["#", "player", *(f"vs {s.label}" for s in standings), "score", "score rate [95%]"]
    rows = []
    for rank, standing in enumerate(standings, start=1):
        cells = []
        for opponent in standings:
            result = summary.match(standing.label, opponent.label)
            cells.append("" if result is None else _rate_with_interval(*result))
        low, high = standing.interval
        rows.append(
            [
                str(rank),
                standing.label,
                *cells,
                f"{_points(standing.score)}/{standing.games}",
                _rate_with_interval(standing.rate, low, high),
            ]
        )
    return header, rows


def timing_rows(summary: TournamentSummary) -> Rows:
    """Each player's decisions, median and longest decision, overtime, decisions per
    second of thinking time, and search iterations per second where the bot reports them."""
    header = [
        "player",
        "decisions",
        "median ms",
        "max ms",
        "overtime",
        "decisions/s",
        "iterations/s",
    ]
    rows = []
    for label in summary.players:
        timing: PlayerTiming = summary.timing(label)
        per_second = timing.decisions_per_second
        iterations = timing.iterations_per_second
        rows.append(
            [
                label,
                str(timing.decisions),
                f"{timing.median * 1000:.2f}",
                f"{timing.max * 1000:.1f}",
                str(timing.overtime),
                "" if per_second is None else _rate(per_second),
                "" if iterations is None else f"{iterations:,.0f}",
            ]
        )
    return header, rows


def rich_table(title: str, table: Rows, text_columns: int = 1) -> Table:
    """``table`` for the terminal: the first ``text_columns`` to the left, numbers right."""
    header, rows = table
    shown = Table(title=title, title_justify="left")
    for index, column in enumerate(header):
        shown.add_column(column, justify="left" if index < text_columns else "right")
    for row in rows:
        shown.add_row(*row)
    return shown


WILSON_NOTE = "95% intervals: Wilson score interval on the score rate (draws count 1/2)."


def _show_match(console: Console, plan: Plan, match: MatchSummary) -> None:
    console.print(rich_table(f"{match.a} vs {match.b}: {plan_header(plan)}", match_rows(match)))
    pairs = ", ".join(f"{label}: {count}" for label, count in match.pairs().items())
    console.print(f"Seeds by {match.a}'s score over both games: {pairs}")
    console.print(WILSON_NOTE)


def _show_round_robin(console: Console, plan: Plan, summary: TournamentSummary) -> None:
    rows = round_robin_rows(summary)
    console.print(rich_table(f"Round-robin: {plan_header(plan)}", rows, text_columns=2))
    console.print("Cells: the row player's score rate against the column player. " + WILSON_NOTE)


def _show_timing(console: Console, summary: TournamentSummary) -> None:
    console.print(rich_table("Thinking time", timing_rows(summary)))


def _show_forfeits(console: Console, summary: TournamentSummary, shown: int = 10) -> None:
    forfeits = [game for game in summary.games() if game.forfeit is not None]
    if not forfeits:
        return
    console.print(f"Forfeits: {len(forfeits)}")
    for game in forfeits[:shown]:
        assert game.forfeit is not None
        loser = game.players[game.forfeit.seat]
        console.print(
            f"  seed {game.seed}, {game.players[0]} vs {game.players[1]}: {loser} lost by"
            f" {game.forfeit.kind}: {game.forfeit.reason}"
        )
    if len(forfeits) > shown:
        console.print(f"  ... and {len(forfeits) - shown} more (see the records)")


register_command(
    Command(
        "arena",
        "seeded, seat-swapped matches between bots, with confidence intervals",
        configure_arena,
        run_arena,
    )
)
