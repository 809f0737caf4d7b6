"""``GameBrowser``: the game browser as the routes use it (built once in ``services.py``):
a page of finished public games and its next cursor, an account's statistics, and the
records of the games an export wants, read a batch at a time.

The records are those a finished game's seats download (``games/finishing.py``'s
``game_record``, handed in): the seed, every decision, the names at the seats. After the
end a game hides nothing any more (its spectators see the whole deal), and the browser
never reads a game that is private or still in play.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from msgspec import UNSET

from hanamikoji.interfaces.web.browser.filters import Cursor, Filters
from hanamikoji.interfaces.web.browser.statistics import outcome_of, player_statistics
from hanamikoji.interfaces.web.browser.store import Account, BrowserStore, FoundGame, SeatHolder
from hanamikoji.interfaces.web.db.games import GameStore
from hanamikoji.interfaces.web.games.live import LiveGame, rebuild
from hanamikoji.interfaces.web.wire.browser_answers import (
    BrowsedGame,
    GameResult,
    GameSearch,
    PlayerStatistics,
)
from hanamikoji.interfaces.web.wire.player_answers import Opponent
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.records import GameRecord

__all__ = ["EXPORT_BATCH", "GameBrowser"]

EXPORT_BATCH = 100
"""The games an export reads at once: a player with 100,000 games is never in memory."""

RecordOf = Callable[[LiveGame], GameRecord]


class GameBrowser:
    """Searches, statistics and exports of finished public games.

    Args:
        store: the browser's queries.
        games: the games' rows, read with their decisions for an export.
        record: a finished game's record (``Finishing.game_record``).
    """

    def __init__(self, store: BrowserStore, games: GameStore, record: RecordOf) -> None:
        self.store = store
        self.games = games
        self.record = record

    async def account(self, name: str) -> Account:
        """The account ``name`` names. Raises :class:`Refused` (``err_no_player``)."""
        found = await asyncio.to_thread(self.store.account, name)
        if found is None:
            raise Refused("err_no_player", name=name)
        return found

    async def search(self, filters: Filters, cursor: Cursor | None, limit: int) -> GameSearch:
        """A page of at most ``limit`` games after ``cursor``, and the next page's cursor."""
        player = None if filters.player is None else await self.account(filters.player)
        player_id = None if player is None else player.id
        # One more than asked says whether a next page exists.
        found = await asyncio.to_thread(self.store.search, filters, player_id, cursor, limit + 1)
        page = found[:limit]
        holders = await asyncio.to_thread(self.store.holders, [game.id for game in page])
        following = page[-1].cursor.text() if len(found) > limit else None
        return GameSearch(games=tuple(_browsed(game, holders) for game in page), next=following)

    async def statistics(self, name: str, reader: str | None = None) -> PlayerStatistics:
        """The account's statistics, as the player ``reader`` (an id; ``None``: nobody
        signed in) may see them: a private game counts for its own players only (the
        player page's games follow the same rule, ``db/games.py``'s ``shown_to``).
        Raises :class:`Refused` (``err_no_player``)."""
        player = await self.account(name)
        rows = await asyncio.to_thread(self.store.tallies, player.id, reader)
        return player_statistics(player.name, rows)

    async def records(
        self, filters: Filters, player: Account, most: int | None
    ) -> AsyncIterator[GameRecord]:
        """The records of the player's games ``filters`` wants, newest first (at most
        ``most``), read :data:`EXPORT_BATCH` at a time."""
        cursor: Cursor | None = None
        left = most
        while left is None or left > 0:
            size = EXPORT_BATCH if left is None else min(EXPORT_BATCH, left)
            found = await asyncio.to_thread(self.store.search, filters, player.id, cursor, size)
            if not found:
                return
            batch = await asyncio.to_thread(self._records, [game.id for game in found])
            for record in batch:
                yield record
            if left is not None:
                left -= len(found)
            if len(found) < size:
                return
            cursor = found[-1].cursor

    def _records(self, game_ids: list[str]) -> list[GameRecord]:
        """The records of finished games, in order (a game not ended is never one)."""
        records = []
        for stored in self.games.load_many(game_ids):
            live = LiveGame(stored=stored, game=rebuild(stored))
            if live.ended:
                records.append(self.record(live))
        return records


def _browsed(game: FoundGame, holders: dict[tuple[str, int], SeatHolder]) -> BrowsedGame:
    seats = (_seat(game, 0, holders), _seat(game, 1, holders))
    result: GameResult = "*"
    for known in ("1-0", "0-1", "1/2-1/2"):
        if game.result == known:
            result = known
    return BrowsedGame(
        id=game.id,
        variant=game.variant,
        created=game.created.isoformat(),
        rated=game.rated,
        first_player=game.first_player,
        players=seats,
        result=result,
        termination=game.termination,
        outcome=UNSET if game.seat is None else outcome_of(game.seat, game.result),
    )


def _seat(game: FoundGame, seat: int, holders: dict[tuple[str, int], SeatHolder]) -> Opponent:
    if game.bot_seat == seat and game.bot_level is not None:
        return Opponent(kind="bot", level=game.bot_level)
    holder = holders.get((game.id, seat))
    if holder is None:
        return Opponent(kind="anonymous")
    return Opponent(kind=holder.kind, name=holder.name, bot=True if holder.bot else UNSET)
