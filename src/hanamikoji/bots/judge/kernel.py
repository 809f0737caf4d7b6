"""The judge compiled with numba: the same scores as
:mod:`hanamikoji.bots.judge.reference`, bit for bit, many times faster.

Search spends most of its time asking the judge to rank decisions (in playouts, at the
opponent's nodes and in inference), so the judge is the kernel worth compiling. The
Python judge in :mod:`hanamikoji.bots.judge.reference` stays the readable reference:
every function here and in :mod:`hanamikoji.bots.judge.kernel_worths` follows one of its
functions, with the floating-point operations in the
same order, and ``tests/test_judge_kernel.py`` holds the two to equal scores.

numba comes with the ``fast`` and ``web`` extras (``pip install 'hanamikoji[fast]'``);
where it cannot be imported, the bots judge in Python, with the same scores and about a
fifth of the speed (:data:`AVAILABLE` says which). This module is the compiled
judge's public face: what the bots (through :mod:`hanamikoji.bots.judge.compiled`) and
the compiled engine (:mod:`hanamikoji.kernel.policies`) call, with the layouts of
:mod:`hanamikoji.bots.judge.kernel_layout` they need.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hanamikoji.bots.judge.kernel_layout import (
    AVAILABLE,
    CARDS,
    COPIES,
    COUNT,
    DRAWN_NOW,
    EVERY_GEISHA,
    FATES,
    GAIN_STAMPS,
    GAINS,
    HAND,
    HANDS,
    HOLDER,
    KIND,
    KINDS,
    KINDS_COUNT,
    LEAD,
    LEADS,
    MEMO,
    MINE_LEFT,
    NONE,
    OFFSET,
    POSITION_SIZE,
    SCRATCH,
    SLOTS,
    STAMP,
    THEIR_HAND,
    THEIRS_LEFT,
    TOTALS,
    UNSEEN,
    WIDTH,
    WORTHS,
    bare,
    encode_move,
    inline,
    jit,
    pack_position,
    workspace,
)
from hanamikoji.bots.judge.kernel_worths import (
    card_fates,
    chances,
    geisha_worths,
    owners,
    popcount4,
)
from hanamikoji.bots.judge.position import JudgedPosition
from hanamikoji.core.cards import ITEM_COUNT
from hanamikoji.core.moves import Move

__all__ = [
    "AVAILABLE",
    "DRAWN_NOW",
    "HAND",
    "HOLDER",
    "LEAD",
    "MINE_LEFT",
    "POSITION_SIZE",
    "THEIRS_LEFT",
    "THEIR_HAND",
    "UNSEEN",
    "encode_move",
    "encode_moves",
    "kernel_scores",
    "response_gains",
    "scores_of_ids",
    "workspace",
]


@inline
def _worth(
    geisha: int, lead: int, hand: int, slot: int, position: Any, floats: Any, ints: Any
) -> float:
    """ReferenceJudge._worth, remembered in the scratch row (stamped by the judgement)."""
    # Unsigned indices: numba checks signed ones for negative values (to count from the end).
    at = np.uint64(((slot * ITEM_COUNT + geisha) * LEADS + lead + OFFSET) * HANDS + hand)
    if ints[at] == ints[STAMP]:
        return float(floats[at])
    chance = owners(lead, hand, position[UNSEEN + geisha], position[HOLDER + geisha], slot, floats)
    weights = WORTHS + 3 * geisha
    worth = (
        chance[0] * floats[weights]
        + chance[1] * floats[weights + 1]
        + chance[2] * floats[weights + 2]
    )
    floats[at] = worth
    ints[at] = ints[STAMP]
    return float(worth)


@inline
def _gain(
    geisha: int,
    lead_change: int,
    hand_change: int,
    slot: int,
    position: Any,
    floats: Any,
    ints: Any,
) -> float:
    """reference.ReferenceJudge._gain, remembered as :func:`_worth` is."""
    at = ((slot * ITEM_COUNT + geisha) * LEADS + lead_change + OFFSET) * HANDS
    at += hand_change + OFFSET
    if ints[np.uint64(GAIN_STAMPS + at)] == ints[STAMP]:
        return float(floats[np.uint64(GAINS + at)])
    lead = position[LEAD + geisha]
    hand = position[HAND + geisha]
    after = _worth(geisha, lead + lead_change, hand + hand_change, slot, position, floats, ints)
    gain = after - _worth(geisha, lead, hand, slot, position, floats, ints)
    floats[np.uint64(GAINS + at)] = gain
    ints[np.uint64(GAIN_STAMPS + at)] = ints[STAMP]
    return float(gain)


@inline
def _total(slot: int, left: int, position: Any, tuning: Any, floats: Any, ints: Any) -> float:
    """reference.ReferenceJudge._total with the actions ``left`` of ``slot``."""
    total = floats[TOTALS + slot]
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
        floats[TOTALS + slot] = total
    return float(total)


@jit
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
    """reference.ReferenceJudge and its score of each of ``moves`` (encoded)."""
    scores = np.empty(moves.shape[0])
    ids = np.arange(max(moves.shape[0], answers.shape[0]))
    _judge(
        position,
        pending,
        pending[KIND] >= 0,
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


@bare
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


@inline
def _begin(position: Any, tuning: Any, slots: int, floats: Any, ints: Any) -> None:
    """A new judgement: the memory's worths of earlier ones no longer count; the card
    fates of the first ``slots`` slots."""
    if ints[STAMP] >= 2**31 - 2:
        ints[:MEMO] = 0
        ints[GAIN_STAMPS : GAIN_STAMPS + MEMO] = 0
        ints[STAMP] = 0
    ints[STAMP] += 1
    mine_left = position[MINE_LEFT]
    for slot in range(slots):
        floats[TOTALS + slot] = np.nan
        left = mine_left if slot == 0 else mine_left & ~(1 << (slot - 1))
        if slot == 0 or left != mine_left:
            draws = popcount4(left) - (position[DRAWN_NOW] if slot == 0 else 0)
            card_fates(
                draws,
                left,
                position[THEIRS_LEFT],
                position[THEIR_HAND],
                tuning,
                floats,
                FATES + 4 * slot,
            )


@bare
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
    floats = work_probs[SCRATCH]
    ints = work_states[SCRATCH]
    _begin(position, tuning, 1, floats, ints)
    chances(position, pending, True, answers, answer_ids, floats, ints)
    needed = 0
    for i in range(pending[COUNT]):
        needed |= 1 << pending[CARDS + i]
    geisha_worths(finals, step, work_states, work_probs, work_index, needed)
    for index in range(answer_ids.shape[0]):
        move = answers[answer_ids[index]]
        gain = 0.0
        for geisha in range(7):
            if not needed >> geisha & 1:
                continue
            on_offer = 0
            for i in range(pending[COUNT]):
                if pending[CARDS + i] == geisha:
                    on_offer += 1
            took = 0
            for i in range(move[COUNT]):
                if move[CARDS + i] == geisha:
                    took += 1
            gain += _gain(geisha, 2 * took - on_offer, 0, 0, position, floats, ints)
        gains[index] = gain


@bare
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
    floats = work_probs[SCRATCH]
    ints = work_states[SCRATCH]
    _begin(position, tuning, SLOTS, floats, ints)
    mine_left = position[MINE_LEFT]
    chances(position, pending, offered, answers, answer_ids, floats, ints)
    geisha_worths(finals, step, work_states, work_probs, work_index, EVERY_GEISHA)
    for index in range(move_ids.shape[0]):
        move = moves[move_ids[index]]
        kind = move[KIND]
        count = move[COUNT]
        if kind >= 4:
            # A response: what it takes joins this player's side, the rest the offerer's.
            total = _total(0, mine_left, position, tuning, floats, ints)
            for geisha in range(7):
                on_offer = 0
                for i in range(pending[COUNT]):
                    if pending[CARDS + i] == geisha:
                        on_offer += 1
                if on_offer == 0:
                    continue
                took = 0
                for i in range(count):
                    if move[CARDS + i] == geisha:
                        took += 1
                total += _gain(geisha, 2 * took - on_offer, 0, 0, position, floats, ints)
            scores[index] = total
            continue
        slot = kind + 1
        total = _total(slot, mine_left & ~(1 << kind), position, tuning, floats, ints)
        if kind == 0:
            scores[index] = total + _gain(move[CARDS], 1, -1, slot, position, floats, ints)
            continue
        kinds = move[KINDS_COUNT]
        if kind == 1:
            spent = 0.0
            for j in range(kinds):
                spent += _gain(move[KINDS + j], 0, -move[COPIES + j], slot, position, floats, ints)
            scores[index] = total + spent
            continue
        # A Gift or Competition, judged by the opponent's possible answers: each distinct
        # card (ascending), or each distinct pair.
        if kind == 2:
            answer_count = kinds
        elif move[CARDS] == move[CARDS + 2] and move[CARDS + 1] == move[CARDS + 3]:
            answer_count = 1
        else:
            answer_count = 2
        worst = 0.0
        summed = 0.0
        for a in range(answer_count):
            if kind == 2:
                first, second = move[KINDS + a], -1
            else:
                first, second = move[CARDS + 2 * a], move[CARDS + 2 * a + 1]
            change = 0.0
            for j in range(kinds):
                k = move[KINDS + j]
                copies = move[COPIES + j]
                taken = (1 if first == k else 0) + (1 if second == k else 0)
                change += _gain(k, copies - 2 * taken, -copies, slot, position, floats, ints)
            outcome = total + change
            worst = outcome if a == 0 else min(worst, outcome)
            summed += outcome
        scores[index] = worst + tuning[1] * (summed / answer_count - worst)


_ENCODED: dict[int, tuple[Sequence[Move], Any]] = {}


def encode_moves(moves: Sequence[Move]) -> Any:
    """``moves`` as an integer array the kernel reads (a row per move: its kind, its
    number of cards, its cards), remembered for the shared tuples the move generator
    returns."""
    known = _ENCODED.get(id(moves))
    if known is not None and known[0] is moves:
        return known[1]
    encoded = np.array([encode_move(move) for move in moves], dtype=np.int64).reshape(-1, WIDTH)
    if isinstance(moves, tuple):
        _ENCODED[id(moves)] = (moves, encoded)
    return encoded


_NO_MOVE = np.full(WIDTH, NONE, dtype=np.int64)
_NO_ANSWERS = np.zeros((0, WIDTH), dtype=np.int64)


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
