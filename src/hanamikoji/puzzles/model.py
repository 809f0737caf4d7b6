"""The puzzle value: a position, its solver's seat, the one right decision and why.

A :class:`Puzzle` names its position as a seeded game and the decisions played before it
(in full, as :meth:`~hanamikoji.core.game.Game.log` gives them), so it replays
exactly with the core (:meth:`Puzzle.game`). What the solver is shown is
:meth:`Puzzle.view`: the core's :class:`~hanamikoji.core.view.View` of the solver's seat,
which holds no card that seat could not know.

The values are the solver's chance to win the match after each legal decision, from the
solver's information set (docs/puzzles.md, "How a puzzle is judged"); the solution is the
decision of the highest value, ``margin`` ahead of every other. Decisions that differ
only in the order of the same cards are one decision (the core lists each once).

>>> puzzle = Puzzle(
...     id="classic-1-0", variant="classic", seed=1, first_player=0, moves=(), seat=0,
...     solution="S:A", values=(("S:A", 0.9), ("S:B", 0.1)), margin=0.8,
...     method=Method.PROVED, worlds=1, themes=(), level=1, source="doctest")
>>> puzzle.best_value, puzzle.alternatives
(0.9, (('S:B', 0.1),))
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View

__all__ = ["LEVELS", "Method", "Puzzle", "PuzzleError"]

LEVELS = range(1, 6)
"""Puzzle levels, from 1 (no alternative looks close) to 5 (four or more do)."""


class PuzzleError(ValueError):
    """A puzzle or a puzzle file that is not valid; the message says where."""


class Method(enum.Enum):
    """How a puzzle's values were found."""

    PROVED = "proved"
    """Exact over every world of the solver's information set (:mod:`hanamikoji.bots.exact`)."""
    SEARCHED = "searched"
    """By two searches on different sampled worlds, the second larger, agreeing."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle.

    Attributes:
        id: unique in a set: ``VARIANT-SEED-PLY`` for mined games.
        variant: the variant's name (:mod:`hanamikoji.core.variants`).
        seed: the game's seed: every round's deal.
        first_player: the seat (0 or 1) that started round 1.
        moves: every decision before the puzzle, in full text form (hidden cards too).
        seat: the solver's seat (0 or 1): the player to decide after ``moves``.
        solution: the one right decision, in text form.
        values: every legal decision and the solver's chance to win the match after it,
            highest first (the solution first).
        margin: the solution's value less the next best one.
        method: proved (exact) or searched.
        worlds: how many worlds the values are over (listed, or sampled by the second
            search).
        themes: what the puzzle is about (:mod:`hanamikoji.puzzles.themes`).
        level: 1 to 5, from how many alternatives look close.
        source: where the game came from (the bots that played it, or a record file).
        greedy: the decision greedy (level 6, seed 0) chose in the position when it was
            mined (``None``: not recorded); the shipped set's selection used it
            (docs/puzzles.md, "The shipped set").
    """

    id: str
    variant: str
    seed: int
    first_player: int
    moves: tuple[str, ...]
    seat: int
    solution: str
    values: tuple[tuple[str, float], ...]
    margin: float
    method: Method
    worlds: int
    themes: tuple[str, ...]
    level: int
    source: str
    greedy: str | None = None

    @property
    def best_value(self) -> float:
        """The solution's value."""
        return self.values[0][1]

    @property
    def alternatives(self) -> tuple[tuple[str, float], ...]:
        """Every other legal decision and its value, highest first."""
        return self.values[1:]

    @property
    def ply(self) -> int:
        """How many decisions were played before the puzzle."""
        return len(self.moves)

    def game(self) -> Game:
        """The puzzle's position, replayed with the core (full information: not for the
        solver). Raises :class:`PuzzleError` when a decision does not replay."""
        try:
            game = Game(self.variant, seed=self.seed, first_player=self.first_player)
        except ValueError as error:
            raise PuzzleError(f"puzzle {self.id}: {error}") from None
        for ply, text in enumerate(self.moves, start=1):
            try:
                game.push_text(text)
            except ValueError as error:
                raise PuzzleError(f"puzzle {self.id}: decision {ply} ({text!r}): {error}") from None
        return game

    def view(self) -> View:
        """The position as the solver sees it: their seat's view, nothing more."""
        return self.game().view(self.seat)

    def solution_move(self) -> Move:
        return Move.from_text(self.solution)

    def check(self) -> None:
        """Raise :class:`PuzzleError` (naming the puzzle and the field) unless the puzzle
        replays, the solver is to decide, its values cover every legal decision once,
        highest first, with the solution first and ``margin`` ahead, and its level and
        method are known."""
        where = f"puzzle {self.id}"
        if self.seat not in (0, 1) or self.first_player not in (0, 1):
            raise PuzzleError(f"{where}: seat and first_player are 0 or 1")
        if self.level not in LEVELS:
            raise PuzzleError(f"{where}: level is 1 to 5, not {self.level}")
        game = self.game()
        if game.is_over() or game.to_move != self.seat:
            raise PuzzleError(f"{where}: seat {self.seat} is not the one to decide")
        legal = set(game.generate_legal_moves())
        try:
            listed = [Move.from_text(text) for text, _ in self.values]
        except ValueError as error:
            raise PuzzleError(f"{where}: values: {error}") from None
        if set(listed) != legal or len(listed) != len(legal):
            raise PuzzleError(f"{where}: values do not name every legal decision once")
        if len(legal) < 2:
            raise PuzzleError(f"{where}: a puzzle has at least two legal decisions")
        try:
            solution = self.solution_move()
        except ValueError as error:
            raise PuzzleError(f"{where}: the solution is not a decision: {error}") from None
        if listed[0] != solution:
            raise PuzzleError(f"{where}: the solution is not the first of the values")
        numbers = [value for _, value in self.values]
        if numbers != sorted(numbers, reverse=True) or not all(0 <= v <= 1 for v in numbers):
            raise PuzzleError(f"{where}: values are chances, highest first")
        if abs(numbers[0] - numbers[1] - self.margin) > 2e-4 or self.margin <= 0:
            raise PuzzleError(f"{where}: margin is the best value less the next one")
        if self.greedy is not None and self.greedy not in {text for text, _ in self.values}:
            raise PuzzleError(f"{where}: greedy's decision is not one of the values")
