"""Training's work in seeded chunks over local processes or Ray
(:mod:`hanamikoji.bots.parallel`), and the networks a chunk is given as bytes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hanamikoji.bots.network import ValueNetwork
from hanamikoji.bots.parallel import Workers

__all__ = ["chunks", "in_parallel", "network_of"]

_networks: dict[bytes, ValueNetwork] = {}


def network_of(weights: bytes | None) -> ValueNetwork | None:
    """The network whose weights are ``weights`` (``None``: none), made once per process."""
    if weights is None:
        return None
    if weights not in _networks:
        _networks[weights] = ValueNetwork.from_bytes(weights)
    return _networks[weights]


def in_parallel(
    task: Callable[..., Any],
    starts: Sequence[int],
    sizes: Sequence[int],
    workers: Workers,
    *rest: Any,
) -> list[Any]:
    """``task(start, size, *rest)`` for each chunk, on ``workers``, in order."""
    return workers.map(task, starts, sizes, *([value] * len(starts) for value in rest))


def chunks(first: int, count: int, size: int) -> tuple[list[int], list[int]]:
    """The seeds ``first .. first + count - 1`` in chunks of ``size``: their starts and
    sizes."""
    starts = list(range(first, first + count, size))
    return starts, [min(size, first + count - start) for start in starts]
