"""The site socket, ``WS /social/ws``: every page of a signed-in player opens it, on
whatever address of the site it is (the lobby, a game, a player's page...).

It makes the player **online** while it is open (``presence.py``) and carries what
happens to their challenges, live, from any instance: ``social`` as it opens (the open
challenges to and from them), ``challenge`` (one received), ``challenge_gone`` (one
cancelled, declined, expired or taken), ``challenge_game`` (one accepted: the game, which
the page opens by its session). A page may send ``ping`` and ``lang``; a socket without a
session is told ``err_signed_out`` and closed (4401).
"""

from __future__ import annotations

import contextlib
import logging

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket

from hanamikoji.interfaces.web.db.health import CLOSE_TRY_AGAIN, UNREACHABLE
from hanamikoji.interfaces.web.games.live import Connection
from hanamikoji.interfaces.web.http.guards import MessageBudget, receive_message
from hanamikoji.interfaces.web.http.refusals import (
    error_message,
    foreign_socket,
    unavailable_message,
)
from hanamikoji.interfaces.web.players.sessions import current_session
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.incoming import LangMessage, Ping, decode_social_message
from hanamikoji.interfaces.web.wire.outgoing import Pong, encode
from hanamikoji.interfaces.web.wire.refused import Refused, parse_lang
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["CLOSE_SIGNED_OUT", "social_sockets"]

log = logging.getLogger("hanamikoji.web")

CLOSE_SIGNED_OUT = 4401
"""The close code of a site socket without a session (the page does not reconnect)."""


def social_sockets() -> list[BaseRoute]:
    return [WebSocketRoute("/social/ws", _site_socket)]


async def _site_socket(websocket: WebSocket) -> None:
    if await foreign_socket(websocket, services(websocket).guards.allowed_origins):
        return
    await websocket.accept()
    wanted = websocket.query_params.get("lang", "en")
    lang: Lang = parse_lang(wanted) if wanted in LANGUAGES else "en"
    session = await current_session(websocket)
    if session is None:
        refusal = error_message(Refused("err_signed_out"), lang)
        with contextlib.suppress(Exception):
            await websocket.send_text(encode(refusal))
            await websocket.close(CLOSE_SIGNED_OUT)
        return
    social = services(websocket).social
    player = session.player
    connection = Connection(websocket.send_text, lang)
    key = await social.open_page(player, connection.push)
    code = 1000
    try:
        connection.push(encode(await social.state(player)))
        await _serve(websocket, connection, f"social:{key}")
    except UNREACHABLE:  # the page is told, and reconnects after a while
        code = CLOSE_TRY_AGAIN
        with contextlib.suppress(Exception):
            await websocket.send_text(encode(unavailable_message(connection.lang)))
    except Exception:
        log.exception("site socket failed")
    finally:
        with contextlib.suppress(Exception):
            await social.close_page(player, key)
        await connection.close()
        with contextlib.suppress(Exception):
            await websocket.close(code)


async def _serve(websocket: WebSocket, connection: Connection, key: str) -> None:
    budget = MessageBudget(services(websocket).rates, key)
    while True:
        raw = await receive_message(websocket)
        if raw is None:
            return
        try:
            if not budget.admit():
                continue
            message = decode_social_message(raw)
            if isinstance(message, Ping):
                connection.push(encode(Pong()))
            elif isinstance(message, LangMessage):
                connection.lang = message.lang
        except Refused as refusal:
            connection.push(encode(error_message(refusal, connection.lang)))
