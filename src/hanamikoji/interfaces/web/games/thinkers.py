"""Bots think away from the event loop: in a thread for the quick levels, in worker
processes for the searching ones (their pure-Python search would otherwise hold the
interpreter lock and slow every other game on the server). The analysis of a finished
game runs in the same workers, one decision at a time, between the bots' decisions."""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from hanamikoji.bots.analysis import AnalysisSettings, DecisionAnalysis, analyse_decision
from hanamikoji.bots.levels import LEVELS, make_level_bot
from hanamikoji.core.view import View
from hanamikoji.notation.records import GameRecord
from hanamikoji.puzzles.making import NotAPuzzle, make_puzzle
from hanamikoji.puzzles.model import Puzzle

__all__ = ["BotRunner", "bot_seed", "choose_move"]

SEARCH_LEVELS = frozenset(number for number, level in LEVELS.items() if level.budget is not None)


def choose_move(level: int, seed: int, view: View, memory: object = None) -> tuple[str, object]:
    """The decision of the level ``level`` bot, seeded with ``seed``, from ``view`` and
    what the bot inferred at its earlier decisions of the game (``memory``), with what it
    infers now (:meth:`Bot.memory`: the bot is built anew for each decision)."""
    bot = make_level_bot(level, seed=seed)
    bot.recall(memory)
    decision = bot.choose(view, view.generate_legal_moves()).text()
    return decision, bot.memory()


def bot_seed(game_seed: int, ply: int) -> int:
    """A bot's seed for one decision: a bot rebuilt after a restart decides alike, and
    no bot could work the game's seed (hence every deal) back out of its own."""
    digest = hashlib.blake2b(f"{game_seed}:{ply}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


PARENT_CHECK_SECONDS = 0.5
"""How often a worker process checks that its server is still alive."""


def _die_with(parent: int) -> None:
    """Run in each worker process as it starts: exit as soon as the server that started
    it is gone, however it went (even ``kill -9``, which gives no chance to clean up),
    instead of outliving it with the multiprocessing resource tracker."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="watch-server", daemon=True).start()


class BotRunner:
    """Runs bot decisions off the event loop.

    Args:
        processes: worker processes for the searching levels (7-8); with 0 they run in
            threads too (tests, or a machine where processes cannot be started).
    """

    def __init__(self, processes: int = 1) -> None:
        self._threads: Executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        self._processes: Executor | None = None
        if processes > 0:
            # "spawn": the server has threads, which fork would copy in a broken state.
            context = multiprocessing.get_context("spawn")
            self._processes = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=context,
                initializer=_die_with,
                initargs=(os.getpid(),),
            )

    async def choose(
        self, level: int, seed: int, view: View, memory: object = None
    ) -> tuple[str, object]:
        """:func:`choose_move`, off the event loop."""
        executor = self._threads
        if level in SEARCH_LEVELS and self._processes is not None:
            executor = self._processes
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor, choose_move, level, seed, view, memory)

    async def analyse(
        self, record: GameRecord, index: int, settings: AnalysisSettings
    ) -> DecisionAnalysis:
        """:func:`~hanamikoji.bots.analysis.analyse_decision` off the event loop, in the
        worker processes when there are any (the search holds the interpreter lock)."""
        executor = self._processes if self._processes is not None else self._threads
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor, analyse_decision, record, index, settings)

    async def make_puzzle(
        self, variant: str, seed: int, first_player: int, moves: tuple[str, ...], identity: str
    ) -> Puzzle | NotAPuzzle:
        """:func:`~hanamikoji.puzzles.making.make_puzzle` (the exact solver) off the event
        loop, in the worker processes when there are any, as an analysis runs."""
        executor = self._processes if self._processes is not None else self._threads
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            executor, make_puzzle, variant, seed, first_player, moves, identity
        )

    def close(self) -> None:
        """Stop: decisions not started are dropped, those under way finish (a search is
        at most a few seconds), and the workers are joined, so nothing is left behind."""
        self._threads.shutdown(wait=True, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
