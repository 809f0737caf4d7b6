"""The end of a game and the work after it: an end outside the rules (on time, aborted,
forfeited, resigned) stored, the rating of a rated game, and what a finished game offers
its seats (the record, the replay, the analysis, the rematch).

A seat may **resign** at any moment of its game, whoever is to decide: the other side
wins (``resigned``, rated as any end of a rated game). Before each side has made a
decision either seat may **abort** it instead (``aborted``: no result, not rated), as a
clock does."""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace

from hanamikoji.core.game import Game
from hanamikoji.interfaces.clocks import ms_to_datetime
from hanamikoji.interfaces.web.db.games import ABORTED, RESIGNED, GameStore, new_game_row
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.games.analyses import Analyses
from hanamikoji.interfaces.web.games.live import SEED_LIMIT, LiveGame, clock_tags
from hanamikoji.interfaces.web.games.payload import replay_frames
from hanamikoji.interfaces.web.ratings.model import GameRatings
from hanamikoji.interfaces.web.ratings.store import RatingStore
from hanamikoji.interfaces.web.wire.answers import AnalysisState
from hanamikoji.interfaces.web.wire.outgoing import Replay
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.records import RESIGNED as RESIGNED_KIND
from hanamikoji.notation.records import Forfeit, GameRecord

__all__ = ["Finishing", "both_decided"]

log = logging.getLogger("hanamikoji.web")


def both_decided(live: LiveGame) -> bool:
    """Whether each side of the game has made a decision (it can no longer be
    aborted)."""
    return {entry.seat for entry in live.game.log()} == {0, 1}


class Finishing:
    """Ends, ratings and what comes after the end.

    Args:
        games: the games' rows.
        writer: its writer (every write goes through it).
        ratings: the ratings' store.
        analyses: the analyses of finished games.
        now: the server time, ms since the epoch.
        reload: reads a game again from the database (another writer got there first).
        announce: tells every page of a game its new state.
        told: tells a game's players that it ended (``news.py``), without waiting.
    """

    def __init__(
        self,
        games: GameStore,
        writer: DecisionWriter,
        ratings: RatingStore,
        analyses: Analyses,
        now: Callable[[], int],
        reload: Callable[[LiveGame], Awaitable[None]],
        announce: Callable[[LiveGame], None],
        told: Callable[[LiveGame], None] = lambda _: None,
    ) -> None:
        self.games = games
        self.writer = writer
        self.ratings = ratings
        self.analyses = analyses
        self.now = now
        self.reload = reload
        self.announce = announce
        self.told = told

    async def store_end(self, live: LiveGame, result: str, termination: str) -> bool:
        """Store the end of ``live`` outside the rules (on time, aborted, forfeited) at its
        current ply; False, with the game reloaded, when another server stored a decision
        or ended the game first. The caller holds the game's lock."""
        ply = live.ply
        ended = await self.writer.call(
            lambda: self.games.end_outside_rules(live.id, ply, result, termination)
        )
        if not ended:
            await self.reload(live)
            return False
        live.stored = replace(
            live.stored, status="finished", result=result, termination=termination, owner=None
        )
        return True

    # -- ends a seat asks for ----------------------------------------------------------

    async def resign(self, live: LiveGame, seat: int) -> None:
        """``seat`` resigns: the other side wins, the game is rated if rated, and every
        page is told. Raises :class:`Refused` (``err_game_over``) once it is over."""
        await self._concede(live, seat, resign=True)

    async def abort(self, live: LiveGame, seat: int) -> None:
        """``seat`` aborts the game before each side has decided: no result, not rated.
        Raises :class:`Refused`: ``err_game_over`` once it is over, ``err_abort_late``
        once each side has made a decision."""
        await self._concede(live, seat, resign=False)

    async def _concede(self, live: LiveGame, seat: int, *, resign: bool) -> None:
        async with live.lock:
            while True:  # a decision stored first by another server: look again
                if live.ended:
                    raise Refused("err_game_over")
                if not resign and both_decided(live):
                    raise Refused("err_abort_late")
                result = ("0-1" if seat == 0 else "1-0") if resign else "*"
                if await self.store_end(live, result, RESIGNED if resign else ABORTED):
                    break
            log.info("game %s: seat %d %s", live.id, seat, "resigned" if resign else "aborted")
            await self.ended(live)
            self.announce(live)

    async def ended(self, live: LiveGame) -> None:
        """``live`` has just ended here (its end committed, by a decision or outside the
        rules): rated if it is rated, and its players told (on every instance)."""
        await self.rate(live)
        self.told(live)

    # -- ratings (ratings/) -----------------------------------------------------------

    async def rate(self, live: LiveGame) -> None:
        """Rate a rated game that has just ended (once, whichever server asks first);
        a failure is logged and left to the next start's sweep, never the player's."""
        if not live.stored.rated:
            return
        try:
            await self.writer.call(lambda: self.ratings.rate(live.id))
        except Exception:
            log.exception("game %s: could not rate it", live.id)

    async def rating_changes(self, game_id: str) -> GameRatings | None:
        """A rated game's rating changes, once rated."""
        return await asyncio.to_thread(self.ratings.changes, game_id)

    async def sweep_ratings(self) -> int:
        """At start: rate the rated games that ended unrated (a server stopped between
        the two). Returns how many. (The rated games in play get their forfeit timers
        from their owners: ``cluster/instances.py``.)"""
        ended = await asyncio.to_thread(self.ratings.unrated_ends)
        for game_id in ended:
            await self.writer.call(functools.partial(self.ratings.rate, game_id))
        return len(ended)

    # -- after the end ----------------------------------------------------------------

    def record(self, live: LiveGame, fmt: str) -> str:
        """The game record, text or JSON. Raises :class:`Refused` before the end."""
        record = self.game_record(live)
        return record.to_json() if fmt == "json" else record.to_text()

    def game_record(self, live: LiveGame) -> GameRecord:
        """The finished game's record: the seats' download, and the game browser's export
        of finished public games (``browser/export.py``). Raises :class:`Refused` before
        the end."""
        if not live.ended:
            raise Refused("err_not_over")
        stored = live.stored
        # A game a clock ended is unfinished under the rules (Result "*", so the record
        # still replays); how it ended goes in tags of its own, as the arena's forfeits.
        extra = [] if stored.termination is None else clock_tags(stored)
        # A resignation is the record's forfeit of kind "resigned" (its loser named).
        forfeit = None
        if stored.termination == RESIGNED:
            forfeit = Forfeit(0 if stored.result == "0-1" else 1, RESIGNED_KIND, "")
        return GameRecord.from_game(
            live.game,
            players=live.player_names(),
            date=live.stored.created.strftime("%Y-%m-%d"),
            event="Hanamikoji web",
            extra_tags=extra,
            forfeit=forfeit,
        )

    async def start_analysis(self, live: LiveGame) -> AnalysisState:
        """The finished game's analysis if stored, else its progress (started now unless
        under way). Raises :class:`Refused` before the end, or when too many games are
        being analysed."""
        if not live.game.is_over():
            raise Refused("err_not_over")  # a game a clock ended has no analysis
        record = self.game_record(live)
        return await self.analyses.start(live.id, record, live.ply)

    async def analysis(self, live: LiveGame) -> AnalysisState:
        """The finished game's analysis, its progress, or ``{"status": "none"}``. Raises
        :class:`Refused` before the end."""
        if not live.game.is_over():
            raise Refused("err_not_over")
        return await self.analyses.status(live.id)

    def replay(self, live: LiveGame) -> Replay:
        """Every position of the finished game, all cards shown."""
        if not live.ended:
            raise Refused("err_not_over")
        stored = live.stored
        fresh = Game(stored.variant, seed=stored.seed, first_player=stored.first_player)
        decisions = [move.text() for move in live.game.move_stack]
        frames = replay_frames(fresh, decisions, ended_early=stored.termination is not None)
        return Replay(frames=tuple(frames))

    async def rematch(self, live: LiveGame) -> str:
        """The id of the next game between the same seats (created on the first ask).

        The seats keep their tokens, so each player's page opens the new game with the
        token it already has; the other round's first player starts.
        """
        if not live.ended:
            raise Refused("err_not_over")
        stored = live.stored
        if stored.rematch_id is not None:
            return stored.rematch_id
        row = new_game_row(
            stored.variant,
            secrets.randbelow(SEED_LIMIT),
            1 - stored.first_player,
            stored.token_hashes,
            stored.bot_seat,
            stored.bot_level,
            private=stored.private,
            rated=stored.rated,
        )
        row = replace(row, clock=stored.clock, created=ms_to_datetime(self.now()))
        new_id = await self.writer.call(lambda: self.games.create_rematch(stored.id, row))
        async with live.lock:
            live.stored = replace(live.stored, rematch_id=new_id)
            self.announce(live)
        return new_id
