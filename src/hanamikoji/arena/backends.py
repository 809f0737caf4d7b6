"""Where arena games run: worker processes on this machine, or a Ray cluster.

A backend takes :class:`~hanamikoji.arena.games.Batch` es and yields each batch's
results as soon as it is done, in any order; the runner puts them in order. Every game
builds its own bots from their seeds, so how the seeds are split into batches, and
where and in which order the batches run, cannot change any game.

A backend's :meth:`~Backend.session` takes batches one at a time while others run, for
work that decides its next batches from the results (a tournament's arena pairs a
player again as soon as their game ends); :meth:`~Backend.run` is a session given all
its batches at once.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

from hanamikoji.arena.games import Batch, GameResult, play_batch
from hanamikoji.bots.parallel import BACKENDS, ray_instance, require_ray

__all__ = ["BACKENDS", "Backend", "ProcessBackend", "RayBackend", "Session", "make_backend"]


class Session(Protocol):
    """Batches submitted while others run: :meth:`next_done` waits for one to end."""

    @property
    def pending(self) -> int:
        """Batches submitted and not yet returned by :meth:`next_done`."""
        ...

    def submit(self, batch: Batch) -> None:
        """Start ``batch`` (or queue it until a worker is free)."""
        ...

    def next_done(self) -> list[GameResult]:
        """The results of a batch that has ended (the first to end), waiting for one."""
        ...


def _run(backend: Backend, batches: Sequence[Batch]) -> Iterator[list[GameResult]]:
    """Every batch's results, in the order they finish, through one session."""
    with backend.session(len(batches)) as session:
        for batch in batches:
            session.submit(batch)
        while session.pending:
            yield session.next_done()


class Backend(Protocol):
    """Runs batches of games."""

    name: str

    @property
    def workers(self) -> int:
        """How many batches run at once (for splitting the work)."""
        ...

    def run(self, batches: Sequence[Batch]) -> Iterator[list[GameResult]]:
        """Each batch's results, in the order the batches finish."""
        ...

    def session(self, size: int | None = None) -> AbstractContextManager[Session]:
        """A :class:`Session` for the ``with`` block (``size``: how many batches at most
        will be at work at once, if known, to start no more workers than that); on an
        error or an interrupt, batches not started are dropped."""
        ...


class ProcessBackend:
    """A pool of ``jobs`` worker processes (``concurrent.futures``); with one job the
    games run in this process, which is also what tests and debuggers want."""

    name = "processes"

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs if jobs is not None else (os.cpu_count() or 1)
        if self.jobs < 1:
            raise ValueError(f"jobs is at least 1, not {self.jobs}")

    @property
    def workers(self) -> int:
        return self.jobs

    def run(self, batches: Sequence[Batch]) -> Iterator[list[GameResult]]:
        return _run(self, batches)

    @contextmanager
    def session(self, size: int | None = None) -> Iterator[Session]:
        if self.jobs == 1:
            yield _InProcess()
            return
        workers = self.jobs if size is None else min(self.jobs, max(1, size))
        pool = ProcessPoolExecutor(max_workers=workers)
        try:
            yield _Pooled(pool)
        finally:
            # On an error or an interrupt, batches not started are dropped, not awaited.
            pool.shutdown(wait=True, cancel_futures=True)


class _InProcess:
    """One job: each batch is played in this process when its result is asked for."""

    def __init__(self) -> None:
        self.queue: deque[Batch] = deque()

    @property
    def pending(self) -> int:
        return len(self.queue)

    def submit(self, batch: Batch) -> None:
        self.queue.append(batch)

    def next_done(self) -> list[GameResult]:
        return play_batch(self.queue.popleft())


class _Pooled:
    """Batches in a pool of worker processes."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self.pool = pool
        self.running: set[Future[list[GameResult]]] = set()
        self.done: deque[Future[list[GameResult]]] = deque()

    @property
    def pending(self) -> int:
        return len(self.running) + len(self.done)

    def submit(self, batch: Batch) -> None:
        self.running.add(self.pool.submit(play_batch, batch))

    def next_done(self) -> list[GameResult]:
        if not self.done:
            finished, self.running = wait(self.running, return_when=FIRST_COMPLETED)
            self.done.extend(finished)
        return self.done.popleft().result()


class RayBackend:
    """Ray tasks, one per batch, on the cluster at ``address`` (default: the
    ``RAY_ADDRESS`` environment variable), or on a local Ray instance started for the
    run with ``jobs`` CPUs when there is no address. If Ray is already initialized in
    this process, that instance is used and left running.

    The workers import :mod:`hanamikoji`: on a remote cluster it must be installed on
    every node (the same version, for the same results).
    """

    name = "ray"

    def __init__(self, jobs: int | None = None, address: str | None = None) -> None:
        self.jobs = jobs
        self.address = address  # None: RAY_ADDRESS, read by ray_instance

    @property
    def workers(self) -> int:
        import ray

        if ray.is_initialized():
            cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
            return max(1, int(cpus))
        return self.jobs if self.jobs is not None else (os.cpu_count() or 1)

    def run(self, batches: Sequence[Batch]) -> Iterator[list[GameResult]]:
        return _run(self, batches)

    @contextmanager
    def session(self, size: int | None = None) -> Iterator[Session]:
        import ray

        with ray_instance(self.jobs, self.address):
            yield _RayTasks(ray.remote(play_batch))


class _RayTasks:
    """Batches as Ray tasks."""

    def __init__(self, task: Any) -> None:
        self.task = task
        self.running: list[Any] = []

    @property
    def pending(self) -> int:
        return len(self.running)

    def submit(self, batch: Batch) -> None:
        self.running.append(self.task.remote(batch))

    def next_done(self) -> list[GameResult]:
        import ray

        done, self.running = ray.wait(self.running, num_returns=1)
        results: list[GameResult] = ray.get(done[0])
        return results


def make_backend(name: str, jobs: int | None = None) -> Backend:
    """A backend by name (:data:`BACKENDS`). Raises ``ValueError``; the Ray backend
    raises ``ImportError`` with the install hint when Ray is missing."""
    if name == "processes":
        return ProcessBackend(jobs)
    if name == "ray":
        require_ray()
        return RayBackend(jobs)
    raise ValueError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}")
