"""The judge every searching bot uses: a position's decisions scored by an estimate of
how the round will end, valued for the match.

The judge is written twice, with the same scores bit for bit: in Python
(:mod:`~hanamikoji.bots.judge.reference`, the readable reference, with the match
arithmetic of :mod:`~hanamikoji.bots.judge.match`) and compiled with numba
(:mod:`~hanamikoji.bots.judge.kernel`, imported only when first used: numba takes a
while to load). Both read the position's features of
:mod:`~hanamikoji.bots.judge.position`. This package's names are the judge's public
face; the compiled engine (:mod:`hanamikoji.kernel`) imports them and the compiled
judge's own, never a private name.

>>> from hanamikoji import Game
>>> game = Game(seed=3)
>>> judge = ReferenceJudge(game.view(0), Tuning())
>>> best = max(game.legal_moves, key=lambda move: judge.score(move, None))
>>> best in game.legal_moves
True
"""

from __future__ import annotations

from hanamikoji.bots.judge.compiled import compiled_scores, step_array, warm_up
from hanamikoji.bots.judge.match import STATES, STEP, final_values
from hanamikoji.bots.judge.position import (
    ALL_ACTIONS,
    DESTINATIONS,
    ME,
    NOBODY,
    THEM,
    TIE_TOLERANCE,
    JudgedPosition,
)
from hanamikoji.bots.judge.reference import ReferenceJudge, Tuning, best_first, judged_content

__all__ = [
    "ALL_ACTIONS",
    "DESTINATIONS",
    "ME",
    "NOBODY",
    "STATES",
    "STEP",
    "THEM",
    "TIE_TOLERANCE",
    "JudgedPosition",
    "ReferenceJudge",
    "Tuning",
    "best_first",
    "compiled_scores",
    "final_values",
    "judged_content",
    "step_array",
    "warm_up",
]
