"""Players in the games database: who they are, their sessions, and the seats they hold.

A player is a guest (a nickname, bound to a session cookie) or an account (a name unique
whatever its case, and an Argon2 hash of its password; never the password). A session is
kept as the SHA-256 hash of its id, so a leaked database opens nobody's session. Each
seat of a game may name the player who holds it (``game_seats``): bots and anonymous
seats name none, and a seat once named is never given to another player. Ratings, clocks
and a lobby hang off these player ids.

The tables are in ``db/tables.py`` with the others (migration ``r0002_players.py`` makes
them); this module holds their statements. Every write runs on the server's writer
thread (``db/writer.py``). The same code runs on SQLite and PostgreSQL.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> store = PlayerStore(Store("sqlite://"))
>>> ann = store.create_player(new_player("account", "Ann"), "$argon2id$...")
>>> store.create_player(new_player("account", "ANN"), "$argon2id$...")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.players.store.NameTakenError: the name 'ANN' is taken
>>> store.take_seat("g1", 0, ann.id), store.take_seat("g1", 1, ann.id)
('taken', 'both')
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.db.api_tokens import tokens_changed
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import FINISHED, PLAYING, shown_to
from hanamikoji.interfaces.web.db.tables import game_seats, games, players, server_secrets, sessions

__all__ = [
    "GameEntry",
    "NameTakenError",
    "Player",
    "PlayerKind",
    "PlayerStore",
    "SeatClaim",
    "name_key",
    "name_seat",
    "new_player",
]

PlayerKind = Literal["guest", "account"]

SeatClaim = Literal["taken", "mine", "other", "both"]
"""What asking for a seat came to: ``taken`` (it is the player's now), ``mine`` (it
already was), ``other`` (another player holds it), ``both`` (the player holds the game's
other seat: nobody plays themselves)."""


class NameTakenError(ValueError):
    """An account already has this name, whatever the case."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the name {name!r} is taken")
        self.name = name


@dataclass(frozen=True, slots=True)
class Player:
    """A guest or an account, as the server knows it (never its password hash)."""

    id: str
    kind: PlayerKind
    name: str
    created: datetime
    bot: bool = False
    """A bot account (``bots/``: an irreversible upgrade of an account with no game)."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game of a player, as their list of games shows it: their seat, and who sits
    at the other (a bot's level, or a player's name and kind if the seat has one)."""

    id: str
    variant: str
    status: str
    result: str | None
    created: datetime
    seat: int
    first_player: int
    opponent_level: int | None
    opponent_name: str | None
    opponent_kind: PlayerKind | None
    opponent_bot: bool = False


def new_player(kind: PlayerKind, name: str) -> Player:
    """A player not yet stored, with a fresh id (72 random bits, URL-safe)."""
    return Player(secrets.token_urlsafe(9), kind, name, datetime.now(UTC))


def name_key(name: str) -> str:
    """What makes two account names the same: their case-folded form."""
    return name.casefold()


class PlayerStore:
    """The players' statements, on the connections of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- the server's secret ----------------------------------------------------------

    def secret(self, name: str) -> str:
        """The server secret ``name``, made on first use and then the same for every
        server on this database (two starting at once agree: the first insert wins)."""
        found = self._secret(name)
        if found is not None:
            return found
        try:
            with self.store.transaction() as connection:
                connection.execute(
                    insert(server_secrets).values(
                        name=name, value=secrets.token_urlsafe(48), created=datetime.now(UTC)
                    )
                )
        except IntegrityError:
            pass
        made = self._secret(name)
        if made is None:
            raise RuntimeError(f"the server secret {name!r} was neither found nor made")
        return made

    def _secret(self, name: str) -> str | None:
        with self.store.connection() as connection:
            value = connection.execute(
                select(server_secrets.c.value).where(server_secrets.c.name == name)
            ).scalar_one_or_none()
        return None if value is None else str(value)

    # -- players ----------------------------------------------------------------------

    def create_player(self, player: Player, password_hash: str | None) -> Player:
        """Store a new player. Raises :class:`NameTakenError` for an account whose name
        another account has."""
        try:
            with self.store.transaction() as connection:
                connection.execute(
                    insert(players).values(
                        id=player.id,
                        kind=player.kind,
                        name=player.name,
                        name_key=name_key(player.name) if player.kind == "account" else None,
                        password_hash=password_hash,
                        created=player.created,
                    )
                )
        except IntegrityError:
            raise NameTakenError(player.name) from None
        return player

    def make_account(self, player_id: str, name: str, password_hash: str) -> Player | None:
        """Turn a guest into an account with ``name``, keeping its id (and so its games);
        ``None`` if ``player_id`` is no guest. Raises :class:`NameTakenError`."""
        try:
            with self.store.transaction() as connection:
                changed = connection.execute(
                    update(players)
                    .where(players.c.id == player_id, players.c.kind == "guest")
                    .values(
                        kind="account",
                        name=name,
                        name_key=name_key(name),
                        password_hash=password_hash,
                    )
                )
        except IntegrityError:
            raise NameTakenError(name) from None
        return self.player(player_id) if changed.rowcount == 1 else None

    def rename_guest(self, player_id: str, nickname: str) -> Player | None:
        """A guest's new nickname; ``None`` if ``player_id`` is no guest."""
        with self.store.transaction() as connection:
            changed = connection.execute(
                update(players)
                .where(players.c.id == player_id, players.c.kind == "guest")
                .values(name=nickname)
            )
        return self.player(player_id) if changed.rowcount == 1 else None

    def set_password_hash(self, player_id: str, password_hash: str) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                update(players)
                .where(players.c.id == player_id, players.c.kind == "account")
                .values(password_hash=password_hash)
            )

    def player(self, player_id: str) -> Player | None:
        with self.store.connection() as connection:
            row = connection.execute(select(players).where(players.c.id == player_id)).first()
        return None if row is None else _player(row._mapping)

    def account(self, name: str) -> tuple[Player, str] | None:
        """The account named ``name`` (whatever the case) and its password hash."""
        with self.store.connection() as connection:
            row = connection.execute(
                select(players).where(players.c.name_key == name_key(name))
            ).first()
        if row is None or row._mapping["password_hash"] is None:
            return None
        return _player(row._mapping), str(row._mapping["password_hash"])

    # -- sessions ---------------------------------------------------------------------

    def create_session(self, id_hash: str, player_id: str, expires: datetime) -> None:
        """Store a session (and drop every expired one, whoever's)."""
        now = datetime.now(UTC)
        with self.store.transaction() as connection:
            connection.execute(delete(sessions).where(sessions.c.expires < now))
            connection.execute(
                insert(sessions).values(
                    id_hash=id_hash, player_id=player_id, created=now, expires=expires
                )
            )

    def session_player(self, id_hash: str) -> Player | None:
        """The player of an unexpired session, or ``None``."""
        with self.store.connection() as connection:
            row = connection.execute(
                select(players, sessions.c.expires)
                .join(sessions, sessions.c.player_id == players.c.id)
                .where(sessions.c.id_hash == id_hash)
            ).first()
        if row is None or _aware(row._mapping["expires"]) <= datetime.now(UTC):
            return None
        return _player(row._mapping)

    def delete_session(self, id_hash: str) -> None:
        with self.store.transaction() as connection:
            connection.execute(delete(sessions).where(sessions.c.id_hash == id_hash))

    # -- seats ------------------------------------------------------------------------

    def take_seat(self, game_id: str, seat: int, player_id: str) -> SeatClaim:
        """Name ``player_id`` at ``seat`` of the game unless someone holds it, or the
        player holds the other seat (see :data:`SeatClaim`)."""
        for _ in range(2):
            held = self.seat_players(game_id)
            if held[seat] is not None:
                return "mine" if held[seat] == player_id else "other"
            if held[1 - seat] == player_id:
                return "both"
            try:
                with self.store.transaction() as connection:
                    name_seat(connection, game_id, seat, player_id, self.store.instance)
            except IntegrityError:
                continue  # taken at this moment by another request: say by whom
            return "taken"
        raise RuntimeError(f"seat {seat} of game {game_id} was taken and then lost")

    def copy_seats(self, from_game: str, to_game: str) -> None:
        """Name the same players at the seats of ``to_game`` as at those of
        ``from_game`` (a rematch), where ``to_game`` names nobody yet."""
        for seat, player_id in enumerate(self.seat_players(from_game)):
            if player_id is not None:
                self.take_seat(to_game, seat, player_id)

    def make_bot(self, player_id: str) -> bool:
        """Make an account a bot account, for good; ``False`` if it has a seat in any
        game (an account that has played stays a person's)."""
        with self.store.transaction() as connection:
            played = connection.execute(
                select(game_seats.c.game_id).where(game_seats.c.player_id == player_id).limit(1)
            ).first()
            if played is not None:
                return False
            connection.execute(
                update(players)
                .where(players.c.id == player_id, players.c.kind == "account")
                .values(bot=True)
            )
            tokens_changed(connection, player_id, self.store.instance)
        return True

    def bot_ids(self, player_ids: list[str]) -> frozenset[str]:
        """Which of ``player_ids`` are bot accounts (their BOT badges)."""
        if not player_ids:
            return frozenset()
        with self.store.connection() as connection:
            rows = connection.execute(
                select(players.c.id).where(players.c.id.in_(player_ids), players.c.bot)
            ).all()
        return frozenset(str(row[0]) for row in rows)

    def seat_players(self, game_id: str) -> tuple[str | None, str | None]:
        """The player id at each seat of the game (``None``: a bot or nobody named)."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(game_seats.c.seat, game_seats.c.player_id).where(
                    game_seats.c.game_id == game_id
                )
            ).all()
        held: dict[int, str] = {int(seat): str(player) for seat, player in rows}
        return held.get(0), held.get(1)

    def seated(self, game_ids: list[str]) -> dict[str, dict[int, Player]]:
        """The players named at the seats of these games: by game id, then seat."""
        if not game_ids:
            return {}
        query = (
            select(game_seats.c.game_id, game_seats.c.seat, players)
            .join(players, players.c.id == game_seats.c.player_id)
            .where(game_seats.c.game_id.in_(game_ids))
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        found: dict[str, dict[int, Player]] = {}
        for row in rows:
            found.setdefault(str(row.game_id), {})[int(row.seat)] = _player(row._mapping)
        return found

    def seat_of(self, game_id: str, player_id: str) -> int | None:
        """The seat ``player_id`` holds in the game, or ``None``."""
        held = self.seat_players(game_id)
        return held.index(player_id) if player_id in held else None

    def games_of(
        self,
        player_id: str,
        status: str,
        limit: int,
        *,
        page: bool = False,
        viewer: str | None = None,
    ) -> list[GameEntry]:
        """The player's games of ``status`` (``playing`` or ``finished``), newest first:
        all of them (their own My games), or with ``page``, those ``viewer`` (``None``:
        nobody signed in) may see on the player's page (``db/games.py``'s
        :func:`shown_to`)."""
        if status not in (PLAYING, FINISHED):
            raise ValueError(f"a game is {PLAYING} or {FINISHED}, not {status!r}")
        mine = game_seats.alias("mine")
        theirs = game_seats.alias("theirs")
        query = (
            select(
                games.c.id,
                games.c.variant,
                games.c.status,
                games.c.result,
                games.c.created,
                games.c.first_player,
                games.c.bot_seat,
                games.c.bot_level,
                mine.c.seat,
                players.c.name.label("opponent_name"),
                players.c.kind.label("opponent_kind"),
                players.c.bot.label("opponent_bot"),
            )
            .join(mine, mine.c.game_id == games.c.id)
            .outerjoin(theirs, (theirs.c.game_id == games.c.id) & (theirs.c.seat != mine.c.seat))
            .outerjoin(players, players.c.id == theirs.c.player_id)
            .where(mine.c.player_id == player_id, games.c.status == status)
            .order_by(games.c.created.desc(), games.c.id)
            .limit(limit)
        )
        if page:
            query = query.where(shown_to(viewer))
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        return [_entry(row._mapping) for row in rows]


def _aware(moment: datetime) -> datetime:
    """SQLite keeps no time zone; every time written here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _player(row: Any) -> Player:
    kind: PlayerKind = "account" if row["kind"] == "account" else "guest"
    return Player(row["id"], kind, row["name"], _aware(row["created"]), bool(row["bot"]))


def _entry(row: Any) -> GameEntry:
    seat = int(row["seat"])
    bot = row["bot_seat"] is not None and int(row["bot_seat"]) == 1 - seat
    kind = row["opponent_kind"]
    return GameEntry(
        id=row["id"],
        variant=row["variant"],
        status=row["status"],
        result=row["result"],
        created=_aware(row["created"]),
        seat=seat,
        first_player=int(row["first_player"]),
        opponent_level=int(row["bot_level"]) if bot else None,
        opponent_name=row["opponent_name"],
        opponent_kind=None if kind is None else ("account" if kind == "account" else "guest"),
        opponent_bot=bool(row["opponent_bot"]),
    )


def name_seat(
    connection: Connection, game_id: str, seat: int, player_id: str, instance: str
) -> None:
    """Name ``player_id`` at ``seat`` of the game in ``connection``'s transaction (an
    ``IntegrityError`` if someone holds it); the other instances showing the game read
    its seats again."""
    claimed = datetime.now(UTC)
    started = select(games.c.created).where(games.c.id == game_id)
    connection.execute(
        insert(game_seats).values(
            game_id=game_id,
            seat=seat,
            player_id=player_id,
            claimed=claimed,
            game_created=func.coalesce(started.scalar_subquery(), claimed),
        )
    )
    notify(connection, Event("game", game_id, instance))
