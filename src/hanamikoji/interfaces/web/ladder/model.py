"""The bot ladder's pairing, pure: who plays whom in one look at the ladder.

Each bot on the ladder is a :class:`Candidate` in each variant it joined: its rating
there, how long it has waited for a ladder game in it, and whom it played last in it.
One look (:func:`pairings`) pairs the candidates of every variant, the longest waiting
first, each with the closest rating inside the **rating window**, which widens with the
wait (:func:`window`: :data:`BASE_WINDOW` points, :data:`WIDEN_PER_S` more a second, at
most :data:`MAX_WINDOW`), as lichess's pools widen theirs. Never the opponent of the
bot's last ladder game in that variant (no immediate rematch), never more games than
the bot's free slots (its cap of concurrent games less the games it is playing).

>>> a = Candidate("a", "classic", 1500.0, waited_ms=0, last_opponent=None)
>>> b = Candidate("b", "classic", 1540.0, waited_ms=0, last_opponent=None)
>>> pairings([a, b], {"a": 1, "b": 1})
[Pairing(variant='classic', players=('a', 'b'))]
>>> pairings([a, b], {"a": 1, "b": 0})
[]
>>> far = Candidate("b", "classic", 1900.0, waited_ms=0, last_opponent=None)
>>> pairings([a, far], {"a": 1, "b": 1}), window(0), window(60_000)
([], 100.0, 400.0)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "BASE_WINDOW",
    "MAX_WINDOW",
    "WIDEN_PER_S",
    "Candidate",
    "Pairing",
    "acceptable",
    "pairings",
    "window",
]

BASE_WINDOW = 100.0
"""Rating points apart two bots that have just started waiting may be."""

WIDEN_PER_S = 5.0
"""Points the window widens for each second a bot has waited."""

MAX_WINDOW = 600.0
"""The widest window: bots further apart than this never meet."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A bot on the ladder in one variant: its rating there, the ms it has waited for a
    ladder game in it, and the opponent of its last ladder game in it."""

    player_id: str
    variant: str
    rating: float
    waited_ms: int
    last_opponent: str | None


@dataclass(frozen=True, slots=True)
class Pairing:
    """A ladder game to make: the variant and its two bots (seat 0 first)."""

    variant: str
    players: tuple[str, str]


def window(waited_ms: int) -> float:
    """The rating window of a bot that has waited ``waited_ms``."""
    return min(MAX_WINDOW, BASE_WINDOW + WIDEN_PER_S * max(0, waited_ms) / 1000)


def acceptable(one: Candidate, other: Candidate) -> bool:
    """Whether two candidates of a variant may meet: two bots, not each other's last
    opponent, their ratings inside the wider of their two windows."""
    if one.player_id == other.player_id or one.variant != other.variant:
        return False
    if one.last_opponent == other.player_id or other.last_opponent == one.player_id:
        return False
    widest = max(window(one.waited_ms), window(other.waited_ms))
    return abs(one.rating - other.rating) <= widest


def pairings(candidates: Iterable[Candidate], free: Mapping[str, int]) -> list[Pairing]:
    """The games of one look at the ladder (see the module's documentation): each bot in
    at most ``free[bot]`` of them (none for a bot not in ``free``)."""
    left = {player: max(0, count) for player, count in free.items()}
    by_variant: dict[str, list[Candidate]] = defaultdict(list)
    for candidate in candidates:
        by_variant[candidate.variant].append(candidate)
    made: list[Pairing] = []
    for variant in sorted(by_variant):
        waiting = sorted(by_variant[variant], key=lambda c: (-c.waited_ms, c.player_id))
        paired: set[str] = set()
        for one in waiting:
            if one.player_id in paired or left.get(one.player_id, 0) <= 0:
                continue
            others = [
                other
                for other in waiting
                if other.player_id not in paired
                and left.get(other.player_id, 0) > 0
                and acceptable(one, other)
            ]
            if not others:
                continue
            other = min(others, key=lambda c: (abs(c.rating - one.rating), -c.waited_ms))
            paired.update((one.player_id, other.player_id))
            for player in (one.player_id, other.player_id):
                left[player] -= 1
            made.append(Pairing(variant, (one.player_id, other.player_id)))
    return made
