"""``Chat``: the rooms of the games shown on this instance and their pages, what a page
may say and report, and the other instances' lines (``chat`` events).

A page joins its room when its socket opens (a seat's page the player room, a
spectator's the spectator room) and is sent the room's newest lines
(:class:`~.wire.chat_messages.ChatRoomState`); every line said in the room afterwards,
here or on another instance, is sent to it (``chat_line``), unless the reader hides its
author (:data:`~.model.HiddenAuthors`, asked for every line, so a block takes effect at
once). Lines are sent through the pages' own ``send`` (the games' tap sees them, so the
spectator audit covers them).

Refusals (:class:`Refused`; nothing is stored then): ``err_chat_none`` (a game against a
bot has no chat), ``err_chat_room`` (a room the page does not write in),
``err_chat_preset`` (no such preset phrase), ``err_bad_field`` (a line with both a preset
and text), ``err_chat_empty``, ``err_chat_long``, ``err_chat_chars`` (``model.py``),
``err_chat_account`` (free text from a guest or a page with no session),
``err_chat_closed`` (free text from an account whose chat a moderator closed: its preset
phrases stay open), ``err_chat_rate`` (over the writer's rate; ``seconds`` to wait),
``err_signed_out`` (a spectator with no session writing, or a report with no session),
``err_chat_no_line`` (a report of a line that is not in the page's room),
``err_chat_reported`` (a line this player reported already).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from hanamikoji.interfaces.web.chat.model import (
    MAX_CHARS,
    NOBODY_HIDDEN,
    PRESETS,
    Author,
    HiddenAuthors,
    Line,
    RateWindow,
    Room,
    clean_text,
)
from hanamikoji.interfaces.web.chat.notes import TOPIC, decode_line
from hanamikoji.interfaces.web.chat.store import ChatStore
from hanamikoji.interfaces.web.cluster.events import Event, Listener
from hanamikoji.interfaces.web.wire.chat_messages import (
    ChatLineInfo,
    ChatReported,
    ChatRoomState,
    ChatSaid,
    ChatServerMessage,
)
from hanamikoji.interfaces.web.wire.incoming import ChatSayMessage
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["Chat", "Reader", "line_info"]

T = TypeVar("T")


class Writes(Protocol):
    """Runs a write on the server's writer thread (``DecisionWriter.call``)."""

    def __call__(self, write: Callable[[], T], /) -> Awaitable[T]: ...


@dataclass(eq=False)
class Reader:
    """A page in a room: its author (player and seat) and how it is sent a message."""

    author: Author
    send: Callable[[ChatServerMessage], None]
    game_id: str = ""
    room: Room = field(init=False)

    def __post_init__(self) -> None:
        self.room = self.author.room


def line_info(line: Line) -> ChatLineInfo:
    """A stored line as pages get it (no player id)."""
    return ChatLineInfo(
        id=line.id,
        room=line.room,
        seat=line.seat,
        author=line.author_name,
        preset=line.preset,
        text=line.text,
        at=line.at,
        ply=line.ply,
    )


class Chat:
    """The chat of this instance.

    Args:
        store: the chat's rows.
        write: runs a write on the server's writer thread.
        now: the server's clock, ms since the epoch.
        listener: the other instances' events (PostgreSQL), or ``None``.
        hidden_authors: whose lines each reader does not see (the players it blocked;
            nobody's by default).
    """

    def __init__(
        self,
        store: ChatStore,
        write: Writes,
        now: Callable[[], int],
        listener: Listener | None = None,
        hidden_authors: HiddenAuthors = NOBODY_HIDDEN,
    ) -> None:
        self.store = store
        self.write = write
        self.now = now
        self.hidden_authors = hidden_authors
        self.rates = RateWindow()
        self.rooms: dict[tuple[str, Room], set[Reader]] = {}
        if listener is not None:
            listener.on(TOPIC, self.on_event)

    # -- pages ----------------------------------------------------------------------------

    async def join(self, game_id: str, reader: Reader) -> None:
        """Add a page to its room and send it the room's newest lines."""
        reader.game_id = game_id
        self.rooms.setdefault((game_id, reader.room), set()).add(reader)
        author = reader.author
        lines, closed, hidden = await asyncio.to_thread(
            lambda: (
                self.store.lines(game_id, reader.room),
                author.player_id is not None and self.store.closed(author.player_id),
                self.hidden_authors(author.player_id),
            )
        )
        reader.send(
            ChatRoomState(
                room=reader.room,
                lines=tuple(line_info(line) for line in lines if line.author_id not in hidden),
                presets=PRESETS,
                free_text=author.account and not closed,
                max_chars=MAX_CHARS,
            )
        )

    def leave(self, reader: Reader) -> None:
        key = (reader.game_id, reader.room)
        readers = self.rooms.get(key)
        if readers is not None:
            readers.discard(reader)
            if not readers:
                del self.rooms[key]

    # -- saying and reporting -------------------------------------------------------------

    async def say(
        self, game_id: str, author: Author, message: ChatSayMessage, ply: int, *, chat: bool
    ) -> Line:
        """Store and deliver a line said by ``author`` in ``message.room`` at ``ply``;
        ``chat``: whether the game has a chat (between people). :class:`Refused` (see
        the module) when it may not be said."""
        if not chat:
            raise Refused("err_chat_none")
        if message.room != author.room:
            raise Refused("err_chat_room")
        if author.seat is None and author.player_id is None:
            raise Refused("err_signed_out")
        if (message.preset is None) == (message.text is None):
            if message.preset is None:
                raise Refused("err_chat_empty")
            raise Refused("err_bad_field", field="text")
        words = None
        if message.preset is not None:
            if message.preset not in PRESETS:
                raise Refused("err_chat_preset")
        else:
            assert message.text is not None
            words = clean_text(message.text)
            if not author.account or author.player_id is None:
                raise Refused("err_chat_account")
            player_id = author.player_id
            if await asyncio.to_thread(self.store.closed, player_id):
                raise Refused("err_chat_closed")
        now = self.now()
        self.rates.admit(author.rate_key(game_id), now)
        line = Line(
            0,
            game_id,
            author.room,
            author.seat,
            author.player_id,
            author.name,
            message.preset,
            words,
            now,
            ply,
        )
        # This instance's window first (no query for a flood); then the store's count,
        # which holds across instances (a player writing through two of them).
        rate = (self.rates.lines, self.rates.window_ms)
        stored = await self.write(lambda: self.store.add_line(line, rate))
        await self.deliver(stored)
        return stored

    async def report(self, reader: Reader, line_id: int) -> None:
        """Report a line of the reader's room (once per reporter); the page is told
        (``chat_reported``)."""
        reporter = reader.author.player_id
        if reporter is None:
            raise Refused("err_signed_out")
        line = await asyncio.to_thread(self.store.line, line_id)
        if line is None or line.game_id != reader.game_id or line.room != reader.room:
            raise Refused("err_chat_no_line")
        now = self.now()
        if not await self.write(lambda: self.store.report(line.id, reporter, now)):
            raise Refused("err_chat_reported")
        reader.send(ChatReported(line=line_id))

    async def history(self, game_id: str, room: Room, reader: str | None) -> list[Line]:
        """A room's lines for a reader (the replay): those of authors it hides left out."""
        lines, hidden = await asyncio.to_thread(
            lambda: (self.store.lines(game_id, room), self.hidden_authors(reader))
        )
        return [line for line in lines if line.author_id not in hidden]

    # -- delivery -------------------------------------------------------------------------

    async def deliver(self, line: Line) -> None:
        """Send a stored line to every page of its room here but those that hide its
        author."""
        readers = list(self.rooms.get((line.game_id, line.room), ()))
        if not readers:
            return
        author = line.author_id
        hiding: set[int] = set()
        if author is not None:
            hidden = await asyncio.to_thread(
                lambda: [author in self.hidden_authors(r.author.player_id) for r in readers]
            )
            hiding = {index for index, hides in enumerate(hidden) if hides}
        message = ChatSaid(line=line_info(line))
        for index, reader in enumerate(readers):
            if index not in hiding:
                reader.send(message)

    async def on_event(self, event: Event) -> None:
        """Another instance stored a line: its pages here get it."""
        note = decode_line(event.data)
        if note is not None and note.game_id == event.key:
            await self.deliver(note)
