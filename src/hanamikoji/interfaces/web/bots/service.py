"""What the bot API's routes and streams share: the bot a token plays as, its seat in a
game, the games and challenges as the API shows them, and the cap on open streams.

Everything here reads the other features through the services ``services.py`` built
(the hub, the players' and ratings' stores, the challenges): a bot's seat is a seat as a
person's is, so its clocks, forfeits and abandon timers are the same.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass

from hanamikoji.interfaces.web.db.api_tokens import TokenOwner
from hanamikoji.interfaces.web.db.games import PLAYING
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.players.store import Player, PlayerStore
from hanamikoji.interfaces.web.social.challenges import Challenge, Side
from hanamikoji.interfaces.web.wire.api_messages import ApiChallenge, GameRef
from hanamikoji.interfaces.web.wire.outgoing import SeatPlayer
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "EVENT_STREAMS",
    "GAME_STREAMS",
    "MAX_GAMES_LISTED",
    "MAX_SEATS_KEPT",
    "BotGames",
    "StreamSlots",
    "clock_name",
    "require_bot",
]

EVENT_STREAMS = 4
"""Event streams one token may hold open at once (per instance): a fifth closes the
oldest."""

GAME_STREAMS = 1
"""Streams of one game one token may hold open: a new one closes the older."""

MAX_GAMES_LISTED = 100
"""The games in progress an event stream replays at most."""

MAX_SEATS_KEPT = 10_000
"""The bots' seats kept in memory at most (the oldest go first): a named seat never
changes player, so one found is kept and not looked up at every decision."""


def require_bot(owner: TokenOwner) -> None:
    """:class:`Refused` (``err_not_bot``) unless the token's account is a bot."""
    if not owner.bot:
        raise Refused("err_not_bot")


def clock_name(control: str) -> str | None:
    """A time control's name as the API shows it (``None``: untimed)."""
    return None if control in ("none", "") else control


@dataclass(eq=False)
class Slot:
    """One open stream: set ``closed`` to end it."""

    closed: asyncio.Event


class StreamSlots:
    """The streams open per key (a token, or a token and a game), oldest first: one
    over the cap closes the oldest."""

    def __init__(self) -> None:
        self._open: dict[Hashable, list[Slot]] = defaultdict(list)

    def open(self, key: Hashable, cap: int) -> Slot:
        slot = Slot(asyncio.Event())
        slots = self._open[key]
        slots.append(slot)
        while len(slots) > cap:
            slots.pop(0).closed.set()
        return slot

    def close(self, key: Hashable, slot: Slot) -> None:
        slots = self._open.get(key, [])
        if slot in slots:
            slots.remove(slot)
        if not slots:
            self._open.pop(key, None)

    def count(self, key: Hashable) -> int:
        return len(self._open.get(key, []))


class BotGames:
    """A bot's games and challenges as the API shows them.

    Args:
        hub: the live games.
        players: the players' queries (seats, bot flags).
    """

    def __init__(self, hub: GameHub, players: PlayerStore) -> None:
        self.hub = hub
        self.players = players
        self.slots = StreamSlots()
        self._seats: dict[tuple[str, str], int] = {}

    async def player(self, owner: TokenOwner) -> Player:
        found = await asyncio.to_thread(self.players.player, owner.player_id)
        if found is None:
            raise Refused("err_token")
        return found

    async def seat(self, owner: TokenOwner, game_id: str) -> tuple[LiveGame, int]:
        """The bot's game and seat; :class:`Refused` (``err_no_game``) for a game that
        does not exist or is not the bot's (the two are not told apart)."""
        if not 0 < len(game_id) <= 32:
            raise Refused("err_no_game")
        key = (game_id, owner.player_id)
        seat = self._seats.get(key)
        if seat is None:
            seat = await asyncio.to_thread(self.players.seat_of, game_id, owner.player_id)
            if seat is not None:
                self._keep_seat(key, seat)
        live = None if seat is None else await self.hub.get(game_id)
        if live is None or seat is None:
            raise Refused("err_no_game")
        return live, seat

    def _keep_seat(self, key: tuple[str, str], seat: int) -> None:
        while len(self._seats) >= MAX_SEATS_KEPT:
            del self._seats[next(iter(self._seats))]
        self._seats[key] = seat

    def game_ref(self, live: LiveGame, seat: int) -> GameRef:
        stored = live.stored
        return GameRef(
            id=stored.id,
            seat=seat,
            variant=stored.variant,
            rated=stored.rated,
            clock=clock_name(stored.clock.name) if stored.clock.timed else None,
            opponent=live.seated()[1 - seat],
        )

    async def games(self, owner: TokenOwner, status: str = PLAYING) -> list[GameRef]:
        """The bot's games of ``status`` (in progress by default), newest first."""
        entries = await asyncio.to_thread(
            self.players.games_of, owner.player_id, status, MAX_GAMES_LISTED
        )
        refs = []
        for entry in entries:
            live = await self.hub.get(entry.id)
            if live is not None:
                refs.append(self.game_ref(live, entry.seat))
        return refs

    async def challenge(self, challenge: Challenge) -> ApiChallenge:
        """A stored challenge as the API shows it (an open one's ``dest`` is nobody)."""
        challenger = await self._side(challenge.challenger)
        dest = SeatPlayer(kind="anonymous")
        if challenge.opponent is not None:
            dest = await self._side(challenge.opponent)
        return ApiChallenge(
            id=challenge.id,
            challenger=challenger,
            dest=dest,
            variant=challenge.variant,
            clock=clock_name(challenge.time_control),
            rated=challenge.rated,
            first="challenger"
            if challenge.first == "me"
            else "dest"
            if challenge.first == "them"
            else "random",
            status=challenge.status,
        )

    async def _side(self, side: Side) -> SeatPlayer:
        found = await asyncio.to_thread(self.players.player, side.id)
        bot = found is not None and found.bot
        return SeatPlayer(kind="account" if side.account else "guest", name=side.name, bot=bot)
