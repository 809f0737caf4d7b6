"""The compiled judge's first half: each geisha's chances to end with a player or with
nobody, and what her ending each way is worth for the match (the reference's
``ReferenceJudge.__init__`` and :mod:`hanamikoji.bots.judge.match`, compiled).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hanamikoji.bots.judge.kernel_layout import (
    CARDS,
    CHANCES,
    COUNT,
    COUNTS,
    EVERY_GEISHA,
    FATES,
    HAND,
    HOLDER,
    LEAD,
    OFFSET,
    OPEN,
    PADDED,
    SCRATCH,
    SPREAD,
    STACK,
    START,
    UNSEEN,
    WORTHS,
    bare,
    inline,
)
from hanamikoji.bots.judge.position import DESTINATIONS, TIE_TOLERANCE
from hanamikoji.core.moves import ACTIONS

__all__ = ["card_fates", "chances", "geisha_worths", "owners", "popcount4"]

# Where the cards of one action end up, by action kind (position.DESTINATIONS).
_KEEP = np.array([DESTINATIONS[kind][0] for kind in ACTIONS], dtype=np.int64)
_GIVE = np.array([DESTINATIONS[kind][1] for kind in ACTIONS], dtype=np.int64)
_OUT = np.array([DESTINATIONS[kind][2] for kind in ACTIONS], dtype=np.int64)


@inline
def popcount4(mask: int) -> int:
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)


@inline
def _fates(mask: int, giveaway: float, discard: float) -> tuple[float, float]:
    other = 0
    out = 0
    total = 0
    for kind in range(4):
        if mask >> kind & 1:
            other += _GIVE[kind]
            out += _OUT[kind]
            total += _KEEP[kind] + _GIVE[kind] + _OUT[kind]
    if total == 0:
        return 0.0, 0.0
    given = giveaway * other / total
    return 1.0 - given - discard * out / total, given


@inline
def card_fates(
    my_draws: int, mine_left: int, theirs_left: int, their_hand: int, tuning: Any, out: Any, at: int
) -> None:
    """reference._card_fates, written into ``out[at : at + 4]``."""
    my_own, my_other = _fates(mine_left, tuning[2], tuning[3])
    their_own, their_other = _fates(theirs_left, tuning[2], tuning[3])
    used_by_them = 15 & ~theirs_left
    hidden = 1 + (1 if used_by_them & 1 else 0)
    hidden += 2 if used_by_them >> 1 & 1 else 0
    their_cards = their_hand + popcount4(theirs_left)
    their_secret = 0 if theirs_left & 1 else 1
    unseen = my_draws + their_cards + hidden
    out[at] = my_own
    out[at + 1] = my_other
    out[at + 2] = (my_draws * my_own + their_cards * their_other) / unseen
    out[at + 3] = (their_secret + their_cards * their_own + my_draws * my_other) / unseen


@inline
def owners(
    lead: int, hand: int, unseen: int, holder: int, slot: int, floats: Any
) -> tuple[float, float, float]:
    """reference._contest then reference._owners, with the card fates of ``slot``.

    the reference moves the spread a card at a time into a new list: a new entry ``i`` adds the
    old ``i - 1`` going up, the old ``i`` staying and the old ``i + 1`` going down, in
    that order, to 0.0 (skipping zero terms, which change no sum: no partial sum is ever
    -0.0). Here the spread moves in place in the padded row of ``floats``, over the
    entries it can have reached, with the same additions in the same order."""
    fates = FATES + 4 * slot
    for i in range(PADDED, PADDED + SPREAD + 2):
        floats[i] = 0.0
    start = PADDED + 1 + OFFSET + lead
    floats[np.uint64(start)] = 1.0
    lo = start
    hi = start
    for stage in range(2):
        if stage == 0:
            count, up, down = hand, floats[fates], floats[fates + 1]
        else:
            count, up, down = unseen, floats[fates + 2], floats[fates + 3]
        stay = 1.0 - up - down
        for _ in range(count):
            lo = max(lo - 1, PADDED + 1)
            hi = min(hi + 1, PADDED + SPREAD)
            below = floats[np.uint64(lo - 1)]
            for i in range(lo, hi + 1):
                at = np.uint64(i)
                here = floats[at]
                floats[at] = ((0.0 + below * up) + here * stay) + floats[at + np.uint64(1)] * down
                below = here
    ahead = 0.0
    for i in range(PADDED + 2 + OFFSET, PADDED + 1 + SPREAD):
        ahead += floats[i]
    level = floats[PADDED + 1 + OFFSET]
    behind = max(0.0, 1.0 - ahead - level)
    if holder == 0:
        return ahead + level, behind, 0.0
    if holder == 1:
        return ahead, behind + level, 0.0
    return ahead, behind, level


@bare
def _fold(
    geisha: int,
    source: int,
    n: int,
    target: int,
    floats: Any,
    step: Any,
    states: Any,
    probs: Any,
    index: Any,
) -> int:
    """match._fold of one geisha, from the spread in row ``source`` of the work arrays
    ``states`` and ``probs`` (its first ``n`` entries) into row ``target``; returns the
    new spread's size. Entries keep a dict's insertion order, so that the sums add up in
    the reference's order. ``index`` maps a state to its entry: ``stamp + entry`` where
    ``stamp`` is this fold's number (its last entry) shifted left by 16, so that the
    entries of earlier folds read as negative and need no clearing."""
    m = 0
    counter = index.shape[0] - 1
    index[counter] += 1
    stamp = index[counter] << 16
    for owner in range(3):
        p_owner = floats[CHANCES + 3 * geisha + owner]
        if p_owner <= 0.0:
            continue
        steps = step[geisha, owner]
        for j in range(n):
            state = steps[np.uint32(states[source, j])]
            q = index[np.uint32(state)] - stamp
            if q < 0:
                index[state] = stamp + m
                states[target, m] = state
                probs[target, m] = 0.0 + probs[source, j] * p_owner
                m += 1
            else:
                probs[target, q] = probs[target, q] + probs[source, j] * p_owner
    return m


@bare
def _fold_all(
    lo: int,
    hi: int,
    source: int,
    n: int,
    depth: int,
    floats: Any,
    ints: Any,
    step: Any,
    states: Any,
    probs: Any,
    index: Any,
) -> tuple[int, int]:
    """match._fold of the open geishas ``lo`` to ``hi`` in turn, through the two rows
    of ``depth``; returns the row and size of the result."""
    for i in range(lo, hi):
        target = 2 * depth + (i - lo) % 2
        n = _fold(ints[OPEN + i], source, n, target, floats, step, states, probs, index)
        source = target
    return source, n


@bare
def _leaf_worths(
    geisha: int, source: int, n: int, step: Any, finals: Any, states: Any, probs: Any, floats: Any
) -> None:
    """The end of match._geisha_worths: one geisha's worths once the others have ended as
    the spread in row ``source`` says."""
    mine = 0.0
    theirs = 0.0
    nobodys = 0.0
    to_me = step[geisha, 0]
    to_them = step[geisha, 1]
    to_nobody = step[geisha, 2]
    for j in range(n):
        state = np.uint32(states[source, j])
        p = probs[source, j]
        mine += p * finals[np.uint32(to_me[state])]
        theirs += p * finals[np.uint32(to_them[state])]
        nobodys += p * finals[np.uint32(to_nobody[state])]
    floats[WORTHS + 3 * geisha] = mine
    floats[WORTHS + 3 * geisha + 1] = theirs
    floats[WORTHS + 3 * geisha + 2] = nobodys


@inline
def _wanted(lo: int, hi: int, ints: Any, needed: int) -> bool:
    """Whether one of the open geishas ``lo`` to ``hi`` is in the bitmask ``needed``."""
    found = 0
    for i in range(lo, hi):
        found |= needed >> ints[OPEN + i] & 1
    return found != 0


@inline
def _halving(
    count: int,
    finals: Any,
    step: Any,
    states: Any,
    probs: Any,
    index: Any,
    floats: Any,
    ints: Any,
    needed: int,
) -> None:
    """match._without_each and match._geisha_worths: each open geisha's worths once all
    the others have ended (from the spread in row START), written into the worths of
    ``floats``; only those of the geishas in the bitmask ``needed`` (the others' groups
    are not folded for), the same numbers. Inlined where ``needed`` is a constant
    (:func:`_without_each`: every geisha, without a test).

    the reference halves the group recursively; numba cannot cache recursive functions, so
    the recursion runs on an explicit stack, in the same order: a group folds one half
    into its level's rows for the other half, which is finished before the group folds
    the second half into the same rows.
    """
    # Frames of 6 integers: (stage, lo, hi, source row, spread size, depth); stage 0
    # starts a group, stage 1 comes back to it for its second half.
    ints[STACK] = 0
    ints[STACK + 1] = 0
    ints[STACK + 2] = count
    ints[STACK + 3] = START
    ints[STACK + 4] = 1
    ints[STACK + 5] = 0
    top = 1
    while top > 0:
        top -= 1
        frame = STACK + 6 * top
        stage = ints[frame]
        lo = ints[frame + 1]
        hi = ints[frame + 2]
        row = ints[frame + 3]
        n = ints[frame + 4]
        depth = ints[frame + 5]
        if hi - lo <= 1:
            if hi - lo == 1 and (needed == EVERY_GEISHA or needed >> ints[OPEN + lo] & 1):
                _leaf_worths(ints[OPEN + lo], row, n, step, finals, states, probs, floats)
            continue
        half = (hi - lo) // 2
        if stage == 0:
            # Back to this group once the first half is done.
            ints[frame] = 1
            top += 1
            child_lo, child_hi = lo, lo + half
            if needed != EVERY_GEISHA and not _wanted(child_lo, child_hi, ints, needed):
                continue
            folded, m = _fold_all(
                lo + half, hi, row, n, depth, floats, ints, step, states, probs, index
            )
        else:
            child_lo, child_hi = lo + half, hi
            if needed != EVERY_GEISHA and not _wanted(child_lo, child_hi, ints, needed):
                continue
            folded, m = _fold_all(
                lo, lo + half, row, n, depth, floats, ints, step, states, probs, index
            )
        frame = STACK + 6 * top
        ints[frame] = 0
        ints[frame + 1] = child_lo
        ints[frame + 2] = child_hi
        ints[frame + 3] = folded
        ints[frame + 4] = m
        ints[frame + 5] = depth + 1
        top += 1


@bare
def _without_each(
    count: int,
    finals: Any,
    step: Any,
    states: Any,
    probs: Any,
    index: Any,
    floats: Any,
    ints: Any,
) -> None:
    """:func:`_halving` of every geisha."""
    _halving(count, finals, step, states, probs, index, floats, ints, EVERY_GEISHA)


@bare
def _without_some(
    count: int,
    finals: Any,
    step: Any,
    states: Any,
    probs: Any,
    index: Any,
    floats: Any,
    ints: Any,
    needed: int,
) -> None:
    """:func:`_halving` of the geishas ``needed``."""
    _halving(count, finals, step, states, probs, index, floats, ints, needed)


@bare
def geisha_worths(finals: Any, step: Any, states: Any, probs: Any, index: Any, needed: int) -> None:
    """match._geisha_worths from the chances in the scratch row, into its worths (those
    of the geishas in the bitmask ``needed``; the others' stay 0)."""
    floats = probs[SCRATCH]
    ints = states[SCRATCH]
    settled = 0
    count = 0
    for geisha in range(7):
        owner = -1
        for o in range(3):
            if floats[CHANCES + 3 * geisha + o] >= 1.0 - TIE_TOLERANCE:
                owner = o
                break
        if owner < 0:
            ints[OPEN + count] = geisha
            count += 1
        else:
            settled = step[geisha, owner, settled]
        for o in range(3):
            floats[WORTHS + 3 * geisha + o] = 0.0
    states[START, 0] = settled
    probs[START, 0] = 1.0
    if needed == EVERY_GEISHA:
        _without_each(count, finals, step, states, probs, index, floats, ints)
    else:
        _without_some(count, finals, step, states, probs, index, floats, ints, needed)


@bare
def chances(
    position: Any,
    pending: Any,
    offered: bool,
    answers: Any,
    answer_ids: Any,
    floats: Any,
    ints: Any,
) -> None:
    """The first half of ReferenceJudge.__init__: each geisha's chances to end with this
    player, the opponent or nobody, into the chances of ``floats``."""
    for k in range(7):
        chance = owners(
            position[LEAD + k],
            position[HAND + k],
            position[UNSEEN + k],
            position[HOLDER + k],
            0,
            floats,
        )
        floats[CHANCES + 3 * k] = chance[0]
        floats[CHANCES + 3 * k + 1] = chance[1]
        floats[CHANCES + 3 * k + 2] = chance[2]
    if not offered:
        return
    # reference.ReferenceJudge._average_answer: the geishas on offer stay open.
    for geisha in range(7):
        ints[COUNTS + geisha] = 0
    for i in range(pending[COUNT]):
        ints[COUNTS + pending[CARDS + i]] += 1
    count = answer_ids.shape[0]
    for geisha in range(7):
        offered = ints[COUNTS + geisha]
        if offered == 0:
            continue
        total0 = 0.0
        total1 = 0.0
        total2 = 0.0
        for a in range(count):
            taken = 0
            answer = answer_ids[a]
            for i in range(answers[answer, COUNT]):
                if answers[answer, CARDS + i] == geisha:
                    taken += 1
            kept = offered - taken
            chance = owners(
                position[LEAD + geisha] + taken - kept,
                position[HAND + geisha],
                position[UNSEEN + geisha],
                position[HOLDER + geisha],
                0,
                floats,
            )
            total0 += chance[0] / count
            total1 += chance[1] / count
            total2 += chance[2] / count
        floats[CHANCES + 3 * geisha] = total0
        floats[CHANCES + 3 * geisha + 1] = total1
        floats[CHANCES + 3 * geisha + 2] = total2


# The judge's position, as one integer array: per geisha the lead (this player's cards
