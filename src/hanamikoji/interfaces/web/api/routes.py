"""An account's personal API tokens, from its page's session (docs/bot-api.md).

==============================  =====================================================
``GET /api/tokens``             the account's tokens in use (never a token's text)
``POST /api/tokens``            a new token (``{"name", "scopes"}``): its text, once
``DELETE /api/tokens/{id}``     revoke one: it opens nothing from then on
``POST /api/me/bot``            make the account a bot account, for good (no game yet)
==============================  =====================================================

Accounts only (``err_account_only``); a ``POST`` or ``DELETE`` carries the session's
CSRF token, as every route acting for a session; at most
:data:`~hanamikoji.interfaces.web.db.api_tokens.MAX_TOKENS` tokens in use. A token
never opens these routes: they are the session's.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.web.db.api_tokens import MAX_TOKENS, ApiToken
from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.players.sessions import acting_session, current_session
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.api_messages import (
    BotUpgraded,
    TokenCreated,
    TokenInfo,
    TokenList,
    decode_token_body,
)
from hanamikoji.interfaces.web.wire.incoming import MAX_BODY_BYTES
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["token_routes"]

NO_STORE = {"Cache-Control": "no-store"}


def token_routes() -> list[BaseRoute]:
    return [
        Route("/api/tokens", _tokens, methods=["GET", "POST"]),
        Route("/api/tokens/{token_id}", _revoke, methods=["DELETE"]),
        Route("/api/me/bot", _upgrade, methods=["POST"]),
    ]


async def _account(request: Request, *, acting: bool) -> Player:
    session = await (acting_session(request) if acting else current_session(request))
    if session is None:
        raise Refused("err_signed_out")
    if session.player.kind != "account":
        raise Refused("err_account_only")
    return session.player


def _info(token: ApiToken) -> TokenInfo:
    return TokenInfo(
        id=token.id,
        name=token.name,
        scopes=token.scopes,
        created=token.created,
        last_used=token.last_used,
    )


async def _tokens(request: Request) -> Response:
    tokens = services(request).bearer.tokens
    if request.method == "GET":
        me = await _account(request, acting=False)
        listed = await asyncio.to_thread(tokens.listed, me.id)
        return WireResponse(TokenList(tokens=tuple(map(_info, listed))), headers=NO_STORE)
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    wanted = decode_token_body(await read_body(request, MAX_BODY_BYTES))
    me = await _account(request, acting=True)
    if await asyncio.to_thread(tokens.count, me.id) >= MAX_TOKENS:
        raise Refused("err_too_many_tokens", max=MAX_TOKENS)
    now = services(request).now()
    name = wanted.name.strip()
    made, text = await services(request).writer.call(
        lambda: tokens.create(me.id, name, wanted.scopes, now)
    )
    answer = TokenCreated(
        id=made.id, name=made.name, scopes=made.scopes, token=text, created=made.created
    )
    return WireResponse(answer, status_code=201, headers=NO_STORE)


async def _revoke(request: Request) -> Response:
    me = await _account(request, acting=True)
    token_id = request.path_params["token_id"][:32]
    tokens = services(request).bearer.tokens
    now = services(request).now()
    if not await services(request).writer.call(lambda: tokens.revoke(me.id, token_id, now)):
        raise Refused("err_no_token")
    services(request).bearer.forget(me.id)
    return Response(status_code=204)


async def _upgrade(request: Request) -> Response:
    """The account's page's upgrade to a bot account (as ``POST /api/bot/account/upgrade``
    does for a token): refused ``err_has_games`` once the account has a seat in a game."""
    me = await _account(request, acting=True)
    players = services(request).accounts.store
    if not await services(request).writer.call(lambda: players.make_bot(me.id)):
        raise Refused("err_has_games")
    services(request).bearer.forget(me.id)
    return WireResponse(BotUpgraded(), headers=NO_STORE)
