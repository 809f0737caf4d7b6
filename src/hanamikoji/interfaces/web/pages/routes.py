"""The page and what it reads besides the games: the routes that need no seat.

==========================================  =============================================
``GET /``, ``GET /g/{id}``, ``GET /w/{id}``  the page (a seat token is in the fragment)
``GET /learn``, ``GET /lobby``, ``GET /me``  the page: the lesson, the lobby, my games
``GET /@/{name}``, ``GET /leaderboard``     the page: a player's page, the leaderboard
``GET /ladder``                             the page: the bot ladder's standings
``GET /games``                              the page: the game browser
``GET /puzzles``, ``/puzzles/...``           the page: puzzles, the daily one, a streak
``GET /tournaments``, ``/tournament/{id}``    the page: the tournaments, one tournament
``GET /static/...``                         HTML, CSS and ES modules
``GET /api/i18n/{lang}``                    sentences and edition terms of a language
``GET /api/options``                        the variants, bot levels and languages
``GET /api/tutorial?step=N``                step N of the lesson, from the learner's seat
``GET /rules/{lang}``                       the rules in a language, a page of its own
``GET /api/rules/{lang}``                   the rules as an HTML fragment (the Rules panel)
==========================================  =============================================
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.catalog.lookup import client_catalog
from hanamikoji.interfaces.web.http.refusals import path_lang, request_lang
from hanamikoji.interfaces.web.pages.rules import rules_document, rules_fragment
from hanamikoji.interfaces.web.pages.tutorial import parse_step, tutorial_step
from hanamikoji.interfaces.web.wire.answers import Options, VariantOption, WireResponse
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["PAGE_PATHS", "STATIC", "page_routes", "static_files"]

STATIC = Path(__file__).resolve().parent.parent / "static"

PAGE_PATHS = (
    "/",
    "/g/{game_id}",
    "/learn",
    "/me",
    "/@/{name}",
    "/w/{game_id}",
    "/lobby",
    "/leaderboard",
    "/ladder",
    "/games",
    "/friends",
    "/challenge/{challenge_id}",
    "/puzzles",
    "/puzzles/daily",
    "/puzzles/streak",
    "/puzzles/{puzzle_id}",
    "/tournaments",
    "/tournament/{tournament_id}",
)
"""The addresses the page answers (it routes among them itself)."""


def page_routes() -> list[BaseRoute]:
    """The page's addresses, its sentences, options, lesson and rules."""
    return [
        *(Route(path, _page) for path in PAGE_PATHS),
        Route("/api/i18n/{lang}", _catalog),
        Route("/rules/{lang}", _rules_page),
        Route("/api/rules/{lang}", _rules_fragment),
        Route("/api/options", _options),
        Route("/api/tutorial", _tutorial),
    ]


def static_files() -> Mount:
    """``/static/...``: the page's files."""
    return Mount("/static", StaticFiles(directory=STATIC), name="static")


async def _page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _catalog(request: Request) -> Response:
    lang = path_lang(request)
    return WireResponse(client_catalog(lang), headers={"Cache-Control": "max-age=300"})


async def _rules_page(request: Request) -> Response:
    return await _rules(request, rules_document)


async def _rules_fragment(request: Request) -> Response:
    return await _rules(request, rules_fragment)


async def _rules(request: Request, render: Callable[[Lang, str | None], str]) -> Response:
    """The rules in the path's language, the query's ``variant`` (if any) marked."""
    lang = path_lang(request)
    variant = request.query_params.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    body = await asyncio.to_thread(render, lang, variant)
    return HTMLResponse(body, headers={"Cache-Control": "max-age=300"})


async def _tutorial(request: Request) -> Response:
    index = parse_step(request.query_params.get("step", "0"))
    return WireResponse(
        tutorial_step(index, request_lang(request)), headers={"Cache-Control": "no-store"}
    )


async def _options(request: Request) -> Response:
    return WireResponse(
        Options(
            variants=tuple(
                VariantOption(name=v.name, max_rounds=v.max_rounds) for v in VARIANTS.values()
            ),
            levels=tuple(sorted(LEVELS)),
            languages=LANGUAGES,
        )
    )
