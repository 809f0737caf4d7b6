"""The director of tournaments: starts each at its time, records its games' results,
pairs it (a Swiss round when the previous one has every result; an arena's waiting
players at once) and ends it. The pairing and the scoring are the library's
(``hanamikoji.tournaments``); the director only writes them, one change at a time, by
compare-and-set (``store.py``): a round's pairings and their games in one transaction.

One director per tournament at a time across instances (``locks.py``): every
:data:`DIRECT_INTERVAL` seconds each instance looks at the tournaments due or running
(:meth:`Director.tick`) and directs those whose lock it holds or takes, so when an
instance dies another takes its tournaments over at its next look. Results are read
from the games' rows, where every instance's hub writes a game's end, so a game that
ended anywhere (or while no director ran) is recorded at the next look.

Every pairing is a game of the hub's, to watch like any other: a game between two of
our bot levels is one whose both seats the hub's bots play (``games/bot_turns.py``),
unrated, and its result is recorded as any game's.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TypeVar

from hanamikoji.interfaces.web.games.making import GameOrder, PreparedGame
from hanamikoji.interfaces.web.tournaments.locks import DirectorLocks
from hanamikoji.interfaces.web.tournaments.model import (
    CREATED,
    FINISHED,
    STARTED,
    Event,
    Tournament,
    level_of,
)
from hanamikoji.interfaces.web.tournaments.store import Change, GameLink, TournamentStore
from hanamikoji.tournaments import Pairing, Swiss

__all__ = ["DIRECT_INTERVAL", "Director", "Place", "game_order", "result_for"]

DIRECT_INTERVAL = 0.25
"""Seconds between two looks at the tournaments: an arena's player is paired this long
after their game ends, at most, and a little more (a look that finds nothing new reads
two versions and the games' ends, not the events)."""

ATTEMPTS = 5
"""Compare-and-set attempts of one change before it waits for the next look."""

Place = tuple[int, int]
"""Where a pairing is: a Swiss's round (from 1) and board (from 0); an arena's (0, index)."""

Run = Callable[[Callable[[], object]], Awaitable[object]]

T = TypeVar("T")


def game_order(settings_variant: str, tc: str, rated: bool, pairing: Pairing) -> GameOrder:
    """The game of a pairing: the pairing's first player at seat 0 and starting, unless
    they are our bot level (a bot sits at seat 1, then starting). Two levels: the first at
    seat 1 and starting, the second at seat 0, unrated (a level's rating is fixed)."""
    first, second = level_of(pairing.first), level_of(pairing.second)
    if first is not None and second is not None:
        return GameOrder((None, None), settings_variant, tc, False, 1, first, second)
    if first is not None:
        return GameOrder((pairing.second, None), settings_variant, tc, rated, 1, first)
    if second is not None:
        return GameOrder((pairing.first, None), settings_variant, tc, rated, 0, second)
    return GameOrder((pairing.first, pairing.second), settings_variant, tc, rated, 0)


def result_for(pairing: Pairing, seat_result: str) -> str:
    """A game's result (from seat 0's side) from the pairing's first player's side; a
    game without one (aborted) is a draw."""
    if seat_result not in ("1-0", "0-1"):
        return "1/2-1/2"
    if level_of(pairing.first) is None:  # the first player sits at seat 0
        return seat_result
    return "0-1" if seat_result == "1-0" else "1-0"


def pending(event: Event) -> list[tuple[Place, Pairing]]:
    """The pairings without a result, with their places."""
    if isinstance(event, Swiss):
        return [
            ((played.number, board), pairing)
            for played in event.played
            for board, pairing in enumerate(played.pairings)
            if pairing.result is None
        ]
    if event.over:
        return []
    return [((0, i), game) for i, game in enumerate(event.games) if game.result is None]


def recorded(event: Event, place: Place, result: str) -> Event:
    if isinstance(event, Swiss):
        return event.record(place[0], place[1], result)
    return event.record(place[1], result)


def with_games(event: Event, start: int, ids: dict[int, str]) -> Event:
    """``event`` with game ids set on its pairings from the ``start``-th (board number
    of the last round for a Swiss, index for an arena)."""
    if isinstance(event, Swiss):
        last = event.played[-1]
        boards = tuple(
            replace(p, game=ids.get(board, p.game)) for board, p in enumerate(last.pairings)
        )
        return replace(event, played=(*event.played[:-1], replace(last, pairings=boards)))
    games = tuple(replace(g, game=ids.get(i, g.game)) for i, g in enumerate(event.games))
    return replace(event, games=games)


class Director:
    """Directs the tournaments this instance holds (see above).

    Args:
        db: the tournaments' store.
        locks: who directs which tournament (``locks.py``).
        prepare: a game's row and seats (``games/making.prepare`` on the hub).
        made: after a commit, the hub takes on the games (``games/making.games_made``).
        run: runs a blocking write (the hub's writer).
        now: the server's clock, ms since the epoch.
        changed: told of each change written here (the pages watching it).
    """

    def __init__(
        self,
        db: TournamentStore,
        locks: DirectorLocks,
        prepare: Callable[[GameOrder], PreparedGame],
        made: Callable[[Sequence[PreparedGame]], Awaitable[None]],
        run: Run,
        now: Callable[[], int],
        changed: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.db = db
        self.changed = changed
        self.locks = locks
        self.prepare = prepare
        self.made = made
        self.run = run
        self.now = now
        self._reads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="director")
        """The director's own thread for its reads: never queued behind the many
        blocking reads of streams and pages in the default executor's few threads."""
        self._known: dict[str, Tournament] = {}
        """The last read (or write) of each tournament directed here: read again only
        when its version changed (another writer: a join, a withdrawal, a takeover)."""

    async def tick(self) -> int:
        """One look: direct every tournament due or running whose lock this instance
        holds or takes. How many changes were written."""
        changes = 0
        for tournament_id in await self._read(self.db.due, self.now()):
            if await self.locks.take(tournament_id):
                changes += await self.direct(tournament_id)
        return changes

    async def _read(self, read: Callable[..., T], *args: object) -> T:
        """``read(*args)`` (blocking) in the director's own thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reads, functools.partial(read, *args))

    async def close(self) -> None:
        await self.locks.close()
        self._reads.shutdown(wait=False)

    async def direct(self, tournament_id: str) -> int:
        """Bring one tournament up to date; how many changes were written (0 or 1)."""
        for _ in range(ATTEMPTS):
            tournament = await self._read(self._current, tournament_id)
            if tournament is None or tournament.status == FINISHED:
                self._known.pop(tournament_id, None)
                await self.locks.release(tournament_id)
                return 0
            step = await self._step(tournament)
            if step is None:
                return 0
            event, change = step
            saved = await self.run(functools.partial(self.db.save, tournament, event, change))
            if saved:
                self._known[tournament_id] = replace(
                    tournament,
                    event=event,
                    version=tournament.version + 1,
                    status=change.status or tournament.status,
                    ended=change.ended or tournament.ended,
                )
                await self.made(change.games)
                self.changed(tournament_id)
                if change.status == FINISHED:
                    await self.locks.release(tournament_id)
                return 1
        return 0

    def _current(self, tournament_id: str) -> Tournament | None:
        """The tournament as it is now (blocking): the last one known here while its
        version is the same (a look reads a version, not the whole event)."""
        known = self._known.get(tournament_id)
        if known is not None and self.db.version(tournament_id) == known.version:
            return known
        found = self.db.get(tournament_id)
        if found is None:
            self._known.pop(tournament_id, None)
        else:
            self._known[tournament_id] = found
        return found

    async def _step(self, tournament: Tournament) -> tuple[Event, Change] | None:
        """The tournament's next state and what to write, or ``None`` if nothing changed."""
        now = self.now()
        event, status, changed = tournament.event, tournament.status, False
        if status == CREATED:
            if now < tournament.settings.starts:
                return None
            status, changed = STARTED, True
        waiting = pending(event)
        ends = await self._read(self.db.game_ends, [p.game for _, p in waiting if p.game])
        for place, pairing in waiting:
            if pairing.game in ends:
                event = recorded(event, place, result_for(pairing, ends[pairing.game]))
                changed = True
        event, status, games, links = self._pair(tournament, event, status, now)
        if not changed and not games and status == tournament.status:
            return None
        ended = now if status == FINISHED else None
        change = Change(status=status, ended=ended, games=tuple(games), links=tuple(links))
        return event, change

    def _pair(
        self, tournament: Tournament, event: Event, status: str, now: int
    ) -> tuple[Event, str, list[PreparedGame], list[GameLink]]:
        """``event`` with whoever may be paired now paired, the games and their links;
        or finished."""
        settings = tournament.settings
        if isinstance(event, Swiss):
            if event.round_on is not None:
                return event, status, [], []
            if event.finished or len(event.active) < 2:
                return event, FINISHED, [], []
            event = event.pair_next_round()
            number, start = event.played[-1].number, 0
            new = list(enumerate(event.played[-1].pairings))
        else:
            ends = settings.ends
            if ends is not None and now >= ends:
                return event.end(), FINISHED, [], []
            start = len(event.games)
            if len(event.waiting()) >= 2:
                event = event.pair_waiting()
            number = 0
            new = list(enumerate(event.games))[start:]
        games: list[PreparedGame] = []
        links: list[GameLink] = []
        ids: dict[int, str] = {}
        for board, pairing in new:
            order = game_order(settings.variant, settings.time_control, settings.rated, pairing)
            game = self.prepare(order)
            games.append(game)
            links.append(GameLink(game.row.id, number, board))
            ids[board] = game.row.id
        return with_games(event, start, ids), status, games, links
