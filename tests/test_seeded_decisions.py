"""The same decisions, game for game: seeded games between the bots that use the greedy
judge, hashed, against the hashes the code gave before the bots were re-cut (issue 48:
the judge moved to ``bots/judge/``). A change to the judge's numbers, the search's
rankings or the kernel's greedy policy changes a hash; a move of code must not.

When a change of the bots' play is intended, print the new hashes with
``PYTHONPATH=src .venv/bin/python tests/test_seeded_decisions.py`` and say why in the
commit.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from hanamikoji import Game
from hanamikoji.bots import make_bot
from hanamikoji.kernel import Batch

MATCHES: dict[str, tuple[str, str, int]] = {
    "greedy-weakened": ("greedy", "weakened:play_temperature=0.2", 16),
    "compiled-ismcts": ("greedy:compiled=true", "ismcts:iterations=24,compiled=true", 8),
    "expert-greedy": ("expert:iterations=12", "greedy", 4),
}
"""Each match: the two bots (seats swapped every other game) and the number of games."""

EXPECTED = {
    "greedy-weakened": "c1d83d4bf58d172f",
    "compiled-ismcts": "147ab86b77ca42bc",
    "expert-greedy": "7125fe0514d644a6",
    "kernel-greedy": "b92c02c8d48f8d5a",
}
"""The hashes the code gave before the re-cut (main at 8591fde)."""


def match_hash(first: str, second: str, games: int) -> str:
    """The decisions of ``games`` seeded games between ``first`` and ``second``, hashed."""
    digest = hashlib.sha256()
    for number in range(games):
        variant = ("classic", "three-rounds")[number % 2]
        game = Game(variant, seed=1000 + number, first_player=number % 3 % 2)
        specs = (first, second) if number % 2 == 0 else (second, first)
        # A generous budget: the searches stop at their playouts, never by the clock.
        bots = [
            make_bot(spec, seed=7 * number + seat, budget=600.0) for seat, spec in enumerate(specs)
        ]
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            move = bots[seat].choose(game.view(seat), game.legal_moves)
            game.push(move)
            digest.update(move.text().encode() + b";")
        digest.update(b"|")
    return digest.hexdigest()[:16]


def kernel_hash(games: int = 40) -> str:
    """The kernel's greedy policy against its random one, ``games`` games, hashed."""
    batch = Batch("classic", np.arange(2000, 2000 + games, dtype=np.uint64), np.arange(games) % 2)
    trace = batch.play(("greedy", "random"), seed=5, record=80)
    assert trace is not None
    return hashlib.sha256(trace.tobytes()).hexdigest()[:16]


def decision_hash(name: str) -> str:
    if name == "kernel-greedy":
        return kernel_hash()
    return match_hash(*MATCHES[name])


@pytest.mark.parametrize("name", list(EXPECTED))
def test_the_bots_decide_as_before(name: str) -> None:
    assert decision_hash(name) == EXPECTED[name]


if __name__ == "__main__":
    for match in EXPECTED:
        print(f'    "{match}": "{decision_hash(match)}",', flush=True)
