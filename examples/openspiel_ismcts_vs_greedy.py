"""OpenSpiel's ISMCTS bot against our bots, in the arena.

Run: ``.venv/bin/python examples/openspiel_ismcts_vs_greedy.py [--pairs N]
[--simulations S] [--opponent greedy] [--variant three-rounds]``

OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``, random
rollouts) searches the OpenSpiel game ``python_hanamikoji``; wrapped as one of our bots
(:func:`hanamikoji.research.openspiel.ismcts_bot`, registered as ``openspiel-ismcts``)
it sees only its view, which is completed into OpenSpiel states for the search. The
arena plays seeded duplicate pairs: each seed is played twice with the same deals, the
players swapping seats.
"""

from __future__ import annotations

import argparse
import time

from hanamikoji.arena import Batch, MatchConfig, PlayerSpec, play_batch
from hanamikoji.bots import register
from hanamikoji.research.openspiel import ismcts_bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2, help="duplicate pairs (2 games each)")
    parser.add_argument("--simulations", type=int, default=64, help="ISMCTS simulations")
    parser.add_argument(
        "--opponent", default="greedy", help="a registered bot: greedy, random, ..."
    )
    parser.add_argument("--variant", default="three-rounds")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    args = parser.parse_args()

    label = f"openspiel-ismcts-{args.simulations}"
    simulations = args.simulations
    register(label, lambda seed, budget: ismcts_bot(seed, budget, simulations=simulations))
    players = (PlayerSpec.bot_named(label), PlayerSpec.bot_named(args.opponent))
    seeds = tuple(range(args.seed, args.seed + args.pairs))
    start = time.perf_counter()
    results = play_batch(Batch(MatchConfig(args.variant), 0, players, seeds))
    elapsed = time.perf_counter() - start

    print(f"{label} vs {args.opponent}, {args.variant}, {len(results)} games in {elapsed:.0f} s")
    for result in results:
        rounds = "1 round" if result.rounds == 1 else f"{result.rounds} rounds"
        print(
            f"  seed {result.seed} {' vs '.join(result.players)}: {result.result}"
            f" ({result.termination}, {rounds})"
        )
        if result.forfeit is not None:
            print(f"    forfeit: {result.forfeit}")
    points = sum(result.points_of_a for result in results)
    print(f"{label} scored {points:g} of {len(results)}")


if __name__ == "__main__":
    main()
