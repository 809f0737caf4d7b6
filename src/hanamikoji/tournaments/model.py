"""What Swiss and arena tournaments share: the entrants, a pairing and its result, the
errors, all plain values that go to JSON and back.

A pairing's ``first`` player starts the game's first round; its result is written from
the first player's side, as records write it in seat order: ``1-0`` (the first player
won), ``0-1`` or ``1/2-1/2``.

>>> pairing = Pairing("ann", "bob", "0-1")
>>> pairing.points_of("bob"), pairing.points_of("ann"), pairing.opponent_of("ann")
(1.0, 0.0, 'bob')
>>> Pairing.from_json(pairing.to_json()) == pairing
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

__all__ = [
    "DEFAULT_RATING",
    "RESULTS",
    "Entrant",
    "Pairing",
    "TournamentError",
    "check_result",
]

RESULTS: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2")
"""A game's results, from the first player's side."""

DEFAULT_RATING = 1500
"""The rating of an entrant without one (a new player's)."""


class TournamentError(ValueError):
    """Something a tournament does not allow now: a second entry, a result for a game
    that has one, a round paired before the last one ended, ..."""


def check_result(result: str) -> str:
    """``result`` if it is one of :data:`RESULTS`, else :class:`TournamentError`."""
    if result not in RESULTS:
        raise TournamentError(f"a result is one of {', '.join(RESULTS)}, not {result!r}")
    return result


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a tournament: ``id`` (unique in it: an account's or a bot's name),
    the ``name`` shown, the ``rating`` that seeds the first pairings and breaks the last
    ties, and whether they are ``active`` (paired again: a withdrawn player is not, and
    keeps what they scored)."""

    id: str
    name: str
    rating: int = DEFAULT_RATING
    active: bool = True

    def __post_init__(self) -> None:
        if not self.id:
            raise TournamentError("an entrant needs an id")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        return cls(str(data["id"]), str(data["name"]), int(data["rating"]), bool(data["active"]))


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players to play one game: ``first`` starts its first round. ``result`` is
    ``None`` until the game ends; ``game`` names the game played, if anyone needs it (a
    server's game id, an offline run's seed)."""

    first: str
    second: str
    result: str | None = None
    game: str | None = None

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise TournamentError(f"{self.first!r} cannot play themselves")
        if self.result is not None:
            check_result(self.result)

    @property
    def players(self) -> tuple[str, str]:
        return (self.first, self.second)

    def opponent_of(self, player: str) -> str:
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise TournamentError(f"{player!r} does not play in {self.first} - {self.second}")

    def points_of(self, player: str) -> float:
        """What ``player`` scored: 1 for a win, 1/2 a draw, 0 a loss (a game still on
        scores nothing yet)."""
        self.opponent_of(player)  # checks that they play
        if self.result is None:
            return 0.0
        if self.result == "1/2-1/2":
            return 0.5
        won = "1-0" if player == self.first else "0-1"
        return 1.0 if self.result == won else 0.0

    def ended(self, result: str, game: str | None = None) -> Pairing:
        """This pairing with its ``result`` (and ``game``, if given)."""
        if self.result is not None:
            raise TournamentError(f"{self.first} - {self.second} has a result already")
        return replace(self, result=check_result(result), game=game or self.game)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pairing:
        result, game = data.get("result"), data.get("game")
        return cls(
            str(data["first"]),
            str(data["second"]),
            None if result is None else str(result),
            None if game is None else str(game),
        )
