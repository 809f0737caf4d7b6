"""The games database's public face: :class:`Store` opens it (SQLite or PostgreSQL,
through SQLAlchemy), brings its schema up to date with the Alembic migrations of
``migrations/`` (:func:`upgrade_schema`), and hands out connections in a transaction
(:meth:`Store.transaction`) or for reads (:meth:`Store.connection`).

Every store of a feature (the games', ``games.py``; the players', the ratings', the
lobby's, the instances') takes a ``Store`` and reaches the database only through these;
the tables are in ``tables.py``.

>>> store = Store("sqlite://")
>>> with store.transaction() as connection:
...     connection.exec_driver_sql("SELECT 1").scalar_one()
1
>>> store.dialect
'sqlite'
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from hanamikoji.interfaces.web.db.health import DatabaseHealth

__all__ = [
    "CONNECT_TIMEOUT_SECONDS",
    "FIRST_TABLES",
    "MIGRATIONS",
    "MIGRATION_LOCK_KEY",
    "SchemaError",
    "Store",
    "alembic_config",
    "new_instance_id",
    "upgrade_schema",
]

MIGRATIONS = "hanamikoji.interfaces.web.db:migrations"
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


def new_instance_id() -> str:
    return secrets.token_hex(8)


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
        """This server's id among the instances on the database (``cluster/instances.py``):
        the origin of the events its writes send."""
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
