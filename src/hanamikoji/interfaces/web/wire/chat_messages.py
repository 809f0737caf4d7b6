"""Every message of the chat (``chat/``), as typed Structs: sent on a game's seat and
watch sockets beside the table's states, and the players' chat of a game for its replay
(``GET /api/games/{id}/chat``).

A line names its author by name and seat only (never a player id), and holds a preset
phrase's key (the page says it in its own language) or free text (the page shows it as
text, never as HTML). No chat message holds anything of the game but its ply.
"""

from __future__ import annotations

from typing import Literal

from hanamikoji.interfaces.web.wire.outgoing import WireStruct

__all__ = [
    "CHAT_ANSWERS",
    "ChatHistory",
    "ChatLineInfo",
    "ChatReported",
    "ChatRoomState",
    "ChatSaid",
    "ChatServerMessage",
]

RoomName = Literal["player", "spectator"]


class ChatLineInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """One chat line: its id (to report it), room, the author's seat (``null``: a
    spectator) and name (``null``: a seat opened by its link alone), a preset phrase's
    catalog key or free text, when (ms since the epoch) and at which ply."""

    id: int
    room: RoomName
    seat: int | None
    author: str | None
    preset: str | None
    text: str | None
    at: int
    ply: int


class ChatRoomState(WireStruct, tag="chat", frozen=True, kw_only=True, gc=False):
    """The page's chat room when its socket opens: its newest lines, the preset phrases,
    whether this page may write free text (an account whose chat is open) and how long."""

    room: RoomName
    lines: tuple[ChatLineInfo, ...]
    presets: tuple[str, ...]
    free_text: bool
    max_chars: int


class ChatSaid(WireStruct, tag="chat_line", frozen=True, kw_only=True, gc=False):
    """A new line in the page's room."""

    line: ChatLineInfo


class ChatReported(WireStruct, tag="chat_reported", frozen=True, kw_only=True, gc=False):
    """The line this page reported is stored for the moderators."""

    line: int


class ChatHistory(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/games/{id}/chat``: the players' chat of a game, for its two seats only."""

    room: RoomName
    lines: tuple[ChatLineInfo, ...]


ChatServerMessage = ChatRoomState | ChatSaid | ChatReported
"""What the chat sends on a game's sockets."""

CHAT_ANSWERS = (ChatHistory,)
"""The chat's HTTP answers (``wire/typescript.py`` declares them)."""
