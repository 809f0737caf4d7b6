"""One writer thread for every write of the server.

Decisions of all games are committed in groups: the thread takes every decision queued
at that moment and commits them in one transaction. Each caller waits for its own
decision's commit, so a decision is stored before anyone hears of it, and a busy server
pays one commit for many decisions instead of one each. New games and rematches go
through the same thread, in order, so the server's own writes never wait on each other's
database locks (SQLite's busy handler sleeps for up to 100 ms at a time).

With SQLite, a second thread copies the write-ahead log into the database file every
second (a passive checkpoint, which never blocks writers), instead of letting the commit
that happens to fill the log do it while every decision behind it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import Append, GameStore

__all__ = ["DecisionWriter"]

log = logging.getLogger("hanamikoji.web")

T = TypeVar("T")

_MAX_BATCH = 512

_Work = Append | Callable[[], Any]
_Job = tuple[_Work, asyncio.Future[Any], asyncio.AbstractEventLoop]


class DecisionWriter:
    """Writes through ``store`` from a dedicated thread."""

    def __init__(self, store: Store, checkpoint_interval: float = 1.0) -> None:
        self._store = store
        self._games = GameStore(store)
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="db-writer", daemon=True)
        self._thread.start()
        self._checkpointer: threading.Thread | None = None
        if store.needs_checkpoints and checkpoint_interval > 0:
            self._checkpointer = threading.Thread(
                target=self._checkpoints,
                args=(checkpoint_interval,),
                name="wal-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    async def append(self, item: Append) -> None:
        """Commit one decision. Raises :class:`~.games.PlyTakenError` when that ply is
        already recorded, and whatever the database raises when it fails."""
        await self._submit(item)

    async def call(self, write: Callable[[], T]) -> T:
        """Run another write (``GameStore.create_game``, ...) in turn on the writer thread."""
        result: T = await self._submit(write)
        return result

    async def _submit(self, work: _Work) -> Any:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((work, done, loop))
        return await done

    def close(self) -> None:
        self._stop.set()
        self._jobs.put(None)
        self._thread.join(timeout=10)
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < _MAX_BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Job]) -> None:
        """Commit runs of decisions together, and other writes one by one, in order."""
        start = 0
        while start < len(batch):
            work = batch[start][0]
            if isinstance(work, Append):
                end = start
                while end < len(batch) and isinstance(batch[end][0], Append):
                    end += 1
                self._commit_decisions(batch[start:end])
                start = end
            else:
                self._call(batch[start])
                start += 1

    def _commit_decisions(self, batch: list[_Job]) -> None:
        items = [work for work, _, _ in batch if isinstance(work, Append)]
        try:
            errors: list[BaseException | None] = list(self._games.append_many(items))
        except Exception as failure:  # the database is down: every caller hears of it
            errors = [failure] * len(batch)
        for (_, done, loop), error in zip(batch, errors, strict=True):
            _settle_soon(loop, done, None, error)

    def _call(self, job: _Job) -> None:
        work, done, loop = job
        assert not isinstance(work, Append)
        try:
            result = work()
        except Exception as failure:
            _settle_soon(loop, done, None, failure)
        else:
            _settle_soon(loop, done, result, None)

    def _checkpoints(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self._store.checkpoint()
            except Exception:  # busy or failing: the next one (or the safety net) catches up
                log.warning("WAL checkpoint failed", exc_info=True)


def _settle_soon(
    loop: asyncio.AbstractEventLoop,
    done: asyncio.Future[Any],
    result: object,
    error: BaseException | None,
) -> None:
    # A loop closed at shutdown has nobody waiting any more.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_settle, done, result, error)


def _settle(done: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)
