"""Hanamikoji as a PettingZoo AEC environment.

Agents ``player_1`` and ``player_2`` are seats 0 and 1. Each observation is a dict: the
``observation`` tensor of :mod:`hanamikoji.research.observation` (the agent's view only)
and the ``action_mask`` over the :mod:`~hanamikoji.research.encoding` action ids (all
zero for an agent that is not to decide). Decisions alternate as the game says: after a
Gift or Competition the opponent answers before the turn passes. Rewards come at the
end: +1 for the winner, -1 for the loser, 0 each when nobody wins.

>>> env = HanamikojiAEC(variant="three-rounds")
>>> env.reset(seed=7)
>>> env.agent_selection
'player_1'
>>> observation, reward, terminated, truncated, info = env.last()
>>> int(observation["action_mask"].sum())  # distinct legal decisions of Player 1
76
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from hanamikoji.core.game import Game
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.core.variants import Variant
from hanamikoji.notation.outcomes import describe_outcome
from hanamikoji.research.encoding import NUM_ACTIONS, decode, legal_action_mask
from hanamikoji.research.observation import (
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    observation_string,
    observation_tensor,
)
from hanamikoji.research.variant import DEFAULT_ROUND_CAP, research_variant

__all__ = ["AGENTS", "HanamikojiAEC", "observation_space"]

AGENTS = ("player_1", "player_2")

Observation = dict[str, npt.NDArray[Any]]


def observation_space(variant: Variant) -> spaces.Dict:
    """The space of the observation dicts of a game of ``variant`` (a bounded one)."""
    high = OBSERVATION_LAYOUT.high()
    rounds = variant.max_rounds
    high[OBSERVATION_LAYOUT.offset("round")] = np.inf if rounds is None else rounds
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=0.0, high=high, shape=(OBSERVATION_SIZE,), dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


class HanamikojiAEC(AECEnv):  # type: ignore[misc]
    """Two agents, one game per episode.

    Args:
        variant: ``classic``, ``three-rounds`` or ``french``; an unbounded one is capped
            at ``round_cap`` rounds (then a draw), as in the OpenSpiel game.
        round_cap: see ``variant``.
        first_player: the seat starting round 1, or ``None`` to draw it at each reset.
        render_mode: ``"ansi"`` (:meth:`render` returns the text) or ``"human"`` (prints it).

    ``reset(seed=s)`` seeds the deals (the core's seeded deals) and the first player.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "hanamikoji_v1",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        round_cap: int = DEFAULT_ROUND_CAP,
        first_player: int | None = 0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")
        if first_player not in (0, 1, None):
            raise ValueError(f"first_player is 0, 1 or None, not {first_player!r}")
        self.variant = research_variant(variant, round_cap)
        self.first_player = first_player
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        space = observation_space(self.variant)
        self.observation_spaces = dict.fromkeys(AGENTS, space)
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._rng = np.random.default_rng()
        self.game = Game(self.variant, seed=0)
        self._reset_bookkeeping()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        seat = self.game.to_move
        self.agent_selection = AGENTS[0 if seat is None else seat]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, MAX_SEED, endpoint=True, dtype=np.uint64))
        first = self.first_player
        if first is None:
            first = int(self._rng.integers(2))
        self.game = Game(self.variant, seed=game_seed, first_player=first)
        self._reset_bookkeeping()

    def observe(self, agent: str) -> Observation:
        seat = AGENTS.index(agent)
        view = self.game.view(seat)
        return {"observation": observation_tensor(view), "action_mask": legal_action_mask(view)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must decide: an action id, not None")
        seat = AGENTS.index(agent)
        if self.game.to_move != seat:
            raise ValueError(f"it is not {agent}'s decision")
        self._cumulative_rewards[agent] = 0.0
        self.game.push(decode(int(action)))
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        outcome = self.game.outcome
        if outcome is not None:
            if outcome.winner is not None:
                self.rewards[AGENTS[outcome.winner]] = 1.0
                self.rewards[AGENTS[1 - outcome.winner]] = -1.0
            self.terminations = dict.fromkeys(AGENTS, True)
            for name in AGENTS:
                self.infos[name] = {"outcome": describe_outcome(outcome)}
            # Both agents see the end through last() once more before leaving.
            self.agent_selection = AGENTS[1 - seat]
        else:
            next_seat = self.game.to_move
            assert next_seat is not None
            self.agent_selection = AGENTS[next_seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.game.to_move
        lines = [observation_string(self.game.view(s)) for s in (0, 1)]
        if seat is not None:
            lines.insert(0, f"{AGENTS[seat]} to decide")
        if self.game.outcome is not None:
            lines.append(describe_outcome(self.game.outcome))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
