"""Seat tokens: each seat of a game is played with an unguessable token, of which the
database keeps only a hash (``games.token_hash_0``, ``token_hash_1``).

>>> token = new_token()
>>> token_matches(token, hash_token(token)), token_matches(token, hash_token("other"))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["hash_token", "new_token", "token_matches"]


def new_token() -> str:
    """An unguessable seat token (256 random bits)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database keeps of a token: a leaked database lets nobody act for a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(hash_token(token), stored_hash)
