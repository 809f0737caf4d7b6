"""``Ladder``: the bot ladder as an instance serves it: bots join and leave it, one
instance at a time pairs them (:meth:`Ladder.tick`, the holder of PostgreSQL's advisory
lock ``hanamikoji.ladder``, as the lobby's matcher holds its own: ``lobby/matcher.py``),
and anyone reads its standings.

A look at the ladder pairs, per variant, the bots on it whose event stream is open (the
bot counts as online, ``social/``), that have a free slot under their cap of concurrent
games, by ``model.pairings``; each game is made by the very code an accepted challenge's
is (``Social.make_game``: rated, both seats named, who starts drawn), so each bot's
event stream starts it as any other game.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.ladder.model import Candidate, Pairing, pairings
from hanamikoji.interfaces.web.ladder.store import LadderStore, Member
from hanamikoji.interfaces.web.lobby.matcher import MatcherLock
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.social.service import Social
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "LADDER_CLOCK",
    "MAX_CONCURRENCY",
    "TICK_S",
    "Ladder",
    "Standing",
    "run_ladder",
]

log = logging.getLogger("hanamikoji.web")

LADDER_CLOCK = "3+2"
"""The time control of the ladder's games: a bot that does not decide loses on time."""

MAX_CONCURRENCY = 8
"""The most games at once a bot may ask the ladder for."""

TICK_S = 1.0
"""Seconds between two looks at the ladder."""

NEW_RATING = 1500.0
"""The rating of a bot with no game in a variant yet."""

Run = Callable[[Callable[[], Any]], Awaitable[Any]]


class Standing:
    """A bot's line in a variant's standings."""

    __slots__ = ("drawn", "games", "lost", "name", "online", "provisional", "rating", "won")

    def __init__(
        self,
        name: str,
        rating: int,
        provisional: bool,
        games: int,
        won: int,
        lost: int,
        drawn: int,
        online: bool,
    ) -> None:
        self.name = name
        self.rating = rating
        self.provisional = provisional
        self.games = games
        self.won = won
        self.lost = lost
        self.drawn = drawn
        self.online = online


class Ladder:
    """The bot ladder.

    Args:
        store: the database.
        ratings: the players' ratings.
        social: who is online, and how a challenge's game is made.
        now: the server's time in ms.
        run: runs a blocking write (the hub's writer).
    """

    def __init__(
        self,
        store: Store,
        ratings: RatingStore,
        social: Social,
        now: Callable[[], int],
        run: Run,
    ) -> None:
        self.db = LadderStore(store)
        self.ratings = ratings
        self.social = social
        self.now = now
        self.run = run
        self._lock = None if store.dialect == "sqlite" else MatcherLock(store.url, "ladder")
        self._pairing = asyncio.Lock()

    async def close(self) -> None:
        if self._lock is not None:
            await self._lock.release()

    async def join(self, player_id: str, variants: Sequence[str], concurrency: int) -> None:
        """Put a bot on the ladder in ``variants`` (all of them when empty), with at
        most ``concurrency`` games at once."""
        chosen = tuple(dict.fromkeys(variants)) or tuple(VARIANTS)
        if any(variant not in VARIANTS for variant in chosen):
            raise Refused("err_bad_field", field="variants")
        if not 1 <= concurrency <= MAX_CONCURRENCY:
            raise Refused("err_bad_field", field="concurrency")
        now = self.now()
        await self.run(lambda: self.db.join(player_id, chosen, concurrency, now))

    async def leave(self, player_id: str) -> None:
        """Take a bot off the ladder (its games in progress go on)."""
        if not await self.run(lambda: self.db.leave(player_id)):
            raise Refused("err_not_on_ladder")

    # -- pairing ------------------------------------------------------------------------

    async def tick(self) -> list[Pairing]:
        """One look at the ladder, if this instance is its pairer: the games made."""
        if self._lock is not None and not await self._lock.take():
            return []
        async with self._pairing:
            wanted = await self.candidates()
            made = []
            for pairing in pairings(*wanted):
                try:
                    await self._make(pairing)
                except Exception:
                    log.exception("ladder: a game could not be made")
                    continue
                made.append(pairing)
            return made

    async def candidates(self) -> tuple[list[Candidate], dict[str, int]]:
        """The ladder's candidates now (its online members, per variant) and each one's
        free slots."""
        members = await asyncio.to_thread(self.db.members)
        ids = [member.player_id for member in members]
        online = await self.social.online(ids)
        members = [member for member in members if member.player_id in online]
        ids = [member.player_id for member in members]
        if not ids:
            return [], {}
        playing = await asyncio.to_thread(self.db.playing, ids)
        last = await asyncio.to_thread(self.db.last_games)
        rated = await asyncio.to_thread(self.ratings.current, ids)
        now = self.now()
        free = {m.player_id: m.concurrency - playing.get(m.player_id, 0) for m in members}
        found = []
        for member in members:
            for variant in member.variants:
                rating = rated.get((member.player_id, variant))
                opponent, since = last.get((member.player_id, variant), (None, 0))
                found.append(
                    Candidate(
                        member.player_id,
                        variant,
                        NEW_RATING if rating is None else rating.rating.rating,
                        now - max(member.joined_ms, since),
                        opponent,
                    )
                )
        return found, free

    async def _make(self, pairing: Pairing) -> str:
        first = secrets.randbelow(2)
        game = await self.social.make_game(
            pairing.players, pairing.variant, LADDER_CLOCK, True, first
        )
        now = self.now()
        await self.run(lambda: self.db.made(game, pairing.variant, pairing.players, now))
        log.info("ladder: %s in %s", game, pairing.variant)
        return game

    # -- standings ----------------------------------------------------------------------

    async def standings(self, variant: str) -> list[Standing]:
        """The bots on the ladder in ``variant``, best rated first."""
        if variant not in VARIANTS:
            raise Refused("err_bad_field", field="variant")
        members: list[Member] = [
            m for m in await asyncio.to_thread(self.db.members) if variant in m.variants
        ]
        ids = [member.player_id for member in members]
        online = await self.social.online(ids)
        rated = await asyncio.to_thread(self.ratings.current, ids)
        tallies = await asyncio.to_thread(self.db.tallies, variant)
        lines = []
        for member in members:
            found = rated.get((member.player_id, variant))
            tally = tallies.get(member.player_id)
            lines.append(
                Standing(
                    member.name,
                    round(NEW_RATING if found is None else found.rating.rating),
                    True if found is None else found.provisional,
                    0 if tally is None else tally.games,
                    0 if tally is None else tally.won,
                    0 if tally is None else tally.lost,
                    0 if tally is None else tally.drawn,
                    member.player_id in online,
                )
            )
        lines.sort(key=lambda line: (-line.rating, line.name))
        return lines


async def run_ladder(ladder: Ladder, interval: float = TICK_S) -> None:
    """Look at the ladder again and again (:meth:`Ladder.tick`), until cancelled."""
    while True:
        await asyncio.sleep(interval)
        try:
            await ladder.tick()
        except Exception:  # the next look tries again
            log.exception("the ladder's pairing failed")
