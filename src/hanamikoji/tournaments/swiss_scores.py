"""A Swiss tournament's scores, tiebreaks and standings.

* **Score**: 1 for a win, 1/2 for a draw, 0 for a loss,
  :data:`~hanamikoji.tournaments.swiss.BYE_POINTS` (1) for the bye, 0 for a round
  missed (joined late, withdrawn). A game still on counts nothing yet.
* **Buchholz**: the sum of the scores of every opponent met (each game once; their
  whole scores, byes included).
* **Sonneborn-Berger**: the sum of the scores of the opponents beaten and half the
  scores of those drawn.

The bye is no game: it meets no opponent, so it adds nothing to the player's
tiebreaks (and nothing to anyone else's). The standings order by score, then
Buchholz, then Sonneborn-Berger; players equal on all three share a rank and are
listed by rating, then id.

>>> from hanamikoji.tournaments.model import Entrant, Pairing
>>> from hanamikoji.tournaments.swiss import Round, Swiss
>>> first = Round(1, (Pairing("a", "b", "1-0"),), bye="c")
>>> event = Swiss(1, tuple(Entrant(p, p) for p in "abc"), (first,))
>>> [(s.rank, s.player, s.score, s.buchholz) for s in standings(event)]
[(1, 'a', 1.0, 0.0), (1, 'c', 1.0, 0.0), (3, 'b', 0.0, 1.0)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from hanamikoji.tournaments.swiss import BYE_POINTS, Swiss

__all__ = ["SwissStanding", "scores", "standings"]


@dataclass(frozen=True, slots=True)
class SwissStanding:
    """A player's line of the standings."""

    rank: int
    player: str
    name: str
    rating: int
    active: bool
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def scores(event: Swiss) -> dict[str, float]:
    """Every entrant's score."""
    total = {entrant.id: 0.0 for entrant in event.entrants}
    for played in event.played:
        if played.bye is not None:
            total[played.bye] += BYE_POINTS
        for pairing in played.pairings:
            for player in pairing.players:
                total[player] += pairing.points_of(player)
    return total


def standings(event: Swiss) -> tuple[SwissStanding, ...]:
    """Every entrant, best first (see above)."""
    score = scores(event)
    buchholz = dict.fromkeys(score, 0.0)
    berger = dict.fromkeys(score, 0.0)
    tally = {player: [0, 0, 0, 0] for player in score}  # wins, draws, losses, byes
    for played in event.played:
        if played.bye is not None:
            tally[played.bye][3] += 1
        for pairing in played.pairings:
            if pairing.result is None:
                continue
            for player in pairing.players:
                opponent = pairing.opponent_of(player)
                points = pairing.points_of(player)
                buchholz[player] += score[opponent]
                berger[player] += points * score[opponent]
                tally[player][{1.0: 0, 0.5: 1, 0.0: 2}[points]] += 1
    key = {player: (score[player], buchholz[player], berger[player]) for player in score}
    ordered = sorted(event.entrants, key=lambda e: (*(-k for k in key[e.id]), -e.rating, e.id))
    lines = []
    for entrant in ordered:
        rank = 1 + sum(1 for other in score if key[other] > key[entrant.id])
        wins, draws, losses, byes = tally[entrant.id]
        lines.append(
            SwissStanding(
                rank,
                entrant.id,
                entrant.name,
                entrant.rating,
                entrant.active,
                score[entrant.id],
                buchholz[entrant.id],
                berger[entrant.id],
                wins,
                draws,
                losses,
                byes,
            )
        )
    return tuple(lines)
