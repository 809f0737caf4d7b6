"""Each account's Glicko-2 rating per variant in the games database, and rating a game.

When a rated game ends with a result, both sides are rated **in one transaction** from
their ratings at that moment (:meth:`RatingStore.rate`). The history's key ``(game_id,
player_id)`` makes it happen **once**, whichever server (or a replayed end) asks first;
each rating row is changed only if nobody changed it since it was read (its count of
games), so two games ending at once on two servers are rated one after the other, never
from the same rating.

The tables are in ``db/tables.py`` (migration ``r0005_ratings.py`` makes them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from hanamikoji.arena.glicko2 import Rating, rate_game
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import FINISHED
from hanamikoji.interfaces.web.db.tables import game_seats, games, players, rating_history, ratings
from hanamikoji.interfaces.web.ratings.model import (
    Change,
    GameRatings,
    HistoryPoint,
    PlayerRating,
    aged,
    bot_fixed_rating,
    score_of,
)

__all__ = ["LEADERBOARD_LIMIT", "RatingStore"]

LEADERBOARD_LIMIT = 100
"""The most players each part of the leaderboard lists."""

_TRIES = 5
"""Times a rating is tried again when another game changed a rating it read."""


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
