"""Vectorised research API speed: steps per second of ``HanamikojiVectorEnv`` and
``StateBatch`` (the compiled engine), beside ``SyncVectorEnv`` of the single-agent env.

Run: ``.venv/bin/python benchmarks/vector_env.py [--envs N] [--seconds S] [--variant V]``
(needs the ``research`` and ``fast`` extras).

Each loop runs for about S seconds after a warm-up (compiling, numba's cache) and counts
steps: a sub-env's step (a learner's decision, with the opponent's answers played inside)
for the environments, one game's decision for the batch. The learner decides uniformly
among the legal ids of its mask, a NumPy draw over the whole batch that is not timed (it
costs about as much as a step of the vector env with the random opponent): the time is
that of the API's calls.

- *vector env*: ``HanamikojiVectorEnv(num_envs=N)`` against the ``random`` and the
  ``greedy`` opponent, ``NEXT_STEP`` autoreset;
- *batch*: ``StateBatch`` of N games in self-play: ``apply_actions()``, the games that
  are over restarted with new seeds, ``observation_tensor(current_player())`` and
  ``legal_actions_mask()``;
- *sync*: ``SyncVectorEnv`` of 64 ``HanamikojiSingleAgentEnv`` (the Python engine),
  random opponent, for the ratio.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import SyncVectorEnv, VectorEnv

from hanamikoji.research.batch import StateBatch
from hanamikoji.research.gym_env import HanamikojiSingleAgentEnv
from hanamikoji.research.vector_env import HanamikojiVectorEnv

SYNC_ENVS = 64


def uniform_legal(rng: np.random.Generator, masks: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
    """A uniform legal id per row of ``masks`` (id 0 where none is legal)."""
    actions: npt.NDArray[Any] = (masks * rng.random(masks.shape, dtype=np.float32)).argmax(axis=1)
    return actions


Loop = Callable[[], tuple[int, float]]
"""One round of a loop: the steps made and the seconds spent in the API's calls."""


def timed(loop: Loop, seconds: float) -> tuple[int, float]:
    """Runs ``loop`` until ``seconds`` have been spent in the API: steps, those seconds."""
    steps, spent = 0, 0.0
    while spent < seconds:
        made, took = loop()
        steps, spent = steps + made, spent + took
    return steps, spent


def env_loop(env: VectorEnv[Any, Any, Any], seed: int) -> Loop:
    """One vector step with uniform legal actions per call."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)

    def step() -> tuple[int, float]:
        nonlocal observations
        actions = uniform_legal(rng, observations["action_mask"])
        start = time.perf_counter()
        observations, *_ = env.step(actions)
        return env.num_envs, time.perf_counter() - start

    return step


def batch_loop(states: StateBatch, seed: int) -> Loop:
    """One decision in every game per call (the games over start again first), with the
    observation tensors of the players to move."""
    rng = np.random.default_rng(seed)
    next_seed = len(states)
    masks = states.legal_actions_mask()

    def step() -> tuple[int, float]:
        nonlocal next_seed, masks
        actions = uniform_legal(rng, masks)
        start = time.perf_counter()
        states.apply_actions(actions)
        over = np.flatnonzero(states.is_terminal())
        if over.size:
            states.restart(over, np.arange(next_seed, next_seed + over.size))
            next_seed += over.size
        states.observation_tensor(states.current_player())
        masks = states.legal_actions_mask()
        return len(states), time.perf_counter() - start

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024, help="games in the batch")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per loop")
    parser.add_argument("--variant", default="classic", help="variant (capped if unbounded)")
    args = parser.parse_args()
    n, variant = args.envs, args.variant
    loops: dict[str, Callable[[], Loop]] = {
        f"vector env, random opponent, N={n}": lambda: env_loop(
            HanamikojiVectorEnv(n, opponent="random", variant=variant), 1
        ),
        f"vector env, greedy opponent, N={n}": lambda: env_loop(
            HanamikojiVectorEnv(n, opponent="greedy", variant=variant), 2
        ),
        f"batch, self-play, N={n}": lambda: batch_loop(StateBatch(np.arange(n), variant), 3),
        f"SyncVectorEnv, random opponent, N={SYNC_ENVS}": lambda: env_loop(
            SyncVectorEnv([partial(HanamikojiSingleAgentEnv, variant=variant)] * SYNC_ENVS), 4
        ),
    }
    print(f"{'loop':<40} {'steps':>10} {'seconds':>8} {'steps/s':>12}")
    for name, make in loops.items():
        loop = make()
        timed(loop, 0.2)  # warm-up: compiling or loading numba's cache
        steps, elapsed = timed(loop, args.seconds)
        print(f"{name:<40} {steps:>10} {elapsed:>8.2f} {steps / elapsed:>12,.0f}")


if __name__ == "__main__":
    main()
