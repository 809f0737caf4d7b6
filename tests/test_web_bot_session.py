"""docs/bot-api.md's exact session, replayed (issue 50): every request of its
``session`` block is sent to a real server (the game's deal fixed), and every answer
and every NDJSON line it shows must be what the server sends, ids, tokens and times
normalised.

The block's lines: ``ann> METHOD PATH [JSON]`` a request with Ann's token (``ann`` and
``bob`` are two accounts signed in, each holding a token once it is made); ``ann< STATUS
[JSON]`` its answer; ``ann> GET /api/stream/...`` opens a stream; ``ann~event JSON`` and
``ann~game JSON`` are the next lines of Ann's event and game streams. Ids show as
``<id1>``, ``<id2>``... in order of first appearance, tokens as ``<token1>``..., times
as 0. ``HANAMIKOJI_WRITE_SESSION=FILE`` writes what the server said to FILE instead (to
update the page after a change of the API).
"""

from __future__ import annotations

import json
import os
import queue
import re
import secrets
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
from serving import app_config
from web_support import PASSWORD

from hanamikoji.interfaces.web.app import create_app

DOC = Path(__file__).resolve().parent.parent / "docs" / "bot-api.md"
TIME_KEYS = frozenset({"created", "last_used", "at", "started", "ended", "since"})
SEED = 50


def session_block() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"```session\n(.*?)```", text, re.S)
    assert found is not None, "docs/bot-api.md has no session block"
    return [line for line in found.group(1).splitlines() if line and not line.startswith("#")]


class Names:
    """Real ids and tokens to their shown placeholders, and back."""

    def __init__(self) -> None:
        self.shown: dict[str, str] = {}

    def name(self, value: str, kind: str) -> str:
        if value not in self.shown:
            count = sum(1 for shown in self.shown.values() if shown.startswith(f"<{kind}"))
            self.shown[value] = f"<{kind}{count + 1}>"
        return self.shown[value]

    def normal(self, node: Any, key: str = "") -> Any:
        if isinstance(node, dict):
            return {k: self.normal(v, k) for k, v in node.items()}
        if isinstance(node, list):
            return [self.normal(item) for item in node]
        if key in TIME_KEYS and isinstance(node, int):
            return 0
        if key in ("id", "game") and isinstance(node, str):
            return self.name(node, "id")
        if key == "token" and isinstance(node, str):
            return self.name(node, "token")
        return node

    def real(self, text: str) -> str:
        for value, shown in self.shown.items():
            text = text.replace(shown, value)
        return text


class Streams:
    """The NDJSON streams a player holds open, each read in a thread."""

    def __init__(self) -> None:
        self.lines: dict[str, queue.Queue[str]] = {}
        self.clients: list[httpx.Client] = []

    def open(self, key: str, url: str, token: str) -> None:
        lines: queue.Queue[str] = queue.Queue()
        self.lines[key] = lines
        client = httpx.Client(timeout=httpx.Timeout(10, read=60))
        self.clients.append(client)
        opened = threading.Event()

        def read() -> None:
            with suppress(httpx.HTTPError), client.stream("GET", url, headers=bearer(token)) as r:
                assert r.status_code == 200
                opened.set()
                for line in r.iter_lines():
                    if line.strip():
                        lines.put(line)
            opened.set()

        threading.Thread(target=read, daemon=True).start()
        assert opened.wait(10)

    def next(self, key: str) -> str:
        return self.lines[key].get(timeout=15)

    def close(self) -> None:
        for client in self.clients:
            client.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def live_server(tmp_path: Path) -> Iterator[str]:
    """The app in uvicorn, in a thread of this process (so the deal can be fixed)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = app_config(f"sqlite:///{tmp_path / 'games.sqlite'}", allowed_hosts=("127.0.0.1",))
    runner = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning"))
    thread = threading.Thread(target=runner.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    started = threading.Event()
    while not runner.started and thread.is_alive():
        started.wait(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        runner.should_exit = True
        thread.join(timeout=10)


def replay(url: str, lines: list[str]) -> list[str]:
    """Send the block's requests; what the server said, as the block writes it."""
    names = Names()
    streams = Streams()
    http = {who: httpx.Client(base_url=url, timeout=30) for who in ("ann", "bob")}
    tokens: dict[str, str] = {}
    csrf: dict[str, str] = {}
    for who, name in (("ann", "AnnBot"), ("bob", "BobBot")):
        made = http[who].post("/api/me/register", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        csrf[who] = made.json()["csrf"]
    said: list[str] = []
    try:
        for line in lines:
            who, mark, rest = line[:3], line[3], line[4:].strip()
            if mark == ">":
                said.append(line)
                method, path, *body = rest.split(" ", 2)
                path = names.real(path)
                if path.startswith(("/api/stream/", "/api/bot/game/stream/")):
                    kind = "event" if path.startswith("/api/stream/") else "game"
                    streams.open(f"{who}~{kind}", url + path, tokens[who])
                    continue
                headers = {"X-CSRF-Token": csrf[who]} if path.startswith("/api/tokens") else {}
                if who in tokens and not path.startswith("/api/tokens"):
                    headers = bearer(tokens[who])
                client = http[who]
                if not path.startswith("/api/tokens"):
                    client.cookies.clear()
                content = names.real(body[0]).encode() if body else None
                if content is not None:
                    headers["Content-Type"] = "application/json"
                response = client.request(method, path, content=content, headers=headers)
                answer = response.json() if response.content else None
                if path == "/api/tokens" and method == "POST" and response.status_code == 201:
                    tokens[who] = response.json()["token"]
                shown = "" if answer is None else " " + compact(names.normal(answer))
                said.append(f"{who}< {response.status_code}{shown}")
            elif mark == "<":
                continue  # the answer to the request before, said above
            else:
                key = f"{who}~{line[4:].split(' ', 1)[0]}"
                try:
                    found = json.loads(streams.next(key))
                except queue.Empty:
                    raise AssertionError(f"no line on {key} after: {said}") from None
                said.append(f"{key} {compact(names.normal(found))}")
    finally:
        streams.close()
        for client in http.values():
            client.close()
    return said


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_the_documented_session_is_what_the_server_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The deal: the seed the hub draws for a new game (secrets.randbelow), fixed.
    monkeypatch.setattr(secrets, "randbelow", lambda limit: SEED % limit)
    lines = session_block()
    with live_server(tmp_path) as url:
        said = replay(url, lines)
    target = os.environ.get("HANAMIKOJI_WRITE_SESSION")
    if target:
        Path(target).write_text("\n".join(said) + "\n", encoding="utf-8")
        return
    assert said == lines
