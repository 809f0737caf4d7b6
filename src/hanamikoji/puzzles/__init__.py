"""Puzzles: positions where exactly one decision is clearly best, judged from the
solver's information set, mined from games, themed, and shipped as a set
(docs/puzzles.md)."""

from hanamikoji.puzzles.model import LEVELS, Method, Puzzle, PuzzleError
from hanamikoji.puzzles.store import read_puzzles, shipped_puzzles, write_puzzles

__all__ = [
    "LEVELS",
    "Method",
    "Puzzle",
    "PuzzleError",
    "read_puzzles",
    "shipped_puzzles",
    "write_puzzles",
]
