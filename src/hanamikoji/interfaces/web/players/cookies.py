"""Session cookies and CSRF tokens.

* **Sessions** are server-side rows (the SHA-256 of a random id, :func:`session_hash`);
  the cookie carries the id signed with a key every server on the database shares
  (``server_secrets``), so a forged cookie is refused before any query.
* **CSRF**: every request a session cookie authenticates and that changes something
  carries the session's CSRF token (an HMAC of its id) in ``X-CSRF-Token``, which only a
  page of this site can read (``GET /api/me``), and passes the Origin check.

>>> keys = SessionKeys("server secret")
>>> session_id = new_session_id()
>>> cookie = keys.cookie(session_id)
>>> keys.session_id(cookie) == session_id, keys.session_id(cookie[:-1] + "x")
(True, None)
>>> keys.csrf_ok(session_id, keys.csrf_token(session_id)), keys.csrf_ok(session_id, "")
(True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

__all__ = ["CookieSettings", "SessionKeys", "new_session_id", "session_hash"]


@dataclass(frozen=True, slots=True)
class CookieSettings:
    """The session cookie: ``Secure`` (and named with the ``__Host-`` prefix) when the
    server is reached over https, and how long a session lasts."""

    secure: bool
    lifetime: timedelta

    @property
    def name(self) -> str:
        return "__Host-hanamikoji_session" if self.secure else "hanamikoji_session"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class SessionKeys:
    """Signs session ids into cookie values and derives their CSRF tokens, with one
    server secret (the same on every server of the database)."""

    def __init__(self, secret: str) -> None:
        self._key = secret.encode("utf-8")

    def _mac(self, purpose: str, session_id: str) -> str:
        message = f"{purpose}:{session_id}".encode()
        return _b64(hmac.new(self._key, message, hashlib.sha256).digest())

    def cookie(self, session_id: str) -> str:
        """The cookie value of a session: its id and the id's signature."""
        return f"{session_id}.{self._mac('session', session_id)}"

    def session_id(self, cookie: str) -> str | None:
        """The session id of a cookie value whose signature is ours, else ``None``."""
        session_id, dot, signature = cookie.rpartition(".")
        if not dot or not session_id or len(cookie) > 200:
            return None
        if not hmac.compare_digest(signature, self._mac("session", session_id)):
            return None
        return session_id

    def csrf_token(self, session_id: str) -> str:
        return self._mac("csrf", session_id)

    def csrf_ok(self, session_id: str, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token, self.csrf_token(session_id))


def new_session_id() -> str:
    """A fresh session id (256 random bits)."""
    return secrets.token_urlsafe(32)


def session_hash(session_id: str) -> str:
    """What the database keeps of a session id."""
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()
