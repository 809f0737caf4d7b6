"""Players of the web app: guests and accounts, passwords, sessions and CSRF tokens.

* **Guests** choose a nickname and get a session cookie; nothing else is asked.
* **Accounts** have a name (3-20 letters A-Z, digits, ``_`` or ``-``; unique whatever its
  case; bot and seat names reserved) and a password, kept as an Argon2id hash
  (argon2-cffi's ``PasswordHasher``, rehashed at the next sign-in when its parameters
  change). Signing in with a name nobody has costs the same hash as a wrong password.
  A guest who registers becomes the account, with every game it played.
* **Sessions** are server-side rows (the SHA-256 of a random id); the cookie carries the
  id signed with a key every server on the database shares (``server_secrets``), so a
  forged cookie is refused before any query. Signing out deletes the row.
* **CSRF**: every request a session cookie authenticates and that changes something
  carries the session's CSRF token (an HMAC of its id) in ``X-CSRF-Token``, which only a
  page of this site can read (``GET /api/me``), and passes the Origin check.

>>> check_account_name("Ann_1")
'Ann_1'
>>> check_account_name("bot-level-3")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.checks.Refused: err_name_reserved
>>> check_nickname("  Hana   mi ")
'Hana mi'
>>> keys = SessionKeys("server secret")
>>> session_id = new_session_id()
>>> cookie = keys.cookie(session_id)
>>> keys.session_id(cookie) == session_id, keys.session_id(cookie[:-1] + "x")
(True, None)
>>> keys.csrf_ok(session_id, keys.csrf_token(session_id)), keys.csrf_ok(session_id, "")
(True, False)
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from hanamikoji.bots.levels import LEVELS
from hanamikoji.interfaces.web.checks import Refused
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.player_store import (
    NameTakenError,
    Player,
    PlayerStore,
    new_player,
)

__all__ = [
    "NAME_LENGTH",
    "NICKNAME_LENGTH",
    "PASSWORD_LENGTH",
    "Accounts",
    "Passwords",
    "Session",
    "SessionKeys",
    "check_account_name",
    "check_nickname",
    "check_password",
    "is_reserved",
]

NAME_LENGTH = (3, 20)
NICKNAME_LENGTH = (2, 20)
PASSWORD_LENGTH = (8, 256)

_ACCOUNT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_NICKNAME_PUNCTUATION = frozenset(" _-.'")

RESERVED_NAMES = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "api",
        "friend",
        "guest",
        "hanamikoji",
        "learn",
        "learned",
        "me",
        "moderator",
        "nobody",
        "opponent",
        "root",
        "rules",
        "static",
        "staff",
        "support",
        "system",
        "you",
    }
    | {level.bot for level in LEVELS.values()}
)
"""Names nobody may take, compared without case, spaces, dots, dashes or underscores."""

_RESERVED_FORM = re.compile(r"(bot|level|player|guest|anonymous)(level)?\d*")
"""Bots, levels, seats and guests by any numbering: ``Bot level 3``, ``player2``..."""


def is_reserved(name: str) -> bool:
    """Whether ``name`` would pass for a bot, a level, a seat or the site."""
    folded = re.sub(r"[\s._\-]", "", unicodedata.normalize("NFKC", name).casefold())
    return folded in RESERVED_NAMES or _RESERVED_FORM.fullmatch(folded) is not None


def check_account_name(name: str) -> str:
    """An account's name as it will be shown, or :class:`Refused` naming the rule."""
    low, high = NAME_LENGTH
    if not low <= len(name) <= high:
        raise Refused("err_name_length", min=low, max=high)
    if _ACCOUNT_NAME.fullmatch(name) is None:
        raise Refused("err_name_chars")
    if is_reserved(name):
        raise Refused("err_name_reserved", name=name)
    return name


def check_nickname(nickname: str) -> str:
    """A guest's nickname as it will be shown (NFKC, single spaces), or :class:`Refused`:
    letters of any script, digits, spaces and ``_ - . '``."""
    shown = " ".join(unicodedata.normalize("NFKC", nickname).split())
    low, high = NICKNAME_LENGTH
    if not low <= len(shown) <= high:
        raise Refused("err_nickname_length", min=low, max=high)
    for char in shown:
        if unicodedata.category(char)[0] not in "LMN" and char not in _NICKNAME_PUNCTUATION:
            raise Refused("err_nickname_chars")
    if is_reserved(shown):
        raise Refused("err_name_reserved", name=shown)
    return shown


def check_password(password: str) -> str:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise Refused("err_password_length", min=low, max=high)
    return password


# -- passwords ----------------------------------------------------------------------------


class Passwords:
    """Argon2id hashes, computed in threads, at most ``at_once`` at a time (each takes
    tens of milliseconds and 64 MiB with the default parameters).

    Args:
        hasher: the parameters (argon2-cffi's recommended ones unless given).
        at_once: hashes computed at the same time; more wait their turn.
    """

    def __init__(self, hasher: PasswordHasher | None = None, at_once: int = 2) -> None:
        self.hasher = hasher or PasswordHasher()
        self._turns = asyncio.Semaphore(at_once)
        self._decoy: str | None = None

    async def hash(self, password: str) -> str:
        async with self._turns:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password_hash: str, password: str) -> bool:
        async with self._turns:
            return await asyncio.to_thread(self._verify, password_hash, password)

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def decoy(self, password: str) -> None:
        """Spend what checking a real hash costs, for a name nobody has: a sign-in
        fails in the same time whether the name exists or not."""
        if self._decoy is None:
            self._decoy = await self.hash(secrets.token_urlsafe(16))
        await self.verify(self._decoy, password)

    def needs_rehash(self, password_hash: str) -> bool:
        return self.hasher.check_needs_rehash(password_hash)


# -- cookies and CSRF tokens --------------------------------------------------------------


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


# -- the accounts ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in browser: its session id (in its cookie only) and its player."""

    id: str
    player: Player


class Accounts:
    """Registering, signing in and out, guests, and the session a cookie opens.

    Args:
        store: the players' tables.
        writer: the server's writer thread (every write goes through it).
        keys: signs cookies and derives CSRF tokens.
        passwords: Argon2 hashing.
        lifetime: how long a session lasts from sign-in.
    """

    def __init__(
        self,
        store: PlayerStore,
        writer: DecisionWriter,
        keys: SessionKeys,
        passwords: Passwords,
        lifetime: timedelta,
    ) -> None:
        self.store = store
        self.writer = writer
        self.keys = keys
        self.passwords = passwords
        self.lifetime = lifetime

    async def register(self, name: str, password: str, current: Session | None) -> Session:
        """A new account, or the current guest made one (its games stay its own); a new
        session either way. Raises :class:`Refused`."""
        name = check_account_name(name)
        check_password(password)
        if current is not None and current.player.kind == "account":
            raise Refused("err_already_account", name=current.player.name)
        password_hash = await self.passwords.hash(password)
        try:
            if current is None:
                player = await self.writer.call(
                    lambda: self.store.create_player(new_player("account", name), password_hash)
                )
            else:
                guest_id = current.player.id
                made = await self.writer.call(
                    lambda: self.store.make_account(guest_id, name, password_hash)
                )
                if made is None:
                    raise Refused("err_signed_out")
                player = made
        except NameTakenError:
            raise Refused("err_name_taken", name=name) from None
        return await self._start(player, current)

    async def log_in(self, name: str, password: str, current: Session | None) -> Session:
        """The account's new session. Raises :class:`Refused` (``err_login_failed``,
        the same for an unknown name and a wrong password, in the same time)."""
        found = await asyncio.to_thread(self.store.account, name)
        if found is None:
            await self.passwords.decoy(password)
            raise Refused("err_login_failed")
        player, password_hash = found
        if not await self.passwords.verify(password_hash, password):
            raise Refused("err_login_failed")
        if self.passwords.needs_rehash(password_hash):
            fresh = await self.passwords.hash(password)
            await self.writer.call(lambda: self.store.set_password_hash(player.id, fresh))
        return await self._start(player, current)

    async def guest(self, nickname: str, current: Session | None) -> Session:
        """A new guest, or the current guest's new nickname (same session). Raises
        :class:`Refused` when an account is signed in."""
        nickname = check_nickname(nickname)
        if current is None:
            player = await self.writer.call(
                lambda: self.store.create_player(new_player("guest", nickname), None)
            )
            return await self._start(player, None)
        if current.player.kind == "account":
            raise Refused("err_already_account", name=current.player.name)
        guest_id = current.player.id
        renamed = await self.writer.call(lambda: self.store.rename_guest(guest_id, nickname))
        if renamed is None:
            raise Refused("err_signed_out")
        return Session(current.id, renamed)

    async def log_out(self, current: Session) -> None:
        id_hash = session_hash(current.id)
        await self.writer.call(lambda: self.store.delete_session(id_hash))

    async def session(self, cookie: str | None) -> Session | None:
        """The session a cookie value opens (signed by us, stored, not expired)."""
        session_id = None if cookie is None else self.keys.session_id(cookie)
        if session_id is None:
            return None
        player = await asyncio.to_thread(self.store.session_player, session_hash(session_id))
        return None if player is None else Session(session_id, player)

    def cookie(self, session: Session) -> str:
        """The value of the session's cookie."""
        return self.keys.cookie(session.id)

    def csrf_token(self, session: Session) -> str:
        return self.keys.csrf_token(session.id)

    async def _start(self, player: Player, replaced: Session | None) -> Session:
        """A new session for ``player``; the one it replaces is deleted (a session id
        never outlives a change of who is signed in)."""
        session_id = new_session_id()
        expires = datetime.now(UTC) + self.lifetime
        id_hash = session_hash(session_id)
        old = None if replaced is None else session_hash(replaced.id)

        def write() -> None:
            if old is not None:
                self.store.delete_session(old)
            self.store.create_session(id_hash, player.id, expires)

        await self.writer.call(write)
        return Session(session_id, player)
