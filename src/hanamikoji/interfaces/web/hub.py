"""Live games: who is connected to which seat, decisions, bots, and announcements.

The database is the truth. A game is loaded by replaying its stored decisions the first
time someone asks for it (after a restart too), a decision is committed before it is
applied for anyone to see, and when another writer got to a ply first the live copy is
thrown away and rebuilt from the database.

Several instances may serve one PostgreSQL database (``cluster/instances.py``): a decision
committed by one reaches the pages on the others through its event (``cluster/events.py``),
and the game's pending work (its bot's turn, its clock, its forfeit timer) is run by
its owner alone. A game stays in memory while a page is open on it here, its bot thinks
here, or this instance owns it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

from hanamikoji.bots.analysis import AnalysisSettings
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.interfaces.web.analyses import Analyses
from hanamikoji.interfaces.web.bots import BotRunner, bot_seed
from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.checks import Refused, check_decision
from hanamikoji.interfaces.web.clock import (
    UNTIMED,
    Clocks,
    Decision,
    TimeControl,
    clocks,
    datetime_to_ms,
    ms_to_datetime,
    wall_clock_ms,
)
from hanamikoji.interfaces.web.cluster.events import Event, Listener
from hanamikoji.interfaces.web.cluster.instances import Cluster, PresenceRow, away_since
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import Append, GameStore, PlyTakenError, new_game_row
from hanamikoji.interfaces.web.db.tokens import hash_token, new_token, token_matches
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.http.health import RETRY_AFTER_SECONDS, unreachable
from hanamikoji.interfaces.web.live import (
    SPECTATOR,
    Connection,
    LiveGame,
    NewGame,
    SeatTap,
    clock_json,
    clock_tags,
    needs_owner,
    rebuild,
    timeline,
)
from hanamikoji.interfaces.web.payload import (
    PublicGame,
    replay_frames,
    seat_state,
    spectator_state,
)
from hanamikoji.interfaces.web.ratings.forfeits import (
    DEFAULT_ABANDON_SECONDS,
    DEFAULT_ABORT_SECONDS,
    Forfeit,
    forfeit_due,
)
from hanamikoji.interfaces.web.ratings.model import GameRatings
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.wire.answers import AnalysisState, WatchableGame, WatchList
from hanamikoji.interfaces.web.wire.outgoing import (
    ErrorMessage,
    Replay,
    SeatState,
    SpectatorState,
    WireStruct,
    encode,
)
from hanamikoji.notation.names import Lang
from hanamikoji.notation.records import GameRecord

__all__ = ["GameHub", "error_message", "unavailable_message"]

log = logging.getLogger("hanamikoji.web")

MAX_LIVE_GAMES = 20_000
"""Games kept in memory before those nobody watches are dropped (and bots' memories
kept)."""

SEED_LIMIT = 1 << 53
"""Seeds stay exact in JavaScript numbers and in a signed 64-bit column."""
assert SEED_LIMIT <= MAX_SEED


FLAG_MARGIN = 0.005
"""Seconds the flag timer waits past the flag time, so the check finds the time out."""

MAX_TIMER = 3600.0
"""The longest a flag timer sleeps at once (a correspondence game's wakes up and sets
its next one)."""


def _cancel_timer(live: LiveGame) -> None:
    if live.clock_timer is not None:
        live.clock_timer.cancel()
        live.clock_timer = None


def _cancel_presence(live: LiveGame) -> None:
    if live.presence_timer is not None:
        live.presence_timer.cancel()
        live.presence_timer = None


class GameHub:
    """Every live game of one server process.

    Args:
        store: the database.
        bots: where bots think.
        bot_delay: seconds a bot waits before it acts, so a person sees one move at a time.
        tap: sees every message sent to a seat (the hidden-card test hooks in here).
        analysis: how much work each decision of an analysis gets.
        analysis_limit: games analysed at once.
        abort_timeout: seconds a side of an untimed rated game has for its first
            decision before the game is aborted (not rated).
        abandon_timeout: seconds a player of an untimed rated game may be away, once
            each side has decided, before losing it.
    """

    def __init__(
        self,
        store: Store,
        bots: BotRunner,
        *,
        bot_delay: float = 0.0,
        tap: SeatTap | None = None,
        analysis: AnalysisSettings | None = None,
        analysis_limit: int = 2,
        now: Callable[[], int] = wall_clock_ms,
        abort_timeout: float = DEFAULT_ABORT_SECONDS,
        abandon_timeout: float = DEFAULT_ABANDON_SECONDS,
    ) -> None:
        self.store = store
        self.games = GameStore(store)
        self.ratings = RatingStore(store)
        self.abort_ms = round(abort_timeout * 1000)
        self.abandon_ms = round(abandon_timeout * 1000)
        self.bots = bots
        self.bot_delay = bot_delay
        self.tap = tap
        self.now = now
        self._tasks: set[asyncio.Task[None]] = set()
        self.writer = DecisionWriter(store)
        self.analyses = Analyses(
            store, self.writer, bots, analysis or AnalysisSettings(), analysis_limit
        )
        self._live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._closing = False
        self.me = store.instance
        self.cluster = Cluster(
            store,
            self.writer.call,
            now,
            adopt=self._adopt,
            presence_changed=self._refresh_presence_of,
            demoted=self._demoted,
        )
        self.listener: Listener | None = None
        """This instance's events from the others (PostgreSQL; ``None`` on SQLite),
        listened to from :meth:`start`: the lobby hears its own topic on it too."""
        # What each game's bot inferred at its decisions so far (Bot.memory), kept on
        # this instance only, the newest games' at most: after a restart, or on another
        # instance, the bot starts again from its priors.
        self._bot_memory: collections.OrderedDict[str, object] = collections.OrderedDict()

    async def start(self) -> None:
        """Join the instances on the database (events first, so none is missed), take
        over the games whose owner is gone (all of an earlier run's on SQLite), and rate
        the rated games that ended unrated."""
        if self.cluster.shared:
            self.listener = Listener(self.store.url, self.me)
            self.listener.on("game", self._on_game_event)
            self.listener.on("presence", self._on_presence_event)
            self.listener.on_reconnect(self._resync)
            await self.listener.start()
        await self.cluster.start()
        await self.sweep_ratings()

    async def close(self) -> None:
        self._closing = True
        if self.listener is not None:
            await self.listener.close()
        for live in self._live.values():
            _cancel_timer(live)
            _cancel_presence(live)
        for task in list(self._tasks):
            task.cancel()
        tasks = [live.bot_task for live in self._live.values() if live.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.cluster.close()
        await self.analyses.close()
        for live in self._live.values():
            for seat in (0, 1):
                for connection in list(live.connections[seat]):
                    await connection.close()
            for connection in list(live.watchers):
                await connection.close()
        await asyncio.to_thread(self.writer.close)

    # -- games ------------------------------------------------------------------------

    async def create(
        self,
        variant: str,
        first_player: int,
        bot_level: int | None,
        seed: int | None = None,
        *,
        private: bool = False,
        clock: TimeControl = UNTIMED,
        rated: bool = False,
    ) -> NewGame:
        """A new game where the creator is Player 1; Player 2 is a bot of ``bot_level``,
        or a friend when it is ``None``. A ``private`` game cannot be watched; a
        ``rated`` one is rated when it ends (its seats must then name accounts:
        ``ratings/``, whose ``check_rated`` says who may ask)."""
        token = new_token()
        friend_token = None if bot_level is not None else new_token()
        hashes = (hash_token(token), None if friend_token is None else hash_token(friend_token))
        row = new_game_row(
            variant,
            secrets.randbelow(SEED_LIMIT) if seed is None else seed,
            first_player,
            hashes,
            1 if bot_level is not None else None,
            bot_level,
            private=private,
            rated=rated,
        )
        row = replace(row, clock=clock, created=ms_to_datetime(self.now()))
        row = replace(row, owner=self.me if needs_owner(row, first_player) else None)
        await self.writer.call(lambda: self.games.create_game(row))
        if row.owner is not None:
            await self._adopt([row.id])
        return NewGame(row.id, token, friend_token)

    async def get(self, game_id: str) -> LiveGame | None:
        """The live game, loaded from the database on first use."""
        live = self._live.get(game_id)
        if live is not None:
            if live.stored.clock.timed and not live.ended:
                await self.check_clock(live)  # its flag may have fallen unseen
            return live
        loading = self._loading.get(game_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await asyncio.to_thread(self._load, game_id)
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
            await self.check_clock(live)
            self._arm_presence(live)
            self._wake_bot(live)
        return live

    def _load(self, game_id: str) -> LiveGame | None:
        """A game from the database with its presence (blocking). A game made before
        owners existed whose bot is to move is taken on by this instance."""
        stored = self.games.load(game_id)
        if stored is None:
            return None
        game = rebuild(stored)
        unowned = stored.owner is None and needs_owner(stored, game.to_move)
        if unowned and self.cluster.db.claim_unowned(game_id):
            stored = replace(stored, owner=self.me)
        live = LiveGame(stored, game, timeline=timeline(stored), loaded_at=self.now())
        self._set_presence(live, self.cluster.db.presence(game_id))
        return live

    def _set_presence(self, live: LiveGame, rows: list[PresenceRow]) -> None:
        live.presence = rows
        live.absent_since = [away_since(rows, seat, live.loaded_at) for seat in (0, 1)]

    def _owns(self, live: LiveGame) -> bool:
        return live.stored.owner == self.me

    def _idle(self, live: LiveGame) -> bool:
        """Whether ``live`` may leave memory: no page here, no bot thinking, not ours."""
        return not live.watched() and live.bot_task is None and not self._owns(live)

    def _forget_idle_games(self) -> None:
        """Drop games nobody watches (records and states fetched over HTTP load games
        too); the database has them all."""
        for game_id, live in list(self._live.items()):
            if self._idle(live) and not live.lock.locked():
                del self._live[game_id]

    def _drop_if_idle(self, live: LiveGame) -> None:
        if self._idle(live) and self._live.get(live.id) is live:
            del self._live[live.id]

    async def authenticate(self, game_id: str, token: str) -> tuple[LiveGame, int] | None:
        """The game and seat a token opens, or ``None`` (unknown game or wrong token: the
        two are not told apart)."""
        live = await self.get(game_id)
        if live is None:
            return None
        for seat in (0, 1):
            if token_matches(token, live.stored.token_hashes[seat]):
                return live, seat
        return None

    # -- connections ------------------------------------------------------------------

    def state_for(self, live: LiveGame, seat: int) -> SeatState:
        return seat_state(live.game.view(seat), self._public(live))

    async def attach(self, game_id: str, seat: int, connection: Connection) -> LiveGame:
        """Add an open page; everyone gets the state (the seat's presence changed)."""
        while True:
            live = await self.get(game_id)
            if live is None:
                raise Refused("err_no_game")
            async with live.lock:
                # A game nobody watched may have left memory while this page waited.
                if self._live.get(game_id) is live:
                    live.connections[seat].add(connection)
                    if len(live.connections[seat]) == 1:
                        self._note_pages(live, seat)
                    self._announce(live)
                    return live

    async def resend(self, live: LiveGame, seat: int, connection: Connection) -> None:
        """The full state again, to one page."""
        async with live.lock:
            message = encode(self.state_for(live, seat))
            self._deliver(live.id, seat, connection, message, is_state=True)

    async def detach(self, live: LiveGame, seat: int, connection: Connection) -> None:
        async with live.lock:
            live.connections[seat].discard(connection)
            if not live.connections[seat]:
                self._note_pages(live, seat)
            if self._idle(live):
                # Nobody is looking: the database has it all, memory need not.
                self._drop_if_idle(live)
            else:
                self._announce(live)
        await connection.close()

    def _note_pages(self, live: LiveGame, seat: int) -> None:
        """This instance's first page at ``seat`` opened, or its last closed: the seat's
        presence changes here at once, and in the database (for the other instances)
        just after; the caller holds the lock. Nothing here waits, so a page closing
        while its task is cancelled still counts."""
        pages, now = min(1, len(live.connections[seat])), self.now()
        mine = PresenceRow(seat, self.me, pages, now)
        rows = [r for r in live.presence if (r.seat, r.instance) != (seat, self.me)]
        self._set_presence(live, [*rows, mine])
        self._arm_presence(live)
        self._spawn(self._store_pages(live.id, seat, pages, now))

    async def _store_pages(self, game_id: str, seat: int, pages: int, now: int) -> None:
        try:
            await self.writer.call(lambda: self.cluster.db.set_pages(game_id, seat, pages, now))
        except Exception:
            log.exception("game %s: could not store the presence of seat %d", game_id, seat)

    async def watch(self, game_id: str, connection: Connection) -> LiveGame:
        """Add a spectator's page to a game anyone may watch and send it the public state.
        Raises :class:`Refused` (``err_no_game``) for a game that does not exist or is
        private: the two are not told apart."""
        while True:
            live = await self.get(game_id)
            if live is None or live.stored.private:
                raise Refused("err_no_game")
            async with live.lock:
                if self._live.get(game_id) is live:
                    live.watchers.add(connection)
                    message = encode(self.spectator_state_for(live))
                    self._deliver(live.id, SPECTATOR, connection, message, is_state=True)
                    return live

    async def unwatch(self, live: LiveGame, connection: Connection) -> None:
        async with live.lock:
            live.watchers.discard(connection)
            self._drop_if_idle(live)
        await connection.close()

    def spectator_state_for(self, live: LiveGame) -> SpectatorState:
        """What a spectator sees: the public part of the game (the end reveal once over)."""
        return spectator_state(live.game.view(0), self._public(live))

    async def watchable(self, limit: int) -> WatchList:
        """The newest ongoing games between people that anyone may watch, at most
        ``limit``."""
        rows = await asyncio.to_thread(self.games.watchable_games, limit)
        return WatchList(
            games=tuple(
                WatchableGame(id=row.id, variant=row.variant, created=row.created.isoformat())
                for row in rows
            )
        )

    def send(self, live: LiveGame, seat: int, connection: Connection, message: WireStruct) -> None:
        """Send a message to one page (an error, a pong): through the tap like the rest."""
        self._deliver(live.id, seat, connection, encode(message), is_state=False)

    def _deliver(
        self, game_id: str, seat: int, connection: Connection, message: str, *, is_state: bool
    ) -> None:
        if self.tap is not None:
            self.tap(game_id, seat, message)
        connection.push(message, is_state=is_state)

    def _announce(self, live: LiveGame) -> None:
        public = self._public(live)
        for seat in (0, 1):
            if not live.connections[seat]:
                continue
            message = encode(seat_state(live.game.view(seat), public))
            for connection in live.connections[seat]:
                self._deliver(live.id, seat, connection, message, is_state=True)
        if live.watchers:
            message = encode(spectator_state(live.game.view(0), public))
            for connection in live.watchers:
                self._deliver(live.id, SPECTATOR, connection, message, is_state=True)

    # -- decisions --------------------------------------------------------------------

    async def play(self, live: LiveGame, seat: int, text_: str, ply: int | None) -> None:
        """Play a seat's decision: checked, committed, then announced. Raises
        :class:`Refused` (nothing changes then)."""
        async with live.lock:
            if ply is not None and ply != live.ply:
                raise Refused("err_stale")
            if live.stored.termination is not None:
                raise Refused("err_game_over")
            move = check_decision(live.game, seat, text_)
            await self._commit(live, move)
        self._wake_bot(live)

    async def _commit(self, live: LiveGame, move: Move) -> None:
        """Commit and apply ``move`` (legal now); the caller holds the game's lock."""
        if live.stored.clock.timed and await self._flag_if_out(live):
            raise Refused("err_game_over")
        game = live.game
        ply = live.ply
        seat = game.to_move
        at = self.now()
        game.push(move)
        outcome = game.outcome
        owner = self.me if needs_owner(live.stored, game.to_move) else None
        try:
            result = None if outcome is None else outcome.result()
            await self.writer.append(
                Append(live.id, ply, move.text(), result, ms_to_datetime(at), owner)
            )
        except PlyTakenError:
            await self._reload(live)
            raise Refused("err_conflict") from None
        except Exception as error:
            game.pop()
            if unreachable(error):  # logged once for the whole outage (health.py)
                raise Refused("err_unavailable", seconds=RETRY_AFTER_SECONDS) from None
            log.exception("game %s: could not store ply %d", live.id, ply)
            raise Refused("err_storage") from None
        live.stored = replace(live.stored, owner=owner)
        if outcome is not None:
            live.stored = replace(live.stored, status="finished", result=outcome.result())
            await self._rate(live)
        if seat is not None:
            live.timeline.append(Decision(seat, at))
        self._changed(live)

    def _changed(self, live: LiveGame) -> None:
        """After a change: set (or drop) the game's timers, and tell every page."""
        self._arm_clock(live)
        self._arm_presence(live)
        self._announce(live)

    async def _reload(self, live: LiveGame) -> None:
        stored = await asyncio.to_thread(self.games.load, live.id)
        if stored is not None:
            live.stored = stored
            live.game = rebuild(stored)
            live.timeline = timeline(stored)
        self._changed(live)

    # -- other instances (cluster/instances.py, events.py) ----------------------------

    async def _on_game_event(self, event: Event) -> None:
        """Another instance wrote to a game: a decision (applied as it comes when it is
        the next one here), or anything else (the game is read again)."""
        live = self._live.get(event.key)
        if live is None:
            return  # nobody here shows it, and it is not ours
        async with live.lock:
            if self._live.get(event.key) is not live or 0 <= event.ply < live.ply:
                return  # gone from memory, or a decision already applied
            if event.ply == live.ply and event.move and self._apply(live, event):
                self._changed(live)
            else:
                await self._reload(live)
        self._wake_bot(live)
        self._drop_if_idle(live)

    def _apply(self, live: LiveGame, event: Event) -> bool:
        """Apply another instance's committed decision; ``False`` if it does not apply
        (the caller then reads the game again)."""
        seat = live.game.to_move
        try:
            live.game.push(Move.from_text(event.move))
        except ValueError:
            return False
        live.stored = replace(live.stored, owner=event.owner or None)
        outcome = live.game.outcome
        if outcome is not None:
            live.stored = replace(live.stored, status="finished", result=outcome.result())
        if seat is not None:
            live.timeline.append(Decision(seat, event.at))
        return True

    async def _on_presence_event(self, event: Event) -> None:
        await self._refresh_presence_of([event.key])

    async def _refresh_presence_of(self, game_ids: list[str]) -> None:
        """Read again who is at the seats of these games (those in memory here)."""
        for game_id in game_ids:
            live = self._live.get(game_id)
            if live is None:
                continue
            rows = await asyncio.to_thread(self.cluster.db.presence, game_id)
            async with live.lock:
                self._merge_presence(live, rows)
                self._arm_presence(live)
                self._announce(live)

    def _merge_presence(self, live: LiveGame, rows: list[PresenceRow]) -> None:
        """The other instances' presence rows as read, this one's as it knows them (its
        writes may not have reached the database yet)."""
        mine = [row for row in live.presence if row.instance == self.me]
        self._set_presence(live, [row for row in rows if row.instance != self.me] + mine)

    async def _adopt(self, game_ids: list[str]) -> None:
        """This instance now owns these games: read each again (or load it), then run its
        pending work here."""
        for game_id in game_ids:
            live = self._live.get(game_id)
            if live is None:
                await self.get(game_id)  # loading checks its clock, wakes its bot
                continue
            async with live.lock:
                await self._reload(live)
            await self.check_clock(live)
            self._wake_bot(live)

    async def _demoted(self) -> None:
        """This instance was taken for dead: its pages count again, and every game is
        read again (some now have other owners)."""
        await self._resync()
        for live in list(self._live.values()):
            async with live.lock:
                for seat in (0, 1):
                    if live.connections[seat]:
                        self._note_pages(live, seat)

    async def _resync(self) -> None:
        """Events may have been missed: read every game in memory again."""
        for live in list(self._live.values()):
            async with live.lock:
                await self._reload(live)
            rows = await asyncio.to_thread(self.cluster.db.presence, live.id)
            async with live.lock:
                self._merge_presence(live, rows)
            self._wake_bot(live)
            self._drop_if_idle(live)

    # -- clocks -----------------------------------------------------------------------

    def clocks_of(self, live: LiveGame) -> Clocks:
        """Both sides' clocks now, recomputed from the stored times (clock.py)."""
        stored = live.stored
        start = datetime_to_ms(stored.created)
        if stored.termination is not None:
            # Ended by a clock: the side to decide is the one whose time ran out (zero).
            out = clocks(stored.clock, start, live.timeline, live.game.to_move, self.now())
            return replace(out, running=None)
        running = None if live.ended else live.game.to_move
        return clocks(stored.clock, start, live.timeline, running, self.now())

    def _public(self, live: LiveGame) -> PublicGame:
        """The game's public settings with its clocks (at this moment) and, for a game a
        clock ended, how it ended."""
        public = live.public()
        stored = live.stored
        ended = None
        if stored.termination is not None:
            ended = (stored.termination, stored.result or "*")
        if not stored.clock.timed:
            return replace(public, ended=ended)
        return replace(public, clock=clock_json(stored.clock, self.clocks_of(live)), ended=ended)

    async def check_clock(self, live: LiveGame) -> None:
        """End the game if the running side's time is out (its flag fell while nobody
        looked, or the server was down); else set the timer for when it will be."""
        if not live.stored.clock.timed:
            return
        async with live.lock:
            await self._flag_if_out(live)

    async def _flag_if_out(self, live: LiveGame) -> bool:
        """Whether the running side's time is out, the game then ended by its clock;
        else the flag timer is set. The caller holds the game's lock."""
        _cancel_timer(live)
        if live.ended:
            return live.stored.termination is not None
        state = self.clocks_of(live)
        if state.flagged is None:
            self._arm_clock(live, state)
            return False
        await self._end_by_clock(live, state.flagged)
        return True

    async def _end_by_clock(self, live: LiveGame, loser: int) -> None:
        """Store and announce the end of a game whose ``loser`` ran out of time: lost on
        time once each side has decided, aborted (not rated, no result) before."""
        both_decided = {decision.seat for decision in live.timeline} == {0, 1}
        termination = "time" if both_decided else "aborted"
        result = ("0-1" if loser == 0 else "1-0") if both_decided else "*"
        if await self._store_end(live, result, termination):
            log.info("game %s: %s, seat %d ran out of time", live.id, termination, loser)
            await self._rate(live)
            self._announce(live)

    async def _store_end(self, live: LiveGame, result: str, termination: str) -> bool:
        """Store the end of ``live`` outside the rules (on time, aborted, forfeited) at its
        current ply; False, with the game reloaded, when another server stored a decision
        or ended the game first."""
        ply = live.ply
        ended = await self.writer.call(
            lambda: self.games.end_outside_rules(live.id, ply, result, termination)
        )
        if not ended:
            await self._reload(live)
            return False
        live.stored = replace(
            live.stored, status="finished", result=result, termination=termination, owner=None
        )
        return True

    def _arm_clock(self, live: LiveGame, state: Clocks | None = None) -> None:
        """Set the timer that ends the game when the running side's time reaches zero."""
        _cancel_timer(live)
        if self._closing or not live.stored.clock.timed or live.ended or not self._owns(live):
            return
        flag_time = (state or self.clocks_of(live)).flag_time()
        if flag_time is None:
            return
        live.clock_timer = self._call_at(flag_time, self._on_clock_timer, live)

    def _call_at(
        self, at: int, callback: Callable[[LiveGame], None], live: LiveGame
    ) -> asyncio.TimerHandle:
        """Call ``callback(live)`` just after the server time ``at`` (ms), or after
        MAX_TIMER seconds at most (the callback then arms its timer again)."""
        delay = max(0.0, (at - self.now()) / 1000) + FLAG_MARGIN
        return asyncio.get_running_loop().call_later(min(delay, MAX_TIMER), callback, live)

    def _spawn_check(
        self, check: Callable[[LiveGame], Coroutine[Any, Any, None]], live: LiveGame
    ) -> None:
        """Run a timer's check of ``live`` as a task the hub waits for when it closes."""
        self._spawn(check(live))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task the hub cancels when it closes (nothing once closing)."""
        if self._closing:
            work.close()
            return
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_clock_timer(self, live: LiveGame) -> None:
        live.clock_timer = None
        self._spawn_check(self._timer_check, live)

    async def _timer_check(self, live: LiveGame) -> None:
        try:
            if self._live.get(live.id) is live:
                await self.check_clock(live)
            # Otherwise the game left memory (another instance owns it now) or was
            # loaded again, and that copy has its own timer.
        except Exception:
            log.exception("game %s: the clock check failed", live.id)

    # -- ratings (ratings/) -----------------------------------------------------------

    async def _rate(self, live: LiveGame) -> None:
        """Rate a rated game that has just ended (once, whichever server asks first);
        a failure is logged and left to the next start's sweep, never the player's."""
        if not live.stored.rated:
            return
        try:
            await self.writer.call(lambda: self.ratings.rate(live.id))
        except Exception:
            log.exception("game %s: could not rate it", live.id)

    async def rating_changes(self, game_id: str) -> GameRatings | None:
        """A rated game's rating changes, once rated."""
        return await asyncio.to_thread(self.ratings.changes, game_id)

    async def sweep_ratings(self) -> int:
        """At start: rate the rated games that ended unrated (a server stopped between
        the two). Returns how many. (The rated games in play get their forfeit timers
        from their owners: ``cluster/instances.py``.)"""
        ended = await asyncio.to_thread(self.ratings.unrated_ends)
        for game_id in ended:
            await self.writer.call(functools.partial(self.ratings.rate, game_id))
        return len(ended)

    def _arm_presence(self, live: LiveGame) -> None:
        """Set the timer of an untimed rated game's next forfeit (ratings.forfeit_due)."""
        _cancel_presence(live)
        forfeit = self._forfeit_due(live)
        if forfeit is None or self._closing or not self._owns(live):
            return
        live.presence_timer = self._call_at(forfeit.at, self._on_presence_timer, live)

    def _forfeit_due(self, live: LiveGame) -> Forfeit | None:
        stored = live.stored
        if not stored.rated or stored.clock.timed or live.ended:
            return None
        last = live.timeline[-1].at if live.timeline else datetime_to_ms(stored.created)
        return forfeit_due(
            decided={decision.seat for decision in live.timeline},
            to_move=live.game.to_move,
            last_decision=last,
            absent_since=(live.absent_since[0], live.absent_since[1]),
            bot_seat=stored.bot_seat,
            abort_ms=self.abort_ms,
            abandon_ms=self.abandon_ms,
        )

    def _on_presence_timer(self, live: LiveGame) -> None:
        live.presence_timer = None
        self._spawn_check(self._presence_check, live)

    async def _presence_check(self, live: LiveGame) -> None:
        try:
            current = self._live.get(live.id)
            if current is not None and current is not live:
                return  # loaded again since: that copy keeps its own timer
            async with live.lock:
                forfeit = self._forfeit_due(live)
                if forfeit is not None and forfeit.at <= self.now():
                    await self._forfeit(live, forfeit)
                else:
                    self._arm_presence(live)
        except Exception:
            log.exception("game %s: the forfeit check failed", live.id)

    async def _forfeit(self, live: LiveGame, forfeit: Forfeit) -> None:
        """End an untimed rated game by ``forfeit``, through the stored result as a loss
        on time is: aborted before each side has decided, else lost by the absent seat."""
        termination = forfeit.termination
        result = "*" if termination == "unstarted" else ("0-1" if forfeit.seat == 0 else "1-0")
        if await self._store_end(live, result, termination):
            log.info("game %s: %s by seat %d", live.id, termination, forfeit.seat)
            await self._rate(live)
            self._announce(live)

    # -- bots -------------------------------------------------------------------------

    def _wake_bot(self, live: LiveGame) -> None:
        bot_seat = live.stored.bot_seat
        if (
            bot_seat is None
            or self._closing
            or not self._owns(live)
            or live.bot_task is not None
            or live.game.to_move != bot_seat
            or live.ended
        ):
            return
        live.bot_task = asyncio.create_task(self._bot_turns(live, bot_seat))

    async def _bot_turns(self, live: LiveGame, bot_seat: int) -> None:
        level = live.stored.bot_level or 1
        try:
            while (
                live.game.to_move == bot_seat
                and not self._closing
                and not live.ended
                and self._owns(live)
            ):
                view = live.game.view(bot_seat)
                ply = live.ply
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                seed = bot_seed(live.stored.seed, ply)
                remembered = self._bot_memory.get(live.id)
                choice, memory = await self.bots.choose(level, seed, view, remembered)
                async with live.lock:
                    if live.ply != ply:
                        continue
                    try:
                        await self._commit(live, live.game.parse_move(choice))
                        self._remember(live, memory)
                    except Refused as refusal:
                        # Stored by another server first, or the database failed: retry
                        # from whatever the database now holds.
                        log.warning("game %s: bot decision not stored (%s)", live.id, refusal)
                        await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the bot failed", live.id)
        finally:
            live.bot_task = None
        async with live.lock:
            self._drop_if_idle(live)

    def _remember(self, live: LiveGame, memory: object) -> None:
        self._bot_memory[live.id] = memory
        self._bot_memory.move_to_end(live.id)
        if live.ended:
            del self._bot_memory[live.id]
        while len(self._bot_memory) > MAX_LIVE_GAMES:
            self._bot_memory.popitem(last=False)

    # -- after the end ----------------------------------------------------------------

    def record(self, live: LiveGame, fmt: str) -> str:
        """The game record, text or JSON. Raises :class:`Refused` before the end."""
        record = self._record(live)
        return record.to_json() if fmt == "json" else record.to_text()

    def _record(self, live: LiveGame) -> GameRecord:
        """The finished game's record. Raises :class:`Refused` before the end."""
        if not live.ended:
            raise Refused("err_not_over")
        stored = live.stored
        # A game a clock ended is unfinished under the rules (Result "*", so the record
        # still replays); how it ended goes in tags of its own, as the arena's forfeits.
        extra = [] if stored.termination is None else clock_tags(stored)
        return GameRecord.from_game(
            live.game,
            players=live.player_names(),
            date=live.stored.created.strftime("%Y-%m-%d"),
            event="Hanamikoji web",
            extra_tags=extra,
        )

    async def start_analysis(self, live: LiveGame) -> AnalysisState:
        """The finished game's analysis if stored, else its progress (started now unless
        under way). Raises :class:`Refused` before the end, or when too many games are
        being analysed."""
        if not live.game.is_over():
            raise Refused("err_not_over")  # a game a clock ended has no analysis
        record = self._record(live)
        return await self.analyses.start(live.id, record, live.ply)

    async def analysis(self, live: LiveGame) -> AnalysisState:
        """The finished game's analysis, its progress, or ``{"status": "none"}``. Raises
        :class:`Refused` before the end."""
        if not live.game.is_over():
            raise Refused("err_not_over")
        return await self.analyses.status(live.id)

    def replay(self, live: LiveGame) -> Replay:
        """Every position of the finished game, all cards shown."""
        if not live.ended:
            raise Refused("err_not_over")
        stored = live.stored
        fresh = Game(stored.variant, seed=stored.seed, first_player=stored.first_player)
        decisions = [move.text() for move in live.game.move_stack]
        frames = replay_frames(fresh, decisions, ended_early=stored.termination is not None)
        return Replay(frames=tuple(frames))

    async def rematch(self, live: LiveGame) -> str:
        """The id of the next game between the same seats (created on the first ask).

        The seats keep their tokens, so each player's page opens the new game with the
        token it already has; the other round's first player starts.
        """
        if not live.ended:
            raise Refused("err_not_over")
        stored = live.stored
        if stored.rematch_id is not None:
            return stored.rematch_id
        row = new_game_row(
            stored.variant,
            secrets.randbelow(SEED_LIMIT),
            1 - stored.first_player,
            stored.token_hashes,
            stored.bot_seat,
            stored.bot_level,
            private=stored.private,
            rated=stored.rated,
        )
        row = replace(row, clock=stored.clock, created=ms_to_datetime(self.now()))
        new_id = await self.writer.call(lambda: self.games.create_rematch(stored.id, row))
        async with live.lock:
            live.stored = replace(live.stored, rematch_id=new_id)
            self._announce(live)
        return new_id


def unavailable_message(lang: Lang) -> ErrorMessage:
    """The message a page gets while the database cannot be reached (``health.py``)."""
    return error_message(Refused("err_unavailable", seconds=RETRY_AFTER_SECONDS), lang)


def error_message(refusal: Refused, lang: Lang) -> ErrorMessage:
    """The message a page gets when something it sent is refused."""
    return ErrorMessage(
        code=refusal.key, message=text(refusal.key, lang, **refusal.localized_fields(lang))
    )
