"""The games database's schema through Alembic migrations, on SQLite and PostgreSQL.

A database made by the code before migrations (``tests/data/storage_before_migrations.py.txt``
is that code: ``storage.py`` as of commit d52489d, byte for byte) is stamped and upgraded
when the server starts, and its games and analyses are served as before; a new database
gets every migration; the migrated schema is the model's (``compare_metadata``) and the
one the code before migrations made; an older revision is upgraded in place; a newer one
refuses to start; on PostgreSQL the upgrade waits for the advisory lock, so servers
starting at once migrate once.

The PostgreSQL tests run in a schema of their own (dropped afterwards) in the database
``HANAMIKOJI_TEST_POSTGRES_URL`` names, or the local default when it answers; they are
skipped otherwise, saying why (``tests/postgres_db.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from postgres_db import REASON, URL, NewDatabase, needs_postgres, postgres_schemas
from serving import app_client
from sqlalchemy import Column, MetaData, String, create_engine, insert, inspect, select, text
from sqlalchemy.engine import Engine

from hanamikoji import Game
from hanamikoji.bots.analysis import AnalysisSettings, analyze_game
from hanamikoji.interfaces.web.db import database
from hanamikoji.interfaces.web.db.analyses import AnalysisStore
from hanamikoji.interfaces.web.db.database import (
    FIRST_TABLES,
    MIGRATION_LOCK_KEY,
    SchemaError,
    Store,
    alembic_config,
    upgrade_schema,
)
from hanamikoji.interfaces.web.db.games import GameStore
from hanamikoji.interfaces.web.db.tables import game_seats, games, metadata

BEFORE_MIGRATIONS = Path(__file__).parent / "data" / "storage_before_migrations.py.txt"
BEFORE_MIGRATIONS_BLOB = "9a0760077415205cfdd083a0fc3f9fa6e6611af8"
"""``git rev-parse d52489d:src/hanamikoji/interfaces/web/storage.py``."""

MIGRATIONS_DIR = Path(database.__file__).parent / "migrations"
HEAD = "0021_puzzle_streak"
"""The newest revision in ``migrations/versions/``."""

POSTGRES = URL
"""The PostgreSQL database to test on, or ``None`` (``tests/postgres_db.py``)."""
NO_POSTGRES = REASON


# -- the code before migrations ---------------------------------------------------------


def code_before_migrations() -> ModuleType:
    """``storage.py`` as it was before migrations, imported under a name of its own."""
    name = "hanamikoji_storage_before_migrations"
    if name in sys.modules:
        return sys.modules[name]
    spec = spec_from_loader(name, SourceFileLoader(name, str(BEFORE_MIGRATIONS)))
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it runs
    spec.loader.exec_module(module)
    return module


def test_the_code_before_migrations_is_that_commits_storage_module() -> None:
    content = BEFORE_MIGRATIONS.read_bytes()
    blob = hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()
    assert blob == BEFORE_MIGRATIONS_BLOB


@dataclass(frozen=True)
class Played:
    """A finished game and its analysis, as the server stores them."""

    game: Game
    analysis: dict[str, Any]

    @property
    def decisions(self) -> list[str]:
        return [move.text() for move in self.game.move_stack]

    @property
    def result(self) -> str:
        assert self.game.outcome is not None
        return self.game.outcome.result()


@pytest.fixture(scope="module")
def played() -> Played:
    game = Game("classic", seed=11, first_player=0)
    rng = random.Random(3)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves))
    return Played(game, analyze_game(game, AnalysisSettings(worlds=1)).to_json())


@dataclass(frozen=True)
class OldGame:
    id: str
    tokens: tuple[str, str]


def fill_before_migrations(url: str, played: Played) -> OldGame:
    """A database made by the code before migrations, holding ``played`` (finished, and
    analysed) the way that code's server stored it."""
    old = code_before_migrations()
    store = old.Store(url)
    try:
        tokens = (old.new_token(), old.new_token())
        hashes = (old.hash_token(tokens[0]), old.hash_token(tokens[1]))
        row = store.create_game(old.new_game_row("classic", 11, 0, hashes, None, None))
        last = len(played.decisions) - 1
        for ply, decision in enumerate(played.decisions):
            store.append(row.id, ply, decision, played.result if ply == last else None)
        analysis = played.analysis
        stored = old.StoredAnalysis(
            settings=json.dumps(analysis["budget"]),
            version=str(analysis["version"]),
            summary=json.dumps(analysis["summary"]),
            decisions=tuple(json.dumps(decision) for decision in analysis["decisions"]),
        )
        assert store.save_analysis(row.id, stored)
    finally:
        store.close()
    return OldGame(str(row.id), tokens)


# -- databases --------------------------------------------------------------------------


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgresql", marks=needs_postgres),
    ]
)
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[NewDatabase]:
    """Makes URLs of new, empty databases of the dialect the test runs on."""
    if request.param == "sqlite":
        files = iter(range(1_000))
        yield lambda: f"sqlite:///{tmp_path}/games-{next(files)}.sqlite3"
        return
    with postgres_schemas() as new_schema:
        yield new_schema


@contextlib.contextmanager
def opened(url: str) -> Iterator[Engine]:
    engine = create_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


def revisions(url: str) -> list[str]:
    with opened(url) as engine, engine.connect() as connection:
        return list(MigrationContext.configure(connection).get_current_heads())


def schema_of(url: str) -> dict[str, object]:
    """Every table but Alembic's, with its columns, keys, indexes and constraints as the
    database reports them."""
    with opened(url) as engine, engine.connect() as connection:
        found = inspect(connection)
        return {
            table: {
                "columns": [
                    {**column, "type": repr(column["type"])} for column in found.get_columns(table)
                ],
                "primary key": found.get_pk_constraint(table),
                "foreign keys": found.get_foreign_keys(table),
                "indexes": found.get_indexes(table),
                "unique": found.get_unique_constraints(table),
                "checks": found.get_check_constraints(table),
            }
            for table in sorted(found.get_table_names())
            if table != "alembic_version"
        }


LATER_COLUMNS = {
    "games": {
        "clock_kind",
        "clock_initial_ms",
        "clock_increment_ms",
        "clock_days",
        "termination",
        "rated",
        "owner",
        "second_bot_level",
    }
}
"""The columns later revisions add to the first tables (0004: the clocks; 0005: rated;
0006: owner; 0020_second_bot: a second bot's level)."""


LATER_INDEXES = {"games": {"ix_games_owner", "ix_games_status_created"}}
"""The indexes later revisions add to the first tables (0006: owner; 0010_browser: the
game browser's)."""


def _without_later_columns(name: str, table: Any) -> Any:
    later = LATER_COLUMNS.get(name, set())
    indexes = [i for i in table["indexes"] if i["name"] not in LATER_INDEXES.get(name, set())]
    columns = [c for c in table["columns"] if c["name"] not in later]
    return {**table, "columns": columns, "indexes": indexes}


def differences_from_the_model(url: str, model: MetaData = metadata) -> list[Any]:
    with opened(url) as engine, engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
        )
        return list(compare_metadata(context, model))


# -- the tests --------------------------------------------------------------------------


def test_a_database_made_before_migrations_is_upgraded_when_the_server_starts(
    new_database: NewDatabase, played: Played
) -> None:
    url = new_database()
    old = fill_before_migrations(url, played)
    assert revisions(url) == []
    bearer = {"Authorization": f"Bearer {old.tokens[1]}"}

    with app_client(url) as client:
        state = client.get(f"/api/games/{old.id}", headers=bearer)
        record = client.get(f"/api/games/{old.id}/record?format=json", headers=bearer)
        analysis = client.get(f"/api/games/{old.id}/analysis", headers=bearer)

    assert revisions(url) == [HEAD]
    assert state.status_code == 200, state.text
    assert state.json()["ply"] == len(played.decisions)
    assert state.json()["outcome"]["result"] == played.result
    assert record.status_code == 200, record.text
    moves = [move for rnd in record.json()["rounds"] for move in rnd["moves"]]
    assert moves == played.decisions
    assert analysis.status_code == 200, analysis.text
    served = analysis.json()
    assert served["status"] == "done"
    assert [d["played"] for d in served["decisions"]] == [
        d["played"] for d in played.analysis["decisions"]
    ]
    assert served["summary"] == played.analysis["summary"]


def test_the_upgraded_store_loads_and_replays_the_old_games(
    new_database: NewDatabase, played: Played
) -> None:
    url = new_database()
    old = fill_before_migrations(url, played)
    store = Store(url)
    try:
        loaded = GameStore(store).load(old.id)
        again = AnalysisStore(store).load_analysis(old.id)
    finally:
        store.close()
    assert loaded is not None and loaded.status == "finished"
    assert loaded.result == played.result
    game = Game(loaded.variant, seed=loaded.seed, first_player=loaded.first_player)
    for decision in loaded.decisions:
        game.push_text(decision)
    assert game.outcome == played.game.outcome
    assert again is not None
    assert [json.loads(d) for d in again.decisions] == played.analysis["decisions"]


def test_a_new_database_gets_every_migration_and_the_schema_of_the_code_before(
    new_database: NewDatabase,
) -> None:
    migrated, made_before = new_database(), new_database()
    Store(migrated).close()
    code_before_migrations().Store(made_before).close()
    assert revisions(migrated) == [HEAD]
    first_tables = {
        name: _without_later_columns(name, table)
        for name, table in schema_of(migrated).items()
        if name in FIRST_TABLES
    }
    assert first_tables == schema_of(made_before)
    assert set(schema_of(migrated)) == set(metadata.tables)


def test_the_migrated_database_is_the_model(new_database: NewDatabase) -> None:
    url = new_database()
    Store(url).close()
    assert differences_from_the_model(url) == []


def test_the_comparison_sees_a_model_the_migrations_lack(new_database: NewDatabase) -> None:
    """The test above can fail: a column only the model has is a difference."""
    url = new_database()
    Store(url).close()
    model = MetaData()
    for table in metadata.tables.values():
        table.to_metadata(model)
    model.tables["games"].append_column(Column("only_in_the_model", String(8)))
    differences = differences_from_the_model(url, model)
    assert [d[0] for d in differences] == ["add_column"]
    assert differences[0][3].name == "only_in_the_model"


def test_starting_again_changes_nothing(new_database: NewDatabase, played: Played) -> None:
    url = new_database()
    old = fill_before_migrations(url, played)
    for _ in range(2):
        Store(url).close()
    assert revisions(url) == [HEAD]
    store = Store(url)
    try:
        assert GameStore(store).count_games() == 1
        assert GameStore(store).load(old.id) is not None
    finally:
        store.close()


SECOND_REVISION = '''"""A test's revision: a column and an index on games."""

import sqlalchemy as sa
from alembic import op

revision = "next"
down_revision = "HEAD"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("note", sa.String(40), nullable=True))
    op.create_index("games_by_status", "games", ["status"])


def downgrade() -> None:
    op.drop_index("games_by_status", table_name="games")
    op.drop_column("games", "note")
'''


def test_an_older_revision_is_upgraded_in_place_without_losing_a_row(
    new_database: NewDatabase, played: Played, tmp_path: Path
) -> None:
    """The package's migrations and a second revision beside them, as the next issue
    will add one: a database at the first revision gets the second and keeps its rows."""
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, migrations, ignore=shutil.ignore_patterns("__pycache__"))
    (migrations / "versions" / "r9999_test_note.py").write_text(
        SECOND_REVISION.replace('"HEAD"', repr(HEAD))
    )
    url = new_database()
    old = fill_before_migrations(url, played)
    Store(url).close()
    assert revisions(url) == [HEAD]
    before = _rows(url)

    with opened(url) as engine:
        upgrade_schema(engine, str(migrations))

    assert revisions(url) == ["next"]
    assert _rows(url) == before
    with opened(url) as engine, engine.connect() as connection:
        found = inspect(connection)
        assert "note" in [column["name"] for column in found.get_columns("games")]
        assert "games_by_status" in [index["name"] for index in found.get_indexes("games")]
        assert (
            connection.execute(
                text("SELECT note FROM games WHERE id = :id"), {"id": old.id}
            ).scalar_one_or_none()
            is None
        )


@pytest.mark.parametrize(("five", "eight"), [(1, 1), (2, 6), (3, 7), (4, 7), (5, 8)])
def test_a_bot_game_keeps_its_bot_when_the_levels_become_eight(
    new_database: NewDatabase, played: Played, five: int, eight: int
) -> None:
    url = new_database()
    old = fill_before_migrations(url, played)
    Store(url).close()
    level = text("SELECT bot_level FROM games WHERE id = :id")
    with opened(url) as engine:
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0007")
            connection.execute(
                text("UPDATE games SET bot_level = :level WHERE id = :id"),
                {"level": five, "id": old.id},
            )
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "0008")
            assert connection.execute(level, {"id": old.id}).scalar_one() == eight
            command.downgrade(alembic_config(connection), "0007")
            back = connection.execute(level, {"id": old.id}).scalar_one()
    # The way back reaches the same bot, except the two searches below the expert.
    assert back == (3 if five == 4 else five)


def test_each_seat_gets_its_games_start_when_the_browser_index_comes(
    new_database: NewDatabase,
) -> None:
    """Revision 0016_browser_index copies each game's start onto its seats (a seat whose
    game is gone takes its own claim's time) and indexes them by player."""
    url = new_database()
    Store(url).close()
    started = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
    claimed = datetime(2025, 6, 7, 8, 9, 10, tzinfo=UTC)
    game = {"variant": "classic", "seed": 1, "first_player": 0, "status": "finished"}
    with opened(url) as engine:
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0015_bot_api")
            connection.execute(insert(games).values(id="g1", created=started, **game))
            for game_id, seat in (("g1", 0), ("g1", 1), ("gone", 0)):
                connection.execute(
                    insert(game_seats).values(
                        game_id=game_id, seat=seat, player_id=f"p{seat}", claimed=claimed
                    )
                )
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
            rows = connection.execute(
                select(game_seats.c.game_id, game_seats.c.game_created).order_by(
                    game_seats.c.game_id, game_seats.c.seat
                )
            ).all()
            indexes = {index["name"] for index in inspect(connection).get_indexes("game_seats")}
    moments = [(game_id, moment.replace(tzinfo=moment.tzinfo or UTC)) for game_id, moment in rows]
    assert moments == [("g1", started), ("g1", started), ("gone", claimed)]
    assert "ix_game_seats_player_created" in indexes


def _rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the first revision's tables, in key order."""
    with opened(url) as engine, engine.connect() as connection:
        return {
            name: [
                tuple(row)
                for row in connection.execute(
                    table.select().order_by(*table.primary_key.columns)
                ).all()
            ]
            for name, table in metadata.tables.items()
        }


def test_the_first_revision_downgrades_to_an_empty_database(new_database: NewDatabase) -> None:
    url = new_database()
    Store(url).close()
    with opened(url) as engine, engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert revisions(url) == []
    assert schema_of(url) == {}


def test_a_database_newer_than_the_code_refuses_to_start(new_database: NewDatabase) -> None:
    url = new_database()
    Store(url).close()
    with opened(url) as engine, engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'f00d0099'"))
    with pytest.raises(SchemaError, match=rf"revision f00d0099.*its newest is {HEAD}"):
        Store(url)
    with pytest.raises(SchemaError, match="f00d0099"), app_client(url):
        pass
    assert revisions(url) == ["f00d0099"]


def test_a_database_with_only_some_of_the_first_tables_refuses_to_start(
    new_database: NewDatabase,
) -> None:
    url = new_database()
    old = code_before_migrations()
    with opened(url) as engine:
        old.games.create(engine)
        old.decisions.create(engine)
    with pytest.raises(SchemaError, match="it lacks analyses, analysis_runs"):
        Store(url)
    assert revisions(url) == []


# -- PostgreSQL: the advisory lock ------------------------------------------------------


@needs_postgres
def test_the_upgrade_waits_for_the_advisory_lock() -> None:
    with postgres_schemas() as new_schema:
        url = new_schema()
        opened_stores: list[Store] = []
        failures: list[BaseException] = []

        def start() -> None:
            try:
                opened_stores.append(Store(url))
            except BaseException as error:  # reported by the assertion below
                failures.append(error)

        with opened(url) as engine, engine.connect() as holder:
            holder.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            starting = threading.Thread(target=start)
            starting.start()
            _wait_for_a_waiting_advisory_lock(url)
            assert starting.is_alive() and revisions(url) == []
            holder.rollback()  # releases the lock
            starting.join(timeout=30)
        assert not failures and len(opened_stores) == 1
        opened_stores[0].close()
        assert revisions(url) == [HEAD]


def _wait_for_a_waiting_advisory_lock(url: str, timeout: float = 20.0) -> None:
    """Until another session waits for the migration's advisory lock."""
    waiting = text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND ((classid::bigint << 32) | objid::bigint) = :key"
    )
    deadline = time.monotonic() + timeout
    with opened(url) as engine:
        while time.monotonic() < deadline:
            with engine.connect() as watcher:
                if watcher.execute(waiting, {"key": MIGRATION_LOCK_KEY}).scalar_one() == 1:
                    return
            time.sleep(0.05)
    raise AssertionError("no session waited for the migration's advisory lock")


START_A_SERVER = """
import sys
from hanamikoji.interfaces.web.db.database import Store
print("ready", flush=True)
sys.stdin.readline()
Store(sys.argv[1]).close()
"""
"""A server process's start, as far as the database goes: it opens the store once told."""


def test_servers_starting_at_once_migrate_once(new_database: NewDatabase) -> None:
    url = new_database()
    servers = [
        subprocess.Popen(
            [sys.executable, "-c", START_A_SERVER, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for server in servers:
        assert server.stdout is not None and server.stdout.readline() == "ready\n"
    for server in servers:  # all of them imported: now they start at once
        assert server.stdin is not None
        server.stdin.write("go\n")
        server.stdin.flush()
    outcomes = [server.communicate(timeout=60) for server in servers]
    assert [server.returncode for server in servers] == [0] * 4, outcomes
    assert revisions(url) == [HEAD]
    assert differences_from_the_model(url) == []
