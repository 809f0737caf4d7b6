"""The bot API's door (docs/bot-api.md): a personal token in ``Authorization: Bearer``,
its scope, and its rates. A session cookie never opens an API route, and a token never
opens a page's session: the API's routes read the bearer token and nothing else.

* ``err_token`` (401, ``WWW-Authenticate: Bearer``): no token, not a token's form,
  unknown, or revoked.
* ``err_scope`` (403): the token does not hold the route's scope.
* ``err_rate`` (429, ``Retry-After``): over the token's rate. Decisions and chat share
  one bucket (:data:`ACTION_RATE`), challenges and stream opens another
  (:data:`OPEN_RATE`), counted per token in this instance's memory.

>>> bearer_text({"authorization": "Bearer hmk_abc"}), bearer_text({"authorization": "Basic x"})
('hmk_abc', None)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from hanamikoji.interfaces.web.db.api_tokens import ApiTokenStore, TokenOwner
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["ACTION_RATE", "OPEN_RATE", "Bearer", "TokenRates", "bearer_text"]

ACTION_RATE = "60 per 2 seconds"
"""Decisions and chat lines per token: 30 a second on average, 60 at once."""

OPEN_RATE = "20 per minute"
"""Challenges sent and streams opened per token."""

_MAX_HEADER = 200


def bearer_text(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or ``None``."""
    value = headers.get("authorization", "")
    if len(value) > _MAX_HEADER:
        return None
    scheme, _, token = value.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


class TokenRates:
    """The per-token rates (:data:`ACTION_RATE`, :data:`OPEN_RATE`)."""

    def __init__(self, action: str = ACTION_RATE, opening: str = OPEN_RATE) -> None:
        self.action = parse(action)
        self.opening = parse(opening)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, bucket: str, token_id: str) -> None:
        """Count one use of ``bucket`` (``action`` or ``open``); :class:`Refused`
        (``err_rate`` with the seconds to wait) when over its rate."""
        rate = self.action if bucket == "action" else self.opening
        if self.limiter.hit(rate, bucket, token_id):
            return
        reset, _ = self.limiter.get_window_stats(rate, bucket, token_id)
        raise Refused("err_rate", seconds=max(1, round(reset - time.time())))


class Bearer:
    """Opens the API's routes: the token's owner, its scope checked, its use noted.

    Args:
        tokens: the tokens' queries.
        run: runs a blocking write on the server's writer (``last_used``).
        now: the server's clock, ms since the epoch.
    """

    def __init__(
        self,
        tokens: ApiTokenStore,
        run: Callable[[Callable[[], Any]], Awaitable[Any]],
        now: Callable[[], int],
    ) -> None:
        self.tokens = tokens
        self.run = run
        self.now = now
        self.rates = TokenRates()

    async def owner(self, connection: HTTPConnection, scopes: tuple[str, ...]) -> TokenOwner:
        """The owner of the request's token if it holds one of ``scopes``; else
        :class:`Refused` (``err_token``, ``err_scope``)."""
        text = bearer_text(connection.headers)
        found = None if text is None else await asyncio.to_thread(self.tokens.owner, text)
        if found is None:
            raise Refused("err_token")
        if not found.scopes & set(scopes):
            raise Refused("err_scope", scope=" or ".join(scopes))
        now = self.now()
        if self.tokens.stale(found, now):
            token_id = found.token_id
            await self.run(lambda: self.tokens.touch(token_id, now))
        return found
