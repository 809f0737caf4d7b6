"""The lobby's socket (``WS /lobby/ws``) and the game a pairing makes.

The page connects with its session cookie (a guest or an account; without one it may
only look), and sends ``seek``, ``cancel``, ``accept``, ``quick`` and ``unqueue``
messages (``wire/incoming.py``); it is sent the seeks it may see (``lobby``), each change
(``seek``, ``unseek``), its place in the queue (``queued``) and, once paired, its seat
(``paired``: the game, the seat, and the seat's token when the game was made on this
instance; without one the page opens its seat by its session). Its seeks and its place
in the queue go when it closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket

from hanamikoji.interfaces.web.db.health import CLOSE_TRY_AGAIN, UNREACHABLE
from hanamikoji.interfaces.web.games.live import Connection
from hanamikoji.interfaces.web.http.guards import MessageBudget, RateGuard, receive_message
from hanamikoji.interfaces.web.http.refusals import (
    error_message,
    foreign_socket,
    unavailable_message,
)
from hanamikoji.interfaces.web.lobby.clients import LobbyClient, LobbyPlayer
from hanamikoji.interfaces.web.lobby.service import Lobby
from hanamikoji.interfaces.web.players.sessions import current_session
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.incoming import (
    AcceptMessage,
    CancelMessage,
    LangMessage,
    LeaveQueueMessage,
    LobbyMessage,
    Ping,
    QuickMessage,
    SeekMessage,
    decode_lobby_message,
)
from hanamikoji.interfaces.web.wire.outgoing import Pong, encode
from hanamikoji.interfaces.web.wire.refused import Refused, parse_lang
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["lobby_routes"]

log = logging.getLogger("hanamikoji.web")


def lobby_routes() -> list[BaseRoute]:
    return [WebSocketRoute("/lobby/ws", _lobby_socket)]


def _lobby(connection: HTTPConnection) -> Lobby:
    return services(connection).lobby


async def _lobby_player(connection: HTTPConnection) -> LobbyPlayer | None:
    """The session's player as the lobby knows it, with their rating in each variant they
    have one in (``ratings/``; a new player's elsewhere) and the players they blocked or
    were blocked by (``social/``)."""
    session = await current_session(connection)
    if session is None:
        return None
    player = session.player
    stored = await asyncio.to_thread(services(connection).ratings.ratings_of, player.id)
    ratings = {rating.variant: rating.rating for rating in stored}
    avoids = await asyncio.to_thread(services(connection).social.relations.avoided, player.id)
    account = player.kind == "account"
    return LobbyPlayer(player.id, player.name, account, ratings, avoids, bot=player.bot)


async def _lobby_socket(websocket: WebSocket) -> None:
    if await foreign_socket(websocket, services(websocket).guards.allowed_origins):
        return
    await websocket.accept()
    wanted = websocket.query_params.get("lang", "en")
    lang: Lang = parse_lang(wanted) if wanted in LANGUAGES else "en"
    player = await _lobby_player(websocket)  # before the connection's writer task starts
    connection = Connection(websocket.send_text, lang)
    client = LobbyClient(player, connection.push)
    lobby = _lobby(websocket)
    lobby.join(client)
    code = 1000
    try:
        await _serve(websocket, lobby, client, connection)
    except UNREACHABLE:  # the page is told, and reconnects after a while
        code = CLOSE_TRY_AGAIN
        with contextlib.suppress(Exception):
            await websocket.send_text(encode(unavailable_message(connection.lang)))
    except Exception:
        log.exception("lobby socket failed")
    finally:
        lobby.leave(client)
        await connection.close()
        with contextlib.suppress(Exception):
            await websocket.close(code)


async def _serve(
    websocket: WebSocket, lobby: Lobby, client: LobbyClient, connection: Connection
) -> None:
    rates = services(websocket).rates
    budget = MessageBudget(rates, client.key)
    while True:
        raw = await receive_message(websocket)
        if raw is None:
            return
        try:
            if not budget.admit():
                continue
            await _handle(decode_lobby_message(raw), lobby, client, connection, rates)
        except Refused as refusal:
            connection.push(encode(error_message(refusal, connection.lang)))


async def _handle(
    message: LobbyMessage,
    lobby: Lobby,
    client: LobbyClient,
    connection: Connection,
    rates: RateGuard,
) -> None:
    if isinstance(message, Ping):
        connection.push(encode(Pong()))
    elif isinstance(message, LangMessage):
        connection.lang = message.lang
    elif isinstance(message, SeekMessage | AcceptMessage | QuickMessage) and (
        client.player is not None and client.player.bot
    ):
        raise Refused("err_bot_pairing")  # bots play challenges, not the people's pairing
    elif isinstance(message, SeekMessage):
        wait = rates.allow_create(f"seek:{client.player.id if client.player else client.key}")
        if wait is not None:
            raise Refused("err_rate_limited", seconds=max(1, round(wait)))
        await lobby.seek(client, message)
    elif isinstance(message, CancelMessage):
        await lobby.cancel(client, message.seek)
    elif isinstance(message, AcceptMessage):
        await lobby.accept(client, message.seek)
    elif isinstance(message, QuickMessage):
        await lobby.enqueue(client, message)
    elif isinstance(message, LeaveQueueMessage):
        await lobby.dequeue(client)
