"""The routes of tournaments.

===============================================  ==========================================
``GET /api/tournaments``                         upcoming, running and finished tournaments
``POST /api/tournaments``                        create one (an account)
``GET /api/tournaments/{id}``                    one, as its page shows it (``?code=``)
``POST /api/tournaments/{id}/join``              join it (``?code=`` for one by invitation)
``POST /api/tournaments/{id}/withdraw``          withdraw (``?level=N``: the creator's level)
``POST /api/tournaments/{id}/level``             the creator enters our bot level ``{"level"}``
``GET /api/tournaments/{id}/records``            a finished one's games, one record file
``WS /api/tournaments/{id}/ws``                  the tournament, sent again at each change
``POST /api/tournament/{id}/join``               a bot account joins (its bearer token)
``POST /api/tournament/{id}/withdraw``           a bot account withdraws (its bearer token)
===============================================  ==========================================

The page's ``POST`` routes have passed the Origin check and carry the session's CSRF
token (``players/sessions.acting_session``); tournaments are made at most as often as
games (``--create-rate``, per player). The two ``/api/tournament/`` routes are the bot
API's (``http/bearer.py``: scope ``bot:play``, a bot account): a bot that joined gets
each game's ``gameStart`` on its event stream, as for a challenge.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from hanamikoji.interfaces.web.bots.service import require_bot
from hanamikoji.interfaces.web.games.live import Connection
from hanamikoji.interfaces.web.http.guards import read_body, receive_message
from hanamikoji.interfaces.web.http.refusals import error_message, foreign_socket
from hanamikoji.interfaces.web.players.sessions import acting_session, current_session
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.tournaments.model import level_id
from hanamikoji.interfaces.web.tournaments.records import records_response
from hanamikoji.interfaces.web.tournaments.requests import decode_create, decode_level
from hanamikoji.interfaces.web.tournaments.service import Tournaments, Watcher
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.incoming import MAX_BODY_BYTES
from hanamikoji.interfaces.web.wire.outgoing import encode
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.interfaces.web.wire.tournament_messages import (
    TournamentCreated,
    TournamentEntry,
    TournamentView,
)

__all__ = ["tournament_routes"]

log = logging.getLogger("hanamikoji.web")

NO_STORE = {"Cache-Control": "no-store"}
CODE_LIMIT = 32


def tournament_routes() -> list[BaseRoute]:
    return [
        Route("/api/tournaments", _tournaments, methods=["GET", "POST"]),
        Route("/api/tournaments/{tid}", _view),
        Route("/api/tournaments/{tid}/join", _join, methods=["POST"]),
        Route("/api/tournaments/{tid}/withdraw", _withdraw, methods=["POST"]),
        Route("/api/tournaments/{tid}/level", _level, methods=["POST"]),
        Route("/api/tournaments/{tid}/records", _records),
        WebSocketRoute("/api/tournaments/{tid}/ws", _socket),
        Route("/api/tournament/{tid}/join", _bot_join, methods=["POST"]),
        Route("/api/tournament/{tid}/withdraw", _bot_withdraw, methods=["POST"]),
    ]


def _service(request: Request | WebSocket) -> Tournaments:
    return services(request).tournaments


def _code(request: Request | WebSocket) -> str | None:
    code = request.query_params.get("code")
    return code if code and len(code) <= CODE_LIMIT else None


async def _acting(request: Request) -> Player:
    session = await acting_session(request)
    if session is None:
        raise Refused("err_signed_out")
    return session.player


async def _viewer(request: Request | WebSocket) -> str | None:
    session = await current_session(request)
    return None if session is None else session.player.id


async def _answer(request: Request, player: Player) -> Response:
    tid = request.path_params["tid"]
    view = await _service(request).view(tid, player.id, _code(request))
    return WireResponse(view, headers=NO_STORE)


async def _tournaments(request: Request) -> Response:
    if request.method == "GET":
        return WireResponse(await _service(request).listing(), headers=NO_STORE)
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    wanted = decode_create(await read_body(request, MAX_BODY_BYTES))
    player = await _acting(request)
    wait = services(request).rates.allow_create(f"tournament:{player.id}")
    if wait is not None:
        raise Refused("err_rate_limited", seconds=max(1, round(wait)))
    made = await _service(request).create(player, wanted)
    answer = TournamentCreated(id=made.id, invite_code=made.settings.invite_code)
    return WireResponse(answer, status_code=201, headers=NO_STORE)


async def _view(request: Request) -> Response:
    tid = request.path_params["tid"]
    view = await _service(request).view(tid, await _viewer(request), _code(request))
    return WireResponse(view, headers=NO_STORE)


async def _join(request: Request) -> Response:
    player = await _acting(request)
    if player.bot:
        raise Refused("err_tournament_entry")  # a bot account joins through the API
    await _service(request).join(player, request.path_params["tid"], _code(request))
    return await _answer(request, player)


async def _withdraw(request: Request) -> Response:
    player = await _acting(request)
    level = request.query_params.get("level")
    entrant = None
    if level is not None:
        if not level.isdigit() or len(level) > 2:
            raise Refused("err_bad_field", field="level")
        entrant = level_id(int(level))
    await _service(request).withdraw(player, request.path_params["tid"], entrant)
    return await _answer(request, player)


async def _level(request: Request) -> Response:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    wanted = decode_level(await read_body(request, MAX_BODY_BYTES))
    player = await _acting(request)
    await _service(request).enter_level(player, request.path_params["tid"], wanted.level)
    return await _answer(request, player)


async def _records(request: Request) -> Response:
    tid = request.path_params["tid"]
    service = _service(request)
    tournament = await service.find(tid, await _viewer(request), _code(request))
    fmt = request.query_params.get("format", "text")
    return await records_response(services(request), tournament, fmt)


# -- the bot API ------------------------------------------------------------------------


async def _bot(request: Request) -> Player:
    owner = await services(request).bearer.owner(request, ("bot:play",))
    require_bot(owner)
    services(request).bearer.rates.hit("open", owner.token_id)
    player = await services(request).bots.player(owner)
    return player


async def _bot_join(request: Request) -> Response:
    player = await _bot(request)
    tid = request.path_params["tid"]
    await _service(request).join(player, tid, _code(request))
    return WireResponse(TournamentEntry(id=tid, entered=True), headers=NO_STORE)


async def _bot_withdraw(request: Request) -> Response:
    player = await _bot(request)
    tid = request.path_params["tid"]
    await _service(request).withdraw(player, tid)
    return WireResponse(TournamentEntry(id=tid, entered=False), headers=NO_STORE)


# -- the live page ----------------------------------------------------------------------


async def _socket(websocket: WebSocket) -> None:
    """Sends the tournament as the viewer sees it, then again at each change, until the
    page goes; what the page sends is read and dropped."""
    if await foreign_socket(websocket, services(websocket).guards.allowed_origins):
        return
    await websocket.accept()
    service = _service(websocket)
    tid = websocket.path_params["tid"]
    connection = Connection(websocket.send_text, "en")

    def send(view: TournamentView) -> None:
        connection.push(encode(view))

    watcher = Watcher(await _viewer(websocket), _code(websocket), send)
    try:
        send(await service.view(tid, watcher.viewer, watcher.code))
        service.watch(tid, watcher)
        while await receive_message(websocket) is not None:
            await asyncio.sleep(0)
    except Refused as refusal:
        connection.push(encode(error_message(refusal, "en")))
    except Exception:
        log.exception("tournament socket failed")
    finally:
        service.unwatch(watcher)
        await connection.close()
        with contextlib.suppress(Exception):
            await websocket.close(1000)
