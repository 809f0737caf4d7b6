"""Answering a puzzle: a decision read, checked and graded, and the reveal after it.

An answer is a decision in text form (:meth:`~hanamikoji.core.moves.Move.from_text`).
Forms of the same decision are one answer: a Gift's cards in another order, a
Competition's pairs swapped or their cards in another order, lower-case letters, spaces
(``"g:gaf"``, ``"G:AFG"`` and ``"G: A F G"`` are one Gift). An answer that is not a
decision, or not a legal one in the puzzle's position, is an :class:`AnswerError` whose
``reason`` says which (``malformed`` or ``illegal``) and whose message what is wrong.

The reveal (:func:`reveal`) is what the solver may see once they answered: every legal
decision's value, the solution, and for a wrong answer some worlds of the solver's
information set where it does worse than the solution, each with the cards the solver
could not see (the only exception to the puzzle's hidden information, and only after the
answer). For a proved puzzle the worlds are found with the exact solver
(:func:`~hanamikoji.bots.exact.world_values`): at most :data:`REVEAL_WORLDS` of them,
those where the answer loses the most first, ties in the order the solver lists the
worlds, so a puzzle's reveal is always the same.

>>> from hanamikoji.puzzles import shipped_puzzles
>>> puzzle = next(p for p in shipped_puzzles() if p.id == "french-52000002-9")
>>> grade(puzzle, "c>cb").correct, grade(puzzle, "C>DG").correct
(True, False)
>>> grade(puzzle, "C>AA")
Traceback (most recent call last):
...
hanamikoji.puzzles.answers.AnswerError: 'C>AA' is not a legal decision here: C>BC, C>DG
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hanamikoji.bots.exact import world_values
from hanamikoji.core.cards import letters
from hanamikoji.core.moves import Move
from hanamikoji.puzzles.judging import EXACT_LIMIT
from hanamikoji.puzzles.model import Method, Puzzle

__all__ = [
    "LONGEST_ANSWER",
    "REVEAL_WORLDS",
    "AnswerError",
    "Graded",
    "Reveal",
    "RevealWorld",
    "grade",
    "read_answer",
    "reveal",
]

LONGEST_ANSWER = 40
"""The longest answer read, in characters (the longest decision has 10)."""
REVEAL_WORLDS = 3
"""The most worlds a reveal shows where a wrong answer does worse than the solution."""

Reason = Literal["malformed", "illegal"]


class AnswerError(ValueError):
    """An answer that is not a legal decision of the puzzle: ``reason`` says whether it
    is no decision at all (``malformed``) or not one the solver may make (``illegal``)."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason


@dataclass(frozen=True, slots=True)
class Graded:
    """A graded answer: the decision in its one text form, whether it is the solution,
    and its value (the solver's chance to win the match after it)."""

    answer: str
    correct: bool
    value: float


def read_answer(puzzle: Puzzle, text: str) -> Move:
    """The legal decision ``text`` names in ``puzzle``'s position (any of its forms).
    Raises :class:`AnswerError`."""
    if not isinstance(text, str) or not text.strip():
        raise AnswerError("malformed", "an answer is a decision, such as G>A or C:AB/CD")
    if len(text) > LONGEST_ANSWER or not text.isprintable():
        raise AnswerError("malformed", "an answer is a short line of text")
    try:
        move = Move.from_text(text)
    except ValueError as error:
        raise AnswerError("malformed", str(error)) from None
    legal = [text for text, _ in puzzle.values]
    if move.text() not in legal:
        raise AnswerError(
            "illegal", f"{text.strip()!r} is not a legal decision here: {', '.join(sorted(legal))}"
        )
    return move


def grade(puzzle: Puzzle, text: str) -> Graded:
    """Whether ``text`` names the puzzle's solution. Raises :class:`AnswerError`."""
    move = read_answer(puzzle, text)
    value = dict(puzzle.values)[move.text()]
    return Graded(move.text(), move == puzzle.solution_move(), value)


@dataclass(frozen=True, slots=True)
class RevealWorld:
    """A world of the solver's information set, its chance, and what the answer and the
    solution are worth in it. Cards in text form (letters A-G)."""

    chance: float
    opponent_hand: str
    opponent_secret: str
    opponent_tradeoff: str
    removed: str
    deck: str
    answer_value: float
    solution_value: float


@dataclass(frozen=True, slots=True)
class Reveal:
    """What a solver sees after answering: the graded answer, the solution, every legal
    decision's value (highest first), how they were found, and the worlds where a wrong
    answer does worse (none for a right one, or for a searched puzzle)."""

    graded: Graded
    solution: str
    values: tuple[tuple[str, float], ...]
    method: Method
    worlds: tuple[RevealWorld, ...]


def reveal(puzzle: Puzzle, text: str, most: int = REVEAL_WORLDS) -> Reveal:
    """The reveal after ``text`` (see the module's docstring). Raises :class:`AnswerError`."""
    graded = grade(puzzle, text)
    shown: tuple[RevealWorld, ...] = ()
    if not graded.correct and puzzle.method is Method.PROVED:
        shown = _failing_worlds(puzzle, Move.from_text(graded.answer), most)
    return Reveal(graded, puzzle.solution, puzzle.values, puzzle.method, shown)


def _failing_worlds(puzzle: Puzzle, answer: Move, most: int) -> tuple[RevealWorld, ...]:
    solution = puzzle.solution_move()
    found = world_values(puzzle.view(), (solution, answer), None, EXACT_LIMIT)
    if found is None:
        return ()
    worse = [
        (values[solution] - values[answer], index, weighed, values)
        for index, (weighed, values) in enumerate(found)
        if values[answer] < values[solution] - 1e-9
    ]
    worse.sort(key=lambda row: (-row[0], row[1]))
    return tuple(
        RevealWorld(
            chance=weighed.chance,
            opponent_hand=letters(weighed.world.opponent_hand),
            opponent_secret=""
            if weighed.world.opponent_secret is None
            else letters((weighed.world.opponent_secret,)),
            opponent_tradeoff=letters(weighed.world.opponent_tradeoff),
            removed=letters((weighed.world.removed,)),
            deck=letters(weighed.world.deck),
            answer_value=values[answer],
            solution_value=values[solution],
        )
        for _, _, weighed, values in worse[:most]
    )
