"""The web app for tests: in Starlette's test client (:func:`app_client`), or
``hanamikoji serve`` as a real process on loopback (:class:`Server`) for the tests that
need one (the browser tests, the hardening tests)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
from starlette.testclient import TestClient

from hanamikoji.interfaces.web.app import create_app
from hanamikoji.interfaces.web.services import ServerConfig, Services
from hanamikoji.interfaces.web_settings import ServeSettings

__all__ = ["Server", "app_client", "app_config", "descendants", "free_port", "served"]


def app_client(db_url: str = "sqlite://", **options: Any) -> TestClient:
    """The app in Starlette's test client (enter it to start it), set for tests unless
    ``options`` say otherwise: bots think in threads and act at once, no collector
    freezing, the test client's host name allowed, no rate limits. ``options`` are
    ``hanamikoji serve``'s settings (``ServeSettings``) and ``ServerConfig``'s own
    (``tap``, ``clock``, ``gc_freeze_interval``, ``direct_interval``)."""
    return TestClient(create_app(app_config(db_url, **options)), base_url="http://testserver")


def app_config(db_url: str = "sqlite://", **options: Any) -> ServerConfig:
    """The server's configuration for tests (see :func:`app_client`)."""
    own = {"tap", "clock", "gc_freeze_interval", "direct_interval"}
    settings: dict[str, Any] = {
        "bot_processes": 0,
        "bot_delay": 0.0,
        "allowed_hosts": ("testserver",),
        "create_rate": "off",
        "message_rate": "off",
    }
    settings.update((name, value) for name, value in options.items() if name not in own)
    config = {"gc_freeze_interval": 0, **{name: options[name] for name in own & set(options)}}
    return ServerConfig(db_url, ServeSettings(**settings), **config)


def served(client: TestClient) -> Services:
    """The services of the app running in ``client`` (entered: its lifespan's state)."""
    running: Services = client.app_state["services"]
    return running


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def descendants(pid: int) -> list[int]:
    """Every live process started by ``pid``, its children's children included (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class Server:
    """``hanamikoji serve`` in its own process, on loopback; ``options`` go to it (by
    default bots think in threads and act at once). Its stderr is kept in a file (named
    after ``db_path``, the SQLite file, unless ``db_url`` names another database)."""

    def __init__(self, db_path: Path, port: int, *options: str, db_url: str | None = None) -> None:
        self.db_url = db_url or f"sqlite:///{db_path}"
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.options = options or ("--bot-delay", "0", "--bot-processes", "0")
        self.stderr_path = db_path.with_suffix(".stderr")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "hanamikoji.interfaces.web_cli",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--log-level",
            "warning",
            *self.options,
        ]
        with self.stderr_path.open("ab") as stderr:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped with status {self.process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path.exists() else ""

    def __enter__(self) -> Server:
        """``with Server(...) as server:`` starts it, and stops it however the block ends."""
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def kill(self) -> None:
        """Stop it the hard way, as a crash would: no goodbye to anyone."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None
