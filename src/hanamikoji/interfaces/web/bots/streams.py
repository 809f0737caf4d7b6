"""The bot API's two NDJSON streams (docs/bot-api.md), one JSON object a line and an
empty line every :data:`KEEP_ALIVE` seconds when nothing else was sent.

* The **event stream** is a site page of the bot's account (``social/``): it gets the
  challenges to and from the bot as they come, on any instance, and the bot counts as
  online while it is open; on connect it replays the open challenges and the games in
  progress. A game's start and end come as the challenges do: the site pages of a
  game's players are told of both, on every instance (``games/news.py``), whatever made
  the game (a challenge, the ladder, a tournament) or ended it; nothing is polled.
* The **game stream** is a page at the bot's seat (``games/``): attached to the hub
  as a person's socket is, it gets every state the seat's pages get (so clocks,
  forfeits and abandon timers are the same as for people, and decisions made on
  another instance come through the cluster's events), the player room's chat lines,
  and whether the opponent is gone. It ends after the state whose outcome is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from hanamikoji.interfaces.web.bots.service import EVENT_STREAMS, GAME_STREAMS, BotGames
from hanamikoji.interfaces.web.chat.model import Author
from hanamikoji.interfaces.web.chat.service import Chat, Reader
from hanamikoji.interfaces.web.db.api_tokens import TokenOwner
from hanamikoji.interfaces.web.games.live import Connection, LiveGame
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.social.service import Social
from hanamikoji.interfaces.web.wire.api_messages import (
    ChallengeEvent,
    ChatLineEvent,
    GameFull,
    GameRefEvent,
    OpponentGone,
)
from hanamikoji.interfaces.web.wire.chat_messages import ChatSaid
from hanamikoji.interfaces.web.wire.outgoing import SeatState, WireStruct, encode_bytes
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["KEEP_ALIVE", "NDJSON", "event_stream", "game_stream"]

KEEP_ALIVE = 7.0
"""Seconds without a line after which the stream sends an empty one."""

NDJSON = "application/x-ndjson"

_STATE = msgspec.json.Decoder(SeatState)


class _Seen(msgspec.Struct):
    """What the game stream reads of a state it passes on: who is at the table, and
    whether the game is over (its outcome left unparsed)."""

    connected: tuple[bool, bool]
    outcome: msgspec.Raw = msgspec.Raw(b"null")


_SEEN = msgspec.json.Decoder(_Seen)
_STATE_LINE = b'{"type":"gameState","state":'
"""A ``gameState`` line up to its state: the state's own text follows as the seat's
pages were sent it (``encode_bytes(GameStateEvent(state))``, without decoding it and
encoding it again)."""
_GONE_KINDS = {"declined": "challengeDeclined", "cancelled": "challengeCanceled"}


def line(message: WireStruct) -> bytes:
    return encode_bytes(message) + b"\n"


class _Lines:
    """A stream's queue of incoming texts, its keep-alive, and its slot's end."""

    def __init__(self, closed: asyncio.Event) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.closed = closed
        self.last = time.monotonic()

    def put(self, text: str) -> None:
        self.queue.put_nowait(text)

    async def next(self, timeout: float) -> str | None:
        """The next text, or ``None`` after ``timeout`` (or the stream's end)."""
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self.queue.get(), timeout)
        return None

    def keep_alive(self) -> bytes | None:
        now = time.monotonic()
        if now - self.last < KEEP_ALIVE:
            return None
        self.last = now
        return b"\n"

    def sent(self, data: bytes) -> bytes:
        self.last = time.monotonic()
        return data


async def event_stream(
    bots: BotGames, social: Social, owner: TokenOwner, player: Player
) -> AsyncIterator[bytes]:
    """The bot's event stream, until the client goes or a newer stream replaces it."""
    key = ("events", owner.token_id)
    slot = bots.slots.open(key, EVENT_STREAMS)
    lines = _Lines(slot.closed)
    page = await social.open_page(player, lines.put)
    try:
        listing = await social.listing(player)
        for info in (*listing.incoming, *listing.outgoing):
            found = await social.find(info.id)
            event = ChallengeEvent(type="challenge", challenge=await bots.challenge(found))
            yield lines.sent(line(event))
        known: set[str] = set()
        for ref in await bots.games(owner):
            known.add(ref.id)
            yield lines.sent(line(GameRefEvent(type="gameStart", game=ref)))
        while not slot.closed.is_set():
            text = await lines.next(1.0)
            if text is not None:
                for event_line in await _social_lines(bots, social, owner, text, known):
                    yield lines.sent(event_line)
            alive = lines.keep_alive()
            if alive is not None:
                yield alive
    finally:
        bots.slots.close(key, slot)
        await social.close_page(player, page)


async def _social_lines(
    bots: BotGames, social: Social, owner: TokenOwner, text: str, known: set[str]
) -> list[bytes]:
    """The event lines of a message the social part sends the bot's pages."""
    try:
        message: dict[str, Any] = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return []
    kind = message.get("type")
    try:
        if kind == "challenge":
            found = await social.find(str(message["challenge"]["id"]))
            event = ChallengeEvent(type="challenge", challenge=await bots.challenge(found))
            return [line(event)]
        if kind == "challenge_gone":
            gone = _GONE_KINDS.get(str(message.get("reason")), "challengeCanceled")
            found = await social.find(str(message["id"]))
            api = await bots.challenge(found)
            return [line(ChallengeEvent(type=gone, challenge=api))]  # type: ignore[arg-type]
        if kind == "game_start":
            game_id = str(message["game"])
            if game_id in known:  # replayed on connect already
                return []
            live, seat = await bots.seat(owner, game_id)
            known.add(game_id)
            return [line(GameRefEvent(type="gameStart", game=bots.game_ref(live, seat)))]
        if kind == "game_finish":
            game_id = str(message["game"])
            known.discard(game_id)
            live, seat = await bots.seat(owner, game_id)
            return [line(GameRefEvent(type="gameFinish", game=bots.game_ref(live, seat)))]
    except (Refused, KeyError, TypeError):
        return []
    return []


async def game_stream(
    bots: BotGames, chat: Chat, owner: TokenOwner, live: LiveGame, seat: int
) -> AsyncIterator[bytes]:
    """The bot's stream of one of its games: ``gameFull``, then a line per change,
    until the game is over (or a newer stream of the game replaces this one)."""
    key = ("game", owner.token_id, live.id)
    slot = bots.slots.open(key, GAME_STREAMS)
    lines = _Lines(slot.closed)

    async def send(text: str) -> None:
        lines.put(text)

    connection = Connection(send, "en")
    hub = bots.hub
    live = await hub.attach(live.id, seat, connection)
    reader = None
    if live.stored.bot_seat is None:  # a game between people has a chat
        author = Author(owner.player_id, owner.name, True, seat)
        reader = Reader(author, lambda message: lines.put(encode_bytes(message).decode()))
        await chat.join(live.id, reader)
    try:
        full = False
        gone: bool | None = None
        while not slot.closed.is_set():
            text = await lines.next(1.0)
            if text is not None and text.startswith('{"type":"state"'):
                if not full:
                    full = True
                    state = _STATE.decode(text)
                    yield lines.sent(line(_game_full(bots, live, seat, state)))
                else:
                    yield lines.sent(_STATE_LINE + text.encode() + b"}\n")
                seen = _SEEN.decode(text)
                if bytes(seen.outcome) != b"null":
                    return
                away = not seen.connected[1 - seat]
                if away != (gone or False) and (gone is not None or away):
                    yield lines.sent(line(_opponent_gone(bots, live, seat, gone=away)))
                gone = away
            elif text is not None and text.startswith('{"type":"chat_line"'):
                said = msgspec.json.decode(text, type=ChatSaid)
                if said.line.seat != seat:
                    event = ChatLineEvent(
                        room=said.line.room,
                        username=said.line.author or "",
                        text=said.line.text or said.line.preset or "",
                    )
                    yield lines.sent(line(event))
            alive = lines.keep_alive()
            if alive is not None:
                yield alive
    finally:
        bots.slots.close(key, slot)
        if reader is not None:
            chat.leave(reader)
        await hub.detach(live, seat, connection)


def _game_full(bots: BotGames, live: LiveGame, seat: int, state: SeatState) -> GameFull:
    ref = bots.game_ref(live, seat)
    return GameFull(
        id=ref.id,
        seat=seat,
        variant=ref.variant,
        rated=ref.rated,
        clock=ref.clock,
        people=state.people,
        state=state,
    )


def _opponent_gone(bots: BotGames, live: LiveGame, seat: int, *, gone: bool) -> OpponentGone:
    """Whether the opponent is gone, and in how many seconds its forfeit falls."""
    seconds = None
    forfeit = bots.hub.presence.next_forfeit(live) if gone else None
    if forfeit is not None and forfeit.seat == 1 - seat and forfeit.termination == "abandoned":
        seconds = max(0, math.ceil((forfeit.at - bots.hub.now()) / 1000))
    return OpponentGone(gone=gone, claim_win_in_seconds=seconds)
