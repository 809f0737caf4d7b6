"""The vectorised research interfaces: ``HanamikojiVectorEnv`` against ``SyncVectorEnv``
of the single-agent env on the same seeds, and ``StateBatch`` against ``Game``.

Gymnasium 1.4 has no checker for vector environments: ``check_env`` runs on one sub-env
seen as a single env (:class:`SubEnv`), and the vector interface is checked here
(spaces, seeding, autoreset, fresh arrays, registration).
"""

from __future__ import annotations

import random
import warnings
from functools import partial
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from hanamikoji.core import Game
from hanamikoji.kernel.engine import IllegalActionError
from hanamikoji.research.batch import TERMINAL_PLAYER, StateBatch
from hanamikoji.research.encoding import NUM_ACTIONS, encode, legal_action_mask
from hanamikoji.research.gym_env import HanamikojiSingleAgentEnv
from hanamikoji.research.observation import observation_tensor
from hanamikoji.research.variant import research_variant
from hanamikoji.research.vector_env import VECTOR_ENV_ID, HanamikojiVectorEnv

Observation = dict[str, npt.NDArray[Any]]


class SubEnv(gymnasium.Env[Observation, np.int64]):
    """Sub-env 0 of a one-game vector env (``NEXT_STEP``: an episode's last step is its
    own), as a single env for ``check_env``."""

    def __init__(self, **options: Any) -> None:
        self.vector = HanamikojiVectorEnv(num_envs=1, **options)
        self.observation_space = self.vector.single_observation_space
        self.action_space = self.vector.single_action_space

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        observations, infos = self.vector.reset(seed=seed, options=options)
        return _first(observations), _first(infos)

    def step(self, action: np.int64) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        observations, rewards, terminated, _, infos = self.vector.step(np.array([action]))
        return _first(observations), float(rewards[0]), bool(terminated[0]), False, _first(infos)


def _first(batched: dict[str, Any]) -> dict[str, Any]:
    """Entry 0 of each batched value (Python scalars for infos), the masks left out."""
    first: dict[str, Any] = {}
    for key, value in batched.items():
        if key in ("observation", "action_mask") or value.dtype == object:
            first[key] = value[0]
        elif not key.startswith("_"):
            first[key] = value[0].item()
    return first


def learner_actions(rng: np.random.Generator, masks: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
    """A uniform legal id in each game (any id where none is legal), and now and then
    (1 in 50) any id at all, legal or not."""
    legal = np.where(masks.any(axis=1, keepdims=True), masks, 1)
    choice = (legal * rng.random(masks.shape)).argmax(axis=1)
    wild = rng.random(len(masks)) < 0.02
    return np.where(wild, rng.integers(NUM_ACTIONS, size=len(masks)), choice)


def play_side_by_side(options: dict[str, Any], envs: int, steps: int, seed: int) -> int:
    """The vector env and ``SyncVectorEnv`` of single envs, same seeds and actions:
    every step's results equal. Returns how many episodes ended."""
    mode = options.get("autoreset_mode", AutoresetMode.NEXT_STEP)
    single = {key: value for key, value in options.items() if key != "autoreset_mode"}
    vector = HanamikojiVectorEnv(num_envs=envs, **options)
    reference = SyncVectorEnv(
        [partial(HanamikojiSingleAgentEnv, **single)] * envs, autoreset_mode=mode
    )
    observations, infos = vector.reset(seed=seed)
    assert data_equivalence((observations, infos), reference.reset(seed=seed), exact=True)
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        actions = learner_actions(rng, observations["action_mask"])
        got = vector.step(actions)
        assert data_equivalence(got, reference.step(actions), exact=True), actions
        observations, terminations = got[0], got[2]
        assert vector.observation_space.contains(observations)
        ended += int(terminations.sum())
    return ended


@pytest.mark.parametrize(
    "options",
    [
        {"opponent": "random", "variant": "classic", "round_cap": 2},
        {"opponent": "random", "variant": "french", "seat": None, "first_player": 1},
        {"opponent": "random", "variant": "three-rounds", "seat": 1, "first_player": None},
        {"opponent": "random", "autoreset_mode": AutoresetMode.SAME_STEP, "seat": None},
        {"opponent": "greedy", "variant": "three-rounds", "seat": None},
        {"opponent": "greedy", "autoreset_mode": AutoresetMode.SAME_STEP, "round_cap": 1},
    ],
)
def test_the_vector_env_is_the_single_env_on_the_same_seeds(options: dict[str, Any]) -> None:
    greedy = options["opponent"] == "greedy"
    ended = play_side_by_side(
        options, envs=8 if greedy else 32, steps=80 if greedy else 150, seed=5
    )
    assert ended >= 8


def test_one_sub_env_passes_gymnasiums_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SubEnv(opponent="greedy", variant="three-rounds"), skip_render_check=True)
        check_env(SubEnv(seat=None, first_player=None), skip_render_check=True)


def test_make_vec_builds_it_from_its_id() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make_vec(VECTOR_ENV_ID, num_envs=3, opponent="greedy")
    assert isinstance(env, HanamikojiVectorEnv) and env.num_envs == 3
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert env.action_space == gymnasium.spaces.MultiDiscrete([NUM_ACTIONS] * 3)
    assert env.single_observation_space == HanamikojiSingleAgentEnv().observation_space
    same_step = HanamikojiVectorEnv(2, autoreset_mode=AutoresetMode.SAME_STEP)
    assert same_step.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert HanamikojiVectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


def test_spaces_seeds_and_fresh_arrays() -> None:
    env = HanamikojiVectorEnv(num_envs=8, seat=None, first_player=None)
    first, _ = env.reset(seed=11)
    assert env.observation_space.contains(first)
    again, _ = env.reset(seed=11)
    assert data_equivalence(first, again, exact=True)
    listed, _ = env.reset(seed=[11 + i for i in range(8)])
    assert data_equivalence(first, listed, exact=True)
    unseeded, _ = env.reset()
    assert env.observation_space.contains(unseeded)
    step, *_ = env.step(env.action_space.sample())
    assert env.observation_space.contains(step)
    for key in first:
        assert not np.shares_memory(unseeded[key], step[key])


def test_a_reset_mask_resets_only_those_sub_envs() -> None:
    env = HanamikojiVectorEnv(num_envs=4)
    observations, _ = env.reset(seed=2)
    observations, *_ = env.step(observations["action_mask"].argmax(axis=1))
    mask = np.array([True, False, True, False])
    partial_reset, infos = env.reset(seed=2, options={"reset_mask": mask})
    fresh, _ = HanamikojiVectorEnv(num_envs=4).reset(seed=2)
    for key, value in partial_reset.items():
        assert (value[mask] == fresh[key][mask]).all()
        assert (value[~mask] == observations[key][~mask]).all()
    assert (infos["_seat"] == mask).all()


def test_illegal_actions_lose_or_raise() -> None:
    env = HanamikojiVectorEnv(num_envs=2)
    observations, _ = env.reset(seed=4)
    actions = observations["action_mask"].argmax(axis=1)
    actions[1] = int(observations["action_mask"][1].argmin())  # not legal
    _, rewards, terminations, _, infos = env.step(actions)
    assert rewards.tolist() == [0.0, -1.0] and terminations.tolist() == [False, True]
    assert infos["illegal_action"].tolist() == [False, True]
    strict = HanamikojiVectorEnv(num_envs=2, illegal_action="raise")
    strict.reset(seed=4)
    with pytest.raises(IllegalActionError, match="game 1"):
        strict.step(actions)
    with pytest.raises(ValueError, match="one action id"):
        strict.step(np.array([0, NUM_ACTIONS]))


def test_wrong_arguments_and_steps_before_reset_are_refused() -> None:
    with pytest.raises(gymnasium.error.ResetNeeded):
        HanamikojiVectorEnv(num_envs=2).step(np.zeros(2, dtype=np.int64))
    for options in ({"opponent": "ismcts"}, {"seat": 2}, {"num_envs": 0}, {"first_player": 3}):
        with pytest.raises(ValueError):
            HanamikojiVectorEnv(**options)
    with pytest.raises(ValueError):
        HanamikojiVectorEnv(autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="reset_mask"):
        HanamikojiVectorEnv(num_envs=2).reset(options={"reset_mask": [True, False]})


# -- the OpenSpiel-style batch ------------------------------------------------------------


def check_against_games(states: StateBatch, games: list[Game]) -> None:
    """Each game of ``states`` is ``games[g]``: player, mask, both observations, end."""
    players = [TERMINAL_PLAYER if game.is_over() else game.to_move for game in games]
    assert states.current_player().tolist() == players
    assert states.is_terminal().tolist() == [game.is_over() for game in games]
    masks = states.legal_actions_mask()
    for seat in (0, 1):
        tensors = states.observation_tensor(seat)
        for g, game in enumerate(games):
            assert (tensors[g] == observation_tensor(game.view(seat))).all()
    for g, game in enumerate(games):
        assert (masks[g] == legal_action_mask(game)).all()


def expected_returns(game: Game) -> list[float]:
    outcome = game.outcome
    if outcome is None or outcome.winner is None:
        return [0.0, 0.0]
    return [1.0 if outcome.winner == seat else -1.0 for seat in (0, 1)]


@pytest.mark.parametrize("variant", ["classic", "three-rounds", "french"])
def test_the_batch_plays_as_the_core_on_the_same_seeds(variant: str) -> None:
    seeds = list(range(1000, 1100))
    firsts = [seed % 2 for seed in seeds]
    states = StateBatch(seeds, variant=variant, round_cap=3, first_player=firsts)
    capped = research_variant(variant, 3)
    games = [Game(capped, seed=s, first_player=f) for s, f in zip(seeds, firsts, strict=True)]
    rng = random.Random(variant)
    while not states.is_terminal().all():
        check_against_games(states, games)
        actions = np.zeros(len(games), dtype=np.int64)
        for g, game in enumerate(games):
            if not game.is_over():
                move = rng.choice(game.legal_moves)
                actions[g] = encode(move)
                game.push(move)
        states.apply_actions(actions)
    check_against_games(states, games)
    assert states.returns().tolist() == [expected_returns(game) for game in games]


def test_the_batch_restarts_games_and_refuses_illegal_actions() -> None:
    states = StateBatch([1, 2, 3])
    states.apply_actions(states.legal_actions_mask().argmax(axis=1))
    states.new_initial_states([1, 2, 3])
    check_against_games(states, [Game(research_variant("classic"), seed=s) for s in (1, 2, 3)])
    states.restart([1], seeds=9, first_player=1)
    assert states.current_player().tolist() == [0, 1, 0]
    with pytest.raises(IllegalActionError, match="game 0"):
        states.apply_actions([0, 0, 0])
    assert len(states) == 3
