"""The games in this instance's memory: each loaded once however many ask at the same
time, and dropped when nothing here needs it (the database has them all)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from hanamikoji.interfaces.web.games.live import MAX_LIVE_GAMES, LiveGame

__all__ = ["LiveGames"]


class LiveGames:
    """The live games of one instance (``me``).

    A game stays while a page is open on it here, its bot thinks here, or ``me`` owns
    it (:meth:`idle`).
    """

    def __init__(self, me: str) -> None:
        self.me = me
        self._live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}

    def find(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory."""
        return self._live.get(game_id)

    def holds(self, live: LiveGame) -> bool:
        """Whether ``live`` is still the copy in memory (not dropped, not loaded again)."""
        return self._live.get(live.id) is live

    def all(self) -> list[LiveGame]:
        return list(self._live.values())

    async def load(
        self,
        game_id: str,
        read: Callable[[str], LiveGame | None],
        opened: Callable[[LiveGame], Awaitable[None]],
    ) -> LiveGame | None:
        """The game read by ``read`` (blocking, in a thread) and kept; whoever asks
        while it is read waits for that read. ``opened`` runs once for a game read."""
        loading = self._loading.get(game_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await asyncio.to_thread(read, game_id)
            if live is not None:
                if len(self._live) >= MAX_LIVE_GAMES:
                    self._forget_idle_games()
                self._live[game_id] = live
            future.set_result(live)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # the waiters (if any) get it; asyncio need not log it
            raise
        finally:
            del self._loading[game_id]
        if live is not None:
            await opened(live)
        return live

    def idle(self, live: LiveGame) -> bool:
        """Whether ``live`` may leave memory: no page here, no bot thinking, not ours."""
        return not live.watched() and live.bot_task is None and not live.owned_by(self.me)

    def drop_if_idle(self, live: LiveGame) -> None:
        if self.idle(live) and self.holds(live):
            del self._live[live.id]

    def _forget_idle_games(self) -> None:
        """Drop games nobody watches (records and states fetched over HTTP load games
        too); the database has them all."""
        for game_id, live in list(self._live.items()):
            if self.idle(live) and not live.lock.locked():
                del self._live[game_id]
