"""The bot API's routes (docs/bot-api.md), modelled on lichess's Bot API.

=================================================  ===========================================
``GET /api/account``                               the token's account (``read`` or ``bot:play``)
``POST /api/bot/account/upgrade``                  make the account a bot, for good (no game yet)
``GET /api/stream/event``                          the bot's events (NDJSON)
``GET /api/bot/game/stream/{id}``                  one of its games (NDJSON)
``POST /api/bot/game/{id}/move/{decision}``        a decision, percent-encoded in the path
``POST /api/bot/game/{id}/move``                   a decision, in the body ``{"decision"}``
``POST /api/bot/game/{id}/resign``                 resign
``POST /api/bot/game/{id}/abort``                  abort, before each side has decided
``POST /api/bot/game/{id}/chat``                   a chat line ``{"room", "text"}``
``POST /api/challenge/{name}``                     challenge an account
``POST /api/challenge/{id}/accept``                accept a challenge (``decline``, ``cancel``)
=================================================  ===========================================

Every route reads the bearer token and nothing else (``http/bearer.py``); refusals are
answered ``{"error", "message"}`` (``http/refusals.api_refusal_response``).
"""

from __future__ import annotations

import asyncio
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.bots.service import BotGames, require_bot
from hanamikoji.interfaces.web.bots.streams import NDJSON, event_stream, game_stream
from hanamikoji.interfaces.web.chat.model import Author
from hanamikoji.interfaces.web.db.api_tokens import TokenOwner
from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.api_messages import (
    AccountInfo,
    ApiChallengeMade,
    ApiOk,
    BotUpgraded,
    VariantRatingLine,
    decode_challenge_body,
    decode_chat_body,
    decode_move_body,
)
from hanamikoji.interfaces.web.wire.incoming import (
    MAX_BODY_BYTES,
    ChallengeRequest,
    ChatSayMessage,
)
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["bot_routes"]

PLAY = ("bot:play",)
NO_STORE = {"Cache-Control": "no-store"}
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
_FIRST = {"challenger": "me", "dest": "them", "random": "random"}
_ILLEGAL = frozenset({"err_not_a_move"})


def bot_routes() -> list[BaseRoute]:
    return [
        Route("/api/account", _account),
        Route("/api/bot/account/upgrade", _upgrade, methods=["POST"]),
        Route("/api/stream/event", _events),
        Route("/api/bot/game/stream/{game_id}", _game),
        Route("/api/bot/game/{game_id}/move", _move_body, methods=["POST"]),
        Route("/api/bot/game/{game_id}/move/{decision:path}", _move_path, methods=["POST"]),
        Route("/api/bot/game/{game_id}/resign", _resign, methods=["POST"]),
        Route("/api/bot/game/{game_id}/abort", _abort, methods=["POST"]),
        Route("/api/bot/game/{game_id}/chat", _chat, methods=["POST"]),
        Route("/api/challenge/{challenge_id}/accept", _accept, methods=["POST"]),
        Route("/api/challenge/{challenge_id}/decline", _decline, methods=["POST"]),
        Route("/api/challenge/{challenge_id}/cancel", _cancel, methods=["POST"]),
        Route("/api/challenge/{name}", _challenge, methods=["POST"]),
    ]


def _bots(request: Request) -> BotGames:
    return services(request).bots


async def _bot(request: Request, bucket: str | None = "action") -> TokenOwner:
    """The bot the request's token plays as (scope ``bot:play``, a bot account), its
    rate counted in ``bucket``."""
    owner = await services(request).bearer.owner(request, PLAY)
    require_bot(owner)
    if bucket is not None:
        services(request).bearer.rates.hit(bucket, owner.token_id)
    return owner


async def _json(request: Request) -> bytes:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    return await read_body(request, MAX_BODY_BYTES)


# -- the account ------------------------------------------------------------------------------


async def _account(request: Request) -> Response:
    owner = await services(request).bearer.owner(request, ("read", *PLAY))
    ratings = await asyncio.to_thread(services(request).ratings.current, [owner.player_id])
    lines = {
        variant: VariantRatingLine(
            rating=round(found.rating.rating), provisional=found.provisional, games=found.games
        )
        for (_, variant), found in sorted(ratings.items())
    }
    answer = AccountInfo(id=owner.player_id, name=owner.name, bot=owner.bot, ratings=lines)
    return WireResponse(answer, headers=NO_STORE)


async def _upgrade(request: Request) -> Response:
    owner = await services(request).bearer.owner(request, PLAY)
    players = services(request).accounts.store
    if not await services(request).writer.call(lambda: players.make_bot(owner.player_id)):
        raise Refused("err_has_games")
    services(request).bearer.forget(owner.player_id)
    return WireResponse(BotUpgraded(), headers=NO_STORE)


# -- streams ----------------------------------------------------------------------------------


async def _events(request: Request) -> Response:
    owner = await _bot(request, "open")
    player = await _bots(request).player(owner)
    lines = event_stream(_bots(request), services(request).social, owner, player)
    return StreamingResponse(lines, media_type=NDJSON, headers=STREAM_HEADERS)


async def _game(request: Request) -> Response:
    owner = await _bot(request, "open")
    live, seat = await _bots(request).seat(owner, request.path_params["game_id"])
    lines = game_stream(_bots(request), services(request).chat, owner, live, seat)
    return StreamingResponse(lines, media_type=NDJSON, headers=STREAM_HEADERS)


# -- a game's actions -------------------------------------------------------------------------


async def _play(request: Request, decision: str) -> Response:
    owner = await _bot(request)
    live, seat = await _bots(request).seat(owner, request.path_params["game_id"])
    if not 0 < len(decision) <= 32:
        raise Refused("err_malformed")
    try:
        await services(request).hub.play(live, seat, decision, None)
    except Refused as refusal:
        if refusal.key in _ILLEGAL:
            raise Refused("err_malformed", **refusal.fields) from None
        if refusal.key.startswith("err_") and refusal.key not in (
            "err_not_your_turn",
            "err_game_over",
            "err_conflict",
            "err_storage",
            "err_unavailable",
        ):
            raise Refused("err_illegal", reason=refusal.key) from None
        raise
    return WireResponse(ApiOk(), headers=NO_STORE)


async def _move_path(request: Request) -> Response:
    return await _play(request, unquote(request.path_params["decision"]))


async def _move_body(request: Request) -> Response:
    body = decode_move_body(await _json(request))
    return await _play(request, body.decision)


async def _resign(request: Request) -> Response:
    owner = await _bot(request)
    live, seat = await _bots(request).seat(owner, request.path_params["game_id"])
    await services(request).hub.finishing.resign(live, seat)
    return WireResponse(ApiOk(), headers=NO_STORE)


async def _abort(request: Request) -> Response:
    owner = await _bot(request)
    live, seat = await _bots(request).seat(owner, request.path_params["game_id"])
    await services(request).hub.finishing.abort(live, seat)
    return WireResponse(ApiOk(), headers=NO_STORE)


async def _chat(request: Request) -> Response:
    body = decode_chat_body(await _json(request))
    owner = await _bot(request)
    live, seat = await _bots(request).seat(owner, request.path_params["game_id"])
    author = Author(owner.player_id, owner.name, True, seat)
    message = ChatSayMessage(room=body.room, text=body.text)
    chat = live.stored.bot_seat is None
    await services(request).chat.say(live.id, author, message, live.ply, chat=chat)
    return WireResponse(ApiOk(), headers=NO_STORE)


# -- challenges -------------------------------------------------------------------------------


async def _challenge(request: Request) -> Response:
    body = decode_challenge_body(await _json(request))
    owner = await _bot(request, "open")
    player = await _bots(request).player(owner)
    social = services(request).social
    wanted = ChallengeRequest(
        opponent=request.path_params["name"][:40],
        variant=body.variant,
        time_control=body.clock or "none",
        rated=body.rated,
        first=_FIRST[body.first],  # type: ignore[arg-type]
    )
    if wanted.variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    made = await social.challenge(player, wanted)
    found = await social.find(made.id)
    answer = ApiChallengeMade(challenge=await _bots(request).challenge(found))
    return WireResponse(answer, headers=NO_STORE)


async def _accept(request: Request) -> Response:
    owner = await _bot(request, "open")
    player = await _bots(request).player(owner)
    await services(request).social.accept(player, request.path_params["challenge_id"])
    return WireResponse(ApiOk(), headers=NO_STORE)


async def _decline(request: Request) -> Response:
    owner = await _bot(request)
    player = await _bots(request).player(owner)
    await services(request).social.decline(player, request.path_params["challenge_id"])
    return WireResponse(ApiOk(), headers=NO_STORE)


async def _cancel(request: Request) -> Response:
    owner = await _bot(request)
    player = await _bots(request).player(owner)
    await services(request).social.cancel(player, request.path_params["challenge_id"])
    return WireResponse(ApiOk(), headers=NO_STORE)
