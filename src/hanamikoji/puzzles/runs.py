"""A run's bot games mined wherever :class:`~hanamikoji.bots.parallel.Workers` runs work:
this process, this machine's processes, or Ray (a local instance or a cluster).

Each game is mined from its task alone (variant, run seed, index) by a :class:`Miner` of
the run's settings, so where a game is mined cannot change its puzzles. The games go out
in chunks of a few per worker and each chunk's puzzles come back in the games' order
before the next chunk starts, so the run writes its file game by game and an
interrupted run loses at most the chunk under way (``python -m hanamikoji.puzzles.mine``
resumes from the file).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hanamikoji.bots.parallel import Workers
from hanamikoji.puzzles.mining import Miner, MiningStats
from hanamikoji.puzzles.model import Puzzle

__all__ = ["GAMES_PER_WORKER", "MinerSettings", "mined_games"]

GAMES_PER_WORKER = 4
"""Games a worker mines in each chunk (a chunk ends before the next starts)."""

MinerSettings = tuple[int, int, int]
"""A miner's ``(searched_per_game, search_worlds, probe_worlds)``."""


def mine_game(
    settings: MinerSettings, task: tuple[str, int, int]
) -> tuple[list[Puzzle], MiningStats]:
    """The puzzles of one game ``(variant, seed, index)`` and what mining it examined,
    by a fresh miner of ``settings`` (a task for a worker process or a Ray task)."""
    miner = Miner(*settings)
    found = list(miner.bot_game_puzzles(*task))
    return found, miner.stats


def mined_games(
    miner: Miner, tasks: Sequence[tuple[str, int, int]], workers: Workers | None = None
) -> Iterator[list[Puzzle]]:
    """The puzzles of each game ``(variant, seed, index)`` of ``tasks``, in their order,
    mined by ``miner`` in this process, or by ``workers`` mining as it would (its stats
    count theirs)."""
    if workers is None or (workers.jobs == 1 and workers.backend == "processes"):
        for task in tasks:
            yield list(miner.bot_game_puzzles(*task))
        return
    settings: MinerSettings = (miner.searched_per_game, miner.search_worlds, miner.probe_worlds)
    chunk = GAMES_PER_WORKER * workers.jobs
    with workers.running():
        for start in range(0, len(tasks), chunk):
            part = tasks[start : start + chunk]
            for found, stats in workers.map(mine_game, [settings] * len(part), part):
                miner.stats.add(stats)
                yield found
