"""Puzzles on the server: the page, ratings of puzzles and solvers, attempts, the daily
puzzle, streaks and the puzzles players make (docs/puzzles.md)."""
