"""The game WebSockets: a seat's (``WS /ws/{id}``: ``hello`` with the seat's token, or
without one the session's seat, then decisions) and a spectator's (``WS
/ws/{id}/watch``: the public state, never a decision), with their close codes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from hanamikoji.interfaces.web.chat.routes import SocketChat
from hanamikoji.interfaces.web.db.health import UNREACHABLE
from hanamikoji.interfaces.web.games.live import SPECTATOR, Connection, LiveGame
from hanamikoji.interfaces.web.http.guards import MessageBudget, receive_message
from hanamikoji.interfaces.web.http.refusals import (
    error_message,
    foreign_socket,
    unavailable_message,
)
from hanamikoji.interfaces.web.players.sessions import session_seat
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.chat_messages import ChatServerMessage
from hanamikoji.interfaces.web.wire.incoming import (
    AbortMessage,
    Hello,
    LangMessage,
    MoveMessage,
    Ping,
    ResignMessage,
    decode_client_message,
)
from hanamikoji.interfaces.web.wire.outgoing import ErrorMessage, Pong, encode
from hanamikoji.interfaces.web.wire.refused import Refused, parse_lang
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = [
    "CLOSE_BAD_SEAT",
    "CLOSE_NO_GAME",
    "CLOSE_REPLACED",
    "CLOSE_SERVER_ERROR",
    "HELLO_TIMEOUT",
    "game_sockets",
    "query_lang",
    "send_and_close",
]

log = logging.getLogger("hanamikoji.web")

HELLO_TIMEOUT = 10.0
"""Seconds a WebSocket may stay open without saying which seat it opens."""

CLOSE_BAD_SEAT = 4401
CLOSE_NO_GAME = 4404
CLOSE_REPLACED = 4409
"""A newer page opened the same seat (more than :data:`~.guards.SEAT_SOCKETS`)."""
CLOSE_SERVER_ERROR = 1011


def game_sockets() -> list[BaseRoute]:
    """The game sockets, for the app to mount."""
    return [
        WebSocketRoute("/ws/{game_id}", _game_socket),
        WebSocketRoute("/ws/{game_id}/watch", _watch_socket),
    ]


async def _game_socket(websocket: WebSocket) -> None:
    if await foreign_socket(websocket, services(websocket).guards.allowed_origins):
        return
    await websocket.accept()
    try:
        await _open_seat(websocket)
    except UNREACHABLE:
        raise  # the app's handler tells the page (err_unavailable) and closes with 1013
    except Exception:  # a defect of ours: say so to the page, keep serving the others
        log.exception("WebSocket of game %s failed", websocket.path_params.get("game_id"))
        with contextlib.suppress(Exception):
            await websocket.close(code=CLOSE_SERVER_ERROR)


async def _open_seat(websocket: WebSocket) -> None:
    """Wait for ``hello``, then serve the seat it opens until the page goes."""
    hub = services(websocket).hub
    game_id = websocket.path_params["game_id"]
    lang: Lang = "en"
    try:
        hello = await asyncio.wait_for(receive_message(websocket), HELLO_TIMEOUT)
        if hello is None:
            return
        message = decode_client_message(hello)
        if isinstance(message, Hello | LangMessage):
            lang = message.lang
        if not isinstance(message, Hello):
            raise Refused("err_hello_first")
        if message.token is None:
            found = await session_seat(websocket, game_id)
        else:
            found = await hub.authenticate(game_id, message.token)
        if found is None:
            raise Refused("err_bad_token")
    except Refused as refusal:
        await send_and_close(websocket, error_message(refusal, lang), CLOSE_BAD_SEAT)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await websocket.close(code=CLOSE_BAD_SEAT)
        return
    _, seat = found
    seats = services(websocket).guards.seat_sockets
    for oldest in seats.opened((game_id, seat), websocket):
        # A fifth page at the seat: the oldest stops (its page says so, and does not
        # reconnect by itself), so a reload always gets its seat.
        replaced = error_message(Refused("err_replaced"), lang)
        await send_and_close(oldest, replaced, CLOSE_REPLACED)
    connection = Connection(websocket.send_text, lang)
    try:
        live = await hub.attach(game_id, seat, connection)
        chat = SocketChat(websocket, live)
        try:
            await _open_chat(websocket, chat, seat, lambda m: hub.send(live, seat, connection, m))
            await _serve_seat(websocket, live, seat, connection, chat)
        finally:
            chat.close()
            await hub.detach(live, seat, connection)
    finally:
        seats.closed((game_id, seat), websocket)


async def _open_chat(
    websocket: WebSocket,
    chat: SocketChat,
    seat: int | None,
    send: Callable[[ChatServerMessage], None],
) -> None:
    """Join the page's chat room. While the database is unreachable the room's history
    waits for the page's next connection: the game goes on, and new lines still come."""
    try:
        await chat.open(seat, send)
    except UNREACHABLE as error:
        services(websocket).hub.store.health.failed(error)


async def _serve_seat(
    websocket: WebSocket, live: LiveGame, seat: int, connection: Connection, chat: SocketChat
) -> None:
    hub = services(websocket).hub
    budget = MessageBudget(services(websocket).rates, str(id(connection)))
    while True:
        raw = await receive_message(websocket)
        if raw is None:
            return
        try:
            if not budget.admit():
                continue
            message = decode_client_message(raw)
            if isinstance(message, Ping):
                hub.send(live, seat, connection, Pong())
            elif isinstance(message, LangMessage):
                connection.lang = message.lang
            elif isinstance(message, Hello):
                raise Refused("err_hello_again")
            elif isinstance(message, ResignMessage):
                await hub.finishing.resign(live, seat)
            elif isinstance(message, AbortMessage):
                await hub.finishing.abort(live, seat)
            elif isinstance(message, MoveMessage):
                await hub.play(live, seat, message.move, message.ply)
            else:
                await chat.handle(message)
        except Refused as refusal:
            hub.send(live, seat, connection, error_message(refusal, connection.lang))
            if refusal.key == "err_stale":
                await hub.resend(live, seat, connection)
        except UNREACHABLE as error:  # the page stays: its next message may get through
            services(websocket).hub.store.health.failed(error)
            hub.send(live, seat, connection, unavailable_message(connection.lang))


async def _watch_socket(websocket: WebSocket) -> None:
    """A spectator: no token; the public state now and at every change, never a
    decision. A game that does not exist or is private closes the socket (4404)."""
    if await foreign_socket(websocket, services(websocket).guards.allowed_origins):
        return
    await websocket.accept()
    hub = services(websocket).hub
    lang = query_lang(websocket)
    connection = Connection(websocket.send_text, lang)
    try:
        live = await hub.watch(websocket.path_params["game_id"], connection)
    except Refused as refusal:
        await connection.close()
        await send_and_close(websocket, error_message(refusal, lang), CLOSE_NO_GAME)
        return
    chat = SocketChat(websocket, live)
    try:
        await _open_chat(websocket, chat, None, lambda m: hub.send(live, SPECTATOR, connection, m))
        await _serve_spectator(websocket, live, connection, chat)
    except UNREACHABLE:
        raise  # the app's handler tells the page (err_unavailable) and closes with 1013
    except Exception:
        log.exception("spectator socket of game %s failed", live.id)
        with contextlib.suppress(Exception):
            await websocket.close(code=CLOSE_SERVER_ERROR)
    finally:
        chat.close()
        await hub.unwatch(live, connection)


def query_lang(connection: HTTPConnection) -> Lang:
    """The language a socket's address names (``?lang=``), else English."""
    wanted = connection.query_params.get("lang", "en")
    return parse_lang(wanted) if wanted in LANGUAGES else "en"


async def _serve_spectator(
    websocket: WebSocket, live: LiveGame, connection: Connection, chat: SocketChat
) -> None:
    """Pings, the page's language, the spectator room's chat, and a refusal
    (``err_spectator``) for anything that tries to act: a spectator holds no seat."""
    hub = services(websocket).hub
    rates = services(websocket).rates
    key = str(id(connection))
    while True:
        raw = await receive_message(websocket)
        if raw is None:
            return
        if rates.allow_message(key) is not None:
            continue  # a spectator has nothing to lose by waiting: dropped unread
        try:
            message = decode_client_message(raw)
            if isinstance(message, Ping):
                hub.send(live, SPECTATOR, connection, Pong())
            elif isinstance(message, LangMessage) or (
                isinstance(message, Hello) and message.token is None
            ):
                # The page's socket says hello with its language and no seat.
                connection.lang = message.lang
            elif not await chat.handle(message):
                raise Refused("err_spectator")
        except Refused as refusal:
            hub.send(live, SPECTATOR, connection, error_message(refusal, connection.lang))
        except UNREACHABLE as error:  # the page stays: its next message may get through
            hub.store.health.failed(error)
            hub.send(live, SPECTATOR, connection, unavailable_message(connection.lang))


async def send_and_close(websocket: WebSocket, message: ErrorMessage, code: int) -> None:
    """Send ``message`` and close with ``code``, whatever the socket's state (a page
    gone already is not an error)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(encode(message))
        await websocket.close(code=code)
