"""``Social``: an instance's side of friends and challenges: the site sockets open here
and who is online (``presence.py``), the relations (``relations.py``), and challenges
made, accepted, declined, cancelled and expired (``challenges.py``, ``store.py``), each
told live to the pages of both players on every instance (``notes.py``).

Blocking queries run in a thread, writes on the server's writer (``run``). The game an
acceptance makes comes from ``make_game`` (``services.py``: the lobby's pairings make
theirs the same way).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from hanamikoji.arena.glicko2 import Rating
from hanamikoji.interfaces.clocks import wall_clock_ms
from hanamikoji.interfaces.web.cluster.events import Event, Listener
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.players.store import Player, PlayerStore
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.social.challenges import (
    CANCELLED,
    DECLINED,
    LIFETIME_MS,
    MAX_OPEN,
    OPEN,
    Challenge,
    Side,
    check_accept,
    check_challenge,
    first_seat,
)
from hanamikoji.interfaces.web.social.notes import TOPIC, SocialNote, decode_note, note_of
from hanamikoji.interfaces.web.social.presence import (
    ONLINE_MS,
    TOUCH_S,
    PresenceStore,
    Send,
    SitePages,
)
from hanamikoji.interfaces.web.social.relations import Relations
from hanamikoji.interfaces.web.social.store import ChallengeStore
from hanamikoji.interfaces.web.wire.incoming import ChallengeRequest
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.interfaces.web.wire.social_messages import (
    ChallengeAccepted,
    ChallengeGame,
    ChallengeGone,
    ChallengeInfo,
    ChallengeList,
    ChallengePlayer,
    ChallengeReceived,
    ChallengeView,
    GoneReason,
    SocialState,
)

__all__ = ["ChallengeGameMaker", "Run", "Social"]

log = logging.getLogger("hanamikoji.web")

T = TypeVar("T")

Run = Callable[[Callable[[], Any]], Awaitable[Any]]
"""Runs a blocking database write off the event loop (the hub's writer)."""

ChallengeGameMaker = Callable[[tuple[str, str], str, str, bool, int], Awaitable[str]]
"""Makes a challenge's game: the players at seats 0 and 1, the variant, the time
control, rated, the seat that starts; the game's id."""


async def _in_thread(work: Callable[[], T]) -> T:
    return await asyncio.to_thread(work)


class Social:
    """Friends and challenges as this instance serves them.

    Args:
        store: the database.
        players: the players' queries (accounts by name).
        ratings: the ratings' queries (a challenger's rating, shown with the challenge).
        make_game: makes an accepted challenge's game.
        now: the server's time in ms.
        run: runs a blocking write (the hub's writer; a thread by default).
        listener: the instance's events from the others (PostgreSQL).
        pages: the site sockets open here, per player (shared with the hub, which tells
            them of their games' starts and ends: ``games/news.py``).
    """

    def __init__(
        self,
        store: Store,
        players: PlayerStore,
        ratings: RatingStore,
        make_game: ChallengeGameMaker,
        *,
        now: Callable[[], int] = wall_clock_ms,
        run: Run = _in_thread,
        listener: Listener | None = None,
        pages: SitePages | None = None,
    ) -> None:
        self.players = players
        self.ratings = ratings
        self.make_game = make_game
        self.now = now
        self.run = run
        self.listener = listener
        self.relations = Relations(store)
        self.presence = PresenceStore(store)
        self.challenges = ChallengeStore(store)
        self.pages = SitePages() if pages is None else pages
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Hear the other instances (PostgreSQL) and keep this instance's presence
        fresh, sweeping the challenges due, every :data:`TOUCH_S` seconds."""
        if self.listener is not None:
            self.listener.on(TOPIC, self._on_event)
        self._task = asyncio.create_task(self._keep())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await self.run(self.presence.clear_instance)

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(TOUCH_S)
            try:
                await self.tick()
            except Exception:
                log.exception("social: presence or the sweep of challenges failed")

    async def tick(self) -> int:
        """Touch this instance's players, then end the challenges due; how many."""
        now = self.now()
        await self.run(lambda: self.presence.touch(now))
        return await self.sweep()

    async def _on_event(self, event: Event) -> None:
        note = decode_note(event.data)
        if note is not None:
            self.pages.tell(note.players, note.text)

    # -- pages and presence -----------------------------------------------------------

    async def open_page(self, player: Player, send: Send) -> int:
        """A page of ``player`` opened the site socket: its key. Sent the player's open
        challenges (``social``)."""
        key, first = self.pages.add(player.id, send)
        if first:
            now = self.now()
            await self.run(lambda: self.presence.arrive(player.id, now))
        return key

    async def close_page(self, player: Player, key: int) -> None:
        if self.pages.remove(player.id, key) and not self.pages.here(player.id):
            await self.run(lambda: self.presence.leave(player.id))

    async def online(self, player_ids: Sequence[str]) -> frozenset[str]:
        now = self.now()
        return await asyncio.to_thread(self.presence.online, player_ids, now)

    async def state(self, player: Player) -> SocialState:
        listed = await self.listing(player)
        return SocialState(incoming=listed.incoming, outgoing=listed.outgoing)

    # -- challenges -------------------------------------------------------------------

    async def challenge(self, player: Player | None, request: ChallengeRequest) -> ChallengeInfo:
        """Send a challenge (see ``challenges.py`` for who may); the named opponent's
        pages are told at once, on every instance."""
        opponent = None
        if request.opponent is not None:
            found = await asyncio.to_thread(self.players.account, request.opponent)
            if found is None:
                raise Refused("err_no_player", name=request.opponent)
            opponent = found[0]
        blocked = False
        if player is not None and opponent is not None:
            blocked = await asyncio.to_thread(self.relations.blocks, player.id, opponent.id)
        me = check_challenge(
            player, opponent, rated=request.rated, variant=request.variant, blocked=blocked
        )
        now = self.now()
        if await asyncio.to_thread(self.challenges.count_open_from, me.id, now) >= MAX_OPEN:
            raise Refused("err_too_many_challenges", max=MAX_OPEN)
        challenge = Challenge(
            id=secrets.token_urlsafe(9),
            challenger=Side(me.id, me.name, me.kind == "account"),
            opponent=None if opponent is None else Side(opponent.id, opponent.name, True),
            variant=request.variant,
            time_control=request.time_control,
            rated=request.rated,
            first=request.first,
            status=OPEN,
            game=None,
            acceptor=None,
            created=now,
            expires=now + LIFETIME_MS,
        )
        info = await self.info(challenge)
        notes = (
            [] if opponent is None else [note_of([opponent.id], ChallengeReceived(challenge=info))]
        )
        await self.run(lambda: self.challenges.add(challenge, notes))
        self._tell(notes)
        return info

    async def find(self, challenge_id: str) -> Challenge:
        """The challenge of that id; :class:`Refused` (``err_no_challenge``) if none."""
        found = None
        if 0 < len(challenge_id) <= 16:
            found = await asyncio.to_thread(self.challenges.get, challenge_id)
        if found is None:
            raise Refused("err_no_challenge")
        return found

    async def view(self, player: Player | None, challenge_id: str) -> ChallengeView:
        """A challenge as its link's page shows it to ``player``."""
        challenge = await self.find(challenge_id)
        yours = player is not None and player.id == challenge.challenger.id
        for_you = False
        if player is not None and not yours and challenge.is_open(self.now()):
            named = challenge.opponent is None or challenge.opponent.id == player.id
            for_you = named and not await asyncio.to_thread(
                self.relations.blocks, player.id, challenge.challenger.id
            )
        return ChallengeView(challenge=await self.info(challenge), yours=yours, for_you=for_you)

    async def listing(self, player: Player) -> ChallengeList:
        """The open challenges to and from ``player``."""
        now = self.now()
        incoming = await asyncio.to_thread(self.challenges.open_to, player.id, now)
        outgoing = await asyncio.to_thread(self.challenges.open_from, player.id, now)
        infos = await self.infos([*incoming, *outgoing])
        return ChallengeList(
            incoming=tuple(infos[: len(incoming)]), outgoing=tuple(infos[len(incoming) :])
        )

    async def accept(self, player: Player | None, challenge_id: str) -> ChallengeAccepted:
        """Accept a challenge: the game is made, and both players' pages are sent to it.
        Of two acceptances at once (on any instances), one makes the game."""
        challenge = await self.find(challenge_id)
        blocked = player is not None and await asyncio.to_thread(
            self.relations.blocks, player.id, challenge.challenger.id
        )
        me = check_accept(challenge, player, now=self.now(), blocked=blocked)
        now = self.now()
        if not await self.run(lambda: self.challenges.take(challenge.id, me.id, now)):
            raise Refused("err_challenge_gone")
        seat = first_seat(challenge.first, secrets.randbelow(2))
        sides = (challenge.challenger.id, me.id)
        try:
            game = await self.make_game(
                sides, challenge.variant, challenge.time_control, challenge.rated, seat
            )
        except Exception as error:
            log.exception("a challenge's game could not be made")
            await self.run(lambda: self.challenges.reopen(challenge.id))
            raise Refused("err_pairing") from error
        notes = [note_of(sides, ChallengeGame(id=challenge.id, game=game))]
        await self.run(lambda: self.challenges.made(challenge.id, game, notes))
        self._tell(notes)
        return ChallengeAccepted(game=game, seat=1)

    async def decline(self, player: Player | None, challenge_id: str) -> None:
        """The named opponent declines; the challenger is told."""
        await self._end(player, challenge_id, DECLINED)

    async def cancel(self, player: Player | None, challenge_id: str) -> None:
        """The challenger withdraws it; the opponent is told."""
        await self._end(player, challenge_id, CANCELLED)

    async def _end(self, player: Player | None, challenge_id: str, status: str) -> None:
        if player is None:
            raise Refused("err_signed_out")
        challenge = await self.find(challenge_id)
        reason: GoneReason = "declined" if status == DECLINED else "cancelled"
        notes = [note_of(challenge.players(), ChallengeGone(id=challenge.id, reason=reason))]
        if not await self.run(lambda: self.challenges.end(challenge.id, status, player.id, notes)):
            # Still open: not this player's to end (a decline by its challenger, a cancel
            # by its opponent, anyone else's); else it ended before.
            still = await self.find(challenge.id)
            raise Refused(
                "err_challenge_not_yours" if still.is_open(self.now()) else "err_challenge_gone"
            )
        self._tell(notes)

    async def sweep(self) -> int:
        """End the open challenges out of time, or whose challenger left the site (no
        page open for :data:`ONLINE_MS`): both sides are told. How many ended here."""
        now = self.now()
        due = await asyncio.to_thread(self.challenges.due, now, ONLINE_MS)
        ended = 0
        for challenge in due:
            if await self._expire(challenge):
                ended += 1
        return ended

    async def _expire(self, challenge: Challenge) -> bool:
        notes = [note_of(challenge.players(), ChallengeGone(id=challenge.id, reason="expired"))]
        if not await self.run(lambda: self.challenges.expire(challenge.id, notes)):
            return False
        self._tell(notes)
        return True

    # -- what pages are sent ------------------------------------------------------------

    def _tell(self, notes: Sequence[SocialNote]) -> None:
        self.pages.deliver(notes)

    async def info(self, challenge: Challenge) -> ChallengeInfo:
        return (await self.infos([challenge]))[0]

    async def infos(self, found: Sequence[Challenge]) -> list[ChallengeInfo]:
        """The challenges as pages show them, each with its challenger's rating in its
        variant (a new player's without one)."""
        if not found:
            return []
        ids = [challenge.challenger.id for challenge in found]
        stored = await asyncio.to_thread(self.ratings.current, ids)
        named = ids + [c.opponent.id for c in found if c.opponent is not None]
        bots = await asyncio.to_thread(self.players.bot_ids, named)
        shown = []
        for challenge in found:
            kept = stored.get((challenge.challenger.id, challenge.variant))
            rating = Rating() if kept is None else kept.rating
            challenger = ChallengePlayer(
                name=challenge.challenger.name,
                account=challenge.challenger.account,
                rating=round(rating.rating),
                provisional=rating.provisional,
                bot=challenge.challenger.id in bots,
            )
            shown.append(
                ChallengeInfo(
                    id=challenge.id,
                    challenger=challenger,
                    opponent=None if challenge.opponent is None else challenge.opponent.name,
                    variant=challenge.variant,
                    time_control=challenge.time_control,
                    rated=challenge.rated,
                    first=challenge.first,
                    status=challenge.status,
                    game=challenge.game,
                    expires=challenge.expires,
                    opponent_bot=challenge.opponent is not None and challenge.opponent.id in bots,
                )
            )
        return shown
