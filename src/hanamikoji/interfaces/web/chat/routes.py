"""The chat's routes: its part of a game's sockets (:class:`SocketChat`, which
``games/sockets.py`` opens for each seat's and spectator's page) and
``GET /api/games/{id}/chat``, the players' chat of a game for its replay, served to its
two seats only (a spectator, a public replay and an export never get it)."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.web.chat.model import Author
from hanamikoji.interfaces.web.chat.service import Reader, line_info
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.games.routes import request_seat
from hanamikoji.interfaces.web.players.sessions import current_session
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.chat_messages import ChatHistory, ChatServerMessage
from hanamikoji.interfaces.web.wire.incoming import (
    ChatReportMessage,
    ChatSayMessage,
    ClientMessage,
)
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["SocketChat", "chat_routes", "has_chat"]


def chat_routes() -> list[BaseRoute]:
    """The chat's HTTP routes, for the app to mount."""
    return [Route("/api/games/{game_id}/chat", _players_chat)]


def has_chat(live: LiveGame) -> bool:
    """Whether a game has a chat: a game between people (not against a bot)."""
    return live.stored.bot_seat is None


class SocketChat:
    """The chat of one game socket: its page's room joined (when the game has a chat),
    its chat messages handled, the room left when the socket closes."""

    def __init__(self, connection: HTTPConnection, live: LiveGame) -> None:
        self.chat = services(connection).chat
        self.connection = connection
        self.live = live
        self.reader: Reader | None = None

    async def open(self, seat: int | None, send: Callable[[ChatServerMessage], None]) -> None:
        """Join the room of ``seat`` (``None``: a spectator) as the session's player."""
        if not has_chat(self.live):
            return
        session = await current_session(self.connection)
        player = None if session is None else session.player
        author = Author(
            None if player is None else player.id,
            None if player is None else player.name,
            player is not None and player.kind == "account",
            seat,
        )
        self.reader = Reader(author, send)
        await self.chat.join(self.live.id, self.reader)

    async def handle(self, message: ClientMessage) -> bool:
        """Do a chat message (``True``), or leave another kind to the socket
        (``False``). :class:`Refused` as the chat refuses."""
        if not isinstance(message, ChatSayMessage | ChatReportMessage):
            return False
        if self.reader is None:
            raise Refused("err_chat_none")
        if isinstance(message, ChatSayMessage):
            live = self.live
            await self.chat.say(live.id, self.reader.author, message, live.ply, chat=True)
        else:
            await self.chat.report(self.reader, message.line)
        return True

    def close(self) -> None:
        if self.reader is not None:
            self.chat.leave(self.reader)


async def _players_chat(request: Request) -> Response:
    """The player room's lines, for a seat of the game (its token, or the session's
    seat): ``err_bad_token`` for anyone else, as every seat route."""
    live, _ = await request_seat(request)
    session = await current_session(request)
    reader = None if session is None else session.player.id
    lines = await services(request).chat.history(live.id, "player", reader)
    history = ChatHistory(room="player", lines=tuple(line_info(line) for line in lines))
    return WireResponse(history, headers={"Cache-Control": "no-store"})
