"""The PostgreSQL database the PostgreSQL tests run on, or exactly why they do not run.

Every test that needs PostgreSQL takes :data:`URL` (and skips with :data:`REASON` when it
is ``None``, through :data:`needs_postgres` or ``pytest.skip(REASON)``), so that one probe
decides for the whole run and every such skip says the same thing: which of the three
causes it is (the driver is missing; no server answers; a server answers but refuses the
test role or database) and how to enable the tests (README.md, "Tests on PostgreSQL").
The test summary counts them by how their reason starts (``tests/conftest.py``).

A database named by ``HANAMIKOJI_TEST_POSTGRES_URL`` was asked for: if it cannot be used,
that is an error of the run, not a skip.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from conftest import POSTGRES_NOT_RUN

ENV = "HANAMIKOJI_TEST_POSTGRES_URL"
LOCAL_DEFAULT = "postgresql+psycopg://hanamikoji:hanamikoji@127.0.0.1:5432/hanamikoji_test"
"""The database the tests look for when ``HANAMIKOJI_TEST_POSTGRES_URL`` is not set."""

PREFIX = POSTGRES_NOT_RUN

DRIVER_MISSING = (
    f"{PREFIX}psycopg or SQLAlchemy, the web extra, is not installed"
    " (pip install -e '.[web]', as scripts/test does)"
)


@dataclass(frozen=True)
class Probe:
    """What looking for a database found: its URL, or why there is none."""

    url: str | None
    reason: str = ""


def _where(url: str) -> str:
    """``host:port`` of a URL, for the messages (never its password)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return f"{parsed.host or 'localhost'}:{parsed.port or 5432}"


def _enable(start: bool = False) -> str:
    """How to enable the tests: (start a server and) create the role and database of
    :data:`LOCAL_DEFAULT`, or name another database."""
    from sqlalchemy.engine import make_url

    local = make_url(LOCAL_DEFAULT)
    first = "start a PostgreSQL server on it and " if start else ""
    return (
        f"to run them, {first}create the role {local.username!r} (password {local.password!r}) and"
        f' its database {local.database!r} as README.md says ("Tests on PostgreSQL"), or'
        f" set {ENV} to a database's SQLAlchemy URL"
    )


def probe(url: str) -> Probe:
    """Connect to ``url`` once and say whether the tests can use it, and if not why."""
    try:
        import psycopg  # noqa: F401
        from sqlalchemy import create_engine
        from sqlalchemy.exc import OperationalError
    except ImportError:
        return Probe(None, DRIVER_MISSING)
    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect():
            pass
    except OperationalError as error:
        text = " ".join(str(error.orig).split())
        where = _where(url)
        if "FATAL:" in text:
            refusal = text.split("FATAL:", 1)[1].strip()
            return Probe(
                None,
                f"{PREFIX}the PostgreSQL server at {where} answers, but the test role or"
                f" database is missing or refused ({refusal}); {_enable()}",
            )
        return Probe(
            None, f"{PREFIX}no PostgreSQL server answers at {where} ({text}); {_enable(start=True)}"
        )
    finally:
        engine.dispose()
    return Probe(url)


def find_database() -> Probe:
    """The database of ``HANAMIKOJI_TEST_POSTGRES_URL`` (which must work), else the local
    default if it works. Fails the run when the asked-for database cannot be used."""
    asked = os.environ.get(ENV)
    found = probe(asked or LOCAL_DEFAULT)
    if asked and found.url is None:
        pytest.fail(
            f"{ENV} names a database the tests cannot use: {found.reason.removeprefix(PREFIX)}",
            pytrace=False,
        )
    return found


_FOUND = find_database()
URL = _FOUND.url
"""The database to test on, or ``None``."""
REASON = _FOUND.reason
"""Why there is none (the skip reason), or ``""``."""

needs_postgres = pytest.mark.skipif(URL is None, reason=REASON)

NewDatabase = Callable[[], str]
"""Makes a new, empty schema and gives its URL."""


@contextlib.contextmanager
def postgres_schemas() -> Iterator[NewDatabase]:
    """URLs of new, empty schemas of the PostgreSQL test database (each the first on its
    connections' search path), dropped on exit."""
    from sqlalchemy import create_engine, make_url

    assert URL is not None
    admin = create_engine(URL)
    made: list[str] = []

    def new_schema() -> str:
        name = f"test_migrations_{secrets.token_hex(6)}"
        with admin.begin() as connection:
            connection.exec_driver_sql(f'CREATE SCHEMA "{name}"')
        made.append(name)
        url = make_url(URL).update_query_dict({"options": f"-csearch_path={name}"})
        return url.render_as_string(hide_password=False)

    try:
        yield new_schema
    finally:
        with admin.begin() as connection:
            for name in made:
                connection.exec_driver_sql(f'DROP SCHEMA "{name}" CASCADE')
        admin.dispose()
