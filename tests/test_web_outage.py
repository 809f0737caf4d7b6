"""The database going away and coming back (issue 46 item 4).

While the database cannot be reached, every HTTP route that needs it answers 503
``err_unavailable`` with ``Retry-After``, a socket's message gets the same code (the
socket stays open), a socket that cannot open its seat is told so and closed with 1013,
``/healthz`` answers 503 saying the database is unreachable, and the log has one line
when the outage starts and one when it ends, no traceback; then everything works again.

Two ways: here with the engine's connections made to fail (runs everywhere), and with a
PostgreSQL server of the test's own that it stops and starts again (``pg_ctl``), with
``hanamikoji serve`` as a real process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from serving import Server, app_client, free_port, served
from sqlalchemy import event
from sqlalchemy.engine import Engine
from starlette.testclient import TestClient
from web_support import bearer, create, legal_texts, receive_error, take_seat

from hanamikoji.interfaces.web.db.health import (
    CLOSE_TRY_AGAIN,
    RETRY_AFTER_SECONDS,
    DatabaseHealth,
)

PG_BIN = Path("/usr/lib/postgresql/15/bin")


class Outage:
    """While entered, every new connection of ``engine`` fails as an SQLite file that
    cannot be opened does, and the pooled ones are dropped."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _refuse(self, *_: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    def __enter__(self) -> Outage:
        event.listen(self.engine, "do_connect", self._refuse)
        self.engine.dispose()
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "do_connect", self._refuse)


def outage_lines(records: list[logging.LogRecord]) -> list[str]:
    """What the server logged at warning or above."""
    return [r.getMessage() for r in records if r.levelno >= logging.WARNING]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(f"sqlite:///{tmp_path / 'games.sqlite3'}") as test_client:
        yield test_client


def test_an_unreachable_database_gets_503_one_log_line_and_recovers(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    guest = client.post("/api/me/guest", json={"nickname": "Hana"})
    assert guest.status_code == 201, guest.text
    session = {"Cookie": f"hanamikoji_session={client.cookies['hanamikoji_session']}"}
    client.cookies.clear()  # the other requests are nobody's
    friend = create(client, opponent="friend", first="me")
    with take_seat(client, friend):
        pass  # its last page gone, the game leaves memory: a page must read it again
    seated = create(client, opponent="friend", first="me")
    engine = served(client).store.engine
    caplog.set_level(logging.INFO, logger="hanamikoji.web")
    with take_seat(client, seated) as (page, state):
        with Outage(engine):
            for _ in range(5):
                refused = client.post("/api/games", json={"opponent": "bot"})
                assert refused.status_code == 503, refused.text
                assert refused.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
                assert refused.json()["code"] == "err_unavailable"
            listed = client.get("/api/games?watch=1")
            assert (listed.status_code, listed.json()["code"]) == (503, "err_unavailable")
            spanish = client.post("/api/games", json={}, headers={"Accept-Language": "es"})
            assert spanish.json()["message"] != refused.json()["message"]
            health = client.get("/healthz")
            assert health.status_code == 503
            assert health.json() == {"ok": False, "database": "unreachable"}
            # A seat's decision is refused with the same code, and its socket stays.
            page.send_text(json.dumps({"type": "move", "move": legal_texts(state)[0]}))
            assert receive_error(page)["code"] == "err_unavailable"
            page.send_text(json.dumps({"type": "ping"}))
            assert json.loads(page.receive_text())["type"] == "pong"
            # A socket whose game must be read first is told, and closed with 1013.
            with client.websocket_connect(f"/ws/{friend['id']}") as other:
                other.send_text(json.dumps({"type": "hello", "token": friend["token"]}))
                assert json.loads(other.receive_text())["code"] == "err_unavailable"
                assert other.receive()["code"] == CLOSE_TRY_AGAIN
            # So is a signed-in player's lobby socket (its session is read first).
            with client.websocket_connect("/lobby/ws", headers=session) as lobby:
                assert json.loads(lobby.receive_text())["code"] == "err_unavailable"
                assert lobby.receive()["code"] == CLOSE_TRY_AGAIN
        assert client.get("/healthz").json() == {"ok": True, "database": "ok"}
        page.send_text(json.dumps({"type": "move", "move": legal_texts(state)[0]}))
        assert json.loads(page.receive_text())["ply"] == 1
    assert client.post("/api/games", json={"opponent": "bot"}).status_code == 201
    opened = client.get(f"/api/games/{friend['id']}", headers=bearer(friend["token"]))
    assert opened.status_code == 200
    lines = outage_lines(caplog.records)
    assert len(lines) == 2, lines
    assert lines[0].startswith("database unreachable (OperationalError: unable to open")
    assert lines[1].startswith("database reachable again after")
    assert not [r for r in caplog.records if r.exc_info], "no traceback"


def test_the_health_of_the_database_is_logged_once_per_change(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [100.0]
    health = DatabaseHealth(clock=lambda: now[0])
    caplog.set_level(logging.INFO, logger="hanamikoji.web")
    health.answered()
    for _ in range(3):
        health.failed(sqlite3.OperationalError("unable to open database file"))
    assert health.down
    now[0] = 112.5
    health.answered()
    health.answered()
    assert not health.down
    assert outage_lines(caplog.records) == [
        "database unreachable (OperationalError: unable to open database file):"
        " requests that need it get 503 until it answers",
        "database reachable again after 12.5 s (3 failed requests or tasks meanwhile)",
    ]


# -- a real PostgreSQL server, stopped and started ------------------------------------------


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as the ``postgres`` user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Postgres:
    """A PostgreSQL server of the test's own: its own data directory and a free port,
    any local connection trusted, and a database ``games`` owned by ``hanamikoji``."""

    def __init__(self, root: Path) -> None:
        self.data = root / "data"
        self.port = free_port()
        self.log = root / "postgres.log"
        self.url = f"postgresql+psycopg://hanamikoji@127.0.0.1:{self.port}/games"

    def _run(self, *command: str) -> None:
        subprocess.run(
            _as_postgres([str(PG_BIN / command[0]), *command[1:]]),
            check=True,
            capture_output=True,
            timeout=120,
        )

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "hanamikoji", "--auth=trust")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "hanamikoji", "games")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    if not (PG_BIN / "pg_ctl").exists():
        pytest.skip(f"no PostgreSQL server programs in {PG_BIN} (initdb, pg_ctl)")
    pytest.importorskip("psycopg", reason="psycopg is not installed (the web extra)")
    root = Path(tempfile.mkdtemp(prefix="hanamikoji-outage-"))
    os.chmod(root, 0o777)  # the postgres user writes its data directory here
    server = Postgres(root)
    try:
        server.init()
        yield server
    finally:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            server.stop()
        shutil.rmtree(root, ignore_errors=True)


def _post_game(url: str) -> httpx.Response:
    return httpx.post(f"{url}/api/games", json={"opponent": "bot"}, timeout=15)


def test_postgres_stopped_then_started_again(tmp_path: Path, postgres: Postgres) -> None:
    server = Server(tmp_path / "serve.sqlite3", free_port(), db_url=postgres.url)
    with server:
        created = _post_game(server.url)
        assert created.status_code == 201, created.text
        game: dict[str, Any] = created.json()
        postgres.stop()
        try:
            deadline = time.monotonic() + 4
            answers = []
            while time.monotonic() < deadline:
                answers.append(_post_game(server.url))
                time.sleep(0.2)
            for answer in answers:
                assert answer.status_code == 503, answer.text
                assert answer.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
                assert answer.json()["code"] == "err_unavailable"
            health = httpx.get(f"{server.url}/healthz", timeout=15)
            assert health.status_code == 503
            assert health.json()["database"] == "unreachable"
        finally:
            postgres.start()
        deadline = time.monotonic() + 30
        while httpx.get(f"{server.url}/healthz", timeout=15).status_code != 200:
            assert time.monotonic() < deadline, "the server did not find the database again"
            time.sleep(0.2)
        assert _post_game(server.url).status_code == 201
        state = httpx.get(
            f"{server.url}/api/games/{game['id']}", headers=bearer(game["token"]), timeout=15
        )
        assert state.status_code == 200
        time.sleep(1.5)  # the heartbeat and the listener find the database again too
    log = server.stderr
    assert "Traceback" not in log, log
    assert log.count("database unreachable") == 1, log
    assert log.count("database reachable again") == 1, log


def test_a_cut_off_database_fails_fast_not_after_the_tcp_timeout() -> None:
    """A server that accepts no connection at all (not one that refuses it): a new
    connection gives up within the store's connect timeout."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (the web extra)")
    from hanamikoji.interfaces.web.db.database import CONNECT_TIMEOUT_SECONDS, Store

    with socket.socket() as silent:  # listens, never accepts: the handshake never ends
        silent.bind(("127.0.0.1", 0))
        silent.listen(0)
        port = silent.getsockname()[1]
        began = time.monotonic()
        with pytest.raises(Exception) as failure:
            Store(f"postgresql+psycopg://nobody@127.0.0.1:{port}/nothing")
        assert time.monotonic() - began < CONNECT_TIMEOUT_SECONDS + 5
        assert "timeout" in str(failure.value).lower()
