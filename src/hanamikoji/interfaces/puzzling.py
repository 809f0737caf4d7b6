"""Puzzles at the terminal, apart from how they are shown: the one model the line
interface and the full-screen app drive for ``hanamikoji puzzle``.

A :class:`PuzzleRun` holds the set, the mode (puzzles near the solver's rating one after
another, the daily puzzle, a streak, or one puzzle by its id), the puzzle to solve now
and the solver's record (:class:`SolverRecord`: their puzzle rating and the puzzles they
answered, kept in a small JSON file). Answering goes through the library
(:mod:`hanamikoji.puzzles.answers`, :mod:`~hanamikoji.puzzles.rating`,
:mod:`~hanamikoji.puzzles.choosing`), the same code as the web server's. A puzzle
counts once for a solver: answering it again (with ``--id``, or from another copy of the
record) shows the reveal and changes no rating. A streak is not rated, as lichess's.

Before the answer a person is shown :meth:`PuzzleRun.view` only (the solver's seat's
view); the reveal after the answer is the only exception.

>>> from hanamikoji.puzzles import shipped_puzzles
>>> run = PuzzleRun(shipped_puzzles(), Mode.ONE, SolverRecord(), puzzle_id="french-52000002-9")
>>> answered = run.answer("c>bc")
>>> answered.reveal.graded.correct, answered.counted, round(answered.after.rating)
(True, True, 1670)
>>> run.answer("C>BC").counted    # the same puzzle again: no rating changes
False
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import json
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hanamikoji.arena.glicko2 import Rating
from hanamikoji.core import View
from hanamikoji.puzzles import Puzzle
from hanamikoji.puzzles.answers import Reveal, reveal
from hanamikoji.puzzles.choosing import Streak, daily_puzzle, next_puzzle, rating_of, streak
from hanamikoji.puzzles.rating import rate_attempt, starting_rating

__all__ = [
    "RECORD_FORMAT",
    "Answered",
    "Mode",
    "PuzzleRun",
    "SolverRecord",
    "SolverRecordError",
    "default_record_path",
    "read_solver",
    "write_solver",
]

RECORD_FORMAT = "hanamikoji-puzzle-solver"
RECORD_LIMIT = 4 * 1024 * 1024
"""The largest solver record read (a few dozen bytes a puzzle answered)."""


class Mode(enum.Enum):
    """Which puzzles a run gives."""

    RATED = "rated"
    """Puzzles near the solver's rating, one after another, none answered before."""
    DAILY = "daily"
    """The puzzle of the day (UTC), the same for everyone."""
    STREAK = "streak"
    """Puzzles of rising difficulty until the first miss; not rated."""
    ONE = "one"
    """One puzzle, by its id."""


class SolverRecordError(ValueError):
    """A solver record file that cannot be read or is not one; the message names it."""


@dataclass(slots=True)
class SolverRecord:
    """A solver's puzzle rating and the puzzles they answered (id: solved or not)."""

    rating: Rating = field(default_factory=Rating)
    answered: dict[str, bool] = field(default_factory=dict)


def default_record_path() -> Path:
    """Where the solver's record is kept: ``$XDG_STATE_HOME/hanamikoji/puzzles.json``
    (``~/.local/state`` without it)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "hanamikoji" / "puzzles.json"


def _number(data: dict[str, object], name: str) -> float:
    value = data.get(name)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise SolverRecordError(f"field {name!r} is not a number")
    return float(value)


def read_solver(path: Path) -> SolverRecord:
    """The record in ``path``; a new one when there is no such file. Raises
    :class:`SolverRecordError` naming the file when it is not a solver record."""
    try:
        with open(path, "rb") as file:
            data = file.read(RECORD_LIMIT + 1)
    except FileNotFoundError:
        return SolverRecord()
    except OSError as error:
        raise SolverRecordError(f"{path}: {error.strerror or error}") from None
    try:
        if len(data) > RECORD_LIMIT:
            raise SolverRecordError("too large for a solver record")
        try:
            parsed = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise SolverRecordError("not JSON") from None
        if not isinstance(parsed, dict) or parsed.get("format") != RECORD_FORMAT:
            raise SolverRecordError(f"not a {RECORD_FORMAT} file")
        rating = Rating(
            _number(parsed, "rating"), _number(parsed, "deviation"), _number(parsed, "volatility")
        )
        answered = parsed.get("answered")
        if not isinstance(answered, dict) or not all(
            isinstance(key, str) and isinstance(value, bool) for key, value in answered.items()
        ):
            raise SolverRecordError("field 'answered' maps puzzle ids to true or false")
    except SolverRecordError as error:
        raise SolverRecordError(f"{path}: {error}") from None
    return SolverRecord(rating, dict(answered))


def write_solver(record: SolverRecord, path: Path) -> None:
    """Write ``record`` to ``path`` (its folder made if need be), whole or not at all.
    Raises ``OSError``."""
    data = {
        "format": RECORD_FORMAT,
        "rating": round(record.rating.rating, 2),
        "deviation": round(record.rating.deviation, 2),
        "volatility": record.rating.volatility,
        "answered": record.answered,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial_file = path.with_name(path.name + ".tmp")
    try:
        partial_file.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(partial_file, path)
    except OSError:
        with contextlib.suppress(OSError):
            partial_file.unlink(missing_ok=True)
        raise


@dataclass(frozen=True, slots=True)
class Answered:
    """An answer and what followed: the reveal, the solver's rating before and after
    (equal when not counted), whether it counted (a first rated answer), the streak
    after it (in a streak), and why the record could not be written, if it could not."""

    reveal: Reveal
    before: Rating
    after: Rating
    counted: bool
    streak: Streak | None
    not_saved: OSError | None = None


class PuzzleRun:
    """A sitting of puzzles at one terminal (see the module's docstring).

    Raises ``ValueError`` when the set holds no puzzle for the mode (an unknown id, a
    theme or variant with no puzzle).
    """

    def __init__(
        self,
        puzzles: Sequence[Puzzle],
        mode: Mode,
        record: SolverRecord,
        *,
        puzzle_id: str | None = None,
        theme: str | None = None,
        variant: str | None = None,
        day: datetime.date | None = None,
        seed: int | None = None,
        record_path: Path | None = None,
    ) -> None:
        self.mode = mode
        self.record = record
        self.record_path = record_path
        """Where the record is written after each counted answer (``None``: nowhere)."""
        self.theme = theme
        self.seed = secrets.randbelow(1 << 32) if seed is None else seed
        self.pool = [
            puzzle
            for puzzle in puzzles
            if (variant is None or puzzle.variant == variant)
            and (theme is None or theme in puzzle.themes)
        ]
        self.streak: Streak | None = None
        self.done: list[str] = []
        """The puzzles answered in this run, in order."""
        self.answered: Answered | None = None
        """The answer to the current puzzle, once given."""
        self.current: Puzzle | None = None
        self.current = self._first(puzzle_id, day)

    def _first(self, puzzle_id: str | None, day: datetime.date | None) -> Puzzle | None:
        if not self.pool:
            raise ValueError("no puzzle of that theme and variant in the set")
        if self.mode is Mode.ONE:
            found = [puzzle for puzzle in self.pool if puzzle.id == puzzle_id]
            if not found:
                raise ValueError(f"no puzzle {puzzle_id!r} in the set")
            return found[0]
        if self.mode is Mode.DAILY:
            when = datetime.datetime.now(datetime.UTC).date() if day is None else day
            return daily_puzzle(self.pool, when)
        if self.mode is Mode.STREAK:
            self.streak = Streak(tuple(streak(self.pool, seed=self.seed)))
            return self.streak.current
        return self._nearest()

    def _nearest(self) -> Puzzle | None:
        seen = set(self.record.answered) | set(self.done)
        if self.current is not None:
            seen.add(self.current.id)
        return next_puzzle(
            self.pool, self.record.rating.rating, ratings={}, seen=seen, seed=str(self.seed)
        )

    # -- the puzzle now ---------------------------------------------------------------

    def view(self) -> View:
        """What the solver may see of the current puzzle: their seat's view, nothing
        more. Raises ``ValueError`` when there is no puzzle left."""
        if self.current is None:
            raise ValueError("no puzzle left")
        return self.current.view()

    def puzzle_rating(self) -> float:
        """The current puzzle's rating (its starting one: the terminal keeps no puzzle
        ratings, the server does)."""
        if self.current is None:
            raise ValueError("no puzzle left")
        return rating_of(self.current, {})

    @property
    def rated(self) -> bool:
        """Whether answers of this run may change the solver's rating."""
        return self.mode is not Mode.STREAK

    def answer(self, text: str) -> Answered:
        """Grade ``text`` (any form of a decision) and reveal; rate a first answer of a
        rated run, and write the record. Raises
        :class:`~hanamikoji.puzzles.answers.AnswerError` for an answer that is not a legal
        decision. A record that cannot be written is told in the result (the answer
        counts all the same, for this run)."""
        puzzle = self.current
        if puzzle is None:
            raise ValueError("no puzzle left")
        shown = reveal(puzzle, text)
        correct = shown.graded.correct
        before = self.record.rating
        counted = self.rated and puzzle.id not in self.record.answered and self.answered is None
        after = before
        if counted:
            after, _ = rate_attempt(before, starting_rating(puzzle.level), solved=correct)
            self.record.rating = after
            self.record.answered[puzzle.id] = correct
        if self.streak is not None and self.answered is None:
            self.streak = self.streak.answered(correct)
        if self.answered is None:
            self.done.append(puzzle.id)
        not_saved: OSError | None = None
        if counted and self.record_path is not None:
            try:
                write_solver(self.record, self.record_path)
            except OSError as error:
                not_saved = error
        self.answered = Answered(shown, before, after, counted, self.streak, not_saved)
        return self.answered

    # -- what comes next --------------------------------------------------------------

    @property
    def has_next(self) -> bool:
        """Whether another puzzle follows this one (in a rated run while one is left
        unanswered, in a streak until it is over; the daily puzzle and a puzzle by id are
        one puzzle)."""
        if self.mode is Mode.STREAK:
            return self.streak is not None and not self.streak.over
        return self.mode is Mode.RATED and self._nearest() is not None

    def advance(self) -> Puzzle | None:
        """Go on to the next puzzle (after an answer); ``None`` when there is none."""
        self.answered = None
        if not self.has_next:
            self.current = None
        elif self.streak is not None:
            self.current = self.streak.current
        else:
            self.current = self._nearest()
        return self.current
