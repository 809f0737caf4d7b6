"""Tournaments: Swiss and arena events as values, their pairings, scores and standings,
and the offline runner on the arena's backends (``docs/tournaments.md``).

The models (:class:`Swiss`, :class:`Arena`) are plain frozen dataclasses that go to
JSON and back, for a server to keep; pairing needs networkx (the ``tournaments``
extra), imported only when a round or a waiting player is paired.
"""

from hanamikoji.tournaments.arena import Arena
from hanamikoji.tournaments.arena_points import ArenaStanding, arena_standings, streak_points
from hanamikoji.tournaments.model import (
    DEFAULT_RATING,
    RESULTS,
    Entrant,
    Pairing,
    TournamentError,
)
from hanamikoji.tournaments.swiss import BYE_POINTS, Round, Swiss
from hanamikoji.tournaments.swiss_pairing import Candidate, pair_round
from hanamikoji.tournaments.swiss_scores import SwissStanding, scores, standings

__all__ = [
    "BYE_POINTS",
    "DEFAULT_RATING",
    "RESULTS",
    "Arena",
    "ArenaStanding",
    "Candidate",
    "Entrant",
    "Pairing",
    "Round",
    "Swiss",
    "SwissStanding",
    "TournamentError",
    "arena_standings",
    "pair_round",
    "scores",
    "standings",
    "streak_points",
]
