"""An arena tournament as a value: a fixed time, and whoever is free is paired at once.

Every change returns a new :class:`Arena` (the server keeps it as JSON between changes).
A player who joins, or whose game ends, waits; :meth:`Arena.pair_waiting` pairs the
waiting players with one another by their ranks in the standings (near ranks first,
:func:`~hanamikoji.tournaments.arena_points.arena_standings`), never two who have just
played each other (either's last game was against the other), and leaves no two
waiting players unpaired who could play: the pairing is a maximum-cardinality matching
(:mod:`~hanamikoji.tournaments.matching`) of the least squared rank differences, and
then of the best ranks (an odd one out is the lowest-ranked who can be). Who
starts is :func:`~hanamikoji.tournaments.first_player.starts`, the game's number for
its board. Players join and withdraw at any time (a withdrawn player keeps their points
and may come back); when the time is up (:meth:`Arena.end`) no one is paired again and
the games still on count nothing.

>>> arena = Arena()
>>> for name, rating in (("ann", 1600), ("bob", 1500), ("cy", 1400)):
...     arena = arena.join(Entrant(name, name, rating))
>>> arena = arena.pair_waiting()
>>> arena.games, arena.waiting()
((Pairing(first='ann', second='bob', result=None, game=None),), ['cy'])
>>> arena = arena.record(0, "1-0").pair_waiting()   # bob waits: not ann again at once
>>> arena.games[1], arena.waiting()
(Pairing(first='cy', second='ann', result=None, game=None), ['bob'])
>>> Arena.from_json(arena.to_json()) == arena
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from hanamikoji.tournaments.arena_points import ArenaStanding, arena_standings
from hanamikoji.tournaments.first_player import Roles, starts
from hanamikoji.tournaments.matching import best_pairs
from hanamikoji.tournaments.model import Entrant, Pairing, TournamentError

__all__ = ["Arena"]


@dataclass(frozen=True, slots=True)
class Arena:
    """An arena: its ``entrants`` in the order they joined, its ``games`` in the order
    they were paired (a game without a result is on, unless the arena is ``over``)."""

    entrants: tuple[Entrant, ...] = ()
    games: tuple[Pairing, ...] = ()
    over: bool = False

    # -- state --------------------------------------------------------------------

    def entrant(self, player: str) -> Entrant:
        for entrant in self.entrants:
            if entrant.id == player:
                return entrant
        raise TournamentError(f"{player!r} is not in the arena")

    def playing(self) -> set[str]:
        """The players whose game is on."""
        if self.over:
            return set()
        return {p for game in self.games if game.result is None for p in game.players}

    def waiting(self) -> list[str]:
        """The active players without a game, in the order they joined."""
        if self.over:
            return []
        playing = self.playing()
        return [e.id for e in self.entrants if e.active and e.id not in playing]

    def history(self, player: str) -> list[Pairing]:
        """``player``'s games, in the order they were paired."""
        return [game for game in self.games if player in game.players]

    def last_opponent(self, player: str) -> str | None:
        games = self.history(player)
        return games[-1].opponent_of(player) if games else None

    def roles(self, player: str) -> Roles:
        return tuple(game.first == player for game in self.history(player))

    def standings(self) -> tuple[ArenaStanding, ...]:
        return arena_standings(self.entrants, self.games)

    # -- changes ------------------------------------------------------------------

    def join(self, entrant: Entrant) -> Arena:
        """``entrant`` in the arena (or back, after withdrawing), waiting for a game."""
        if self.over:
            raise TournamentError("the arena is over")
        known = [e for e in self.entrants if e.id == entrant.id]
        if known and known[0].active:
            raise TournamentError(f"{entrant.id!r} is in the arena already")
        if known:
            return self._with_entrant(replace(known[0], active=True))
        return replace(self, entrants=(*self.entrants, replace(entrant, active=True)))

    def withdraw(self, player: str) -> Arena:
        """``player`` paired no more (a game of theirs that is on still counts)."""
        return self._with_entrant(replace(self.entrant(player), active=False))

    def _with_entrant(self, changed: Entrant) -> Arena:
        entrants = tuple(changed if e.id == changed.id else e for e in self.entrants)
        return replace(self, entrants=entrants)

    def end(self) -> Arena:
        """The time is up: no more pairings, and the games still on count nothing."""
        return replace(self, over=True)

    def record(self, index: int, result: str, game: str | None = None) -> Arena:
        """The ``result`` of the ``index``-th game paired."""
        if self.over:
            raise TournamentError("the arena is over: a game that ends now counts nothing")
        if not 0 <= index < len(self.games):
            raise TournamentError(f"no game {index}")
        games = list(self.games)
        games[index] = games[index].ended(result, game)
        return replace(self, games=tuple(games))

    def pair_waiting(self) -> Arena:
        """Every waiting player who can be paired, paired (see above)."""
        waiting = set(self.waiting())
        ranks = {line.player: line.rank for line in self.standings() if line.player in waiting}
        order = sorted(waiting, key=ranks.__getitem__)
        last = {player: self.last_opponent(player) for player in order}
        costs: dict[tuple[str, str], tuple[int, ...]] = {}
        for index, a in enumerate(order):
            for b in order[index + 1 :]:
                if last[a] != b and last[b] != a:
                    costs[(a, b)] = ((ranks[a] - ranks[b]) ** 2, ranks[a] + ranks[b])
        games = list(self.games)
        for a, b in best_pairs(order, costs):
            board = len(games)
            first = starts(self.roles(a), self.roles(b), higher=True, board=board)
            games.append(Pairing(a, b) if first else Pairing(b, a))
        return replace(self, games=tuple(games))

    # -- JSON ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "arena",
            "entrants": [entrant.to_json() for entrant in self.entrants],
            "games": [game.to_json() for game in self.games],
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Arena:
        if data.get("kind") != "arena":
            raise TournamentError("not an arena's JSON")
        return cls(
            tuple(Entrant.from_json(item) for item in data["entrants"]),
            tuple(Pairing.from_json(item) for item in data["games"]),
            bool(data["over"]),
        )
