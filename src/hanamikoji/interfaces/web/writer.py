"""Group commit: decisions of every game go to one writer thread, which commits all that
have queued up in one transaction. Each caller waits for its own decision's commit, so a
decision is on disk before anyone hears of it, and a busy server pays one commit for many
decisions instead of one each."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading

from hanamikoji.interfaces.web.storage import Append, Store

__all__ = ["DecisionWriter"]

log = logging.getLogger("hanamikoji.web")

_MAX_BATCH = 512

_Job = tuple[Append, asyncio.Future[None], asyncio.AbstractEventLoop]


class DecisionWriter:
    """Appends decisions through ``store`` from a dedicated thread."""

    def __init__(self, store: Store, checkpoint_interval: float = 1.0) -> None:
        self._store = store
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="decision-writer", daemon=True)
        self._thread.start()
        self._stop = threading.Event()
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
        """Commit one decision. Raises :class:`~.storage.PlyTakenError` when that ply is
        already recorded, and whatever the database raises when it fails."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._jobs.put((item, done, loop))
        await done

    def close(self) -> None:
        self._stop.set()
        self._jobs.put(None)
        self._thread.join(timeout=10)
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)

    def _checkpoints(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self._store.checkpoint()
            except Exception:  # busy or failing: the next one (or the safety net) catches up
                log.warning("WAL checkpoint failed", exc_info=True)

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
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Job]) -> None:
        try:
            errors: list[BaseException | None] = list(
                self._store.append_many([item for item, _, _ in batch])
            )
        except Exception as failure:  # the database is down: every caller hears of it
            errors = [failure] * len(batch)
        for (_, done, loop), error in zip(batch, errors, strict=True):
            # A loop closed at shutdown has nobody waiting any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, done, error)


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
