"""The game browser's queries: finished public games by player, variant, result, rated
and date, newest first, a page at a time after a keyset cursor; who sat at their seats;
a player's results counted for their statistics.

A game is listed only when it is over (``status`` finished) and not private (no row of
``private_games``): a game in play or a private one is never found, whatever is asked.
Every search is index-backed: without a player the newest finished games come in order
from ``ix_games_status_created`` (revision ``0010_browser``); with one, the player's
seats come newest first from ``ix_game_seats_player_created`` (player_id, game_created,
game_id; revision ``0016_browser_index``: each seat carries its game's start) and each
game by its key, so a page reads about as many seats as it lists however many games the
player has. The cursor is the last game's ``(created, id)``, compared as a row, so a page
never skips or repeats a game however many games start meanwhile (lichess pages its game
lists the same way).

>>> from hanamikoji.interfaces.web.db.database import Store
>>> BrowserStore(Store("sqlite://")).search(Filters(), None, None, 20)
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, and_, func, or_, select, tuple_
from sqlalchemy.sql.elements import ColumnElement

from hanamikoji.interfaces.web.browser.filters import Cursor, Filters
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import FINISHED, shown_to
from hanamikoji.interfaces.web.db.tables import game_seats, games, players
from hanamikoji.interfaces.web.players.store import PlayerKind, name_key

__all__ = ["Account", "BrowserStore", "FoundGame", "SeatHolder", "TallyRow"]


@dataclass(frozen=True, slots=True)
class Account:
    """An account a search names: its id and its name as it writes it."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class FoundGame:
    """A finished public game as the browser lists it; ``seat``: the searched player's."""

    id: str
    variant: str
    created: datetime
    first_player: int
    bot_seat: int | None
    bot_level: int | None
    result: str | None
    termination: str | None
    rated: bool
    seat: int | None

    @property
    def cursor(self) -> Cursor:
        """The cursor of the page after this game."""
        return Cursor(self.created, self.id)


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """The player named at a seat (a guest's nickname or an account's name)."""

    name: str
    kind: PlayerKind
    bot: bool = False


@dataclass(frozen=True, slots=True)
class TallyRow:
    """How many of a player's finished public games share a variant, a seat, a first
    player, a bot opponent's level (``None``: a person) and a result."""

    variant: str
    seat: int
    first_player: int
    bot_level: int | None
    result: str | None
    games: int


class BrowserStore:
    """The browser's reads, on the connections of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def account(self, name: str) -> Account | None:
        """The account named ``name``, whatever its case."""
        with self.store.connection() as connection:
            row = connection.execute(
                select(players.c.id, players.c.name).where(
                    players.c.name_key == name_key(name), players.c.kind == "account"
                )
            ).first()
        return None if row is None else Account(str(row[0]), str(row[1]))

    def search(
        self, filters: Filters, player_id: str | None, cursor: Cursor | None, limit: int
    ) -> list[FoundGame]:
        """At most ``limit`` finished public games matching ``filters`` (``player_id``: the
        account ``filters.player`` names), newest first, after ``cursor``."""
        query = search_query(filters, player_id, cursor, limit)
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        return [_found(row._mapping) for row in rows]

    def holders(self, game_ids: Sequence[str]) -> dict[tuple[str, int], SeatHolder]:
        """Who is named at each seat of the games, by (game id, seat)."""
        if not game_ids:
            return {}
        query = (
            select(
                game_seats.c.game_id,
                game_seats.c.seat,
                players.c.name,
                players.c.kind,
                players.c.bot,
            )
            .join(players, players.c.id == game_seats.c.player_id)
            .where(game_seats.c.game_id.in_(game_ids))
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        return {
            (str(game_id), int(seat)): SeatHolder(
                str(name), "account" if kind == "account" else "guest", bool(bot)
            )
            for game_id, seat, name, kind, bot in rows
        }

    def tallies(self, player_id: str, viewer: str | None = None) -> list[TallyRow]:
        """The player's finished games that ``viewer`` (``None``: nobody signed in) may
        see (``db/games.py``'s :func:`shown_to`: the public ones, and the private ones
        the viewer sat in), counted by what their statistics tell apart
        (:class:`TallyRow`)."""
        mine = game_seats.alias("mine")
        bot_seat = func.coalesce(games.c.bot_seat, -1)
        bot_level = func.coalesce(games.c.bot_level, -1)
        keys = (games.c.variant, mine.c.seat, games.c.first_player, bot_seat, bot_level)
        query = (
            select(*keys, games.c.result, func.count())
            .select_from(mine.join(games, games.c.id == mine.c.game_id))
            .where(mine.c.player_id == player_id, games.c.status == FINISHED)
            .where(shown_to(viewer))
            .group_by(*keys, games.c.result)
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        return [
            TallyRow(
                variant=str(variant),
                seat=int(seat),
                first_player=int(first),
                bot_level=int(level) if int(bot) == 1 - int(seat) else None,
                result=None if result is None else str(result),
                games=int(count),
            )
            for variant, seat, first, bot, level, result, count in rows
        ]


def search_query(
    filters: Filters, player_id: str | None, cursor: Cursor | None, limit: int
) -> Select[Any]:
    """The search's statement (the PostgreSQL test reads its plan)."""
    columns = (
        games.c.id,
        games.c.variant,
        games.c.created,
        games.c.first_player,
        games.c.bot_seat,
        games.c.bot_level,
        games.c.result,
        games.c.termination,
        games.c.rated,
    )
    if player_id is None:
        query: Select[Any] = select(*columns)
        seat = None
        created, game_id = games.c.created, games.c.id
    else:
        # The seat's copy of the game's start orders and bounds the player's games, so
        # that they come from the player's index in order (game_created == created).
        mine = game_seats.alias("mine")
        seat = mine.c.seat
        created, game_id = mine.c.game_created, mine.c.game_id
        query = (
            select(*columns, mine.c.seat)
            .select_from(mine.join(games, games.c.id == mine.c.game_id))
            .where(mine.c.player_id == player_id)
        )
    query = query.where(games.c.status == FINISHED, shown_to(None))
    if filters.variant is not None:
        query = query.where(games.c.variant == filters.variant)
    if filters.rated is not None:
        query = query.where(
            games.c.rated.is_(True)
            if filters.rated
            else or_(games.c.rated.is_(None), games.c.rated.is_(False))
        )
    if filters.after is not None:
        query = query.where(created >= filters.after)
    if filters.before is not None:
        query = query.where(created < filters.before)
    if filters.result is not None:
        query = query.where(_result(filters.result, seat))
    if cursor is not None:
        query = query.where(tuple_(created, game_id) < tuple_(cursor.created, cursor.game_id))
    return query.order_by(created.desc(), game_id.desc()).limit(limit)


def _result(wanted: str, seat: Any) -> ColumnElement[bool]:
    """The games whose result is ``wanted`` (``won`` and ``lost`` from ``seat``'s side)."""
    result = games.c.result
    if wanted == "draw":
        return result == "1/2-1/2"
    if wanted == "aborted":
        return or_(result.is_(None), result == "*")
    if wanted in ("1-0", "0-1"):
        return result == wanted
    assert seat is not None, "won and lost need a player (filters.py)"
    first_wins = result == ("1-0" if wanted == "won" else "0-1")
    second_wins = result == ("0-1" if wanted == "won" else "1-0")
    return or_(and_(seat == 0, first_wins), and_(seat == 1, second_wins))


def _found(row: Any) -> FoundGame:
    created = row["created"]
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)  # SQLite keeps no time zone: UTC
    return FoundGame(
        id=str(row["id"]),
        variant=str(row["variant"]),
        created=created,
        first_player=int(row["first_player"]),
        bot_seat=None if row["bot_seat"] is None else int(row["bot_seat"]),
        bot_level=None if row["bot_level"] is None else int(row["bot_level"]),
        result=row["result"],
        termination=row["termination"],
        rated=bool(row["rated"]),
        seat=None if row.get("seat") is None else int(row["seat"]),
    )
