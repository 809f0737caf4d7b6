"""Which mined puzzles a set keeps.

A :class:`Selection` is a filter on the puzzles as they are mined, in the run's order:
it keeps every puzzle greedy (level 6) missed when it was mined (:attr:`Puzzle.greedy`
is not the solution) and, of each variant, method (proved or searched) and decision kind
(the solution's kind: an answer to a Gift, a Competition split, a Secret, ...), the
first ``solved`` puzzles greedy solved. The run's games are seeded, so that is a seeded
sample, the same every time; the counts are read back from the file a run resumes, so a
resumed run keeps what an uninterrupted one would.

Because it keeps puzzles by greedy's decision, greedy's share of solutions on a set so
selected is fixed by the selection, not measured (docs/puzzles.md, "The shipped set").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from hanamikoji.core.moves import Move
from hanamikoji.puzzles.model import Puzzle

__all__ = ["Selection"]


def _group(puzzle: Puzzle) -> tuple[str, str, str]:
    return puzzle.variant, puzzle.method.value, Move.from_text(puzzle.solution).kind.name


class Selection:
    """Keep every puzzle greedy misses and the first ``solved`` of each variant, method
    and kind that greedy solves (see the module's docstring)."""

    def __init__(self, solved: int) -> None:
        self.solved = solved
        self.kept: Counter[tuple[str, str, str]] = Counter()

    @staticmethod
    def missed(puzzle: Puzzle) -> bool:
        """Whether greedy's recorded decision is not the solution (unknown: not missed)."""
        return puzzle.greedy is not None and puzzle.greedy != puzzle.solution

    def count(self, puzzles: Iterable[Puzzle]) -> None:
        """Count puzzles already kept (a resumed run's file)."""
        for puzzle in puzzles:
            if not self.missed(puzzle):
                self.kept[_group(puzzle)] += 1

    def keeps(self, puzzle: Puzzle) -> bool:
        """Whether the set keeps ``puzzle`` (counted if it does)."""
        if self.missed(puzzle):
            return True
        key = _group(puzzle)
        if self.kept[key] >= self.solved:
            return False
        self.kept[key] += 1
        return True
