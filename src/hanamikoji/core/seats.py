"""Seats: 0 and 1 in the API, players 1 and 2 in every format people read.

The Python API numbers the two seats ``0`` and ``1`` (``game.to_move``, ``view.player``,
``outcome.winner``, ``Game(first_player=...)``), as list indices. The formats written
for people and other programs number them from 1: Player 1 and Player 2 in sentences,
``[FirstPlayer "1"]`` in records, the protocol's seats ``1`` and ``2``, the ``seat`` of
the analysis JSON. Those formats convert with these two functions, and nowhere else.

>>> seat_number(0), seat_from_number(2)
(1, 1)
>>> [seat_from_number(seat_number(seat)) for seat in SEATS]
[0, 1]
>>> seat_from_number(3)
Traceback (most recent call last):
...
ValueError: a player number is 1 or 2 (seats 0 and 1), not 3
"""

from __future__ import annotations

__all__ = ["SEATS", "seat_from_number", "seat_number"]

SEATS = (0, 1)
"""The two seats; seat 0 is Player 1."""


def seat_number(seat: int) -> int:
    """The player number (1 or 2) of ``seat`` (0 or 1), as records, the protocol and the
    analysis JSON write it. Raises ``ValueError`` for anything but a seat."""
    if seat not in SEATS or isinstance(seat, bool):
        raise ValueError(f"a seat is 0 or 1 (Player 1 and Player 2), not {seat!r}")
    return seat + 1


def seat_from_number(number: int | str) -> int:
    """The seat (0 or 1) of player ``number`` (1 or 2, or its text, as a format reads it).
    Raises ``ValueError`` for anything else."""
    if isinstance(number, str):
        if number in ("1", "2"):
            return int(number) - 1
    elif not isinstance(number, bool) and number in (1, 2):
        return number - 1
    raise ValueError(f"a player number is 1 or 2 (seats 0 and 1), not {number!r}")
