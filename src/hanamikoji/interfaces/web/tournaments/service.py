"""Tournaments as the routes and sockets use them: create, list, show, join, withdraw,
enter a bot level, and the pages watching a tournament, told of every change on any
instance (this instance's writes at once, the others' through their ``tournament``
events, ``cluster/events.py``). Pairing and directing are ``director.py``'s.

Who may enter: an account (a guest may watch), a bot account only through the bot API
(``POST /api/tournament/{id}/join`` with its token), each as the tournament's
``entry`` allows; our bot levels by the creator alone. A tournament by invitation is
seen and joined only with its code (its creator and entrants see it without).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from hanamikoji.arena.games import MatchConfig
from hanamikoji.arena.players import players_from_names
from hanamikoji.interfaces.web.cluster.events import Event as ClusterEvent
from hanamikoji.interfaces.web.cluster.events import Listener
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.tournaments.director import ATTEMPTS, Run
from hanamikoji.interfaces.web.tournaments.model import (
    CREATED,
    FINISHED,
    MAX_ENTRANTS,
    STARTED,
    Settings,
    Tournament,
    level_id,
    level_of,
    new_event,
)
from hanamikoji.interfaces.web.tournaments.requests import CreateRequest
from hanamikoji.interfaces.web.tournaments.store import TOPIC, Change, EntrantRow, TournamentStore
from hanamikoji.interfaces.web.tournaments.views import card_of, view_of
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.interfaces.web.wire.tournament_messages import TournamentList, TournamentView
from hanamikoji.tournaments import DEFAULT_RATING, Entrant, Swiss, TournamentError
from hanamikoji.tournaments.running import Field

__all__ = ["Tournaments", "Watcher"]

log = logging.getLogger("hanamikoji.web")

ID_CHARS = 8
"""The bytes of randomness of a tournament's id (its invitation code has 16)."""


@dataclass(eq=False)
class Watcher:
    """A page watching a tournament: its player (``None``: nobody signed in), the code
    it came with, and how it is sent a view."""

    viewer: str | None
    code: str | None
    send: Callable[[TournamentView], None]
    tournament: str = field(default="")


class Tournaments:
    """The tournaments' service.

    Args:
        db: the tournaments' store.
        ratings: the players' ratings (an entrant's rating in the variant).
        run: runs a blocking write (the hub's writer).
        now: the server's clock, ms since the epoch.
        listener: the other instances' events (PostgreSQL), or ``None``.
    """

    def __init__(
        self,
        db: TournamentStore,
        ratings: RatingStore,
        run: Run,
        now: Callable[[], int],
        listener: Listener | None = None,
    ) -> None:
        self.db = db
        self.ratings = ratings
        self.run = run
        self.now = now
        self.watchers: dict[str, set[Watcher]] = {}
        if listener is not None:
            listener.on(TOPIC, self._heard)

    # -- reading ----------------------------------------------------------------------

    async def find(self, tournament_id: str, viewer: str | None, code: str | None) -> Tournament:
        """The tournament if ``viewer`` may see it; else :class:`Refused`
        (``err_no_tournament``: none, or by invitation without its code)."""
        found = None
        if 0 < len(tournament_id) <= 16:
            found = await asyncio.to_thread(self.db.get, tournament_id)
        if found is None or not _may_see(found, viewer, code):
            raise Refused("err_no_tournament")
        return found

    async def view(
        self, tournament_id: str, viewer: str | None, code: str | None
    ) -> TournamentView:
        tournament = await self.find(tournament_id, viewer, code)
        entrants = await asyncio.to_thread(self.db.entrants, tournament.id)
        joinable = tournament.status != FINISHED and _open_to_join(tournament)
        return view_of(tournament, entrants, viewer, self.now(), can_join=joinable)

    async def listing(self) -> TournamentList:
        upcoming, running, finished = [
            await asyncio.to_thread(self.db.listing, status)
            for status in (CREATED, STARTED, FINISHED)
        ]
        return TournamentList(
            upcoming=tuple(card_of(t) for t in upcoming),
            running=tuple(card_of(t) for t in running),
            finished=tuple(card_of(t) for t in finished),
            now=self.now(),
        )

    # -- changes ------------------------------------------------------------------------

    async def create(self, player: Player, request: CreateRequest) -> Tournament:
        """A new tournament of ``player``'s (an account of a person's)."""
        if player.kind != "account" or player.bot:
            raise Refused("err_account_only")
        swiss = request.kind == "swiss"
        settings = Settings(
            request.name,
            request.variant,
            request.time_control,
            request.rated,
            request.kind,
            request.rounds if swiss else None,
            None if swiss else request.minutes,
            self.now() + request.starts_in * 60_000,
            secrets.token_urlsafe(12) if request.invitation else None,
            request.entry,
        )
        tournament = Tournament(
            secrets.token_urlsafe(ID_CHARS)[:11],
            player.id,
            settings,
            CREATED,
            new_event(request.kind, settings.rounds),
            0,
            self.now(),
            creator_name=player.name,
        )
        await self.run(functools.partial(self.db.create, tournament, player.name))
        return tournament

    async def join(self, player: Player, tournament_id: str, code: str | None) -> None:
        """``player`` in the tournament (back in it, after withdrawing). :class:`Refused`:
        a guest (``err_account_only``), not admitted (``err_tournament_entry``), over or
        past joining (``err_tournament_closed``), full (``err_tournament_full``)."""
        if player.kind != "account":
            raise Refused("err_account_only")
        tournament = await self.find(tournament_id, player.id, code)
        if not tournament.settings.admits(bot=player.bot):
            raise Refused("err_tournament_entry")
        rating = await asyncio.to_thread(self._rating, player.id, tournament.settings.variant)
        row = EntrantRow(player.id, player.id, None, player.name, player.bot, self.now())
        await self._enter(tournament.id, Entrant(player.id, player.name, rating), row)

    async def enter_level(self, player: Player, tournament_id: str, level: int) -> None:
        """The creator enters our bot ``level`` (``err_tournament_creator`` for anyone
        else)."""
        tournament = await self.find(tournament_id, player.id, None)
        if tournament.creator != player.id:
            raise Refused("err_tournament_creator")
        entrant_id = level_id(level)
        spec = players_from_names([entrant_id])[0]
        rating = Field((), MatchConfig(tournament.settings.variant)).rating_of(spec)
        name = f"Bot {level}"
        row = EntrantRow(entrant_id, None, level, name, False, self.now())
        await self._enter(tournament.id, Entrant(entrant_id, name, rating), row)

    async def withdraw(
        self, player: Player, tournament_id: str, entrant: str | None = None
    ) -> None:
        """``player`` (or, by the creator, a level they entered) paired no more."""
        target = entrant or player.id
        for _ in range(ATTEMPTS):
            tournament = await self.find(tournament_id, player.id, None)
            if target != player.id and (
                level_of(target) is None or tournament.creator != player.id
            ):
                raise Refused("err_tournament_creator")
            if tournament.status == FINISHED:
                raise Refused("err_tournament_closed")
            try:
                event = tournament.event.withdraw(target)
            except TournamentError:
                raise Refused("err_tournament_in") from None
            if await self.run(functools.partial(self.db.save, tournament, event)):
                self.changed(tournament.id)
                return
        raise Refused("err_conflict")

    async def _enter(self, tournament_id: str, entrant: Entrant, row: EntrantRow) -> None:
        for _ in range(ATTEMPTS):
            tournament = await asyncio.to_thread(self.db.get, tournament_id)
            if tournament is None:
                raise Refused("err_no_tournament")
            if tournament.status == FINISHED or not _open_to_join(tournament):
                raise Refused("err_tournament_closed")
            known = {e.id for e in tournament.event.entrants}
            if entrant.id not in known and len(known) >= MAX_ENTRANTS:
                raise Refused("err_tournament_full", max=MAX_ENTRANTS)
            try:
                event = tournament.event.join(entrant)
            except TournamentError:
                raise Refused("err_tournament_in") from None
            change = Change(entrants=(row,))
            if await self.run(functools.partial(self.db.save, tournament, event, change)):
                self.changed(tournament.id)
                return
        raise Refused("err_conflict")

    def _rating(self, player_id: str, variant: str) -> int:
        found = self.ratings.current([player_id]).get((player_id, variant))
        return DEFAULT_RATING if found is None else round(found.rating.rating)

    # -- pages watching ---------------------------------------------------------------

    def watch(self, tournament_id: str, watcher: Watcher) -> None:
        watcher.tournament = tournament_id
        self.watchers.setdefault(tournament_id, set()).add(watcher)

    def unwatch(self, watcher: Watcher) -> None:
        found = self.watchers.get(watcher.tournament)
        if found is not None:
            found.discard(watcher)
            if not found:
                self.watchers.pop(watcher.tournament, None)

    def changed(self, tournament_id: str) -> None:
        """The tournament changed (here): its pages are sent it again."""
        if tournament_id in self.watchers:
            task = asyncio.get_running_loop().create_task(self.tell(tournament_id))
            task.add_done_callback(_log_failure)

    async def tell(self, tournament_id: str) -> None:
        for watcher in list(self.watchers.get(tournament_id, ())):
            try:
                watcher.send(await self.view(tournament_id, watcher.viewer, watcher.code))
            except Refused:
                continue

    async def _heard(self, event: ClusterEvent) -> None:
        await self.tell(event.key)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("tournaments: a page could not be told", exc_info=task.exception())


def _may_see(tournament: Tournament, viewer: str | None, code: str | None) -> bool:
    invite = tournament.settings.invite_code
    if invite is None or (
        code is not None and secrets.compare_digest(code.encode(errors="replace"), invite.encode())
    ):
        return True
    if viewer is None:
        return False
    return viewer == tournament.creator or any(e.id == viewer for e in tournament.event.entrants)


def _open_to_join(tournament: Tournament) -> bool:
    event = tournament.event
    return event.open_to_join if isinstance(event, Swiss) else not event.over
