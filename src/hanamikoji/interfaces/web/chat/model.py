"""What chat is and its rules, as values: the rooms, the preset phrases, who may write
what, the text a line may hold, each writer's rate, and who may read a room.

Every game between people has two rooms, as lichess's: ``player`` (both seats) and
``spectator`` (the watch pages). A seat reads and writes the player room only, a
spectator the spectator room only; the players' chat is never shown to spectators (nor
in a public replay), and players do not see the spectators' lines.

A line is a preset phrase (its catalog key, shown in each reader's language: anyone at
the table may say one, guests and pages with no session included) or free text (an
account's only, and not one whose chat a moderator closed). Free text is refused
when it is empty or only white space (``err_chat_empty``), longer than
:data:`MAX_CHARS` characters (``err_chat_long``), or holds a character that is not
shown as itself (``err_chat_chars``): the C0 and C1 controls (line breaks and tabs
too), format characters (the bidirectional overrides and isolates U+202A-202E and
U+2066-2069, zero-width spaces and joiners but U+200D, the byte-order mark), line and
paragraph separators, surrogates, private-use and unassigned code points.

>>> clean_text("  good game!  ")
'good game!'
>>> clean_text("gg\\u202e")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_chat_chars
>>> [key for key in PRESETS][:3]
['chat_hello', 'chat_good_luck', 'chat_have_fun']
"""

from __future__ import annotations

import collections
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import msgspec

from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "HISTORY_LINES",
    "MAX_CHARS",
    "NOBODY_HIDDEN",
    "PRESETS",
    "RATE_LINES",
    "RATE_SECONDS",
    "ROOMS",
    "Author",
    "HiddenAuthors",
    "Line",
    "RateWindow",
    "Room",
    "clean_text",
    "nobody_hidden",
]

Room = Literal["player", "spectator"]
ROOMS: tuple[Room, ...] = ("player", "spectator")

PRESETS: tuple[str, ...] = (
    "chat_hello",
    "chat_good_luck",
    "chat_have_fun",
    "chat_thanks",
    "chat_good_game",
    "chat_well_played",
    "chat_oops",
    "chat_nice",
    "chat_rematch",
    "chat_bye",
)
"""The preset phrases, as their catalog keys (``catalog/site.py``), in the page's order."""

MAX_CHARS = 140
"""The longest free text line, in characters (code points) after trimming."""

RATE_LINES = 5
RATE_SECONDS = 10
"""A writer may post :data:`RATE_LINES` lines in any :data:`RATE_SECONDS` seconds."""

HISTORY_LINES = 100
"""The newest lines of a room a page is sent when it (re)connects."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_ALLOWED_FORMAT = frozenset({"\u200d"})
"""The zero-width joiner builds emoji sequences (a family, a flag): kept."""


def clean_text(text: str) -> str:
    """Free text as it is stored: trimmed of white space at both ends; :class:`Refused`
    (``err_chat_chars``, anywhere in the text; then ``err_chat_empty``,
    ``err_chat_long``) if it may not be."""
    for char in text:
        if char not in _ALLOWED_FORMAT and unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise Refused("err_chat_chars")
    trimmed = text.strip()
    if not trimmed:
        raise Refused("err_chat_empty")
    if len(trimmed) > MAX_CHARS:
        raise Refused("err_chat_long", limit=MAX_CHARS)
    return trimmed


@dataclass(frozen=True, slots=True)
class Author:
    """Who writes (or reads) at a table: the session's player (``player_id``,
    ``name``; ``None`` for a seat opened by its link alone), whether it is an account,
    and the seat it writes from (``None``: a spectator)."""

    player_id: str | None
    name: str | None
    account: bool
    seat: int | None

    @property
    def room(self) -> Room:
        """The room this author reads and writes."""
        return "spectator" if self.seat is None else "player"

    def rate_key(self, game_id: str) -> str:
        """Whose rate a line counts against: the player, or an anonymous seat."""
        return self.player_id or f"{game_id}:{self.seat}"


class Line(msgspec.Struct, frozen=True, array_like=True):
    """One chat line, as stored and as other instances hear of it (``notes.py``):
    ``preset`` (a key of :data:`PRESETS`) or ``text``, never both; ``at`` is ms since the
    epoch, ``ply`` the game's decisions when it was said."""

    id: int
    game_id: str
    room: Room
    seat: int | None
    author_id: str | None
    author_name: str | None
    preset: str | None
    text: str | None
    at: int
    ply: int


HiddenAuthors = Callable[[str | None], frozenset[str]]
"""The players whose lines a reader does not see (those the reader blocked), by the
reader's player id (``None``: a page with no session)."""

_NOBODY: frozenset[str] = frozenset()


def nobody_hidden(reader: str | None) -> frozenset[str]:
    """The default :data:`HiddenAuthors`: every line is shown to everyone."""
    return _NOBODY


NOBODY_HIDDEN: HiddenAuthors = nobody_hidden


class RateWindow:
    """Each writer's lines in the last :data:`RATE_SECONDS` seconds, in this instance's
    memory (as the sockets' message rate is): the first gate, without a query. A
    player's lines are counted again in the store as each is written
    (``ChatStore.add_line``), which holds across instances."""

    def __init__(self, lines: int = RATE_LINES, seconds: int = RATE_SECONDS) -> None:
        self.lines = lines
        self.window_ms = seconds * 1000
        self._times: dict[str, collections.deque[int]] = {}

    def admit(self, key: str, now: int) -> None:
        """Count one line of ``key`` at ``now`` (ms); :class:`Refused`
        (``err_chat_rate``, ``seconds`` to wait) when it is one too many."""
        times = self._times.setdefault(key, collections.deque())
        while times and times[0] <= now - self.window_ms:
            times.popleft()
        if len(times) >= self.lines:
            wait = (times[0] + self.window_ms - now) / 1000
            raise Refused("err_chat_rate", seconds=max(1, math.ceil(wait)))
        times.append(now)
        if len(self._times) > 10_000:  # forget writers gone quiet
            since = now - self.window_ms
            self._times = {k: v for k, v in self._times.items() if v and v[-1] > since}
