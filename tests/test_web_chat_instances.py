"""Chat across server instances on one PostgreSQL database (issue 49): a line said on
one instance reaches the pages of its room on the other through the ``chat`` event, and
never the other room's pages; the event carries the line and nothing of the game; a
player's rate limit holds across instances (their lines are counted in the database)."""

from __future__ import annotations

import asyncio

import pytest
from postgres_db import DRIVER_MISSING, needs_postgres

from hanamikoji.interfaces.web.chat.model import RATE_LINES, Author, Line
from hanamikoji.interfaces.web.chat.service import Reader
from hanamikoji.interfaces.web.services import open_chat
from hanamikoji.interfaces.web.wire.chat_messages import ChatSaid, ChatServerMessage
from hanamikoji.interfaces.web.wire.incoming import ChatSayMessage
from hanamikoji.interfaces.web.wire.refused import Refused

pytest.importorskip("psycopg", reason=DRIVER_MISSING)

from web_support import instance

pytestmark = needs_postgres


class Page:
    """A page's chat: every message it was sent."""

    def __init__(self, author: Author) -> None:
        self.messages: list[ChatServerMessage] = []
        self.reader = Reader(author, self.messages.append)

    def lines(self) -> list[ChatSaid]:
        return [message for message in self.messages if isinstance(message, ChatSaid)]

    async def until_lines(self, count: int) -> list[ChatSaid]:
        for _ in range(500):
            if len(self.lines()) >= count:
                return self.lines()
            await asyncio.sleep(0.02)
        raise AssertionError(f"{count} lines never came: {self.messages}")


def test_a_line_said_on_one_instance_reaches_its_room_on_the_other(schema: str) -> None:
    async def scenario() -> tuple[Page, Page, Page]:
        async with instance(schema) as one, instance(schema) as two:
            created = await one.create("classic", 0, None, seed=3)
            chats = (open_chat(one, one.now), open_chat(two, two.now))
            ann = Author("p-ann", "Ann", True, 0)
            pages = (Page(ann), Page(Author("p-bob", "Bob", True, 1)))
            watcher = Page(Author("p-cat", "Cat", False, None))
            await chats[0].join(created.id, pages[0].reader)
            await chats[1].join(created.id, pages[1].reader)
            await chats[1].join(created.id, watcher.reader)
            said = ChatSayMessage(room="player", text="<b>gg</b>")
            await chats[0].say(created.id, ann, said, 4, chat=True)
            await pages[1].until_lines(1)
            cat = watcher.reader.author
            spoken = ChatSayMessage(room="spectator", preset="chat_nice")
            await chats[1].say(created.id, cat, spoken, 4, chat=True)
            await watcher.until_lines(1)
            await asyncio.sleep(0.3)  # time for a wrong delivery to show
            return pages[0], pages[1], watcher

    ann, bob, watcher = asyncio.run(scenario())
    for page in (ann, bob):
        [line] = [said.line for said in page.lines()]
        assert (line.text, line.author, line.seat, line.ply) == ("<b>gg</b>", "Ann", 0, 4)
    [seen] = [said.line for said in watcher.lines()]
    assert seen.room == "spectator" and seen.preset == "chat_nice"
    # The event's note is the line's fields, nothing else.
    assert set(Line.__struct_fields__) == {
        "id",
        "game_id",
        "room",
        "seat",
        "author_id",
        "author_name",
        "preset",
        "text",
        "at",
        "ply",
    }


def test_a_players_chat_rate_holds_across_instances(schema: str) -> None:
    """Ann writes through two instances in turn, at one moment: each instance's own
    window sees only half her lines, the database's count sees them all, and the line
    one too many is refused (``err_chat_rate``) and stored nowhere."""

    async def scenario() -> tuple[list[str], int, int]:
        async with instance(schema) as one, instance(schema) as two:
            created = await one.create("classic", 0, None, seed=3)
            clock = lambda: 1_000_000  # noqa: E731 - one moment for both instances
            chats = (open_chat(one, clock), open_chat(two, clock))
            ann = Author("p-ann", "Ann", True, 0)
            said = ChatSayMessage(room="player", preset="chat_hello")
            refused: list[str] = []
            for index in range(RATE_LINES + 2):
                try:
                    await chats[index % 2].say(created.id, ann, said, 0, chat=True)
                except Refused as refusal:
                    refused.append(refusal.key)
            stored = len(await asyncio.to_thread(chats[0].store.lines, created.id, "player"))
            # Another player is not held back by Ann's lines.
            bob = Author("p-bob", "Bob", True, 1)
            await chats[1].say(created.id, bob, said, 0, chat=True)
            others = len(await asyncio.to_thread(chats[1].store.lines, created.id, "player"))
            return refused, stored, others

    refused, stored, others = asyncio.run(scenario())
    assert refused == ["err_chat_rate", "err_chat_rate"]
    assert stored == RATE_LINES and others == RATE_LINES + 1
