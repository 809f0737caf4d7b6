"""The random and greedy policies, compiled, and the generators they draw from.

- The random policy chooses uniformly among the distinct legal decisions, drawing from a
  SplitMix64 stream per game (one ``uint64`` of state) with Lemire's bounded draw.
- The greedy policy is :class:`hanamikoji.bots.greedy.GreedyBot`: it scores the legal
  decisions with the compiled judge of :mod:`hanamikoji.bots.judge.kernel` (the same
  functions, not a second judge) and breaks ties as the bot does, with a Mersenne Twister
  that draws the numbers Python's ``random.Random(seed)`` draws. A greedy seat of the
  kernel therefore decides what ``GreedyBot(seed=...)`` decides in the same position.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from hanamikoji.bots.judge import NOBODY, TIE_TOLERANCE, Tuning, final_values, step_array
from hanamikoji.bots.judge import kernel as judge
from hanamikoji.kernel import rules as r
from hanamikoji.kernel import tables as t
from hanamikoji.kernel.encoding import NUM_ACTIONS, all_moves
from hanamikoji.kernel.rules import jit

__all__ = [
    "Judge",
    "TieBreaks",
    "judge_tables",
    "stream_states",
    "tie_breaks",
    "tie_draws",
]

# -- SplitMix64 streams -----------------------------------------------------------------------


@jit
def _stream_state(seed: Any, index: int) -> Any:
    return r.round_state(seed, index)


@jit
def _fill_streams(seed: Any, out: Any) -> None:
    for g in range(out.shape[0]):
        out[g] = _stream_state(seed, g)


def stream_states(seed: int, count: int) -> npt.NDArray[np.uint64]:
    """The random policy's generator state of ``count`` games: one SplitMix64 stream per
    game, derived from ``seed`` and the game's index as a round's deal is from a game's
    seed and the round number."""
    out = np.empty(count, dtype=np.uint64)
    _fill_streams(np.uint64(seed), out)
    return out


@jit
def below(states: Any, g: int, bound: int) -> int:
    """A uniform integer in ``range(bound)`` from game ``g``'s stream (Lemire's method)."""
    n = np.uint64(bound)
    while True:
        states[g] = states[g] + t.GAMMA
        z = r.mix64(states[g])
        low = z * n
        if low >= n or low >= (np.uint64(0) - n) % n:
            return r.high_product(z, n)


@jit
def random_action(s: r.State, g: int, states: Any) -> int:
    """A uniform choice among game ``g``'s distinct legal decisions; -1 once it is over."""
    count = r.legal_count(s, g)
    if count == 0:
        return r.NONE
    return r.legal_at(s, g, below(states, g, count))


# -- Python's Mersenne Twister (random.Random), for the greedy bot's ties ----------------------

_MT_N = 624
_MT_M = 397
_U32 = np.uint32


class TieBreaks(NamedTuple):
    """The greedy bot's tie-breaking generator of each game and seat: the state of
    ``random.Random(seed)`` (MT19937: 624 words and a position)."""

    words: npt.NDArray[np.uint32]
    """(N, 2, 624)"""
    position: npt.NDArray[np.int32]
    """(N, 2); -1: not seeded yet (seeded from ``seeds`` at its first draw)"""
    seeds: npt.NDArray[np.uint64]
    """(N, 2): each generator's seed"""


@jit
def _mt_seed(words: Any, seed: Any) -> None:
    """random.Random(seed) for a seed in [0, 2**64): init_by_array with its 32-bit words."""
    key = np.empty(2, dtype=np.uint32)
    key[0] = _U32(seed & np.uint64(0xFFFFFFFF))
    key[1] = _U32(seed >> np.uint64(32))
    length = 2 if key[1] != 0 else 1
    words[0] = _U32(19650218)
    for i in range(1, _MT_N):
        prev = words[i - 1]
        words[i] = _U32(1812433253) * (prev ^ (prev >> _U32(30))) + _U32(i)
    i, j = 1, 0
    for _ in range(max(_MT_N, length)):
        prev = words[i - 1]
        words[i] = (words[i] ^ ((prev ^ (prev >> _U32(30))) * _U32(1664525))) + key[j] + _U32(j)
        i += 1
        j += 1
        if i >= _MT_N:
            words[0] = words[_MT_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_MT_N - 1):
        prev = words[i - 1]
        words[i] = (words[i] ^ ((prev ^ (prev >> _U32(30))) * _U32(1566083941))) - _U32(i)
        i += 1
        if i >= _MT_N:
            words[0] = words[_MT_N - 1]
            i = 1
    words[0] = _U32(0x80000000)


@jit
def _mt_twist(words: Any) -> None:
    for i in range(_MT_N):
        y = (words[i] & _U32(0x80000000)) | (words[(i + 1) % _MT_N] & _U32(0x7FFFFFFF))
        value = words[(i + _MT_M) % _MT_N] ^ (y >> _U32(1))
        if y & _U32(1):
            value ^= _U32(0x9908B0DF)
        words[i] = value


@jit
def _mt_next(words: Any, position: Any, g: int, seat: int) -> Any:
    """The next 32-bit output of game ``g``'s generator for ``seat``."""
    if position[g, seat] >= _MT_N:
        _mt_twist(words[g, seat])
        position[g, seat] = 0
    y = words[g, seat, position[g, seat]]
    position[g, seat] += 1
    y ^= y >> _U32(11)
    y ^= (y << _U32(7)) & _U32(0x9D2C5680)
    y ^= (y << _U32(15)) & _U32(0xEFC60000)
    return y ^ (y >> _U32(18))


@jit
def randbelow(ties: TieBreaks, g: int, seat: int, bound: int) -> int:
    """random.Random.randrange(bound) for 1 < bound <= 2**32 (``_randbelow_with_getrandbits``)."""
    if ties.position[g, seat] < 0:
        _mt_seed(ties.words[g, seat], ties.seeds[g, seat])
        ties.position[g, seat] = _MT_N
    bits = 0
    while (1 << bits) <= bound:
        bits += 1
    while True:
        value = int(np.int64(_mt_next(ties.words, ties.position, g, seat) >> _U32(32 - bits)))
        if value < bound:
            return value


@jit
def _seed_all(words: Any, position: Any, seeds: Any) -> None:
    for g in range(seeds.shape[0]):
        for seat in range(2):
            _mt_seed(words[g, seat], seeds[g, seat])
            position[g, seat] = _MT_N


def tie_breaks(seeds: npt.ArrayLike, lazy: bool = False) -> TieBreaks:
    """Tie-breaking generators for games whose seat ``s`` of game ``g`` breaks ties like
    ``GreedyBot(seed=seeds[g][s])`` (seeds from 0 to 2**64 - 1). ``lazy``: each is
    seeded at its first draw (most greedy games never break a tie: seeding one costs
    about as much as a decision), the same draws."""
    seeds = np.array(seeds, dtype=np.uint64).reshape(-1, 2)
    ties = TieBreaks(
        np.empty((seeds.shape[0], 2, _MT_N), dtype=np.uint32),
        np.full((seeds.shape[0], 2), -1, dtype=np.int32),
        seeds,
    )
    if not lazy:
        _seed_all(ties.words, ties.position, seeds)
    return ties


@jit
def _draws(ties: TieBreaks, g: int, seat: int, bounds: Any, out: Any) -> None:
    for i in range(bounds.shape[0]):
        out[i] = randbelow(ties, g, seat, bounds[i])


def tie_draws(ties: TieBreaks, game: int, seat: int, bounds: list[int]) -> list[int]:
    """``randrange(bound)`` for each of ``bounds`` in turn, from one seat's generator
    (what ``random.Random(seed)`` draws: the tests compare the two)."""
    out = np.empty(len(bounds), dtype=np.int64)
    _draws(ties, game, seat, np.array(bounds, dtype=np.int64), out)
    return [int(value) for value in out]


# -- the greedy judge -------------------------------------------------------------------------


class Judge(NamedTuple):
    """What the compiled judge reads besides the position: its tables and work arrays."""

    finals: npt.NDArray[np.float64]
    """(tiebreaks, 2, states): judge.final_values by tiebreak code, then last round or not."""
    step: npt.NDArray[np.int32]
    tuning: npt.NDArray[np.float64]
    encoded: npt.NDArray[np.int64]
    """(534, 15): each decision as judge.kernel.encode_move writes it."""
    work_states: npt.NDArray[np.int32]
    work_probs: npt.NDArray[np.float64]
    work_index: npt.NDArray[np.int64]
    margins: npt.NDArray[np.float64]
    """(tiebreaks, 2): by how much more than rounding an answer's gains must stand off
    the tie tolerance to be chosen by them alone (see greedy_action); -1 where never."""
    position: npt.NDArray[np.int64]
    """Work: the judged position."""
    scores: npt.NDArray[np.float64]
    """Work: the scores (or gains) of the legal decisions."""


@cache
def _encoded_moves() -> npt.NDArray[np.int64]:
    return np.array([judge.encode_move(move) for move in all_moves()], dtype=np.int64)


def judge_tables(tuning: Tuning | None = None) -> Judge:
    """The greedy judge's tables for ``tuning`` (the bot's default if ``None``), with fresh
    work arrays (one :class:`Judge` per thread or process)."""
    tuning = tuning or Tuning()
    finals = np.array(
        [
            [final_values(last, tiebreak, tuning.future_weight) for last in (False, True)]
            for tiebreak in t.TIEBREAKS
        ]
    )
    knobs = (tuning.future_weight, tuning.response_hope, tuning.giveaway, tuning.discard)
    return Judge(
        finals,
        step_array(),
        np.array(knobs + tuning.unused, dtype=np.float64),
        _encoded_moves(),
        *judge.workspace(finals.shape[2]),
        _margins(finals, tuning),
        np.zeros(judge.POSITION_SIZE, dtype=np.int64),
        np.zeros(t.ACTIONS_COUNT, dtype=np.float64),
    )


def _margins(finals: npt.NDArray[np.float64], tuning: Tuning) -> npt.NDArray[np.float64]:
    """Judge.margins. With the card fates between 0 and 1 (giveaway and discard between
    0 and 1), every chance is, a worth is at most the largest final value F in size, a
    total at most 7 F plus the unused actions' worths, a gain at most 2 F: an answer's
    score and its gains plus the total differ by a few roundings of numbers below
    B = 16 F + those worths + 1, about 1e-16 B each. The margin is 1e-13 B."""
    tame = 0.0 <= tuning.giveaway <= 1.0 and 0.0 <= tuning.discard <= 1.0
    bound = 16.0 * np.abs(finals).max(axis=2) + sum(abs(u) for u in tuning.unused) + 1.0
    if not tame or not np.isfinite(bound).all():
        return np.full(bound.shape, -1.0)
    return np.asarray(1e-13 * bound, dtype=np.float64)


@jit
def _counts_into(packed: int, out: Any, offset: int, sign: int) -> None:
    for kind in range(t.ITEMS):
        out[offset + kind] += sign * ((packed >> (4 * kind)) & 15)


@jit
def judged_position(s: r.State, g: int, seat: int) -> Any:
    """JudgedPosition.of(game.view(seat)) laid out as judge.kernel_layout.pack_position does."""
    position = np.zeros(judge.POSITION_SIZE, dtype=np.int64)
    position_into(s, g, seat, position)
    return position


@jit
def position_into(s: r.State, g: int, seat: int, position: Any) -> None:
    """:func:`judged_position` written into ``position``."""
    position[:] = 0
    other = 1 - seat
    _counts_into(s[r.PLACED + seat, g] + s[r.SECRET + seat, g], position, judge.LEAD, 1)
    _counts_into(s[r.PLACED + other, g], position, judge.LEAD, -1)
    _counts_into(s[r.HANDS + seat, g], position, judge.HAND, 1)
    seen = s[r.HANDS + seat, g] + s[r.TRADEOFF + seat, g] + s[r.SECRET + seat, g]
    seen += s[r.PLACED + 0, g] + s[r.PLACED + 1, g]
    if s[r.PENDING, g] >= 0:
        seen += t.ACTION_PACKED[s[r.PENDING, g]]
    _counts_into(t.FULL - seen, position, judge.UNSEEN, 1)
    for kind in range(t.ITEMS):
        holder = s[r.FAVOR + kind, g]
        position[judge.HOLDER + kind] = NOBODY if holder < 0 else (0 if holder == seat else 1)
    position[judge.MINE_LEFT] = 15 & ~s[r.USED + seat, g]
    position[judge.THEIRS_LEFT] = 15 & ~s[r.USED + other, g]
    position[judge.THEIR_HAND] = r.hand_size(s[r.HANDS + other, g])
    position[judge.DRAWN_NOW] = 1 if s[r.PENDING, g] < 0 else 0


@jit
def greedy_scores(s: r.State, g: int, ids: Any, count: int, j: Judge) -> Any:
    """The judge's score of each of the ``count`` decisions in ``ids`` for the seat to
    move, in ``j.scores`` (its first ``count`` entries, returned)."""
    offer = s[r.PENDING, g]
    position_into(s, g, s[r.TO_MOVE, g], j.position)
    judge.scores_of_ids(
        j.position,
        offer,
        t.RESPONSES[max(offer, 0), : t.RESPONSE_COUNT[offer] if offer >= 0 else 0],
        j.finals[s[r.TIEBREAK, g], _last_round(s, g)],
        j.step,
        j.tuning,
        j.encoded,
        ids[:count],
        j.work_states,
        j.work_probs,
        j.work_index,
        j.scores,
    )
    return j.scores[:count]


@jit
def _last_round(s: r.State, g: int) -> int:
    limit = s[r.MAX_ROUNDS, g]
    return 1 if limit > 0 and s[r.ROUND, g] >= limit else 0


@jit
def _clear_answers(s: r.State, g: int, ids: Any, count: int, j: Judge) -> int:
    """How many answers to the pending offer (``ids``, its ``count`` distinct answers)
    GreedyBot would choose between, moved to the front of ``ids``, judged by their gains
    alone (:func:`hanamikoji.bots.judge.kernel.response_gains`); 0 where that cannot
    tell (an answer's gains within the margin of the tie tolerance from the best's)."""
    margin = j.margins[s[r.TIEBREAK, g], _last_round(s, g)]
    if margin < 0.0:
        return 0
    offer = s[r.PENDING, g]
    position_into(s, g, s[r.TO_MOVE, g], j.position)
    judge.response_gains(
        j.position,
        j.encoded[offer],
        j.encoded,
        ids[:count],
        j.finals[s[r.TIEBREAK, g], _last_round(s, g)],
        j.step,
        j.tuning,
        j.work_states,
        j.work_probs,
        j.work_index,
        j.scores,
    )
    best = j.scores[0]
    for i in range(count):
        if not np.isfinite(j.scores[i]):
            return 0
        best = max(best, j.scores[i])
    for i in range(count):
        # GreedyBot keeps a score within the tolerance of the best one.
        if abs(j.scores[i] - best + TIE_TOLERANCE) <= margin:
            return 0
    chosen = 0
    for i in range(count):
        if j.scores[i] - best + TIE_TOLERANCE > 0.0:
            ids[chosen] = ids[i]
            chosen += 1
    return chosen


@jit
def greedy_action(s: r.State, g: int, j: Judge, ties: TieBreaks, ids: Any) -> int:
    """GreedyBot.choose for the seat to move of game ``g`` (``ids``: an int64 work array
    of at least 534 entries); -1 once the game is over."""
    count = r.legal_ids(s, g, ids)
    if count <= 1:
        return int(ids[0]) if count == 1 else r.NONE
    chosen = _clear_answers(s, g, ids, count, j) if s[r.PENDING, g] >= 0 else 0
    if chosen == 0:
        scores = greedy_scores(s, g, ids, count, j)
        best = scores.max()
        for i in range(count):
            if scores[i] >= best - TIE_TOLERANCE:
                ids[chosen] = ids[i]
                chosen += 1
    if chosen == 1:
        return int(ids[0])
    return int(ids[randbelow(ties, g, s[r.TO_MOVE, g], chosen)])


assert NUM_ACTIONS == t.ACTIONS_COUNT
