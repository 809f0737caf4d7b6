"""Engine speed: full random games per second through the public API, per variant.

Run: ``.venv/bin/python benchmarks/engine.py [--games N] [--runs R]``

Each game chooses uniformly among the distinct legal decisions returned by
``Game.generate_legal_moves()`` and plays them with ``Game.push()``, which checks legality.
For scale, a minimal inline random-playout loop (no API, no legality checks, no
records, only what a bare simulation needs) is timed the same way and the ratio
printed. Medians of several runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from hanamikoji import VARIANTS, Game

CHARMS = (2, 2, 2, 3, 3, 4, 5)
CARDS = [kind for kind, charm in enumerate(CHARMS) for _ in range(charm)]


def api_games(variant: str, games: int, rng: random.Random) -> int:
    """Play ``games`` full games through the public API; return the number of decisions."""
    decisions = 0
    randrange = rng.randrange
    for seed in range(games):
        game = Game(variant, seed=seed, first_player=seed & 1)
        while not game.is_over():
            moves = game.generate_legal_moves()
            game.push(moves[randrange(len(moves))])
            decisions += 1
    return decisions


def minimal_games(games: int, rng: random.Random) -> int:
    """A bare random playout of classic Hanamikoji with plain lists: the floor to compare to.

    Actions and cards are drawn at random (not uniformly over distinct decisions), and
    nothing is validated or recorded.
    """
    decisions = 0
    randrange = rng.randrange
    shuffle = rng.shuffle
    for _ in range(games):
        favor = [-1] * 7
        starter = 0
        while True:
            cards = CARDS[:]
            shuffle(cards)
            hands = [cards[1:7], cards[7:13]]
            deck = cards[13:]
            sides = [[0] * 7, [0] * 7]
            secret = [-1, -1]
            unused = [[0, 1, 2, 3], [0, 1, 2, 3]]
            player = starter
            for turn in range(8):
                hand = hands[player]
                hand.append(deck[turn])
                actions = unused[player]
                action = actions.pop(randrange(len(actions)))
                chosen = [hand.pop(randrange(len(hand))) for _ in range(action + 1)]
                decisions += 1
                if action == 0:
                    secret[player] = chosen[0]
                elif action == 2:
                    take = chosen.pop(randrange(3))
                    sides[1 - player][take] += 1
                    for card in chosen:
                        sides[player][card] += 1
                    decisions += 1
                elif action == 3:
                    pick = randrange(2) * 2
                    for index, card in enumerate(chosen):
                        taker = 1 - player if index // 2 == pick // 2 else player
                        sides[taker][card] += 1
                    decisions += 1
                player = 1 - player
            for seat in (0, 1):
                sides[seat][secret[seat]] += 1
            charm = [0, 0]
            count = [0, 0]
            for kind in range(7):
                a, b = sides[0][kind], sides[1][kind]
                if a != b:
                    favor[kind] = 0 if a > b else 1
                if favor[kind] >= 0:
                    charm[favor[kind]] += CHARMS[kind]
                    count[favor[kind]] += 1
            if max(charm) >= 11 or max(count) >= 4:
                break
            starter = 1 - starter
    return decisions


def measure(run: Callable[[], int], runs: int) -> tuple[float, int]:
    """Median seconds of ``runs`` runs, and the decisions of the last."""
    times = []
    decisions = 0
    for _ in range(runs):
        start = time.perf_counter()
        decisions = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement")
    args = parser.parse_args()
    games, runs = args.games, args.runs

    api_games("classic", 500, random.Random(0))  # warm the move-generation caches
    minimal_time, minimal_decisions = measure(lambda: minimal_games(games, random.Random(1)), runs)
    minimal_rate = games / minimal_time
    print(f"{games} games x {runs} runs, median per run")
    print(f"{'loop':<22} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15} {'ratio':>6}")
    print(
        f"{'minimal inline loop':<22} {minimal_rate:>9.0f} "
        f"{minimal_decisions / minimal_time:>12.0f} {minimal_decisions / games:>15.1f} "
        f"{1.0:>6.2f}"
    )
    for name in VARIANTS:
        elapsed, decisions = measure(partial(api_games, name, games, random.Random(2)), runs)
        rate = games / elapsed
        print(
            f"{'api ' + name:<22} {rate:>9.0f} {decisions / elapsed:>12.0f} "
            f"{decisions / games:>15.1f} {rate / minimal_rate:>6.2f}"
        )


if __name__ == "__main__":
    main()
