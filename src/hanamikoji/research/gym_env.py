"""A Gymnasium single-agent environment: the agent plays one seat, a bot the other.

Observations are the dict of the PettingZoo environment (``observation`` tensor and
``action_mask``), from the agent's view. The opponent's decisions, the opponent's
answers to the agent's Gifts and Competitions included, are played inside :meth:`step`,
so every observation the agent gets asks it for a decision (or ends the episode). The
reward is +1 for a win, -1 for a loss, 0 when nobody wins, at the end.

An action outside the mask is a loss by default (``illegal_action="lose"``: reward -1,
the episode ends, ``info["illegal_action"]`` is true), so that random actions sampled
from the action space, as Gymnasium's checker does, are well defined; with
``illegal_action="raise"`` it raises ``IllegalMoveError``.

>>> env = HanamikojiSingleAgentEnv(opponent="greedy", variant="three-rounds")
>>> observation, info = env.reset(seed=3)
>>> action = int(observation["action_mask"].argmax())   # the first legal decision
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> terminated, info["illegal_action"]
(False, False)
"""

from __future__ import annotations

import random
from typing import Any, Literal

import gymnasium
import numpy as np

from hanamikoji.bots import make_bot
from hanamikoji.bots.base import Bot
from hanamikoji.core.game import Game
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.notation.outcomes import describe_outcome
from hanamikoji.research.encoding import NUM_ACTIONS, decode, legal_action_mask
from hanamikoji.research.observation import observation_string, observation_tensor
from hanamikoji.research.pettingzoo_env import observation_space
from hanamikoji.research.variant import DEFAULT_ROUND_CAP, research_variant

__all__ = ["ENV_ID", "HanamikojiSingleAgentEnv"]

ENV_ID = "hanamikoji/Hanamikoji-v1"
"""The id under which importing this module registers the environment with
``gymnasium.make`` (keyword arguments as for the class)."""

Observation = dict[str, Any]
"""``observation`` (float32 vector) and ``action_mask`` (int8 vector)."""


class HanamikojiSingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """One seat against a bot.

    Args:
        opponent: a bot name (``"random"``, ``"greedy"``, any name :func:`make_bot`
            knows) or a :class:`Bot`. A bot given by name is built afresh, seeded, at each
            reset; a given bot is reseeded at each reset.
        variant: ``classic``, ``three-rounds`` or ``french``; an unbounded one is capped at
            ``round_cap`` rounds (then a draw).
        round_cap: see ``variant``.
        seat: the agent's seat (0 = Player 1, 1 = Player 2), or ``None`` to draw it at
            each reset.
        first_player: the seat starting round 1, or ``None`` to draw it at each reset.
        illegal_action: ``"lose"`` or ``"raise"`` (see the module documentation).
        render_mode: ``"ansi"`` or ``"human"``.
    """

    # Gymnasium declares ``metadata`` as an instance attribute, and reads it on the class.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponent: str | Bot = "random",
        variant: str = "classic",
        round_cap: int = DEFAULT_ROUND_CAP,
        seat: int | None = 0,
        first_player: int | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
    ) -> None:
        if seat not in (0, 1, None):
            raise ValueError(f"seat is 0, 1 or None, not {seat!r}")
        if first_player not in (0, 1, None):
            raise ValueError(f"first_player is 0, 1 or None, not {first_player!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action is 'lose' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")
        if isinstance(opponent, str):
            make_bot(opponent)  # an unknown name fails here, not at the first reset
        self.opponent_spec = opponent
        self.variant = research_variant(variant, round_cap)
        self.seat_choice = seat
        self.first_player_choice = first_player
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space(self.variant)
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.seat = 0 if seat is None else seat
        self.game = Game(self.variant, seed=0)
        self._done = True
        self.opponent: Bot = opponent if isinstance(opponent, Bot) else make_bot(opponent, 0)

    def _observe(self) -> Observation:
        view = self.game.view(self.seat)
        return {"observation": observation_tensor(view), "action_mask": legal_action_mask(view)}

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        outcome = self.game.outcome
        return {
            "seat": self.seat,
            "illegal_action": illegal,
            "outcome": None if outcome is None else describe_outcome(outcome),
        }

    def _play_opponent(self) -> None:
        game = self.game
        other = 1 - self.seat
        while game.to_move == other:
            game.push(self.opponent.choose(game.view(other), game.generate_legal_moves()))

    def _reward(self) -> float:
        outcome = self.game.outcome
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == self.seat else -1.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(0, MAX_SEED, endpoint=True, dtype=np.uint64))
        bot_seed = int(rng.integers(0, 2**63))
        self.seat = int(rng.integers(2)) if self.seat_choice is None else self.seat_choice
        first = self.first_player_choice
        first = int(rng.integers(2)) if first is None else first
        spec = self.opponent_spec
        if isinstance(spec, Bot):
            spec.seed = bot_seed
            spec.rng = random.Random(bot_seed)
            self.opponent = spec
        else:
            self.opponent = make_bot(spec, bot_seed)
        self.game = Game(self.variant, seed=game_seed, first_player=first)
        self._done = False
        self._play_opponent()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        move = decode(int(action))
        if not self.game.is_legal(move):
            if self.illegal_action == "raise":
                self.game.push(move)  # refused: IllegalMoveError says why
            self._done = True
            return self._observe(), -1.0, True, False, self._info(illegal=True)
        self.game.push(move)
        self._play_opponent()
        if self.render_mode == "human":
            self.render()
        terminated = self._done = self.game.is_over()
        return self._observe(), self._reward(), terminated, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = observation_string(self.game.view(self.seat))
        if self.game.outcome is not None:
            text += "\n" + describe_outcome(self.game.outcome)
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:HanamikojiSingleAgentEnv")
