"""``python -m hanamikoji.puzzles.mine``: mine puzzles from bot games or stored records.

The shipped set (``puzzles/data/puzzles.jsonl.gz``, docs/puzzles.md) is made by one command::

    python -m hanamikoji.puzzles.mine --variant all --games 3400 --seed 52 \\
        --searched-per-game 3 --keep-solved 350 --jobs 1 \\
        --out src/hanamikoji/puzzles/data/puzzles.jsonl.gz

Game ``i`` of a run is dealt from ``--seed`` and ``i``, in variant ``i mod 3`` of
classic, three-rounds, french with ``--variant all``. The run is resumable: it appends to
``--out`` and skips the games whose puzzles are already there (it replays the last one,
adding only the puzzles it lacks), so the same command with a larger ``--games`` extends
a set, and an interrupted run picks up where it stopped. ``--jobs N`` mines the games in
N processes, ``--backend ray`` as Ray tasks (a local instance of N CPUs, or the cluster
``RAY_ADDRESS`` names; the ``ray`` extra); either way the puzzles are the same.

``--records DIR`` mines every record file under ``DIR`` instead: a record in either form
(as ``hanamikoji replay`` reads it), or a file of several, as the web server exports a
player's games (text, a JSON array or NDJSON: :mod:`hanamikoji.notation.record_files`),
so people's stored games are mined from their export. Records already mined are skipped;
seeded records only (their puzzles replay from the seed).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from hanamikoji.bots.parallel import BACKENDS, Workers
from hanamikoji.core.variants import VARIANTS
from hanamikoji.notation.record_files import (
    records_from_json,
    records_from_ndjson,
    records_from_text,
)
from hanamikoji.notation.records import GameRecord, RecordError, record_file_text
from hanamikoji.puzzles.mining import Miner, game_seed
from hanamikoji.puzzles.model import PuzzleError
from hanamikoji.puzzles.runs import mined_games
from hanamikoji.puzzles.selection import Selection
from hanamikoji.puzzles.store import append_puzzles, read_puzzles

__all__ = ["main", "mine_bot_games", "mine_records", "records_in"]


def _existing(out: Path) -> tuple[set[str], set[str]]:
    """The ids and sources of the puzzles already in ``out``."""
    if not out.exists():
        return set(), set()
    puzzles = read_puzzles(out, check=False)
    return {p.id for p in puzzles}, {p.source for p in puzzles}


def mine_bot_games(
    out: Path,
    variants: Sequence[str],
    games: int,
    seed: int,
    miner: Miner,
    quiet: bool = False,
    selection: Selection | None = None,
    workers: Workers | None = None,
) -> int:
    """Mine games ``0 .. games-1`` of a run seeded ``seed`` into ``out`` (see the module's
    docstring), game ``i`` in ``variants[i % len(variants)]``, keeping what ``selection``
    keeps (every puzzle if ``None``), the games mined by ``workers`` (this process if
    ``None``); the number of puzzles added (``miner.stats`` has the rest)."""
    ids, _ = _existing(out)
    before = len(ids)
    if selection is not None:
        selection.count(read_puzzles(out, check=False) if out.exists() else [])
    done = {int(pid.split("-")[-2]) - game_seed(seed, 0) for pid in ids if _ours(pid, seed)}
    first = max(done, default=0)
    tasks = [(variants[index % len(variants)], seed, index) for index in range(first, games)]
    for index, puzzles in zip(range(first, games), mined_games(miner, tasks, workers), strict=True):
        found = [p for p in puzzles if p.id not in ids]
        if selection is not None:
            found = [p for p in found if selection.keeps(p)]
        append_puzzles(out, found)
        ids.update(p.id for p in found)
        if not quiet and (index + 1) % 50 == 0:
            print(f"game {index + 1}/{games}: {len(ids)} puzzles", file=sys.stderr, flush=True)
    return len(ids) - before


def _ours(pid: str, seed: int) -> bool:
    parts = pid.split("-")
    if not (parts[-1].isdigit() and parts[-2].isdigit()):
        return False
    return 0 <= int(parts[-2]) - game_seed(seed, 0) < 1_000_000


def records_in(path: Path) -> list[GameRecord]:
    """The records of one file: a record in either form, or a file of several (text
    records one after another, a JSON array, NDJSON). Raises :class:`RecordError` or
    ``OSError``."""
    text = record_file_text(path)
    head = text.lstrip()
    if head.startswith("{"):
        try:
            return [GameRecord.parse(text)]
        except RecordError:
            return records_from_ndjson(text)
    if head.startswith("[") and head[1:].lstrip()[:1] in ("{", "]"):
        return records_from_json(text)
    return records_from_text(text)


def mine_records(out: Path, folder: Path, miner: Miner, quiet: bool = False) -> int:
    """Mine every record file under ``folder`` into ``out``; the number of puzzles added.
    A file's records are ``record PATH`` when it holds one, ``record PATH#N`` (from 1)
    when it holds several."""
    ids, sources = _existing(out)
    before = len(ids)
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = f"record {path.relative_to(folder).as_posix()}"
        try:
            records = records_in(path)
        except (RecordError, OSError) as error:
            if not quiet:
                print(f"{path}: skipped, not a record ({error})", file=sys.stderr)
            miner.stats.skipped_records += 1
            continue
        for number, record in enumerate(records, start=1):
            source = name if len(records) == 1 else f"{name}#{number}"
            if source in sources:
                continue
            found = [p for p in miner.record_puzzles(record, source) if p.id not in ids]
            append_puzzles(out, found)
            ids.update(p.id for p in found)
    return len(ids) - before


def _cpu() -> float:
    """Processor seconds of this process and of its ended children (``--jobs``)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m hanamikoji.puzzles.mine",
        description="Mine puzzles (one clearly best decision) from bot games or records.",
    )
    parser.add_argument(
        "--variant", default="classic", help="classic, three-rounds, french or all (in turn)"
    )
    parser.add_argument("--games", type=int, default=100, help="bot games in all (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--out", type=Path, required=True, help="the puzzle file to extend")
    parser.add_argument("--records", type=Path, help="mine the record files under this folder")
    parser.add_argument(
        "--searched-per-game",
        type=int,
        default=0,
        help="positions searched per game before the last two turns (default 0: proved only)",
    )
    parser.add_argument(
        "--keep-solved",
        type=int,
        metavar="N",
        help="keep every puzzle greedy misses and, of each variant, method and decision "
        "kind, the first N it solves (default: keep every puzzle)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes mining the games, or a local Ray instance's CPUs (default 1)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="processes",
        help="where the games are mined: this machine's processes, or Ray (default processes)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 0 on success, 2 on bad arguments or an unreadable ``--out``."""
    parser = _parser()
    args = parser.parse_args(argv)
    variants = list(VARIANTS) if args.variant == "all" else [args.variant]
    if any(name not in VARIANTS for name in variants):
        parser.error(f"--variant is one of {', '.join(VARIANTS)} or all")
    if args.games < 0 or args.seed < 0 or args.seed > 10**12 or args.searched_per_game < 0:
        parser.error("--games, --searched-per-game and --seed are not negative")
    if args.jobs < 1 or (args.keep_solved is not None and args.keep_solved < 0):
        parser.error("--jobs is at least 1 and --keep-solved not negative")
    try:
        workers = Workers(args.jobs, args.backend)
    except ImportError as error:
        parser.error(str(error))
    miner = Miner(searched_per_game=args.searched_per_game)
    selection = None if args.keep_solved is None else Selection(args.keep_solved)
    start = _cpu()
    try:
        if args.records is not None:
            added = mine_records(args.out, args.records, miner, args.quiet)
        else:
            added = mine_bot_games(
                args.out,
                variants,
                args.games,
                args.seed,
                miner,
                args.quiet,
                selection,
                workers,
            )
    except PuzzleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    seconds = _cpu() - start
    stats = miner.stats
    print(
        f"{stats.games} games, {stats.positions} positions judged, {stats.puzzles} puzzles found "
        f"({stats.proved} proved, {stats.searched} searched), {added} new, in {seconds:.1f} CPU s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
