"""Bridged bots against a real server, for the tests of ``hanamikoji bridge`` on a real
``hanamikoji serve`` (tests/test_bridge_server.py, tests/test_web_ladder.py): bot accounts
made through the API (sign up, a token, the upgrade), and ``hanamikoji bridge`` run as a
process of its own, its log in a file."""

from __future__ import annotations

import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx2 as httpx
from web_support import PASSWORD

__all__ = ["BridgeProcess", "bearer", "bot_account", "unique_name", "wait_for"]

PLAYED = re.compile(r"game (\S+): ply (\d+), we played (\S+)")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def unique_name(prefix: str) -> str:
    """A name no other test's account has (the PostgreSQL database is shared)."""
    return f"{prefix}{secrets.token_hex(3)}"


def bot_account(base_url: str, name: str) -> str:
    """A new account ``name`` signed up at ``base_url``, a ``bot:play`` token made from its
    session, upgraded to a bot account through the API: the token."""
    with httpx.Client(base_url=base_url, timeout=30) as http:
        made = http.post("/api/me/register", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        csrf = {"X-CSRF-Token": made.json()["csrf"]}
        answer = http.post(
            "/api/tokens", json={"name": "bridge", "scopes": ["bot:play"]}, headers=csrf
        )
        assert answer.status_code == 201, answer.text
        token: str = answer.json()["token"]
        http.cookies.clear()
        upgraded = http.post("/api/bot/account/upgrade", headers=bearer(token))
        assert upgraded.status_code == 200, upgraded.text
    return token


def wait_for(what: Callable[[], Any], seconds: float, message: str) -> Any:
    """``what()`` once it is true, polled every 0.1 s; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{message} (after {seconds:.0f} s)")


class BridgeProcess:
    """``hanamikoji bridge`` for ``token`` against ``server``, as a process: ``who`` says
    who plays (``["--level", "3"]``, or ``["--", ENGINE...]`` last), its records in
    ``directory/records``, its log in ``directory/bridge.log``."""

    def __init__(
        self, server: str, token: str, directory: Path, who: Sequence[str], *more: str
    ) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.records = directory / "records"
        self.log_path = directory / "bridge.log"
        token_file = directory / "token"
        token_file.write_text(token + "\n", encoding="utf-8")
        token_file.chmod(0o600)
        engine = list(who)
        options = [] if "--" in engine else engine
        command = [
            sys.executable,
            "-m",
            "hanamikoji",
            "bridge",
            "--server",
            server,
            "--token-file",
            str(token_file),
            "--records",
            str(self.records),
            *more,
            *options,
            *(engine if "--" in engine else []),
        ]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
            )

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def played(self, game_id: str) -> list[tuple[int, str]]:
        """The (ply, decision) the bridge posted in ``game_id``, as its log says."""
        return [(int(ply), move) for game, ply, move in PLAYED.findall(self.log) if game == game_id]

    def record(self, game_id: str) -> Path | None:
        found = self.records / f"{game_id}.hkr"
        return found if found.exists() else None

    def stop(self) -> str:
        """SIGTERM (a graceful stop), then wait; its log."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        return self.log

    def __enter__(self) -> BridgeProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
