"""Personal API tokens (the bot API, docs/bot-api.md): an account's tokens, each with a
name and scopes, kept only as the SHA-256 hash of the token, which is shown once.

A token is ``hmk_`` and 43 URL-safe characters (256 random bits). The features that
answer a token (``api/``, ``bots/``) read its owner here; a revoked token opens nothing.
A write that changes what an account's tokens open (a revocation, the bot upgrade) sends
:data:`TOPIC` with its commit (:func:`tokens_changed`): the instances drop the owners
they keep (``http/bearer.py``).

>>> from datetime import UTC, datetime
>>> from hanamikoji.interfaces.web.db.database import Store
>>> store = Store("sqlite://")
>>> with store.transaction() as connection:  # the account "p1" (players/ makes them)
...     _ = connection.execute(insert(players).values(
...         id="p1", kind="account", name="Ann", created=datetime.now(UTC)))
>>> tokens = ApiTokenStore(store)
>>> made, text = tokens.create("p1", "my engine", ("bot:play",), 1000)
>>> text.startswith(TOKEN_PREFIX), len(text), tokens.owner(text).player_id
(True, 47, 'p1')
>>> tokens.revoke("p1", made.id, 2000), tokens.owner(text)
(True, None)
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import api_tokens, players
from hanamikoji.interfaces.web.db.tokens import hash_token

__all__ = [
    "MAX_TOKENS",
    "SCOPES",
    "TOKEN_PREFIX",
    "TOPIC",
    "ApiToken",
    "ApiTokenStore",
    "Scope",
    "TokenOwner",
    "looks_like_token",
    "tokens_changed",
]

Scope = Literal["bot:play", "read"]
SCOPES: tuple[Scope, ...] = ("bot:play", "read")
"""The scopes a token may hold: play as a bot (streams, decisions, challenges), read
the account."""

TOKEN_PREFIX = "hmk_"
TOKEN_CHARS = 43
"""The URL-safe characters after the prefix (``secrets.token_urlsafe(32)``)."""

MAX_TOKENS = 20
"""The most tokens in use one account may hold."""

TOUCH_MS = 60_000
"""How stale ``last_used`` may get before a use writes it again."""

TOPIC = "api_tokens"
"""The event of a write that changes what an account's tokens open (its key: the
account's id)."""

_URL_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def looks_like_token(text: str) -> bool:
    """Whether ``text`` has a token's form (checked before any hash or query)."""
    body = text[len(TOKEN_PREFIX) :]
    return text.startswith(TOKEN_PREFIX) and len(body) == TOKEN_CHARS and set(body) <= _URL_SAFE


def tokens_changed(connection: Connection, player_id: str, instance: str) -> None:
    """Tell the other instances, with ``connection``'s commit, that what the account's
    tokens open changed (PostgreSQL only)."""
    notify(connection, Event(TOPIC, player_id, instance))


@dataclass(frozen=True, slots=True)
class ApiToken:
    """A token as its account lists it (never the token itself)."""

    id: str
    name: str
    scopes: tuple[str, ...]
    created: int
    last_used: int | None


@dataclass(frozen=True, slots=True)
class TokenOwner:
    """What a token in use opens: its id and scopes, the account's id and name, and
    whether the account is a bot."""

    token_id: str
    scopes: frozenset[str]
    player_id: str
    name: str
    bot: bool
    last_used: int | None


class ApiTokenStore:
    """The tokens' statements, on the connections of ``store`` (writes on the writer)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(
        self, player_id: str, name: str, scopes: tuple[str, ...], now: int
    ) -> tuple[ApiToken, str]:
        """A new token of the account: its row, and its text (shown once)."""
        text = TOKEN_PREFIX + secrets.token_urlsafe(32)
        made = ApiToken(secrets.token_urlsafe(9), name, scopes, now, None)
        with self.store.transaction() as connection:
            connection.execute(
                insert(api_tokens).values(
                    id=made.id,
                    player_id=player_id,
                    name=name,
                    scopes=" ".join(scopes),
                    token_hash=hash_token(text),
                    created_ms=now,
                )
            )
        return made, text

    def listed(self, player_id: str) -> list[ApiToken]:
        """The account's tokens in use, oldest first."""
        query = (
            select(api_tokens)
            .where(api_tokens.c.player_id == player_id, api_tokens.c.revoked_ms.is_(None))
            .order_by(api_tokens.c.created_ms, api_tokens.c.id)
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        return [_token(row._mapping) for row in rows]

    def count(self, player_id: str) -> int:
        return len(self.listed(player_id))

    def revoke(self, player_id: str, token_id: str, now: int) -> bool:
        """Revoke one of the account's tokens in use; ``False`` if it has none of that id."""
        with self.store.transaction() as connection:
            done = connection.execute(
                update(api_tokens)
                .where(
                    api_tokens.c.id == token_id,
                    api_tokens.c.player_id == player_id,
                    api_tokens.c.revoked_ms.is_(None),
                )
                .values(revoked_ms=now)
            )
            tokens_changed(connection, player_id, self.store.instance)
        return done.rowcount == 1

    def owner(self, text: str) -> TokenOwner | None:
        """What the token ``text`` opens, or ``None`` (malformed, unknown or revoked)."""
        return self.owner_of_hash(hash_token(text)) if looks_like_token(text) else None

    def owner_of_hash(self, hashed: str) -> TokenOwner | None:
        """What the token of hash ``hashed`` opens, or ``None`` (unknown or revoked)."""
        query = (
            select(
                api_tokens.c.id,
                api_tokens.c.scopes,
                api_tokens.c.last_used_ms,
                players.c.id.label("player_id"),
                players.c.name,
                players.c.bot,
            )
            .join(players, players.c.id == api_tokens.c.player_id)
            .where(api_tokens.c.token_hash == hashed, api_tokens.c.revoked_ms.is_(None))
        )
        with self.store.connection() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        found = row._mapping
        last = found["last_used_ms"]
        return TokenOwner(
            token_id=str(found["id"]),
            scopes=frozenset(str(found["scopes"]).split()),
            player_id=str(found["player_id"]),
            name=str(found["name"]),
            bot=bool(found["bot"]),
            last_used=None if last is None else int(last),
        )

    def touch(self, token_id: str, now: int) -> None:
        """Note that the token was used ``now``."""
        with self.store.transaction() as connection:
            connection.execute(
                update(api_tokens).where(api_tokens.c.id == token_id).values(last_used_ms=now)
            )

    @staticmethod
    def stale(owner: TokenOwner, now: int) -> bool:
        """Whether a use now should write ``last_used`` again."""
        return owner.last_used is None or now - owner.last_used >= TOUCH_MS


def _token(row: Any) -> ApiToken:
    last = row["last_used_ms"]
    return ApiToken(
        id=str(row["id"]),
        name=str(row["name"]),
        scopes=tuple(str(row["scopes"]).split()),
        created=int(row["created_ms"]),
        last_used=None if last is None else int(last),
    )
