"""One bridged game: its stream read, the seat's view rebuilt from each state, the bot
asked when the seat is to decide, the decision posted, the record written at the end.

The game's stream is opened again after a drop, a 5xx or a 429, after a pause that
doubles each time (:class:`Backoff`); the server then sends a fresh ``gameFull``. A
decision is posted once per position: the state's ``ply`` it answered is kept, and a
state with that ply again (a reconnection's ``gameFull``) asks nothing and posts
nothing. A decision whose post failed in transit is posted again, the same decision,
when the reconnected stream shows the position unchanged. An external engine that fails
(no answer in time, a crash, a line that is not a legal decision) loses: its game is
resigned, and the next game starts a fresh engine.

Nothing the seat may not know is logged: the bot's own decisions and the game's public
facts only.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import date as Date
from pathlib import Path

import httpx

from hanamikoji.bots.base import Bot
from hanamikoji.core.moves import Move
from hanamikoji.interfaces.bridge.api import ApiError, BotApi, path_part
from hanamikoji.interfaces.bridge.events import (
    BadLine,
    ChatLine,
    Event,
    GameFull,
    GameStateEvent,
    OpponentGone,
    Unknown,
    player_name,
)
from hanamikoji.interfaces.bridge.game_records import write_game
from hanamikoji.interfaces.bridge.players import Contender, decision_budget, tell_game_over
from hanamikoji.interfaces.bridge.seat_view import ended, view_from_state
from hanamikoji.interfaces.web.wire.outgoing import SeatState
from hanamikoji.protocol.client import EngineError

__all__ = ["Backoff", "GameLoop"]

log = logging.getLogger("hanamikoji.bridge")


@dataclass
class Backoff:
    """Pauses between attempts: ``first`` seconds, doubled each time up to ``most``;
    :meth:`reset` after a success. A server's ``Retry-After`` is waited at least."""

    first: float = 0.5
    most: float = 60.0
    _next: float = field(default=0.0, init=False)

    def reset(self) -> None:
        self._next = 0.0

    def delay(self, retry_after: float | None = None) -> float:
        self._next = self.first if self._next == 0.0 else min(self.most, self._next * 2)
        return max(self._next, retry_after or 0.0)


class GameLoop:
    """Plays one game of the bot through the API with a bot of ``contender``'s."""

    def __init__(
        self,
        api: BotApi,
        game_id: str,
        contender: Contender,
        *,
        records: Path | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        self.api = api
        self.id = game_id
        self.contender = contender
        self.records = records
        self.backoff = backoff or Backoff()
        self.seat: int | None = None
        self.players = ("?", "?")
        self.last: SeatState | None = None
        self.posted_ply: int | None = None
        self.decided: tuple[int, Move] | None = None
        self.failure: EngineError | None = None
        self.record: Path | None = None
        self.connections = 0
        self._bot: Bot | None = None
        self._base_budget: float | None = None

    @property
    def over(self) -> bool:
        return self.last is not None and ended(self.last)

    async def run(self) -> SeatState | None:
        """Play until the game is over (its final state) or gone (404); the final state."""
        try:
            while not self.over:
                try:
                    await self._follow()
                    if self.over:
                        break
                    wait = self.backoff.delay()
                    log.info("game %s: the stream ended early; again in %.1f s", self.id, wait)
                except ApiError as error:
                    if error.status == 404:
                        log.warning("game %s: gone (%s)", self.id, error)
                        return self.last
                    if not error.transient:
                        raise
                    wait = self.backoff.delay(error.retry_after)
                    log.info("game %s: %s; again in %.1f s", self.id, error, wait)
                except (httpx.TransportError, BadLine) as error:
                    wait = self.backoff.delay()
                    log.info("game %s: stream lost (%s); again in %.1f s", self.id, error, wait)
                await asyncio.sleep(wait)
            self._finish()
            return self.last
        finally:
            if self._bot is not None and self.last is not None and not self.over:
                tell_game_over(self._bot, view_from_state(self.last), "*", "left")

    async def _follow(self) -> None:
        async with self.api.stream(f"/api/bot/game/stream/{path_part(self.id)}") as events:
            self.connections += 1
            async for event in events:
                self.backoff.reset()
                await self._handle(event)
                if self.over:
                    return

    async def _handle(self, event: Event | Unknown) -> None:
        if isinstance(event, GameFull):
            self.seat = event.seat
            self.players = (player_name(event.people[0]), player_name(event.people[1]))
            if self.connections == 1 and self.last is None:
                log.info(
                    "game %s: %s vs %s, %s, %s, %s; we are Player %d",
                    self.id,
                    *self.players,
                    event.variant,
                    event.clock or "untimed",
                    "rated" if event.rated else "casual",
                    event.seat + 1,
                )
            await self._on_state(event.state)
        elif isinstance(event, GameStateEvent):
            await self._on_state(event.state)
        elif isinstance(event, ChatLine):
            log.info("game %s: chat (%s) %s: %s", self.id, event.room, event.username, event.text)
        elif isinstance(event, OpponentGone):
            log.info("game %s: the opponent is %s", self.id, "gone" if event.gone else "back")
        elif isinstance(event, Unknown):
            log.debug("game %s: a line of type %r ignored", self.id, event.type)
        else:
            log.debug("game %s: an event-stream line on a game stream ignored", self.id)

    async def _on_state(self, state: SeatState) -> None:
        if self.seat is None or state.seat != self.seat:
            raise BadLine(f"a state of seat {state.seat} on seat {self.seat}'s stream")
        self.last = state
        if not ended(state) and state.to_move == self.seat and state.ply != self.posted_ply:
            await self._decide(state)

    def _bot_for_game(self) -> Bot:
        if self._bot is None:
            self._bot = self.contender.make()
            self._base_budget = self._bot.budget
        return self._bot

    async def _decide(self, state: SeatState) -> None:
        ply = state.ply
        if self.decided is None or self.decided[0] != ply:
            view = view_from_state(state)
            legal = view.legal_moves
            if not legal:
                log.warning("game %s: ply %d is ours but has no legal decision", self.id, ply)
                return
            bot = self._bot_for_game()
            bot.budget = decision_budget(self._base_budget, state.clock, view.player)
            try:
                move = await asyncio.to_thread(bot.choose, view, legal)
            except EngineError as error:
                self.failure = error
                self.posted_ply = ply
                log.error("game %s: the engine failed (%s); resigning", self.id, error)
                await self._resign()
                return
            self.decided = (ply, move)
        move = self.decided[1]
        try:
            await self.api.move(self.id, move.text())
        except ApiError as error:
            if error.transient:
                raise
            # Not our turn any more (the game ended, or this decision already counted),
            # or refused: never posted again for this position.
            self.posted_ply = ply
            log.warning("game %s: the decision %s was refused: %s", self.id, move, error)
            return
        self.posted_ply = ply
        log.info("game %s: ply %d, we played %s", self.id, ply, move)

    async def _resign(self) -> None:
        try:
            await self.api.resign(self.id)
        except (ApiError, httpx.TransportError) as error:
            log.warning("game %s: the resignation failed: %s", self.id, error)

    def _finish(self) -> None:
        state = self.last
        assert state is not None and state.outcome is not None
        outcome = state.outcome
        view = view_from_state(state)
        log.info(
            "game %s: over, %s (%s)%s",
            self.id,
            outcome.result,
            outcome.termination,
            "" if outcome.winner is None else f", Player {outcome.winner + 1} won",
        )
        if self._bot is not None:
            tell_game_over(self._bot, view, outcome.result, outcome.termination)
        if self.records is None:
            return
        extra = [("Site", self.api.server), ("GameId", self.id)]
        if self.failure is not None:
            extra.append(("EngineFailure", " ".join(str(self.failure).split())[:200]))
        today = Date.today().strftime("%Y.%m.%d")
        try:
            self.record = write_game(
                self.records, self.id, view, self.players, today, outcome.result, extra
            )
        except (OSError, ValueError) as error:
            log.error("game %s: the record could not be written: %s", self.id, error)
            return
        log.info("game %s: record written to %s", self.id, self.record)
