"""Puzzle ratings: puzzles and solvers rated against each other with Glicko-2.

As lichess rates its puzzles, an attempt is a game between the solver and the puzzle:
solving it is the solver's win, missing it the puzzle's, and both are rated from their
ratings before the attempt (:func:`~hanamikoji.arena.glicko2.rate_game`, one attempt a
rating period). A puzzle starts from its level (:func:`starting_rating`: a level-1
puzzle, with no alternative that looks close, at :data:`LEVEL_ONE`, each level
:data:`LEVEL_STEP` higher) with a deviation of :data:`PUZZLE_DEVIATION`, more certain
than a new solver's 350: its level already says something of how hard it is.

>>> solver, puzzle = rate_attempt(Rating(), starting_rating(2), solved=True)
>>> round(solver.rating), round(puzzle.rating) < 1500
(1670, True)
"""

from __future__ import annotations

from hanamikoji.arena.glicko2 import Rating, rate_game
from hanamikoji.puzzles.model import LEVELS

__all__ = [
    "LEVEL_ONE",
    "LEVEL_STEP",
    "PUZZLE_DEVIATION",
    "Rating",
    "rate_attempt",
    "starting_rating",
]

LEVEL_ONE = 1200.0
"""A level-1 puzzle's starting rating."""
LEVEL_STEP = 300.0
"""How much higher each level starts."""
PUZZLE_DEVIATION = 250.0
"""A new puzzle's deviation."""


def starting_rating(level: int) -> Rating:
    """A puzzle's rating before anyone tried it, from its level (1 to 5).

    >>> [starting_rating(level).rating for level in (1, 3, 5)]
    [1200.0, 1800.0, 2400.0]
    """
    if level not in LEVELS:
        raise ValueError(f"a level is 1 to 5, not {level}")
    return Rating(LEVEL_ONE + LEVEL_STEP * (level - 1), PUZZLE_DEVIATION)


def rate_attempt(solver: Rating, puzzle: Rating, *, solved: bool) -> tuple[Rating, Rating]:
    """The solver's and the puzzle's ratings after one attempt."""
    return rate_game(solver, puzzle, 1.0 if solved else 0.0)
