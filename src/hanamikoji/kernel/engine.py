"""The compiled engine's Python interface: a :class:`Batch` of N games of one variant.

>>> batch = Batch("classic", seeds=[7, 8], first_player=[0, 1])
>>> from hanamikoji import Game
>>> int(batch.legal_counts()[0]) == len(Game(seed=7).legal_moves)
True
>>> batch.play(("greedy", "random"), seed=1)
>>> bool(batch.done.all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hanamikoji.bots.judge import Tuning
from hanamikoji.core.outcome import Outcome
from hanamikoji.core.variants import Variant
from hanamikoji.kernel import loops
from hanamikoji.kernel import tables as t
from hanamikoji.kernel.encoding import NUM_ACTIONS
from hanamikoji.kernel.loops import OBSERVATION_PIECES
from hanamikoji.kernel.policies import (
    Judge,
    TieBreaks,
    judge_tables,
    stream_states,
    tie_breaks,
)
from hanamikoji.kernel.rules import Games

__all__ = [
    "OBSERVATION_PIECES",
    "POLICIES",
    "Batch",
    "IllegalActionError",
    "Judge",
    "TieBreaks",
    "judge_tables",
    "stream_states",
    "tie_breaks",
]

POLICIES = {"random": loops.RANDOM, "greedy": loops.GREEDY}
"""The policies that play inside the kernel, by name."""

Ints = npt.NDArray[np.int64]


class IllegalActionError(ValueError):
    """An action that is not legal in its game (``game`` is its index in the batch)."""

    def __init__(self, game: int, action: int) -> None:
        super().__init__(f"action {action} is not legal in game {game} of the batch")
        self.game = game
        self.action = action


def _per_game(values: npt.ArrayLike, count: int, dtype: type) -> npt.NDArray[Any]:
    return np.broadcast_to(np.asarray(values, dtype=dtype), (count,)).copy()


class Batch:
    """N games of ``variant`` (a :class:`Variant` or its name, ``/cap=N`` included): game
    ``g`` is ``Game(variant, seed=seeds[g], first_player=first_player[g])``, dealt the
    same cards every round.

    The state is :attr:`games` (:class:`Games`: its fields are NumPy views, one value per
    game); decisions are action ids of the stable encoding. A game that is over stays as
    it ended: its legal mask is all zero and :meth:`step` leaves it alone.
    """

    def __init__(
        self,
        variant: Variant | str,
        seeds: npt.ArrayLike,
        first_player: npt.ArrayLike = 0,
    ) -> None:
        self.variant = Variant.by_name(variant) if isinstance(variant, str) else variant
        count = np.atleast_1d(np.asarray(seeds)).shape[0]
        self.games = Games(count)
        self.restart(np.arange(count), seeds, first_player)

    def __len__(self) -> int:
        return len(self.games)

    def restart(
        self, games: npt.ArrayLike, seeds: npt.ArrayLike, first_player: npt.ArrayLike = 0
    ) -> None:
        """Start games ``games`` (indices) again as new games with ``seeds`` and
        ``first_player`` (one for all or one per game): the reset of a vectorised
        environment, for the games that are over."""
        indices = np.atleast_1d(np.asarray(games, dtype=np.int64))
        seed_array = _per_game(seeds, indices.shape[0], np.uint64)
        firsts = _per_game(first_player, indices.shape[0], np.int8)
        if not np.isin(firsts, (0, 1)).all():
            raise ValueError("first_player is seat 0 or 1")
        loops.start_games(
            self.games.store,
            indices,
            seed_array,
            firsts,
            self.variant.max_rounds or 0,
            t.TIEBREAKS.index(self.variant.tiebreak),
        )

    # -- the state ------------------------------------------------------------------------

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        """Whether each game is over."""
        return self.games.termination >= 0

    @property
    def to_move(self) -> Ints:
        """The seat that decides now in each game; -1 once it is over."""
        return self.games.to_move

    def legal_mask(self, out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """(N, 534): 1 at the legal actions of each game (written into ``out`` if given:
        any integer or bool dtype), as ``legal_action_mask`` gives them one game at a time."""
        if out is None:
            out = np.empty((len(self), NUM_ACTIONS), dtype=np.int8)
        loops.legal_masks(self.games.store, out)
        return out

    def legal_counts(self) -> Ints:
        """How many distinct legal decisions each game has now."""
        out = np.empty(len(self), dtype=np.int64)
        loops.legal_counts(self.games.store, out)
        return out

    def rewards(self) -> npt.NDArray[np.float32]:
        """(N, 2): +1 for the winner and -1 for the loser of a game that is over, else 0
        (a draw, a shared win, a game that goes on), as the research environments."""
        winner = self.games.winner
        out = np.zeros((len(self), 2), dtype=np.float32)
        won = winner >= 0
        rows = np.nonzero(won)[0]
        out[rows, winner[won]] = 1.0
        out[rows, 1 - winner[won]] = -1.0
        return out

    def outcome(self, game: int) -> Outcome | None:
        """Game ``game``'s outcome as the core gives it, or ``None`` while it goes on."""
        s = self.games
        if s.termination[game] < 0:
            return None
        winner = int(s.winner[game])
        return Outcome(
            None if winner < 0 else winner,
            t.TERMINATIONS[s.termination[game]],
            (int(s.charm[game, 0]), int(s.charm[game, 1])),
            (int(s.geishas[game, 0]), int(s.geishas[game, 1])),
            int(s.round[game]),
        )

    def observation(
        self,
        seats: npt.ArrayLike,
        offsets: Sequence[int] | Ints,
        out: npt.NDArray[np.float32] | None = None,
        size: int | None = None,
    ) -> npt.NDArray[np.float32]:
        """(N, size): each game's observation tensor from ``seats`` (one seat for all, or
        one per game): the pieces of :data:`OBSERVATION_PIECES` written at ``offsets``.

        With ``research/observation.py``'s layout this is ``observation_tensor(view)``::

            offsets = [OBSERVATION_LAYOUT.offset(name) for name in OBSERVATION_PIECES]
            batch.observation(0, offsets, size=OBSERVATION_SIZE)
        """
        at = np.asarray(offsets, dtype=np.int64)
        if at.shape != (len(OBSERVATION_PIECES),):
            raise ValueError(f"one offset per piece of OBSERVATION_PIECES, not {at.shape}")
        if out is None:
            if size is None:
                raise ValueError("give the tensor's size or an array to write into")
            out = np.empty((len(self), size), dtype=np.float32)
        loops.observe(self.games.store, _per_game(seats, len(self), np.int8), at, out)
        return out

    # -- decisions ------------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> None:
        """Each game that goes on plays its action id (games over are left alone).

        Raises :class:`IllegalActionError` for the first illegal one, before any is played.
        """
        ids = _per_game(actions, len(self), np.int64)
        bad = loops.first_illegal(self.games.store, ids)
        if bad >= 0:
            raise IllegalActionError(bad, int(ids[bad]))
        loops.step_all(self.games.store, ids)

    def random_actions(self, states: npt.NDArray[np.uint64]) -> Ints:
        """A uniform choice among each game's distinct legal decisions (-1 once over),
        drawn from the games' streams ``states`` (:func:`stream_states`; advanced)."""
        out = np.empty(len(self), dtype=np.int64)
        loops.random_actions(self.games.store, states, out)
        return out

    def greedy_actions(
        self, judge: Judge, ties: TieBreaks, asked: npt.ArrayLike | None = None
    ) -> Ints:
        """The greedy bot's decision in each game (-1 once over), ties broken by ``ties``
        (:func:`tie_breaks`: as ``GreedyBot(seed=...)`` breaks them; advanced). With
        ``asked`` (one flag per game) only the flagged games are judged, the others -1:
        two judges sharing a batch (greedy bots of two tunings) each judge their seat's
        games."""
        flags = np.ones(len(self), dtype=np.bool_) if asked is None else np.asarray(asked)
        if flags.shape != (len(self),):
            raise ValueError(f"asked has one flag per game ({len(self)}), not {flags.shape}")
        out = np.empty(len(self), dtype=np.int64)
        loops.greedy_actions(self.games.store, judge, ties, flags.astype(np.bool_), out)
        return out

    def play(
        self,
        policies: tuple[str, str] = ("random", "random"),
        seed: int = 0,
        bot_seeds: npt.ArrayLike | None = None,
        record: int = 0,
        tuning: Tuning | None = None,
    ) -> Ints | None:
        """Play every game to its end inside the kernel, seat ``p`` by ``policies[p]``
        (``"random"`` or ``"greedy"``).

        ``seed`` seeds the random policy's streams; a greedy seat ``s`` of game ``g``
        breaks ties as ``GreedyBot(seed=bot_seeds[g][s])`` (default ``2 * g + s``). With
        ``record`` > 0 the first ``record`` decisions of each game are returned, an
        (N, record) array of action ids padded with -1.
        """
        codes = np.array([POLICIES[name] for name in policies], dtype=np.int64)
        count = len(self)
        greedy = loops.GREEDY in codes
        if bot_seeds is None:
            bot_seeds = np.arange(2 * count, dtype=np.uint64).reshape(count, 2)
        ties = tie_breaks(bot_seeds if greedy else np.zeros((0, 2), dtype=np.uint64), lazy=True)
        trace = np.full((count, record), -1, dtype=np.int64)
        loops.play(
            self.games.store, codes, stream_states(seed, count), judge_tables(tuning), ties, trace
        )
        return trace if record else None

    def perft(self, game: int, depth: int) -> list[int]:
        """The distinct sequences of 1 .. ``depth`` decisions from game ``game``'s position
        (the rule of ``tests/perft``)."""
        counts = np.zeros(depth, dtype=np.int64)
        ids = np.empty((depth, NUM_ACTIONS), dtype=np.int64)
        loops.perft(self.games.store, game, Games(depth).store, ids, counts)
        return [int(c) for c in counts]
