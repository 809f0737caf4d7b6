"""Research API speed: decisions per second through each API beside the raw engine.

Run: ``.venv/bin/python benchmarks/research.py [--games N] [--variant V]`` (needs the
``research`` extra).

Every loop plays the same number of full games with uniformly random legal decisions
and counts the decisions made (a turn's action or an answer to a Gift or Competition).
What each loop does per decision:

- raw engine: ``Game.generate_legal_moves()`` and ``Game.push()``;
- OpenSpiel: ``state.legal_actions()`` and ``state.apply_action()``, plus the 21 chance
  nodes of every deal (``chance_outcomes()``, ``apply_action()``);
- PettingZoo AEC: ``env.last()`` (observation tensor and action mask of the agent to
  decide) and ``env.step()``;
- Gymnasium: ``env.step()`` for the agent's decisions, which returns the next observation
  and mask; the random opponent's decisions are played inside ``step`` and counted too.

Rates are decisions per second, and each API's ratio to the raw engine (1.00 is as fast,
0.10 ten times slower), measured in one run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from hanamikoji.core.game import Game
from hanamikoji.research.gym_env import HanamikojiSingleAgentEnv
from hanamikoji.research.openspiel import GAME_NAME
from hanamikoji.research.pettingzoo_env import HanamikojiAEC
from hanamikoji.research.variant import research_variant


def raw_engine(variant: str, games: int, seed: int) -> int:
    rng = random.Random(seed)
    bounded = research_variant(variant)
    decisions = 0
    for number in range(games):
        game = Game(bounded, seed=seed * games + number)
        while not game.is_over():
            moves = game.generate_legal_moves()
            game.push(moves[rng.randrange(len(moves))])
            decisions += 1
    return decisions


def openspiel(variant: str, games: int, seed: int) -> int:
    rng = random.Random(seed)
    game = pyspiel.load_game(GAME_NAME, {"variant": variant})
    decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                weights = [p for _, p in outcomes]
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions


def pettingzoo(variant: str, games: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    env = HanamikojiAEC(variant=variant)
    decisions = 0
    for number in range(games):
        env.reset(seed=seed * games + number)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            decisions += 1
    return decisions


def gymnasium(variant: str, games: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    env = HanamikojiSingleAgentEnv(opponent="random", variant=variant, seat=None)
    decisions = 0
    for number in range(games):
        observation, _ = env.reset(seed=seed * games + number)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, done, _, _ = env.step(action)
        decisions += len(env.game.move_stack)
    return decisions


LOOPS: dict[str, Callable[[str, int, int], int]] = {
    "raw engine": raw_engine,
    "OpenSpiel state": openspiel,
    "PettingZoo AEC": pettingzoo,
    "Gymnasium (vs random)": gymnasium,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per API")
    parser.add_argument("--variant", default="three-rounds", help="variant (capped if unbounded)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for loop in LOOPS.values():  # warm caches (move generation, imports) outside the timing
        loop(args.variant, 5, args.seed + 1)
    print(f"{args.games} random games of {research_variant(args.variant).name} per API")
    print(f"{'API':<24} {'decisions':>10} {'seconds':>8} {'decisions/s':>12} {'ratio':>6}")
    base_rate = 0.0
    for name, loop in LOOPS.items():
        start = time.perf_counter()
        decisions = loop(args.variant, args.games, args.seed)
        elapsed = time.perf_counter() - start
        rate = decisions / elapsed
        base_rate = base_rate or rate
        print(f"{name:<24} {decisions:>10} {elapsed:>8.2f} {rate:>12.0f} {rate / base_rate:>6.2f}")


if __name__ == "__main__":
    main()
