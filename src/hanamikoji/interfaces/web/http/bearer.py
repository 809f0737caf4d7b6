"""The bot API's door (docs/bot-api.md): a personal token in ``Authorization: Bearer``,
its scope, and its rates. A session cookie never opens an API route, and a token never
opens a page's session: the API's routes read the bearer token and nothing else.

* ``err_token`` (401, ``WWW-Authenticate: Bearer``): no token, not a token's form,
  unknown, or revoked.
* ``err_scope`` (403): the token does not hold the route's scope.
* ``err_rate`` (429, ``Retry-After``): over the token's rate. Decisions and chat share
  one bucket (:data:`ACTION_RATE`), challenges and stream opens another
  (:data:`OPEN_RATE`), counted per token in this instance's memory.

A token found is kept for :data:`KEEP_S` seconds (:class:`KeptOwners`), so a bot's
decisions do not each hash and look up their token. A revocation or a bot upgrade drops
the account's kept tokens at once: on the instance that wrote it (:meth:`Bearer.forget`)
and, through the write's event (``db/api_tokens.TOPIC``), on every other; an instance
whose listener lost its connection drops them all. Without events (a listener down) a
revoked token opens nothing after :data:`KEEP_S` seconds at the latest.

>>> bearer_text({"authorization": "Bearer hmk_abc"}), bearer_text({"authorization": "Basic x"})
('hmk_abc', None)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from hanamikoji.interfaces.web.cluster.events import Event, Listener
from hanamikoji.interfaces.web.db.api_tokens import (
    TOPIC,
    ApiTokenStore,
    TokenOwner,
    looks_like_token,
)
from hanamikoji.interfaces.web.db.tokens import hash_token
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "ACTION_RATE",
    "KEEP_S",
    "MAX_KEPT",
    "OPEN_RATE",
    "Bearer",
    "KeptOwners",
    "TokenRates",
    "bearer_text",
]

ACTION_RATE = "60 per 2 seconds"
"""Decisions and chat lines per token: 30 a second on average, 60 at once."""

OPEN_RATE = "20 per minute"
"""Challenges sent and streams opened per token."""

KEEP_S = 10.0
"""Seconds a token found is kept before it is looked up again."""

MAX_KEPT = 10_000
"""The most tokens kept at once (the oldest go first)."""

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


class KeptOwners:
    """The owners of the tokens found lately, by the token's hash, each for
    :data:`KEEP_S` seconds; a lookup that began before a :meth:`forget` is not kept.

    >>> owner = TokenOwner("t1", frozenset({"read"}), "p1", "Ann", False, None)
    >>> kept = KeptOwners(clock=lambda: 0.0)
    >>> kept.keep("h1", owner, kept.generation); kept.get("h1") == owner
    True
    >>> kept.forget("p1"); kept.get("h1") is None
    True
    """

    def __init__(
        self,
        keep_s: float = KEEP_S,
        most: int = MAX_KEPT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.keep_s = keep_s
        self.most = most
        self.clock = clock
        self.generation = 0
        self._owners: dict[str, tuple[float, TokenOwner]] = {}

    def get(self, hashed: str) -> TokenOwner | None:
        found = self._owners.get(hashed)
        if found is None:
            return None
        if found[0] <= self.clock():
            del self._owners[hashed]
            return None
        return found[1]

    def keep(self, hashed: str, owner: TokenOwner, generation: int) -> None:
        """Keep ``owner``, found by a lookup that began at ``generation``."""
        if generation != self.generation:
            return  # a forget came meanwhile: what was read may be gone
        self._owners.pop(hashed, None)
        while len(self._owners) >= self.most:
            del self._owners[next(iter(self._owners))]
        self._owners[hashed] = (self.clock() + self.keep_s, owner)

    def update(self, hashed: str, owner: TokenOwner) -> None:
        """``owner`` changed (its ``last_used``): kept as it is now, if it is kept."""
        found = self._owners.get(hashed)
        if found is not None:
            self._owners[hashed] = (found[0], owner)

    def forget(self, player_id: str | None = None) -> None:
        """Drop the account's kept tokens (``None``: everyone's)."""
        self.generation += 1
        if player_id is None:
            self._owners.clear()
            return
        for hashed, (_, owner) in list(self._owners.items()):
            if owner.player_id == player_id:
                del self._owners[hashed]


class Bearer:
    """Opens the API's routes: the token's owner, its scope checked, its use noted.

    Args:
        tokens: the tokens' queries.
        run: runs a blocking write on the server's writer (``last_used``).
        now: the server's clock, ms since the epoch.
        listener: the other instances' events (PostgreSQL): their revocations.
        kept: the tokens found lately (tests give one with a clock of their own).
    """

    def __init__(
        self,
        tokens: ApiTokenStore,
        run: Callable[[Callable[[], Any]], Awaitable[Any]],
        now: Callable[[], int],
        listener: Listener | None = None,
        kept: KeptOwners | None = None,
    ) -> None:
        self.tokens = tokens
        self.run = run
        self.now = now
        self.rates = TokenRates()
        self.kept = KeptOwners() if kept is None else kept
        if listener is not None:
            listener.on(TOPIC, self._changed)
            listener.on_reconnect(self._reconnected)

    async def _changed(self, event: Event) -> None:
        self.kept.forget(event.key)

    async def _reconnected(self) -> None:
        self.kept.forget()

    def forget(self, player_id: str) -> None:
        """What the account's tokens open changed here (revoked, upgraded): none of
        them is kept any longer (the other instances hear of it from the write's
        event)."""
        self.kept.forget(player_id)

    async def owner(self, connection: HTTPConnection, scopes: tuple[str, ...]) -> TokenOwner:
        """The owner of the request's token if it holds one of ``scopes``; else
        :class:`Refused` (``err_token``, ``err_scope``)."""
        text = bearer_text(connection.headers)
        if text is None or not looks_like_token(text):
            raise Refused("err_token")
        hashed = hash_token(text)
        found = self.kept.get(hashed)
        if found is None:
            generation = self.kept.generation
            found = await asyncio.to_thread(self.tokens.owner_of_hash, hashed)
            if found is None:
                raise Refused("err_token")
            self.kept.keep(hashed, found, generation)
        if not found.scopes & set(scopes):
            raise Refused("err_scope", scope=" or ".join(scopes))
        now = self.now()
        if self.tokens.stale(found, now):
            token_id = found.token_id
            self.kept.update(hashed, replace(found, last_used=now))
            await self.run(lambda: self.tokens.touch(token_id, now))
        return found
