"""A Gymnasium ``VectorEnv`` on the compiled engine: N copies of the single-agent env.

:class:`HanamikojiVectorEnv` is ``num_envs`` copies of
:class:`~hanamikoji.research.gym_env.HanamikojiSingleAgentEnv` played as one
:class:`~hanamikoji.kernel.Batch`: the same spaces, seeds, rewards, infos and illegal
actions, with the opponent (``"random"`` or ``"greedy"``) deciding inside compiled code,
so a step is one compiled call for every game and every opponent decision. Sub-env ``i``
draws what the single env draws after ``reset(seed=seed + i)``, and the opponents draw
what ``RandomBot`` and ``GreedyBot`` draw, so on the same seeds the vector env and
``SyncVectorEnv`` of single envs give identical results (``tests/test_research_vector.py``).

>>> env = HanamikojiVectorEnv(num_envs=4, opponent="greedy", variant="three-rounds")
>>> observations, infos = env.reset(seed=3)
>>> observations["observation"].shape, observations["action_mask"].shape
((4, 114), (4, 534))
>>> actions = observations["action_mask"].argmax(axis=1)   # each env's first legal decision
>>> observations, rewards, terminations, truncations, infos = env.step(actions)
>>> bool(infos["illegal_action"].any())
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from hanamikoji.core.rng import MAX_SEED
from hanamikoji.kernel import policies as pol
from hanamikoji.kernel import rules as r
from hanamikoji.kernel import tables as t
from hanamikoji.kernel.engine import Batch, IllegalActionError, judge_tables, tie_breaks
from hanamikoji.notation.outcomes import describe_outcome
from hanamikoji.research.batch import kernel_offsets
from hanamikoji.research.encoding import NUM_ACTIONS
from hanamikoji.research.observation import OBSERVATION_SIZE
from hanamikoji.research.pettingzoo_env import observation_space
from hanamikoji.research.variant import DEFAULT_ROUND_CAP, research_variant

__all__ = ["OPPONENTS", "VECTOR_ENV_ID", "HanamikojiVectorEnv"]

VECTOR_ENV_ID = "hanamikoji/HanamikojiVector-v1"
"""The id under which importing this module registers the vector env with
``gymnasium.make_vec`` (``num_envs`` and keyword arguments as for the class)."""

OPPONENTS = {"random": 0, "greedy": 1}
"""The opponents that play inside the kernel, by name (as :func:`make_bot` names them)."""
_GREEDY = OPPONENTS["greedy"]

Observations = dict[str, npt.NDArray[Any]]
"""``observation`` (N, 114) float32 and ``action_mask`` (N, 534) int8."""
Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Seeds = int | Sequence[int | None] | None


@r.jit
def _opponent_action(
    s: r.State, g: int, code: int, judge: pol.Judge, ties: pol.TieBreaks, ids: Any
) -> int:
    """The opponent's decision in game ``g``: ``GreedyBot.choose`` or ``RandomBot.choose``
    (``legal[rng.randrange(len(legal))]``, from the same Mersenne Twister)."""
    if code == _GREEDY:
        return pol.greedy_action(s, g, judge, ties, ids)
    seat = s[r.TO_MOVE, g]
    return r.legal_at(s, g, pol.randbelow(ties, g, seat, r.legal_count(s, g)))


@r.jit
def _advance(
    s: r.State,
    actions: Any,
    seats: Any,
    code: int,
    judge: pol.Judge,
    ties: pol.TieBreaks,
    illegal: Any,
) -> None:
    """Game ``g`` plays the learner's ``actions[g]`` (none if negative; flagged in
    ``illegal`` and not played if illegal), then the opponent decides until the learner
    (seat ``seats[g]``) must or the game is over."""
    ids = np.empty(t.ACTIONS_COUNT, dtype=np.int64)
    for g in range(actions.shape[0]):
        action = actions[g]
        if action >= 0 and s[r.TERMINATION, g] < 0:
            if not r.is_legal(s, g, action):
                illegal[g] = True
                continue
            r.step(s, g, action)
        while s[r.TERMINATION, g] < 0 and s[r.TO_MOVE, g] != seats[g]:
            r.step(s, g, _opponent_action(s, g, code, judge, ties, ids))


class HanamikojiVectorEnv(VectorEnv[Observations, Ints, npt.NDArray[Any]]):
    """``num_envs`` single-agent games against a bot played inside the kernel.

    Args:
        num_envs: how many games.
        opponent: ``"random"`` or ``"greedy"`` (the single env's other bots do not run
            in the kernel).
        variant: as for :class:`~hanamikoji.research.gym_env.HanamikojiSingleAgentEnv`,
            for every sub-env; so are the next four.
        round_cap: the same.
        seat: the same.
        first_player: the same.
        illegal_action: the same (with ``"raise"`` an illegal action raises the kernel's
            ``IllegalActionError``, naming the sub-env, before any game is played).
        autoreset_mode: ``NEXT_STEP`` (Gymnasium's default: the step after an episode's
            end resets that sub-env and ignores its action) or ``SAME_STEP`` (the step
            that ends it returns the new episode's observation; the last one is in
            ``infos["final_obs"]``, its info in ``infos["final_info"]``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium reads it on the class)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        opponent: str = "random",
        variant: str = "classic",
        round_cap: int = DEFAULT_ROUND_CAP,
        seat: int | None = 0,
        first_player: int | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        _check_arguments(num_envs, opponent, seat, first_player, illegal_action)
        mode = AutoresetMode(autoreset_mode)
        if mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode is NEXT_STEP or SAME_STEP")
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.num_envs = num_envs
        self.opponent = opponent
        self.variant = research_variant(variant, round_cap)
        self.seat_choice = seat
        self.first_player_choice = first_player
        self.illegal_action = illegal_action
        self.single_observation_space = observation_space(self.variant)
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.batch = Batch(self.variant, np.zeros(num_envs, dtype=np.uint64))
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self._offsets = kernel_offsets()
        self._judge = judge_tables()
        self._ties = tie_breaks(np.zeros((num_envs, 2), dtype=np.uint64))
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._started = False
        self._outcome_texts: dict[tuple[int, ...], str] = {}

    # -- the games ------------------------------------------------------------------------

    def _draw(self, env: int) -> tuple[int, int, int, int]:
        """Sub-env ``env``'s next game seed, bot seed, seat and first player, drawn as the
        single env's ``reset`` draws them."""
        rng = self._rngs[env]
        if rng is None:
            rng = self._rngs[env] = seeding.np_random()[0]
        game_seed = int(rng.integers(0, MAX_SEED, endpoint=True, dtype=np.uint64))
        bot_seed = int(rng.integers(0, 2**63))
        seat = int(rng.integers(2)) if self.seat_choice is None else self.seat_choice
        first = self.first_player_choice
        return game_seed, bot_seed, seat, int(rng.integers(2)) if first is None else first

    def _restart(self, envs: Ints) -> None:
        """New games in sub-envs ``envs``, up to the learner's first decision."""
        if envs.size == 0:
            return
        draws = [self._draw(int(env)) for env in envs]
        game_seeds = np.array([draw[0] for draw in draws], dtype=np.uint64)
        bot_seeds = np.array([draw[1] for draw in draws], dtype=np.uint64)
        self.seats[envs] = [draw[2] for draw in draws]
        self.batch.restart(envs, game_seeds, [draw[3] for draw in draws])
        self._seed_opponents(envs, bot_seeds)
        self._autoreset[envs] = False

    def _seed_opponents(self, envs: Ints, bot_seeds: npt.NDArray[np.uint64]) -> None:
        """The opponents of sub-envs ``envs`` draw as bots seeded with ``bot_seeds``: one
        generator per seed, :func:`tie_breaks` filling two per row."""
        count = envs.size
        paired = np.resize(bot_seeds, count + count % 2).reshape(-1, 2)
        fresh = tie_breaks(paired)
        opponents = 1 - self.seats[envs]
        self._ties.words[envs, opponents] = fresh.words.reshape(-1, fresh.words.shape[2])[:count]
        self._ties.position[envs, opponents] = fresh.position.reshape(-1)[:count]

    def _advance(self, actions: Ints) -> Flags:
        """The learner's actions (-1: none) and the opponents' answers; which were illegal."""
        illegal = np.zeros(self.num_envs, dtype=np.bool_)
        code = OPPONENTS[self.opponent]
        _advance(
            self.batch.games.store, actions, self.seats, code, self._judge, self._ties, illegal
        )
        return illegal

    # -- what the learner gets ------------------------------------------------------------

    def _observations(self) -> Observations:
        """Fresh arrays: each game from the learner's seat, and its legal actions."""
        observation = self.batch.observation(self.seats, self._offsets, size=OBSERVATION_SIZE)
        return {"observation": observation, "action_mask": self.batch.legal_mask()}

    def _rewards(self, illegal: Flags) -> npt.NDArray[np.float64]:
        rewards = self.batch.rewards()[np.arange(self.num_envs), self.seats]
        return np.where(illegal, -1.0, rewards.astype(np.float64))

    def _outcomes(self, envs: Flags) -> npt.NDArray[Any]:
        """The single env's ``outcome`` of sub-envs ``envs``: the words of those that are
        over (remembered by the outcome's fields), else ``None``."""
        outcomes = np.full(self.num_envs, None, dtype=object)
        ended = np.flatnonzero(envs & self.batch.done)
        games = self.batch.games
        fields = (games.winner, games.termination, games.charm, games.geishas, games.round)
        keys = np.column_stack([field[ended] for field in fields]).tolist()
        for env, key in zip(ended, map(tuple, keys), strict=True):
            text = self._outcome_texts.get(key)
            if text is None:
                outcome = self.batch.outcome(int(env))
                text = self._outcome_texts[key] = describe_outcome(outcome) if outcome else ""
            outcomes[env] = text
        return outcomes

    def _infos(self, envs: Flags, illegal: Flags) -> dict[str, Any]:
        """The single env's infos of sub-envs ``envs``, batched as ``SyncVectorEnv`` does."""
        values = {
            "seat": np.where(envs, self.seats, 0),
            "illegal_action": illegal & envs,
            "outcome": self._outcomes(envs),
        }
        infos: dict[str, Any] = {}
        for key, value in values.items():
            infos[key], infos[f"_{key}"] = value, envs.copy()
        return infos

    # -- the Gymnasium interface -------------------------------------------------------------

    def reset(
        self, *, seed: Seeds = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """Reset every sub-env (or those of ``options["reset_mask"]``, a bool array):
        ``seed`` is ``None``, an int (sub-env ``i`` gets ``seed + i``) or one per sub-env."""
        if isinstance(seed, int):
            super().reset(seed=seed)
        envs, seeds = _reset_mask(options, self.num_envs), _seeds(seed, self.num_envs)
        for env in np.flatnonzero(envs):
            if (env_seed := seeds[env]) is not None:
                self._rngs[env] = seeding.np_random(int(env_seed))[0]
        self._restart(np.flatnonzero(envs))
        self._advance(np.full(self.num_envs, -1, dtype=np.int64))
        self._started = True
        return self._observations(), self._infos(envs, np.zeros_like(envs))

    def step(
        self, actions: Ints
    ) -> tuple[Observations, npt.NDArray[np.float64], Flags, Flags, dict[str, Any]]:
        """One decision of the learner in every sub-env, and the opponents' answers."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        ids = self._checked(actions)
        same_step = self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        resetting = self._autoreset.copy()
        self._restart(np.flatnonzero(resetting))
        ids[resetting] = -1
        illegal = self._advance(ids)
        observations = self._observations()
        rewards = self._rewards(illegal)
        terminations = self.batch.done | illegal
        infos = self._infos(np.ones(self.num_envs, dtype=np.bool_), illegal)
        if same_step and terminations.any():
            infos = self._final(observations, infos, terminations)
            observations = self._observations()
        else:
            self._autoreset = terminations.copy()
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        return observations, rewards, terminations, truncations, infos

    def _checked(self, actions: npt.ArrayLike) -> Ints:
        """The actions as an int64 copy; raises for a wrong shape, an id out of range or,
        with ``illegal_action="raise"``, an illegal decision."""
        ids = np.array(actions, dtype=np.int64).reshape(-1)
        if ids.shape != (self.num_envs,) or not ((ids >= 0) & (ids < NUM_ACTIONS)).all():
            raise ValueError(f"one action id in 0..{NUM_ACTIONS - 1} per sub-env: {actions!r}")
        if self.illegal_action == "raise":
            legal = self.batch.legal_mask()[np.arange(self.num_envs), ids] == 1
            bad = np.flatnonzero(~legal & ~self._autoreset)  # NEXT_STEP ignores those
            if bad.size:
                raise IllegalActionError(int(bad[0]), int(ids[bad[0]]))
        return ids

    def _final(
        self, observations: Observations, infos: dict[str, Any], ended: Flags
    ) -> dict[str, Any]:
        """``SAME_STEP``: the ended sub-envs' last observations and infos moved into
        ``final_obs`` and ``final_info``, those sub-envs reset, their infos the reset's."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        for env in np.flatnonzero(ended):
            final_obs[env] = {key: value[env] for key, value in observations.items()}
        final_info = self._infos(ended, infos["illegal_action"])
        self._restart(np.flatnonzero(ended))
        self._advance(np.full(self.num_envs, -1, dtype=np.int64))
        fresh = self._infos(ended, np.zeros_like(ended))
        for key in ("seat", "illegal_action", "outcome"):
            infos[key] = np.where(ended, fresh[key], infos[key])
        infos["final_obs"], infos["_final_obs"] = final_obs, ended.copy()
        infos["final_info"], infos["_final_info"] = final_info, ended.copy()
        return infos


def _check_arguments(
    num_envs: int, opponent: str, seat: int | None, first_player: int | None, illegal: str
) -> None:
    if num_envs < 1:
        raise ValueError(f"num_envs is at least 1, not {num_envs!r}")
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent is one of {sorted(OPPONENTS)} (kernel policies)")
    if seat not in (0, 1, None):
        raise ValueError(f"seat is 0, 1 or None, not {seat!r}")
    if first_player not in (0, 1, None):
        raise ValueError(f"first_player is 0, 1 or None, not {first_player!r}")
    if illegal not in ("lose", "raise"):
        raise ValueError(f"illegal_action is 'lose' or 'raise', not {illegal!r}")


def _seeds(seed: Seeds, count: int) -> npt.NDArray[Any]:
    """One seed (or ``None``) per sub-env, as ``SyncVectorEnv.reset`` spreads them."""
    if seed is None:
        return np.full(count, None, dtype=object)
    if isinstance(seed, int):
        return np.array([seed + i for i in range(count)], dtype=object)
    if len(seed) != count:
        raise ValueError(f"one seed per sub-env: {count}, not {len(seed)}")
    return np.array(list(seed), dtype=object)


def _reset_mask(options: dict[str, Any] | None, count: int) -> Flags:
    """The sub-envs to reset: ``options["reset_mask"]`` (a bool array) or all of them."""
    mask = (options or {}).get("reset_mask")
    if mask is None:
        return np.ones(count, dtype=np.bool_)
    if not isinstance(mask, np.ndarray) or mask.shape != (count,) or mask.dtype != np.bool_:
        raise ValueError(f"options['reset_mask'] is a bool array of shape ({count},)")
    return mask.copy()


if VECTOR_ENV_ID not in gymnasium.registry:
    gymnasium.register(id=VECTOR_ENV_ID, vector_entry_point=f"{__name__}:HanamikojiVectorEnv")
