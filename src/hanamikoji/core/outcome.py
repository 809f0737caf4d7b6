"""How rounds and games end: round summaries (public once scored) and outcomes."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hanamikoji.core.cards import GEISHAS

__all__ = ["NEUTRAL", "Outcome", "RoundSummary", "Termination", "favor_tally"]

NEUTRAL = -1
"""A favor marker on no one's side (internal encoding; views use ``None``)."""

WIN_CHARM = 11
WIN_GEISHAS = 4


def favor_tally(favor: tuple[int | None, ...]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Each seat's charm and number of geishas from the favor markers (a seat or ``None``).

    >>> favor_tally((0, None, 1, 1, None, 0, 0))
    ((11, 5), (3, 2))
    """
    charm = [0, 0]
    geishas = [0, 0]
    for geisha, seat in zip(GEISHAS, favor, strict=True):
        if seat is not None:
            charm[seat] += geisha.charm
            geishas[seat] += 1
    return (charm[0], charm[1]), (geishas[0], geishas[1])


class Termination(enum.Enum):
    """Why a game ended."""

    CHARM = "charm"
    """A player reached 11 charm (this beats 4 geishas in the same scoring)."""
    GEISHAS = "geishas"
    """A player reached 4 geishas."""
    MOST_GEISHAS = "most-geishas"
    """Last round over: more geishas (three-rounds)."""
    MOST_CHARM = "most-charm"
    """Last round over: more charm (three-rounds after a geisha tie, french)."""
    SHARED_WIN = "shared-win"
    """Last round over, geishas and charm tied: both win (three-rounds)."""
    NO_WINNER = "no-winner"
    """Last round over, charm tied: nobody wins (french)."""
    ROUND_CAP = "round-cap"
    """A tool's round cap on a variant without its own limit was reached: a draw."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game. ``winner`` is a seat, or ``None`` for a draw or shared win.

    Values only: :func:`hanamikoji.notation.outcomes.describe_outcome` says it in English,
    the interfaces in each language."""

    winner: int | None
    termination: Termination
    charm: tuple[int, int]
    geishas: tuple[int, int]
    rounds: int

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``, as in chess records."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"

    @property
    def charm_over_geishas(self) -> bool:
        """Whether the winner's 11 charm beat the other player's 4 geishas, reached in
        the same scoring (the rule that says why such a game went to charm).

        >>> Outcome(1, Termination.CHARM, (9, 12), (4, 3), 1).charm_over_geishas
        True
        >>> Outcome(0, Termination.CHARM, (15, 6), (4, 3), 2).charm_over_geishas
        False
        """
        return (
            self.termination is Termination.CHARM
            and self.winner is not None
            and self.geishas[1 - self.winner] >= WIN_GEISHAS
        )


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A scored round, all of it public: both Secrets are revealed at scoring.

    ``sides[s][k]`` is how many cards of item ``k`` seat ``s`` had at scoring
    (Secret included); ``favor`` is each geisha's marker after it (a seat or ``None``).
    """

    round: int
    starter: int
    secrets: tuple[int, int]
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    favor: tuple[int | None, ...]
    charm: tuple[int, int]
    geishas: tuple[int, int]
