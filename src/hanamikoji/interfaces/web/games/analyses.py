"""The analysis of finished games (``bots/analysis.py``), computed once and stored.

An analysis is asked for by either seat once the game is over. Its decisions are
analysed one at a time in the bots' workers (:meth:`BotRunner.analyse`), so the bots of
the games in play get their turn between two of them; what is done so far is kept in
memory for the progress bar, and the whole analysis is stored in one commit at the end
(``analyses`` and ``analysis_runs`` in :mod:`~.db.tables`). From then on it is read from
the database: a game is analysed once, whoever asks and however often.

At most ``limit`` games are analysed at once on a server, and each game by one run at a
time; above the limit the request is refused (``err_rate_limited``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import msgspec

from hanamikoji import __version__
from hanamikoji.bots.analysis import (
    AnalysisSettings,
    GameAnalysis,
    forced_decisions,
)
from hanamikoji.core.moves import Move
from hanamikoji.interfaces.web.db.analyses import AnalysisStore, StoredAnalysis
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.writer import DecisionWriter
from hanamikoji.interfaces.web.games.payload import move_json
from hanamikoji.interfaces.web.games.thinkers import BotRunner
from hanamikoji.interfaces.web.wire.answers import (
    AnalysisDone,
    AnalysisNone,
    AnalysisRunning,
    AnalysisState,
    AnalysisSummaryLine,
)
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.records import GameRecord

__all__ = ["RETRY_SECONDS", "Analyses"]

log = logging.getLogger("hanamikoji.web")

RETRY_SECONDS = 10
"""What a request refused over the limit is told to wait."""


@dataclass(eq=False)
class _Run:
    """An analysis under way: decisions done of all of them."""

    total: int
    done: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def json(self) -> AnalysisRunning:
        return AnalysisRunning(done=self.done, total=self.total)


class Analyses:
    """Every analysis of one server process.

    Args:
        store: the database.
        writer: the server's writer thread (the analysis is stored through it).
        bots: where decisions are analysed.
        settings: how much work each decision gets.
        limit: games analysed at once.
    """

    def __init__(
        self,
        store: Store,
        writer: DecisionWriter,
        bots: BotRunner,
        settings: AnalysisSettings,
        limit: int,
    ) -> None:
        self.records = AnalysisStore(store)
        self.writer = writer
        self.bots = bots
        self.settings = settings
        self.limit = limit
        self._runs: dict[str, _Run] = {}

    async def start(self, game_id: str, record: GameRecord, total: int) -> AnalysisState:
        """The stored analysis of a finished game, or the state of its run (over its
        ``total`` decisions), started now unless one is under way. Raises
        :class:`Refused` over the limit."""
        known = await self._known(game_id)
        if known is not None:
            return known
        running = self._runs.get(game_id)  # started while the database answered
        if running is not None:
            return running.json()
        if len(self._runs) >= self.limit:
            raise Refused("err_rate_limited", seconds=RETRY_SECONDS)
        run = _Run(total=total)
        self._runs[game_id] = run
        run.task = asyncio.create_task(self._run(game_id, record, run))
        return run.json()

    async def status(self, game_id: str) -> AnalysisState:
        """``running`` (with its progress), ``done`` (the analysis) or ``none``."""
        known = await self._known(game_id)
        return known if known is not None else AnalysisNone()

    async def _known(self, game_id: str) -> AnalysisState | None:
        """The game's run under way (its progress) or its stored analysis, else ``None``."""
        running = self._runs.get(game_id)
        if running is not None:
            return running.json()
        stored = await asyncio.to_thread(self.records.load_analysis, game_id)
        return None if stored is None else _done_json(stored)

    async def close(self) -> None:
        tasks = [run.task for run in self._runs.values() if run.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self, game_id: str, record: GameRecord, run: _Run) -> None:
        try:
            analysis = await self._analyse(record, run)
            await self.writer.call(lambda: self.records.save_analysis(game_id, analysis))
        except asyncio.CancelledError:
            raise
        except Exception:  # a defect: the page hears "none" and may ask again
            log.exception("game %s: the analysis failed", game_id)
        finally:
            self._runs.pop(game_id, None)

    async def _analyse(self, record: GameRecord, run: _Run) -> StoredAnalysis:
        decisions = await asyncio.to_thread(forced_decisions, record)
        run.done = sum(decision is not None for decision in decisions)
        for index, decision in enumerate(decisions):
            if decision is None:
                decisions[index] = await self.bots.analyse(record, index, self.settings)
                run.done += 1
        analysed = GameAnalysis(
            record.players,
            self.settings,
            __version__,
            tuple(decision for decision in decisions if decision is not None),
        ).to_json()
        return _stored(analysed)


def _stored(analysed: dict[str, Any]) -> StoredAnalysis:
    decisions = analysed["decisions"]
    assert isinstance(decisions, list)
    return StoredAnalysis(
        settings=json.dumps(analysed["budget"]),
        version=str(analysed["version"]),
        summary=json.dumps(analysed["summary"]),
        decisions=tuple(json.dumps(decision) for decision in decisions),
    )


def _done_json(stored: StoredAnalysis) -> AnalysisDone:
    decisions = tuple(_with_moves(json.loads(data)) for data in stored.decisions)
    return AnalysisDone(
        done=len(decisions),
        total=len(decisions),
        version=stored.version,
        budget=json.loads(stored.settings),
        decisions=decisions,
        summary=msgspec.json.decode(stored.summary, type=tuple[AnalysisSummaryLine, ...]),
    )


def _with_moves(decision: dict[str, Any]) -> dict[str, Any]:
    """A stored decision with its played and best decisions as the page draws moves."""
    return {
        **decision,
        "played_move": move_json(Move.from_text(decision["played"])),
        "best_move": move_json(Move.from_text(decision["best"])),
    }
