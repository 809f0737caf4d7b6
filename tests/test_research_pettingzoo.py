"""The PettingZoo AEC environment and the Gymnasium single-agent environment."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test  # type: ignore[import-untyped]

from hanamikoji.bots import RandomBot
from hanamikoji.core import IllegalMoveError
from hanamikoji.research.encoding import NUM_ACTIONS, decode, encode
from hanamikoji.research.gym_env import ENV_ID, HanamikojiSingleAgentEnv
from hanamikoji.research.observation import OBSERVATION_LAYOUT, observation_tensor
from hanamikoji.research.pettingzoo_env import AGENTS, HanamikojiAEC


def quiet(check: Any, *args: Any, **kwargs: Any) -> None:
    """Run an API checker without its advice about observation dicts and render modes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(*args, **kwargs)


def legal(observation: dict[str, np.ndarray]) -> np.ndarray:
    return np.flatnonzero(observation["action_mask"])


# -- PettingZoo ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"variant": "three-rounds"}, {"variant": "classic", "round_cap": 2, "first_player": None}],
    ids=["three-rounds", "classic-cap-2"],
)
def test_the_aec_environment_passes_the_pettingzoo_api_test(options: dict[str, Any]) -> None:
    quiet(api_test, HanamikojiAEC(**options), num_cycles=300, verbose_progress=False)


def play_aec(env: HanamikojiAEC, seed: int) -> tuple[list[int], dict[str, float]]:
    """One random episode: the decisions and each agent's total reward."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    actions: list[int] = []
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seat = AGENTS.index(agent)
        assert env.game.to_move == seat
        view = env.game.view(seat)
        assert np.array_equal(observation["observation"], observation_tensor(view))
        assert sorted(legal(observation)) == sorted(encode(m) for m in env.game.legal_moves)
        other = env.observe(AGENTS[1 - seat])
        assert not other["action_mask"].any()
        action = int(rng.choice(legal(observation)))
        actions.append(action)
        env.step(action)
    return actions, totals


@pytest.mark.parametrize("seed", range(3))
def test_an_aec_episode_is_the_game_and_pays_its_outcome(seed: int) -> None:
    env = HanamikojiAEC(variant="french", first_player=None)
    actions, totals = play_aec(env, seed)
    outcome = env.game.outcome
    assert outcome is not None and not env.agents
    assert [str(decode(a)) for a in actions] == [str(m) for m in env.game.move_stack]
    if outcome.winner is None:
        assert totals == {"player_1": 0.0, "player_2": 0.0}
    else:
        assert totals[AGENTS[outcome.winner]] == 1.0
        assert totals[AGENTS[1 - outcome.winner]] == -1.0
    assert play_aec(env, seed)[0] == actions  # the same seed, the same episode


def test_the_aec_environment_refuses_wrong_turns_and_options() -> None:
    env = HanamikojiAEC(variant="three-rounds")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="must decide"):
        env.step(None)
    with pytest.raises(ValueError, match="render_mode"):
        HanamikojiAEC(render_mode="rgb_array")
    with pytest.raises(ValueError, match="first_player"):
        HanamikojiAEC(first_player=2)


def test_the_aec_observation_space_holds_the_round_limit() -> None:
    env = HanamikojiAEC(variant="classic", round_cap=4, render_mode="ansi")
    space = env.observation_space("player_1")
    assert isinstance(space, gymnasium.spaces.Dict)
    box = space["observation"]
    assert isinstance(box, gymnasium.spaces.Box)
    assert box.high[OBSERVATION_LAYOUT.offset("round")] == 4
    assert env.action_space("player_2") == gymnasium.spaces.Discrete(NUM_ACTIONS)
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "classic/cap=4" in text


# -- Gymnasium ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"opponent": "greedy", "variant": "three-rounds", "seat": None, "render_mode": "ansi"},
    ],
    ids=["default", "greedy-any-seat"],
)
def test_the_single_agent_environment_passes_the_gymnasium_checker(
    options: dict[str, Any],
) -> None:
    quiet(check_env, HanamikojiSingleAgentEnv(**options), skip_render_check=False)


def test_the_registered_environment_passes_the_checker_with_every_render_mode() -> None:
    env = gymnasium.make(ENV_ID, variant="french", render_mode="ansi")
    quiet(check_env, env.unwrapped)
    env.close()


def play_gym(env: HanamikojiSingleAgentEnv, seed: int) -> tuple[list[int], float]:
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    actions: list[int] = []
    total = 0.0
    done = False
    while not done:
        assert env.game.to_move == info["seat"]
        action = int(rng.choice(legal(observation)))
        actions.append(action)
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
    return actions, total


@pytest.mark.parametrize("seat", [0, 1])
def test_a_gym_episode_is_one_seat_of_a_game(seat: int) -> None:
    env = HanamikojiSingleAgentEnv(opponent="random", variant="three-rounds", seat=seat)
    actions, total = play_gym(env, 5)
    outcome = env.game.outcome
    assert outcome is not None
    expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == seat else -1.0)
    assert total == expected
    mine = [str(e.move) for e in env.game.log() if e.seat == seat]
    assert mine == [str(decode(a)) for a in actions]
    assert play_gym(env, 5) == (actions, total)


def test_an_illegal_action_loses_or_raises() -> None:
    env = HanamikojiSingleAgentEnv(variant="three-rounds")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(illegal)
    strict = HanamikojiSingleAgentEnv(variant="three-rounds", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalMoveError):
        strict.step(illegal)


def test_a_given_bot_is_reseeded_at_each_reset() -> None:
    bot = RandomBot()
    env = HanamikojiSingleAgentEnv(opponent=bot, variant="three-rounds", seat=1)
    first = play_gym(env, 9)
    assert env.opponent is bot
    assert play_gym(env, 9) == first


def test_unknown_opponents_and_seats_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        HanamikojiSingleAgentEnv(opponent="nobody")
    with pytest.raises(ValueError, match="seat"):
        HanamikojiSingleAgentEnv(seat=2)
