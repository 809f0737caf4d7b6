"""An OpenSpiel-style batch of N games, both seats played by the caller (self-play).

:class:`StateBatch` is the vectorised form of OpenSpiel's state calls (``current_player``,
``legal_actions_mask``, ``observation_tensor``, ``apply_action``, ``returns``,
``is_terminal``) for N games at once, as pgx's ``init`` / ``step``: each call answers
for every game with one array, computed by the compiled engine
(:class:`hanamikoji.kernel.Batch`). Actions are the ids of the stable encoding and
observations the tensors of :mod:`hanamikoji.research.observation`. There are no chance
nodes: game ``g`` is dealt as ``Game(variant, seed=seeds[g], first_player=...)`` is.

>>> games = StateBatch([7, 8], variant="three-rounds")
>>> games.current_player().tolist()
[0, 0]
>>> games.apply_actions(games.legal_actions_mask().argmax(axis=1))  # a legal id each
>>> games.observation_tensor(0).shape, games.is_terminal().tolist()
((2, 114), [False, False])
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from hanamikoji.kernel.engine import OBSERVATION_PIECES, Batch
from hanamikoji.research.observation import OBSERVATION_LAYOUT, OBSERVATION_SIZE
from hanamikoji.research.variant import DEFAULT_ROUND_CAP, research_variant

__all__ = ["TERMINAL_PLAYER", "StateBatch", "kernel_offsets"]

TERMINAL_PLAYER = -4
"""``current_player`` of a game that is over: OpenSpiel's ``PlayerId.TERMINAL``."""

Ints = npt.NDArray[np.int64]


def kernel_offsets() -> Ints:
    """Where :meth:`Batch.observation` writes each piece: the research layout's offsets."""
    return np.array([OBSERVATION_LAYOUT.offset(name) for name in OBSERVATION_PIECES])


class StateBatch:
    """N games of one bounded variant (``variant`` capped at ``round_cap`` rounds, as in
    the OpenSpiel game), game ``g`` seeded with ``seeds[g]`` and started by
    ``first_player`` (one seat for all, or one per game).

    Calls answer for every game at once; a game that is over stays as it ended (its mask
    all zero; :meth:`apply_actions` leaves it alone) until :meth:`restart`.
    """

    def __init__(
        self,
        seeds: npt.ArrayLike,
        variant: str = "classic",
        round_cap: int = DEFAULT_ROUND_CAP,
        first_player: npt.ArrayLike = 0,
    ) -> None:
        self.variant = research_variant(variant, round_cap)
        self.batch = Batch(self.variant, seeds, first_player)
        self._offsets = kernel_offsets()

    def __len__(self) -> int:
        return len(self.batch)

    def new_initial_states(self, seeds: npt.ArrayLike, first_player: npt.ArrayLike = 0) -> None:
        """Every game started again with ``seeds`` (one per game), like pgx's ``init``."""
        self.restart(np.arange(len(self)), seeds, first_player)

    def restart(
        self, games: npt.ArrayLike, seeds: npt.ArrayLike, first_player: npt.ArrayLike = 0
    ) -> None:
        """Games ``games`` (indices; those that are over, say) started again with
        ``seeds`` and ``first_player`` (one for all or one per game)."""
        self.batch.restart(games, seeds, first_player)

    def current_player(self) -> Ints:
        """(N,): the seat that decides in each game, :data:`TERMINAL_PLAYER` once over."""
        return np.where(self.batch.done, TERMINAL_PLAYER, self.batch.to_move)

    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        """(N, 534) int8: 1 at each legal action id of the player to move."""
        return self.batch.legal_mask()

    def observation_tensor(self, player: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """(N, 114) float32: each game's observation tensor from ``player``'s view (one
        seat for all games, or one per game), as ``observation_tensor(game.view(p))``."""
        return self.batch.observation(player, self._offsets, size=OBSERVATION_SIZE)

    def apply_actions(self, actions: npt.ArrayLike) -> None:
        """Each game that goes on plays its action id (the others' are ignored); raises
        the kernel's ``IllegalActionError`` (naming the game) before any is played."""
        self.batch.step(actions)

    def returns(self) -> npt.NDArray[np.float32]:
        """(N, 2): +1 to the winner and -1 to the loser of each game that is over, 0 each
        for no winner, a shared win or a game that goes on (OpenSpiel's returns)."""
        return self.batch.rewards()

    def is_terminal(self) -> npt.NDArray[np.bool_]:
        """(N,): whether each game is over."""
        return self.batch.done
