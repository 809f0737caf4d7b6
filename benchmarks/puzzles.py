"""Puzzles: how fast mining finds them, and how often greedy and the level-8 bot solve
each theme of the shipped set.

Run: ``.venv/bin/python benchmarks/puzzles.py [--games 30] [--seed 1] [--sample 15]
[--searched-per-game 0] [--missed 100] [--json]``.

- **Mining**: ``--games`` bot games (in turn classic, three-rounds, french, seeded by
  ``--seed``) mined as ``python -m hanamikoji.puzzles.mine`` mines them, in memory: the
  positions judged and the puzzles found per second of processor time (the games' own
  play included), the processor seconds per puzzle, the share of the puzzles that are
  proved (exact), and the share of the positions judged exactly.
  With ``--searched-per-game``, the probes and searches too (their count and seconds).
- **Solving**: for each theme, a seeded sample of at most ``--sample`` of the shipped
  set's puzzles of that theme; greedy (level 6) and the level-8 bot
  (:func:`hanamikoji.bots.levels.make_level_bot`: the expert, 1 s of wall-clock time a
  decision) are shown each sampled puzzle's position (the solver's view) and the share
  that choose the solution is reported, per theme and over all the sampled puzzles, and
  the level-8 bot's share on the sampled puzzles greedy misses, and on a seeded sample
  of at most ``--missed`` of all the set's puzzles greedy missed when they were mined.
  The shipped set is *selected by greedy's decision*
  (:mod:`hanamikoji.puzzles.selection`), so greedy's share there is fixed by the
  selection, not measured: the level-8 column is the measure, and so are both solvers'
  shares on the puzzles the mining part found, which no selection touched
  ("unselected").

Prints a Markdown table (docs/puzzles.md keeps it), or with ``--json`` the figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import subprocess
import sys
import time
from collections.abc import Sequence

from hanamikoji import __version__
from hanamikoji.bots.levels import make_level_bot
from hanamikoji.core.variants import VARIANTS
from hanamikoji.puzzles.mining import Miner
from hanamikoji.puzzles.model import Method, Puzzle
from hanamikoji.puzzles.selection import Selection
from hanamikoji.puzzles.store import shipped_puzzles
from hanamikoji.puzzles.themes import THEMES

SOLVERS = {"greedy": 6, "level 8": 8}
"""The bots that try the puzzles, by their difficulty level."""


def cpu_model() -> str:
    """The processor's model name, as ``lscpu`` says it."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def mining(games: int, seed: int, searched_per_game: int) -> tuple[dict[str, object], list[Puzzle]]:
    """Mine ``games`` games in memory and measure it; the figures and the puzzles."""
    miner = Miner(searched_per_game=searched_per_game)
    variants = list(VARIANTS)
    start, wall = time.process_time(), time.perf_counter()
    found: list[Puzzle] = []
    for index in range(games):
        found.extend(miner.bot_game_puzzles(variants[index % len(variants)], seed, index))
    cpu = time.process_time() - start
    stats = miner.stats
    figures: dict[str, object] = {
        "games": games,
        "positions": stats.positions,
        "puzzles": len(found),
        "proved": stats.proved,
        "searched": stats.searched,
        "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(time.perf_counter() - wall, 2),
        "positions_per_cpu_second": round(stats.positions / cpu, 1),
        "puzzles_per_cpu_second": round(len(found) / cpu, 2),
        "cpu_seconds_per_puzzle": round(cpu / len(found), 3) if found else None,
        "proved_share": round(stats.proved / len(found), 3) if found else None,
        "exact_positions_share": round(stats.exact_positions / stats.positions, 3),
        "probed": stats.probed_positions,
        "probing_cpu_seconds": round(stats.probing_seconds, 2),
        "search_candidates": stats.searched_positions,
        "searching_cpu_seconds": round(stats.searching_seconds, 2),
    }
    return figures, found


def sampled(sample: int, seed: int) -> dict[str, list[Puzzle]]:
    """Per theme, at most ``sample`` of the shipped puzzles of that theme, at random."""
    chooser = random.Random(seed)
    by_theme: dict[str, list[Puzzle]] = {}
    for theme in THEMES:
        having = [p for p in shipped_puzzles() if theme in p.themes]
        by_theme[theme] = chooser.sample(having, min(sample, len(having)))
    return by_theme


def solved_by(puzzles: Sequence[Puzzle], seed: int) -> dict[str, dict[str, bool]]:
    """Per solver, per puzzle id, whether it chooses the solution."""
    solved: dict[str, dict[str, bool]] = {name: {} for name in SOLVERS}
    for name, level in SOLVERS.items():
        for number, puzzle in enumerate(puzzles):
            bot = make_level_bot(level, seed=seed + number)
            view = puzzle.view()
            solved[name][puzzle.id] = (
                bot.choose(view, view.generate_legal_moves()).text() == puzzle.solution
            )
    return solved


def share(hits: Sequence[bool]) -> float | None:
    return round(sum(hits) / len(hits), 3) if hits else None


def unselected(found: Sequence[Puzzle], seed: int) -> dict[str, object]:
    """Both solvers on the freshly mined puzzles (no selection)."""
    solved = solved_by(found, seed)
    row: dict[str, object] = {"puzzles": len(found)}
    for name in SOLVERS:
        row[name] = share(list(solved[name].values()))
    return row


def on_missed(count: int, seed: int) -> dict[str, object]:
    """The level-8 bot on a seeded sample of the set's puzzles greedy missed when mined."""
    missed = [p for p in shipped_puzzles() if Selection.missed(p)]
    chosen = random.Random(seed).sample(missed, min(count, len(missed)))
    solved = solved_by(chosen, seed)
    return {"puzzles": len(chosen), "level 8": share(list(solved["level 8"].values()))}


def solving(sample: int, seed: int) -> dict[str, object]:
    """How often each solver chooses the solution, per theme and in all."""
    by_theme = sampled(sample, seed)
    puzzles = {p.id: p for chosen in by_theme.values() for p in chosen}
    solved = solved_by(list(puzzles.values()), seed)
    themes: dict[str, dict[str, object]] = {}
    for theme, chosen in by_theme.items():
        row: dict[str, object] = {"puzzles": len(chosen)}
        for name in SOLVERS:
            row[name] = (
                round(sum(solved[name][p.id] for p in chosen) / len(chosen), 3) if chosen else None
            )
        missed = [p for p in chosen if Selection.missed(p)]
        row["greedy missed"] = len(missed)
        row["level 8 on missed"] = share([solved["level 8"][p.id] for p in missed])
        themes[theme] = row
    total: dict[str, object] = {"puzzles": len(puzzles)}
    for name in SOLVERS:
        total[name] = share(list(solved[name].values()))
    missed = [p for p in puzzles.values() if Selection.missed(p)]
    total["greedy missed"] = len(missed)
    total["level 8 on missed"] = share([solved["level 8"][p.id] for p in missed])
    shipped = shipped_puzzles()
    return {
        "set": len(shipped),
        "set_proved": sum(p.method is Method.PROVED for p in shipped),
        "set_searched": sum(p.method is Method.SEARCHED for p in shipped),
        "set_greedy_missed": sum(Selection.missed(p) for p in shipped),
        "themes": themes,
        "all": total,
    }


def markdown(figures: dict[str, object]) -> str:
    """The figures as docs/puzzles.md shows them."""
    mine = figures["mining"]
    solve = figures["solving"]
    fresh = figures["unselected"]
    missed = figures["missed"]
    assert isinstance(mine, dict) and isinstance(solve, dict) and isinstance(fresh, dict)
    assert isinstance(missed, dict)
    lines = [
        f"Command: `{figures['command']}`; {figures['date']}, version {figures['version']}, "
        f"{figures['cpu']}.",
        "",
        f"Mining: {mine['games']} games, {mine['positions']} positions judged, "
        f"{mine['puzzles']} puzzles ({mine['proved']} proved) in {mine['cpu_seconds']} CPU s: "
        f"{mine['positions_per_cpu_second']} positions and {mine['puzzles_per_cpu_second']} "
        f"puzzles per CPU second, {mine['cpu_seconds_per_puzzle']} CPU s per puzzle; "
        f"proved share {mine['proved_share']}, positions judged exactly "
        f"{mine['exact_positions_share']}; {mine['probed']} positions probed in "
        f"{mine['probing_cpu_seconds']} CPU s, {mine['search_candidates']} searched in "
        f"{mine['searching_cpu_seconds']} CPU s, {mine['searched']} searched puzzles.",
        "",
        f"Unselected (the {fresh['puzzles']} puzzles just mined): greedy solves "
        f"{_percent(fresh['greedy'])}, level 8 {_percent(fresh['level 8'])}.",
        "",
        f"The shipped set: {solve['set']} puzzles, {solve['set_proved']} proved, "
        f"{solve['set_searched']} searched; greedy missed {solve['set_greedy_missed']} "
        "when they were mined (the selection kept them all); the level-8 bot solves "
        f"{_percent(missed['level 8'])} of {missed['puzzles']} of those, drawn at random.",
        "",
        "| theme | puzzles tried | greedy solves (selected) | level 8 solves "
        "| greedy missed | level 8 solves of those |",
        "|---|---|---|---|---|---|",
    ]
    themes = solve["themes"]
    assert isinstance(themes, dict)
    rows = [*themes.items(), ("all sampled", solve["all"])]
    for theme, row in rows:
        cells = [_percent(row[name]) for name in ("greedy", "level 8", "level 8 on missed")]
        lines.append(
            f"| {theme} | {row['puzzles']} | {cells[0]} | {cells[1]} | {row['greedy missed']} "
            f"| {cells[2]} |"
        )
    return "\n".join(lines)


def _percent(value: object) -> str:
    return f"{value:.0%}" if isinstance(value, float) else "-"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sample", type=int, default=15)
    parser.add_argument("--searched-per-game", type=int, default=0)
    parser.add_argument("--missed", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures: dict[str, object] = {
        "command": "benchmarks/puzzles.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": datetime.date.today().isoformat(),
        "version": __version__,
        "cpu": cpu_model(),
    }
    figures["mining"], found = mining(args.games, args.seed, args.searched_per_game)
    figures["unselected"] = unselected(found, args.seed)
    figures["solving"] = solving(args.sample, args.seed)
    figures["missed"] = on_missed(args.missed, args.seed)
    print(json.dumps(figures, indent=2) if args.json else markdown(figures))


if __name__ == "__main__":
    main()
