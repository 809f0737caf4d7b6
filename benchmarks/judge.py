"""Judge speed: the compiled greedy judge (bots/judge/kernel.py) against the Python one.

Run: ``.venv/bin/python benchmarks/judge.py [--games N] [--runs R] [--searches S]
[--playouts P]``

Two measurements, each the median of R runs, with the ratio:

- *Judgements.* Every decision of N games of random play is judged (all its legal
  decisions scored) by ``GreedyBot.scores`` with ``compiled=False`` and with
  ``compiled=True``: microseconds per position.
- *Search.* ``ismcts`` at a fixed number of playouts (P per decision, so both do the
  same work: the compiled judge gives the same rankings, hence the same playouts) on S
  positions from greedy self-play: playouts per second.

Each run plays other games and positions: the Python judge remembers its judgements
(module-level caches), and the same positions again would flatter it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace

from hanamikoji import Game, Move
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot
from hanamikoji.core.view import View


def judged_positions(games: int, run: int) -> list[tuple[View, Sequence[Move]]]:
    rng = random.Random(run)
    positions: list[tuple[View, Sequence[Move]]] = []
    for seed in range(run * games, (run + 1) * games):
        game = Game(seed=seed, first_player=seed & 1)
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            legal = game.generate_legal_moves()
            positions.append((game.view(seat), legal))
            game.push(legal[rng.randrange(len(legal))])
    return positions


def search_positions(count: int, run: int) -> list[Game]:
    """Positions a few decisions into a round of greedy self-play."""
    rng = random.Random(run)
    games = []
    for seed in range(run * count, (run + 1) * count):
        game = Game(seed=1000 + seed)
        bots = [GreedyBot(seed=1), GreedyBot(seed=2)]
        for _ in range(rng.randrange(0, 10)):
            seat = game.to_move
            assert seat is not None
            game.push(bots[seat].choose(game.view(seat), game.generate_legal_moves()))
        games.append(game)
    return games


def time_judge(positions: list[tuple[View, Sequence[Move]]], compiled: bool) -> float:
    bot = GreedyBot(seed=1, compiled=compiled)
    start = time.perf_counter()
    for view, legal in positions:
        bot.scores(view, legal)
    return (time.perf_counter() - start) / len(positions) * 1e6


def time_search(games: list[Game], playouts: int, compiled: bool) -> tuple[float, list[Move]]:
    bot = ISMCTSBot(
        seed=3, budget=1e6, iterations=playouts, config=replace(DEFAULT_CONFIG, compiled=compiled)
    )
    start = time.perf_counter()
    total = 0
    moves = []
    for game in games:
        seat = game.to_move
        assert seat is not None
        moves.append(bot.choose(game.view(seat), game.generate_legal_moves()))
        total += bot.stats.iterations
    return total / (time.perf_counter() - start), moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40, help="random games to judge")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--searches", type=int, default=12, help="positions to search")
    parser.add_argument("--playouts", type=int, default=200, help="playouts per search")
    args = parser.parse_args()

    GreedyBot(compiled=True)  # compiles, or loads the compiled code, before timing
    print(f"judgements: {args.games} random games per run, median of {args.runs} runs")
    times: dict[bool, list[float]] = {False: [], True: []}
    for run in range(args.runs):
        positions = judged_positions(args.games, run)
        for compiled in (False, True):
            times[compiled].append(time_judge(positions, compiled))
    for compiled in (False, True):
        name = "compiled" if compiled else "python"
        print(f"  {name:9} {statistics.median(times[compiled]):8.1f} us per position")
    print(f"  ratio     {statistics.median(times[False]) / statistics.median(times[True]):8.1f}x")

    print(f"search: ismcts, {args.playouts} playouts on each of {args.searches} positions per run")
    rates: dict[bool, list[float]] = {False: [], True: []}
    same = True
    for run in range(args.runs):
        games = search_positions(args.searches, run)
        chosen = {}
        for compiled in (False, True):
            rate, chosen[compiled] = time_search(games, args.playouts, compiled)
            rates[compiled].append(rate)
        same = same and chosen[True] == chosen[False]
    for compiled in (False, True):
        name = "compiled" if compiled else "python"
        print(f"  {name:9} {statistics.median(rates[compiled]):8,.0f} playouts/s")
    print(f"  ratio     {statistics.median(rates[True]) / statistics.median(rates[False]):8.1f}x")
    print(f"  same decisions: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
