"""The expert: the top difficulty level (level 5).

It is the search of :mod:`hanamikoji.bots.ismcts` (the greedy judge's best decisions
compared on worlds weighed by policy-based inference, the round's end scored by the
match-value table, the last turn solved exactly in each world) configured for 1 s per
decision, with the compiled judge, the learned evaluation
(:mod:`hanamikoji.bots.network`) proposing its own best decisions at the root besides
the judge's (``network_candidates``), and a root wider than ``ismcts``'s
(``root_candidates``). Solving more than the last turn (``exact_turns``) lost to plain
search in the measurements of docs/bots.md (each player "sees" the other's cards in a
solved world: strategy fusion), so it stays at one. The opponent may also be one who
plays at random (``random_prior``): inference weighs that model against the judge's from
their decisions, round after round, and plays the replies it expects.

Its configuration, :data:`EXPERT_CONFIG`, is ``ismcts``'s with those changes
(:func:`dataclasses.replace`); a bot spec sets the same options as for ``ismcts``
(``expert:root_candidates=3,random_prior=none``).
"""

from __future__ import annotations

from dataclasses import replace

from hanamikoji.bots.base import register
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot, SearchConfig

__all__ = ["EXPERT_CONFIG", "ExpertBot"]

DEFAULT_BUDGET = 1.0
RANDOM_PRIOR = 0.1
"""The prior chance that the opponent chooses at random (docs/bots.md: against ``random``
at 1 s, 98.9% with it, 98.1% without, on the same 1,000 games)."""
EXACT_TURNS = 1
"""Solve exactly when this many turns of the round (the current one included) are left."""
ROOT_CANDIDATES = 10
"""How many of the judge's best decisions the root searches (besides the network's). At
1 s the search plays thousands of worlds, enough to compare ten: 10 scored 55.2% [50.4,
60.0] against 3 over 400 games (docs/bots.md)."""
NETWORK_CANDIDATES = 2
"""How many of the learned evaluation's best decisions the root searches besides the
judge's: about a millisecond per decision, neither a measured gain nor a loss
(docs/bots.md, "Learned evaluation")."""

EXPERT_CONFIG = replace(
    DEFAULT_CONFIG,
    compiled=True,
    exact_turns=EXACT_TURNS,
    random_prior=RANDOM_PRIOR,
    root_candidates=ROOT_CANDIDATES,
    network_candidates=NETWORK_CANDIDATES,
)
"""The expert's search: ``ismcts``'s with the compiled judge, a 10-wide root, the
network's 2 best decisions and an opponent who may play at random."""


class ExpertBot(ISMCTSBot):
    """The ismcts search at 1 s per decision over the judge's 10 best decisions at the
    root, the learned evaluation's best decisions also searched there.

    Args:
        seed: as for :class:`ISMCTSBot`.
        budget: as for :class:`ISMCTSBot` (default 1 s).
        iterations: as for :class:`ISMCTSBot`.
        config: how it searches (default :data:`EXPERT_CONFIG`).
    """

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        config: SearchConfig = EXPERT_CONFIG,
    ) -> None:
        super().__init__(seed, budget if budget is not None else DEFAULT_BUDGET, iterations, config)


register("expert", ExpertBot)
