"""Offline tooling that builds the bots' data: the learned policy and value trained by
expert iteration (``python -m hanamikoji.training``; :mod:`~hanamikoji.training.driver`)
and the match-value table (``python -m hanamikoji.training.build_match_table``).

The bots read what these write (``bots/data/``); no bot imports this package.
"""

from __future__ import annotations

from hanamikoji.training.gating import Match, gate, play_pairs
from hanamikoji.training.log import log_table, write_log
from hanamikoji.training.optimiser import TrainingResult, train
from hanamikoji.training.samples import Samples
from hanamikoji.training.selfplay import collect, earlier_samples, search_games

__all__ = [
    "Match",
    "Samples",
    "TrainingResult",
    "collect",
    "earlier_samples",
    "gate",
    "log_table",
    "play_pairs",
    "search_games",
    "train",
    "write_log",
]
