"""Strength: a round-robin of every registered bot, with 95% intervals, and thinking speed.

Run: ``.venv/bin/python benchmarks/strength.py [--games N] [--budget-ms 200] [--jobs 2]
[--bots NAME ...]``

Every pair of bots in :data:`hanamikoji.bots.BOTS` plays N games (N/2 seeds, each twice
with the seats swapped; ``docs/arena.md``) at the same budget per decision. The table
gives each row bot's score rate against each column bot with its 95% Wilson interval,
ranked by total score. The timing table gives decisions per second of thinking time for
every bot (for a search bot this is about 1 / budget: it thinks until its budget is
spent) and, for bots that report their search (ISMCTS), iterations per second.

``--markdown`` prints the tables as Markdown, with the command line, for docs/strength.md.
The defaults finish in about 6 minutes on 2 cores with random, greedy and ismcts.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import sys
import time
from pathlib import Path

from rich.console import Console

from hanamikoji.arena import MatchConfig, Plan, ProcessBackend, RecordWriter, players_from_names
from hanamikoji.bots import BOTS
from hanamikoji.interfaces.arena_cli import (
    Rows,
    plan_header,
    play_with_progress,
    report_console,
    rich_table,
    round_robin_rows,
    timing_rows,
)

DEFAULT_GAMES = 200
DEFAULT_BUDGET_MS = 200.0


def markdown(table: Rows) -> str:
    header, rows = table
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per pair (even)")
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--records", type=Path, help="save every game's record here")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--bots", nargs="+", metavar="NAME", help="only these bots (default: every one)"
    )
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        parser.error("--games is an even number, at least 2")
    unknown = sorted(set(args.bots or ()) - set(BOTS))
    if unknown:
        parser.error(f"unknown bots: {', '.join(unknown)} (known: {', '.join(BOTS)})")
    bots = list(args.bots or BOTS)
    if len(bots) < 2:
        parser.error("a round-robin needs at least two bots")
    plan = Plan.round_robin(
        players_from_names(bots),
        games=args.games,
        first_seed=args.seed,
        config=MatchConfig(args.variant, budget=args.budget_ms / 1000),
    )
    writer = RecordWriter(args.records) if args.records is not None else None
    errors = Console(stderr=True)
    start = time.perf_counter()
    summary = play_with_progress(plan, ProcessBackend(args.jobs), writer, errors, args.quiet)
    elapsed = time.perf_counter() - start

    command = ".venv/bin/python benchmarks/strength.py " + shlex.join(sys.argv[1:])
    machine = (
        f"{os.cpu_count()} CPUs, {args.jobs} jobs, Python {platform.python_version()},"
        f" {platform.machine()}; {plan.total_games} games in {elapsed:.0f} s"
    )
    forfeits = sum(1 for game in summary.games() if game.forfeit is not None)
    title = f"Round-robin: {plan_header(plan)}"
    if args.markdown:
        print(f"`{command.strip()}` ({machine})\n")
        print(f"{title}\n")
        print(markdown(round_robin_rows(summary)) + "\n")
        print("Thinking time (decisions per second of thinking time):\n")
        print(markdown(timing_rows(summary)))
        print(f"\nForfeits: {forfeits}. Cells: the row bot's score rate [95% Wilson interval].")
        return 0
    console = report_console(sys.stdout)
    console.print(f"{command.strip()}  ({machine})")
    console.print(rich_table(title, round_robin_rows(summary), text_columns=2))
    console.print(rich_table("Thinking time", timing_rows(summary)))
    console.print(f"Forfeits: {forfeits}. Cells: the row bot's score rate [95% Wilson interval].")
    return 0


if __name__ == "__main__":
    sys.exit(main())
