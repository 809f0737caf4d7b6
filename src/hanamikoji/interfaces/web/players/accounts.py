"""Players of the web app: guests and accounts, and the sessions they sign in with.

* **Guests** choose a nickname and get a session cookie; nothing else is asked.
* **Accounts** have a name and a password (``names.py``, ``passwords.py``). A guest who
  registers becomes the account, with every game it played.
* A **session** is a row of the database, its id in a signed cookie (``cookies.py``);
  signing out deletes the row.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.players.cookies import SessionKeys, new_session_id, session_hash
from hanamikoji.interfaces.web.players.names import (
    check_account_name,
    check_nickname,
    check_password,
)
from hanamikoji.interfaces.web.players.passwords import Passwords
from hanamikoji.interfaces.web.players.store import (
    NameTakenError,
    Player,
    PlayerStore,
    new_player,
)
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["Accounts", "Session"]


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
