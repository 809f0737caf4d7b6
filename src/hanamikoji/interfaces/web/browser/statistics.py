"""A player's statistics: their finished public games' results counted in all, by
variant, as first and as second player, and against each bot level (lichess's and Board
Game Arena's player pages), from the store's counted rows (``store.py``'s tallies).

>>> from hanamikoji.interfaces.web.browser.store import TallyRow
>>> stats = player_statistics("Ann", [
...     TallyRow("classic", 0, 0, None, "1-0", 3),
...     TallyRow("classic", 1, 0, 6, "1-0", 2),
...     TallyRow("french", 1, 1, None, "*", 1),
... ])
>>> stats.total.won, stats.total.lost, stats.total.aborted
(3, 2, 1)
>>> [(tally.variant, tally.won, tally.lost) for tally in stats.variants]
[('classic', 3, 2), ('french', 0, 0)]
>>> stats.first.won, stats.first.aborted, stats.second.lost
(3, 1, 2)
>>> [(tally.level, tally.lost) for tally in stats.bots]
[(6, 2)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.browser.store import TallyRow
from hanamikoji.interfaces.web.wire.browser_answers import (
    LevelTally,
    PlayerStatistics,
    Tally,
    VariantTally,
)
from hanamikoji.interfaces.web.wire.player_answers import Outcome

__all__ = ["outcome_of", "player_statistics"]


def outcome_of(seat: int, result: str | None) -> Outcome:
    """How a finished game ended from ``seat``'s side: ``won``, ``lost``, ``drawn``, or
    ``aborted`` when it has no result (``*``: a clock or a rated game's abort before
    each side had decided)."""
    if result == "1-0":
        return "won" if seat == 0 else "lost"
    if result == "0-1":
        return "won" if seat == 1 else "lost"
    return "drawn" if result == "1/2-1/2" else "aborted"


def player_statistics(name: str, rows: Iterable[TallyRow]) -> PlayerStatistics:
    """The statistics of the player ``name`` from their counted games."""
    total: Counter[Outcome] = Counter()
    variants: dict[str, Counter[Outcome]] = {}
    first: Counter[Outcome] = Counter()
    second: Counter[Outcome] = Counter()
    bots: dict[int, Counter[Outcome]] = {}
    for row in rows:
        outcome = outcome_of(row.seat, row.result)
        total[outcome] += row.games
        variants.setdefault(row.variant, Counter())[outcome] += row.games
        (first if row.seat == row.first_player else second)[outcome] += row.games
        if row.bot_level is not None:
            bots.setdefault(row.bot_level, Counter())[outcome] += row.games
    order = {name: index for index, name in enumerate(VARIANTS)}
    return PlayerStatistics(
        name=name,
        total=Tally(**_counts(total)),
        variants=tuple(
            VariantTally(variant=variant, **_counts(counted))
            for variant, counted in sorted(
                variants.items(), key=lambda item: (order.get(item[0], len(order)), item[0])
            )
        ),
        first=Tally(**_counts(first)),
        second=Tally(**_counts(second)),
        bots=tuple(
            LevelTally(level=level, **_counts(counted)) for level, counted in sorted(bots.items())
        ),
    )


def _counts(counted: Counter[Outcome]) -> dict[str, int]:
    return {outcome: counted[outcome] for outcome in ("won", "lost", "drawn", "aborted")}
