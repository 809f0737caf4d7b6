"""How an untimed rated game ends outside its rules (a timed game's clocks do this,
``games/clocks.py``): a side that has not decided within the abort timeout before each side
has decided **aborts** it (``unstarted``: not rated), and after that a player with no
page open past the abandonment timeout while the other side is there **abandons** it
(``abandoned``: lost). :func:`forfeit_due` says which and when.

>>> forfeit_due(decided={0}, to_move=1, last_decision=1000, absent_since=(None, None),
...             bot_seat=None, abort_ms=60_000, abandon_ms=120_000)
Forfeit(at=61000, termination='unstarted', seat=1)
>>> forfeit_due(decided={0, 1}, to_move=0, last_decision=1000, absent_since=(5000, None),
...             bot_seat=None, abort_ms=60_000, abandon_ms=120_000)
Forfeit(at=125000, termination='abandoned', seat=0)
>>> forfeit_due(decided={0, 1}, to_move=0, last_decision=1000, absent_since=(5000, 7000),
...             bot_seat=None, abort_ms=60_000, abandon_ms=120_000) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from hanamikoji.interfaces.web_settings import ServeSettings

__all__ = ["DEFAULT_ABANDON_SECONDS", "DEFAULT_ABORT_SECONDS", "Forfeit", "forfeit_due"]

DEFAULT_ABORT_SECONDS = float(ServeSettings().abort_timeout)
"""How long a side of an untimed rated game may take over its first decision before the
game is aborted, unrated (``hanamikoji serve --abort-timeout``)."""

DEFAULT_ABANDON_SECONDS = float(ServeSettings().abandon_timeout)
"""How long a player of an untimed rated game may be away (no page open on the game)
once each side has decided, while the other side is there, before losing it
(``hanamikoji serve --abandon-timeout``)."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    """An untimed rated game's end outside its rules: when, why, and whose."""

    at: int
    termination: str
    seat: int


def forfeit_due(
    *,
    decided: set[int],
    to_move: int | None,
    last_decision: int,
    absent_since: tuple[int | None, int | None],
    bot_seat: int | None,
    abort_ms: int,
    abandon_ms: int,
) -> Forfeit | None:
    """The next forfeit of an untimed rated game, if any is coming (times in ms).

    Before each side has decided, the side to decide has ``abort_ms`` from the last
    decision (or the game's start, ``last_decision``) to do so, or the game is aborted
    (``unstarted``). After, a person's seat away since ``absent_since`` loses once it
    has been away ``abandon_ms`` while the other side is there (a bot always is); with
    both away nobody loses."""
    if to_move is None:
        return None
    if decided != {0, 1}:
        if to_move == bot_seat:
            return None
        return Forfeit(last_decision + abort_ms, "unstarted", to_move)
    due = [
        Forfeit(since + abandon_ms, "abandoned", seat)
        for seat, since in enumerate(absent_since)
        if since is not None
        and seat != bot_seat
        and (bot_seat == 1 - seat or absent_since[1 - seat] is None)
    ]
    return min(due, key=lambda forfeit: forfeit.at, default=None)
