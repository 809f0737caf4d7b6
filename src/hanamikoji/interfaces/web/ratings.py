"""Rated games: each account's Glicko-2 rating per variant, and how rated games end.

* A game is **rated** when its creator (an account) chose so; both seats must then be
  accounts, or one a bot. A person is rated against a bot's fixed rating
  (``bots/ratings.py``), and the bot's never moves.
* When a rated game ends with a result, both sides are rated **in one transaction**
  from their ratings at that moment, one game a rating period
  (``arena/glicko2.py``'s :func:`~hanamikoji.arena.glicko2.rate_game`, as lichess
  does). The history's key ``(game_id, player_id)`` makes it happen **once**, whichever
  server (or a replayed end) asks first; each rating row is changed only if nobody
  changed it since it was read (its count of games), so two games ending at once on two
  servers are rated one after the other, never from the same rating.
* A rating whose deviation is above 110 is **provisional** (shown with ``?``).
* An untimed rated game ends without its rules (a timed game's clocks do this,
  ``clock.py``): a side that has not decided within the abort timeout before each side
  has decided **aborts** it (``unstarted``: not rated), and after that a player with no
  page open past the abandonment timeout while the other side is there **abandons** it
  (``abandoned``: lost). :func:`forfeit_due` says which and when.

>>> score_of("1-0"), score_of("0-1"), score_of("1/2-1/2"), score_of("*")
(1.0, 0.0, 0.5, None)
>>> forfeit_due(decided={0}, to_move=1, last_decision=1000, absent_since=(None, None),
...             bot_seat=None, abort_ms=60_000, abandon_ms=120_000)
Forfeit(at=61000, termination='unstarted', seat=1)
>>> forfeit_due(decided={0, 1}, to_move=0, last_decision=1000, absent_since=(5000, None),
...             bot_seat=None, abort_ms=60_000, abandon_ms=120_000)
Forfeit(at=125000, termination='abandoned', seat=0)
>>> forfeit_due(decided={0, 1}, to_move=0, last_decision=1000, absent_since=(5000, 7000),
...             bot_seat=None, abort_ms=60_000, abandon_ms=120_000) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from hanamikoji.arena.glicko2 import PROVISIONAL_DEVIATION, Rating, idle, rate_game
from hanamikoji.bots.ratings import bot_rating
from hanamikoji.interfaces.web.checks import Refused
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import FINISHED
from hanamikoji.interfaces.web.db.tables import game_seats, games, players, rating_history, ratings
from hanamikoji.interfaces.web.player_store import Player
from hanamikoji.interfaces.web_settings import ServeSettings

__all__ = [
    "DEFAULT_ABANDON_SECONDS",
    "DEFAULT_ABORT_SECONDS",
    "LEADERBOARD_LIMIT",
    "RATING_PERIODS_PER_DAY",
    "Change",
    "Forfeit",
    "GameRatings",
    "HistoryPoint",
    "PlayerRating",
    "RatingStore",
    "aged",
    "bot_fixed_rating",
    "check_rated",
    "forfeit_due",
    "score_of",
]

DEFAULT_ABORT_SECONDS = float(ServeSettings().abort_timeout)
"""How long a side of an untimed rated game may take over its first decision before the
game is aborted, unrated (``hanamikoji serve --abort-timeout``)."""

DEFAULT_ABANDON_SECONDS = float(ServeSettings().abandon_timeout)
"""How long a player of an untimed rated game may be away (no page open on the game)
once each side has decided, while the other side is there, before losing it
(``hanamikoji serve --abandon-timeout``)."""

LEADERBOARD_LIMIT = 100
"""The most players each part of the leaderboard lists."""

RATING_PERIODS_PER_DAY = 0.21436
"""How many Glicko-2 rating periods a day without a rated game counts for (lichess's
figure): a rating's deviation grows with the time since it last changed
(:func:`aged`), so a player back after months is less certain, and provisional again
after about a year away from an established 60."""

_TRIES = 5
"""Times a rating is tried again when another game changed a rating it read."""


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
    hanamikoji.interfaces.web.checks.Refused: err_rated_needs_account
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

    >>> from datetime import timedelta
    >>> then = datetime(2026, 1, 1, tzinfo=UTC)
    >>> aged(Rating(1800, 60), then, then + timedelta(days=4)) == Rating(1800, 60)
    True
    >>> round(aged(Rating(1800, 60), then, then + timedelta(days=100)).deviation, 1)
    76.7
    """
    days = max(0.0, (now - updated).total_seconds() / 86_400)
    return idle(rating, int(days * RATING_PERIODS_PER_DAY))


@dataclass(frozen=True, slots=True)
class Forfeit:
    """An untimed rated game's end outside its rules: when, why, and whose."""

    at: int
    termination: str
    seat: int


def forfeit_due(
    *,
    decided: set[int],
    to_move: int | None,
    last_decision: int,
    absent_since: tuple[int | None, int | None],
    bot_seat: int | None,
    abort_ms: int,
    abandon_ms: int,
) -> Forfeit | None:
    """The next forfeit of an untimed rated game, if any is coming (times in ms).

    Before each side has decided, the side to decide has ``abort_ms`` from the last
    decision (or the game's start, ``last_decision``) to do so, or the game is aborted
    (``unstarted``). After, a person's seat away since ``absent_since`` loses once it
    has been away ``abandon_ms`` while the other side is there (a bot always is); with
    both away nobody loses."""
    if to_move is None:
        return None
    if decided != {0, 1}:
        if to_move == bot_seat:
            return None
        return Forfeit(last_decision + abort_ms, "unstarted", to_move)
    due = [
        Forfeit(since + abandon_ms, "abandoned", seat)
        for seat, since in enumerate(absent_since)
        if since is not None
        and seat != bot_seat
        and (bot_seat == 1 - seat or absent_since[1 - seat] is None)
    ]
    return min(due, key=lambda forfeit: forfeit.at, default=None)


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

    def json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "rating": round(self.rating.rating),
            "deviation": round(self.rating.deviation),
            "provisional": self.provisional,
            "games": self.games,
        }


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

    def json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "before": round(self.before.rating),
            "after": round(self.after.rating),
            "delta": self.delta,
            "provisional": self.after.provisional,
        }


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

    def json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "at": self.at.isoformat(),
            "rating": round(self.rating),
            "deviation": round(self.deviation),
            "provisional": self.deviation > PROVISIONAL_DEVIATION,
            "delta": self.delta,
            "score": self.score,
            "opponent": round(self.opponent),
        }


class _Stale(Exception):
    """A rating changed between reading it and writing it: try again."""


@dataclass(frozen=True, slots=True)
class _Side:
    seat: int
    player_id: str | None  # None: the bot
    rating: Rating
    games: int | None  # the row's count when read; None: no row yet (or the bot)


class RatingStore:
    """The ratings' statements, on the connections of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading ----------------------------------------------------------------------

    def rating(self, player_id: str, variant: str) -> PlayerRating:
        """The player's rating in ``variant`` (a new player's if none)."""
        with self.store.connection() as connection:
            row = _rating_row(connection, player_id, variant)
        if row is None:
            return PlayerRating(variant, Rating(), 0)
        return _player_rating(row)

    def ratings_of(self, player_id: str) -> list[PlayerRating]:
        """Every variant the player has a rating in, by name."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(ratings).where(ratings.c.player_id == player_id).order_by(ratings.c.variant)
            ).all()
        return [_player_rating(row._mapping) for row in rows]

    def current(self, player_ids: Iterable[str]) -> dict[tuple[str, str], PlayerRating]:
        """The ratings of these players, by (player id, variant)."""
        wanted = sorted(set(player_ids))
        if not wanted:
            return {}
        with self.store.connection() as connection:
            rows = connection.execute(select(ratings).where(ratings.c.player_id.in_(wanted))).all()
        return {
            (str(row._mapping["player_id"]), str(row._mapping["variant"])): _player_rating(
                row._mapping
            )
            for row in rows
        }

    def changes(self, game_id: str) -> GameRatings | None:
        """A rated game's changes, or ``None`` if it has not been rated."""
        with self.store.connection() as connection:
            return _changes(connection, game_id)

    def deltas(self, player_id: str, game_ids: Iterable[str]) -> dict[str, int]:
        """The player's rating change in each of these games that was rated."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        with self.store.connection() as connection:
            rows = connection.execute(
                select(
                    rating_history.c.game_id,
                    rating_history.c.rating_before,
                    rating_history.c.rating_after,
                ).where(
                    rating_history.c.player_id == player_id,
                    rating_history.c.game_id.in_(wanted),
                )
            ).all()
        return {str(game): round(after) - round(before) for game, before, after in rows}

    def seat_accounts(self, game_ids: Iterable[str]) -> dict[str, dict[int, str]]:
        """The player id at each named seat of these games."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        found: dict[str, dict[int, str]] = {}
        with self.store.connection() as connection:
            rows = connection.execute(
                select(game_seats.c.game_id, game_seats.c.seat, game_seats.c.player_id).where(
                    game_seats.c.game_id.in_(wanted)
                )
            ).all()
        for game_id, seat, player_id in rows:
            found.setdefault(str(game_id), {})[int(seat)] = str(player_id)
        return found

    def history(self, player_id: str) -> list[HistoryPoint]:
        """The player's rating after each rated game, oldest first."""
        h = rating_history.c
        with self.store.connection() as connection:
            rows = connection.execute(
                select(rating_history)
                .where(h.player_id == player_id)
                .order_by(h.created, h.game_id)
            ).all()
        return [
            HistoryPoint(
                variant=str(row.variant),
                at=_aware(row.created),
                rating=float(row.rating_after),
                deviation=float(row.deviation_after),
                delta=round(row.rating_after) - round(row.rating_before),
                score=float(row.score),
                opponent=float(row.opponent_rating),
            )
            for row in rows
        ]

    def leaderboard(
        self, variant: str, *, provisional: bool, limit: int = LEADERBOARD_LIMIT
    ) -> list[tuple[str, PlayerRating]]:
        """The accounts rated in ``variant``, best first: the established ones
        (deviation 110 or less now, time away counted: :func:`aged`), or with
        ``provisional`` the others."""
        query = (
            select(players.c.name, ratings)
            .join(players, players.c.id == ratings.c.player_id)
            .where(ratings.c.variant == variant, players.c.kind == "account")
            .order_by(ratings.c.rating.desc(), players.c.name)
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        now = datetime.now(UTC)
        listed = [(str(row._mapping["name"]), _player_rating(row._mapping, now)) for row in rows]
        return [entry for entry in listed if entry[1].provisional == provisional][:limit]

    def unrated_ends(self) -> list[str]:
        """Rated games that ended with a result and have no history yet (a server
        stopped between the two): the start rates them."""
        rated_yet = select(rating_history.c.game_id).where(rating_history.c.game_id == games.c.id)
        query = select(games.c.id).where(
            games.c.rated.is_(True),
            games.c.status == FINISHED,
            games.c.result.in_(("1-0", "0-1", "1/2-1/2")),
            ~rated_yet.exists(),
        )
        with self.store.connection() as connection:
            return [str(game_id) for (game_id,) in connection.execute(query).all()]

    # -- rating a game ----------------------------------------------------------------

    def rate(self, game_id: str, now: datetime | None = None) -> GameRatings | None:
        """Rate a finished rated game, once: its changes (those already stored if it was
        rated before), or ``None`` when it is not one to rate (not rated, no result, a
        seat that is no account)."""
        moment = now or datetime.now(UTC)
        for _ in range(_TRIES):
            try:
                with self.store.transaction() as connection:
                    return self._rate(connection, game_id, moment)
            except (IntegrityError, _Stale):
                done = self.changes(game_id)
                if done is not None:
                    return done  # rated by another server at this moment
        raise RuntimeError(f"game {game_id}: its ratings kept changing while it was rated")

    def _rate(self, connection: Connection, game_id: str, now: datetime) -> GameRatings | None:
        done = _changes(connection, game_id)
        if done is not None:
            return done
        row = connection.execute(select(games).where(games.c.id == game_id)).first()
        if row is None:
            return None
        game = row._mapping
        score = score_of(game["result"])
        if not game["rated"] or game["status"] != FINISHED or score is None:
            return None
        sides = _sides(connection, game, now)
        if sides is None:
            return None
        after = rate_game(sides[0].rating, sides[1].rating, score)
        # A bot's rating never moves: its side keeps the rating it came with.
        changes = tuple(
            Change(
                side.seat,
                side.player_id is None,
                side.rating,
                new if side.player_id else side.rating,
            )
            for side, new in zip(sides, after, strict=True)
        )
        variant = str(game["variant"])
        for side, change in zip(sides, changes, strict=True):
            if side.player_id is None:
                continue
            seat_score = score if side.seat == 0 else 1 - score
            _write_history(connection, game_id, variant, side, change, seat_score, sides, now)
            _write_rating(connection, variant, side, change.after, now)
        return GameRatings(game_id, changes)


def _sides(connection: Connection, game: Any, now: datetime) -> tuple[_Side, _Side] | None:
    """Both sides' ratings ``now`` (time away counted), or ``None`` if a seat is neither
    an account nor the bot."""
    variant = str(game["variant"])
    seated = connection.execute(
        select(game_seats.c.seat, players.c.id, players.c.kind)
        .join(players, players.c.id == game_seats.c.player_id)
        .where(game_seats.c.game_id == game["id"])
    ).all()
    accounts = {int(seat): str(pid) for seat, pid, kind in seated if kind == "account"}
    sides: list[_Side] = []
    for seat in (0, 1):
        if game["bot_seat"] == seat:
            try:
                fixed = bot_fixed_rating(int(game["bot_level"]), variant)
            except (LookupError, ValueError):
                return None
            sides.append(_Side(seat, None, fixed, None))
            continue
        player_id = accounts.get(seat)
        if player_id is None:
            return None
        row = _rating_row(connection, player_id, variant)
        if row is None:
            sides.append(_Side(seat, player_id, Rating(), None))
        else:
            rating = _player_rating(row, now).rating
            sides.append(_Side(seat, player_id, rating, int(row["games"])))
    return sides[0], sides[1]


def _write_history(
    connection: Connection,
    game_id: str,
    variant: str,
    side: _Side,
    change: Change,
    score: float,
    sides: tuple[_Side, _Side],
    now: datetime,
) -> None:
    assert side.player_id is not None
    connection.execute(
        insert(rating_history).values(
            game_id=game_id,
            player_id=side.player_id,
            variant=variant,
            seat=side.seat,
            score=score,
            rating_before=change.before.rating,
            deviation_before=change.before.deviation,
            rating_after=change.after.rating,
            deviation_after=change.after.deviation,
            volatility_after=change.after.volatility,
            opponent_rating=sides[1 - side.seat].rating.rating,
            created=now,
        )
    )


def _write_rating(
    connection: Connection, variant: str, side: _Side, after: Rating, now: datetime
) -> None:
    """Store the side's new rating, if its row is as it was read (else :class:`_Stale`)."""
    assert side.player_id is not None
    values = {
        "rating": after.rating,
        "deviation": after.deviation,
        "volatility": after.volatility,
        "updated": now,
    }
    if side.games is None:
        connection.execute(
            insert(ratings).values(player_id=side.player_id, variant=variant, games=1, **values)
        )
        return
    changed = connection.execute(
        update(ratings)
        .where(
            and_(
                ratings.c.player_id == side.player_id,
                ratings.c.variant == variant,
                ratings.c.games == side.games,
            )
        )
        .values(games=side.games + 1, **values)
    )
    if changed.rowcount != 1:
        raise _Stale(f"the rating of {side.player_id} in {variant} changed meanwhile")


def _changes(connection: Connection, game_id: str) -> GameRatings | None:
    rows = connection.execute(
        select(rating_history).where(rating_history.c.game_id == game_id)
    ).all()
    if not rows:
        return None
    game = connection.execute(
        select(games.c.bot_seat, games.c.bot_level, games.c.variant).where(games.c.id == game_id)
    ).first()
    changes: dict[int, Change] = {}
    for row in rows:
        before = Rating(row.rating_before, row.deviation_before)
        after = Rating(row.rating_after, row.deviation_after, row.volatility_after)
        changes[int(row.seat)] = Change(int(row.seat), False, before, after)
    if game is not None and game.bot_seat is not None and int(game.bot_seat) not in changes:
        try:
            with_bot = bot_fixed_rating(int(game.bot_level), str(game.variant))
        except (LookupError, ValueError):
            pass  # the variant's levels are no longer rated (a new table): the person's only
        else:
            changes[int(game.bot_seat)] = Change(int(game.bot_seat), True, with_bot, with_bot)
    return GameRatings(game_id, tuple(changes[seat] for seat in sorted(changes)))


def _rating_row(connection: Connection, player_id: str, variant: str) -> Any:
    row = connection.execute(
        select(ratings).where(ratings.c.player_id == player_id, ratings.c.variant == variant)
    ).first()
    return None if row is None else row._mapping


def _player_rating(row: Any, now: datetime | None = None) -> PlayerRating:
    """A stored rating as it stands ``now`` (the time since it changed counted)."""
    stored = Rating(float(row["rating"]), float(row["deviation"]), float(row["volatility"]))
    rating = aged(stored, _aware(row["updated"]), now or datetime.now(UTC))
    return PlayerRating(str(row["variant"]), rating, int(row["games"]))


def _aware(moment: datetime) -> datetime:
    """SQLite keeps no time zone; every time written here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
