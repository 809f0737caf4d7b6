"""What the end of a round is worth for the match, as the judge counts it.

A match state is both players' charm and geishas (11 charm and 4 geishas are as far as
counting needs to go); :data:`STEP` moves a state on as one geisha's marker ends with a
player or with nobody, :func:`final_values` says what each state is worth once the round
is over (a won or lost match, or the standing an unfinished one leaves), and
:func:`cached_worths` turns each geisha's chances into what her ending each way is worth,
the others ending as their chances say.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from hanamikoji.bots.judge.position import ME, NOBODY, THEM, TIE_TOLERANCE
from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.outcome import WIN_CHARM, WIN_GEISHAS
from hanamikoji.core.variants import Tiebreak, Variant
from hanamikoji.core.view import View

__all__ = ["STATES", "STEP", "cached_worths", "final_values", "match_end"]

_CHARM_STATES = WIN_CHARM + 1
_COUNT_STATES = WIN_GEISHAS + 1
STATES = (_CHARM_STATES * _COUNT_STATES) ** 2
"""The number of match states."""


def _state(my_charm: int, my_count: int, their_charm: int, their_count: int) -> int:
    # 11 charm wins whatever else happens (both sides cannot reach it): one state each.
    if my_charm >= WIN_CHARM:
        my_count, their_charm, their_count = 0, 0, 0
    elif their_charm >= WIN_CHARM:
        my_charm, my_count, their_count = 0, 0, 0
    mine = min(my_charm, WIN_CHARM) * _COUNT_STATES + min(my_count, WIN_GEISHAS)
    theirs = min(their_charm, WIN_CHARM) * _COUNT_STATES + min(their_count, WIN_GEISHAS)
    return mine * _CHARM_STATES * _COUNT_STATES + theirs


def _unstate(state: int) -> tuple[int, int, int, int]:
    mine, theirs = divmod(state, _CHARM_STATES * _COUNT_STATES)
    my_charm, my_count = divmod(mine, _COUNT_STATES)
    their_charm, their_count = divmod(theirs, _COUNT_STATES)
    return my_charm, my_count, their_charm, their_count


def _step_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``table[geisha][owner][state]``: the match state once ``owner`` holds ``geisha``."""
    table = []
    for geisha in range(ITEM_COUNT):
        charm = CHARMS[geisha]
        rows = []
        for owner in (ME, THEM, NOBODY):
            row = []
            for state in range(STATES):
                mc, mn, tc, tn = _unstate(state)
                if owner == ME:
                    mc, mn = mc + charm, mn + 1
                elif owner == THEM:
                    tc, tn = tc + charm, tn + 1
                row.append(_state(mc, mn, tc, tn))
            rows.append(tuple(row))
        table.append(tuple(rows))
    return tuple(table)


STEP = _step_table()
"""``STEP[geisha][owner][state]``: the match state once ``owner`` holds ``geisha``."""


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@cache
def final_values(last_round: bool, tiebreak: Tiebreak, future_weight: float) -> tuple[float, ...]:
    """The worth of each end-of-round state for the bot: 1 won, -1 lost, in between for a
    match that goes on (by the standing it leaves) or ends in a draw."""
    values = []
    for state in range(STATES):
        mc, mn, tc, tn = _unstate(state)
        if mc >= WIN_CHARM:
            value = 1.0
        elif tc >= WIN_CHARM:
            value = -1.0
        elif mn >= WIN_GEISHAS:
            value = 1.0
        elif tn >= WIN_GEISHAS:
            value = -1.0
        elif not last_round:
            # Markers stay: every one held is a head start (and wins ties) next round.
            standing = (mc - tc) / WIN_CHARM + (mn - tn) / WIN_GEISHAS
            value = future_weight * standing / 2
        elif tiebreak == Tiebreak.GEISHAS_THEN_CHARM:
            value = float(_sign(mn - tn) or _sign(mc - tc))
        elif tiebreak == Tiebreak.CHARM:
            value = float(_sign(mc - tc))
        else:
            value = 0.0
        values.append(value)
    return tuple(values)


def _geisha_worths(
    chances: Sequence[tuple[float, float, float]], finals: Sequence[float]
) -> list[tuple[float, float, float]]:
    """For each geisha, the match's expected worth if she ends with the bot, with the
    opponent, or neutral, the others ending as ``chances`` say.

    Judging every decision by these (a first-order view of the match) keeps the match
    arithmetic out of the per-decision loop.
    """
    settled = 0
    open_geishas: list[int] = []
    for geisha, chance in enumerate(chances):
        owner = _certain_owner(chance)
        if owner is None:
            open_geishas.append(geisha)
        else:
            settled = STEP[geisha][owner][settled]
    others = _without_each(open_geishas, chances, {settled: 1.0})
    # A geisha nothing can change keeps equal worths: they cancel out of every comparison.
    worths = [(0.0, 0.0, 0.0)] * ITEM_COUNT
    for geisha, spread in others.items():
        to_me, to_them, to_nobody = STEP[geisha]
        mine = theirs = nobodys = 0.0
        for state, p in spread.items():
            mine += p * finals[to_me[state]]
            theirs += p * finals[to_them[state]]
            nobodys += p * finals[to_nobody[state]]
        worths[geisha] = (mine, theirs, nobodys)
    return worths


@lru_cache(maxsize=1 << 14)
def cached_worths(
    chances: tuple[tuple[float, float, float], ...],
    last_round: bool,
    tiebreak: Tiebreak,
    future_weight: float,
) -> tuple[tuple[float, float, float], ...]:
    """:func:`_geisha_worths`, remembered: the same chances recur across the positions a
    search judges (about a third of its judgements)."""
    finals = final_values(last_round, tiebreak, future_weight)
    return tuple(_geisha_worths(chances, finals))


def _fold(
    spread: dict[int, float], geishas: Sequence[int], chances: Sequence[tuple[float, ...]]
) -> dict[int, float]:
    """The match states once ``geishas`` end as ``chances`` say, from ``spread``."""
    for geisha in geishas:
        steps = STEP[geisha]
        nxt: dict[int, float] = {}
        get = nxt.get
        for owner, p_owner in enumerate(chances[geisha]):
            if p_owner <= 0.0:
                continue
            step = steps[owner]
            for state, p in spread.items():
                target = step[state]
                nxt[target] = get(target, 0.0) + p * p_owner
        spread = nxt
    return spread


def _without_each(
    geishas: Sequence[int], chances: Sequence[tuple[float, ...]], spread: dict[int, float]
) -> dict[int, dict[int, float]]:
    """For each of ``geishas``, the match states once all the others have ended.

    Halving the group each time folds every geisha about log2(n) times instead of n - 1.
    """
    if len(geishas) <= 1:
        return {geisha: spread for geisha in geishas}
    half = len(geishas) // 2
    left, right = geishas[:half], geishas[half:]
    found = _without_each(left, chances, _fold(spread, right, chances))
    found.update(_without_each(right, chances, _fold(spread, left, chances)))
    return found


def _certain_owner(chance: tuple[float, float, float]) -> int | None:
    for owner, p in enumerate(chance):
        if p >= 1.0 - TIE_TOLERANCE:
            return owner
    return None


def match_end(variant: Variant, view: View) -> tuple[bool, Tiebreak]:
    """Whether ``view``'s round is the match's last, and how a draw is broken."""
    last = variant.max_rounds is not None and view.round >= variant.max_rounds
    return last, variant.tiebreak
