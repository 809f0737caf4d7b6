"""The players' routes.

==========================================  =============================================
``GET /api/me``                             who is signed in, and the session's CSRF token
``POST /api/me/register``                   an account (a signed-in guest becomes it)
``POST /api/me/login``                      sign in to an account
``POST /api/me/guest``                      play as a guest under a nickname
``POST /api/me/logout``                     sign out (the session is deleted)
``GET /api/me/games``                       the player's ongoing and finished games
``GET /api/players/{name}``                 an account's page: recent games
``POST /api/games/{id}/claim``              name the session's player at a token's seat
==========================================  =============================================

Every ``POST`` here has passed the Origin check (``refusals.OriginCheck``), and one that a
session cookie comes with carries that session's CSRF token in ``X-CSRF-Token``
(``sessions.py``); a refusal is answered by the app's handler (``refusals.refused``).
Sign-in attempts (registering, signing in, a guest's nickname) are limited per client
address, and signing in also per account name (``--login-rate``).
"""

from __future__ import annotations

import asyncio
import functools

from msgspec import UNSET
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.web.db.attempts import attempt_key, count_attempt
from hanamikoji.interfaces.web.db.games import FINISHED, PLAYING, GameStore
from hanamikoji.interfaces.web.games.live import clock_json, rebuild, stored_clocks
from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.players.accounts import Session
from hanamikoji.interfaces.web.players.sessions import (
    acting_session,
    current_session,
    record_seat,
)
from hanamikoji.interfaces.web.players.store import GameEntry, Player, PlayerStore, name_key
from hanamikoji.interfaces.web.ratings.routes import RatingNotes, player_ratings, rating_notes
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.incoming import (
    MAX_BODY_BYTES,
    decode_credentials,
    decode_guest,
)
from hanamikoji.interfaces.web.wire.outgoing import ClockState
from hanamikoji.interfaces.web.wire.player_answers import (
    FinishedGame,
    MyGames,
    OngoingGame,
    Opponent,
    Outcome,
    PlayerInfo,
    PlayerPage,
    PlayerPageGame,
    PublicPlayer,
    SeatClaimed,
    SignedIn,
    SignedOut,
)
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["player_routes"]

ONGOING_LIMIT = 100
FINISHED_LIMIT = 50
PLAYER_PAGE_GAMES = 20


def player_routes() -> list[BaseRoute]:
    """The players' routes."""
    return [
        Route("/api/me", _me),
        Route("/api/me/register", _register, methods=["POST"]),
        Route("/api/me/login", _login, methods=["POST"]),
        Route("/api/me/guest", _guest, methods=["POST"]),
        Route("/api/me/logout", _logout, methods=["POST"]),
        Route("/api/me/games", _my_games),
        Route("/api/players/{name}", _player_page),
        Route("/api/games/{game_id}/claim", _claim, methods=["POST"]),
    ]


NO_STORE = {"Cache-Control": "no-store"}


def _player_info(player: Player) -> PlayerInfo:
    return PlayerInfo(id=player.id, name=player.name, kind=player.kind, bot=player.bot)


def _signed_in(request: Request, session: Session, status: int = 200) -> Response:
    """The player, the session's CSRF token, and the session's cookie."""
    accounts = services(request).accounts
    settings = services(request).cookies
    answer = SignedIn(player=_player_info(session.player), csrf=accounts.csrf_token(session))
    response = WireResponse(answer, status_code=status, headers=NO_STORE)
    response.set_cookie(
        settings.name,
        accounts.cookie(session),
        max_age=int(settings.lifetime.total_seconds()),
        path="/",
        secure=settings.secure,
        httponly=True,
        samesite="lax",
    )
    return response


async def _json_body(request: Request) -> bytes:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    return await read_body(request, MAX_BODY_BYTES)


async def _limit_sign_in(request: Request, account: str | None = None) -> None:
    """Count a sign-in attempt against the client's address (and the account name) in
    the database, so that every instance on it counts the same attempts."""
    serving = services(request)
    rate = serving.rates.login
    if rate is None:
        return
    address = request.client.host if request.client is not None else ""
    keys = [attempt_key("sign-in-address", address)]
    if account is not None:
        keys.append(attempt_key("sign-in-account", account))
    window_ms = rate.get_expiry() * 1000
    store = serving.store
    wait_ms = await serving.writer.call(
        lambda: count_attempt(store, keys, serving.now(), rate.amount, window_ms)
    )
    if wait_ms is not None:
        raise Refused("err_login_rate", seconds=max(1, round(wait_ms / 1000)))


async def _me(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return WireResponse(SignedOut(), headers=NO_STORE)
    csrf = services(request).accounts.csrf_token(session)
    return WireResponse(SignedIn(player=_player_info(session.player), csrf=csrf), headers=NO_STORE)


async def _register(request: Request) -> Response:
    session = await acting_session(request)
    credentials = decode_credentials(await _json_body(request))
    await _limit_sign_in(request)
    made = await services(request).accounts.register(
        credentials.name, credentials.password, session
    )
    return _signed_in(request, made, status=201)


async def _login(request: Request) -> Response:
    session = await acting_session(request)
    credentials = decode_credentials(await _json_body(request))
    await _limit_sign_in(request, name_key(credentials.name))
    signed = await services(request).accounts.log_in(
        credentials.name, credentials.password, session
    )
    return _signed_in(request, signed)


async def _guest(request: Request) -> Response:
    session = await acting_session(request)
    wanted = decode_guest(await _json_body(request))
    await _limit_sign_in(request)
    guest = await services(request).accounts.guest(wanted.nickname, session)
    return _signed_in(request, guest, status=201 if session is None else 200)


async def _logout(request: Request) -> Response:
    session = await acting_session(request)
    if session is not None:
        await services(request).accounts.log_out(session)
    settings = services(request).cookies
    response = WireResponse(SignedOut(), headers=NO_STORE)
    response.delete_cookie(
        settings.name, path="/", secure=settings.secure, httponly=True, samesite="lax"
    )
    return response


async def _claim(request: Request) -> Response:
    session = await acting_session(request)
    if session is None:
        raise Refused("err_signed_out")
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    found = None
    if scheme.lower() == "bearer" and 0 < len(token) <= 128:
        found = await services(request).hub.authenticate(request.path_params["game_id"], token)
    if found is None:
        raise Refused("err_bad_token")
    live, seat = found
    if live.stored.rated and session.player.kind != "account":
        raise Refused("err_rated_needs_account")  # a rated game rates accounts only
    claim = await record_seat(request, live.id, seat, session.player)
    if claim == "other":
        raise Refused("err_seat_taken")
    if claim == "both":
        raise Refused("err_claim_both")
    if claim == "taken":
        await services(request).hub.seats_changed(live.id)  # the table shows the name
    return WireResponse(SeatClaimed(seat=seat, player=_player_info(session.player)))


# -- the player's games ---------------------------------------------------------------------


async def _my_games(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        raise Refused("err_signed_out")
    store = services(request).accounts.store
    player_id = session.player.id
    ongoing = await asyncio.to_thread(store.games_of, player_id, PLAYING, ONGOING_LIMIT)
    finished = await asyncio.to_thread(store.games_of, player_id, FINISHED, FINISHED_LIMIT)
    serving = services(request)
    turns = await asyncio.to_thread(_turns, serving.games, ongoing, serving.now())
    ongoing = [entry for entry in ongoing if entry.id in turns]
    notes = await rating_notes(serving.ratings, player_id, [*ongoing, *finished])
    listed = [_ongoing(entry, notes, *turns[entry.id]) for entry in ongoing]
    listed.sort(key=lambda game: not game.your_turn)  # stable: newest first within
    answer = MyGames(
        player=_player_info(session.player),
        ratings=notes.mine,
        ongoing=tuple(listed),
        finished=tuple(_finished(entry, notes) for entry in finished),
    )
    return WireResponse(answer, headers=NO_STORE)


Turn = tuple[int | None, int, ClockState | None]


def _turns(games: GameStore, entries: list[GameEntry], now: int) -> dict[str, Turn]:
    """Each ongoing game's seat to move (``None``: nobody, it is over), decisions so far
    and clocks at ``now`` (``None``: untimed), replayed from the database, which is never
    behind the live games."""
    found: dict[str, Turn] = {}
    for entry in entries:
        stored = games.load(entry.id)
        if stored is None:
            continue
        game = rebuild(stored)
        to_move = None if game.is_over() or stored.termination else game.to_move
        clock = None
        if stored.clock.timed:
            clock = clock_json(stored.clock, stored_clocks(stored, to_move, now))
        found[entry.id] = (to_move, len(stored.decisions), clock)
    return found


def _opponent(entry: GameEntry, notes: RatingNotes) -> Opponent:
    if entry.opponent_level is not None:
        return Opponent(kind="bot", level=entry.opponent_level)
    if entry.opponent_kind is None or entry.opponent_name is None:
        return Opponent(kind="anonymous")
    rating = notes.opponents.get(entry.id, UNSET)
    bot = True if entry.opponent_bot else UNSET
    return Opponent(kind=entry.opponent_kind, name=entry.opponent_name, rating=rating, bot=bot)


def _ongoing(
    entry: GameEntry, notes: RatingNotes, to_move: int | None, ply: int, clock: ClockState | None
) -> OngoingGame:
    return OngoingGame(
        id=entry.id,
        variant=entry.variant,
        seat=entry.seat,
        created=entry.created.isoformat(),
        opponent=_opponent(entry, notes),
        rating_delta=notes.deltas.get(entry.id, UNSET),
        ply=ply,
        your_turn=to_move == entry.seat,
        clock=clock,
    )


def _outcome(entry: GameEntry) -> Outcome:
    """``won``, ``lost`` or ``drawn``, from the player's seat; ``aborted`` for a game that
    ended with no result (``*``: a clock or a rated game's abort, before each side had
    decided)."""
    if entry.result == "1-0":
        return "won" if entry.seat == 0 else "lost"
    if entry.result == "0-1":
        return "won" if entry.seat == 1 else "lost"
    return "drawn" if entry.result == "1/2-1/2" else "aborted"


def _finished(entry: GameEntry, notes: RatingNotes) -> FinishedGame:
    return FinishedGame(
        id=entry.id,
        variant=entry.variant,
        seat=entry.seat,
        created=entry.created.isoformat(),
        opponent=_opponent(entry, notes),
        rating_delta=notes.deltas.get(entry.id, UNSET),
        outcome=_outcome(entry),
    )


async def _player_page(request: Request) -> Response:
    name = request.path_params["name"]
    store: PlayerStore = services(request).accounts.store
    found = await asyncio.to_thread(store.account, name) if len(name) <= 40 else None
    if found is None:
        raise Refused("err_no_player", name=name[:40])
    player, _ = found
    # A private game is listed for its own players only (as the statistics count it).
    session = await current_session(request)
    viewer = None if session is None else session.player.id
    recent = await asyncio.to_thread(
        functools.partial(
            store.games_of, player.id, FINISHED, PLAYER_PAGE_GAMES, page=True, viewer=viewer
        )
    )
    ratings = services(request).ratings
    notes = await rating_notes(ratings, player.id, recent)
    current, history = await player_ratings(ratings, player.id)
    games = tuple(
        PlayerPageGame(
            variant=entry.variant,
            created=entry.created.isoformat(),
            opponent=_opponent(entry, notes),
            outcome=_outcome(entry),
            rating_delta=notes.deltas.get(entry.id, UNSET),
        )
        for entry in recent
    )
    answer = PlayerPage(
        player=PublicPlayer(name=player.name, kind=player.kind, bot=player.bot),
        since=player.created.date().isoformat(),
        games=games,
        ratings=current,
        history=history,
    )
    return WireResponse(answer, headers=NO_STORE)
