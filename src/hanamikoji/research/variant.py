"""The bounded variants research games are played in.

Learning and search tools need games of bounded length. A variant without a round limit
(``classic``) is therefore played with a round cap, under its own name: ``classic/cap=10``
ends in a draw if nobody has won after 10 rounds. The rules of ``classic`` itself never
change.
"""

from __future__ import annotations

from hanamikoji.core.variants import Variant

__all__ = ["DEFAULT_ROUND_CAP", "research_variant"]

DEFAULT_ROUND_CAP = 10
"""The cap on an unbounded variant when none is given."""


def research_variant(variant: str | Variant, round_cap: int = DEFAULT_ROUND_CAP) -> Variant:
    """The bounded variant a research game plays: ``variant`` itself when its own limit is
    at most ``round_cap`` rounds, else ``variant`` capped at ``round_cap`` rounds.

    >>> research_variant("classic").name, research_variant("three-rounds").name
    ('classic/cap=10', 'three-rounds')
    >>> research_variant("three-rounds", 1).max_rounds
    1
    """
    base = Variant.by_name(variant) if isinstance(variant, str) else variant
    if base.max_rounds is None or round_cap < base.max_rounds:
        return base.capped(round_cap)
    return base
