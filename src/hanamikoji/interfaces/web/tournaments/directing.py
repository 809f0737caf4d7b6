"""The tournaments of a running server, built and directed: :func:`open_tournaments`
builds the tournaments' service and their director on the hub (its database, writer and
listener; a tournament's games are made as challenges' are, ``games/making.py``), and
:func:`run_directing` is the director's loop, a task of the server's lifespan
(``services.py`` starts and cancels it).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence

from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.games.making import PreparedGame, games_made, prepare
from hanamikoji.interfaces.web.tournaments.director import DIRECT_INTERVAL, Director
from hanamikoji.interfaces.web.tournaments.locks import AdvisoryLocks, SoleDirector
from hanamikoji.interfaces.web.tournaments.service import Tournaments
from hanamikoji.interfaces.web.tournaments.store import TournamentStore

__all__ = ["open_tournaments", "run_directing"]

log = logging.getLogger("hanamikoji.web")


def open_tournaments(hub: GameHub, now: Callable[[], int]) -> tuple[Tournaments, Director]:
    """The tournaments and their director, on the hub's database, writer and listener:
    a tournament's games are made as challenges' are (``games/making.py``), a whole
    round in the transaction that writes its pairings. One director per tournament
    across instances: PostgreSQL's advisory locks, or the one instance on SQLite."""
    db = TournamentStore(hub.store)
    tournaments = Tournaments(db, hub.ratings, hub.writer.call, now, hub.listener)
    store = hub.store
    locks = SoleDirector() if store.dialect == "sqlite" else AdvisoryLocks(store.url)

    async def made(games: Sequence[PreparedGame]) -> None:
        await games_made(hub, games)

    director = Director(
        db,
        locks,
        functools.partial(prepare, hub),
        made,
        hub.writer.call,
        now,
        tournaments.changed,
    )
    return tournaments, director


async def run_directing(director: Director, interval: float = DIRECT_INTERVAL) -> None:
    """Look at the tournaments again and again (``Director.tick``), until cancelled (not
    at all with an ``interval`` of 0)."""
    while interval > 0:
        await asyncio.sleep(interval)
        try:
            await director.tick()
        except Exception:  # the next look tries again
            log.exception("tournaments: directing failed")
