"""The puzzles' routes.

==========================================  =============================================
``GET /api/puzzles/next``                   the next puzzle near the solver's rating
                                            (``theme=``; a guest's ``rating=`` and
                                            ``seen=`` ids, comma-separated)
``GET /api/puzzles/daily``                  today's puzzle (UTC), the same for everyone
``GET /api/puzzles/streak?seed=N``          a streak's puzzles, easiest first (an
                                            account's kept streak without ``seed``)
``POST /api/puzzles/streak?seed=N``         a new streak (an account's kept on the
                                            server in place of its last one)
``GET /api/puzzles/themes``                 the themes, and today's puzzle's id
``GET /api/puzzles/{id}``                   a puzzle before its answer
``POST /api/puzzles/{id}/answer``           answer it: the reveal (an account's first
                                            answer is rated; again: ``err_puzzle_answered``)
``POST /api/puzzles/make``                  "Make this a puzzle": ``{"game", "ply"}``, a
                                            decision of the session's player's finished
                                            game, judged exactly in the bots' workers
==========================================  =============================================

The pages ``/puzzles``, ``/puzzles/daily``, ``/puzzles/streak`` and ``/puzzles/{id}``
are the page's (``pages/routes.py``). Every ``POST`` has passed the Origin check and
carries the session's CSRF token when it has a session.
"""

from __future__ import annotations

import secrets

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.arena.glicko2 import DEFAULT_RATING
from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.players.sessions import (
    acting_session,
    current_session,
    session_seat,
)
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.puzzles.service import Puzzles
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.incoming import (
    MAX_BODY_BYTES,
    decode_puzzle_answer,
    decode_puzzle_make,
)
from hanamikoji.interfaces.web.wire.puzzle_messages import (
    PuzzleMade,
    PuzzleThemes,
)
from hanamikoji.interfaces.web.wire.refused import Refused, whole_number
from hanamikoji.puzzles.themes import THEMES

__all__ = ["SEEN_LIMIT", "puzzle_routes"]

NO_STORE = {"Cache-Control": "no-store"}
SEEN_LIMIT = 100
"""The most puzzle ids a guest's ``seen=`` names (more are ignored)."""
SEED_CAP = 2**31 - 1


def puzzle_routes() -> list[BaseRoute]:
    return [
        Route("/api/puzzles/next", _next),
        Route("/api/puzzles/daily", _daily),
        Route("/api/puzzles/streak", _streak),
        Route("/api/puzzles/streak", _new_streak, methods=["POST"]),
        Route("/api/puzzles/themes", _themes),
        Route("/api/puzzles/make", _make, methods=["POST"]),
        Route("/api/puzzles/{puzzle_id}", _question),
        Route("/api/puzzles/{puzzle_id}/answer", _answer, methods=["POST"]),
    ]


def _puzzles(request: Request) -> Puzzles:
    return services(request).puzzles


async def _player(request: Request, *, acting: bool = False) -> Player | None:
    session = await (acting_session(request) if acting else current_session(request))
    return None if session is None else session.player


async def _next(request: Request) -> Response:
    params = request.query_params
    theme = params.get("theme") or None
    if theme is not None and theme not in THEMES:
        raise Refused("err_bad_field", field="theme")
    rating = DEFAULT_RATING
    if "rating" in params:
        read = whole_number(params["rating"], 4000)
        if read is None:
            raise Refused("err_bad_field", field="rating")
        rating = float(read)
    seen = set(params.get("seen", "").split(",")[:SEEN_LIMIT]) - {""}
    player = await _player(request)
    puzzles = _puzzles(request)
    found = await puzzles.next(player, rating, theme, seen)
    return WireResponse(await puzzles.question(found, player), headers=NO_STORE)


async def _daily(request: Request) -> Response:
    puzzles = _puzzles(request)
    question = await puzzles.question(puzzles.daily(), await _player(request))
    return WireResponse(question, headers=NO_STORE)


def _seed(request: Request) -> int:
    text = request.query_params.get("seed")
    seed = secrets.randbelow(SEED_CAP) if text is None else whole_number(text, SEED_CAP)
    if seed is None:
        raise Refused("err_bad_field", field="seed")
    return seed


async def _streak(request: Request) -> Response:
    seed = _seed(request)
    puzzles = _puzzles(request)
    player = await _player(request)
    kept = None if "seed" in request.query_params else await puzzles.kept_streak(player)
    run = kept if kept is not None else await puzzles.new_streak(None, seed)
    return WireResponse(run, headers=NO_STORE)


async def _new_streak(request: Request) -> Response:
    seed = _seed(request)
    player = await _player(request, acting=True)
    run = await _puzzles(request).new_streak(player, seed)
    return WireResponse(run, headers=NO_STORE)


async def _themes(request: Request) -> Response:
    daily = _puzzles(request).daily().id
    return WireResponse(PuzzleThemes(themes=tuple(THEMES), daily=daily), headers=NO_STORE)


async def _question(request: Request) -> Response:
    puzzles = _puzzles(request)
    puzzle = await puzzles.find(request.path_params["puzzle_id"])
    question = await puzzles.question(puzzle, await _player(request))
    return WireResponse(question, headers=NO_STORE)


async def _answer(request: Request) -> Response:
    puzzles = _puzzles(request)
    player = await _player(request, acting=True)
    puzzle = await puzzles.find(request.path_params["puzzle_id"])
    body = decode_puzzle_answer(await read_body(request, MAX_BODY_BYTES))
    result = await puzzles.answer(puzzle, player, body)
    return WireResponse(result, headers=NO_STORE)


async def _make(request: Request) -> Response:
    session = await acting_session(request)
    body = decode_puzzle_make(await read_body(request, MAX_BODY_BYTES))
    seated = None if session is None else await session_seat(request, body.game)
    if session is None or seated is None:
        raise Refused("err_puzzle_not_yours")
    live, seat = seated
    made = await _puzzles(request).make(live, seat, session.player, body.ply)
    return WireResponse(PuzzleMade(id=made), status_code=201, headers=NO_STORE)
