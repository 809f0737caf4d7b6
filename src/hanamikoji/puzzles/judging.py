"""Judging a position: every legal decision valued from the mover's information set, and
whether exactly one of them is clearly the best.

- **Proved** (:func:`exact_verdict`): on a round's last two turns,
  :func:`hanamikoji.bots.exact.exact_values` values each decision over every world of
  the mover's information set, each world as likely as the shuffle makes it (no model of
  the opponent: ``model=None``). On the last turn the round is played out (an offer's
  answerer choosing on *their* view); on the seventh the rest of each world's round is
  solved with both players seeing its cards. A round's end is worth the match table's
  chance unless the game ends there (1, 0 or 0.5). Kept if the best decision is at least
  :data:`PROVED_MARGIN` ahead of every other.
- **Searched** (:func:`searched_verdict`): before that, ``ismcts`` (the compiled judge,
  every legal decision compared at the root) on ``worlds`` sampled worlds per decision;
  only if its best is at least :data:`SEARCHED_MARGIN` ahead is a second search run, on
  other worlds (another seed) and four times as many, and the position is kept only if
  it names the same best decision, again that far ahead. Its values are the second
  search's. Both searches are seeded (the second's seed is the first's plus
  :data:`CONFIRM_SEED`), so a searched verdict is found again from its seed.

A position where several decisions are about equally good is never kept: the margin is
over the *next best* decision, and decisions that differ only in the order of the same
cards are one decision already (:meth:`Game.legal_moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from hanamikoji.bots.exact import ExactValue, exact_values
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.puzzles.model import Method

__all__ = [
    "CONFIRM_FACTOR",
    "CONFIRM_SEED",
    "EXACT_LIMIT",
    "EXACT_TURNS",
    "PROVED_MARGIN",
    "SEARCHED_MARGIN",
    "Verdict",
    "exact_verdict",
    "search_values",
    "searched_verdict",
]

PROVED_MARGIN = 0.10
"""A proved puzzle's solution is this much ahead (in match-win chance) of every other."""
SEARCHED_MARGIN = 0.25
"""A searched puzzle's solution is this much ahead, in both searches."""
CONFIRM_FACTOR = 4
"""The second search plays this many times as many worlds as the first."""
EXACT_TURNS = 2
"""Positions on the last this many turns of a round are judged exactly..."""
EXACT_LIMIT = 5_000
"""...if the mover's information set holds at most this many worlds."""
CONFIRM_SEED = 1_000_003
"""The second search's seed is the first's plus this (other worlds)."""
UNCAPPED = 1e9
"""The searches stop by their number of playouts, not by the clock."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """Every legal decision's value (highest first), how they were found, over how many
    worlds, and for exact values the share of worlds where each decision ends the game
    at once with the mover's win (``None`` when unknown)."""

    values: tuple[tuple[Move, float], ...]
    method: Method
    worlds: int
    wins_at_once: dict[Move, float | None]
    loses_at_once: dict[Move, float | None]

    @property
    def best(self) -> Move:
        return self.values[0][0]

    @property
    def margin(self) -> float:
        """The best value less the next best (0 with a single decision)."""
        return self.values[0][1] - self.values[1][1] if len(self.values) > 1 else 0.0

    def clear(self, margin: float) -> bool:
        """Whether exactly one decision is best, at least ``margin`` ahead of every other."""
        return len(self.values) > 1 and self.margin >= margin


def _ordered(values: dict[Move, float], legal: Sequence[Move]) -> tuple[tuple[Move, float], ...]:
    # Highest first; equal values in the order the core lists the decisions.
    order = {move: index for index, move in enumerate(legal)}
    return tuple(sorted(values.items(), key=lambda item: (-item[1], order[item[0]])))


def exact_verdict(view: View, legal: Sequence[Move], limit: int = EXACT_LIMIT) -> Verdict | None:
    """The exact values of ``legal`` for ``view``'s player (see the module's docstring),
    or ``None`` before the last :data:`EXACT_TURNS` turns or past ``limit`` worlds."""
    if view.deck_size >= EXACT_TURNS:
        return None
    solution = exact_values(view, legal, None, limit)
    if solution is None:
        return None
    values: dict[Move, ExactValue] = solution.values
    return Verdict(
        _ordered({move: value.value for move, value in values.items()}, legal),
        Method.PROVED,
        solution.worlds,
        {move: value.wins_at_once for move, value in values.items()},
        {move: value.loses_at_once for move, value in values.items()},
    )


def search_values(view: View, legal: Sequence[Move], seed: int, worlds: int) -> dict[Move, float]:
    """Every decision of ``legal`` valued by ``ismcts`` (the compiled judge, every decision
    compared at the root) on ``worlds`` sampled worlds each, drawn from ``seed``: the
    same values for the same seed."""
    config = replace(DEFAULT_CONFIG, compiled=True, root_candidates=len(legal))
    bot = ISMCTSBot(seed, budget=UNCAPPED, iterations=worlds * len(legal), config=config)
    return {move: value for move, (_, value) in bot.evaluate(view, legal, legal).items()}


def searched_verdict(view: View, legal: Sequence[Move], seed: int, worlds: int) -> Verdict | None:
    """The searched values of ``legal`` (see the module's docstring), or ``None`` unless
    both searches agree on a best decision :data:`SEARCHED_MARGIN` ahead."""
    nothing: dict[Move, float | None] = dict.fromkeys(legal)
    first = search_values(view, legal, seed, worlds)
    if len(first) < len(legal):
        return None
    verdict = Verdict(_ordered(first, legal), Method.SEARCHED, worlds, nothing, nothing)
    if not verdict.clear(SEARCHED_MARGIN):
        return None
    confirm_worlds = worlds * CONFIRM_FACTOR
    second = search_values(view, legal, seed + CONFIRM_SEED, confirm_worlds)
    if len(second) < len(legal):
        return None
    confirmed = Verdict(_ordered(second, legal), Method.SEARCHED, confirm_worlds, nothing, nothing)
    if confirmed.best != verdict.best or not confirmed.clear(SEARCHED_MARGIN):
        return None
    return confirmed
