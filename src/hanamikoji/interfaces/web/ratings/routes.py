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
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.arena.glicko2 import PROVISIONAL_DEVIATION
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.players.store import GameEntry
from hanamikoji.interfaces.web.ratings.model import PlayerRating
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import GameRatings as GameRatingsAnswer
from hanamikoji.interfaces.web.wire.answers import (
    Leaderboard,
    LeaderboardRow,
    RatingPoint,
    VariantRating,
    WireResponse,
)
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["RatingNotes", "game_ratings", "player_ratings", "rating_notes", "rating_routes"]


def rating_routes() -> list[BaseRoute]:
    """The ratings' routes."""

    async def leaderboard(request: Request) -> Response:
        variant = request.query_params.get("variant", "classic")
        if variant not in VARIANTS:
            raise Refused("err_bad_field", field="variant")
        store = services(request).ratings
        established = await asyncio.to_thread(store.leaderboard, variant, provisional=False)
        provisional = await asyncio.to_thread(store.leaderboard, variant, provisional=True)
        return WireResponse(
            Leaderboard(
                variant=variant,
                bound=PROVISIONAL_DEVIATION,
                players=tuple(_row(name, rating) for name, rating in established),
                provisional=tuple(_row(name, rating) for name, rating in provisional),
            ),
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
        body = await game_ratings(services(request).hub, game_id, rated=stored.rated)
        return WireResponse(body, headers={"Cache-Control": "no-store"})

    return [
        Route("/api/leaderboard", leaderboard),
        Route("/api/games/{game_id}/ratings", game),
    ]


def _row(name: str, rating: PlayerRating) -> LeaderboardRow:
    line = rating.wire()
    return LeaderboardRow(
        name=name,
        variant=line.variant,
        rating=line.rating,
        deviation=line.deviation,
        provisional=line.provisional,
        games=line.games,
    )


async def game_ratings(hub: GameHub, game_id: str, *, rated: bool) -> GameRatingsAnswer:
    """Whether the game is rated and, once rated, each side's change."""
    changes = await hub.rating_changes(game_id) if rated else None
    return GameRatingsAnswer(
        rated=rated,
        changes=None if changes is None else tuple(change.wire() for change in changes.changes),
    )


async def player_ratings(
    store: RatingStore, player_id: str
) -> tuple[tuple[VariantRating, ...], tuple[RatingPoint, ...]]:
    """A player's page's ratings: the current one per variant, and the history."""
    current = await asyncio.to_thread(store.ratings_of, player_id)
    history = await asyncio.to_thread(store.history, player_id)
    return tuple(rating.wire() for rating in current), tuple(point.wire() for point in history)


@dataclass(frozen=True, slots=True)
class RatingNotes:
    """What a player's list of games shows of ratings: the player's change in each rated
    game (by game id), each named opponent's current rating in that game's variant (by
    game id), and the player's own current ratings."""

    deltas: dict[str, int]
    opponents: dict[str, VariantRating]
    mine: tuple[VariantRating, ...]


async def rating_notes(store: RatingStore, player_id: str, games: list[GameEntry]) -> RatingNotes:
    """The :class:`RatingNotes` of ``player_id``'s ``games``."""
    ids = [game.id for game in games]
    deltas = await asyncio.to_thread(store.deltas, player_id, ids)
    seated = await asyncio.to_thread(store.seat_accounts, ids)
    opponent_of = {game.id: seated.get(game.id, {}).get(1 - game.seat) for game in games}
    wanted = [player_id, *(pid for pid in opponent_of.values() if pid is not None)]
    current = await asyncio.to_thread(store.current, wanted)
    opponents = {
        game.id: found.wire()
        for game in games
        if (found := current.get((str(opponent_of[game.id]), game.variant))) is not None
    }
    mine = tuple(rating.wire() for (pid, _), rating in sorted(current.items()) if pid == player_id)
    return RatingNotes(dict(deltas), opponents, mine)
