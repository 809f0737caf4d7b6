"""Which puzzle next: near the solver's rating, the daily puzzle, a streak.

- :func:`next_puzzle`: among the puzzles of a theme (or all), not seen recently, the one
  whose rating is nearest the solver's; among those about as near (within
  :data:`NEAR`), one drawn from a seed, so two solvers of one rating do not all get the
  same puzzle, and the same seed always draws the same.
- :func:`daily_puzzle`: the same puzzle for everyone on a UTC date, drawn from the date.
- :func:`streak`: puzzles of rising difficulty, one from each of :data:`STREAK_LENGTH`
  bands of rating, lowest first; a streak ends at the first miss (:class:`Streak`).

Ratings are read through a mapping of puzzle ids (the server's current ratings); a
puzzle missing from it counts at its starting rating (:func:`~.rating.starting_rating`).

>>> from hanamikoji.puzzles import shipped_puzzles
>>> puzzles = shipped_puzzles()
>>> import datetime
>>> day = datetime.date(2026, 11, 28)
>>> daily_puzzle(puzzles, day) == daily_puzzle(puzzles, day)
True
>>> run = streak(puzzles, seed=7)
>>> len(run), all(rating_of(a, {}) <= rating_of(b, {}) for a, b in zip(run, run[1:]))
(30, True)
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from hanamikoji.puzzles.model import Puzzle
from hanamikoji.puzzles.rating import starting_rating

__all__ = [
    "NEAR",
    "STREAK_LENGTH",
    "Streak",
    "daily_puzzle",
    "next_puzzle",
    "rating_of",
    "streak",
]

NEAR = 150.0
"""Puzzles within this many points of the nearest one are drawn among."""
STREAK_LENGTH = 30
"""How many puzzles a streak holds at most."""


def rating_of(puzzle: Puzzle, ratings: Mapping[str, float]) -> float:
    """The puzzle's current rating, or its starting one."""
    found = ratings.get(puzzle.id)
    return starting_rating(puzzle.level).rating if found is None else found


def _draw(key: str) -> int:
    # A number from a key, the same on every machine and run (no hash randomisation).
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def next_puzzle(
    puzzles: Sequence[Puzzle],
    rating: float,
    *,
    ratings: Mapping[str, float],
    seen: Collection[str] = (),
    theme: str | None = None,
    seed: str = "",
) -> Puzzle | None:
    """The next puzzle for a solver rated ``rating`` (see the module's docstring), or
    ``None`` when every puzzle of the theme was seen."""
    pool = [
        puzzle
        for puzzle in puzzles
        if puzzle.id not in seen and (theme is None or theme in puzzle.themes)
    ]
    if not pool:
        return None
    distance = {puzzle.id: abs(rating_of(puzzle, ratings) - rating) for puzzle in pool}
    nearest = min(distance.values())
    near = [puzzle for puzzle in pool if distance[puzzle.id] <= nearest + NEAR]
    return min(near, key=lambda puzzle: (_draw(f"{seed}:{puzzle.id}"), puzzle.id))


def daily_puzzle(puzzles: Sequence[Puzzle], day: datetime.date) -> Puzzle:
    """The puzzle of ``day`` (a UTC date), the same for everyone."""
    if not puzzles:
        raise ValueError("no puzzles to choose from")
    ordered = sorted(puzzles, key=lambda puzzle: puzzle.id)
    return ordered[_draw(f"daily:{day.isoformat()}") % len(ordered)]


def streak(
    puzzles: Sequence[Puzzle],
    *,
    seed: int,
    ratings: Mapping[str, float] | None = None,
    length: int = STREAK_LENGTH,
) -> list[Puzzle]:
    """A streak's puzzles: ``puzzles`` by rating cut into ``length`` bands, one drawn
    from each band with ``seed``, lowest band first."""
    known = {} if ratings is None else ratings
    ordered = sorted(puzzles, key=lambda puzzle: (rating_of(puzzle, known), puzzle.id))
    count = min(length, len(ordered))
    chosen: list[Puzzle] = []
    for band in range(count):
        part = ordered[band * len(ordered) // count : (band + 1) * len(ordered) // count]
        chosen.append(min(part, key=lambda puzzle: (_draw(f"{seed}:{puzzle.id}"), puzzle.id)))
    return sorted(chosen, key=lambda puzzle: (rating_of(puzzle, known), puzzle.id))


@dataclass(frozen=True, slots=True)
class Streak:
    """A streak under way: its puzzles, how many were solved, and whether it is over
    (the first miss ends it; so does solving them all).

    >>> from hanamikoji.puzzles import shipped_puzzles
    >>> run = Streak(tuple(streak(shipped_puzzles(), seed=1, length=3)))
    >>> run.answered(True).answered(False).answered(True).solved
    1
    """

    puzzles: tuple[Puzzle, ...]
    solved: int = 0
    over: bool = False

    @property
    def current(self) -> Puzzle | None:
        """The puzzle to solve now, ``None`` once the streak is over."""
        return None if self.over else self.puzzles[self.solved]

    def answered(self, correct: bool) -> Streak:
        """The streak after an answer to its current puzzle (nothing changes once over)."""
        if self.over:
            return self
        solved = self.solved + (1 if correct else 0)
        return Streak(self.puzzles, solved, not correct or solved == len(self.puzzles))
