"""A seat's decision: checked, committed to the database, then applied for every page to
see; a ply another writer stored first throws the live copy away (read again)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from hanamikoji.core.moves import Move
from hanamikoji.interfaces.clocks import Decision, ms_to_datetime
from hanamikoji.interfaces.web.db.games import Append, PlyTakenError
from hanamikoji.interfaces.web.db.health import RETRY_AFTER_SECONDS, unreachable
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.games.checks import check_decision
from hanamikoji.interfaces.web.games.finishing import Finishing
from hanamikoji.interfaces.web.games.flag_timers import FlagTimers
from hanamikoji.interfaces.web.games.live import LiveGame, needs_owner
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["Decisions"]

log = logging.getLogger("hanamikoji.web")


class Decisions:
    """Commits the decisions of live games.

    Args:
        me: this instance (the owner of a game whose pending work it takes on).
        now: the server time, ms since the epoch (each decision's time).
        writer: the database's writer.
        flags: the flag timers (a decision after the flag fell is refused).
        finishing: rates a rated game its decision ends.
        reload: reads a game again from the database (another writer got there first).
        changed: sets a changed game's timers and tells every page.
    """

    def __init__(
        self,
        me: str,
        now: Callable[[], int],
        writer: DecisionWriter,
        flags: FlagTimers,
        finishing: Finishing,
        reload: Callable[[LiveGame], Awaitable[None]],
        changed: Callable[[LiveGame], None],
    ) -> None:
        self.me = me
        self.now = now
        self.writer = writer
        self.flags = flags
        self.finishing = finishing
        self.reload = reload
        self.changed = changed

    async def play(self, live: LiveGame, seat: int, text_: str, ply: int | None) -> None:
        """Play a seat's decision: checked, committed, then announced. Raises
        :class:`Refused` (nothing changes then)."""
        async with live.lock:
            if ply is not None and ply != live.ply:
                raise Refused("err_stale")
            if live.stored.termination is not None:
                raise Refused("err_game_over")
            move = check_decision(live.game, seat, text_)
            await self.commit(live, move)

    async def commit(self, live: LiveGame, move: Move) -> None:
        """Commit and apply ``move`` (legal now); the caller holds the game's lock."""
        if live.stored.clock.timed and await self.flags.flag_if_out(live):
            raise Refused("err_game_over")
        game = live.game
        ply = live.ply
        seat = game.to_move
        at = self.now()
        game.push(move)
        outcome = game.outcome
        owner = self.me if needs_owner(live.stored, game.to_move) else None
        try:
            result = None if outcome is None else outcome.result()
            await self.writer.append(
                Append(live.id, ply, move.text(), result, ms_to_datetime(at), owner)
            )
        except PlyTakenError:
            await self.reload(live)
            raise Refused("err_conflict") from None
        except Exception as error:
            game.pop()
            if unreachable(error):  # logged once for the whole outage (health.py)
                raise Refused("err_unavailable", seconds=RETRY_AFTER_SECONDS) from None
            log.exception("game %s: could not store ply %d", live.id, ply)
            raise Refused("err_storage") from None
        live.stored = replace(live.stored, owner=owner)
        if outcome is not None:
            live.stored = replace(live.stored, status="finished", result=outcome.result())
            await self.finishing.ended(live)
        if seat is not None:
            live.timeline.append(Decision(seat, at))
        self.changed(live)
