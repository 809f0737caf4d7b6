"""Who sits at each seat of a game, as the table, the spectators, the games to watch and
the records name them: an account (its name and its current rating in the game's
variant, a new player's while it has none), a guest (its nickname), a bot (its level and
fixed rating), or nobody named.

The seats' players come from ``game_seats`` (``players/store.py``), read when a game is
loaded or read again and when a seat is claimed; nothing here touches a card.

>>> record_name(SeatPlayer(kind="guest", name="Kim"), 1)
'Kim (guest)'
>>> record_name(SeatPlayer(kind="anonymous"), 0)
'Player 1'
"""

from __future__ import annotations

from collections.abc import Sequence

from hanamikoji.arena.glicko2 import Rating
from hanamikoji.interfaces.web.db.games import StoredGame
from hanamikoji.interfaces.web.players.store import Player, PlayerStore
from hanamikoji.interfaces.web.ratings.model import PlayerRating, bot_fixed_rating
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.wire.outgoing import SeatPlayer
from hanamikoji.notation.outcomes import seat_name

__all__ = ["ANONYMOUS", "People", "bot_player", "people_of", "record_name", "unnamed"]

People = tuple[SeatPlayer, SeatPlayer]
"""Seat 0's player and seat 1's."""

ANONYMOUS = SeatPlayer(kind="anonymous")
"""A seat nobody is named at (opened by its link, or not yet claimed)."""


def bot_player(level: int | None, variant: str) -> SeatPlayer:
    """A bot of ``level``, with its fixed rating in ``variant`` where it has one."""
    if level is None:
        return SeatPlayer(kind="bot")
    try:
        fixed = bot_fixed_rating(level, variant)
    except (LookupError, ValueError):
        return SeatPlayer(kind="bot", level=level)
    return SeatPlayer(
        kind="bot", level=level, rating=round(fixed.rating), provisional=fixed.provisional
    )


def unnamed(stored: StoredGame) -> People:
    """The seats of a game whose players are not read: its bots, and nobody named."""
    seats = [
        bot_player(stored.level_at(seat), stored.variant) if seat in stored.bot_seats else ANONYMOUS
        for seat in (0, 1)
    ]
    return (seats[0], seats[1])


def people_of(
    players: PlayerStore, ratings: RatingStore, games: Sequence[StoredGame]
) -> dict[str, People]:
    """Who sits at each seat of these games, by game id (blocking: two queries)."""
    seated = players.seated([stored.id for stored in games])
    ids = [player.id for at in seated.values() for player in at.values()]
    current = ratings.current(ids)
    found: dict[str, People] = {}
    for stored in games:
        at = seated.get(stored.id, {})
        pair = [
            _named(at[seat], current, stored.variant) if seat in at else default
            for seat, default in enumerate(unnamed(stored))
        ]
        found[stored.id] = (pair[0], pair[1])
    return found


def _named(
    player: Player, current: dict[tuple[str, str], PlayerRating], variant: str
) -> SeatPlayer:
    if player.kind == "guest":
        return SeatPlayer(kind="guest", name=player.name)
    # An account not yet rated in the variant shows a new player's rating (1500?).
    line = current.get((player.id, variant), PlayerRating(variant, Rating(), 0)).wire()
    return SeatPlayer(
        kind="account",
        name=player.name,
        rating=line.rating,
        provisional=line.provisional,
        bot=player.bot,
    )


def record_name(player: SeatPlayer, seat: int) -> str:
    """The name a record's ``Player1``/``Player2`` tag gives the seat."""
    if player.kind == "account" and player.name:
        return player.name
    if player.kind == "guest" and player.name:
        return f"{player.name} (guest)"
    if player.kind == "bot" and player.level is not None:
        return f"Bot level {player.level}"
    return seat_name(seat)
