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
_WIDTH = _CARDS + 4

# Where the cards of one action end up, by action kind (judgement.DESTINATIONS).
_KEEP = np.array([DESTINATIONS[kind][0] for kind in ACTIONS], dtype=np.int64)
_GIVE = np.array([DESTINATIONS[kind][1] for kind in ACTIONS], dtype=np.int64)
_OUT = np.array([DESTINATIONS[kind][2] for kind in ACTIONS], dtype=np.int64)
_OFFSET = max(CHARMS)  # a geisha's final difference never exceeds her copies
_SPREAD = 2 * _OFFSET + 1
_TIE = TIE_TOLERANCE
_LEAD = _OFFSET + 3  # beyond any lead or hand of one geisha, for the memory's shape


def _jit(function: Any) -> Any:
    # The GIL stays held: calls share one workspace (kernel_scores).
    return njit(cache=True)(function) if AVAILABLE else function


@_jit
def _popcount4(mask: int) -> int:
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)


@_jit
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


@_jit
def _card_fates(
    my_draws: int, mine_left: int, theirs_left: int, their_hand: int, tuning: Any
) -> tuple[float, float, float, float]:
    my_own, my_other = _fates(mine_left, tuning[2], tuning[3])
    their_own, their_other = _fates(theirs_left, tuning[2], tuning[3])
    used_by_them = 15 & ~theirs_left
    hidden = 1 + (1 if used_by_them & 1 else 0)
    hidden += 2 if used_by_them >> 1 & 1 else 0
    their_cards = their_hand + _popcount4(theirs_left)
    their_secret = 0 if theirs_left & 1 else 1
    unseen = my_draws + their_cards + hidden
    to_me = (my_draws * my_own + their_cards * their_other) / unseen
    to_them = (their_secret + their_cards * their_own + my_draws * my_other) / unseen
    return my_own, my_other, to_me, to_them


@_jit
def _owners(
    lead: int,
    hand: int,
    unseen: int,
    holder: int,
    fates: tuple[float, float, float, float],
) -> tuple[float, float, float]:
    """greedy._contest then greedy._owners."""
    spread = np.zeros(_SPREAD)
    spread[lead + _OFFSET] = 1.0
    nxt = np.zeros(_SPREAD)
    for stage in range(2):
        if stage == 0:
            count, up, down = hand, fates[0], fates[1]
        else:
            count, up, down = unseen, fates[2], fates[3]
        stay = 1.0 - up - down
        for _ in range(count):
            nxt[:] = 0.0
            for i in range(_SPREAD):
                p = spread[i]
                if p != 0.0:
                    nxt[i] += p * stay
                    if up != 0.0:
                        nxt[i + 1] += p * up
                    if down != 0.0:
                        nxt[i - 1] += p * down
            spread, nxt = nxt, spread
    ahead = 0.0
    for i in range(_OFFSET + 1, _SPREAD):
        ahead += spread[i]
    level = spread[_OFFSET]
    behind = max(0.0, 1.0 - ahead - level)
    if holder == 0:
        return ahead + level, behind, 0.0
    if holder == 1:
        return ahead, behind + level, 0.0
    return ahead, behind, level


@_jit
def _fold(
    geisha: int,
    source: int,
    n: int,
    target: int,
    chances: Any,
    step: Any,
    states: Any,
    probs: Any,
    index: Any,
) -> int:
    """greedy._fold of one geisha, from the spread in row ``source`` of the work arrays
    ``states`` and ``probs`` (its first ``n`` entries) into row ``target``; returns the
    new spread's size. Entries keep a dict's insertion order, so that the sums add up in
    greedy's order. ``index`` is -1 everywhere, and left so."""
    m = 0
    for owner in range(3):
        p_owner = chances[geisha, owner]
        if p_owner <= 0.0:
            continue
        for j in range(n):
            state = step[geisha, owner, states[source, j]]
            q = index[state]
            if q < 0:
                index[state] = m
                states[target, m] = state
                probs[target, m] = 0.0 + probs[source, j] * p_owner
                m += 1
            else:
                probs[target, q] = probs[target, q] + probs[source, j] * p_owner
    for j in range(m):
        index[states[target, j]] = -1
    return m


@_jit
def _fold_all(
    geishas: Any,
    lo: int,
    hi: int,
    source: int,
    n: int,
    depth: int,
    chances: Any,
    step: Any,
    states: Any,
    probs: Any,
    index: Any,
) -> tuple[int, int]:
    """greedy._fold of ``geishas[lo:hi]`` in turn, through the two rows of ``depth``;
    returns the row and size of the result."""
    for i in range(lo, hi):
        target = 2 * depth + (i - lo) % 2
        n = _fold(geishas[i], source, n, target, chances, step, states, probs, index)
        source = target
    return source, n


@_jit
def _leaf_worths(
    geisha: int, source: int, n: int, step: Any, finals: Any, states: Any, probs: Any, worths: Any
) -> None:
    """The end of greedy._geisha_worths: one geisha's worths once the others have ended as
    the spread in row ``source`` says."""
    mine = 0.0
    theirs = 0.0
    nobodys = 0.0
    for j in range(n):
        state = states[source, j]
        p = probs[source, j]
        mine += p * finals[step[geisha, 0, state]]
        theirs += p * finals[step[geisha, 1, state]]
        nobodys += p * finals[step[geisha, 2, state]]
    worths[geisha, 0] = mine
    worths[geisha, 1] = theirs
    worths[geisha, 2] = nobodys


@_jit
def _without_each(
    geishas: Any,
    count: int,
    source: int,
    chances: Any,
    step: Any,
    finals: Any,
    states: Any,
    probs: Any,
    index: Any,
    worths: Any,
) -> None:
    """greedy._without_each and greedy._geisha_worths: each of ``geishas[:count]``'s
    worths once all the others have ended (from the spread in row ``source``), written
    into ``worths``.

    greedy halves the group recursively; numba cannot cache recursive functions, so
    the recursion runs on an explicit stack, in the same order: a group folds one half
    into its level's rows for the other half, which is finished before the group folds
    the second half into the same rows.
    """
    # Frames: (stage, lo, hi, source row, spread size, depth); stage 0 starts a group,
    # stage 1 comes back to it for its second half.
    stack = np.empty((16, 6), dtype=np.int64)
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = count
    stack[0, 3] = source
    stack[0, 4] = 1
    stack[0, 5] = 0
    top = 1
    while top > 0:
        top -= 1
        stage, lo, hi, row, n, depth = stack[top]
        if hi - lo <= 1:
            if hi - lo == 1:
                _leaf_worths(geishas[lo], row, n, step, finals, states, probs, worths)
            continue
        half = (hi - lo) // 2
        if stage == 0:
            # Back to this group once the first half is done.
            stack[top, 0] = 1
            top += 1
            folded, m = _fold_all(
                geishas, lo + half, hi, row, n, depth, chances, step, states, probs, index
            )
            child_lo, child_hi = lo, lo + half
        else:
            folded, m = _fold_all(
                geishas, lo, lo + half, row, n, depth, chances, step, states, probs, index
            )
            child_lo, child_hi = lo + half, hi
        stack[top, 0] = 0
        stack[top, 1] = child_lo
        stack[top, 2] = child_hi
        stack[top, 3] = folded
        stack[top, 4] = m
        stack[top, 5] = depth + 1
        top += 1


@_jit
def _geisha_worths(
    chances: Any, finals: Any, step: Any, states: Any, probs: Any, index: Any
) -> Any:
    """greedy._geisha_worths, in the work arrays of :func:`workspace`."""
    settled = 0
    open_geishas = np.empty(7, dtype=np.int64)
    count = 0
    for geisha in range(7):
        owner = -1
        for o in range(3):
            if chances[geisha, o] >= 1.0 - _TIE:
                owner = o
                break
        if owner < 0:
            open_geishas[count] = geisha
            count += 1
        else:
            settled = step[geisha, owner, settled]
    worths = np.zeros((7, 3))
    start = states.shape[0] - 1
    states[start, 0] = settled
    probs[start, 0] = 1.0
    _without_each(open_geishas, count, start, chances, step, finals, states, probs, index, worths)
    return worths


_ROWS = 2 * 3 + 1
"""Two rows per level of halving 7 geishas (3 levels fold), and one for the start."""


def workspace(states: int) -> tuple[Any, Any, Any]:
    """Work arrays for a match of ``states`` states: spreads (states and chances), and an
    index from state to entry, -1 throughout."""
    return (
        np.zeros((_ROWS, states), dtype=np.int32),
        np.zeros((_ROWS, states)),
        np.full(states, -1, dtype=np.int32),
    )


@_jit
def _tally(move: Any) -> tuple[Any, Any, int]:
    """greedy._tally: each kind among the move's cards, ascending, with its copies."""
    kinds = np.empty(4, dtype=np.int64)
    copies = np.zeros(4, dtype=np.int64)
    n = 0
    seen = np.zeros(7, dtype=np.int64)
    for i in range(move[_COUNT]):
        seen[move[_CARDS + i]] += 1
    for kind in range(7):
        if seen[kind]:
            kinds[n] = kind
            copies[n] = seen[kind]
            n += 1
    return kinds, copies, n


# The judge's position, as one integer array: per geisha the lead (this player's cards
# minus the opponent's, this player's Secret included), the copies in hand, the unseen
# copies and the holder of her marker (0 this player, 1 the opponent, 2 nobody); then the
# actions left to each (bitmasks), the opponent's hand size, and 1 if this player has
# drawn its turn's card already.
LEAD, HAND, UNSEEN, HOLDER = 0, 7, 14, 21
MINE_LEFT, THEIRS_LEFT, THEIR_HAND, DRAWN_NOW = 28, 29, 30, 31
POSITION_SIZE = 32


@_jit
def _worth(geisha: int, lead: int, hand: int, left: int, judged: Any) -> float:
    """greedy._Judge._worth; ``judged`` is the decision's context (see _scores)."""
    position, draws, tuning, worths, memo, slots = judged
    index = (geisha, lead + _LEAD, hand, slots[left])
    known = memo[index]
    if not np.isnan(known):
        return float(known)
    fates = _card_fates(draws[left], left, position[THEIRS_LEFT], position[THEIR_HAND], tuning)
    chance = _owners(lead, hand, position[UNSEEN + geisha], position[HOLDER + geisha], fates)
    worth = (
        chance[0] * worths[geisha, 0]
        + chance[1] * worths[geisha, 1]
        + chance[2] * worths[geisha, 2]
    )
    memo[index] = worth
    return float(worth)


@_jit
def _gain(geisha: int, lead_change: int, hand_change: int, left: int, judged: Any) -> float:
    """greedy._Judge._gain."""
    position = judged[0]
    lead = position[LEAD + geisha]
    hand = position[HAND + geisha]
    after = _worth(geisha, lead + lead_change, hand + hand_change, left, judged)
    return float(after - _worth(geisha, lead, hand, left, judged))


@_jit
def _chances(position: Any, pending: Any, answers: Any, draws: Any, tuning: Any) -> Any:
    """The first half of greedy._Judge.__init__: each geisha's chances to end with this
    player, the opponent or nobody."""
    mine_left = position[MINE_LEFT]
    fates = _card_fates(
        draws[mine_left], mine_left, position[THEIRS_LEFT], position[THEIR_HAND], tuning
    )
    chances = np.empty((7, 3))
    for k in range(7):
        chance = _owners(
            position[LEAD + k],
            position[HAND + k],
            position[UNSEEN + k],
            position[HOLDER + k],
            fates,
        )
        chances[k, 0] = chance[0]
        chances[k, 1] = chance[1]
        chances[k, 2] = chance[2]
    if pending[_KIND] < 0:
        return chances
    # greedy._Judge._average_answer: the geishas on offer stay open.
    offered = np.zeros(7, dtype=np.int64)
    for i in range(pending[_COUNT]):
        offered[pending[_CARDS + i]] += 1
    count = answers.shape[0]
    for geisha in range(7):
        if offered[geisha] == 0:
            continue
        total0 = 0.0
        total1 = 0.0
        total2 = 0.0
        for a in range(count):
            taken = 0
            for i in range(answers[a, _COUNT]):
                if answers[a, _CARDS + i] == geisha:
                    taken += 1
            kept = offered[geisha] - taken
            chance = _owners(
                position[LEAD + geisha] + taken - kept,
                position[HAND + geisha],
                position[UNSEEN + geisha],
                position[HOLDER + geisha],
                fates,
            )
            total0 += chance[0] / count
            total1 += chance[1] / count
            total2 += chance[2] / count
        chances[geisha, 0] = total0
        chances[geisha, 1] = total1
        chances[geisha, 2] = total2
    return chances


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
    mine_left = position[MINE_LEFT]
    draws = np.empty(16, dtype=np.int64)
    for mask in range(16):
        draws[mask] = _popcount4(mask) - (position[DRAWN_NOW] if mask == mine_left else 0)
    chances = _chances(position, pending, answers, draws, tuning)
    worths = _geisha_worths(chances, finals, step, work_states, work_probs, work_index)
    # Worths remembered by geisha, lead, hand and the actions left: this position's
    # (slot 0) or without one of its actions (slots 1-4).
    slots = np.zeros(16, dtype=np.int64)
    for action in range(4):
        if mine_left >> action & 1:
            slots[mine_left & ~(1 << action)] = action + 1
    memo = np.full((7, 2 * _LEAD + 1, _LEAD, 5), np.nan)
    judged = (position, draws, tuning, worths, memo, slots)
    totals = np.full(16, np.nan)
    offered_kinds, offered_copies, offered = _tally(pending)
    n = moves.shape[0]
    scores = np.empty(n)
    outcomes = np.empty(3)
    taken = np.zeros(7, dtype=np.int64)
    for index in range(n):
        move = moves[index]
        kind = move[_KIND]
        left = mine_left if kind >= 4 else mine_left & ~(1 << kind)
        total = totals[left]
        if np.isnan(total):
            worth_sum = 0.0
            for k in range(7):
                worth_sum += _worth(k, position[LEAD + k], position[HAND + k], left, judged)
            unused_sum = 0.0
            for action in range(4):
                if left >> action & 1:
                    unused_sum += tuning[4 + action]
            total = worth_sum + unused_sum
            totals[left] = total
        if kind >= 4:
            # A response: what it takes joins this player's side, the rest the offerer's.
            for j in range(offered):
                took = 0
                for i in range(move[_COUNT]):
                    if move[_CARDS + i] == offered_kinds[j]:
                        took += 1
                total += _gain(offered_kinds[j], 2 * took - offered_copies[j], 0, left, judged)
            scores[index] = total
            continue
        kinds, copies, m = _tally(move)
        if kind == 0:
            scores[index] = total + _gain(move[_CARDS], 1, -1, left, judged)
            continue
        if kind == 1:
            spent = 0.0
            for j in range(m):
                spent += _gain(kinds[j], 0, -copies[j], left, judged)
            scores[index] = total + spent
            continue
        # A Gift or Competition, judged by the opponent's possible answers: each distinct
        # card (ascending), or each distinct pair.
        answer_count = m if kind == 2 else 2
        if kind == 3 and move[_CARDS] == move[_CARDS + 2] and move[_CARDS + 1] == move[_CARDS + 3]:
            answer_count = 1
        for answer in range(answer_count):
            taken[:] = 0
            if kind == 2:
                taken[kinds[answer]] = 1
            else:
                taken[move[_CARDS + 2 * answer]] += 1
                taken[move[_CARDS + 2 * answer + 1]] += 1
            change = 0.0
            for j in range(m):
                change += _gain(kinds[j], copies[j] - 2 * taken[kinds[j]], -copies[j], left, judged)
            outcomes[answer] = total + change
        worst = outcomes[0]
        for j in range(1, answer_count):
            worst = min(worst, outcomes[j])
        summed = 0.0
        for j in range(answer_count):
            summed += outcomes[j]
        scores[index] = worst + tuning[1] * (summed / answer_count - worst)
    return scores


def encode_move(move: Move) -> list[int]:
    """One row of :func:`encode_moves`."""
    cards = [c for pair in move.pairs for c in pair] if move.pairs else list(move.cards)
    return [int(move.kind), len(cards), *cards, *([_NONE] * (4 - len(cards)))]


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
