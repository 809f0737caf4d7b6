"""The routes of friends and challenges.

==============================================  ========================================
``GET /api/me/friends``                         whom I follow (each online or not), whom I block
``GET /api/players/{name}/relation``            my relation to an account, and whether it is online
``POST /api/players/{name}/follow``             follow an account (``unfollow`` undoes it)
``POST /api/players/{name}/block``              block an account (``unblock`` undoes it)
``GET /api/challenges``                         the open challenges to and from me
``POST /api/challenges``                        challenge an account, or anyone (an open challenge)
``GET /api/challenges/{id}``                    a challenge, as its link's page shows it
``POST /api/challenges/{id}/accept``            accept it: the game is made
``POST /api/challenges/{id}/decline``           decline it (its opponent)
``POST /api/challenges/{id}/cancel``            withdraw it (its challenger)
==============================================  ========================================

Every ``POST`` has passed the Origin check and carries the session's CSRF token
(``players/sessions.acting_session``); challenges are made at most as often as games
(``--create-rate``, per player). A refusal is answered by the app's handler. The site
socket (``WS /social/ws``) is in ``sockets.py``.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.players.sessions import acting_session, current_session
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.social.relations import BLOCK, FOLLOW, MAX_RELATIONS, Kind
from hanamikoji.interfaces.web.social.service import Social
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.incoming import MAX_BODY_BYTES, decode_challenge
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.interfaces.web.wire.social_messages import Friend, Friends, RelationState

__all__ = ["social_routes"]

NO_STORE = {"Cache-Control": "no-store"}

NAME_LIMIT = 40
"""The longest name looked up (an account's name has at most 20 characters)."""


def social_routes() -> list[BaseRoute]:
    return [
        Route("/api/me/friends", _friends),
        Route("/api/players/{name}/relation", _relation),
        Route("/api/players/{name}/follow", _follow, methods=["POST"]),
        Route("/api/players/{name}/unfollow", _unfollow, methods=["POST"]),
        Route("/api/players/{name}/block", _block, methods=["POST"]),
        Route("/api/players/{name}/unblock", _unblock, methods=["POST"]),
        Route("/api/challenges", _challenges, methods=["GET", "POST"]),
        Route("/api/challenges/{challenge_id}", _challenge),
        Route("/api/challenges/{challenge_id}/accept", _accept, methods=["POST"]),
        Route("/api/challenges/{challenge_id}/decline", _decline, methods=["POST"]),
        Route("/api/challenges/{challenge_id}/cancel", _cancel, methods=["POST"]),
    ]


def _social(request: Request) -> Social:
    return services(request).social


async def _signed_in(request: Request, *, acting: bool) -> Player:
    session = await (acting_session(request) if acting else current_session(request))
    if session is None:
        raise Refused("err_signed_out")
    return session.player


async def _account(request: Request) -> Player:
    """The account the path names; :class:`Refused` (``err_no_player``) if none."""
    name = request.path_params["name"]
    found = None
    if len(name) <= NAME_LIMIT:
        found = await asyncio.to_thread(_social(request).players.account, name)
    if found is None:
        raise Refused("err_no_player", name=name[:NAME_LIMIT])
    return found[0]


# -- relations ------------------------------------------------------------------------------


async def _relation_state(request: Request, me: Player | None, other: Player) -> Response:
    social = _social(request)
    kind = None if me is None else await asyncio.to_thread(social.relations.kind, me.id, other.id)
    online = other.id in await social.online([other.id])
    answer = RelationState(
        name=other.name,
        online=online,
        following=kind == FOLLOW,
        blocking=kind == BLOCK,
        bot=other.bot,
    )
    return WireResponse(answer, headers=NO_STORE)


async def _relation(request: Request) -> Response:
    session = await current_session(request)
    other = await _account(request)
    return await _relation_state(request, None if session is None else session.player, other)


async def _relate(request: Request, kind: Kind, *, on: bool) -> Response:
    """Follow or block (``on``), or undo it: accounts only, never oneself; a player who
    blocked me cannot be followed."""
    me = await _signed_in(request, acting=True)
    if me.kind != "account":
        raise Refused("err_account_only")
    other = await _account(request)
    if other.id == me.id:
        raise Refused("err_relation_self")
    social = _social(request)
    relations = social.relations
    if on:
        if await asyncio.to_thread(relations.kind, other.id, me.id) == BLOCK:
            raise Refused("err_blocked")
        current = await asyncio.to_thread(relations.kind, me.id, other.id)
        if current != kind and await asyncio.to_thread(relations.count, me.id, kind) >= (
            MAX_RELATIONS
        ):
            raise Refused("err_too_many_relations", max=MAX_RELATIONS)
        now = services(request).now()
        await social.run(lambda: relations.set(me.id, other.id, kind, now))
    else:
        await social.run(lambda: relations.remove(me.id, other.id, kind))
    return await _relation_state(request, me, other)


async def _follow(request: Request) -> Response:
    return await _relate(request, FOLLOW, on=True)


async def _unfollow(request: Request) -> Response:
    return await _relate(request, FOLLOW, on=False)


async def _block(request: Request) -> Response:
    return await _relate(request, BLOCK, on=True)


async def _unblock(request: Request) -> Response:
    return await _relate(request, BLOCK, on=False)


async def _friends(request: Request) -> Response:
    me = await _signed_in(request, acting=False)
    social = _social(request)
    following = await asyncio.to_thread(social.relations.listed, me.id, FOLLOW)
    blocked = await asyncio.to_thread(social.relations.listed, me.id, BLOCK)
    ids = [player_id for player_id, _ in following]
    online = await social.online(ids)
    bots = await asyncio.to_thread(services(request).accounts.store.bot_ids, ids)
    friends = sorted(
        (
            Friend(name=name, online=player_id in online, bot=player_id in bots)
            for player_id, name in following
        ),
        key=lambda friend: not friend.online,  # stable: by name within
    )
    answer = Friends(following=tuple(friends), blocked=tuple(name for _, name in blocked))
    return WireResponse(answer, headers=NO_STORE)


# -- challenges -----------------------------------------------------------------------------


async def _challenges(request: Request) -> Response:
    if request.method == "GET":
        me = await _signed_in(request, acting=False)
        return WireResponse(await _social(request).listing(me), headers=NO_STORE)
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    wanted = decode_challenge(await read_body(request, MAX_BODY_BYTES))
    session = await acting_session(request)
    player = None if session is None else session.player
    if player is not None:
        wait = services(request).rates.allow_create(f"challenge:{player.id}")
        if wait is not None:
            raise Refused("err_rate_limited", seconds=max(1, round(wait)))
    made = await _social(request).challenge(player, wanted)
    return WireResponse(made, status_code=201, headers=NO_STORE)


async def _challenge(request: Request) -> Response:
    session = await current_session(request)
    player = None if session is None else session.player
    view = await _social(request).view(player, request.path_params["challenge_id"])
    return WireResponse(view, headers=NO_STORE)


async def _accept(request: Request) -> Response:
    session = await acting_session(request)
    player = None if session is None else session.player
    accepted = await _social(request).accept(player, request.path_params["challenge_id"])
    return WireResponse(accepted, headers=NO_STORE)


async def _decline(request: Request) -> Response:
    session = await acting_session(request)
    player = None if session is None else session.player
    await _social(request).decline(player, request.path_params["challenge_id"])
    return Response(status_code=204)


async def _cancel(request: Request) -> Response:
    session = await acting_session(request)
    player = None if session is None else session.player
    await _social(request).cancel(player, request.path_params["challenge_id"])
    return Response(status_code=204)
