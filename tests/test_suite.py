"""The test suite itself: it reads nothing outside the repository, and when it cannot
test on PostgreSQL every skip says which cause it is and how to enable the tests, and
the summary counts every one of them (tests/postgres_db.py, tests/conftest.py)."""

from __future__ import annotations

import re
import socket
import sys
from pathlib import Path

import pytest
from conftest import DEPLOYMENT_NOT_RUN, POSTGRES_NOT_RUN, not_run_lines
from postgres_db import DRIVER_MISSING, LOCAL_DEFAULT, REASON, URL, probe
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent

# -- self-contained -----------------------------------------------------------------------

OUTSIDE = re.compile(r"ROOT\.parent\b|\.parent\.parent\.parent\b|parents\[[3-9]\]|\.\./shared")


def test_no_test_reads_a_file_beside_the_repository() -> None:
    named = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((ROOT / "tests").glob("*.py"))
        if path.name != "test_suite.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert named == []


# -- why the PostgreSQL tests do not run --------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        port: int = probe_socket.getsockname()[1]
    return port


def _enables(reason: str) -> bool:
    """Whether ``reason`` says how to enable the tests: the README's role and database."""
    local = make_url(LOCAL_DEFAULT)
    return (
        'README.md says ("Tests on PostgreSQL")' in reason
        and f"create the role {local.username!r}" in reason
        and f"database {local.database!r}" in reason
        and "HANAMIKOJI_TEST_POSTGRES_URL" in reason
    )


def test_no_server_is_said_so_with_where_and_how_to_enable() -> None:
    port = _free_port()
    found = probe(f"postgresql+psycopg://hanamikoji:hanamikoji@127.0.0.1:{port}/hanamikoji_test")
    assert found.url is None
    assert found.reason.startswith(
        f"{POSTGRES_NOT_RUN}no PostgreSQL server answers at 127.0.0.1:{port}"
    )
    assert "start a PostgreSQL server" in found.reason and _enables(found.reason)


@pytest.mark.parametrize("missing", ["role", "database"])
def test_a_server_without_the_test_role_or_database_is_not_called_absent(missing: str) -> None:
    local = make_url(LOCAL_DEFAULT)
    # The role needs a server; the database, a server where the test role may connect.
    server = probe(local.set(database="postgres").render_as_string(hide_password=False))
    if server.reason.startswith(f"{POSTGRES_NOT_RUN}no PostgreSQL server") or (
        missing == "database" and server.url is None
    ):
        pytest.skip(server.reason)
    if missing == "role":
        url = local.set(username="no_such_role_of_the_tests", password="x")
    else:
        url = local.set(database="no_such_database_of_the_tests")
    found = probe(url.render_as_string(hide_password=False))
    assert found.url is None
    where = f"{local.host}:{local.port}"
    assert found.reason.startswith(
        f"{POSTGRES_NOT_RUN}the PostgreSQL server at {where} answers, but the test role or"
        " database is missing or refused ("
    )
    # The server's own words name what it refused.
    assert ("no_such_role_of_the_tests" if missing == "role" else "no_such_database") in (
        found.reason
    )
    assert "start a PostgreSQL server" not in found.reason and _enables(found.reason)


def test_a_missing_driver_is_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now fails
    found = probe(LOCAL_DEFAULT)
    assert found.url is None and found.reason == DRIVER_MISSING
    assert DRIVER_MISSING.startswith(POSTGRES_NOT_RUN) and "pip install -e '.[web]'" in (
        DRIVER_MISSING
    )


def test_this_run_either_has_a_database_or_says_why() -> None:
    assert (URL is None and REASON.startswith(POSTGRES_NOT_RUN)) or (URL and not REASON)


def test_the_summary_counts_every_postgresql_skip_under_its_reason() -> None:
    no_server = f"{POSTGRES_NOT_RUN}no PostgreSQL server answers at 127.0.0.1:5432 (...)"
    no_nginx = f"{DEPLOYMENT_NOT_RUN}nginx is not installed"
    reasons = [no_server] * 43 + [DRIVER_MISSING] * 2 + [no_nginx, "needs Debian's chromium"]
    assert not_run_lines(reasons) == [
        "PostgreSQL tests not run (43 skipped): no PostgreSQL server answers at"
        " 127.0.0.1:5432 (...)",
        f"PostgreSQL tests not run (2 skipped): {DRIVER_MISSING.removeprefix(POSTGRES_NOT_RUN)}",
        "deployment tests not run (1 skipped): nginx is not installed",
    ]
    assert not_run_lines(["needs Debian's chromium"]) == []
