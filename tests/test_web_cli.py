"""``hanamikoji serve``: its options, where the database goes, and how uvicorn is started."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from hanamikoji.interfaces import web_cli
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.web_cli import default_data_dir, default_db_url


def streams() -> Streams:
    return Streams(io.StringIO(), io.StringIO(), io.StringIO())


def test_the_database_lives_in_each_systems_data_directory() -> None:
    home = "/home/ann"
    assert default_data_dir({}, "linux", home) == Path("/home/ann/.local/share/hanamikoji")
    assert default_data_dir({"XDG_DATA_HOME": "/x"}, "linux", home) == Path("/x/hanamikoji")
    assert default_data_dir({}, "darwin", home) == Path(
        "/home/ann/Library/Application Support/hanamikoji"
    )
    assert default_data_dir({"APPDATA": "C:/Users/ann/AppData/Roaming"}, "win32", home) == Path(
        "C:/Users/ann/AppData/Roaming/hanamikoji"
    )
    assert default_db_url({}, "linux", home) == (
        "sqlite:////home/ann/.local/share/hanamikoji/games.sqlite3"
    )


def test_serve_is_a_subcommand_with_host_port_and_db(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_command(["serve", "--help"], streams()) == 0
    shown = capsys.readouterr().out
    for option in ("--host", "--port", "--db", "--bot-processes", "--allow-origin"):
        assert option in shown


def test_serve_starts_uvicorn_on_loopback_with_the_chosen_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    started: dict[str, Any] = {}

    def fake_run(app: Any, **options: Any) -> None:
        started.update(options, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "platform", "linux")
    out = streams()
    assert run_command(["serve", "--port", "8123"], out) == 0
    assert started["host"] == "127.0.0.1" and started["port"] == 8123
    assert started["ws_per_message_deflate"] is False
    assert (tmp_path / "data" / "hanamikoji").is_dir()
    assert "http://127.0.0.1:8123/" in out.stdout.getvalue()  # type: ignore[attr-defined]
    db = "postgresql+psycopg://ann:secret@db.example/hk"
    assert run_command(["serve", "--host", "0.0.0.0", "--db", db], out) == 0
    assert started["host"] == "0.0.0.0" and started["port"] == 8000
    assert "secret" not in out.stdout.getvalue()  # type: ignore[attr-defined]
    assert web_cli.main(["--port", "8124", "--bot-processes", "0"]) == 0
    assert started["port"] == 8124


def test_a_bad_port_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_command(["serve", "--port", "99999"], streams()) == 2
    assert "65535" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--bot-processes", "-1"),
        ("--bot-processes", "many"),
        ("--bot-delay", "-1"),
        ("--bot-delay", "nan"),
        ("--bot-delay", "inf"),
        ("--create-rate", "fast"),
        ("--message-rate", "0/second"),
        ("--analysis-worlds", "0"),
        ("--analysis-worlds", "many"),
        ("--analysis-limit", "0"),
        ("--header-timeout", "0"),
        ("--connections-per-address", "0"),
    ],
)
def test_every_number_serve_takes_is_checked(
    capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    assert run_command(["serve", option, value], streams()) == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert option in error and "Traceback" not in error


def test_serve_answers_its_own_names_and_the_allowed_hosts_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn
    from starlette.testclient import TestClient

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    argv = ["serve", "--db", db, "--allowed-host", "play.example", "--create-rate", "1/minute"]
    assert run_command(argv, streams()) == 0
    with TestClient(started["app"], base_url="http://play.example") as client:
        assert client.get("/healthz").status_code == 200
        assert client.get("/healthz", headers={"Host": "127.0.0.1:8000"}).status_code == 200
        assert client.get("/healthz", headers={"Host": "evil.example"}).status_code == 400
        assert client.post("/api/games", json={}).status_code == 201
        assert client.post("/api/games", json={}).status_code == 429


def test_serve_passes_the_analysis_options_to_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn
    from starlette.testclient import TestClient

    from hanamikoji.bots.analysis import AnalysisSettings

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    for argv, worlds, limit in (
        (["--analysis-worlds", "7", "--analysis-limit", "3"], 7, 3),
        ([], AnalysisSettings().worlds, 2),
    ):
        assert run_command(["serve", "--db", db, "--bot-processes", "0", *argv], streams()) == 0
        with TestClient(started["app"], base_url="http://127.0.0.1") as client:
            analyses = client.app.state.hub.analyses  # type: ignore[attr-defined]
            assert (analyses.settings.worlds, analyses.limit) == (worlds, limit)
