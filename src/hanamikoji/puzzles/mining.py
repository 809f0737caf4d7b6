"""Mining puzzles: every decision of a game judged from its mover's information set, the
clear ones kept.

Bot games are seeded: game ``index`` of a run with seed ``seed`` is dealt by
:func:`game_seed` and played by the pairing :data:`PAIRINGS` gives it (fast bots: the
greedy judge and the weakened levels, which now and then slip, so positions vary). Each
decision with a choice on a round's last two turns is judged exactly
(:mod:`hanamikoji.puzzles.judging`) and kept when exactly one decision is clearly best.

Before that, a search costs seconds a position, so only candidates are searched. A
position with at most :data:`SEARCH_CAP` decisions is *probed* with chance
:data:`PROBE_CHANCE`, at most ``searched_per_game`` times a game: a short search of
:data:`PROBE_WORLDS` worlds a decision. It is searched (two searches,
:func:`~hanamikoji.puzzles.judging.searched_verdict`) only when the probe's best is at
least :data:`PROBE_MARGIN` ahead (the searches ask 0.25). Probing only where greedy and
the probe disagree was tried: of 201 probes, 25 had a best 0.25 ahead, 2 of them not
greedy's (docs/puzzles.md). Every puzzle records greedy's decision
(:attr:`Puzzle.greedy`), which a selection (:mod:`hanamikoji.puzzles.selection`) uses.
Records of people's games are mined the same way (:meth:`Miner.record_puzzles`).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from hanamikoji.bots.base import Bot, make_bot
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.notation.records import GameRecord
from hanamikoji.puzzles.judging import (
    CONFIRM_SEED,
    EXACT_TURNS,
    PROVED_MARGIN,
    Verdict,
    exact_verdict,
    search_values,
    searched_verdict,
)
from hanamikoji.puzzles.model import Method, Puzzle
from hanamikoji.puzzles.themes import level_for, themes_for

__all__ = [
    "PAIRINGS",
    "PROBE_CHANCE",
    "PROBE_MARGIN",
    "PROBE_WORLDS",
    "SEARCH_CAP",
    "Miner",
    "MiningStats",
    "game_seed",
    "greedy_choice",
    "judged_puzzle",
    "puzzle_id",
]

PAIRINGS: tuple[tuple[str, str], ...] = (
    ("greedy", "weakened:play_temperature=0.1"),
    ("weakened:play_temperature=0.2", "greedy"),
    ("weakened:play_temperature=0.05", "weakened:play_temperature=0.1"),
    ("greedy", "greedy"),
)
"""The bots of each mined game, by its index (seat 0's first)."""
SEARCH_WORLDS = 100
"""Sampled worlds per decision in a searched position's first search."""
PROBE_WORLDS = 20
"""Sampled worlds per decision in a probe (the short search choosing what to search)."""
PROBE_MARGIN = 0.20
"""A probe's best must be this far ahead of the next to search the position."""
PROBE_CHANCE = 0.5
"""Each position that may be probed is, with this chance (drawn from the game's seed),
until the game's probes are spent: probes spread over the game's rounds."""
SEARCH_CAP = 40
"""Positions with more decisions than this are not probed (the search grows with them)."""
GREEDY_SEED = 0
"""Greedy's seed when a puzzle records its decision (it breaks ties at random)."""


def greedy_choice(view: View, legal: Sequence[Move]) -> Move:
    """Greedy's (level 6's) decision in the position, seeded :data:`GREEDY_SEED`."""
    return make_bot("greedy", seed=GREEDY_SEED).choose(view, legal)


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
    probed_positions: int = 0
    searched_positions: int = 0
    proved: int = 0
    searched: int = 0
    skipped_records: int = 0
    judging_seconds: float = 0.0
    """Processor time spent judging positions (the games' own play aside)..."""
    probing_seconds: float = 0.0
    searching_seconds: float = 0.0
    """...of which probing, and searching (both searches) the probed candidates."""
    by_variant: dict[str, int] = field(default_factory=dict)

    @property
    def puzzles(self) -> int:
        return self.proved + self.searched

    def add(self, other: MiningStats) -> None:
        """Count ``other``'s figures in these (another process's share of a run)."""
        for name in self.__dataclass_fields__:
            mine = getattr(self, name)
            if isinstance(mine, dict):
                for key, count in other.by_variant.items():
                    mine[key] = mine.get(key, 0) + count
            else:
                setattr(self, name, mine + getattr(other, name))


def judged_puzzle(game: Game, verdict: Verdict, identity: str, source: str) -> Puzzle:
    """The puzzle of ``game``'s position (seeded, its mover to decide) judged
    ``verdict``: its themes and level named from the position and the values, and
    greedy's decision there."""
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
        greedy=greedy_choice(game.view(seat), game.generate_legal_moves()).text(),
    )


class Miner:
    """Judges positions and makes puzzles of the clear ones.

    Args:
        searched_per_game: how many positions before the last two turns of each game
            are probed, at most (0: none); the probes choose which are searched.
        search_worlds: the first search's worlds per decision.
        probe_worlds: a probe's worlds per decision.
    """

    def __init__(
        self,
        searched_per_game: int = 0,
        search_worlds: int = SEARCH_WORLDS,
        probe_worlds: int = PROBE_WORLDS,
    ) -> None:
        self.searched_per_game = searched_per_game
        self.search_worlds = search_worlds
        self.probe_worlds = probe_worlds
        self.stats = MiningStats()

    def probable(self, view: View, legal: Sequence[Move], seed: int) -> bool:
        """Whether a position before the last two turns is worth searching: its probe's
        best decision is at least :data:`PROBE_MARGIN` ahead."""
        self.stats.probed_positions += 1
        start = time.process_time()
        values = search_values(view, legal, seed + 2 * CONFIRM_SEED, self.probe_worlds)
        self.stats.probing_seconds += time.process_time() - start
        ranked = sorted(values.values(), reverse=True)
        return len(values) == len(legal) and ranked[0] - ranked[1] >= PROBE_MARGIN

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
            searching = time.process_time()
            verdict = searched_verdict(view, legal, seed, self.search_worlds)
            self.stats.searching_seconds += time.process_time() - searching
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
        probes = self.searched_per_game
        source = "bots " + " v ".join(spec.replace(":play_temperature=", "@") for spec in specs)
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            ply = len(game.move_stack)
            searched = False
            if probes > 0 and self._probed(game) and chooser.random() < PROBE_CHANCE:
                probes -= 1
                searched = self._worth_searching(game, deal_seed + ply)
            puzzle = self.position_puzzle(game, source, searched, deal_seed + ply)
            if puzzle is not None:
                yield puzzle
            game.push(bots[seat].choose(game.view(seat), game.generate_legal_moves()))
        self.stats.games += 1

    @staticmethod
    def _probed(game: Game) -> bool:
        # Before the last two turns, with a choice but not too many decisions.
        seat = game.to_move
        if seat is None or not 2 <= len(game.generate_legal_moves()) <= SEARCH_CAP:
            return False
        return game.view(seat).deck_size >= EXACT_TURNS

    def _worth_searching(self, game: Game, seed: int) -> bool:
        seat = game.to_move
        assert seat is not None
        return self.probable(game.view(seat), game.generate_legal_moves(), seed)

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
