"""Train the learned policy and value of :mod:`hanamikoji.bots.network` by expert iteration.

A generation plays self-play games in which every decision is made by the search of
:mod:`hanamikoji.bots.ismcts` at a fixed number of playouts (reproducible), over the
greedy judge's best decisions and, from generation 2 on, the previous network's best
(``network_candidates``). The search's value of each decision it compared becomes the
targets of that view: the policy target is a softmax of those values at
:data:`TARGET_TEMPERATURE`, the value target the values themselves (less noisy than one
game's return: each is the mean over the worlds the search played). A few decisions the
search did not compare are added as the policy's negatives. The network is then trained
from the previous generation's weights (Adam; a listwise cross-entropy for the policy,
a cross-entropy on the sigmoid for the value, the last tenth of the games held out) and
kept only if, as the ``learned`` bot, it beats the previous generation in a seeded,
seat-swapped match with its paired 95% interval above 50%
(:func:`hanamikoji.training.gating.gate`).

``python -m hanamikoji.training`` starts generation 1 from scratch;
``--resume`` plays the next generation from the committed checkpoint
(``bots/data/value_network.npz`` and its log ``bots/data/value_network.json``); ``--log FILE``
rewrites the training log's table in ``FILE`` (``docs/strength.md``). A generation's
seeds follow from its number, so the same commands on the same machine give the same
weights.

Self-play samples are kept in a folder (``--samples``, by default
``~/.cache/hanamikoji/self-play``), a file per chunk of games as it is played: a run
stopped midway plays only what is missing when run again, and ``--window W`` trains on
the last ``W`` generations' samples together (a replay window, as AlphaZero's), playing
again, from their seeds, those of an earlier generation that are not there.

Self-play and the matches run in chunks over ``--jobs`` processes, or as Ray tasks with
``--backend ray`` (the cluster at ``RAY_ADDRESS``, else a local instance of ``--jobs``
CPUs; :mod:`hanamikoji.bots.parallel`): each chunk is a function of its seeds, so the
samples and the matches are the same wherever they run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import hanamikoji.bots as bots_package
from hanamikoji.bots.network import MANIFEST_FILE, WEIGHTS_FILE, ValueNetwork
from hanamikoji.bots.parallel import BACKENDS, Workers
from hanamikoji.training.gating import GATE_SEEDS, gate
from hanamikoji.training.log import write_log
from hanamikoji.training.optimiser import train
from hanamikoji.training.samples import Samples, default_store
from hanamikoji.training.selfplay import GAMES_PER_GENERATION, ITERATIONS, collect, earlier_samples

__all__ = ["DATA_DIR", "FORMAT", "main", "run_generation"]

DATA_DIR = Path(bots_package.__file__).parent / "data"
"""The bots' data, where the checkpoint is committed."""
FORMAT = "hanamikoji-policy-value-network"


def _checkpoint(folder: Path) -> tuple[ValueNetwork, dict[str, Any]]:
    """The committed network and its manifest (what ``--resume`` continues from)."""
    recorded: dict[str, Any] = json.loads((folder / MANIFEST_FILE).read_text("utf-8"))
    if recorded.get("format") != FORMAT:
        raise SystemExit(f"{folder / MANIFEST_FILE}: not a checkpoint of this training")
    return ValueNetwork.from_bytes((folder / WEIGHTS_FILE).read_bytes()), recorded


def run_generation(
    args: argparse.Namespace,
    previous: ValueNetwork | None,
    generations: Sequence[dict[str, Any]],
) -> tuple[ValueNetwork, dict[str, Any]]:
    """Play, train and gate the generation after ``generations``: the network and its
    log entry."""
    number = len(generations) + 1
    first = (number - 1) * GAMES_PER_GENERATION + 1
    began = time.perf_counter()
    workers = Workers(args.jobs, args.backend)
    with workers.running():
        samples = collect(args.games, first, args.iterations, workers, previous, args.samples)
        earlier = earlier_samples(generations, args.window - 1, previous, workers, args.samples)
        window = Samples.join([*earlier, samples])
        played = time.perf_counter()
        print(
            f"generation {number}: {int(samples.views.max()) + 1} decisions,"
            f" {len(window.policy):,} rows to train on, in {played - began:.0f} s"
        )
        start = None if previous is None else previous.weights
        result = train(window, start=start, epochs=args.epochs, seed=number, log=True)
        trained = time.perf_counter()
        network = result.network
        against_greedy = gate(network, None, workers, args.gate_seeds)
        against_previous = (
            against_greedy
            if previous is None
            else gate(network, previous, workers, args.gate_seeds)
        )
    matched = time.perf_counter()
    best = min(result.history, key=lambda e: e["held_out_policy"] + e["held_out_value"])
    entry: dict[str, Any] = {
        "generation": number,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "command": "python -m hanamikoji.training"
        + (" --resume" if previous is not None else "")
        + f" --games {args.games} --iterations {args.iterations} --epochs {args.epochs}"
        + (f" --gate-seeds {args.gate_seeds}" if args.gate_seeds != GATE_SEEDS else "")
        + (f" --window {args.window}" if args.window != 1 else ""),
        # Generation 1 has no network before it: it is the start.
        "kept": previous is None or against_previous.interval[0] > 0.5,
        "games": [first, first + args.games - 1],
        "iterations": args.iterations,
        "guide": None if previous is None else previous.fingerprint(),
        "decisions": int(samples.views.max()) + 1,
        "rows": len(samples.policy),
        "window": [
            *(g["generation"] for g in generations[len(generations) - len(earlier) :]),
            number,
        ],
        "training_rows": len(window.policy),
        "seconds": {
            "self_play": round(played - began),
            "training": round(trained - played),
            "matches": round(matched - trained),
        },
        "held_out": {k: best[f"held_out_{k}"] for k in ("policy", "value", "agree")},
        "history": result.history,
        "against_previous": against_previous.to_json(),
        "against_greedy": against_greedy.to_json(),
        "sha256": network.fingerprint(),
    }
    return network, entry


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m hanamikoji.training",
        description="Train the learned policy and value by expert iteration, a generation a run.",
    )
    parser.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    parser.add_argument("--games", type=int, default=2000, help="self-play games per generation")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="playouts per decision")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument(
        "--gate-seeds", type=int, default=GATE_SEEDS, help="seeds of each match (2 games each)"
    )
    parser.add_argument(
        "--window", type=int, default=1, help="train on the last W generations' samples"
    )
    parser.add_argument(
        "--samples", type=Path, default=default_store(), help="the folder of self-play samples"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes (Ray: local CPUs)")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="processes",
        help="where self-play and matches run: this machine's processes, or Ray (the"
        " cluster at RAY_ADDRESS, else a local instance); the results are the same",
    )
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="the checkpoint's folder")
    parser.add_argument("--log", type=Path, help="a Markdown file with the training log's block")
    args = parser.parse_args(argv)
    if not 0 < args.games <= GAMES_PER_GENERATION:
        parser.error(f"--games is 1 to {GAMES_PER_GENERATION}")
    if args.gate_seeds < 2:
        parser.error("--gate-seeds is at least 2")
    if args.window < 1:
        parser.error("--window is at least 1")
    previous: ValueNetwork | None = None
    recorded: dict[str, Any] = {"format": FORMAT, "generations": []}
    if args.resume:
        previous, recorded = _checkpoint(args.out)
    number = len(recorded["generations"]) + 1
    network, entry = run_generation(args, previous, recorded["generations"])
    recorded["generations"].append(entry)
    verdict = "kept" if entry["kept"] else "not kept: the checkpoint stays"
    print(f"generation {number} {verdict}; against the previous {entry['against_previous']}")
    if entry["kept"]:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / WEIGHTS_FILE).write_bytes(network.to_bytes())
        recorded["sha256"] = network.fingerprint()
    # Every generation counts (a rejected one's seeds are spent): its commands in order
    # rebuild the checkpoint.
    recorded["command"] = " && ".join(g["command"] for g in recorded["generations"])
    text = json.dumps(recorded, indent=1) + "\n"
    (args.out / MANIFEST_FILE).write_text(text, encoding="utf-8")
    if args.log is not None:
        write_log(args.log, recorded["generations"])


if __name__ == "__main__":
    main()
