"""The ratings' routes, and the ratings other routes add to what they send.

==========================================  =============================================
``GET /api/leaderboard?variant=classic``    the accounts rated in a variant, best first:
                                            established, then provisional apart
``GET /api/games/{id}/ratings``             a rated game's rating changes, once rated
==========================================  =============================================

Nothing here names a game's seat tokens or cards: a player's history carries no game id
(as a player's page's games do not), and a game's changes are public numbers.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hanamikoji.arena.glicko2 import PROVISIONAL_DEVIATION
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.games.checks import Refused
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.services import services

__all__ = ["annotate_games", "game_ratings_json", "player_ratings_json", "rating_routes"]


def _ratings(connection: HTTPConnection) -> RatingStore:
    return services(connection).ratings


def rating_routes() -> list[BaseRoute]:
    """The ratings' routes."""

    async def leaderboard(request: Request) -> Response:
        variant = request.query_params.get("variant", "classic")
        if variant not in VARIANTS:
            raise Refused("err_bad_field", field="variant")
        store = _ratings(request)
        established = await asyncio.to_thread(store.leaderboard, variant, provisional=False)
        provisional = await asyncio.to_thread(store.leaderboard, variant, provisional=True)
        return JSONResponse(
            {
                "variant": variant,
                "bound": PROVISIONAL_DEVIATION,
                "players": [{"name": name, **rating.json()} for name, rating in established],
                "provisional": [{"name": name, **rating.json()} for name, rating in provisional],
            },
            headers={"Cache-Control": "no-store"},
        )

    async def game(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        stored = (
            await asyncio.to_thread(services(request).games.get, game_id)
            if len(game_id) <= 32
            else None
        )
        if stored is None:
            raise Refused("err_no_game")
        body = await game_ratings_json(services(request).hub, game_id, rated=stored.rated)
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    return [
        Route("/api/leaderboard", leaderboard),
        Route("/api/games/{game_id}/ratings", game),
    ]


async def game_ratings_json(hub: GameHub, game_id: str, *, rated: bool) -> dict[str, Any]:
    """Whether the game is rated and, once rated, each side's change."""
    changes = await hub.rating_changes(game_id) if rated else None
    return {
        "rated": rated,
        "changes": None if changes is None else [change.json() for change in changes.changes],
    }


async def player_ratings_json(store: RatingStore, player_id: str) -> dict[str, Any]:
    """A player's page's ratings: the current one per variant and the history."""
    current = await asyncio.to_thread(store.ratings_of, player_id)
    history = await asyncio.to_thread(store.history, player_id)
    return {
        "ratings": [rating.json() for rating in current],
        "history": [point.json() for point in history],
    }


async def annotate_games(
    store: RatingStore, player_id: str, games: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Add to a player's list of games (each with its ``id``, ``seat`` and ``variant``)
    the player's change in each rated one (``rating_delta``) and each named opponent's
    current rating in that game's variant (``opponent.rating``); the player's own
    ratings are returned."""
    ids = [str(game["id"]) for game in games]
    deltas = await asyncio.to_thread(store.deltas, player_id, ids)
    seated = await asyncio.to_thread(store.seat_accounts, ids)
    opponents = {
        str(game["id"]): seated.get(str(game["id"]), {}).get(1 - int(game["seat"]))
        for game in games
    }
    wanted = [player_id, *(pid for pid in opponents.values() if pid is not None)]
    current = await asyncio.to_thread(store.current, wanted)
    for game in games:
        found = current.get((str(opponents[str(game["id"])]), str(game["variant"])))
        if found is not None:
            game["opponent"] = {**game["opponent"], "rating": found.json()}
        if game["id"] in deltas:
            game["rating_delta"] = deltas[game["id"]]
    return [rating.json() for (pid, _), rating in sorted(current.items()) if pid == player_id]
