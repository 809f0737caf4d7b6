"""The bot ladder's routes (docs/bot-api.md, "The bot ladder").

=================================  ===========================================================
``POST /api/bot/ladder/join``      put the token's bot on the ladder ``{"variants",
                                   "concurrency"}`` (scope ``bot:play``, a bot account)
``POST /api/bot/ladder/leave``     take it off (its games in progress go on)
``GET /api/ladder?variant=``       a variant's standings, public
``GET /ladder``                    the ladder's page, public
=================================  ===========================================================
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.bots.service import require_bot
from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.ladder.service import Ladder
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.api_messages import ApiOk
from hanamikoji.interfaces.web.wire.incoming import MAX_BODY_BYTES
from hanamikoji.interfaces.web.wire.ladder_messages import (
    LadderLine,
    LadderPlace,
    LadderStandings,
    decode_ladder_join,
)
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["ladder_routes"]

NO_STORE = {"Cache-Control": "no-store"}
PLAY = ("bot:play",)


def ladder_routes() -> list[BaseRoute]:
    return [
        Route("/api/bot/ladder/join", _join, methods=["POST"]),
        Route("/api/bot/ladder/leave", _leave, methods=["POST"]),
        Route("/api/ladder", _standings),
    ]


def _ladder(request: Request) -> Ladder:
    return services(request).ladder


async def _bot_id(request: Request) -> str:
    owner = await services(request).bearer.owner(request, PLAY)
    require_bot(owner)
    services(request).bearer.rates.hit("open", owner.token_id)
    return owner.player_id


async def _join(request: Request) -> Response:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await read_body(request, MAX_BODY_BYTES)
    if raw and media != "application/json":
        raise Refused("err_content_type")
    body = decode_ladder_join(raw)
    player_id = await _bot_id(request)
    await _ladder(request).join(player_id, body.variants, body.concurrency)
    variants = tuple(dict.fromkeys(body.variants)) or tuple(VARIANTS)
    answer = LadderPlace(variants=variants, concurrency=body.concurrency)
    return WireResponse(answer, headers=NO_STORE)


async def _leave(request: Request) -> Response:
    player_id = await _bot_id(request)
    await _ladder(request).leave(player_id)
    return WireResponse(ApiOk(), headers=NO_STORE)


async def _standings(request: Request) -> Response:
    variant = request.query_params.get("variant", "classic")[:40]
    lines = await _ladder(request).standings(variant)
    answer = LadderStandings(
        variant=variant,
        variants=tuple(VARIANTS),
        bots=tuple(
            LadderLine(
                name=line.name,
                rating=line.rating,
                provisional=line.provisional,
                games=line.games,
                won=line.won,
                lost=line.lost,
                drawn=line.drawn,
                online=line.online,
            )
            for line in lines
        ),
    )
    return WireResponse(answer, headers={"Cache-Control": "no-cache"})
