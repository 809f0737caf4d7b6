"""The compiled engine against the Python engine, on many games and on the perft data.

Run: ``.venv/bin/python benchmarks/kernel_check.py [--games N] [--jobs J] [--json]``

For each variant (``classic``, ``three-rounds``, ``french``, and ``classic/cap=2`` for
the round cap), N random games are played by both engines in lockstep
(:func:`hanamikoji.kernel.check.differential`): after every decision the legal sets
(the kernel's mask against ``legal_action_mask``), the seat to move, the hands and the
markers are compared, each round's deal, and at the end the outcome. Game ``i`` has
seed ``i`` and first player ``i % 2``. Then every perft entry of ``tests/perft`` is
recounted by the kernel to its full depth. Exits with status 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from hanamikoji.core.moves import Move
from hanamikoji.kernel import Batch
from hanamikoji.kernel.check import Report, differential
from hanamikoji.kernel.encoding import encode

VARIANTS = ("classic", "three-rounds", "french", "classic/cap=2")
PERFT = Path(__file__).resolve().parent.parent / "tests" / "perft"
CHUNK = 5_000


def check_chunk(variant: str, first: int, count: int) -> Report:
    seeds = np.arange(first, first + count, dtype=np.uint64)
    return differential(variant, seeds, seeds % 2, policy_seed=first)


def check_variant(variant: str, games: int, jobs: int) -> dict[str, Any]:
    start = time.perf_counter()
    firsts = list(range(0, games, CHUNK))
    counts = [min(CHUNK, games - first) for first in firsts]
    with ProcessPoolExecutor(jobs) as pool:
        reports = list(pool.map(check_chunk, [variant] * len(firsts), firsts, counts))
    return {
        "variant": variant,
        "games": sum(r.games for r in reports),
        "decisions": sum(r.decisions for r in reports),
        "rounds": sum(r.rounds for r in reports),
        "differences": [d for r in reports for d in r.differences],
        "seconds": round(time.perf_counter() - start, 1),
    }


def check_perft() -> dict[str, Any]:
    start = time.perf_counter()
    entries = 0
    nodes = 0
    differences = []
    for path in sorted(PERFT.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        lines = {line["id"]: line for line in data["lines"]}
        for entry in data["perft"]:
            line = lines[entry["line"]]
            batch = Batch(data["variant"], [line["seed"]], line["first_player"])
            for text in line["decisions"][: entry["after"]]:
                batch.step([encode(Move.from_text(text))])
            found = batch.perft(0, len(entry["counts"]))
            entries += 1
            nodes += sum(found)
            if found != entry["counts"]:
                differences.append(f"{path.name} {entry['line']} after {entry['after']}: {found}")
    seconds = round(time.perf_counter() - start, 1)
    return {"entries": entries, "sequences": nodes, "differences": differences, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per variant")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results: dict[str, Any] = {"variants": [], "games_per_variant": args.games}
    start = time.perf_counter()
    for variant in VARIANTS:
        result = check_variant(variant, args.games, args.jobs)
        results["variants"].append(result)
        if not args.json:
            print(
                f"{variant:<14} {result['games']:>8,} games {result['decisions']:>11,} decisions "
                f"{result['rounds']:>9,} rounds  differences: {len(result['differences'])}"
                f"  ({result['seconds']} s)",
                flush=True,
            )
            for difference in result["differences"][:10]:
                print("   ", difference)
    results["perft"] = check_perft()
    results["seconds"] = round(time.perf_counter() - start, 1)
    failed = any(v["differences"] for v in results["variants"]) or results["perft"]["differences"]
    if args.json:
        print(json.dumps(results))
    else:
        perft = results["perft"]
        print(
            f"perft: {perft['entries']} entries, {perft['sequences']:,} sequences, "
            f"differences: {len(perft['differences'])} ({perft['seconds']} s)"
        )
        print(f"{'FAILED' if failed else 'all equal'} in {results['seconds']} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
