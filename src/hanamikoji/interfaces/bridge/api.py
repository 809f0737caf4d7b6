"""The bot API's client side over HTTP (httpx): the two NDJSON streams read line by
line, the actions posted, every request with the token as ``Authorization: Bearer``.

A stream's keep-alive lines (an empty line every few seconds) are skipped; a stream
that stays silent longer than ``stream_timeout`` is taken for a dropped one (httpx's
read timeout). A refused request raises :class:`ApiError` with the server's code
(``err_token``, ``err_not_your_turn``, ...); :attr:`ApiError.transient` says whether
trying again later may work (a 5xx or a 429). A connection that fails raises httpx's
``TransportError``, transient too (:func:`transient`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote

import httpx

from hanamikoji import __version__
from hanamikoji.interfaces.bridge.events import Event, Unknown, decode_line

__all__ = ["KEEPALIVE_SECONDS", "ApiError", "BotApi", "path_part", "transient"]

KEEPALIVE_SECONDS = 7.0
"""How often the server sends a keep-alive line (the contract's 7 s)."""


class ApiError(Exception):
    """A request the server refused: its HTTP ``status``, the error ``code`` of its
    JSON body (``""`` when it had none) and ``retry_after`` seconds for a 429."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None) -> None:
        super().__init__(f"{status} {code or 'error'}: {message}".rstrip(": "))
        self.status = status
        self.code = code
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        """Whether the same request may work later: the server's trouble (5xx) or a rate."""
        return self.status >= 500 or self.status == 429


def transient(error: BaseException) -> bool:
    """Whether ``error`` is worth trying again after a pause: a dropped or failed
    connection, a server's 5xx, a 429."""
    if isinstance(error, ApiError):
        return error.transient
    return isinstance(error, httpx.TransportError)


async def _refusal(response: httpx.Response) -> ApiError:
    body = await response.aread()
    code, message = "", ""
    try:
        data = json.loads(body)
        if isinstance(data, dict):
            code = str(data.get("error") or data.get("code") or "")
            message = str(data.get("message") or "")
    except ValueError:
        message = body[:200].decode("utf-8", "replace")
    retry: float | None = None
    header = response.headers.get("Retry-After")
    if header is not None:
        try:
            retry = max(0.0, float(header))
        except ValueError:
            retry = None
    return ApiError(response.status_code, code, message, retry)


class BotApi:
    """One server's bot API for one token. Use as an async context manager (or call
    :meth:`aclose`). ``transport`` replaces the network (tests)."""

    def __init__(
        self,
        server: str,
        token: str,
        *,
        timeout: float = 10.0,
        stream_timeout: float = 3 * KEEPALIVE_SECONDS,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.stream_timeout = stream_timeout
        self._client = httpx.AsyncClient(
            base_url=self.server,
            headers={
                "Authorization": f"Bearer {token}",
                "User-Agent": f"hanamikoji-bridge/{__version__}",
                "Accept": "application/json, application/x-ndjson",
            },
            timeout=httpx.Timeout(timeout),
            transport=transport,
        )

    async def __aenter__(self) -> BotApi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._client.aclose()

    # -- streams ------------------------------------------------------------------------

    @asynccontextmanager
    async def stream(self, path: str) -> AsyncIterator[AsyncIterator[Event | Unknown]]:
        """A stream's events, keep-alive lines skipped; raises :class:`ApiError` when
        the server refuses it, ``TransportError`` when the connection fails or stays
        silent too long."""
        timeout = httpx.Timeout(self._client.timeout.connect, read=self.stream_timeout)
        async with self._client.stream("GET", path, timeout=timeout) as response:
            if response.status_code != 200:
                raise await _refusal(response)
            yield _events(response)

    # -- requests -----------------------------------------------------------------------

    async def get(self, path: str) -> Any:
        response = await self._client.get(path)
        if response.status_code != 200:
            raise await _refusal(response)
        return response.json()

    async def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        response = await self._client.post(path, json=body)
        if response.status_code not in (200, 201, 204):
            raise await _refusal(response)
        return response.json() if response.content else None

    async def account(self) -> dict[str, Any]:
        """``GET /api/account``: the token's account (``id``, ``name``, ``bot``)."""
        found = await self.get("/api/account")
        if not isinstance(found, dict):
            raise ApiError(200, "", "the account is not a JSON object", None)
        return found

    async def move(self, game: str, decision: str) -> None:
        """Post a decision in our notation (in the body: it holds ``/`` and ``:``)."""
        await self.post(f"/api/bot/game/{path_part(game)}/move", {"decision": decision})

    async def resign(self, game: str) -> None:
        await self.post(f"/api/bot/game/{path_part(game)}/resign")

    async def abort(self, game: str) -> None:
        await self.post(f"/api/bot/game/{path_part(game)}/abort")

    async def chat(self, game: str, text: str, room: str = "player") -> None:
        await self.post(f"/api/bot/game/{path_part(game)}/chat", {"room": room, "text": text})

    async def accept(self, challenge: str) -> None:
        await self.post(f"/api/challenge/{path_part(challenge)}/accept")

    async def decline(self, challenge: str) -> None:
        await self.post(f"/api/challenge/{path_part(challenge)}/decline")


def path_part(identifier: str) -> str:
    """An id as one path segment, whatever it holds."""
    return quote(identifier, safe="")


async def _events(response: httpx.Response) -> AsyncIterator[Event | Unknown]:
    async for line in response.aiter_lines():
        if line.strip():
            yield decode_line(line)
