"""The difficulty levels' fixed Glicko ratings, per rules variant.

Rated games against a bot update only the person: the level's rating stays as
``benchmarks/bot_ratings.py`` fitted it from a round-robin of the levels (level 1
anchored at :data:`ANCHOR_RATING`), stored in ``data/ratings.json`` with the command,
date, machine and games behind it (``docs/strength.md``, "The levels' ratings"). The
deviation is the fit's standard error, relative to level 1, which has none. Each entry
names the levels it rated (their bots, options and budgets); a variant whose entry rated
another table of levels is not rated until the benchmark is run for it again.

>>> rating = bot_rating(1, "classic")
>>> rating.rating, rating.deviation
(1200.0, 0.0)
>>> bot_rating(8, "classic").rating > bot_rating(2, "classic").rating
True
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from hanamikoji.bots.levels import LEVELS

__all__ = [
    "ANCHOR_LEVEL",
    "ANCHOR_RATING",
    "DATA_FILE",
    "DATA_PATH",
    "BotRating",
    "bot_rating",
    "current_table",
    "rated_variants",
]

DATA_FILE = "ratings.json"
DATA_PATH = Path(__file__).with_name("data") / DATA_FILE
"""Where the benchmark writes the ratings (in a source checkout)."""

ANCHOR_LEVEL = 1
ANCHOR_RATING = 1200.0
"""Level 1 (uniformly random play) is the scale's fixed point: its strength depends on
no machine, load or change to the other bots. 1200 is 300 points below a new player's
1500, an expected score of 85% for them against it."""


@dataclass(frozen=True, slots=True)
class BotRating:
    """The fixed rating of difficulty level ``level`` in ``variant``."""

    level: int
    variant: str
    rating: float
    deviation: float


@functools.cache
def _data() -> dict[str, Any]:
    text = resources.files("hanamikoji.bots").joinpath("data", DATA_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def current_table() -> dict[str, str]:
    """The levels as the data file names them: each level's bot spec with its budget
    (:meth:`~hanamikoji.bots.levels.Level.budgeted_spec`), by level number."""
    return {str(number): level.budgeted_spec() for number, level in sorted(LEVELS.items())}


def _current(entry: dict[str, Any]) -> bool:
    """Whether ``entry`` rates the levels of today's table: the same bots, the same
    options, the same budgets (an entry fitted for another table rates other bots)."""
    return bool(entry.get("bots") == current_table())


def rated_variants() -> tuple[str, ...]:
    """The variants whose levels, as the table has them today, have been rated.

    >>> "classic" in rated_variants()
    True
    """
    return tuple(sorted(name for name, entry in _data()["variants"].items() if _current(entry)))


def bot_rating(level: int, variant: str = "classic") -> BotRating:
    """The fixed rating of difficulty ``level`` in ``variant``. Raises ``ValueError``
    for a level that does not exist and ``LookupError`` for a variant not rated, or
    rated for another table of levels (see :func:`rated_variants`): rated games against
    a bot are then refused in that variant, not rated against the wrong figures."""
    if level not in LEVELS:
        raise ValueError(f"difficulty levels are 1-{max(LEVELS)}, not {level}")
    entry = _data()["variants"].get(variant)
    if entry is None or not _current(entry):
        rated = ", ".join(rated_variants())
        why = "no ratings" if entry is None else "ratings of another table of levels only"
        raise LookupError(f"the levels have {why} in {variant!r} (rated: {rated})")
    fitted = entry["levels"][str(level)]
    return BotRating(level, variant, float(fitted["rating"]), float(fitted["deviation"]))
