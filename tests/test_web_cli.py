"""``hanamikoji serve``: its options, where the database goes, and how uvicorn is started."""

from __future__ import annotations

import argparse
import io
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from hanamikoji.interfaces import web_cli, web_settings
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
    from serving import served
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
            analyses = served(client).hub.analyses
            assert (analyses.settings.worlds, analyses.limit) == (worlds, limit)


# -- settings: flags, the environment, the docs and the unit ---------------------------------

ROOT = Path(__file__).resolve().parent.parent

SETTING_VARIABLES = [web_settings.env_name(name) for name, _, _ in web_settings.options()]


@pytest.fixture
def no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in SETTING_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``hanamikoji serve`` handed uvicorn (which is not started)."""
    import uvicorn

    handed: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: handed.update(options, app=app))
    return handed


@pytest.mark.usefixtures("no_settings_in_the_environment")
def test_serve_with_only_the_database_url_in_the_environment_serves_that_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, started: dict[str, Any]
) -> None:
    from starlette.testclient import TestClient

    database = tmp_path / "from-the-environment.sqlite3"
    monkeypatch.setenv("HANAMIKOJI_DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "platform", "linux")
    out = streams()
    assert run_command(["serve"], out) == 0
    assert str(database) in out.stdout.getvalue()  # type: ignore[attr-defined]
    with TestClient(started["app"], base_url="http://127.0.0.1") as client:
        game = client.post("/api/games", json={}).json()["id"]
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT id FROM games").fetchall()
    assert rows == [(game,)]
    assert not (tmp_path / "data").exists()  # the default database was not touched


@pytest.mark.usefixtures("no_settings_in_the_environment")
def test_a_flag_wins_over_its_variable_which_wins_over_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, started: dict[str, Any]
) -> None:
    monkeypatch.setenv("HANAMIKOJI_DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    monkeypatch.setenv("HANAMIKOJI_PORT", "8555")
    monkeypatch.setenv("HANAMIKOJI_LOG_LEVEL", "warning")
    monkeypatch.setenv("HANAMIKOJI_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.2")
    assert run_command(["serve"], streams()) == 0
    assert (started["port"], started["log_level"], started["host"]) == (
        8555,
        "warning",
        "127.0.0.1",
    )
    assert started["forwarded_allow_ips"] == "127.0.0.1,10.0.0.2"
    argv = ["serve", "--port", "8556", "--trusted-proxy", "10.0.0.3"]
    assert run_command(argv, streams()) == 0
    assert (started["port"], started["log_level"]) == (8556, "warning")
    assert started["forwarded_allow_ips"] == "10.0.0.3"


def test_every_kind_of_setting_is_read_from_its_variable() -> None:
    parser = argparse.ArgumentParser()
    web_settings.add_options(parser)
    environ = {
        "HANAMIKOJI_HOST": "0.0.0.0",
        "HANAMIKOJI_DATABASE_URL": "postgresql+psycopg://ann:secret@db.example/hk",
        "HANAMIKOJI_BOT_PROCESSES": "0",
        "HANAMIKOJI_BOT_DELAY": "0",
        "HANAMIKOJI_ALLOWED_ORIGINS": "https://a.example",
        "HANAMIKOJI_ALLOWED_HOSTS": "a.example b.example,c.example",
        "HANAMIKOJI_CREATE_RATE": "off",
        "HANAMIKOJI_SECURE_COOKIES": "yes",
        "HANAMIKOJI_ABANDON_TIMEOUT": "600",
        "HANAMIKOJI_SESSION_DAYS": "",  # empty: unset
    }
    settings = web_settings.read_settings(parser.parse_args([]), environ)
    assert settings == web_settings.ServeSettings(
        host="0.0.0.0",
        database_url="postgresql+psycopg://ann:secret@db.example/hk",
        bot_processes=0,
        bot_delay=0.0,
        allowed_origins=("https://a.example",),
        allowed_hosts=("a.example", "b.example", "c.example"),
        create_rate="off",
        secure_cookies=True,
        abandon_timeout=600,
    )
    assert web_settings.read_settings(parser.parse_args([]), {}) == web_settings.ServeSettings()


@pytest.mark.usefixtures("no_settings_in_the_environment")
@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("HANAMIKOJI_PORT", "99999"),
        ("HANAMIKOJI_PORT", "http"),
        ("HANAMIKOJI_BOT_DELAY", "nan"),
        ("HANAMIKOJI_CREATE_RATE", "fast"),
        ("HANAMIKOJI_SESSION_DAYS", "0"),
        ("HANAMIKOJI_SECURE_COOKIES", "maybe"),
        ("HANAMIKOJI_LOG_LEVEL", "loud"),
        ("HANAMIKOJI_CONNECTIONS_PER_ADDRESS", "-3"),
    ],
)
def test_a_bad_variable_is_a_usage_error_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    started: dict[str, Any],
    variable: str,
    value: str,
) -> None:
    monkeypatch.setenv(variable, value)
    assert run_command(["serve"], streams()) == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("hanamikoji serve: error: environment variable " + variable + ":")
    assert repr(value) in error or value in error
    assert started == {}  # the server was not started
    with pytest.raises(SystemExit) as stop:
        web_cli.main([])
    assert stop.value.code == 2


def test_the_help_of_serve_names_each_option_and_its_variable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_command(["serve", "--help"], streams()) == 0
    shown = " ".join(capsys.readouterr().out.split())
    for name, option, _ in web_settings.options():
        assert option.flag in shown
        assert web_settings.env_name(name) in shown.replace("- ", "-")


TABLE_ROW = re.compile(r"^\| (`--.*?) \| (.*?) \| (.*?) \| .* \|$", re.MULTILINE)


def test_the_option_table_of_web_md_is_the_settings() -> None:
    """docs/web.md's table names each setting once: its flag, its variable, its default."""
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    table = {}
    for flags, variables, defaults in TABLE_ROW.findall(text):
        cells = zip(
            re.findall(r"`(--[a-z-]+)", flags),
            re.findall(r"`(HANAMIKOJI_\w+)`", variables),
            defaults.split(", ") if flags.count("`--") > 1 else [defaults],
            strict=True,
        )
        for flag, variable, default in cells:
            assert flag not in table, f"{flag} is in the table twice"
            table[flag] = (variable, default)
    expected = {
        option.flag: (name, option, default)
        for name, option, default in web_settings.options()
        if not option.env_only  # its own row names its variable only
    }
    assert set(table) == set(expected)
    for name, option, _ in web_settings.options():
        if option.env_only:
            assert f"| (environment only) | `{web_settings.env_name(name)}` |" in text
    for flag, (variable, shown) in table.items():
        name, option, default = expected[flag]
        assert variable == web_settings.env_name(name), flag
        if option.switch:
            assert shown == "off", flag
        elif not option.repeat and option.shown_default is None:
            assert shown == f"`{default}`", flag
        elif option.shown_default and str(default) not in option.shown_default:
            assert shown == option.shown_default, flag


def test_the_systemd_unit_carries_no_password_and_reads_the_example_environment_file() -> None:
    unit = (ROOT / "deploy" / "hanamikoji@.service").read_text(encoding="utf-8")
    service = [line for line in unit.splitlines() if not line.startswith("#")]
    assert "EnvironmentFile=/etc/hanamikoji/env" in service
    start = " ".join(line for line in service if line.startswith(("ExecStart", "    ")))
    assert "--db" not in start and "${" not in start and "$" not in start
    assert not any("://" in line or "PASSWORD" in line for line in service)  # no URL
    example = (ROOT / "deploy" / "hanamikoji.env").read_text(encoding="utf-8")
    environ = dict(
        line.split("=", 1) for line in example.splitlines() if line and not line.startswith("#")
    )
    assert set(environ) <= set(SETTING_VARIABLES)
    parser = argparse.ArgumentParser()
    web_settings.add_options(parser)
    settings = web_settings.read_settings(parser.parse_args([]), environ)
    assert settings.database_url is not None
    assert ":PASSWORD@" in settings.database_url  # a placeholder, no real secret
    assert settings.allowed_hosts == ("play.example.org",) and settings.secure_cookies
    docs = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert "install -m 0600 deploy/hanamikoji.env /etc/hanamikoji/env" in docs
