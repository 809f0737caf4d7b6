"""Games in a SQL database: each game's settings, and an append-only log of decisions.

A game is a row of ``games`` (variant, seed, first player, hashed seat tokens, who plays
each seat) and one row of ``decisions`` per decision, keyed by ``(game_id, ply)``: two
writers can never both append the same ply, and a game is rebuilt by replaying its
decisions. The same SQLAlchemy Core code runs on SQLite (the default) and PostgreSQL
(``postgresql+psycopg://...``).

The tables below are the model the code queries; the database gets them from the Alembic
migrations in ``migrations/versions/``, which :func:`upgrade_schema` runs whenever a
:class:`Store` opens a database (``tests/test_web_migrations.py`` checks that the two agree).

>>> store = Store("sqlite://")
>>> stored = store.create_game(new_game_row("classic", 7, 0, (hash_token("a"), None), 1, 3))
>>> store.append(stored.id, 0, "S:G")
>>> store.append(stored.id, 0, "S:F")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.storage.PlyTakenError: ply 0 of this game is already recorded
>>> store.load(stored.id).decisions
('S:G',)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from hanamikoji.interfaces.web.clock import UNTIMED, TimeControl, datetime_to_ms
from hanamikoji.interfaces.web.events import Event, notify
from hanamikoji.interfaces.web.health import DatabaseHealth

__all__ = [
    "FINISHED",
    "PLAYING",
    "TERMINATIONS",
    "Append",
    "PlyTakenError",
    "SchemaError",
    "Store",
    "StoredAnalysis",
    "StoredGame",
    "alembic_config",
    "analyses",
    "analysis_runs",
    "attempt_key",
    "decisions",
    "game_seats",
    "games",
    "hash_token",
    "instances",
    "lobby_queue",
    "lobby_seeks",
    "new_game_id",
    "new_game_row",
    "new_token",
    "players",
    "private_games",
    "rating_history",
    "ratings",
    "seat_presence",
    "server_secrets",
    "sessions",
    "sign_in_attempts",
    "token_matches",
    "upgrade_schema",
]

PLAYING = "playing"
FINISHED = "finished"

TERMINATIONS = ("time", "aborted", "abandoned", "unstarted")
"""Why a game ended when its decisions do not: lost on time (``result`` names the
winner), or aborted (a clock ran out before each side had decided: not rated, ``*``);
in an untimed rated game (``ratings.py``), abandoned (a player gone past the timeout
after each side had decided: ``result`` names the other) or unstarted (a side did not
decide within the timeout before each side had: not rated, ``*``)."""

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(40), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first_player", Integer, nullable=False),
    Column("token_hash_0", String(64), nullable=True),
    Column("token_hash_1", String(64), nullable=True),
    Column("bot_seat", Integer, nullable=True),
    Column("bot_level", Integer, nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", String(8), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    # Revision 0004: the time control (NULL kind: untimed) and why a game ended when its
    # decisions do not say (clock.py recomputes the clocks from the decisions' times).
    Column("clock_kind", String(16), nullable=True),
    Column("clock_initial_ms", Integer, nullable=True),
    Column("clock_increment_ms", Integer, nullable=True),
    Column("clock_days", Integer, nullable=True),
    Column("termination", String(16), nullable=True),
    # Revision 0005: a rated game (NULL or false: not rated).
    Column("rated", Boolean, nullable=True),
    # Revision 0006: the instance that runs the game's pending work (NULL: none).
    Column("owner", String(32), nullable=True),
    Index("ix_games_owner", "owner"),
)

decisions = Table(
    "decisions",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True, autoincrement=False),
    Column("text", String(16), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


analyses = Table(
    "analyses",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True, autoincrement=False),
    Column("data", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""One row per decision of an analysed game: the decision's analysis as JSON text
(``bots/analysis.py``'s JSON form), keyed by its ply (from 1, as the analysis numbers it)."""

analysis_runs = Table(
    "analysis_runs",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("settings", Text, nullable=False),
    Column("version", String(40), nullable=False),
    Column("summary", Text, nullable=False),
    Column("finished", DateTime(timezone=True), nullable=False),
)
"""A game whose analysis is complete: its settings, the package's version, the per-player
summary (JSON text). Written in the same commit as the decisions' rows."""

# -- spectators (revision 0003) ------------------------------------------------------

private_games = Table(
    "private_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""Games their creator made private: nobody may watch them. Every other game may be
watched (a spectator sees only what is public until the end)."""

# -- ratings (revision 0005; their queries are in ratings.py) --------------------------

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(16), primary_key=True),
    Column("variant", String(40), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_variant_rating", "variant", "rating"),
)
"""Each player's Glicko-2 rating per variant (no row: a new player's); bots have none."""

rating_history = Table(
    "rating_history",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player_id", String(16), primary_key=True),
    Column("variant", String(40), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("deviation_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("deviation_after", Float, nullable=False),
    Column("volatility_after", Float, nullable=False),
    Column("opponent_rating", Float, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_player", "player_id", "variant", "created"),
)
"""One row per rated game per player; the key makes a game rated once."""

# -- players (revision 0002; their queries are in player_store.py) ---------------------

players = Table(
    "players",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=True),
    Column("password_hash", String(255), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Index("uq_players_name_key", "name_key", unique=True),
)
"""Guests and accounts. ``name_key`` is an account's case-folded name (unique: two
accounts never share a name, whatever its case) and ``NULL`` for a guest, whose nickname
need not be unique; ``password_hash`` is an account's Argon2 hash."""

sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("player_id", String(16), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Index("ix_sessions_player_id", "player_id"),
    Index("ix_sessions_expires", "expires"),
)
"""Signed-in browsers: the SHA-256 hash of the session id their cookie carries."""

game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player_id", String(16), nullable=False),
    Column("claimed", DateTime(timezone=True), nullable=False),
    Index("ix_game_seats_player_id", "player_id"),
)
"""The player at a seat of a game; no row: a bot, or a seat nobody has named. The
primary key means a seat is named once: of two claims at once, one wins."""

instances = Table(
    # Revision 0006: the running servers and their heartbeats (cluster.py).
    "instances",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("started_ms", BigInteger, nullable=False),
    Column("heartbeat_ms", BigInteger, nullable=False),
)

seat_presence = Table(
    # Revision 0006: pages open at each seat, per instance (cluster.py).
    "seat_presence",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("instance_id", String(32), primary_key=True),
    Column("pages", Integer, nullable=False),
    Column("changed_ms", BigInteger, nullable=False),
    Index("ix_seat_presence_instance", "instance_id"),
)

lobby_seeks = Table(
    # Revision 0007: the open seeks of the lobby, each its instance's page's (lobby.py).
    "lobby_seeks",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("instance_id", String(32), nullable=False),
    Column("client_key", String(16), nullable=False),
    Column("player_id", String(16), nullable=False),
    Column("player_name", String(40), nullable=False),
    Column("account", Boolean, nullable=False),
    Column("rating", Float, nullable=False),
    Column("provisional", Boolean, nullable=False),
    Column("variant", String(40), nullable=False),
    Column("time_control", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("range_low", Integer, nullable=True),
    Column("range_high", Integer, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_lobby_seeks_instance", "instance_id"),
    Index("ix_lobby_seeks_client", "client_key"),
)

lobby_queue = Table(
    # Revision 0007: the pages waiting for a quick pairing (lobby.py).
    "lobby_queue",
    metadata,
    Column("client_key", String(16), primary_key=True),
    Column("instance_id", String(32), nullable=False),
    Column("player_id", String(16), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("time_control", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rating", Float, nullable=False),
    Column("since_ms", BigInteger, nullable=False),
    Index("ix_lobby_queue_instance", "instance_id"),
)

sign_in_attempts = Table(
    # Revision 0009: sign-in attempts per client address and per account name, counted
    # in the database so that every instance on it shares one limit (issue 46).
    "sign_in_attempts",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("attempts", Text, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Index("ix_sign_in_attempts_expires", "expires_ms"),
)
"""One row per counted key (:func:`attempt_key`: the SHA-256 of what is counted, so no
address or name is kept): the times (ms) of its latest attempts within the window,
oldest first, comma-separated; the row goes once its newest attempt is out of the window
(``expires_ms``)."""

server_secrets = Table(
    "server_secrets",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
"""Secrets every server on the database shares (the key that signs session cookies),
made by the first server that needs one."""


class PlyTakenError(Exception):
    """Another writer already recorded this ply of the game: the caller's copy is stale."""


MIGRATIONS = "hanamikoji.interfaces.web:migrations"
"""Where Alembic finds ``env.py`` and ``versions/``: inside the package, so an installed
wheel carries them and no ``alembic.ini`` is needed."""

FIRST_REVISION = "0001"
"""The revision of the schema made before migrations (``metadata.create_all`` at every
start): a database with its tables and no ``alembic_version`` is stamped with it."""

FIRST_TABLES = ("games", "decisions", "analyses", "analysis_runs")

MIGRATION_LOCK_KEY = 0x68616E616D696B6F
"""The PostgreSQL advisory lock that servers starting at once take in turn to upgrade."""

_UPGRADING = threading.Lock()
"""Alembic's ``context`` and ``op`` are module-wide: one upgrade at a time per process."""


class SchemaError(RuntimeError):
    """The database's schema is not one this code can upgrade (a newer version's, say)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game's row, and its decisions in order when loaded with :meth:`Store.load`."""

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
    """Chosen as rated at creation (``ratings.py`` rates it when it ends)."""
    owner: str | None = None
    """The instance that runs the game's pending work (``cluster.py``), if any."""


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


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """A complete analysis: each decision's JSON in ply order, and the run's JSON fields."""

    settings: str
    version: str
    summary: str
    decisions: tuple[str, ...]


def new_token() -> str:
    """An unguessable seat token (256 random bits)."""
    return secrets.token_urlsafe(32)


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def new_instance_id() -> str:
    return secrets.token_hex(8)


def hash_token(token: str) -> str:
    """What the database keeps of a token: a leaked database lets nobody act for a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(hash_token(token), stored_hash)


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


WAL_SAFETY_PAGES = 20_000
CONNECT_TIMEOUT_SECONDS = 5
"""How long a new connection to PostgreSQL may take before it counts as failed."""
BUSY_SECONDS = 5.0
"""How long a connection waits for another process's lock on the SQLite file."""


def _switch_to_wal(cursor: Any) -> None:
    """Put the file in WAL mode. Switching a new file needs its exclusive lock, and
    SQLite answers "database is locked" at once, without the busy timeout, while another
    connection holds a lock (servers starting at once on a new file: 4 of 100 did in a
    run of 25 four-server starts): the switch is tried again until the timeout."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _enable_sqlite_wal(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # The busy timeout lets a second server process on the same file wait for the lock
    # instead of failing.
    cursor.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
    # WAL lets readers run beside the writer.
    _switch_to_wal(cursor)
    # In WAL mode, NORMAL makes a commit durable once it returns as far as the server
    # process is concerned (a crash or kill of the server loses nothing committed), and
    # the file is never corrupted; only a power cut or an operating-system crash can
    # lose the last commits. FULL (one fsync per commit) tripled the tail latency here.
    cursor.execute("PRAGMA synchronous=NORMAL")
    # Checkpoints run beside the writes (Store.checkpoint, from their own thread) rather
    # than inside the commit that happens to fill the log, which would stall every
    # decision waiting on that commit; this limit is only a safety net.
    cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_SAFETY_PAGES}")
    cursor.close()


class Store:
    """Synchronous access to the games database; safe to call from several threads.

    Args:
        url: an SQLAlchemy URL: ``sqlite:///path/games.sqlite3``, ``sqlite://`` (in memory,
            one shared connection), ``postgresql+psycopg://user:password@host/db``.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.instance = new_instance_id()
        """This server's id among the instances on the database (``cluster.py``): the
        origin of the events its writes send."""
        self.engine: Engine = _make_engine(url)
        self.health = DatabaseHealth()
        """Whether the database answers (``health.py``), from every connection's fate."""
        self.health.watch(self.engine)
        # An in-memory database is one connection, which threads must take in turn.
        in_memory = url in ("sqlite://", "sqlite:///:memory:")
        self._serial: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if in_memory else contextlib.nullcontext()
        )
        upgrade_schema(self.engine)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A connection inside one transaction, committed when the block ends (rolled
        back if it raises): every store's writes go through here."""
        with self._serial, self.engine.begin() as connection:
            yield connection

    @contextlib.contextmanager
    def connection(self) -> Iterator[Connection]:
        """A connection for reads (SQLAlchemy's autobegin: nothing is committed unless the
        block commits), closed when the block ends."""
        with self._serial, self.engine.connect() as connection:
            yield connection

    @property
    def dialect(self) -> str:
        """The database's kind, as SQLAlchemy names it: ``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database the cheapest question (``SELECT 1``); raises what the
        database raises when it cannot be reached."""
        with self.connection() as connection:
            connection.execute(text("SELECT 1"))

    @property
    def needs_checkpoints(self) -> bool:
        """Whether :meth:`checkpoint` has work to do (an SQLite file in WAL mode)."""
        return self.url.startswith("sqlite") and self.url not in ("sqlite://", "sqlite:///:memory:")

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file without blocking writers."""
        if self.needs_checkpoints:
            with self.connection() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    # -- games ------------------------------------------------------------------------

    def create_game(self, game: StoredGame) -> StoredGame:
        with self.transaction() as connection:
            _insert_game(connection, game)
        return game

    def create_rematch(self, old_id: str, game: StoredGame) -> str:
        """Record ``game`` as the rematch of ``old_id``, unless one exists: either way,
        return the rematch's id (two players asking at once get the same game)."""
        with self.transaction() as connection:
            existing = connection.execute(
                select(games.c.rematch_id).where(games.c.id == old_id)
            ).scalar_one_or_none()
            if existing is not None:
                return str(existing)
            _insert_game(connection, game)
            claimed = connection.execute(
                update(games)
                .where(games.c.id == old_id, games.c.rematch_id.is_(None))
                .values(rematch_id=game.id)
            )
            if claimed.rowcount != 1:
                connection.rollback()
                return self._rematch_of(old_id)
            notify(connection, Event("game", old_id, self.instance))
        return game.id

    def _rematch_of(self, old_id: str) -> str:
        with self.connection() as connection:
            value = connection.execute(
                select(games.c.rematch_id).where(games.c.id == old_id)
            ).scalar_one()
        return str(value)

    def get(self, game_id: str) -> StoredGame | None:
        """The game's row without its decisions, or ``None``."""
        with self.connection() as connection:
            row = connection.execute(_GAME_ROW.where(games.c.id == game_id)).first()
        return None if row is None else _stored(row._mapping)

    def load(self, game_id: str) -> StoredGame | None:
        """The game's row and every decision in ply order, or ``None``."""
        with self.connection() as connection:
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

    def timed_games_in_play(self) -> list[str]:
        """The ids of the timed games still in play (the clock sweep at start)."""
        with self.connection() as connection:
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
        with self.transaction() as connection:
            ended = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status == PLAYING, ~decided)
                .values(status=FINISHED, result=result, termination=termination, owner=None)
            )
            notify(connection, Event("game", game_id, self.instance))
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
        with self.connection() as connection:
            rows = connection.execute(query).all()
        return [_stored(row._mapping) for row in rows]

    def count_games(self) -> int:
        with self.connection() as connection:
            return len(connection.execute(select(games.c.id)).all())

    # -- limits shared by every instance ----------------------------------------------

    def count_attempt(
        self, keys: Sequence[str], now_ms: int, limit: int, window_ms: int
    ) -> int | None:
        """Count an attempt against each of ``keys`` (from :func:`attempt_key`) that has
        had fewer than ``limit`` attempts in the ``window_ms`` before ``now_ms``, in the
        table every instance shares (a moving window, as ``limits``' in memory): ``None``
        when every key allowed it, else the ms until the most loaded key allows one more.
        The keys' rows are locked in order, so two instances counting the same key at
        once count one after the other."""
        waits = []
        with self.transaction() as connection:
            _forget_expired_attempts(connection, now_ms)
            for key in sorted(set(keys)):
                wait = _count_attempt(connection, key, now_ms, limit, window_ms)
                if wait is not None:
                    waits.append(wait)
        return max(waits) if waits else None

    # -- analyses ---------------------------------------------------------------------

    def save_analysis(self, game_id: str, analysis: StoredAnalysis) -> bool:
        """Record a game's complete analysis, its decisions and its run in one commit;
        ``False`` (nothing written) if the game already has one (another server's)."""
        now = datetime.now(UTC)
        rows = [
            {"game_id": game_id, "ply": ply, "data": data, "created": now}
            for ply, data in enumerate(analysis.decisions, start=1)
        ]
        try:
            with self.transaction() as connection:
                connection.execute(
                    insert(analysis_runs).values(
                        game_id=game_id,
                        settings=analysis.settings,
                        version=analysis.version,
                        summary=analysis.summary,
                        finished=now,
                    )
                )
                if rows:
                    connection.execute(insert(analyses), rows)
        except IntegrityError:
            return False
        return True

    def load_analysis(self, game_id: str) -> StoredAnalysis | None:
        """The game's complete analysis, or ``None`` if it has none yet."""
        with self.connection() as connection:
            run = connection.execute(
                select(analysis_runs).where(analysis_runs.c.game_id == game_id)
            ).first()
            if run is None:
                return None
            rows = connection.execute(
                select(analyses.c.data)
                .where(analyses.c.game_id == game_id)
                .order_by(analyses.c.ply)
            ).all()
        fields = run._mapping
        return StoredAnalysis(
            settings=fields["settings"],
            version=fields["version"],
            summary=fields["summary"],
            decisions=tuple(str(data) for (data,) in rows),
        )

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
            with self.transaction() as connection:
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
                with self.transaction() as connection:
                    self._append_all(connection, [item])
                outcomes.append(None)
            except IntegrityError:
                outcomes.append(_ply_taken(item))
        return outcomes

    def _append_all(self, connection: Connection, batch: Sequence[Append]) -> None:
        """Insert the decisions, set each game's owner (and result when it ends), and
        send each decision's event with the commit."""
        now = datetime.now(UTC)
        # One statement per kind for the whole batch: compiled once, run as "executemany".
        connection.execute(
            insert(decisions),
            [
                {"game_id": i.game_id, "ply": i.ply, "text": i.text, "created": i.at or now}
                for i in batch
            ],
        )
        connection.execute(
            update(games).where(games.c.id == bindparam("gid")).values(owner=bindparam("own")),
            [{"gid": i.game_id, "own": i.owner} for i in batch],
        )
        for item in batch:
            if item.result is not None:
                connection.execute(
                    update(games)
                    .where(games.c.id == item.game_id)
                    .values(status=FINISHED, result=item.result)
                )
        events = [
            Event(
                "game",
                item.game_id,
                self.instance,
                item.ply,
                item.text,
                datetime_to_ms(_utc(item.at or now)),
                item.owner or "",
            )
            for item in batch
        ]
        notify(connection, *events)


def upgrade_schema(engine: Engine, migrations: str = MIGRATIONS) -> None:
    """Bring the database to the newest revision of ``migrations`` (Alembic's script
    location: a directory, or ``package:directory``), in one transaction.

    A new database gets every migration; one made before migrations is stamped with
    :data:`FIRST_REVISION` first; one at an older revision is upgraded in place. The
    transaction holds a lock (PostgreSQL's advisory lock :data:`MIGRATION_LOCK_KEY`,
    SQLite's write lock), so of several servers starting at once one migrates and the
    others then find nothing to do. Raises :class:`SchemaError`
    for a revision this code does not know, or for some but not all of the first tables.
    """
    with _UPGRADING, engine.begin() as connection:
        _lock_for_the_upgrade(connection)
        config = alembic_config(connection, migrations)
        current = MigrationContext.configure(connection).get_current_heads()
        if current:
            _refuse_unknown(current, ScriptDirectory.from_config(config))
        elif _made_before_migrations(connection):
            command.stamp(config, FIRST_REVISION)
        command.upgrade(config, "head")


def _lock_for_the_upgrade(connection: Connection) -> None:
    """Servers starting at once on one database upgrade it in turn: the first migrates,
    the others wait for it, then find nothing to do. The lock ends with the transaction."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
    elif connection.dialect.name == "sqlite":
        # The database's write lock, taken before the first look at the schema rather than
        # at the first write (the other servers wait out the busy timeout for it).
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def alembic_config(connection: Connection, migrations: str = MIGRATIONS) -> Config:
    """The Alembic configuration that runs ``migrations`` on ``connection``, inside its
    transaction (``env.py`` takes the connection from ``config.attributes``), for
    ``alembic.command``'s functions; built in code, so no ``alembic.ini`` is needed."""
    config = Config()
    config.set_main_option("script_location", migrations)
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    return config


def _refuse_unknown(current: Sequence[str], script: ScriptDirectory) -> None:
    known = {revision.revision for revision in script.walk_revisions()}
    unknown = [revision for revision in current if revision not in known]
    if unknown:
        raise SchemaError(
            f"the database's schema is at revision {', '.join(unknown)}, which this version"
            f" of hanamikoji does not know (its newest is {script.get_current_head()}):"
            " a newer version upgraded it; run that version, or use another database"
        )


def _made_before_migrations(connection: Connection) -> bool:
    """Whether the unversioned database holds the schema made before migrations
    (``False`` for a new one: none of its tables)."""
    present = set(inspect(connection).get_table_names())
    missing = [table for table in FIRST_TABLES if table not in present]
    if len(missing) == len(FIRST_TABLES):
        return False
    if missing:
        raise SchemaError(
            "the database has no alembic_version and only some of the tables made before"
            f" migrations (it lacks {', '.join(missing)}): it is not one this code can upgrade"
        )
    return True


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        in_memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            # An in-memory database lives in its connection: everyone shares that one.
            poolclass=StaticPool if in_memory else None,
        )
        if not in_memory:
            event.listen(engine, "connect", _enable_sqlite_wal)
        return engine
    if url.startswith("postgresql"):
        # A server that does not answer at all (cut off, not stopped) fails a new
        # connection within seconds rather than the system's TCP timeout (minutes).
        timeout = {"connect_timeout": CONNECT_TIMEOUT_SECONDS}
        return create_engine(url, pool_pre_ping=True, connect_args=timeout)
    return create_engine(url, pool_pre_ping=True)


def attempt_key(kind: str, value: str) -> str:
    """The key under which attempts of ``kind`` (``sign-in-address``,
    ``sign-in-account``) by ``value`` are counted: a hash, so the table keeps no address
    or name."""
    return hashlib.sha256(f"{kind}\0{value}".encode()).hexdigest()


def _forget_expired_attempts(connection: Connection, now_ms: int) -> None:
    """Delete the rows whose attempts are all out of their window (those another
    instance is counting right now are left to the next look)."""
    expired = (
        select(sign_in_attempts.c.key)
        .where(sign_in_attempts.c.expires_ms < now_ms)
        .limit(100)
        .with_for_update(skip_locked=True)
    )
    keys = list(connection.execute(expired).scalars())
    if keys:
        connection.execute(delete(sign_in_attempts).where(sign_in_attempts.c.key.in_(keys)))


def _count_attempt(
    connection: Connection, key: str, now_ms: int, limit: int, window_ms: int
) -> int | None:
    """One key of :meth:`Store.count_attempt`, its row locked: ``None`` (counted) or the
    ms to wait."""
    locked = select(sign_in_attempts.c.attempts).where(sign_in_attempts.c.key == key)
    stored = connection.execute(locked.with_for_update()).scalar_one_or_none()
    if stored is None:
        try:
            with connection.begin_nested():  # another instance may insert it first
                connection.execute(
                    insert(sign_in_attempts).values(
                        key=key, attempts=str(now_ms), expires_ms=now_ms + window_ms
                    )
                )
            return None
        except IntegrityError:
            stored = connection.execute(locked.with_for_update()).scalar_one()
    times = [int(t) for t in stored.split(",") if t and int(t) > now_ms - window_ms]
    if len(times) >= limit:
        return times[len(times) - limit] + window_ms - now_ms
    times = [*times, now_ms][-limit:]
    connection.execute(
        update(sign_in_attempts)
        .where(sign_in_attempts.c.key == key)
        .values(attempts=",".join(map(str, times)), expires_ms=now_ms + window_ms)
    )
    return None


def _ply_taken(item: Append) -> PlyTakenError:
    return PlyTakenError(f"ply {item.ply} of this game is already recorded")


_GAME_ROW = select(games, private_games.c.game_id.label("private_id")).select_from(
    games.outerjoin(private_games, private_games.c.game_id == games.c.id)
)
"""A game's row, and whether it is private."""


def _insert_game(connection: Connection, game: StoredGame) -> None:
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
    )
