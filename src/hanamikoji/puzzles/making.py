"""Making a puzzle of one decision of a finished game ("Make this a puzzle"): the
position before it judged exactly from its mover's information set, kept only when one
decision is clearly best (docs/puzzles.md, "How a puzzle is judged").

:func:`make_puzzle` takes plain values (the game's variant, seed, first player and the
decisions before the position), so a server can run it in a worker process.

>>> from hanamikoji.puzzles import shipped_puzzles
>>> known = next(p for p in shipped_puzzles() if p.method.value == "proved")
>>> made = make_puzzle(known.variant, known.seed, known.first_player, known.moves, "own-x")
>>> made.solution == known.solution, made.id
(True, 'own-x')
>>> make_puzzle("classic", 1, 0, (), "own-y")  # the first decision: out of its reach
'out_of_reach'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from hanamikoji.core.game import Game
from hanamikoji.puzzles.judging import PROVED_MARGIN, exact_verdict
from hanamikoji.puzzles.mining import judged_puzzle
from hanamikoji.puzzles.model import Puzzle

__all__ = ["NotAPuzzle", "make_puzzle"]

NotAPuzzle = Literal["out_of_reach", "unclear"]
"""Why a position is no puzzle: before a round's last two turns or past the exact
solver's worlds (``out_of_reach``), or no decision clearly best, a single legal one
among them (``unclear``)."""


def make_puzzle(
    variant: str,
    seed: int,
    first_player: int,
    moves: Sequence[str],
    identity: str,
    source: str = "a player's game",
) -> Puzzle | NotAPuzzle:
    """The proved puzzle of the position after ``moves`` (text forms) of the game
    dealt from ``seed``, or why it is none. Raises :class:`ValueError` when the moves
    do not replay or the game is over after them."""
    game = Game(variant, seed=seed, first_player=first_player)
    for text in moves:
        game.push_text(text)
    seat = game.to_move
    if seat is None:
        raise ValueError("nobody is to decide after these moves")
    legal = game.generate_legal_moves()
    if len(legal) < 2:
        return "unclear"
    verdict = exact_verdict(game.view(seat), legal)
    if verdict is None:
        return "out_of_reach"
    if not verdict.clear(PROVED_MARGIN):
        return "unclear"
    return judged_puzzle(game, verdict, identity, source)
