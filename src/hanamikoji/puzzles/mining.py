"""Mining puzzles: every decision of a game judged from its mover's information set, the
clear ones kept.

Bot games are seeded: game ``index`` of a run with seed ``seed`` is dealt by
:func:`game_seed` and played by the pairing :data:`PAIRINGS` gives it (fast bots: the
greedy judge and the weakened levels, which now and then slip, so positions vary). Each
decision with a choice is judged (:mod:`hanamikoji.puzzles.judging`): exactly on the
round's last two turns, and by search before that only for ``searched_per_game``
positions of a game (the search costs seconds a position), and kept when exactly one
decision is clearly best. Records of people's games are mined the same way
(:meth:`Miner.record_puzzles`).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from hanamikoji.bots.base import Bot, make_bot
from hanamikoji.core.game import Game
from hanamikoji.notation.records import GameRecord
from hanamikoji.puzzles.judging import (
    EXACT_TURNS,
    PROVED_MARGIN,
    Verdict,
    exact_verdict,
    searched_verdict,
)
from hanamikoji.puzzles.model import Method, Puzzle
from hanamikoji.puzzles.themes import level_for, themes_for

__all__ = ["PAIRINGS", "Miner", "MiningStats", "game_seed", "judged_puzzle", "puzzle_id"]

PAIRINGS: tuple[tuple[str, str], ...] = (
    ("greedy", "weakened:play_temperature=0.1"),
    ("weakened:play_temperature=0.2", "greedy"),
    ("weakened:play_temperature=0.05", "weakened:play_temperature=0.1"),
    ("greedy", "greedy"),
)
"""The bots of each mined game, by its index (seat 0's first)."""
SEARCH_WORLDS = 100
"""Sampled worlds per decision in a searched position's first search."""


def game_seed(seed: int, index: int) -> int:
    """The deal seed of game ``index`` of a run seeded ``seed``."""
    return seed * 1_000_000 + index


def puzzle_id(variant: str, seed: int, ply: int) -> str:
    """``VARIANT-SEED-PLY``: unique for a position of a seeded bot game (a record's
    puzzles add ``-r`` and a digest of the record)."""
    return f"{variant}-{seed}-{ply}"


@dataclass(slots=True)
class MiningStats:
    """What a run examined and found, and the processor time it took."""

    games: int = 0
    positions: int = 0
    exact_positions: int = 0
    searched_positions: int = 0
    proved: int = 0
    searched: int = 0
    skipped_records: int = 0
    judging_seconds: float = 0.0
    """Processor time spent judging positions (the games' own play aside)."""
    by_variant: dict[str, int] = field(default_factory=dict)

    @property
    def puzzles(self) -> int:
        return self.proved + self.searched


def judged_puzzle(game: Game, verdict: Verdict, identity: str, source: str) -> Puzzle:
    """The puzzle of ``game``'s position (seeded, its mover to decide) judged
    ``verdict``: its themes and level named from the position and the values."""
    seat = game.to_move
    if seat is None or game.seed is None:
        raise ValueError("a puzzle is a seeded game's position with a player to decide")
    return Puzzle(
        id=identity,
        variant=game.variant.name,
        seed=game.seed,
        first_player=game.first_player,
        moves=tuple(entry.move.text() for entry in game.log()),
        seat=seat,
        solution=verdict.best.text(),
        values=tuple((move.text(), value) for move, value in verdict.values),
        margin=verdict.margin,
        method=verdict.method,
        worlds=verdict.worlds,
        themes=themes_for(game.view(seat), verdict),
        level=level_for([value for _, value in verdict.values]),
        source=source,
    )


class Miner:
    """Judges positions and makes puzzles of the clear ones.

    Args:
        searched_per_game: how many positions before the last two turns of each game
            are searched (chosen at random by the game's seed; 0: none).
        search_worlds: the first search's worlds per decision.
    """

    def __init__(self, searched_per_game: int = 0, search_worlds: int = SEARCH_WORLDS) -> None:
        self.searched_per_game = searched_per_game
        self.search_worlds = search_worlds
        self.stats = MiningStats()

    def position_puzzle(
        self, game: Game, source: str, searched: bool = False, seed: int = 0, suffix: str = ""
    ) -> Puzzle | None:
        """The puzzle of ``game``'s position for its mover, or ``None`` if no decision is
        clearly best (or the position is not judged: before the last turns, unless
        ``searched``). ``game`` must be seeded and not moved on since its deals;
        ``suffix`` ends the puzzle's id."""
        seat = game.to_move
        if seat is None or game.seed is None:
            return None
        legal = game.generate_legal_moves()
        if len(legal) < 2:
            return None
        view = game.view(seat)
        self.stats.positions += 1
        start = time.process_time()
        verdict: Verdict | None = None
        if view.deck_size < EXACT_TURNS:
            self.stats.exact_positions += 1
            verdict = exact_verdict(view, legal)
            if verdict is not None and not verdict.clear(PROVED_MARGIN):
                verdict = None
        elif searched:
            self.stats.searched_positions += 1
            verdict = searched_verdict(view, legal, seed, self.search_worlds)
        self.stats.judging_seconds += time.process_time() - start
        if verdict is None:
            return None
        if verdict.method is Method.PROVED:
            self.stats.proved += 1
        else:
            self.stats.searched += 1
        variant = game.variant.name
        self.stats.by_variant[variant] = self.stats.by_variant.get(variant, 0) + 1
        identity = puzzle_id(variant, game.seed, len(game.log())) + suffix
        return judged_puzzle(game, verdict, identity, source)

    def bot_game_puzzles(self, variant: str, seed: int, index: int) -> Iterator[Puzzle]:
        """Play game ``index`` of a run seeded ``seed`` and yield its puzzles as found."""
        deal_seed = game_seed(seed, index)
        specs = PAIRINGS[index % len(PAIRINGS)]
        bots: list[Bot] = [make_bot(spec, seed=deal_seed * 2 + n) for n, spec in enumerate(specs)]
        game = Game(variant, seed=deal_seed, first_player=index % 2)
        chooser = random.Random(deal_seed)
        searched_plies = self._searched_plies(chooser)
        source = "bots " + " v ".join(spec.replace(":play_temperature=", "@") for spec in specs)
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            ply = len(game.move_stack)
            puzzle = self.position_puzzle(game, source, ply in searched_plies, deal_seed + ply)
            if puzzle is not None:
                yield puzzle
            game.push(bots[seat].choose(game.view(seat), game.generate_legal_moves()))
        self.stats.games += 1

    def _searched_plies(self, chooser: random.Random) -> set[int]:
        # Plies of the first round before its last two turns, at random.
        if self.searched_per_game <= 0:
            return set()
        return set(chooser.sample(range(1, 10), min(self.searched_per_game, 9)))

    def record_puzzles(self, record: GameRecord, source: str) -> Iterator[Puzzle]:
        """The proved puzzles of a stored game's positions (seeded records whose deals
        all come from the seed only; others are counted as skipped)."""
        if record.seed is None or any(rnd.deal is not None for rnd in record.rounds):
            self.stats.skipped_records += 1
            return
        game = Game(record.variant, seed=record.seed, first_player=record.first_player)
        suffix = "-r" + hashlib.sha256(record.to_text().encode()).hexdigest()[:8]
        for entry in record.replay().log():
            puzzle = self.position_puzzle(game, source, suffix=suffix)
            if puzzle is not None:
                yield puzzle
            game.push(entry.move)
        self.stats.games += 1
