"""The composition root: every service of a running server, built once from its
configuration (:class:`ServerConfig`) and handed to the routes through Starlette's typed
lifespan state (:class:`AppState`).

The application's lifespan enters :func:`running_services` and yields
``{"services": ...}``; a route, a socket or a handler reads what it needs with
:func:`services` (``services(request).lobby``), typed, never from ``app.state``. What
needs no database (the rate guards, the cookie settings, the allowed origins, the seats'
sockets) is built with the application, so a bad rate is refused before the server
starts (:func:`guards_of`).

Built here, in order: the database (:class:`~.db.database.Store`), the bot workers,
the writer thread, the other instances' listener (PostgreSQL), the analyses, the live
games (:class:`~.games.hub.GameHub`, handed all of these), the accounts, the lobby and
its pairings, friends and challenges (:class:`~.social.service.Social`), the hints, the chat,
the e-mails, the tournaments and their director (``tournaments/directing.py``), and the
collector's keeper; closed in the reverse order.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, TypedDict, cast

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from hanamikoji.bots.analysis import AnalysisSettings
from hanamikoji.interfaces.clocks import wall_clock_ms
from hanamikoji.interfaces.web.bots.service import BotGames
from hanamikoji.interfaces.web.browser.service import GameBrowser
from hanamikoji.interfaces.web.browser.store import BrowserStore
from hanamikoji.interfaces.web.chat.model import NOBODY_HIDDEN, HiddenAuthors
from hanamikoji.interfaces.web.chat.service import Chat
from hanamikoji.interfaces.web.chat.store import ChatStore
from hanamikoji.interfaces.web.cluster.events import Listener
from hanamikoji.interfaces.web.db.api_tokens import ApiTokenStore
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.games.analyses import Analyses
from hanamikoji.interfaces.web.games.hints import Hints
from hanamikoji.interfaces.web.games.hub import GameHub, HubServices
from hanamikoji.interfaces.web.games.live import SeatTap
from hanamikoji.interfaces.web.games.making import (
    GameOrder,
    games_made,
    prepare,
    write_games,
)
from hanamikoji.interfaces.web.games.thinkers import BotRunner
from hanamikoji.interfaces.web.http.bearer import Bearer
from hanamikoji.interfaces.web.http.guards import RateGuard, SeatSockets, loopback_hosts, parse_rate
from hanamikoji.interfaces.web.ladder.service import Ladder, run_ladder
from hanamikoji.interfaces.web.lobby.seeks import NOBODY_BLOCKED, BlockedPair, Pairing, Seat
from hanamikoji.interfaces.web.lobby.service import Lobby
from hanamikoji.interfaces.web.notices.batches import Notices, run_notices
from hanamikoji.interfaces.web.notices.links import LinkKeys
from hanamikoji.interfaces.web.notices.mail import MailSettings
from hanamikoji.interfaces.web.players.accounts import Accounts
from hanamikoji.interfaces.web.players.cookies import CookieSettings, SessionKeys
from hanamikoji.interfaces.web.players.passwords import Passwords
from hanamikoji.interfaces.web.players.store import PlayerStore
from hanamikoji.interfaces.web.puzzles.service import Puzzles
from hanamikoji.interfaces.web.puzzles.store import PuzzleStore
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.social.service import Social
from hanamikoji.interfaces.web.tournaments.directing import open_tournaments, run_directing
from hanamikoji.interfaces.web.tournaments.director import DIRECT_INTERVAL, Director
from hanamikoji.interfaces.web.tournaments.service import Tournaments
from hanamikoji.interfaces.web_settings import ServeSettings

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = [
    "LINK_SECRET",
    "PAIRING_INTERVAL",
    "SESSION_SECRET",
    "AppState",
    "Guards",
    "ServerConfig",
    "Services",
    "blocked_pairs",
    "blocks_hidden",
    "guards_of",
    "open_accounts",
    "open_chat",
    "open_lobby",
    "open_notices",
    "open_social",
    "people_game",
    "run_pairings",
    "running_games",
    "running_services",
    "services",
]

log = logging.getLogger("hanamikoji.web")

SESSION_SECRET = "session-cookies"
"""The name of the server secret that signs session cookies (``server_secrets``)."""

LINK_SECRET = "email-links"
"""The name of the server secret that signs the links of e-mails (``notices/links.py``)."""

PAIRING_INTERVAL = 1.0
"""Seconds between two looks at the quick-pairing queue (its windows widen with time)."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How the server runs: ``hanamikoji serve``'s settings as they are, the database
    they resolve to, and what only tests change.

    Args:
        db_url: the SQLAlchemy URL of the games database (``settings.database_url``, or
            the default database ``web_cli`` chose).
        settings: every setting of ``hanamikoji serve``, its defaults written once
            (:class:`~hanamikoji.interfaces.web_settings.ServeSettings`); the server
            answers the host names of ``settings.host`` and loopback's besides
            ``settings.allowed_hosts``.
        tap: sees every message sent to a seat (tests).
        clock: the games' clocks' time source, ms since the epoch (tests; the wall clock).
        gc_freeze_interval: seconds between moves of long-lived objects out of the
            cyclic garbage collector's sight (0: never); see :func:`keep_collections_short`.
        direct_interval: seconds between two looks of the tournaments' director (0:
            none; tests call ``Director.tick`` themselves).
    """

    db_url: str
    settings: ServeSettings = field(default_factory=ServeSettings)
    tap: SeatTap | None = None
    clock: Callable[[], int] | None = None
    gc_freeze_interval: float = 10.0
    direct_interval: float = DIRECT_INTERVAL

    @property
    def allowed_hosts(self) -> tuple[str, ...]:
        """The ``Host`` names the server answers; any other is refused with 400."""
        return loopback_hosts(self.settings.host) + self.settings.allowed_hosts


@dataclass(frozen=True, slots=True)
class Guards:
    """What the server's limits and checks need, built with the application (no
    database): the rate guards, the session cookie, the page origins allowed besides
    the server's own, and the sockets open at each seat."""

    rates: RateGuard
    cookies: CookieSettings
    allowed_origins: frozenset[str]
    seat_sockets: SeatSockets[WebSocket]


def guards_of(settings: ServeSettings) -> Guards:
    """The guards of ``settings``; ``ValueError`` for a rate that is not one."""
    return Guards(
        RateGuard(
            parse_rate(settings.create_rate),
            parse_rate(settings.message_rate),
            parse_rate(settings.login_rate),
        ),
        CookieSettings(settings.secure_cookies, timedelta(days=settings.session_days)),
        frozenset(origin.rstrip("/") for origin in settings.allowed_origins),
        SeatSockets[WebSocket](),
    )


@dataclass(frozen=True, slots=True)
class Services:
    """Every service of a running server, each built once (:func:`running_services`).

    Args:
        store: the database.
        games: the games' queries.
        writer: the writer thread every write goes through.
        hub: the live games.
        ratings: the players' ratings.
        accounts: the players' accounts and sessions.
        lobby: seeks and quick pairing.
        social: friends, who is online, challenges.
        hints: the hints' workers.
        notices: the e-mails about correspondence games (``notices/``).
        chat: the games' chat rooms.
        guards: rates, cookies, origins, seat sockets (:class:`Guards`).
        now: the clock of games, lobby and sign-in limits, ms since the epoch.
        browser: the game browser: searches, statistics, exports.
        puzzles: the puzzles, their ratings and their solvers' (``puzzles/``).
        bearer: the bot API's door: tokens, scopes, per-token rates (``http/bearer.py``).
        bots: the bot API's games, challenges and open streams (``bots/``).
        ladder: the bot ladder: who is on it, its pairing, its standings (``ladder/``).
        tournaments: Swiss and arena tournaments (``tournaments/``).
        director: directs the tournaments this instance holds (``tournaments/director.py``).
    """

    store: Store
    games: GameStore
    writer: DecisionWriter
    hub: GameHub
    ratings: RatingStore
    accounts: Accounts
    lobby: Lobby
    social: Social
    hints: Hints
    notices: Notices
    chat: Chat
    guards: Guards
    now: Callable[[], int]
    browser: GameBrowser
    puzzles: Puzzles
    bearer: Bearer
    bots: BotGames
    ladder: Ladder
    tournaments: Tournaments
    director: Director

    @property
    def rates(self) -> RateGuard:
        return self.guards.rates

    @property
    def cookies(self) -> CookieSettings:
        return self.guards.cookies


class AppState(TypedDict):
    """The lifespan's state: what every request and socket is handed."""

    services: Services


def services(connection: HTTPConnection) -> Services:
    """The services of the server a request or a socket came to (the lifespan's state)."""
    typed = cast("Request[AppState]", connection)
    return typed.state["services"]


@contextlib.asynccontextmanager
async def running_services(config: ServerConfig, guards: Guards) -> AsyncIterator[Services]:
    """Build every service, start them, and close them all when the block ends."""
    settings = config.settings
    now = config.clock or wall_clock_ms
    store = await asyncio.to_thread(Store, config.db_url)
    bots = BotRunner(settings.bot_processes)
    try:
        async with running_games(store, bots, settings, tap=config.tap, now=now) as hub:
            accounts = await open_accounts(store, hub.writer, guards.cookies.lifetime)
            social = await open_social(hub, accounts, store, hub.listener, now)
            lobby = await open_lobby(hub, accounts, store, hub.listener, now, blocked_pairs(social))
            pairings = asyncio.create_task(run_pairings(lobby))
            ladder = Ladder(store, hub.ratings, social, now, accounts.writer.call)
            laddering = asyncio.create_task(run_ladder(ladder))
            hints = Hints(bots, settings.analysis_worlds)
            notices = await open_notices(hub, accounts, settings, now)
            mailing = asyncio.create_task(run_notices(notices))
            chat = open_chat(hub, now, blocks_hidden(social))
            tournaments, director = open_tournaments(hub, now)
            directing = asyncio.create_task(run_directing(director, config.direct_interval))
            keeper = asyncio.create_task(keep_collections_short(config.gc_freeze_interval))
            try:
                yield Services(
                    store,
                    hub.games,
                    hub.writer,
                    hub,
                    hub.ratings,
                    accounts,
                    lobby,
                    social,
                    hints,
                    notices,
                    chat,
                    guards,
                    now,
                    browser=GameBrowser(BrowserStore(store), hub.games, hub.finishing.game_record),
                    puzzles=Puzzles(PuzzleStore(store), now, bots),
                    bearer=Bearer(ApiTokenStore(store), hub.writer.call, now, hub.listener),
                    bots=BotGames(hub, accounts.store),
                    ladder=ladder,
                    tournaments=tournaments,
                    director=director,
                )
            finally:
                for task in (keeper, mailing, pairings, laddering, directing):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                await director.close()
                await ladder.close()
                await social.close()
                await lobby.close()
                await hints.close()
    finally:
        await asyncio.to_thread(bots.close)
        store.close()


@contextlib.asynccontextmanager
async def running_games(
    store: Store,
    bots: BotRunner,
    settings: ServeSettings,
    *,
    tap: SeatTap | None = None,
    now: Callable[[], int] = wall_clock_ms,
) -> AsyncIterator[GameHub]:
    """The live games on ``store``, started, with what they are built on: the writer
    thread, the games' and ratings' queries, the analyses and, on a shared database, the
    listener of the other instances' events (started after the hub subscribed, before it
    starts, so no event is missed). All closed when the block ends, the hub first."""
    writer = DecisionWriter(store)
    listener = None if store.dialect == "sqlite" else Listener(store.url, store.instance)
    analysis = AnalysisSettings(worlds=settings.analysis_worlds)
    analyses = Analyses(store, writer, bots, analysis, settings.analysis_limit)
    hub = GameHub(
        HubServices(
            store,
            writer,
            GameStore(store),
            RatingStore(store),
            analyses,
            bots,
            listener,
            PlayerStore(store),
        ),
        bot_delay=settings.bot_delay,
        tap=tap,
        now=now,
        abort_timeout=settings.abort_timeout,
        abandon_timeout=settings.abandon_timeout,
    )
    try:
        if listener is not None:
            await listener.start()
        await hub.start()
        yield hub
    finally:
        if listener is not None:
            await listener.close()
        await hub.close()
        await analyses.close()
        await asyncio.to_thread(writer.close)


async def open_accounts(
    store: Store, writer: DecisionWriter, lifetime: timedelta, passwords: Passwords | None = None
) -> Accounts:
    """The accounts of the database: its players' tables, and the key that signs session
    cookies (made by the first server to start on the database)."""
    players = PlayerStore(store)
    secret = await writer.call(lambda: players.secret(SESSION_SECRET))
    return Accounts(players, writer, SessionKeys(secret), passwords or Passwords(), lifetime)


async def open_notices(
    hub: GameHub, accounts: Accounts, settings: ServeSettings, now: Callable[[], int]
) -> Notices:
    """The server's e-mails (off without SMTP settings), their links signed with a key
    made by the first server to start on the database."""
    players = accounts.store
    secret = await hub.writer.call(lambda: players.secret(LINK_SECRET))
    mail = MailSettings.of(settings)
    return Notices(hub.games, players, hub.writer.call, mail, LinkKeys(secret), now)


PeopleGame = Callable[[tuple[str, str], str, str, bool, int], Awaitable[tuple[Seat, Seat]]]
"""Makes a game between two players: their ids at seats 0 and 1, the variant, the time
control's name, rated, the seat that starts; each seat with its token."""


def people_game(hub: GameHub, accounts: Accounts) -> PeopleGame:
    """How a game between two players is made, for the lobby's pairings and for
    challenges alike: the game with its time control and both seats named for their
    players (so My games lists it and each seat opens by its player's session), written
    in one transaction (``games/making.py``, which tournaments use for a whole round)."""
    store = accounts.store.store

    async def make(
        players: tuple[str, str], variant: str, time_control: str, rated: bool, first: int
    ) -> tuple[Seat, Seat]:
        game = prepare(hub, GameOrder(players, variant, time_control, rated, first))
        created = game.new
        assert created.friend_token is not None, "a game between people has two tokens"

        def write() -> None:
            with store.transaction() as connection:
                write_games(connection, [game], store.instance)

        await accounts.writer.call(write)
        await games_made(hub, [game])
        return Seat(created.id, 0, created.token), Seat(created.id, 1, created.friend_token)

    return make


async def open_lobby(
    hub: GameHub,
    accounts: Accounts,
    store: Store,
    listener: Listener | None,
    now: Callable[[], int],
    blocked: BlockedPair = NOBODY_BLOCKED,
) -> Lobby:
    """The server's lobby, started (``Lobby.start``; ``Lobby.close`` when the server
    stops): a pairing's game, with its time control, has the seeker at seat 0 and the
    other player at seat 1, both seats named for their players; who starts is drawn.
    ``listener`` carries the other instances' lobby events (PostgreSQL); ``blocked``
    says whether one of two players blocked the other (never paired:
    :func:`blocked_pairs`)."""
    make = people_game(hub, accounts)

    async def make_game(pairing: Pairing) -> tuple[Seat, Seat]:
        players = (pairing.seeker, pairing.opponent)
        first = secrets.randbelow(2)
        return await make(players, pairing.variant, pairing.time_control, pairing.rated, first)

    lobby = Lobby(
        make_game, store, now=now, run=accounts.writer.call, listener=listener, blocked=blocked
    )
    await lobby.start()
    return lobby


async def open_social(
    hub: GameHub,
    accounts: Accounts,
    store: Store,
    listener: Listener | None,
    now: Callable[[], int],
) -> Social:
    """Friends and challenges, started (``Social.start``; ``Social.close`` when the
    server stops): an accepted challenge's game has the challenger at seat 0 and the
    acceptor at seat 1, both seats named, who starts as the challenger chose."""
    make = people_game(hub, accounts)

    async def make_game(
        players: tuple[str, str], variant: str, time_control: str, rated: bool, first: int
    ) -> str:
        seats = await make(players, variant, time_control, rated, first)
        return seats[0].game

    social = Social(
        store,
        accounts.store,
        hub.ratings,
        make_game,
        now=now,
        run=accounts.writer.call,
        listener=listener,
        pages=hub.news.pages,
    )
    await social.start()
    return social


def blocked_pairs(social: Social) -> BlockedPair:
    """The lobby's blocked pairs: whether either of two players blocked the other
    (``social/``), never to be paired. Blocking (a query): the lobby asks in a thread."""
    return social.relations.blocks


def blocks_hidden(social: Social) -> HiddenAuthors:
    """The chat's hidden authors: the players a reader blocked (``social/``); a page
    with no session blocks nobody. Blocking (a query): the chat asks in a thread."""

    def hidden(reader: str | None) -> frozenset[str]:
        return frozenset() if reader is None else social.relations.blocked_by(reader)

    return hidden


def open_chat(
    hub: GameHub, now: Callable[[], int], hidden_authors: HiddenAuthors = NOBODY_HIDDEN
) -> Chat:
    """The games' chat, on the hub's database, writer and listener. ``hidden_authors``
    says whose lines a reader does not see (the players it blocked): nobody's until the
    social part's block list is plugged in here."""
    return Chat(ChatStore(hub.store), hub.writer.call, now, hub.listener, hidden_authors)


async def run_pairings(lobby: Lobby, interval: float = PAIRING_INTERVAL) -> None:
    """Look at the lobby again and again: pair the queue as its windows widen, and more
    (``Lobby.tick``), until cancelled."""
    while True:
        await asyncio.sleep(interval)
        try:
            await lobby.tick()
        except Exception:  # a pairing's game could not be made: the next look tries again
            log.exception("quick pairing failed")


async def keep_collections_short(interval: float) -> None:
    """Keep full garbage collections from pausing play.

    A full collection walks every tracked object, and the core's move caches alone hold
    hundreds of thousands of references: on this project's machine that pauses the event
    loop for 50-250 ms, every game at once. Every ``interval`` seconds the young
    generations are collected (cheap) and whatever survived is frozen, so full
    collections only ever see what is newer. Frozen objects are still freed by reference
    counting when dropped (games, connections); only reference cycles among them would
    outlive their use, and the server makes none on purpose.
    """
    if interval <= 0:
        return
    gc.freeze()
    while True:
        await asyncio.sleep(interval)
        gc.collect(1)
        gc.freeze()
