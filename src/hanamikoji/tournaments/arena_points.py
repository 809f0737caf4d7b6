"""An arena's points and standings, with lichess's streak bonus.

A win is worth 2 points, a draw 1, a loss 0. Two wins in a row light a streak: from
the next game on, every game is worth double (a win 4, a draw 2) until the player fails
to win; the game that breaks the streak (a draw or a loss) is still worth double. Games
count in the order each player played them; a game still on when the arena ends counts
nothing (as on lichess). Players are ranked by points, then by their performance: the
average rating of their opponents plus 500 times (wins - losses) / games (players yet
to play: their own rating), then rating, then id.

>>> streak_points([1.0, 1.0, 0.5])     # two wins, then a draw worth double
(6, False)
>>> streak_points([1.0, 1.0, 1.0, 0.0, 1.0])   # 2 + 2 + 4 + 0 + 2
(10, False)
>>> streak_points([1.0, 1.0])          # on fire: the next game is worth double
(4, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from hanamikoji.tournaments.model import Entrant, Pairing

__all__ = ["DRAW_POINTS", "WIN_POINTS", "ArenaStanding", "arena_standings", "streak_points"]

WIN_POINTS = 2
DRAW_POINTS = 1
STREAK = 2
"""Wins in a row that light the streak."""


def game_points(results: Sequence[float]) -> list[int]:
    """What each game of ``results`` (1, 1/2 or 0 each, in the order played) was worth."""
    worth: list[int] = []
    wins_in_a_row = 0
    for result in results:
        base = WIN_POINTS if result == 1.0 else DRAW_POINTS if result == 0.5 else 0
        worth.append(base * (2 if wins_in_a_row >= STREAK else 1))
        wins_in_a_row = wins_in_a_row + 1 if result == 1.0 else 0
    return worth


def streak_points(results: Sequence[float]) -> tuple[int, bool]:
    """The points of ``results`` and whether the player is on a streak after them."""
    run = 0
    for result in results:
        run = run + 1 if result == 1.0 else 0
    return sum(game_points(results)), run >= STREAK


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    """A player's line of an arena's standings; ``sheet`` is what each of their games
    was worth, in order."""

    rank: int
    player: str
    name: str
    rating: int
    active: bool
    points: int
    fire: bool
    performance: int | None
    wins: int
    draws: int
    losses: int
    sheet: tuple[int, ...]

    @property
    def games(self) -> int:
        return len(self.sheet)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "sheet": list(self.sheet)}


def arena_standings(
    entrants: Sequence[Entrant], games: Sequence[Pairing]
) -> tuple[ArenaStanding, ...]:
    """Every entrant, best first, from the ``games`` in the order they were paired
    (only those with a result count)."""
    rating = {entrant.id: entrant.rating for entrant in entrants}
    results: dict[str, list[float]] = {entrant.id: [] for entrant in entrants}
    opponents: dict[str, list[int]] = {entrant.id: [] for entrant in entrants}
    for pairing in games:
        if pairing.result is None:
            continue
        for player in pairing.players:
            results[player].append(pairing.points_of(player))
            opponents[player].append(rating[pairing.opponent_of(player)])
    lines = []
    for entrant in entrants:
        played = results[entrant.id]
        points, fire = streak_points(played)
        wins, draws = played.count(1.0), played.count(0.5)
        losses = len(played) - wins - draws
        performance = None
        if played:
            average = sum(opponents[entrant.id]) / len(played)
            performance = round(average + 500 * (wins - losses) / len(played))
        sheet = tuple(game_points(played))
        line = ArenaStanding(
            0, entrant.id, entrant.name, entrant.rating, entrant.active, points, fire,
            performance, wins, draws, losses, sheet,
        )  # fmt: skip
        lines.append(line)
    lines.sort(key=_order)
    return tuple(replace(line, rank=index + 1) for index, line in enumerate(lines))


def _order(line: ArenaStanding) -> tuple[int, int, int, str]:
    performance = line.performance if line.performance is not None else line.rating
    return (-line.points, -performance, -line.rating, line.player)
