"""The greedy judge compiled with numba: the same scores as :mod:`hanamikoji.bots.greedy`,
bit for bit, many times faster.

Search spends most of its time asking the judge to rank decisions (in playouts, at the
opponent's nodes and in inference), so the judge is the kernel worth compiling. The
Python judge in :mod:`hanamikoji.bots.greedy` stays the readable reference: every
function here follows one of its functions, with the floating-point operations in the
same order, and ``tests/test_judge_kernel.py`` holds the two to equal scores.

numba comes with the ``fast`` and ``web`` extras (``pip install 'hanamikoji[fast]'``);
where it cannot be imported, the bots judge in Python, with the same scores and about a
fifth of the speed (:data:`AVAILABLE` says which).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hanamikoji.bots.judgement import DESTINATIONS, TIE_TOLERANCE, JudgedPosition
from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.moves import ACTIONS, Move, MoveKind

try:
    from numba import njit
except ImportError:  # pragma: no cover - exercised where numba is missing
    AVAILABLE = False
else:
    AVAILABLE = True

__all__ = ["AVAILABLE", "encode_moves", "kernel_scores"]

_NONE = -1
# Columns of an encoded move: its kind, its number of cards, then its cards (sorted; a
# Competition's as its two pairs in order).
_KIND, _COUNT, _CARDS = 0, 1, 2
# Then its geishas (greedy._tally): how many, each (ascending) and her copies.
_KINDS_COUNT = _CARDS + 4
_KINDS = _KINDS_COUNT + 1
_COPIES = _KINDS + 4
_WIDTH = _COPIES + 4

# Where the cards of one action end up, by action kind (judgement.DESTINATIONS).
_KEEP = np.array([DESTINATIONS[kind][0] for kind in ACTIONS], dtype=np.int64)
_GIVE = np.array([DESTINATIONS[kind][1] for kind in ACTIONS], dtype=np.int64)
_OUT = np.array([DESTINATIONS[kind][2] for kind in ACTIONS], dtype=np.int64)
_OFFSET = max(CHARMS)  # a geisha's final difference never exceeds her copies
_SPREAD = 2 * _OFFSET + 1
_TIE = TIE_TOLERANCE
_ALL = (1 << ITEM_COUNT) - 1  # every geisha, as a bitmask

# The judgement's memory: a geisha's worth by the actions left (slot 0: this position's,
# slot 1 + a: without action a), the geisha, her lead (-5 to 5) and her copies in hand
# (0 to 5). Leads and hands never leave these ranges: a geisha's cards, committed or
# not, never outnumber her copies.
_SLOTS = 5
_LEADS = _SPREAD
_HANDS = _OFFSET + 1
_MEMO = _SLOTS * ITEM_COUNT * _LEADS * _HANDS

# The scratch row of the work arrays (see workspace). Its floats: the memory's worths,
# each slot's card fates, a spread (padded by a zero each side), each slot's total, each
# geisha's worths and chances. Its integers: the memory's stamps (the judgement that
# wrote each worth), the number of the current judgement, the open geishas, the stack of
# _without_each, a count by geisha, and a move's geishas with their copies.
_FATES = _MEMO
_PADDED = _FATES + 4 * _SLOTS
_TOTALS = _PADDED + _SPREAD + 2
_WORTHS = _TOTALS + _SLOTS
_CHANCES = _WORTHS + 3 * ITEM_COUNT
# Gains remembered as the worths are (greedy._Judge._gains), by slot, geisha, change of
# her lead (-5 to 5) and change of her copies in hand (-5 to 0), with their stamps.
_GAINS = _CHANCES + 3 * ITEM_COUNT
_FLOATS = _GAINS + _MEMO
_STAMP = _MEMO  # the current judgement's number
_OPEN = _STAMP + 1
_STACK = _OPEN + ITEM_COUNT
_STACK_DEPTH = 16
_COUNTS = _STACK + 6 * _STACK_DEPTH
_GAIN_STAMPS = _COUNTS + ITEM_COUNT
_INTS = _GAIN_STAMPS + _MEMO
_ROWS = 2 * 3 + 1
"""Two rows per level of halving 7 geishas (3 levels fold), and one for the start."""
_START = _ROWS - 1
_SCRATCH = _ROWS


def _jit(function: Any) -> Any:
    # The GIL stays held: calls share one workspace (kernel_scores).
    return njit(cache=True)(function) if AVAILABLE else function


def _bare(function: Any) -> Any:
    """A function that allocates nothing, compiled without reference counting (numba's
    ``_nrt=False``): the arrays it reads belong to its caller, and counting the
    references to them was most of the judge's time."""
    options: dict[str, Any] = {"cache": True, "_nrt": False}
    return njit(**options)(function) if AVAILABLE else function


def _inline(function: Any) -> Any:
    """A small function of the hot loops, inlined into its callers."""
    return njit(cache=True, inline="always")(function) if AVAILABLE else function


@_inline
def _popcount4(mask: int) -> int:
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)


@_inline
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


@_inline
def _card_fates(
    my_draws: int, mine_left: int, theirs_left: int, their_hand: int, tuning: Any, out: Any, at: int
) -> None:
    """greedy._card_fates, written into ``out[at : at + 4]``."""
    my_own, my_other = _fates(mine_left, tuning[2], tuning[3])
    their_own, their_other = _fates(theirs_left, tuning[2], tuning[3])
    used_by_them = 15 & ~theirs_left
    hidden = 1 + (1 if used_by_them & 1 else 0)
    hidden += 2 if used_by_them >> 1 & 1 else 0
    their_cards = their_hand + _popcount4(theirs_left)
    their_secret = 0 if theirs_left & 1 else 1
    unseen = my_draws + their_cards + hidden
    out[at] = my_own
    out[at + 1] = my_other
    out[at + 2] = (my_draws * my_own + their_cards * their_other) / unseen
    out[at + 3] = (their_secret + their_cards * their_own + my_draws * my_other) / unseen


@_inline
def _owners(
    lead: int, hand: int, unseen: int, holder: int, slot: int, floats: Any
) -> tuple[float, float, float]:
    """greedy._contest then greedy._owners, with the card fates of ``slot``.

    greedy moves the spread a card at a time into a new list: a new entry ``i`` adds the
    old ``i - 1`` going up, the old ``i`` staying and the old ``i + 1`` going down, in
    that order, to 0.0 (skipping zero terms, which change no sum: no partial sum is ever
    -0.0). Here the spread moves in place in the padded row of ``floats``, over the
    entries it can have reached, with the same additions in the same order."""
    fates = _FATES + 4 * slot
    for i in range(_PADDED, _PADDED + _SPREAD + 2):
        floats[i] = 0.0
    start = _PADDED + 1 + _OFFSET + lead
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
            lo = max(lo - 1, _PADDED + 1)
            hi = min(hi + 1, _PADDED + _SPREAD)
            below = floats[np.uint64(lo - 1)]
            for i in range(lo, hi + 1):
                at = np.uint64(i)
                here = floats[at]
                floats[at] = ((0.0 + below * up) + here * stay) + floats[at + np.uint64(1)] * down
                below = here
    ahead = 0.0
    for i in range(_PADDED + 2 + _OFFSET, _PADDED + 1 + _SPREAD):
        ahead += floats[i]
    level = floats[_PADDED + 1 + _OFFSET]
    behind = max(0.0, 1.0 - ahead - level)
    if holder == 0:
        return ahead + level, behind, 0.0
    if holder == 1:
        return ahead, behind + level, 0.0
    return ahead, behind, level


@_bare
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
    """greedy._fold of one geisha, from the spread in row ``source`` of the work arrays
    ``states`` and ``probs`` (its first ``n`` entries) into row ``target``; returns the
    new spread's size. Entries keep a dict's insertion order, so that the sums add up in
    greedy's order. ``index`` maps a state to its entry: ``stamp + entry`` where
    ``stamp`` is this fold's number (its last entry) shifted left by 16, so that the
    entries of earlier folds read as negative and need no clearing."""
    m = 0
    counter = index.shape[0] - 1
    index[counter] += 1
    stamp = index[counter] << 16
    for owner in range(3):
        p_owner = floats[_CHANCES + 3 * geisha + owner]
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


@_bare
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
    """greedy._fold of the open geishas ``lo`` to ``hi`` in turn, through the two rows
    of ``depth``; returns the row and size of the result."""
    for i in range(lo, hi):
        target = 2 * depth + (i - lo) % 2
        n = _fold(ints[_OPEN + i], source, n, target, floats, step, states, probs, index)
        source = target
    return source, n


@_bare
def _leaf_worths(
    geisha: int, source: int, n: int, step: Any, finals: Any, states: Any, probs: Any, floats: Any
) -> None:
    """The end of greedy._geisha_worths: one geisha's worths once the others have ended as
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
    floats[_WORTHS + 3 * geisha] = mine
    floats[_WORTHS + 3 * geisha + 1] = theirs
    floats[_WORTHS + 3 * geisha + 2] = nobodys


@_inline
def _wanted(lo: int, hi: int, ints: Any, needed: int) -> bool:
    """Whether one of the open geishas ``lo`` to ``hi`` is in the bitmask ``needed``."""
    found = 0
    for i in range(lo, hi):
        found |= needed >> ints[_OPEN + i] & 1
    return found != 0


@_inline
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
    """greedy._without_each and greedy._geisha_worths: each open geisha's worths once all
    the others have ended (from the spread in row _START), written into the worths of
    ``floats``; only those of the geishas in the bitmask ``needed`` (the others' groups
    are not folded for), the same numbers. Inlined where ``needed`` is a constant
    (:func:`_without_each`: every geisha, without a test).

    greedy halves the group recursively; numba cannot cache recursive functions, so
    the recursion runs on an explicit stack, in the same order: a group folds one half
    into its level's rows for the other half, which is finished before the group folds
    the second half into the same rows.
    """
    # Frames of 6 integers: (stage, lo, hi, source row, spread size, depth); stage 0
    # starts a group, stage 1 comes back to it for its second half.
    ints[_STACK] = 0
    ints[_STACK + 1] = 0
    ints[_STACK + 2] = count
    ints[_STACK + 3] = _START
    ints[_STACK + 4] = 1
    ints[_STACK + 5] = 0
    top = 1
    while top > 0:
        top -= 1
        frame = _STACK + 6 * top
        stage = ints[frame]
        lo = ints[frame + 1]
        hi = ints[frame + 2]
        row = ints[frame + 3]
        n = ints[frame + 4]
        depth = ints[frame + 5]
        if hi - lo <= 1:
            if hi - lo == 1 and (needed == _ALL or needed >> ints[_OPEN + lo] & 1):
                _leaf_worths(ints[_OPEN + lo], row, n, step, finals, states, probs, floats)
            continue
        half = (hi - lo) // 2
        if stage == 0:
            # Back to this group once the first half is done.
            ints[frame] = 1
            top += 1
            child_lo, child_hi = lo, lo + half
            if needed != _ALL and not _wanted(child_lo, child_hi, ints, needed):
                continue
            folded, m = _fold_all(
                lo + half, hi, row, n, depth, floats, ints, step, states, probs, index
            )
        else:
            child_lo, child_hi = lo + half, hi
            if needed != _ALL and not _wanted(child_lo, child_hi, ints, needed):
                continue
            folded, m = _fold_all(
                lo, lo + half, row, n, depth, floats, ints, step, states, probs, index
            )
        frame = _STACK + 6 * top
        ints[frame] = 0
        ints[frame + 1] = child_lo
        ints[frame + 2] = child_hi
        ints[frame + 3] = folded
        ints[frame + 4] = m
        ints[frame + 5] = depth + 1
        top += 1


@_bare
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
    _halving(count, finals, step, states, probs, index, floats, ints, _ALL)


@_bare
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


@_bare
def _geisha_worths(
    finals: Any, step: Any, states: Any, probs: Any, index: Any, needed: int
) -> None:
    """greedy._geisha_worths from the chances in the scratch row, into its worths (those
    of the geishas in the bitmask ``needed``; the others' stay 0)."""
    floats = probs[_SCRATCH]
    ints = states[_SCRATCH]
    settled = 0
    count = 0
    for geisha in range(7):
        owner = -1
        for o in range(3):
            if floats[_CHANCES + 3 * geisha + o] >= 1.0 - _TIE:
                owner = o
                break
        if owner < 0:
            ints[_OPEN + count] = geisha
            count += 1
        else:
            settled = step[geisha, owner, settled]
        for o in range(3):
            floats[_WORTHS + 3 * geisha + o] = 0.0
    states[_START, 0] = settled
    probs[_START, 0] = 1.0
    if needed == _ALL:
        _without_each(count, finals, step, states, probs, index, floats, ints)
    else:
        _without_some(count, finals, step, states, probs, index, floats, ints, needed)


def workspace(states: int) -> tuple[Any, Any, Any]:
    """Work arrays for a match of ``states`` states: spreads (states and chances) in rows
    0 to _START, the judgement's memory and scratch in row _SCRATCH, and an index from
    state to entry (see _fold) with the number of the last fold at its end."""
    width = max(states, _FLOATS, _INTS)
    return (
        np.zeros((_ROWS + 1, width), dtype=np.int32),
        np.zeros((_ROWS + 1, width)),
        np.zeros(states + 1, dtype=np.int64),
    )


@_bare
def _chances(
    position: Any,
    pending: Any,
    offered: bool,
    answers: Any,
    answer_ids: Any,
    floats: Any,
    ints: Any,
) -> None:
    """The first half of greedy._Judge.__init__: each geisha's chances to end with this
    player, the opponent or nobody, into the chances of ``floats``."""
    for k in range(7):
        chance = _owners(
            position[LEAD + k],
            position[HAND + k],
            position[UNSEEN + k],
            position[HOLDER + k],
            0,
            floats,
        )
        floats[_CHANCES + 3 * k] = chance[0]
        floats[_CHANCES + 3 * k + 1] = chance[1]
        floats[_CHANCES + 3 * k + 2] = chance[2]
    if not offered:
        return
    # greedy._Judge._average_answer: the geishas on offer stay open.
    for geisha in range(7):
        ints[_COUNTS + geisha] = 0
    for i in range(pending[_COUNT]):
        ints[_COUNTS + pending[_CARDS + i]] += 1
    count = answer_ids.shape[0]
    for geisha in range(7):
        offered = ints[_COUNTS + geisha]
        if offered == 0:
            continue
        total0 = 0.0
        total1 = 0.0
        total2 = 0.0
        for a in range(count):
            taken = 0
            answer = answer_ids[a]
            for i in range(answers[answer, _COUNT]):
                if answers[answer, _CARDS + i] == geisha:
                    taken += 1
            kept = offered - taken
            chance = _owners(
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
        floats[_CHANCES + 3 * geisha] = total0
        floats[_CHANCES + 3 * geisha + 1] = total1
        floats[_CHANCES + 3 * geisha + 2] = total2


# The judge's position, as one integer array: per geisha the lead (this player's cards
# minus the opponent's, this player's Secret included), the copies in hand, the unseen
# copies and the holder of her marker (0 this player, 1 the opponent, 2 nobody); then the
# actions left to each (bitmasks), the opponent's hand size, and 1 if this player has
# drawn its turn's card already.
LEAD, HAND, UNSEEN, HOLDER = 0, 7, 14, 21
MINE_LEFT, THEIRS_LEFT, THEIR_HAND, DRAWN_NOW = 28, 29, 30, 31
POSITION_SIZE = 32


@_inline
def _worth(
    geisha: int, lead: int, hand: int, slot: int, position: Any, floats: Any, ints: Any
) -> float:
    """greedy._Judge._worth, remembered in the scratch row (stamped by the judgement)."""
    # Unsigned indices: numba checks signed ones for negative values (to count from the end).
    at = np.uint64(((slot * ITEM_COUNT + geisha) * _LEADS + lead + _OFFSET) * _HANDS + hand)
    if ints[at] == ints[_STAMP]:
        return float(floats[at])
    chance = _owners(lead, hand, position[UNSEEN + geisha], position[HOLDER + geisha], slot, floats)
    weights = _WORTHS + 3 * geisha
    worth = (
        chance[0] * floats[weights]
        + chance[1] * floats[weights + 1]
        + chance[2] * floats[weights + 2]
    )
    floats[at] = worth
    ints[at] = ints[_STAMP]
    return float(worth)


@_inline
def _gain(
    geisha: int,
    lead_change: int,
    hand_change: int,
    slot: int,
    position: Any,
    floats: Any,
    ints: Any,
) -> float:
    """greedy._Judge._gain, remembered as :func:`_worth` is."""
    at = ((slot * ITEM_COUNT + geisha) * _LEADS + lead_change + _OFFSET) * _HANDS
    at += hand_change + _OFFSET
    if ints[np.uint64(_GAIN_STAMPS + at)] == ints[_STAMP]:
        return float(floats[np.uint64(_GAINS + at)])
    lead = position[LEAD + geisha]
    hand = position[HAND + geisha]
    after = _worth(geisha, lead + lead_change, hand + hand_change, slot, position, floats, ints)
    gain = after - _worth(geisha, lead, hand, slot, position, floats, ints)
    floats[np.uint64(_GAINS + at)] = gain
    ints[np.uint64(_GAIN_STAMPS + at)] = ints[_STAMP]
    return float(gain)


@_inline
def _total(slot: int, left: int, position: Any, tuning: Any, floats: Any, ints: Any) -> float:
    """greedy._Judge._total with the actions ``left`` of ``slot``."""
    total = floats[_TOTALS + slot]
    if np.isnan(total):
        worth_sum = 0.0
        for k in range(7):
            worth_sum += _worth(
                k, position[LEAD + k], position[HAND + k], slot, position, floats, ints
            )
        unused_sum = 0.0
        for action in range(4):
            if left >> action & 1:
                unused_sum += tuning[4 + action]
        total = worth_sum + unused_sum
        floats[_TOTALS + slot] = total
    return float(total)


@_jit
def _scores(
    position: Any,
    pending: Any,
    answers: Any,
    finals: Any,
    step: Any,
    tuning: Any,
    moves: Any,
    work_states: Any,
    work_probs: Any,
    work_index: Any,
) -> Any:
    """greedy._Judge and its score of each of ``moves`` (encoded)."""
    scores = np.empty(moves.shape[0])
    ids = np.arange(max(moves.shape[0], answers.shape[0]))
    _judge(
        position,
        pending,
        pending[_KIND] >= 0,
        answers,
        ids[: answers.shape[0]],
        finals,
        step,
        tuning,
        moves,
        ids[: moves.shape[0]],
        work_states,
        work_probs,
        work_index,
        scores,
    )
    return scores


@_bare
def scores_of_ids(
    position: Any,
    offer: int,
    answer_ids: Any,
    finals: Any,
    step: Any,
    tuning: Any,
    encoded: Any,
    ids: Any,
    work_states: Any,
    work_probs: Any,
    work_index: Any,
    scores: Any,
) -> None:
    """:func:`_scores` of the decisions ``ids``, rows of ``encoded`` (every decision as
    :func:`encode_move` writes it), after the offer ``offer`` (-1 if none) whose answers
    are the rows ``answer_ids``, into ``scores``: what the kernel asks, without gathering
    rows or allocating."""
    _judge(
        position,
        encoded[max(offer, 0)],
        offer >= 0,
        encoded,
        answer_ids,
        finals,
        step,
        tuning,
        encoded,
        ids,
        work_states,
        work_probs,
        work_index,
        scores,
    )


@_inline
def _begin(position: Any, tuning: Any, slots: int, floats: Any, ints: Any) -> None:
    """A new judgement: the memory's worths of earlier ones no longer count; the card
    fates of the first ``slots`` slots."""
    if ints[_STAMP] >= 2**31 - 2:
        ints[:_MEMO] = 0
        ints[_GAIN_STAMPS : _GAIN_STAMPS + _MEMO] = 0
        ints[_STAMP] = 0
    ints[_STAMP] += 1
    mine_left = position[MINE_LEFT]
    for slot in range(slots):
        floats[_TOTALS + slot] = np.nan
        left = mine_left if slot == 0 else mine_left & ~(1 << (slot - 1))
        if slot == 0 or left != mine_left:
            draws = _popcount4(left) - (position[DRAWN_NOW] if slot == 0 else 0)
            _card_fates(
                draws,
                left,
                position[THEIRS_LEFT],
                position[THEIR_HAND],
                tuning,
                floats,
                _FATES + 4 * slot,
            )


@_bare
def response_gains(
    position: Any,
    pending: Any,
    answers: Any,
    answer_ids: Any,
    finals: Any,
    step: Any,
    tuning: Any,
    work_states: Any,
    work_probs: Any,
    work_index: Any,
    gains: Any,
) -> None:
    """For the answers to the offer ``pending`` (the rows ``answer_ids`` of
    ``answers``), what _judge adds to the position's total in their scores: the sum of
    their gains, into ``gains``. The total is the same for every answer, and this needs
    the worths of the geishas on offer only (about half the folding). Scores differ from
    these gains plus one total by rounding only (a few units in the last place of the
    largest partial sum): enough to choose an answer when no two are near the tie
    tolerance."""
    floats = work_probs[_SCRATCH]
    ints = work_states[_SCRATCH]
    _begin(position, tuning, 1, floats, ints)
    _chances(position, pending, True, answers, answer_ids, floats, ints)
    needed = 0
    for i in range(pending[_COUNT]):
        needed |= 1 << pending[_CARDS + i]
    _geisha_worths(finals, step, work_states, work_probs, work_index, needed)
    for index in range(answer_ids.shape[0]):
        move = answers[answer_ids[index]]
        gain = 0.0
        for geisha in range(7):
            if not needed >> geisha & 1:
                continue
            on_offer = 0
            for i in range(pending[_COUNT]):
                if pending[_CARDS + i] == geisha:
                    on_offer += 1
            took = 0
            for i in range(move[_COUNT]):
                if move[_CARDS + i] == geisha:
                    took += 1
            gain += _gain(geisha, 2 * took - on_offer, 0, 0, position, floats, ints)
        gains[index] = gain


@_bare
def _judge(
    position: Any,
    pending: Any,
    offered: bool,
    answers: Any,
    answer_ids: Any,
    finals: Any,
    step: Any,
    tuning: Any,
    moves: Any,
    move_ids: Any,
    work_states: Any,
    work_probs: Any,
    work_index: Any,
    scores: Any,
) -> None:
    """_scores, into ``scores``: the pending offer (if ``offered``), its answers (the
    rows ``answer_ids`` of ``answers``) and the decisions to score (the rows
    ``move_ids`` of ``moves``)."""
    floats = work_probs[_SCRATCH]
    ints = work_states[_SCRATCH]
    _begin(position, tuning, _SLOTS, floats, ints)
    mine_left = position[MINE_LEFT]
    _chances(position, pending, offered, answers, answer_ids, floats, ints)
    _geisha_worths(finals, step, work_states, work_probs, work_index, _ALL)
    for index in range(move_ids.shape[0]):
        move = moves[move_ids[index]]
        kind = move[_KIND]
        count = move[_COUNT]
        if kind >= 4:
            # A response: what it takes joins this player's side, the rest the offerer's.
            total = _total(0, mine_left, position, tuning, floats, ints)
            for geisha in range(7):
                on_offer = 0
                for i in range(pending[_COUNT]):
                    if pending[_CARDS + i] == geisha:
                        on_offer += 1
                if on_offer == 0:
                    continue
                took = 0
                for i in range(count):
                    if move[_CARDS + i] == geisha:
                        took += 1
                total += _gain(geisha, 2 * took - on_offer, 0, 0, position, floats, ints)
            scores[index] = total
            continue
        slot = kind + 1
        total = _total(slot, mine_left & ~(1 << kind), position, tuning, floats, ints)
        if kind == 0:
            scores[index] = total + _gain(move[_CARDS], 1, -1, slot, position, floats, ints)
            continue
        kinds = move[_KINDS_COUNT]
        if kind == 1:
            spent = 0.0
            for j in range(kinds):
                spent += _gain(
                    move[_KINDS + j], 0, -move[_COPIES + j], slot, position, floats, ints
                )
            scores[index] = total + spent
            continue
        # A Gift or Competition, judged by the opponent's possible answers: each distinct
        # card (ascending), or each distinct pair.
        if kind == 2:
            answer_count = kinds
        elif move[_CARDS] == move[_CARDS + 2] and move[_CARDS + 1] == move[_CARDS + 3]:
            answer_count = 1
        else:
            answer_count = 2
        worst = 0.0
        summed = 0.0
        for a in range(answer_count):
            if kind == 2:
                first, second = move[_KINDS + a], -1
            else:
                first, second = move[_CARDS + 2 * a], move[_CARDS + 2 * a + 1]
            change = 0.0
            for j in range(kinds):
                k = move[_KINDS + j]
                copies = move[_COPIES + j]
                taken = (1 if first == k else 0) + (1 if second == k else 0)
                change += _gain(k, copies - 2 * taken, -copies, slot, position, floats, ints)
            outcome = total + change
            worst = outcome if a == 0 else min(worst, outcome)
            summed += outcome
        scores[index] = worst + tuning[1] * (summed / answer_count - worst)


def encode_move(move: Move) -> list[int]:
    """One row of :func:`encode_moves`."""
    cards = [c for pair in move.pairs for c in pair] if move.pairs else list(move.cards)
    kinds = sorted(set(cards))
    padding = 4 - len(kinds)
    return [
        int(move.kind),
        len(cards),
        *cards,
        *([_NONE] * (4 - len(cards))),
        len(kinds),
        *kinds,
        *([_NONE] * padding),
        *(cards.count(kind) for kind in kinds),
        *([0] * padding),
    ]


_ENCODED: dict[int, tuple[Sequence[Move], Any]] = {}


def encode_moves(moves: Sequence[Move]) -> Any:
    """``moves`` as an integer array the kernel reads (a row per move: its kind, its
    number of cards, its cards), remembered for the shared tuples the move generator
    returns."""
    known = _ENCODED.get(id(moves))
    if known is not None and known[0] is moves:
        return known[1]
    encoded = np.array([encode_move(move) for move in moves], dtype=np.int64).reshape(-1, _WIDTH)
    if isinstance(moves, tuple):
        _ENCODED[id(moves)] = (moves, encoded)
    return encoded


_NO_MOVE = np.full(_WIDTH, _NONE, dtype=np.int64)
_NO_ANSWERS = np.zeros((0, _WIDTH), dtype=np.int64)


def pack_position(position: JudgedPosition) -> Any:
    """``position`` laid out as the kernel reads it (LEAD, HAND, ... above)."""
    packed = np.empty(POSITION_SIZE, dtype=np.int64)
    packed[LEAD : LEAD + 7] = position.lead
    packed[HAND : HAND + 7] = position.hand
    packed[UNSEEN : UNSEEN + 7] = position.unseen
    packed[HOLDER : HOLDER + 7] = position.holder
    packed[MINE_LEFT] = position.mine_left
    packed[THEIRS_LEFT] = position.theirs_left
    packed[THEIR_HAND] = position.their_hand
    packed[DRAWN_NOW] = position.drawn_now
    return packed


def kernel_scores(
    position: JudgedPosition,
    pending: Move | None,
    answers: Sequence[Move],
    finals: Any,
    step: Any,
    tuning: Any,
    moves: Sequence[Move],
) -> Any:
    """The judge's score of each of ``moves`` (a float array in their order), from its
    ``position`` and the answers to a ``pending`` offer."""
    work = _WORKSPACES.get(len(finals))
    if work is None:
        work = _WORKSPACES[len(finals)] = workspace(len(finals))
    return _scores(
        pack_position(position),
        _NO_MOVE if pending is None else np.array(encode_move(pending), dtype=np.int64),
        encode_moves(answers) if pending is not None else _NO_ANSWERS,
        finals,
        step,
        tuning,
        encode_moves(moves),
        *work,
    )


_WORKSPACES: dict[int, tuple[Any, Any, Any]] = {}


assert ITEM_COUNT == 7 and tuple(ACTIONS) == tuple(MoveKind)[:4]
