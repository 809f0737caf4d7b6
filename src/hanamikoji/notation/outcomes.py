"""Seats and outcomes in English, for the layers below the interfaces.

The core returns values (a seat is ``0`` or ``1``; an :class:`Outcome` holds the winner,
the :class:`Termination`, the tally and the number of rounds). Game records (the default
player names, the messages of a broken record), the research environments (their
``outcome`` info and rendered text) and the analysis need them in words: this module is
their one English describer. The interfaces say the same in each language from their
catalogs (``interfaces/messages.py``).

>>> seat_name(1), level_bot_name(3), level_of_bot_name("Bot level 3")
('Player 2', 'Bot level 3', 3)
>>> describe_outcome(Outcome(0, Termination.CHARM, (15, 6), (4, 3), 2))
'Player 1 wins with 11 or more charm (charm 15-6, geishas 4-3, after 2 rounds).'
>>> print(describe_outcome(Outcome(0, Termination.CHARM, (12, 9), (3, 4), 2)))
Player 1 wins with 11 or more charm, which beats the other player's 4 geishas
(charm 12-9, geishas 3-4, after 2 rounds).
>>> describe_outcome(Outcome(None, Termination.NO_WINNER, (10, 10), (3, 3), 3))
'Nobody wins: charm is tied after the last round (charm 10-10, geishas 3-3, after 3 rounds).'
>>> describe_outcome(Outcome(1, Termination.GEISHAS, (5, 9), (2, 4), 1))
'Player 2 wins with 4 or more geishas (charm 5-9, geishas 2-4, after 1 round).'
"""

from __future__ import annotations

import re

from hanamikoji.core.outcome import Outcome, Termination
from hanamikoji.core.seats import seat_number

__all__ = ["describe_outcome", "level_bot_name", "level_of_bot_name", "seat_name"]

_LEVEL_BOT = re.compile(r"Bot level ([1-9][0-9]{0,2})")


def seat_name(seat: int) -> str:
    """``Player 1`` for seat 0, ``Player 2`` for seat 1."""
    return f"Player {seat_number(seat)}"


def level_bot_name(level: int) -> str:
    """The name of a difficulty level's bot in records: ``Bot level 3``."""
    return f"Bot level {level}"


def level_of_bot_name(name: str) -> int | None:
    """The level whose bot :func:`level_bot_name` names ``name``, or ``None``."""
    match = _LEVEL_BOT.fullmatch(name)
    return None if match is None else int(match.group(1))


def describe_outcome(outcome: Outcome) -> str:
    """One English sentence: who won and why, with the tally."""
    c, g = outcome.charm, outcome.geishas
    rounds = "1 round" if outcome.rounds == 1 else f"{outcome.rounds} rounds"
    tally = f"charm {c[0]}-{c[1]}, geishas {g[0]}-{g[1]}, after {rounds}"
    who = seat_name(outcome.winner) if outcome.winner is not None else ""
    charm = f"{who} wins with 11 or more charm"
    if outcome.charm_over_geishas:
        charm += ", which beats the other player's 4 geishas"
    reasons = {
        Termination.CHARM: charm,
        Termination.GEISHAS: f"{who} wins with 4 or more geishas",
        Termination.MOST_GEISHAS: f"{who} wins with more geishas after the last round",
        Termination.MOST_CHARM: f"{who} wins with more charm after the last round",
        Termination.SHARED_WIN: "Both players share the win",
        Termination.NO_WINNER: "Nobody wins: charm is tied after the last round",
        Termination.ROUND_CAP: "Draw: the round cap was reached",
    }
    return f"{reasons[outcome.termination]} ({tally})."
