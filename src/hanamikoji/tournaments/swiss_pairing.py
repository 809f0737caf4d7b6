"""A Swiss round's pairing: who meets whom, who starts, who has the bye.

The players are ranked by score, then rating, then id. Every two of them may meet,
and, when their number is odd, any of them may take the bye; each possible game (and
bye) has a vector of costs, and the round is the maximum-cardinality matching of the
least cost (:mod:`~hanamikoji.tournaments.matching`), the costs ranked in this order:

1. a second bye for a player who had one (only when everyone has had one);
2. a rematch: never while the round can be paired without one;
3. the first-player balance: a game after which a player would have started two games
   more, or two fewer, than they did not (:func:`~hanamikoji.tournaments.first_player.overflow`);
4. the bye's place: it goes to the lowest-ranked player who can take it;
5. the score difference of each game (squared, in half points);
6. within a score group, the top half meets the bottom half, as FIDE's Dutch system
   pairs (1 against n/2 + 1, ...): the distance of each game's two places in their
   group from half the group, squared.

Each cost outranks every later one put together: no difference of score ever buys a
rematch. Who starts each game is :func:`~hanamikoji.tournaments.first_player.starts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hanamikoji.tournaments.first_player import Roles, overflow, starts
from hanamikoji.tournaments.matching import best_pairs
from hanamikoji.tournaments.model import Pairing

__all__ = ["BYE", "Candidate", "pair_round", "pairing_costs"]

BYE = ""
"""The bye's node in the matching (no entrant has an empty id)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player to pair, with what the pairing needs of their event so far: their
    ``score`` in half points, ``rating``, every opponent met (one entry a game),
    ``byes`` taken and ``roles`` (their games in order, ``True`` where they started)."""

    id: str
    score: int
    rating: int
    opponents: tuple[str, ...] = ()
    byes: int = 0
    roles: Roles = ()


def ranked(candidates: Sequence[Candidate]) -> list[Candidate]:
    """By score, then rating (higher first), then id."""
    return sorted(candidates, key=lambda c: (-c.score, -c.rating, c.id))


def pairing_costs(candidates: Sequence[Candidate]) -> dict[tuple[str, str], tuple[int, ...]]:
    """The cost vector of every possible game (and bye, when the number is odd) among
    ``candidates``, keyed by ids in rank order (the bye's node last)."""
    order = ranked(candidates)
    groups: dict[int, list[str]] = {}
    for candidate in order:
        groups.setdefault(candidate.score, []).append(candidate.id)
    costs: dict[tuple[str, str], tuple[int, ...]] = {}
    for index, a in enumerate(order):
        for b in order[index + 1 :]:
            shape = 0
            if a.score == b.score:
                group = groups[a.score]
                distance = group.index(b.id) - group.index(a.id)
                shape = (distance - len(group) // 2) ** 2
            costs[(a.id, b.id)] = (
                0,
                a.opponents.count(b.id),
                overflow(a.roles, b.roles),
                0,
                (a.score - b.score) ** 2,
                shape,
            )
    if len(order) % 2:
        for place, candidate in enumerate(order):
            from_bottom = len(order) - 1 - place
            costs[(candidate.id, BYE)] = (candidate.byes, 0, 0, from_bottom, 0, 0)
    return costs


def pair_round(candidates: Sequence[Candidate]) -> tuple[tuple[Pairing, ...], str | None]:
    """The round's pairings, board by board (the boards in the order of their
    higher-ranked player), and who has the bye (``None`` for an even number)."""
    order = ranked(candidates)
    by_id = {candidate.id: candidate for candidate in order}
    if len(by_id) != len(order):
        raise ValueError("every candidate needs their own id")
    nodes = [candidate.id for candidate in order] + ([BYE] if len(order) % 2 else [])
    pairs = best_pairs(nodes, pairing_costs(order))
    bye = next((a for a, b in pairs if b == BYE), None)
    pairings = []
    for board, (a, b) in enumerate(pair for pair in pairs if pair[1] != BYE):
        higher, lower = by_id[a], by_id[b]
        if starts(higher.roles, lower.roles, higher=True, board=board):
            pairings.append(Pairing(a, b))
        else:
            pairings.append(Pairing(b, a))
    return tuple(pairings), bye
