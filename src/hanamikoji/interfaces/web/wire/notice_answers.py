"""The JSON the e-mail routes answer (``notices/routes.py``), as typed Structs: only ever
to the account itself (an address is never shown to anybody else)."""

from __future__ import annotations

from hanamikoji.interfaces.web.wire.outgoing import WireStruct

__all__ = ["NOTICE_ANSWERS", "EmailSettings"]


class EmailSettings(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/me/email`` and what its changes answer: whether this server sends
    e-mail at all (``enabled``), the account's address (``null``: none), whether it is
    verified, and whether the player is e-mailed when it is their turn in a
    correspondence game."""

    enabled: bool
    address: str | None
    verified: bool
    notify: bool


NOTICE_ANSWERS = (EmailSettings,)
"""Every answer of the e-mail routes (``wire/typescript.py`` declares them for the page)."""
