"""The games' rows and their queries: each game's settings, and an append-only log of
decisions.

A game is a row of ``games`` (variant, seed, first player, hashed seat tokens, who plays
each seat) and one row of ``decisions`` per decision, keyed by ``(game_id, ply)``: two
writers can never both append the same ply, and a game is rebuilt by replaying its
decisions. The same SQLAlchemy Core code runs on SQLite (the default) and PostgreSQL
(``postgresql+psycopg://...``), through :class:`~.database.Store`'s transactions.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> from hanamikoji.interfaces.web.db.tokens import hash_token
>>> records = GameStore(Store("sqlite://"))
>>> stored = records.create_game(new_game_row("classic", 7, 0, (hash_token("a"), None), 1, 3))
>>> records.append(stored.id, 0, "S:G")
>>> records.append(stored.id, 0, "S:F")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.db.games.PlyTakenError: ply 0 of this game is already recorded
>>> records.load(stored.id).decisions
('S:G',)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, bindparam, insert, or_, select, update
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from hanamikoji.interfaces.clocks import UNTIMED, TimeControl, datetime_to_ms
from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import decisions, game_seats, games, private_games

__all__ = [
    "ABORTED",
    "FINISHED",
    "PLAYING",
    "RESIGNED",
    "TERMINATIONS",
    "Append",
    "GameStore",
    "PlyTakenError",
    "StoredGame",
    "insert_game",
    "new_game_id",
    "new_game_row",
    "shown_to",
]

PLAYING = "playing"
FINISHED = "finished"

RESIGNED = "resigned"
ABORTED = "aborted"

TERMINATIONS = ("time", ABORTED, "abandoned", "unstarted", RESIGNED)
"""Why a game ended when its decisions do not: lost on time (``result`` names the
winner), or aborted (a clock ran out, or a seat asked, before each side had decided: not
rated, ``*``); in an untimed rated game (``ratings/forfeits.py``), abandoned (a player
gone past the timeout after each side had decided: ``result`` names the other) or
unstarted (a side did not decide within the timeout before each side had: not rated,
``*``); resigned (a seat gave the game up: ``result`` names the other side)."""


def shown_to(viewer: str | None) -> ColumnElement[bool]:
    """The games ``viewer`` (a player id; ``None``: nobody signed in) may see counted and
    listed on a player's page: every public game, and a private one only when the viewer
    holds one of its seats. One rule for the player page's statistics and its games: a
    private game counts for its own players only, and is never shown to others."""
    private = select(private_games.c.game_id).where(private_games.c.game_id == games.c.id)
    if viewer is None:
        return ~private.exists()
    seated = select(game_seats.c.game_id).where(
        game_seats.c.game_id == games.c.id, game_seats.c.player_id == viewer
    )
    return or_(~private.exists(), seated.exists())


class PlyTakenError(Exception):
    """Another writer already recorded this ply of the game: the caller's copy is stale."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game's row, and its decisions in order when loaded with :meth:`GameStore.load`."""

    id: str
    variant: str
    seed: int
    first_player: int
    token_hashes: tuple[str | None, str | None]
    bot_seat: int | None
    bot_level: int | None
    created: datetime
    status: str
    result: str | None
    rematch_id: str | None
    decisions: tuple[str, ...] = ()
    private: bool = False
    clock: TimeControl = UNTIMED
    termination: str | None = None
    """``time`` or ``aborted`` when a clock ended the game (see :data:`TERMINATIONS`)."""
    decision_times: tuple[datetime, ...] = ()
    """When each decision was committed (loaded with the decisions)."""
    rated: bool = False
    """Chosen as rated at creation (``ratings/store.py`` rates it when it ends)."""
    owner: str | None = None
    """The instance that runs the game's pending work (``cluster/instances.py``), if any."""
    second_bot_level: int | None = None
    """The level of a second bot, at the seat other than ``bot_seat``: a game between two
    of our levels (a tournament's), which nobody plays but the hub."""

    def level_at(self, seat: int) -> int | None:
        """The level of the bot at ``seat``, or ``None`` (a person, or nobody, sits there)."""
        if self.bot_seat is None:
            return None
        return self.bot_level if seat == self.bot_seat else self.second_bot_level

    @property
    def bot_seats(self) -> tuple[int, ...]:
        """The seats our bots play (none, one, or both)."""
        if self.bot_seat is None:
            return ()
        if self.second_bot_level is None:
            return (self.bot_seat,)
        return (0, 1)


@dataclass(frozen=True, slots=True)
class Append:
    """One decision to record; ``result`` also marks the game finished in the same commit."""

    game_id: str
    ply: int
    text: str
    result: str | None = None
    at: datetime | None = None
    """The commit time the clocks count from (``None``: the database's write time)."""
    owner: str | None = None
    """The instance that runs the game's pending work after this decision (``None``:
    nothing pending); written with the decision, and sent in its event."""


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def new_game_row(
    variant: str,
    seed: int,
    first_player: int,
    token_hashes: tuple[str | None, str | None],
    bot_seat: int | None,
    bot_level: int | None,
    *,
    private: bool = False,
    rated: bool = False,
) -> StoredGame:
    return StoredGame(
        id=new_game_id(),
        variant=variant,
        seed=seed,
        first_player=first_player,
        token_hashes=token_hashes,
        bot_seat=bot_seat,
        bot_level=bot_level,
        created=datetime.now(UTC),
        status=PLAYING,
        result=None,
        rematch_id=None,
        private=private,
        rated=rated,
    )


class GameStore:
    """The games' and decisions' queries, through ``store``'s transactions."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._prepared: _DecisionStatements | None = None

    def create_game(self, game: StoredGame) -> StoredGame:
        with self.store.transaction() as connection:
            insert_game(connection, game)
        return game

    def create_rematch(self, old_id: str, game: StoredGame) -> str:
        """Record ``game`` as the rematch of ``old_id``, unless one exists: either way,
        return the rematch's id (two players asking at once get the same game)."""
        with self.store.transaction() as connection:
            existing = connection.execute(
                select(games.c.rematch_id).where(games.c.id == old_id)
            ).scalar_one_or_none()
            if existing is not None:
                return str(existing)
            insert_game(connection, game)
            claimed = connection.execute(
                update(games)
                .where(games.c.id == old_id, games.c.rematch_id.is_(None))
                .values(rematch_id=game.id)
            )
            if claimed.rowcount != 1:
                connection.rollback()
                return self._rematch_of(old_id)
            notify(connection, Event("game", old_id, self.store.instance))
        return game.id

    def _rematch_of(self, old_id: str) -> str:
        with self.store.connection() as connection:
            value = connection.execute(
                select(games.c.rematch_id).where(games.c.id == old_id)
            ).scalar_one()
        return str(value)

    def get(self, game_id: str) -> StoredGame | None:
        """The game's row without its decisions, or ``None``."""
        with self.store.connection() as connection:
            row = connection.execute(_GAME_ROW.where(games.c.id == game_id)).first()
        return None if row is None else _stored(row._mapping)

    def load(self, game_id: str) -> StoredGame | None:
        """The game's row and every decision in ply order, or ``None``."""
        with self.store.connection() as connection:
            row = connection.execute(_GAME_ROW.where(games.c.id == game_id)).first()
            if row is None:
                return None
            texts = connection.execute(
                select(decisions.c.ply, decisions.c.text, decisions.c.created)
                .where(decisions.c.game_id == game_id)
                .order_by(decisions.c.ply)
            ).all()
        plies = [ply for ply, _, _ in texts]
        if plies != list(range(len(plies))):
            raise RuntimeError(f"game {game_id}: the decision log has gaps: {plies}")
        return replace(
            _stored(row._mapping),
            decisions=tuple(text for _, text, _ in texts),
            decision_times=tuple(_utc(created) for _, _, created in texts),
        )

    def load_many(self, game_ids: Sequence[str]) -> list[StoredGame]:
        """The games of ``game_ids`` that exist, each with its decisions, in the order
        asked: two queries for them all (the game browser's exports read in batches)."""
        if not game_ids:
            return []
        with self.store.connection() as connection:
            rows = connection.execute(_GAME_ROW.where(games.c.id.in_(game_ids))).all()
            texts = connection.execute(
                select(decisions.c.game_id, decisions.c.text, decisions.c.created)
                .where(decisions.c.game_id.in_(game_ids))
                .order_by(decisions.c.game_id, decisions.c.ply)
            ).all()
        logs: dict[str, list[tuple[str, datetime]]] = {}
        for game_id, text_, created in texts:
            logs.setdefault(str(game_id), []).append((str(text_), _utc(created)))
        found = {str(row._mapping["id"]): _stored(row._mapping) for row in rows}
        return [
            replace(
                found[game_id],
                decisions=tuple(text_ for text_, _ in logs.get(game_id, ())),
                decision_times=tuple(at for _, at in logs.get(game_id, ())),
            )
            for game_id in game_ids
            if game_id in found
        ]

    def timed_games_in_play(self) -> list[str]:
        """The ids of the timed games still in play (the clock sweep at start)."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(games.c.id).where(games.c.status == PLAYING, games.c.clock_kind.is_not(None))
            ).all()
        return [str(game_id) for (game_id,) in rows]

    def end_outside_rules(self, game_id: str, ply: int, result: str, termination: str) -> bool:
        """Finish a game that ended outside the rules (a clock, or an absent player in a rated
        game: ``termination`` of :data:`TERMINATIONS`) while its
        decision ``ply`` is still to be made; ``False`` (nothing written) if the game is
        no longer in play or that decision is recorded (another server's)."""
        if termination not in TERMINATIONS:
            raise ValueError(f"termination {termination!r} is none of {TERMINATIONS}")
        decided = (
            select(decisions.c.ply)
            .where(decisions.c.game_id == game_id, decisions.c.ply == ply)
            .exists()
        )
        with self.store.transaction() as connection:
            ended = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status == PLAYING, ~decided)
                .values(status=FINISHED, result=result, termination=termination, owner=None)
            )
            notify(connection, Event("game", game_id, self.store.instance))
        return ended.rowcount == 1

    def watchable_games(self, limit: int) -> list[StoredGame]:
        """The newest games between people still being played that are not private, at
        most ``limit`` (without their decisions)."""
        query = (
            _GAME_ROW.where(games.c.status == PLAYING, private_games.c.game_id.is_(None))
            .where(games.c.bot_seat.is_(None))
            .order_by(games.c.created.desc())
            .limit(limit)
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        return [_stored(row._mapping) for row in rows]

    def count_games(self) -> int:
        with self.store.connection() as connection:
            return len(connection.execute(select(games.c.id)).all())

    # -- decisions --------------------------------------------------------------------

    def append(self, game_id: str, ply: int, text: str, result: str | None = None) -> None:
        """Record one decision (and the result when it ends the game) in one commit.
        Raises :class:`PlyTakenError` if that ply is already recorded."""
        error = self.append_many([Append(game_id, ply, text, result)])[0]
        if error is not None:
            raise error

    def append_many(self, batch: Sequence[Append]) -> list[PlyTakenError | None]:
        """Record decisions of different games in as few commits as possible (group
        commit); per decision, ``None`` or the :class:`PlyTakenError` that refused it."""
        if not batch:
            return []
        try:
            with self.store.transaction() as connection:
                self._append_all(connection, batch)
            return [None] * len(batch)
        except IntegrityError:
            if len(batch) == 1:
                return [_ply_taken(batch[0])]
        # A decision of the batch was stale and the whole commit rolled back: the others
        # are committed one by one (a failed statement aborts a PostgreSQL transaction).
        outcomes: list[PlyTakenError | None] = []
        for item in batch:
            try:
                with self.store.transaction() as connection:
                    self._append_all(connection, [item])
                outcomes.append(None)
            except IntegrityError:
                outcomes.append(_ply_taken(item))
        return outcomes

    def _append_all(self, connection: Connection, batch: Sequence[Append]) -> None:
        """Insert the decisions, set each game's owner (and result when it ends), and
        send each decision's event with the commit."""
        now = datetime.now(UTC)
        if self._prepared is None:
            self._prepared = _DecisionStatements(connection.dialect)
        prepared = self._prepared
        # One prepared statement per kind for the whole batch, run as "executemany".
        prepared.insert.run(
            connection,
            [
                {"game_id": i.game_id, "ply": i.ply, "text": i.text, "created": i.at or now}
                for i in batch
            ],
        )
        prepared.owner.run(connection, [{"gid": i.game_id, "own": i.owner} for i in batch])
        ended = [
            {"gid": i.game_id, "st": FINISHED, "res": i.result}
            for i in batch
            if i.result is not None
        ]
        if ended:
            prepared.result.run(connection, ended)
        events = [
            Event(
                "game",
                item.game_id,
                self.store.instance,
                item.ply,
                item.text,
                datetime_to_ms(_utc(item.at or now)),
                item.owner or "",
            )
            for item in batch
        ]
        notify(connection, *events)


class _Prepared:
    """A statement compiled once for a dialect and run with the driver's own parameters:
    SQLAlchemy's work per call (building the statement, its cache key, its parameters)
    is skipped; the one value the driver cannot take as it is, a decision's time on
    SQLite, goes through the column type's own conversion."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        self.sql = compiled.string
        self.names = tuple(compiled.positiontup or ()) if compiled.positional else None
        """The parameters' names in order for a positional driver (SQLite's ``?``)."""
        self.created = decisions.c.created.type.dialect_impl(dialect).bind_processor(dialect)

    def run(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """Run the statement once per row ("executemany"), in the open transaction."""
        if self.created is not None:
            for row in rows:
                if "created" in row:
                    row["created"] = self.created(row["created"])
        if self.names is None:
            connection.exec_driver_sql(self.sql, rows)
        else:
            names = self.names
            connection.exec_driver_sql(self.sql, [tuple(row[n] for n in names) for row in rows])


class _DecisionStatements:
    """The statements of a group commit of decisions, prepared for one dialect."""

    def __init__(self, dialect: Dialect) -> None:
        gid = games.c.id == bindparam("gid")
        self.insert = _Prepared(insert(decisions), dialect)
        self.owner = _Prepared(update(games).where(gid).values(owner=bindparam("own")), dialect)
        self.result = _Prepared(
            update(games).where(gid).values(status=bindparam("st"), result=bindparam("res")),
            dialect,
        )


def _ply_taken(item: Append) -> PlyTakenError:
    return PlyTakenError(f"ply {item.ply} of this game is already recorded")


_GAME_ROW = select(games, private_games.c.game_id.label("private_id")).select_from(
    games.outerjoin(private_games, private_games.c.game_id == games.c.id)
)
"""A game's row, and whether it is private."""


def insert_game(connection: Connection, game: StoredGame) -> None:
    """Write a new game's row in ``connection``'s transaction (with what else it writes:
    a tournament's pairing, ``games/making.py``)."""
    connection.execute(insert(games).values(**_row_values(game)))
    if game.private:
        connection.execute(insert(private_games).values(game_id=game.id, created=game.created))


def _row_values(game: StoredGame) -> dict[str, object]:
    return {
        "id": game.id,
        "variant": game.variant,
        "seed": game.seed,
        "first_player": game.first_player,
        "token_hash_0": game.token_hashes[0],
        "token_hash_1": game.token_hashes[1],
        "bot_seat": game.bot_seat,
        "bot_level": game.bot_level,
        "created": game.created,
        "status": game.status,
        "result": game.result,
        "rematch_id": game.rematch_id,
        "clock_kind": game.clock.kind if game.clock.timed else None,
        "clock_initial_ms": game.clock.initial_ms if game.clock.kind == "realtime" else None,
        "clock_increment_ms": game.clock.increment_ms if game.clock.kind == "realtime" else None,
        "clock_days": game.clock.days if game.clock.kind == "correspondence" else None,
        "termination": game.termination,
        "rated": game.rated,
        "owner": game.owner,
        "second_bot_level": game.second_bot_level,
    }


def _time_control(row: Any) -> TimeControl:
    kind = row["clock_kind"]
    if kind == "realtime":
        initial, increment = int(row["clock_initial_ms"]), int(row["clock_increment_ms"])
        return TimeControl("realtime", initial, increment)
    if kind == "correspondence":
        return TimeControl("correspondence", days=int(row["clock_days"]))
    return UNTIMED


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone; every time written here is UTC.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _stored(row: Any) -> StoredGame:
    created = row["created"]
    if created.tzinfo is None:
        # SQLite keeps no time zone; every time written here is UTC.
        created = created.replace(tzinfo=UTC)
    return StoredGame(
        id=row["id"],
        variant=row["variant"],
        seed=int(row["seed"]),
        first_player=int(row["first_player"]),
        token_hashes=(row["token_hash_0"], row["token_hash_1"]),
        bot_seat=row["bot_seat"],
        bot_level=row["bot_level"],
        created=created,
        status=row["status"],
        result=row["result"],
        rematch_id=row["rematch_id"],
        private=row.get("private_id") is not None,
        clock=_time_control(row),
        termination=row["termination"],
        rated=bool(row["rated"]),
        owner=row["owner"],
        second_bot_level=row["second_bot_level"],
    )
