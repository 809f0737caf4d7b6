"""The lobby: open seeks that others accept, and a quick-pairing queue by rating.

Everything lives in one process's memory (:class:`Lobby`); its pages are told of each
change as it happens (:class:`LobbyClient` takes the messages). Issue 27 will spread the
lobby over several servers: only :class:`Lobby` needs to change then, the routes and the
page do not.

* A **seek** is one page's offer of a game: variant, time control, rated or not, and the
  ratings it accepts (``range``; anyone without one). Only the pages whose player's
  rating is in range see it. It goes when it is accepted, cancelled, or its page closes.
* **Accepting** a seek makes the game with both seats named (:data:`GameMaker`) and
  sends each side its seat's link (``paired``).
* **Quick pairing** pairs the closest ratings among those waiting for the same settings,
  within a window that widens while they wait (:func:`window`).

A player's identity comes from :class:`LobbyPlayer` (the session's guest or account);
a rated game needs an account on both sides. Ratings are per variant: a seek's range,
and the quick-pairing gap, use the ratings in the game's variant; a player with no rating
in it counts as Glicko-2's new player: 1500, provisional.

>>> window(0.0), window(10.0), window(600.0)
(100.0, 300.0, 700.0)
"""

from __future__ import annotations

import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from hanamikoji.arena.glicko2 import Rating, provisional
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.checks import Refused
from hanamikoji.interfaces.web.payload import JSON, encode
from hanamikoji.interfaces.web.schema import QuickMessage, SeekMessage

__all__ = [
    "MAX_SEEKS",
    "GameMaker",
    "Lobby",
    "LobbyClient",
    "LobbyPlayer",
    "Pairing",
    "Seat",
    "Seek",
    "window",
]

log = logging.getLogger("hanamikoji.web")

MAX_SEEKS = 3
"""Open seeks one page may have at once."""

WINDOW_START = 100.0
WINDOW_GROWTH = 20.0
WINDOW_MAX = 700.0


def window(waited: float) -> float:
    """How far apart two ratings may be for a quick pairing, after ``waited`` seconds in
    the queue: 100 at once, 20 more each second, at most 700."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * waited)


@dataclass(frozen=True, slots=True)
class LobbyPlayer:
    """Who is in the lobby: the session's player (``account`` or a guest) and their
    rating in each variant they have one in."""

    id: str
    name: str
    account: bool
    ratings: Mapping[str, Rating] = field(default_factory=dict)

    def rating(self, variant: str) -> Rating:
        """The rating in ``variant``; a new player's (1500, provisional) without one."""
        rating = self.ratings.get(variant)
        return Rating() if rating is None else rating

    def public(self, variant: str) -> JSON:
        """The player as a seek of ``variant`` shows them."""
        return {"name": self.name, "account": self.account, **self.rating_json(variant)}

    def rating_json(self, variant: str) -> JSON:
        rating = self.rating(variant)
        return {"rating": round(rating.rating), "provisional": provisional(rating)}

    def you(self) -> JSON:
        """The player as their own lobby page shows them: a rating per variant."""
        ratings = {variant: self.rating_json(variant) for variant in VARIANTS}
        return {"name": self.name, "account": self.account, "ratings": ratings}


class LobbyClient:
    """One open lobby page: its player (``None``: nobody signed in, it may only look)
    and where its messages go."""

    def __init__(self, player: LobbyPlayer | None, send: Callable[[str], None]) -> None:
        self.player = player
        self.send = send
        self.key = secrets.token_urlsafe(6)


@dataclass(frozen=True, slots=True)
class Seek:
    id: str
    client: LobbyClient
    variant: str
    time_control: str
    rated: bool
    range: tuple[int, int] | None

    def admits(self, player: LobbyPlayer) -> bool:
        """Whether ``player``'s rating in the seek's variant is within its range."""
        if self.range is None:
            return True
        low, high = self.range
        return low <= player.rating(self.variant).rating <= high

    def visible_to(self, client: LobbyClient) -> bool:
        if client is self.client:
            return True
        return client.player is not None and self.admits(client.player)

    def public(self, viewer: LobbyClient | None) -> JSON:
        owner = self.client.player
        assert owner is not None, "a seek is always a player's"
        return {
            "id": self.id,
            "variant": self.variant,
            "time_control": self.time_control,
            "rated": self.rated,
            "range": None if self.range is None else list(self.range),
            "player": owner.public(self.variant),
            "mine": viewer is self.client,
        }


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two pages to seat in a new game of these settings (``seeker`` at seat 0)."""

    seeker: LobbyClient
    opponent: LobbyClient
    variant: str
    time_control: str
    rated: bool


@dataclass(frozen=True, slots=True)
class Seat:
    """What a paired page is sent: the game and its seat's token."""

    game: str
    seat: int
    token: str


GameMaker = Callable[[Pairing], Awaitable[tuple[Seat, Seat]]]
"""Creates the game of a pairing with both seats named; returns (seeker's, opponent's)."""


@dataclass(slots=True)
class _Waiting:
    client: LobbyClient
    variant: str
    time_control: str
    rated: bool
    since: float


class Lobby:
    """The open seeks and the quick-pairing queue of one server.

    Args:
        make_game: creates a pairing's game.
        now: seconds, for the queue's widening windows (a monotonic clock).
    """

    def __init__(self, make_game: GameMaker, now: Callable[[], float] = time.monotonic) -> None:
        self.make_game = make_game
        self.now = now
        self._clients: dict[str, LobbyClient] = {}
        self._seeks: dict[str, Seek] = {}
        self._queue: dict[str, _Waiting] = {}

    # -- pages ------------------------------------------------------------------------

    def join(self, client: LobbyClient) -> None:
        """A page opened: it gets the seeks it may see."""
        self._clients[client.key] = client
        client.send(encode(self.snapshot(client)))

    def leave(self, client: LobbyClient) -> None:
        """A page closed: its seeks go, and its place in the queue."""
        self._clients.pop(client.key, None)
        self._queue.pop(client.key, None)
        for seek in [seek for seek in self._seeks.values() if seek.client is client]:
            self._remove(seek)

    def snapshot(self, client: LobbyClient) -> JSON:
        return {
            "type": "lobby",
            "you": None if client.player is None else client.player.you(),
            "seeks": [s.public(client) for s in self._seeks.values() if s.visible_to(client)],
            "queued": client.key in self._queue,
        }

    @property
    def clients(self) -> int:
        return len(self._clients)

    # -- seeks ------------------------------------------------------------------------

    def seek(self, client: LobbyClient, request: SeekMessage) -> Seek:
        """Open a seek. Raises :class:`Refused`: nobody signed in, a rated seek without
        an account, or too many open seeks."""
        _player(client, rated=request.rated)
        if sum(seek.client is client for seek in self._seeks.values()) >= MAX_SEEKS:
            raise Refused("err_too_many_seeks", max=MAX_SEEKS)
        seek = Seek(
            secrets.token_urlsafe(6),
            client,
            request.variant,
            request.time_control,
            request.rated,
            request.range,
        )
        self._seeks[seek.id] = seek
        client.send(encode({"type": "seek", "seek": seek.public(client)}))
        # One text for every other page: a seek is told to a thousand pages at once.
        message = encode({"type": "seek", "seek": seek.public(None)})
        for other in self._clients.values():
            if other is not client and seek.visible_to(other):
                other.send(message)
        return seek

    def cancel(self, client: LobbyClient, seek_id: str) -> None:
        """Withdraw a seek of this page's. Raises :class:`Refused` (``err_seek_gone``)."""
        seek = self._seeks.get(seek_id)
        if seek is None or seek.client is not client:
            raise Refused("err_seek_gone")
        self._remove(seek)

    async def accept(self, client: LobbyClient, seek_id: str) -> None:
        """Accept a seek: the game is made and both sides sent their seats. Raises
        :class:`Refused` when the seek is gone, is the page's own, or does not admit
        the page's player (out of range, or rated without an account)."""
        seek = self._seeks.get(seek_id)
        if seek is None:
            raise Refused("err_seek_gone")
        player = _player(client, rated=seek.rated)
        if seek.client is client or _same_player(seek.client, client):
            raise Refused("err_seek_own")
        if not seek.admits(player):
            raise Refused("err_seek_range")
        pairing = Pairing(seek.client, client, seek.variant, seek.time_control, seek.rated)
        await self._pair(pairing)

    def _remove(self, seek: Seek) -> None:
        if self._seeks.pop(seek.id, None) is None:
            return
        message = encode({"type": "unseek", "seek": seek.id})
        for other in self._clients.values():
            if seek.visible_to(other):
                other.send(message)

    # -- quick pairing ----------------------------------------------------------------

    async def enqueue(self, client: LobbyClient, request: QuickMessage) -> None:
        """Wait for an opponent with these settings; paired at once if one is close
        enough. Raises :class:`Refused` as :meth:`seek` does."""
        _player(client, rated=request.rated)
        self._queue[client.key] = _Waiting(
            client, request.variant, request.time_control, request.rated, self.now()
        )
        client.send(encode({"type": "queued", "queued": True}))
        await self.pair_queue()

    def dequeue(self, client: LobbyClient) -> None:
        if self._queue.pop(client.key, None) is not None:
            client.send(encode({"type": "queued", "queued": False}))

    def candidates(self) -> list[tuple[_Waiting, _Waiting]]:
        """Pairs that may play now, closest ratings first (then the longest waiting):
        same settings, ratings within both players' windows."""
        now = self.now()
        found = []
        for a, b in itertools.combinations(self._queue.values(), 2):
            if (a.variant, a.time_control, a.rated) != (b.variant, b.time_control, b.rated):
                continue
            gap = abs(_rating(a.client, a.variant) - _rating(b.client, a.variant))
            if gap <= min(window(now - a.since), window(now - b.since)):
                found.append((gap, min(a.since, b.since), a, b))
        found.sort(key=lambda item: (item[0], item[1]))
        return [(a, b) for _, _, a, b in found]

    async def pair_queue(self) -> int:
        """Pair whoever may be paired now, closest ratings first; the number of games."""
        paired: set[str] = set()
        pairs = [(a, b) for a, b in self.candidates() if not _same_player(a.client, b.client)]
        games = 0
        for a, b in pairs:
            if a.client.key in paired or b.client.key in paired:
                continue
            paired |= {a.client.key, b.client.key}
            first, second = sorted((a, b), key=lambda waiting: waiting.since)
            await self._pair(
                Pairing(first.client, second.client, a.variant, a.time_control, a.rated)
            )
            games += 1
        return games

    # -- pairing ----------------------------------------------------------------------

    async def _pair(self, pairing: Pairing) -> None:
        """Take both pages out of the lobby's offers, make the game and send each side
        its seat. Raises :class:`Refused` (``err_pairing``) when the game cannot be made:
        the pages are back to the lobby, without their seeks."""
        sides = (pairing.seeker, pairing.opponent)
        for side in sides:
            self._queue.pop(side.key, None)
            for seek in [seek for seek in self._seeks.values() if seek.client is side]:
                self._remove(seek)
        try:
            seats = await self.make_game(pairing)
        except Exception as error:
            log.exception("the lobby could not make a game")
            raise Refused("err_pairing") from error
        for side, seat in zip(sides, seats, strict=True):
            side.send(
                encode(
                    {"type": "paired", "game": seat.game, "seat": seat.seat, "token": seat.token}
                )
            )


def _player(client: LobbyClient, *, rated: bool) -> LobbyPlayer:
    """The page's player, who may seek or accept: refused without one, or without an
    account for a rated game."""
    if client.player is None:
        raise Refused("err_signed_out")
    if rated and not client.player.account:
        raise Refused("err_rated_account")
    return client.player


def _same_player(one: LobbyClient, other: LobbyClient) -> bool:
    """Two pages of one player (two tabs): never paired together."""
    return one.player is not None and other.player is not None and one.player.id == other.player.id


def _rating(client: LobbyClient, variant: str) -> float:
    return Rating().rating if client.player is None else client.player.rating(variant).rating
