"""Match-win probability by favor-marker board, starting player and rounds left.

Favor markers carry over between rounds, so the end of a round is worth the chance of
winning the match from the board it leaves. This table gives that chance for every
board (3^7: each geisha neutral or on a side), for whoever starts the next round, and
for the rounds a variant still allows.

It is built by backward induction (value iteration for the unlimited ``classic``):
the distribution of one round's per-geisha results (the starter wins her, the other
player wins her, or a tie leaves her marker) is sampled from self-play rounds, and
the match value of each board is solved exactly under that distribution
(:mod:`hanamikoji.training.build_match_table`, which rebuilds it with
``.venv/bin/python -m hanamikoji.training.build_match_table``; about a minute). The table is
stored quantized to 16 bits in ``data/match_table.json``.
"""

from __future__ import annotations

import base64
import json
import struct
from functools import cache
from importlib import resources
from typing import Any

from hanamikoji.core.cards import ITEM_COUNT
from hanamikoji.core.variants import VARIANTS, Variant

__all__ = ["BOARDS", "MatchTable", "board_index", "load_table", "table_key", "table_match_value"]

BOARDS = 3**ITEM_COUNT
DATA_FILE = "match_table.json"
FORMAT = "hanamikoji-match-table"


def board_index(favor: tuple[int | None, ...]) -> int:
    """Base-3 index of a board: digit 0 neutral, 1 seat 0, 2 seat 1 (Ayane lowest)."""
    index = 0
    for owner in reversed(favor):
        index = index * 3 + (0 if owner is None else owner + 1)
    return index


class MatchTable:
    """Seat 0's chance to win from a board before a round, by starter and rounds left.

    ``rounds_left`` is ``None`` for a variant without a round limit.
    """

    def __init__(self, values: dict[str, list[int]], meta: dict[str, Any]) -> None:
        self._values = values
        self.meta = meta

    def seat0_wins(
        self, variant: Variant, index: int, starter: int, rounds_left: int | None
    ) -> float:
        key = table_key(
            variant.family, starter, rounds_left if variant.max_rounds is not None else None
        )
        return self._values[key][index] / 65535.0

    def value(
        self,
        favor: tuple[int | None, ...],
        seat: int,
        next_starter: int,
        next_round: int,
        variant: Variant,
    ) -> float:
        """``seat``'s chance to win the match when round ``next_round`` is about to start."""
        left = None
        if variant.max_rounds is not None:
            left = variant.max_rounds - next_round + 1
            if (
                variant.family not in VARIANTS
                or variant.max_rounds != VARIANTS[variant.family].max_rounds
            ):
                left = min(left, 3)
        p0 = self.seat0_wins(variant, board_index(favor), next_starter, left)
        return p0 if seat == 0 else 1.0 - p0


def table_key(family: str, starter: int, rounds_left: int | None) -> str:
    return f"{family}/starter={starter}/left={'inf' if rounds_left is None else rounds_left}"


@cache
def load_table() -> MatchTable:
    """The committed table."""
    text = resources.files("hanamikoji.bots").joinpath("data", DATA_FILE).read_text("utf-8")
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"{DATA_FILE} is not a {FORMAT} file")
    values = {
        key: list(struct.unpack(f"<{BOARDS}H", base64.b64decode(blob)))
        for key, blob in data["tables"].items()
    }
    return MatchTable(values, data["meta"])


def table_match_value(
    favor: tuple[int | None, ...], seat: int, next_starter: int, next_round: int, variant: Variant
) -> float:
    """:data:`~hanamikoji.bots.evaluation.MatchValue` from the committed table."""
    return load_table().value(favor, seat, next_starter, next_round, variant)
