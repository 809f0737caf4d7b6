"""The puzzles' rows: each puzzle's rating, each account's puzzle rating, every account's
attempts (once per account and puzzle), and the puzzles players made.

An account's answer is rated **once**, in one transaction (:meth:`PuzzleStore.attempt`,
which moves the account's streak too: ``streaks.py``):
the attempt's row is unique per account and puzzle, so answering again, from this page,
another tab or another instance, is found and nothing changes; the solver's and the
puzzle's rows are written only if nobody changed them since they were read (their count
of attempts), else the attempt is tried again from the new ratings.

The tables are in ``db/tables.py`` (migration ``r0014_puzzles.py`` makes them).

>>> from hanamikoji.interfaces.web.db.database import Store
>>> from hanamikoji.puzzles import shipped_puzzles
>>> db = PuzzleStore(Store("sqlite://"))
>>> puzzle = shipped_puzzles()[0]
>>> first = db.attempt("p1", puzzle, puzzle.solution, True, 5)
>>> first is not None and first.after.rating > first.before.rating
True
>>> db.attempt("p1", puzzle, puzzle.solution, True, 6) is None  # counted once
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from hanamikoji.arena.glicko2 import Rating
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import (
    player_puzzles,
    puzzle_attempts,
    puzzle_ratings,
    puzzle_solvers,
)
from hanamikoji.interfaces.web.puzzles.streaks import (
    KeptStreak,
    StaleStreak,
    advance_streak,
    kept_streak,
    start_streak,
)
from hanamikoji.puzzles.model import Puzzle
from hanamikoji.puzzles.rating import rate_attempt, starting_rating
from hanamikoji.puzzles.store import puzzle_from_json, puzzle_json

__all__ = ["RECENT", "Attempt", "PuzzleStore", "SolverRating"]

RECENT = 500
"""How many of an account's last puzzles are not offered to it again."""

_TRIES = 5
"""Times an attempt is tried again when another changed a rating it read."""


class _Stale(Exception):
    """A rating changed between reading it and writing it: try again."""


@dataclass(frozen=True, slots=True)
class SolverRating:
    """An account's puzzle rating, how many puzzles it tried and solved."""

    rating: Rating
    attempts: int
    solved: int


@dataclass(frozen=True, slots=True)
class Attempt:
    """A rated attempt: the solver's rating before and after, the puzzle's after, and
    the account's streak if this answer moved it (``streaks.py``)."""

    before: Rating
    after: Rating
    puzzle_after: Rating
    streak: KeptStreak | None = None


def _rating(row: Any) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


class PuzzleStore:
    """The statements of the puzzles' tables."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading ------------------------------------------------------------------------

    def ratings(self) -> dict[str, float]:
        """Every rated puzzle's current rating, by id (the others are at their level's)."""
        with self.store.connection() as connection:
            rows = connection.execute(select(puzzle_ratings.c.puzzle_id, puzzle_ratings.c.rating))
            return {row.puzzle_id: row.rating for row in rows}

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        with self.store.connection() as connection:
            row = _puzzle_row(connection, puzzle.id)
        return starting_rating(puzzle.level) if row is None else _rating(row)

    def solver(self, player_id: str) -> SolverRating:
        """The account's puzzle rating (a new solver's if it never answered one)."""
        with self.store.connection() as connection:
            row = _solver_row(connection, player_id)
        if row is None:
            return SolverRating(Rating(), 0, 0)
        return SolverRating(_rating(row), row.attempts, row.solved)

    def recent(self, player_id: str, limit: int = RECENT) -> list[str]:
        """The ids of the account's last ``limit`` puzzles, newest first."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(puzzle_attempts.c.puzzle_id)
                .where(puzzle_attempts.c.player_id == player_id)
                .order_by(puzzle_attempts.c.id.desc())
                .limit(limit)
            )
            return [row.puzzle_id for row in rows]

    def answered_ids(self, player_id: str) -> set[str]:
        """The ids of every puzzle the account answered."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(puzzle_attempts.c.puzzle_id).where(puzzle_attempts.c.player_id == player_id)
            )
            return {row.puzzle_id for row in rows}

    def answered(self, player_id: str, puzzle_id: str) -> bool:
        with self.store.connection() as connection:
            return _attempted(connection, player_id, puzzle_id)

    # -- rating an attempt --------------------------------------------------------------

    def attempt(
        self, player_id: str, puzzle: Puzzle, answer: str, correct: bool, now_ms: int
    ) -> Attempt | None:
        """Rate the account's answer to ``puzzle`` and record it; ``None`` (nothing
        changed) if it answered this puzzle before."""
        for _ in range(_TRIES):
            try:
                with self.store.transaction() as connection:
                    if _attempted(connection, player_id, puzzle.id):
                        return None
                    rated = _rate(connection, player_id, puzzle, answer, correct, now_ms)
                    streak = advance_streak(connection, player_id, puzzle.id, correct)
                    return replace(rated, streak=streak)
            except (IntegrityError, _Stale, StaleStreak):
                continue
        return None

    # -- an account's streak (streaks.py) ----------------------------------------------

    def kept_streak(self, player_id: str) -> KeptStreak | None:
        return kept_streak(self.store, player_id)

    def start_streak(
        self, player_id: str, seed: int, ids: tuple[str, ...], now_ms: int
    ) -> KeptStreak:
        return start_streak(self.store, player_id, seed, ids, now_ms)

    # -- the puzzles players made -------------------------------------------------------

    def add_own(self, player_id: str, game_id: str, puzzle: Puzzle, now_ms: int) -> bool:
        """Keep ``puzzle`` as the player's own; ``False`` if it is kept already."""
        try:
            with self.store.transaction() as connection:
                connection.execute(
                    insert(player_puzzles).values(
                        puzzle_id=puzzle.id,
                        player_id=player_id,
                        game_id=game_id,
                        data=json.dumps(puzzle_json(puzzle)),
                        created_ms=now_ms,
                    )
                )
        except IntegrityError:
            return False
        return True

    def own(self, puzzle_id: str) -> Puzzle | None:
        """A puzzle a player made, by id."""
        with self.store.connection() as connection:
            row = connection.execute(
                select(player_puzzles.c.data).where(player_puzzles.c.puzzle_id == puzzle_id)
            ).first()
        if row is None:
            return None
        return _parsed([row.data])[0]

    def own_of(self, player_id: str) -> list[Puzzle]:
        """The puzzles a player made, oldest first."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(player_puzzles.c.data)
                .where(player_puzzles.c.player_id == player_id)
                .order_by(player_puzzles.c.created_ms, player_puzzles.c.puzzle_id)
            ).all()
        return _parsed([row.data for row in rows])


def _parsed(lines: Iterable[str]) -> list[Puzzle]:
    return [puzzle_from_json(json.loads(line)) for line in lines]


def _attempted(connection: Connection, player_id: str, puzzle_id: str) -> bool:
    found = connection.execute(
        select(puzzle_attempts.c.id).where(
            puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.puzzle_id == puzzle_id
        )
    ).first()
    return found is not None


def _puzzle_row(connection: Connection, puzzle_id: str) -> Any:
    return connection.execute(
        select(puzzle_ratings).where(puzzle_ratings.c.puzzle_id == puzzle_id)
    ).first()


def _solver_row(connection: Connection, player_id: str) -> Any:
    return connection.execute(
        select(puzzle_solvers).where(puzzle_solvers.c.player_id == player_id)
    ).first()


def _rate(
    connection: Connection, player_id: str, puzzle: Puzzle, answer: str, correct: bool, now: int
) -> Attempt:
    solver_row = _solver_row(connection, player_id)
    puzzle_row = _puzzle_row(connection, puzzle.id)
    before = Rating() if solver_row is None else _rating(solver_row)
    puzzle_before = starting_rating(puzzle.level) if puzzle_row is None else _rating(puzzle_row)
    after, puzzle_after = rate_attempt(before, puzzle_before, solved=correct)
    connection.execute(
        insert(puzzle_attempts).values(
            player_id=player_id,
            puzzle_id=puzzle.id,
            answer=answer,
            correct=correct,
            created_ms=now,
            rating_before=before.rating,
            rating_after=after.rating,
        )
    )
    solved = 1 if correct else 0
    _write(
        connection, puzzle_solvers, puzzle_solvers.c.player_id, player_id, solver_row, after, solved
    )
    _write(
        connection,
        puzzle_ratings,
        puzzle_ratings.c.puzzle_id,
        puzzle.id,
        puzzle_row,
        puzzle_after,
        1 - solved,
    )
    return Attempt(before, after, puzzle_after)


def _write(
    connection: Connection, table: Any, key: Any, key_value: str, row: Any, rating: Rating, won: int
) -> None:
    """Insert the row, or update it if nobody changed it since it was read."""
    values = {
        "rating": rating.rating,
        "deviation": rating.deviation,
        "volatility": rating.volatility,
    }
    if row is None:
        connection.execute(
            insert(table).values({key.name: key_value, "attempts": 1, "solved": won, **values})
        )
        return
    done = connection.execute(
        update(table)
        .where(key == key_value, table.c.attempts == row.attempts)
        .values(attempts=row.attempts + 1, solved=row.solved + won, **values)
    )
    if done.rowcount != 1:
        raise _Stale
