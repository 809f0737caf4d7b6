"""The bridge: the bot account's event stream followed, challenges accepted or declined
by the :class:`~hanamikoji.interfaces.bridge.policy.Policy`, one task per game
(:class:`~hanamikoji.interfaces.bridge.game_loop.GameLoop`), and a graceful stop.

The event stream is opened again after a drop, a 5xx or a 429 (the server replays the
open challenges and the games in progress on connect, so no game is lost; a game
already played is not started twice). A refused token (401) or scope (403) stops the
bridge: trying again cannot help.

Stopping (:meth:`Bridge.stop`, on SIGINT or SIGTERM): new challenges are declined
(``later``), then per ``on_stop``: ``finish`` plays the games in progress to their end,
``leave`` leaves them at once (they go on on the server: a bridge started again
resumes them), ``resign`` resigns them. A second stop leaves at once.

With ``ladder``, the bot joins the server's bot ladder on start (``POST
/api/bot/ladder/join`` with the policy's variants and concurrency: the ladder's games
then come as ``gameStart`` events) and leaves it when it stops.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Literal

import httpx

from hanamikoji.interfaces.bridge.api import ApiError, BotApi
from hanamikoji.interfaces.bridge.events import (
    BadLine,
    ChallengeCanceled,
    ChallengeDeclined,
    ChallengeEvent,
    Event,
    GameFinish,
    GameStart,
    Unknown,
    player_name,
)
from hanamikoji.interfaces.bridge.game_loop import Backoff, GameLoop
from hanamikoji.interfaces.bridge.players import Contender
from hanamikoji.interfaces.bridge.policy import Policy

__all__ = ["ON_STOP", "Bridge", "OnStop"]

log = logging.getLogger("hanamikoji.bridge")

OnStop = Literal["finish", "leave", "resign"]
ON_STOP: tuple[OnStop, ...] = ("finish", "leave", "resign")


class Bridge:
    """Connects ``contender`` to a server's bot API as the token's bot account."""

    def __init__(
        self,
        api: BotApi,
        contender: Contender,
        policy: Policy | None = None,
        *,
        records: Path | None = None,
        on_stop: OnStop = "finish",
        ladder: bool = False,
        backoff_first: float = 0.5,
        backoff_most: float = 60.0,
    ) -> None:
        self.api = api
        self.contender = contender
        self.policy = policy or Policy()
        self.records = records
        self.on_stop = on_stop
        self.ladder = ladder
        self.backoff_first = backoff_first
        self.backoff_most = backoff_most
        self.me = ""
        self.games: dict[str, asyncio.Task[object]] = {}
        self.loops: dict[str, GameLoop] = {}
        self.finished: list[GameLoop] = []
        self.pending = 0
        """Challenges accepted whose game has not started yet (they count as games)."""
        self.stopping = False
        self.connected = asyncio.Event()
        self._done = asyncio.Event()
        self._leave = False
        self._leaving: asyncio.Task[None] | None = None

    def _backoff(self) -> Backoff:
        return Backoff(self.backoff_first, self.backoff_most)

    async def run(self) -> None:
        """Run until stopped (and the games finished, per ``on_stop``). Raises
        :class:`ApiError` for a token the server refuses."""
        account = await self._account()
        self.me = str(account.get("name") or "")
        log.info(
            "connected to %s as %s%s, playing %s",
            self.api.server,
            self.me or "?",
            "" if account.get("bot") else " (not a bot account: upgrade it first)",
            self.contender.describe(),
        )
        if self.ladder:
            await self._join_ladder()
        follower = asyncio.create_task(self._follow_events())
        waiter = asyncio.create_task(self._done.wait())
        try:
            await asyncio.wait({follower, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if follower.done():
                follower.result()  # a refused token: raise it
        finally:
            for task in (follower, waiter):
                task.cancel()
            await self._end_games()
            if self._leaving is not None:
                await self._leaving

    async def _join_ladder(self) -> None:
        body = {"variants": list(self.policy.variants), "concurrency": self.policy.concurrency}
        place = await self.api.post("/api/bot/ladder/join", body)
        log.info("on the bot ladder: %s", place)

    async def _leave_ladder(self) -> None:
        try:
            await self.api.post("/api/bot/ladder/leave")
            log.info("off the bot ladder")
        except (ApiError, httpx.TransportError) as error:
            log.warning("leaving the bot ladder failed: %s", error)

    async def _account(self) -> dict[str, object]:
        backoff = self._backoff()
        while True:
            try:
                return await self.api.account()
            except ApiError as error:
                if not error.transient:
                    raise
                wait = backoff.delay(error.retry_after)
            except httpx.TransportError as error:
                wait = backoff.delay()
                log.info("cannot reach %s (%s); again in %.1f s", self.api.server, error, wait)
            await asyncio.sleep(wait)

    async def _follow_events(self) -> None:
        backoff = self._backoff()
        while True:
            try:
                async with self.api.stream("/api/stream/event") as events:
                    self.connected.set()
                    log.info("listening for challenges and games")
                    async for event in events:
                        backoff.reset()
                        await self._on_event(event)
                wait = backoff.delay()
                log.info("the event stream ended; again in %.1f s", wait)
            except ApiError as error:
                if not error.transient:
                    log.error("the server refused the bridge: %s", error)
                    raise
                wait = backoff.delay(error.retry_after)
                log.info("the event stream: %s; again in %.1f s", error, wait)
            except (httpx.TransportError, BadLine) as error:
                wait = backoff.delay()
                log.info("the event stream was lost (%s); again in %.1f s", error, wait)
            self.connected.clear()
            await asyncio.sleep(wait)

    async def _on_event(self, event: Event | Unknown) -> None:
        if isinstance(event, GameStart):
            self._start_game(event.game.id)
        elif isinstance(event, GameFinish):
            log.info("game %s: finished (event stream)", event.game.id)
        elif isinstance(event, ChallengeEvent):
            await self._on_challenge(event)
        elif isinstance(event, ChallengeCanceled):
            log.info("challenge %s: canceled", event.challenge.id)
        elif isinstance(event, ChallengeDeclined):
            log.info("challenge %s: declined", event.challenge.id)
        elif isinstance(event, Unknown):
            log.debug("a line of type %r ignored", event.type)

    async def _on_challenge(self, event: ChallengeEvent) -> None:
        challenge = event.challenge
        challenger = player_name(challenge.challenger)
        if challenge.challenger.name is not None and challenge.challenger.name == self.me:
            log.info("challenge %s: ours, to %s", challenge.id, player_name(challenge.dest))
            return
        verdict = self.policy.verdict(challenge, len(self.games) + self.pending)
        if self.stopping:
            verdict = type(verdict)(False, "later")
        described = (
            f"{challenge.variant}, {challenge.clock or 'untimed'},"
            f" {'rated' if challenge.rated else 'casual'}"
        )
        try:
            if verdict.accept:
                await self.api.accept(challenge.id)
                self.pending += 1
                log.info("challenge %s from %s (%s): accepted", challenge.id, challenger, described)
            else:
                await self.api.decline(challenge.id)
                log.info(
                    "challenge %s from %s (%s): declined (%s)",
                    challenge.id,
                    challenger,
                    described,
                    verdict.reason,
                )
        except ApiError as error:
            if error.transient:
                raise
            log.warning("challenge %s: %s", challenge.id, error)

    def _start_game(self, game_id: str) -> None:
        if game_id in self.games or any(loop.id == game_id for loop in self.finished):
            return
        self.pending = max(0, self.pending - 1)
        loop = GameLoop(
            self.api, game_id, self.contender, records=self.records, backoff=self._backoff()
        )
        task: asyncio.Task[object] = asyncio.create_task(loop.run(), name=f"game {game_id}")
        self.games[game_id] = task
        self.loops[game_id] = loop
        task.add_done_callback(lambda done: self._game_done(game_id, done))

    def _game_done(self, game_id: str, task: asyncio.Task[object]) -> None:
        self.games.pop(game_id, None)
        loop = self.loops.pop(game_id)
        self.finished.append(loop)
        if not task.cancelled() and task.exception() is not None:
            log.error("game %s: stopped: %s", game_id, task.exception())
        if self.stopping and not self.games:
            self._done.set()

    def stop(self) -> None:
        """Stop gracefully (see the module's documentation); a second call leaves now."""
        if self.stopping:
            self._leave = True
            log.info("stopping now: leaving %d game(s)", len(self.games))
            self._done.set()
            return
        self.stopping = True
        log.info("stopping (%s %d game(s) in progress)", self.on_stop, len(self.games))
        if self.ladder:
            self._leaving = asyncio.get_running_loop().create_task(self._leave_ladder())
        if self.on_stop == "leave" or not self.games:
            self._leave = self.on_stop == "leave"
            self._done.set()
        elif self.on_stop == "resign":
            for game_id in list(self.games):
                asyncio.get_running_loop().create_task(self._resign(game_id))

    async def _resign(self, game_id: str) -> None:
        try:
            await self.api.resign(game_id)
        except (ApiError, httpx.TransportError) as error:
            log.warning("game %s: the resignation failed: %s", game_id, error)

    async def _end_games(self) -> None:
        tasks = list(self.games.values())
        if self._leave or not self.stopping:
            for task in tasks:
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
