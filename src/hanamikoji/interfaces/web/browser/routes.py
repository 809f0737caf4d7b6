"""The game browser's routes (mounted before the games' own, whose ``/api/games/{id}``
would take ``search`` for a game's id).

==============================================  =========================================
``GET /api/games/search``                       a page of finished public games, newest
                                                first: ``player``, ``variant``,
                                                ``result``, ``rated``, ``since``,
                                                ``until``, ``cursor``, ``limit``
``GET /api/games/export/{name}``                the account's games as one record file
                                                (``format=text|json|ndjson``, or
                                                ``Accept: application/x-ndjson``), the
                                                same filters, ``max``
``GET /api/players/{name}/statistics``          the account's results: by variant, as
                                                first and second player, against bots
==============================================  =========================================

Each refuses a bad filter with ``err_bad_field`` (400, the field named) and a name no
account has with ``err_no_player`` (404), before anything is read.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.web.browser.export import export_format, export_response
from hanamikoji.interfaces.web.browser.filters import Cursor, read_filters, read_limit
from hanamikoji.interfaces.web.players.sessions import current_session
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.refused import Refused, whole_number

__all__ = ["EXPORT_MOST", "browser_routes"]

EXPORT_MOST = 1_000_000
"""The largest ``max`` an export takes (a larger one is read as this)."""

NO_STORE = {"Cache-Control": "no-store"}


def browser_routes() -> list[BaseRoute]:
    """The game browser's routes."""
    return [
        Route("/api/games/search", _search),
        Route("/api/games/export/{name}", _export),
        Route("/api/players/{name}/statistics", _statistics),
    ]


async def _search(request: Request) -> Response:
    params = request.query_params
    filters = read_filters(params)
    asked = params.get("cursor")
    cursor = None if not asked else Cursor.parse(asked)
    limit = read_limit(params.get("limit"))
    page = await services(request).browser.search(filters, cursor, limit)
    return WireResponse(page, headers=NO_STORE)


async def _export(request: Request) -> Response:
    params = request.query_params
    name = request.path_params["name"]
    if "player" in params:
        raise Refused("err_bad_field", field="player")  # the path names the player
    filters = read_filters(params, player=name)
    fmt = export_format(params.get("format"), request.headers.get("accept", ""))
    most = None
    if "max" in params:
        most = whole_number(params["max"], EXPORT_MOST)
        if most is None or most < 1:
            raise Refused("err_bad_field", field="max")
    browser = services(request).browser
    player = await browser.account(name)
    return export_response(browser, filters, player, fmt, most)


async def _statistics(request: Request) -> Response:
    filters = read_filters({}, player=request.path_params["name"])
    assert filters.player is not None
    session = await current_session(request)
    reader = None if session is None else session.player.id
    answer = await services(request).browser.statistics(filters.player, reader)
    return WireResponse(answer, headers=NO_STORE)
