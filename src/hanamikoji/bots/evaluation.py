"""What the end of a round is worth for winning the match.

Favor markers carry over between rounds, so a search that stops at a round's end must
score the marker board, not the round: :mod:`hanamikoji.bots.match_table` solves that
value from self-play.
"""

from __future__ import annotations

from collections.abc import Callable

from hanamikoji.core.game import Game
from hanamikoji.core.variants import Variant

__all__ = ["MatchValue", "round_end_value"]

MatchValue = Callable[[tuple[int | None, ...], int, int, int, Variant], float]
"""``(favor, seat, next_starter, next_round, variant) -> chance that seat wins the match``."""


def round_end_value(game: Game, seat: int, match_value: MatchValue) -> float:
    """``seat``'s chance to win from a game whose round has just been scored (or is over)."""
    outcome = game.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner == seat else 0.0
    return match_value(game.favor(), seat, game.round_starter, game.round, game.variant)
