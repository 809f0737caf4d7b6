"""The expert: the top difficulty level (level 5).

It is the search of :mod:`hanamikoji.bots.ismcts` (the greedy judge's best decisions
compared on worlds weighed by policy-based inference, the round's end scored by the
match-value table, the last turn solved exactly in each world) configured for 1 s per
decision, for solving the last ``exact_turns`` turns exactly, with the learned
evaluation (:mod:`hanamikoji.bots.network`) proposing its own best decisions at the
root besides the judge's, and a root wider than ``ismcts``'s (``root_candidates``).
Racing the root candidates (``racing``) is off: at 1 s it stopped at a median 116 ms
and scored 70.0% against greedy over 1,000 games, a 0.2 s search's score
(docs/bots.md). Solving more than the last turn lost to plain search in the
measurements of docs/bots.md (each player "sees" the other's cards in a solved world:
strategy fusion), so the default stays at one. The opponent may also be one who plays
at random (``random_prior``): inference weighs that model against the judge's from
their decisions, round after round, and plays the replies it expects.
"""

from __future__ import annotations

from hanamikoji.bots.base import register
from hanamikoji.bots.ismcts import SURPRISE, TEMPERATURE, ISMCTSBot
from hanamikoji.bots.network import ValueNetwork, load_network

__all__ = ["ExpertBot"]

DEFAULT_BUDGET = 1.0
RANDOM_PRIOR: float | None = 0.1
"""The prior chance that the opponent chooses at random (docs/bots.md: against ``random``
at 1 s, 98.9% with it, 98.1% without, on the same 1,000 games)."""
EXACT_TURNS = 1
"""Solve exactly when this many turns of the round (the current one included) are left."""
ROOT_CANDIDATES = 10
"""How many of the judge's best decisions the root searches (besides the network's). At
1 s the search plays thousands of worlds, enough to compare ten: 10 scored 55.2% [50.4,
60.0] against 3 over 400 games (docs/bots.md)."""


class ExpertBot(ISMCTSBot):
    """The ismcts search at 1 s per decision over the judge's 10 best decisions at the
    root, the learned evaluation's best decisions also searched there.

    Args:
        seed, budget, iterations: as for :class:`ISMCTSBot` (budget default 1 s).
        exact_turns: solve exactly from this many turns before the round's end on.
        network: the learned evaluation (default: the committed weights).
        racing: drop root candidates this many standard errors behind the best
            (``None``: search them all to the end of the budget).
        compiled: judge with the compiled kernel (as :class:`ISMCTSBot`).
        reply_temperature, playout_temperature: draw the opponent's replies and this
            player's own playout decisions from a softmax over the judge's scores (as
            :class:`ISMCTSBot`; ``None``: the judge's choice).
        modelled_replies: draw the opponent's replies from inference's opponent model
            (as :class:`ISMCTSBot`).
        hiding: among close root decisions, prefer those that give the hand away least
            to an opponent who infers (as :class:`ISMCTSBot`).
        random_prior: the prior chance that the opponent chooses at random, inferred
            from their decisions round after round (as :class:`ISMCTSBot`).
        reply_widening: search the opponent's replies in their information set (as
            :class:`ISMCTSBot`; ``None``: the judge's choice).
        inference, surprise, shortlist: the opponent model of inference: a softmax over
            the judge's scores at this temperature (over its ``shortlist`` best
            decisions), mixed with this share of uniform choice (as :class:`ISMCTSBot`;
            ``inference=None``, with ``random_prior=None``: worlds dealt uniformly).
        root_candidates: how many of the judge's best decisions are searched at the
            root, besides the network's (as :class:`ISMCTSBot`).
    """

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        exact_turns: int = EXACT_TURNS,
        network: ValueNetwork | None = None,
        racing: float | None = None,
        compiled: bool = True,
        reply_temperature: float | None = None,
        playout_temperature: float | None = None,
        random_prior: float | None = RANDOM_PRIOR,
        reply_widening: int | None = None,
        root_candidates: int = ROOT_CANDIDATES,
        inference: float | None = TEMPERATURE,
        surprise: float = SURPRISE,
        shortlist: int | None = None,
        modelled_replies: bool = False,
        hiding: float | None = None,
    ) -> None:
        super().__init__(
            seed,
            budget if budget is not None else DEFAULT_BUDGET,
            iterations,
            exact_turns=exact_turns,
            network=network if network is not None else load_network(),
            racing=racing,
            compiled=compiled,
            reply_temperature=reply_temperature,
            playout_temperature=playout_temperature,
            random_prior=random_prior,
            reply_widening=reply_widening,
            root_candidates=root_candidates,
            inference=inference,
            surprise=surprise,
            shortlist=shortlist,
            modelled_replies=modelled_replies,
            hiding=hiding,
        )


register("expert", ExpertBot)
