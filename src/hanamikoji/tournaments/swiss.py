"""A Swiss tournament as a value: its entrants, its rounds, each round's pairings.

Every change returns a new :class:`Swiss` (the server keeps it as JSON between
changes, :meth:`Swiss.to_json`): players join (also late: until more than half the
rounds have been paired, as on lichess; the rounds they missed score nothing) and
withdraw (they are paired no more and keep their games); a round is paired when the
one before has every result (:meth:`Swiss.pair_next_round`); results come in one game
at a time (:meth:`Swiss.record`). Scores and tiebreaks are
:mod:`~hanamikoji.tournaments.swiss_scores`'.

>>> event = Swiss(rounds=2)
>>> for name in ("ann", "bob", "cy"):
...     event = event.join(Entrant(name, name.title()))
>>> event = event.pair_next_round()
>>> event.played[0].pairings, event.played[0].bye
((Pairing(first='ann', second='bob', result=None, game=None),), 'cy')
>>> event = event.record(1, 0, "1-0").pair_next_round()
>>> [(p.first, p.second) for p in event.played[1].pairings], event.played[1].bye
([('cy', 'ann')], 'bob')
>>> Swiss.from_json(event.to_json()) == event
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from hanamikoji.tournaments.model import Entrant, Pairing, TournamentError
from hanamikoji.tournaments.swiss_pairing import Candidate, pair_round

__all__ = ["BYE_POINTS", "Round", "Swiss"]

BYE_POINTS = 1.0
"""What the bye scores: a win's point, as on lichess and in FIDE's pairing-allocated
bye. It is no game: it adds nothing to anyone's tiebreaks."""


@dataclass(frozen=True, slots=True)
class Round:
    """A round: its ``number`` (from 1), its pairings board by board, and the player
    with the bye, if any."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: str | None = None

    @property
    def complete(self) -> bool:
        """Whether every game of the round has its result."""
        return all(pairing.result is not None for pairing in self.pairings)

    def players(self) -> set[str]:
        """Everyone paired in the round, the bye included."""
        paired = {player for pairing in self.pairings for player in pairing.players}
        return paired | ({self.bye} if self.bye is not None else set())

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "pairings": [pairing.to_json() for pairing in self.pairings],
            "bye": self.bye,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        bye = data.get("bye")
        pairings = tuple(Pairing.from_json(item) for item in data["pairings"])
        return cls(int(data["number"]), pairings, None if bye is None else str(bye))


@dataclass(frozen=True, slots=True)
class Swiss:
    """A Swiss tournament of ``rounds`` rounds: its ``entrants`` in the order they
    joined, and the rounds ``played`` so far (the last one possibly still on)."""

    rounds: int
    entrants: tuple[Entrant, ...] = ()
    played: tuple[Round, ...] = ()

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise TournamentError(f"a Swiss tournament has at least one round, not {self.rounds}")

    # -- state --------------------------------------------------------------------

    def entrant(self, player: str) -> Entrant:
        for entrant in self.entrants:
            if entrant.id == player:
                return entrant
        raise TournamentError(f"{player!r} is not in the tournament")

    @property
    def active(self) -> tuple[Entrant, ...]:
        """The entrants paired in the next round."""
        return tuple(entrant for entrant in self.entrants if entrant.active)

    @property
    def round_on(self) -> Round | None:
        """The round being played (paired, not every result in), if any."""
        if self.played and not self.played[-1].complete:
            return self.played[-1]
        return None

    @property
    def finished(self) -> bool:
        """Every round played to its last result, or, once started, no round can be
        paired any more (fewer than two active players) and none is on."""
        if self.round_on is not None:
            return False
        return len(self.played) >= self.rounds or (bool(self.played) and len(self.active) < 2)

    @property
    def open_to_join(self) -> bool:
        """Whether a player may still join: until more than half the rounds are paired."""
        return not self.finished and 2 * len(self.played) <= self.rounds

    # -- changes ------------------------------------------------------------------

    def join(self, entrant: Entrant) -> Swiss:
        """``entrant`` in the tournament (or back in it, after withdrawing), from the next
        round paired on."""
        if not self.open_to_join:
            raise TournamentError("the tournament takes no more players")
        known = [e for e in self.entrants if e.id == entrant.id]
        if known and known[0].active:
            raise TournamentError(f"{entrant.id!r} is in the tournament already")
        if known:
            return self._with_entrant(replace(known[0], active=True))
        return replace(self, entrants=(*self.entrants, replace(entrant, active=True)))

    def withdraw(self, player: str) -> Swiss:
        """``player`` paired no more; a game of theirs that is on is still to be played
        (or scored by whoever runs it, a forfeit say)."""
        return self._with_entrant(replace(self.entrant(player), active=False))

    def _with_entrant(self, changed: Entrant) -> Swiss:
        entrants = tuple(changed if e.id == changed.id else e for e in self.entrants)
        return replace(self, entrants=entrants)

    def pair_next_round(self) -> Swiss:
        """The next round paired among the active players
        (:func:`~hanamikoji.tournaments.swiss_pairing.pair_round`)."""
        if self.finished:
            raise TournamentError("the tournament is over")
        if self.round_on is not None:
            raise TournamentError(f"round {self.round_on.number} is still on")
        if len(self.active) < 2:
            raise TournamentError("a round needs two players")
        pairings, bye = pair_round(self.candidates())
        paired = Round(len(self.played) + 1, pairings, bye)
        return replace(self, played=(*self.played, paired))

    def record(self, round_number: int, board: int, result: str, game: str | None = None) -> Swiss:
        """The ``result`` of board ``board`` (from 0) of round ``round_number`` (from 1)."""
        if not 1 <= round_number <= len(self.played):
            raise TournamentError(f"no round {round_number}")
        played = self.played[round_number - 1]
        if not 0 <= board < len(played.pairings):
            raise TournamentError(f"round {round_number} has no board {board}")
        pairings = list(played.pairings)
        pairings[board] = pairings[board].ended(result, game)
        rounds = list(self.played)
        rounds[round_number - 1] = replace(played, pairings=tuple(pairings))
        return replace(self, played=tuple(rounds))

    # -- what the pairing needs ---------------------------------------------------

    def candidates(self) -> list[Candidate]:
        """The active players as the pairing sees them."""
        score: dict[str, int] = {e.id: 0 for e in self.entrants}
        opponents: dict[str, list[str]] = {e.id: [] for e in self.entrants}
        roles: dict[str, list[bool]] = {e.id: [] for e in self.entrants}
        byes: dict[str, int] = {e.id: 0 for e in self.entrants}
        for played in self.played:
            if played.bye is not None:
                byes[played.bye] += 1
                score[played.bye] += round(2 * BYE_POINTS)
            for pairing in played.pairings:
                for player in pairing.players:
                    opponents[player].append(pairing.opponent_of(player))
                    roles[player].append(player == pairing.first)
                    score[player] += round(2 * pairing.points_of(player))
        return [
            Candidate(
                e.id, score[e.id], e.rating, tuple(opponents[e.id]), byes[e.id], tuple(roles[e.id])
            )
            for e in self.active
        ]

    # -- JSON ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "swiss",
            "rounds": self.rounds,
            "entrants": [entrant.to_json() for entrant in self.entrants],
            "played": [played.to_json() for played in self.played],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Swiss:
        if data.get("kind") != "swiss":
            raise TournamentError("not a Swiss tournament's JSON")
        return cls(
            int(data["rounds"]),
            tuple(Entrant.from_json(item) for item in data["entrants"]),
            tuple(Round.from_json(item) for item in data["played"]),
        )
