"""The compiled judge as the bots call it: a view's scores from
:mod:`hanamikoji.bots.judge.kernel`, imported when first needed (numba takes a while to
load), and the tables it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from hanamikoji.bots.judge.match import STEP, final_values, match_end
from hanamikoji.bots.judge.position import JudgedPosition
from hanamikoji.bots.judge.reference import Tuning
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, response_moves
from hanamikoji.core.variants import Tiebreak
from hanamikoji.core.view import View

# The compiled judge's tables are NumPy arrays (numba and NumPy: the fast extra), imported
# when first used; without them the bots judge in Python (the same scores).
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["compiled_scores", "step_array", "warm_up"]


@cache
def _kernel() -> ModuleType | None:
    """The compiled judge, imported when first needed, or ``None`` without numba."""
    try:
        from hanamikoji.bots.judge import kernel
    except ImportError:  # the base install, without NumPy and numba
        return None
    return kernel if kernel.AVAILABLE else None


@cache
def _kernel_tables(
    last_round: bool, tiebreak: Tiebreak, tuning: Tuning
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """The compiled judge's match values, match steps and tuning, as arrays."""
    import numpy as np

    finals = np.array(final_values(last_round, tiebreak, tuning.future_weight))
    knobs = (tuning.future_weight, tuning.response_hope, tuning.giveaway, tuning.discard)
    return finals, step_array(), np.array(knobs + tuning.unused, dtype=np.float64)


@cache
def step_array() -> npt.NDArray[np.int32]:
    """:data:`~hanamikoji.bots.judge.match.STEP` as the compiled judge reads it."""
    import numpy as np

    return np.array(STEP, dtype=np.int32)


def compiled_scores(view: View, legal: Sequence[Move], tuning: Tuning) -> list[float] | None:
    """The judge's score of each of ``legal`` in their order, computed by the compiled
    judge (:mod:`hanamikoji.bots.judge.kernel`, the same numbers as
    :class:`~hanamikoji.bots.judge.reference.ReferenceJudge`), or ``None`` if numba is
    not installed."""
    kernel = _kernel()
    if kernel is None:
        return None
    pending = view.pending
    answers = response_moves(pending) if pending is not None else ()
    finals, step, knobs = _kernel_tables(*match_end(view.variant, view), tuning)
    scores: list[float] = kernel.kernel_scores(
        JudgedPosition.of(view), pending, answers, finals, step, knobs, legal
    ).tolist()
    return scores


@cache
def warm_up() -> None:
    """Compile the judge (or load it compiled) once: it takes seconds at first."""
    game = Game(seed=0)
    compiled_scores(game.view(0), game.generate_legal_moves(), Tuning())
