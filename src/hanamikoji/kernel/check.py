"""The compiled engine checked against :mod:`hanamikoji.core`, decision by decision.

:func:`differential` plays random games in a :class:`~hanamikoji.kernel.engine.Batch`
and, in lockstep, the same games with :class:`~hanamikoji.core.game.Game`: the same
decisions, chosen by the kernel's random policy. After every decision it compares what
the two engines say: the legal decisions (the kernel's mask against
``legal_action_mask``), the round, the seat to move, the hands, the markers, and at
every round's start the deal; at the end the outcome. ``tests/test_kernel.py`` runs a
bounded sample, ``benchmarks/kernel_check.py`` 100,000 games per variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from hanamikoji.core.cards import pack
from hanamikoji.core.game import Game
from hanamikoji.kernel.encoding import decode, legal_action_mask
from hanamikoji.kernel.engine import Batch, stream_states

__all__ = ["Report", "differential"]


@dataclass
class Report:
    """What a differential run compared, and the first differences it found."""

    variant: str
    games: int = 0
    decisions: int = 0
    rounds: int = 0
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def _favor(game: Game) -> list[int]:
    return [-1 if holder is None else holder for holder in game.favor()]


def _compare(batch: Batch, g: int, game: Game, mask: npt.NDArray[np.int8]) -> str | None:
    """The first difference between game ``g`` of the batch and ``game``, or ``None``."""
    s = batch.games
    if not np.array_equal(mask, legal_action_mask(game)):
        return "legal decisions"
    if _favor(game) != s.favor[g].tolist():
        return "markers"
    if game.is_over():
        return None if batch.outcome(g) == game.outcome else "outcome"
    if (game.round, game.to_move, game.turn) != (s.round[g], s.to_move[g], s.turn[g]):
        return "round, seat to move or turn"
    hands = (pack(game.hand(0)), pack(game.hand(1)))
    if hands != (s.hands[g, 0], s.hands[g, 1]):
        return "hands"
    return None


def _compare_deal(batch: Batch, g: int, game: Game) -> str | None:
    deal = game.deals()[-1]
    s = batch.games
    if (deal.removed, deal.deck) != (s.removed[g], tuple(s.deck[g].tolist())):
        return "deal"
    return None


def differential(
    variant: str, seeds: npt.ArrayLike, first_player: npt.ArrayLike = 0, policy_seed: int = 0
) -> Report:
    """Random games of ``variant`` (one per seed) played by both engines in lockstep."""
    batch = Batch(variant, seeds, first_player)
    firsts = np.broadcast_to(np.asarray(first_player), (len(batch),))
    games = [
        Game(variant, seed=int(seed), first_player=int(first))
        for seed, first in zip(batch.games.seed.view(np.uint64), firsts, strict=True)
    ]
    report = Report(variant, games=len(games))
    states = stream_states(policy_seed, len(batch))
    rounds = [0] * len(games)
    broken: set[int] = set()
    while True:
        live = [g for g, game in enumerate(games) if g not in broken and not game.is_over()]
        masks = batch.legal_mask()
        for g in live or range(len(games)):
            found = _check_one(batch, g, games[g], masks[g], rounds)
            if found is not None and g not in broken:
                broken.add(g)
                report.differences.append(f"game {g} (seed {games[g].seed}): {found}")
        if not live:
            break
        actions = batch.random_actions(states)
        for g in live:
            if g not in broken:
                games[g].push(decode(int(actions[g])))
                report.decisions += 1
        batch.step(actions)
    report.rounds = sum(rounds)
    return report


def _check_one(
    batch: Batch, g: int, game: Game, mask: npt.NDArray[np.int8], rounds: list[int]
) -> str | None:
    """Compare game ``g`` before its next decision (its deal once per round)."""
    if game.is_over() != bool(batch.done[g]):
        return "one engine says the game is over"
    found = _compare(batch, g, game, mask)
    if found is None and not game.is_over() and game.round > rounds[g]:
        rounds[g] = game.round
        found = _compare_deal(batch, g, game)
    return found
