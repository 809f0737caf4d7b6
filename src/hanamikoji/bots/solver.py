"""Exact solving of the rest of a round in one fully known (sampled) world.

With every card known, the rest of a round is a finite two-player game whose leaves are
valued by what the round's end means for the match. Near the end of a round it is
small enough to solve exactly by minimax with a transposition table; averaging the
solved value of each decision over many sampled worlds (perfect-information Monte
Carlo, Long et al. 2010) decides the last turns and the answers to offers there.
"""

from __future__ import annotations

import time

from hanamikoji.bots.evaluation import MatchValue, round_end_value
from hanamikoji.core.game import Game

__all__ = ["RoundSolver", "SolverTimeout", "round_over"]

_CLOCK_EVERY = 256
"""Positions solved between two looks at the clock."""


def round_over(game: Game, round_number: int) -> bool:
    """Whether ``game`` has left round ``round_number``: scored (waiting for the next
    deal, or, seeded, already in the next round) or over."""
    return game.needs_deal or game.is_over() or game.round != round_number


class SolverTimeout(Exception):
    """The solver's deadline passed before the value was known."""


class RoundSolver:
    """Seat 0's chance to win the match from a position, both players playing the rest
    of the round perfectly in a world they both see. With a ``deadline`` (a
    :func:`time.perf_counter` time) it raises :class:`SolverTimeout` once that has
    passed; the game is then left where the search had got to, so solve a copy.

    Its ``table`` of solved positions is keyed by :meth:`Game.position_key`, which holds
    everything that decides the rest of a round but not who started it: a table may be
    shared by the solvers of many worlds, within one round of one game (a search's
    sampled worlds meet the same last turns again and again), if they agree on
    ``chance_seat``: a seat that chooses uniformly at random instead of perfectly (as
    the ``random`` bot does), whose positions are then valued by the mean over its
    decisions (expectimax)."""

    __slots__ = ("chance_seat", "deadline", "match_value", "table")

    def __init__(
        self,
        match_value: MatchValue,
        deadline: float | None = None,
        table: dict[tuple[object, ...], float] | None = None,
        chance_seat: int | None = None,
    ) -> None:
        self.match_value = match_value
        self.chance_seat = chance_seat
        self.deadline = deadline
        self.table: dict[tuple[object, ...], float] = table if table is not None else {}

    def value(self, game: Game) -> float:
        """The minimax (or expectimax) value of ``game`` for seat 0 (restored to the
        same position)."""
        return self._value(game, game.round)

    def _value(self, game: Game, round_number: int) -> float:
        # A seeded game deals the next round by itself: its first position is a leaf too.
        if round_over(game, round_number):
            return round_end_value(game, 0, self.match_value)
        key = game.position_key()
        known = self.table.get(key)
        if known is not None:
            return known
        if (
            self.deadline is not None
            and len(self.table) % _CLOCK_EVERY == 0
            and time.perf_counter() > self.deadline
        ):
            raise SolverTimeout
        mover = game.to_move
        maximize = mover == 0
        best = -1.0 if maximize else 2.0
        total = 0.0
        legal = game.generate_legal_moves()
        for move in legal:
            game.push(move)
            result = self._value(game, round_number)
            game.pop()
            total += result
            if (result > best) if maximize else (result < best):
                best = result
        # A seat that chooses at random is worth the mean of its decisions, not the best.
        value = total / len(legal) if mover == self.chance_seat else best
        self.table[key] = value
        return value
