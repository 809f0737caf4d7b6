"""What the end of a round is worth for winning the match.

Favor markers carry over between rounds, so a search that stops at a round's end must
score the marker board, not the round. :func:`heuristic_match_value` is a smooth guess
from charm and geisha margins; :mod:`hanamikoji.bots.match_table` solves it from self-play.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from hanamikoji.core.cards import CHARMS
from hanamikoji.core.game import Game
from hanamikoji.core.variants import Variant

__all__ = ["MatchValue", "heuristic_match_value", "round_end_value"]

MatchValue = Callable[[tuple[int | None, ...], int, int, int, Variant], float]
"""``(favor, seat, next_starter, next_round, variant) -> chance that seat wins the match``."""


def heuristic_match_value(
    favor: tuple[int | None, ...], seat: int, next_starter: int, next_round: int, variant: Variant
) -> float:
    """A logistic guess from the charm and geisha margins and the distance to 11 charm / 4
    geishas; the player starting the next round gets a small edge for moving first."""
    charm = [0, 0]
    geishas = [0, 0]
    for kind, owner in enumerate(favor):
        if owner is not None:
            charm[owner] += CHARMS[kind]
            geishas[owner] += 1
    mine, theirs = seat, 1 - seat
    # Distance to a win: the fewer points a player still needs, the likelier they close it.
    need_mine = min((11 - charm[mine]) / 2.5, 4 - geishas[mine])
    need_theirs = min((11 - charm[theirs]) / 2.5, 4 - geishas[theirs])
    z = 0.9 * (need_theirs - need_mine) + 0.12 * (charm[mine] - charm[theirs])
    z += 0.1 if next_starter == seat else -0.1
    return 1.0 / (1.0 + math.exp(-z))


def round_end_value(game: Game, seat: int, match_value: MatchValue) -> float:
    """``seat``'s chance to win from a game whose round has just been scored (or is over)."""
    outcome = game.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner == seat else 0.0
    return match_value(game.favor(), seat, game.round_starter, game.round, game.variant)
