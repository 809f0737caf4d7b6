"""The rules of players' names: an account's name (3-20 letters A-Z, digits, ``_`` or
``-``; unique whatever its case, ``store.py`` sees to that), a guest's nickname (letters
of any script), a password's length; bot, seat and site names are reserved.

>>> check_account_name("Ann_1")
'Ann_1'
>>> check_account_name("bot-level-3")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_name_reserved
>>> check_nickname("  Hana   mi ")
'Hana mi'
"""

from __future__ import annotations

import re
import unicodedata

from hanamikoji.bots.levels import LEVELS
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "NAME_LENGTH",
    "NICKNAME_LENGTH",
    "PASSWORD_LENGTH",
    "RESERVED_NAMES",
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
