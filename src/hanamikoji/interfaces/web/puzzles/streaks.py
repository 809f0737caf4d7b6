"""An account's puzzle streak, kept on the server (``puzzle_streaks``) so it follows the
player from browser to browser; a guest's stays in its page.

A streak is :data:`~hanamikoji.puzzles.choosing.STREAK_LENGTH` puzzles of rising rating
(``puzzles/choosing.py``), drawn among those the account never answered. It moves only
with the account's **first** answer to the puzzle it is at, in the transaction that rates
that answer (:meth:`~.store.PuzzleStore.attempt`): a right one counts and moves it on, a
wrong one ends it. Answering again is refused before this (once per account and puzzle),
so replaying answers never raises a streak. A puzzle of the streak the account answered
elsewhere before the streak reached it is passed over, not counted. The best streak is
the most puzzles solved in one streak, kept when a new one starts.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> store = Store("sqlite://")
>>> kept = start_streak(store, "p1", 5, ("a", "b"), 0)
>>> kept.at, kept.solved, kept.ended, kept.best
(0, 0, False, 0)
>>> with store.transaction() as connection:
...     moved = advance_streak(connection, "p1", "a", True)
>>> moved is not None and (moved.at, moved.solved, moved.best)
(1, 1, 1)
>>> with store.transaction() as connection:  # not the puzzle it is at: nothing moves
...     advance_streak(connection, "p1", "a", True) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import puzzle_attempts, puzzle_streaks

__all__ = ["KeptStreak", "StaleStreak", "advance_streak", "kept_streak", "start_streak"]

_TRIES = 5


class StaleStreak(Exception):
    """The streak changed between reading it and writing it: try again."""


@dataclass(frozen=True, slots=True)
class KeptStreak:
    """An account's streak: its seed and puzzles, the one to answer now (``at``), how
    many it solved, whether it ended, and the account's best streak."""

    seed: int
    ids: tuple[str, ...]
    at: int
    solved: int
    ended: bool
    best: int


def _kept(connection: Connection, row: Any, but: str | None = None) -> KeptStreak:
    """The streak of ``row``, at its first puzzle the account has not answered (but
    ``but``, the one being answered now): one answered elsewhere is passed over."""
    ids = tuple(row.ids.split(",")) if row.ids else ()
    at = row.at if row.ended else _next_unanswered(connection, row.player_id, ids, row.at, but)
    return KeptStreak(row.seed, ids, at, row.solved, row.ended or at >= len(ids), row.best)


def _row(connection: Connection, player_id: str) -> Any:
    return connection.execute(
        select(puzzle_streaks).where(puzzle_streaks.c.player_id == player_id)
    ).first()


def kept_streak(store: Store, player_id: str) -> KeptStreak | None:
    """The account's streak, ``None`` if it never started one."""
    with store.connection() as connection:
        row = _row(connection, player_id)
        return None if row is None else _kept(connection, row)


def start_streak(
    store: Store, player_id: str, seed: int, ids: tuple[str, ...], now_ms: int
) -> KeptStreak:
    """Start the account's new streak of ``ids`` (the old one ends; its best is kept)."""
    values = {"seed": seed, "ids": ",".join(ids), "at": 0, "solved": 0, "ended": not ids}
    for _ in range(_TRIES):
        try:
            with store.transaction() as connection:
                row = _row(connection, player_id)
                if row is None:
                    connection.execute(
                        insert(puzzle_streaks).values(
                            player_id=player_id, best=0, version=0, started_ms=now_ms, **values
                        )
                    )
                else:
                    _write(connection, row, started_ms=now_ms, **values)
                return _kept(connection, _row(connection, player_id))
        except (IntegrityError, StaleStreak):
            continue
    raise StaleStreak


def advance_streak(
    connection: Connection, player_id: str, puzzle_id: str, correct: bool
) -> KeptStreak | None:
    """Move the account's streak by its first answer to ``puzzle_id``, in the answer's
    transaction; ``None`` (nothing moved) if the streak is not at that puzzle. Raises
    :class:`StaleStreak` if another changed it meanwhile (the caller tries again)."""
    row = _row(connection, player_id)
    if row is None:
        return None
    kept = _kept(connection, row, but=puzzle_id)
    if kept.ended or kept.ids[kept.at] != puzzle_id:
        return None
    if not correct:
        _write(connection, row, at=kept.at, ended=True)
    else:
        solved = kept.solved + 1
        at = _next_unanswered(connection, player_id, kept.ids, kept.at + 1)
        ended = at >= len(kept.ids)
        _write(connection, row, at=at, solved=solved, ended=ended, best=max(kept.best, solved))
    return _kept(connection, _row(connection, player_id))


def _next_unanswered(
    connection: Connection, player_id: str, ids: tuple[str, ...], start: int, but: str | None = None
) -> int:
    """The first index from ``start`` whose puzzle the account never answered (or is
    ``but``)."""
    later = set(ids[start:]) - {but}
    answered = set(
        connection.execute(
            select(puzzle_attempts.c.puzzle_id).where(
                puzzle_attempts.c.player_id == player_id,
                puzzle_attempts.c.puzzle_id.in_(later),
            )
        ).scalars()
    )
    at = start
    while at < len(ids) and ids[at] in answered:
        at += 1
    return at


def _write(connection: Connection, row: Any, **values: Any) -> None:
    """Update the row if nobody changed it since it was read."""
    done = connection.execute(
        update(puzzle_streaks)
        .where(puzzle_streaks.c.player_id == row.player_id, puzzle_streaks.c.version == row.version)
        .values(version=row.version + 1, **values)
    )
    if done.rowcount != 1:
        raise StaleStreak
