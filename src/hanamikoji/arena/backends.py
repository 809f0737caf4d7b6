"""Where arena games run: worker processes on this machine, or a Ray cluster.

A backend takes :class:`~hanamikoji.arena.games.Batch` es and yields each batch's
results as soon as it is done, in any order; the runner puts them in order. Every game
builds its own bots from their seeds, so how the seeds are split into batches, and
where and in which order the batches run, cannot change any game.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Protocol

from hanamikoji.arena.games import Batch, GameResult, play_batch
from hanamikoji.bots.parallel import BACKENDS, ray_instance, require_ray

__all__ = ["BACKENDS", "Backend", "ProcessBackend", "RayBackend", "make_backend"]


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
        if self.jobs == 1:
            for batch in batches:
                yield play_batch(batch)
            return
        pool = ProcessPoolExecutor(max_workers=min(self.jobs, max(1, len(batches))))
        try:
            pending: set[Future[list[GameResult]]] = {
                pool.submit(play_batch, batch) for batch in batches
            }
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            # On an error or an interrupt, batches not started are dropped, not awaited.
            pool.shutdown(wait=True, cancel_futures=True)


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
        import ray

        with ray_instance(self.jobs, self.address):
            task = ray.remote(play_batch)
            pending = [task.remote(batch) for batch in batches]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    results: list[GameResult] = ray.get(ref)
                    yield results


def make_backend(name: str, jobs: int | None = None) -> Backend:
    """A backend by name (:data:`BACKENDS`). Raises ``ValueError``; the Ray backend
    raises ``ImportError`` with the install hint when Ray is missing."""
    if name == "processes":
        return ProcessBackend(jobs)
    if name == "ray":
        require_ray()
        return RayBackend(jobs)
    raise ValueError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}")
