"""Passwords, kept as Argon2id hashes (argon2-cffi's ``PasswordHasher``, rehashed at the
next sign-in when its parameters change). Signing in with a name nobody has costs the
same hash as a wrong password (:meth:`Passwords.decoy`)."""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = ["Passwords"]


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
