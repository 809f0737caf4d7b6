"""What an e-mail address must look like, and the signed links e-mails carry.

An address is checked by a plain rule (ASCII, one ``@``, a local part of the usual
characters, a domain of dotted labels; at most 254 characters), never by sending to it:
its verification link is what proves it. A **verification link** names the player and
an expiry, signed (HMAC-SHA256) with a key every server on the database shares, over the
address it was sent to: a link for an address since changed, a forged one and an expired
one are refused (``err_email_token``, ``err_email_expired``). An **unsubscribe link**
names the player, signed over the address: one click, no sign-in, never expires while
the address stays.

>>> keys = LinkKeys("server secret")
>>> token = keys.verification("p1", "ann@example.org", 5_000)
>>> keys.check_verification(token, "ann@example.org", now=4_000)
'p1'
>>> keys.check_verification(token, "bob@example.org", now=4_000)
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_email_token
>>> keys.check_verification(token, "ann@example.org", now=6_000)
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_email_expired
>>> unsubscribe = keys.unsubscribe("p1", "ann@example.org")
>>> link_player(unsubscribe), keys.check_unsubscribe(unsubscribe, "ann@example.org")
('p1', 'p1')
>>> check_address(" Ann@Example.org "), check_address("ann@example")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_email_address
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "MAX_ADDRESS",
    "VERIFY_HOURS",
    "LinkKeys",
    "check_address",
    "link_player",
]

MAX_ADDRESS = 254
"""The longest address taken (RFC 5321's path limit less its brackets)."""

VERIFY_HOURS = 24
"""How long a verification link works."""

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ADDRESS = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    rf"@{_LABEL}(?:\.{_LABEL})*\.[A-Za-z]{{2,63}}"
)
_TOKEN = re.compile(r"[A-Za-z0-9_.-]{1,200}")


def check_address(text: str) -> str:
    """The address ``text`` says (spaces around it dropped), or :class:`Refused`
    (``err_email_address``) when it is not one."""
    address = text.strip()
    local, _, _ = address.partition("@")
    if len(address) > MAX_ADDRESS or len(local) > 64 or not _ADDRESS.fullmatch(address):
        raise Refused("err_email_address")
    return address


def link_player(token: str) -> str:
    """The player a link's token names (its signature not yet checked), or
    :class:`Refused` (``err_email_token``) for what is no token."""
    if not _TOKEN.fullmatch(token) or "." not in token:
        raise Refused("err_email_token")
    return token.split(".", 1)[0]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class LinkKeys:
    """Signs and checks the links of e-mails with one server secret."""

    def __init__(self, secret: str) -> None:
        self._key = secret.encode("utf-8")

    def _mac(self, *parts: str) -> str:
        message = "\n".join(parts).encode("utf-8")
        return _b64(hmac.new(self._key, message, hashlib.sha256).digest())

    def verification(self, player_id: str, address: str, expires_ms: int) -> str:
        """The token of a link that verifies ``address`` until ``expires_ms``."""
        mac = self._mac("verify", player_id, address.casefold(), str(expires_ms))
        return f"{player_id}.{expires_ms}.{mac}"

    def check_verification(self, token: str, address: str, now: int) -> str:
        """The player of a verification token signed for ``address``; refused when it is
        forged or for another address (``err_email_token``), or too old
        (``err_email_expired``)."""
        player_id = link_player(token)
        _, expires, mac = [*token.split("."), "", ""][:3]
        if not expires.isdigit() or len(expires) > 15:
            raise Refused("err_email_token")
        wanted = self._mac("verify", player_id, address.casefold(), expires)
        if not hmac.compare_digest(mac, wanted):
            raise Refused("err_email_token")
        if int(expires) <= now:
            raise Refused("err_email_expired")
        return player_id

    def unsubscribe(self, player_id: str, address: str) -> str:
        """The token of a link that turns a player's e-mails off."""
        return f"{player_id}.{self._mac('unsubscribe', player_id, address.casefold())}"

    def check_unsubscribe(self, token: str, address: str) -> str:
        """The player of an unsubscribe token signed for ``address``, or refused
        (``err_email_token``)."""
        player_id = link_player(token)
        mac = token.split(".", 1)[1]
        if not hmac.compare_digest(mac, self._mac("unsubscribe", player_id, address.casefold())):
            raise Refused("err_email_token")
        return player_id
