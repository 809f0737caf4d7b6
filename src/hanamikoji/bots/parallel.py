"""Work spread over this machine's processes or over a Ray cluster, its results in order.

The training of the learned evaluation (:mod:`hanamikoji.training`) plays its
self-play and its matches in chunks, each a function of its arguments alone, so where a
chunk runs does not change what it gives: :class:`Workers` maps a task over the chunks
in ``jobs`` local processes or as Ray tasks. The arena's Ray backend starts and stops
Ray with the same :func:`ray_instance`.

>>> Workers(jobs=1).map(pow, [2, 3], [3, 2])
[8, 9]
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

__all__ = ["BACKENDS", "Workers", "ray_instance", "require_ray"]

BACKENDS = ("processes", "ray")
"""Where work runs: this machine's processes, or Ray (a cluster or a local instance)."""


def require_ray() -> None:
    """Raise ``ImportError`` with the install hint where Ray is not installed."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'hanamikoji[ray]'") from None


@contextmanager
def ray_instance(jobs: int | None = None, address: str | None = None) -> Iterator[None]:
    """Ray for the ``with`` block: the instance already initialized in this process if
    there is one (left running), else the cluster at ``address`` (default: the
    ``RAY_ADDRESS`` environment variable), else a local instance with ``jobs`` CPUs;
    what this started is shut down at the end. On a cluster, every node must have the
    same version of :mod:`hanamikoji` installed."""
    import ray

    if ray.is_initialized():
        yield
        return
    address = address if address is not None else os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, logging_level=logging.WARNING)
    else:
        ray.init(num_cpus=jobs, include_dashboard=False, logging_level=logging.WARNING)
    try:
        yield
    finally:
        ray.shutdown()


@dataclass(frozen=True)
class Workers:
    """Where a map runs: ``jobs`` processes of this machine (1: this process), or Ray
    tasks (``backend="ray"``: see :func:`ray_instance`; ``jobs`` is then the local
    instance's CPUs)."""

    jobs: int = 1
    backend: str = "processes"

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise ValueError(f"jobs is at least 1, not {self.jobs}")
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown backend {self.backend!r}; known: {', '.join(BACKENDS)}")
        if self.backend == "ray":
            require_ray()

    def running(self) -> AbstractContextManager[None]:
        """For a ``with`` block of several maps: Ray started once for all of them (each
        map would otherwise start and stop its own instance); nothing for processes."""
        return ray_instance(self.jobs) if self.backend == "ray" else nullcontext()

    def map(self, task: Callable[..., Any], *arguments: Sequence[Any]) -> list[Any]:
        """``task`` applied to the arguments' items in step, as the built-in ``map``:
        the results in the arguments' order, wherever each ran."""
        if self.backend == "ray":
            import ray

            with ray_instance(self.jobs):
                remote = ray.remote(task)
                tasks = [remote.remote(*items) for items in zip(*arguments, strict=True)]
                return list(ray.get(tasks))
        if self.jobs == 1:
            return list(map(task, *arguments))
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            return list(pool.map(task, *arguments))
