"""Live games: the dispatcher that hands each piece of work to the part that does it.

The database is the truth. A game is loaded by replaying its stored decisions the first
time someone asks for it (after a restart too), a decision is committed before it is
applied for anyone to see, and when another writer got to a ply first the live copy is
thrown away and rebuilt from the database.

Several instances may serve one PostgreSQL database (``cluster/instances.py``): a decision
committed by one reaches the pages on the others through its event (``cluster/events.py``),
and the game's pending work (its bot's turn, its clock, its forfeit timer) is run by
its owner alone. A game stays in memory while a page is open on it here, its bot thinks
here, or this instance owns it.

The parts: :mod:`memory` (the games in memory), :mod:`pages` and :mod:`states` (the pages
open on them and what each is sent), :mod:`decisions`, :mod:`flag_timers` (the clocks'
timers), :mod:`presence` (who is at each seat; forfeits), :mod:`bot_turns`, :mod:`sync`
(the other instances), :mod:`finishing` (the end and after it: ratings, record,
rematch, analysis), and :mod:`chores` (the hub's tasks and timers).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from hanamikoji.interfaces.clocks import (
    UNTIMED,
    TimeControl,
    ms_to_datetime,
    wall_clock_ms,
)
from hanamikoji.interfaces.web.cluster.events import Listener
from hanamikoji.interfaces.web.cluster.instances import Cluster
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore, StoredGame, new_game_row
from hanamikoji.interfaces.web.db.tokens import hash_token, new_token, token_matches
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.games.analyses import Analyses
from hanamikoji.interfaces.web.games.bot_turns import BotTurns
from hanamikoji.interfaces.web.games.chores import Chores
from hanamikoji.interfaces.web.games.decisions import Decisions
from hanamikoji.interfaces.web.games.finishing import Finishing
from hanamikoji.interfaces.web.games.flag_timers import FlagTimers
from hanamikoji.interfaces.web.games.live import (
    SEED_LIMIT,
    Connection,
    LiveGame,
    NewGame,
    SeatTap,
    needs_owner,
    rebuild,
    timeline,
)
from hanamikoji.interfaces.web.games.memory import LiveGames
from hanamikoji.interfaces.web.games.news import GameNews
from hanamikoji.interfaces.web.games.pages import Pages
from hanamikoji.interfaces.web.games.people import People, people_of, unnamed
from hanamikoji.interfaces.web.games.presence import Presence
from hanamikoji.interfaces.web.games.states import GameStates
from hanamikoji.interfaces.web.games.sync import InstanceSync
from hanamikoji.interfaces.web.games.thinkers import BotRunner
from hanamikoji.interfaces.web.players.store import PlayerStore
from hanamikoji.interfaces.web.ratings.forfeits import (
    DEFAULT_ABANDON_SECONDS,
    DEFAULT_ABORT_SECONDS,
)
from hanamikoji.interfaces.web.ratings.model import GameRatings
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.social.presence import SitePages
from hanamikoji.interfaces.web.wire.outgoing import SeatState, SpectatorState, WireStruct

__all__ = ["GameHub", "HubServices"]


@dataclass(frozen=True, slots=True)
class HubServices:
    """What the hub is handed by the composition root (``services.py``), each built once
    for the whole server.

    Args:
        store: the database.
        writer: the writer thread every write goes through.
        games: the games' queries.
        ratings: the players' ratings (a rated game is rated when it ends).
        analyses: the analyses of finished games.
        bots: where bots think.
        listener: the other instances' events (PostgreSQL), or ``None`` (SQLite); the
            hub subscribes before it is started.
        players: the players' rows (who sits at each seat: names on the table).
        site_pages: the site sockets open on this instance, per player (``social/``),
            told when a game of theirs starts or ends (``news.py``).
    """

    store: Store
    writer: DecisionWriter
    games: GameStore
    ratings: RatingStore
    analyses: Analyses
    bots: BotRunner
    listener: Listener | None
    players: PlayerStore
    site_pages: SitePages = field(default_factory=SitePages)


class GameHub:
    """Every live game of one server process.

    Args:
        services: what the hub is built on (:class:`HubServices`).
        bot_delay: seconds a bot waits before it acts, so a person sees one move at a time.
        tap: sees every message sent to a seat (the hidden-card test hooks in here).
        now: the server's clock, ms since the epoch.
        abort_timeout: seconds a side of an untimed rated game has for its first
            decision before the game is aborted (not rated).
        abandon_timeout: seconds a player of an untimed rated game may be away, once
            each side has decided, before losing it.
    """

    def __init__(
        self,
        services: HubServices,
        *,
        bot_delay: float = 0.0,
        tap: SeatTap | None = None,
        now: Callable[[], int] = wall_clock_ms,
        abort_timeout: float = DEFAULT_ABORT_SECONDS,
        abandon_timeout: float = DEFAULT_ABANDON_SECONDS,
    ) -> None:
        store, bots = services.store, services.bots
        self.store = store
        self.writer = services.writer
        self.games = services.games
        self.ratings = services.ratings
        self.analyses = services.analyses
        self.listener = services.listener
        self.players = services.players
        self.now = now
        self.me = store.instance
        self.chores = Chores(now)
        self.memory = LiveGames(self.me)
        self.states = GameStates(now, tap)
        announce = self.states.announce
        self.news = GameNews(store, self.players, services.site_pages)
        self.finishing = Finishing(
            self.games,
            self.writer,
            self.ratings,
            self.analyses,
            now,
            self._reload,
            announce,
            lambda live: self.chores.spawn(self.news.ended(live)),
        )
        self.flags = FlagTimers(self.me, self.chores, self.memory.holds, self.finishing, announce)
        self.cluster = Cluster(
            store,
            self.writer.call,
            now,
            adopt=lambda game_ids: self.sync.adopt(game_ids),
            presence_changed=lambda game_ids: self.presence.refresh(game_ids),
            demoted=lambda: self.sync.demoted(),
        )
        self.presence = Presence(
            self.me,
            self.chores,
            self.cluster.db,
            self.writer,
            self.memory.find,
            self.finishing,
            announce,
            abort_ms=round(abort_timeout * 1000),
            abandon_ms=round(abandon_timeout * 1000),
        )
        self.decisions = Decisions(
            self.me, now, self.writer, self.flags, self.finishing, self._reload, self._changed
        )
        self.bot_turns = BotTurns(
            bots, bot_delay, self.me, self.chores, self.decisions.commit, self.memory.drop_if_idle
        )
        self.sync = InstanceSync(
            self.memory,
            self.get,
            self._reload,
            self._changed,
            self.bot_turns.wake,
            self.flags.check,
            self.presence,
        )
        self.pages = Pages(self.memory, self.get, self.states, self.presence.note_pages)
        if self.listener is not None:
            self.sync.listen(self.listener)

    async def start(self) -> None:
        """Join the instances on the database (its listener is started first, so no
        event is missed), take over the games whose owner is gone (all of an earlier
        run's on SQLite), and rate the rated games that ended unrated."""
        await self.cluster.start()
        await self.finishing.sweep_ratings()

    async def close(self) -> None:
        """Stop every game's work and close its pages (the listener, the analyses and
        the writer are closed by whoever built them, after this)."""
        self.chores.closing = True
        for live in self.memory.all():
            self.flags.cancel(live)
            self.presence.cancel(live)
        self.chores.cancel()
        await self.bot_turns.stop(self.memory.all())
        await self.cluster.close()
        for live in self.memory.all():
            for seat in (0, 1):
                for connection in list(live.connections[seat]):
                    await connection.close()
            for connection in list(live.watchers):
                await connection.close()

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
        row, made = self.prepare(
            variant, first_player, bot_level, seed, private=private, clock=clock, rated=rated
        )
        await self.writer.call(lambda: self.games.create_game(row))
        await self.made([row])
        return made

    def prepare(
        self,
        variant: str,
        first_player: int,
        bot_level: int | None,
        seed: int | None = None,
        *,
        private: bool = False,
        clock: TimeControl = UNTIMED,
        rated: bool = False,
        second_level: int | None = None,
    ) -> tuple[StoredGame, NewGame]:
        """The row of a new game as :meth:`create` makes it, and its seats' tokens,
        written by the caller (``db/games.insert_game``, in a transaction of its own
        that may write more), who then calls :meth:`made`. With ``second_level`` too,
        our bot of that level plays seat 0: a game between two bots, nobody's seat."""
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
        if bot_level is not None and second_level is not None:
            row = replace(row, token_hashes=(None, None), second_bot_level=second_level)
        row = replace(row, clock=clock, created=ms_to_datetime(self.now()))
        row = replace(row, owner=self.me if needs_owner(row, first_player) else None)
        return row, NewGame(row.id, token, friend_token)

    async def made(self, rows: list[StoredGame]) -> None:
        """Games :meth:`prepare` made are written: each is kept in memory as written
        (its first page need not read it back); opening it runs its pending work here,
        if it has an owner (this instance)."""
        for row in rows:
            await self.memory.load(row.id, self._fresh_of(row), self._opened)

    def _fresh_of(self, row: StoredGame) -> Callable[[str], LiveGame]:
        return lambda _: self._fresh(row)

    def _fresh(self, row: StoredGame) -> LiveGame:
        """The live game of a row just written: no decision, nobody named or present."""
        live = LiveGame(row, rebuild(row), timeline=timeline(row), loaded_at=self.now())
        live.people = unnamed(row)
        self.presence.set(live, [])
        return live

    async def get(self, game_id: str) -> LiveGame | None:
        """The live game, loaded from the database on first use."""
        live = self.memory.find(game_id)
        if live is None:
            return await self.memory.load(game_id, self._load, self._opened)
        if live.stored.clock.timed and not live.ended:
            await self.flags.check(live)  # its flag may have fallen unseen
        return live

    def in_memory(self, game_id: str) -> LiveGame | None:
        """The live game if it is in this instance's memory (nothing is loaded)."""
        return self.memory.find(game_id)

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
        live.people = self._people(stored)
        self.presence.set(live, self.cluster.db.presence(game_id))
        return live

    def _people(self, stored: StoredGame) -> People:
        """Who sits at each seat of a game (blocking)."""
        return people_of(self.players, self.ratings, [stored])[stored.id]

    async def _opened(self, live: LiveGame) -> None:
        """A game just loaded: its clock checked, its timers set, its bot woken."""
        await self.flags.check(live)
        self.presence.arm(live)
        self.bot_turns.wake(live)

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

    async def _reload(self, live: LiveGame) -> None:
        """Read ``live`` again from the database (another writer got there first)."""
        stored = await asyncio.to_thread(self.games.load, live.id)
        if stored is not None:
            live.stored = stored
            live.game = rebuild(stored)
            live.timeline = timeline(stored)
            live.people = await asyncio.to_thread(self._people, stored)
        self._changed(live)

    async def seats_changed(self, game_id: str) -> None:
        """A seat of the game was just claimed here: if the game is in memory, its seats'
        players are read again and every page told (the other instances hear of it
        from the claim's event, and read the game again)."""
        live = self.memory.find(game_id)
        if live is None:
            return
        people = await asyncio.to_thread(self._people, live.stored)
        async with live.lock:
            live.people = people
            self.states.announce(live)

    def _changed(self, live: LiveGame) -> None:
        """After a change: set (or drop) the game's timers, and tell every page."""
        self.flags.arm(live)
        self.presence.arm(live)
        self.states.announce(live)

    # -- pages and decisions ----------------------------------------------------------

    async def attach(self, game_id: str, seat: int, connection: Connection) -> LiveGame:
        """Add an open page at ``seat`` (:meth:`.Pages.attach`)."""
        return await self.pages.attach(game_id, seat, connection)

    async def detach(self, live: LiveGame, seat: int, connection: Connection) -> None:
        await self.pages.detach(live, seat, connection)

    async def resend(self, live: LiveGame, seat: int, connection: Connection) -> None:
        await self.pages.resend(live, seat, connection)

    async def watch(self, game_id: str, connection: Connection) -> LiveGame:
        """Add a spectator's page (:meth:`.Pages.watch`)."""
        return await self.pages.watch(game_id, connection)

    async def unwatch(self, live: LiveGame, connection: Connection) -> None:
        await self.pages.unwatch(live, connection)

    def send(self, live: LiveGame, seat: int, connection: Connection, message: WireStruct) -> None:
        """Send a message to one page (an error, a pong): through the tap like the rest."""
        self.states.send(live, seat, connection, message)

    def state_for(self, live: LiveGame, seat: int) -> SeatState:
        return self.states.seat(live, seat)

    def spectator_state_for(self, live: LiveGame) -> SpectatorState:
        return self.states.spectator(live)

    async def play(self, live: LiveGame, seat: int, text_: str, ply: int | None) -> None:
        """Play a seat's decision: checked, committed, then announced; the bot's turn
        follows. Raises :class:`~hanamikoji.interfaces.web.wire.refused.Refused`
        (nothing changes then)."""
        await self.decisions.play(live, seat, text_, ply)
        self.bot_turns.wake(live)

    async def rating_changes(self, game_id: str) -> GameRatings | None:
        """A rated game's rating changes, once rated."""
        return await self.finishing.rating_changes(game_id)
