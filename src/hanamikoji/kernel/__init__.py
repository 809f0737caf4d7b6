"""The compiled engine: whole games in batches, with numba (``docs/kernel.md``).

:class:`Batch` holds N games of one variant as arrays and plays them with the rules of
:mod:`hanamikoji.core` compiled: legal decisions as masks over the stable action
encoding (:mod:`hanamikoji.kernel.encoding`, the one source of the encoding), a step
with an array of action ids, rewards, observation tensors, and whole games played by the
random and greedy policies inside compiled code. Game ``g`` is dealt the same cards as
``Game(variant, seed=seeds[g], first_player=...)`` in every round, and the core stays
the readable reference it is checked against (:mod:`hanamikoji.kernel.check`).

The engine needs numba (``pip install 'hanamikoji[fast]'``); the encoding does not, and
importing this package does not import numba until an engine name is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hanamikoji.kernel.engine import (
        OBSERVATION_PIECES,
        POLICIES,
        Batch,
        IllegalActionError,
        judge_tables,
        stream_states,
        tie_breaks,
    )
    from hanamikoji.kernel.rules import Games

__all__ = [
    "OBSERVATION_PIECES",
    "POLICIES",
    "Batch",
    "Games",
    "IllegalActionError",
    "judge_tables",
    "stream_states",
    "tie_breaks",
]


def __getattr__(name: str) -> object:
    """The engine's names, imported (with numba) when first used."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from hanamikoji.kernel import engine

    return getattr(engine, name)
