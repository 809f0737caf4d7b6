"""Rated games: what a rating is and the rules around it.

* A game is **rated** when its creator (an account) chose so; both seats must then be
  accounts, or one a bot (:func:`check_rated`). A person is rated against a bot's fixed
  rating (``bots/ratings.py``, :func:`bot_fixed_rating`), and the bot's never moves.
* When a rated game ends with a result (:func:`score_of`), both sides are rated from
  their ratings at that moment, one game a rating period (``arena/glicko2.py``'s
  :func:`~hanamikoji.arena.glicko2.rate_game`, as lichess does); ``store.py`` does it,
  once, in one transaction.
* A rating's deviation grows with the time since it last changed (:func:`aged`); one
  above 110 is **provisional** (shown with ``?``).

>>> score_of("1-0"), score_of("0-1"), score_of("1/2-1/2"), score_of("*")
(1.0, 0.0, 0.5, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from hanamikoji.arena.glicko2 import PROVISIONAL_DEVIATION, Rating, idle
from hanamikoji.bots.ratings import bot_rating
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.wire.answers import RatingChange, RatingPoint, VariantRating
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "RATING_PERIODS_PER_DAY",
    "Change",
    "GameRatings",
    "HistoryPoint",
    "PlayerRating",
    "aged",
    "bot_fixed_rating",
    "check_rated",
    "score_of",
]

RATING_PERIODS_PER_DAY = 0.21436
"""How many Glicko-2 rating periods a day without a rated game counts for (lichess's
figure): a rating's deviation grows with the time since it last changed
(:func:`aged`), so a player back after months is less certain, and provisional again
after about a year away from an established 60."""


def score_of(result: str | None) -> float | None:
    """Seat 0's score in a game of ``result`` (``None``: no result, nothing to rate)."""
    return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result or "")


def bot_fixed_rating(level: int, variant: str) -> Rating:
    """A bot level's fixed rating in ``variant``. Raises ``LookupError`` for a variant
    whose levels have no ratings, ``ValueError`` for a level that does not exist."""
    fixed = bot_rating(level, variant)
    return Rating(fixed.rating, fixed.deviation)


def check_rated(player: Player | None, bot_level: int | None, variant: str) -> None:
    """Refuse a rated game to anyone but an account (``err_rated_needs_account``), and
    against a bot in a variant whose levels have no ratings (``err_rated_variant``).

    >>> check_rated(None, 2, "classic")
    Traceback (most recent call last):
    ...
    hanamikoji.interfaces.web.wire.refused.Refused: err_rated_needs_account
    """
    if player is None or player.kind != "account":
        raise Refused("err_rated_needs_account")
    if bot_level is not None:
        try:
            bot_fixed_rating(bot_level, variant)
        except (LookupError, ValueError):
            raise Refused("err_rated_variant", variant=variant) from None


def aged(rating: Rating, updated: datetime, now: datetime) -> Rating:
    """``rating`` as last stored at ``updated``, grown as uncertain as the time since
    makes it by ``now``: one idle period (``glicko2.idle``, up to a new player's 350)
    per whole :data:`RATING_PERIODS_PER_DAY` period elapsed.

    >>> from datetime import UTC, timedelta
    >>> then = datetime(2026, 1, 1, tzinfo=UTC)
    >>> aged(Rating(1800, 60), then, then + timedelta(days=4)) == Rating(1800, 60)
    True
    >>> round(aged(Rating(1800, 60), then, then + timedelta(days=100)).deviation, 1)
    76.7
    """
    days = max(0.0, (now - updated).total_seconds() / 86_400)
    return idle(rating, int(days * RATING_PERIODS_PER_DAY))


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating in a variant and rated games played (0 and a new player's
    rating when they have none)."""

    variant: str
    rating: Rating
    games: int

    @property
    def provisional(self) -> bool:
        return self.rating.provisional

    def wire(self) -> VariantRating:
        """As the pages get it: rounded."""
        return VariantRating(
            variant=self.variant,
            rating=round(self.rating.rating),
            deviation=round(self.rating.deviation),
            provisional=self.provisional,
            games=self.games,
        )


@dataclass(frozen=True, slots=True)
class Change:
    """One side of a rated game: its rating before and after (a bot's: the same)."""

    seat: int
    bot: bool
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change as shown: the rounded ratings' difference."""
        return round(self.after.rating) - round(self.before.rating)

    def wire(self) -> RatingChange:
        """As the pages get it: rounded."""
        return RatingChange(
            seat=self.seat,
            bot=self.bot,
            before=round(self.before.rating),
            after=round(self.after.rating),
            delta=self.delta,
            provisional=self.after.provisional,
        )


@dataclass(frozen=True, slots=True)
class GameRatings:
    """A rated game's changes, seat 0's first."""

    game_id: str
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A player's rating after one rated game."""

    variant: str
    at: datetime
    rating: float
    deviation: float
    delta: int
    score: float
    opponent: float

    def wire(self) -> RatingPoint:
        """As the player's page gets it: rounded."""
        return RatingPoint(
            variant=self.variant,
            at=self.at.isoformat(),
            rating=round(self.rating),
            deviation=round(self.deviation),
            provisional=self.deviation > PROVISIONAL_DEVIATION,
            delta=self.delta,
            score=self.score,
            opponent=round(self.opponent),
        )
