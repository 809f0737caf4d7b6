"""The compiled loops over a batch: start, legal masks, step, observations, whole games
played by the policies, and perft. :mod:`hanamikoji.kernel.engine` wraps them for Python."""

from __future__ import annotations

from typing import Any

import numpy as np

from hanamikoji.kernel import policies as pol
from hanamikoji.kernel import rules as r
from hanamikoji.kernel import tables as t
from hanamikoji.kernel.rules import jit

__all__ = ["GREEDY", "OBSERVATION_PIECES", "RANDOM"]

RANDOM = 0
"""Policy code: uniform among the distinct legal decisions."""
GREEDY = 1
"""Policy code: the greedy bot."""


@jit
def start_games(
    s: r.State, games: Any, seeds: Any, first_players: Any, max_rounds: int, tiebreak: int
) -> None:
    """Games ``games[i]`` (new) with seeds ``seeds[i]`` and first players ``first_players[i]``."""
    for i in range(games.shape[0]):
        r.start(s, games[i], seeds[i], first_players[i], max_rounds, tiebreak)


@jit
def legal_masks(s: r.State, out: Any) -> None:
    """``out[g, a]`` = 1 where ``a`` is legal in game ``g``, else 0 (all 0 once it is over)."""
    ids = np.empty(t.ACTIONS_COUNT, dtype=np.int64)
    out[:] = 0
    for g in range(out.shape[0]):
        for i in range(r.legal_ids(s, g, ids)):
            out[g, ids[i]] = 1


@jit
def legal_counts(s: r.State, out: Any) -> None:
    for g in range(out.shape[0]):
        out[g] = r.legal_count(s, g)


@jit
def first_illegal(s: r.State, actions: Any) -> int:
    """The first game that goes on and whose action is not legal, or -1."""
    for g in range(actions.shape[0]):
        if s[r.TERMINATION, g] < 0 and not r.is_legal(s, g, actions[g]):
            return g
    return r.NONE


@jit
def step_all(s: r.State, actions: Any) -> None:
    """Every game that goes on plays its action (legal: see :func:`first_illegal`)."""
    for g in range(actions.shape[0]):
        if s[r.TERMINATION, g] < 0:
            r.step(s, g, actions[g])


@jit
def random_actions(s: r.State, states: Any, out: Any) -> None:
    for g in range(out.shape[0]):
        out[g] = pol.random_action(s, g, states)


@jit
def greedy_actions(s: r.State, judge: pol.Judge, ties: pol.TieBreaks, asked: Any, out: Any) -> None:
    """The greedy decision of each game ``g`` with ``asked[g]``; -1 for the others."""
    ids = np.empty(t.ACTIONS_COUNT, dtype=np.int64)
    for g in range(out.shape[0]):
        out[g] = pol.greedy_action(s, g, judge, ties, ids) if asked[g] else -1


@jit
def play(
    s: r.State,
    policies: Any,
    states: Any,
    judge: pol.Judge,
    ties: pol.TieBreaks,
    trace: Any,
) -> int:
    """Every game played to its end, seat ``p`` by policy ``policies[p]``; each game's
    first ``trace.shape[1]`` decisions written to its row of ``trace``. Returns the number
    of decisions made."""
    ids = np.empty(t.ACTIONS_COUNT, dtype=np.int64)
    longest = trace.shape[1]
    total = 0
    for g in range(s.shape[1]):
        while s[r.TERMINATION, g] < 0:
            seat = s[r.TO_MOVE, g]
            if policies[seat] == GREEDY:
                action = pol.greedy_action(s, g, judge, ties, ids)
            else:
                action = pol.random_action(s, g, states)
            made = s[r.DECISIONS, g]
            if made < longest:
                trace[g, made] = action
            r.step(s, g, action)
            total += 1
    return total


@jit
def perft(s: r.State, g: int, work: r.State, ids: Any, counts: Any) -> None:
    """``counts[d]``: the distinct sequences of ``d + 1`` decisions from game ``g``
    (tests/perft's rule), by a depth-first walk over the rows of ``work`` (one per level;
    ``ids`` has a row of 534 per level)."""
    depth = counts.shape[0]
    counts[:] = 0
    number = np.zeros(depth, dtype=np.int64)
    position = np.zeros(depth, dtype=np.int64)
    r.copy_game(s, g, work, 0)
    number[0] = r.legal_ids(work, 0, ids[0])
    counts[0] = number[0]
    level = 0
    while level >= 0:
        if level + 1 >= depth or position[level] >= number[level]:
            level -= 1
            continue
        action = ids[level, position[level]]
        position[level] += 1
        r.copy_game(work, level, work, level + 1)
        r.step(work, level + 1, action)
        level += 1
        number[level] = r.legal_ids(work, level, ids[level])
        counts[level] += number[level]
        position[level] = 0


# -- observations -------------------------------------------------------------------------

OBSERVATION_PIECES = (
    "hand",
    "drawn",
    "my_secret",
    "my_tradeoff",
    "placed_mine",
    "placed_theirs",
    "favor",
    "used_mine",
    "used_theirs",
    "offer_cards",
    "offer_first_pair",
    "offer_second_pair",
    "phase",
    "to_move",
    "starter",
    "round",
    "last_round",
    "deck_size",
    "hand_sizes",
    "unseen",
)
"""The pieces :func:`observe` writes, by the names of ``research/observation.py``'s
``OBSERVATION_LAYOUT``; it writes each at the offset given for it, so the layout stays
defined once, in the research layer."""
(
    _HAND,
    _DRAWN,
    _MY_SECRET,
    _MY_TRADEOFF,
    _PLACED_MINE,
    _PLACED_THEIRS,
    _FAVOR,
    _USED_MINE,
    _USED_THEIRS,
    _OFFER_CARDS,
    _OFFER_FIRST_PAIR,
    _OFFER_SECOND_PAIR,
    _PHASE,
    _TO_MOVE,
    _STARTER,
    _ROUND,
    _LAST_ROUND,
    _DECK_SIZE,
    _HAND_SIZES,
    _UNSEEN,
) = range(len(OBSERVATION_PIECES))
_PHASE_TURN, _PHASE_GIFT, _PHASE_COMPETITION, _PHASE_OVER = 0, 1, 2, 4


@jit
def _add_counts(row: Any, offset: int, packed: int) -> None:
    for kind in range(t.ITEMS):
        row[offset + kind] += (packed >> (4 * kind)) & 15


@jit
def _observe_offer(s: r.State, g: int, row: Any, at: Any) -> int:
    """The offer's pieces; returns the phase."""
    offer = s[r.PENDING, g]
    if offer < 0:
        return _PHASE_TURN
    _add_counts(row, at[_OFFER_CARDS], t.ACTION_PACKED[offer])
    if t.ACTION_KIND[offer] == t.GIFT:
        return _PHASE_GIFT
    first = t.ACTION_FIRST_PAIR[offer]
    _add_counts(row, at[_OFFER_FIRST_PAIR], first)
    _add_counts(row, at[_OFFER_SECOND_PAIR], t.ACTION_PACKED[offer] - first)
    return _PHASE_COMPETITION


@jit
def _observe_round(s: r.State, g: int, seat: int, row: Any, at: Any) -> int:
    """The pieces of the round in play (zero once the game is over); returns the phase."""
    other = 1 - seat
    hand = s[r.HANDS + seat, g]
    _add_counts(row, at[_HAND], hand)
    if s[r.TO_MOVE, g] == seat and s[r.PENDING, g] < 0:
        row[at[_DRAWN] + s[r.DECK + s[r.TURN, g], g]] = 1.0
    _add_counts(row, at[_MY_SECRET], s[r.SECRET + seat, g])
    _add_counts(row, at[_MY_TRADEOFF], s[r.TRADEOFF + seat, g])
    _add_counts(row, at[_PLACED_MINE], s[r.PLACED + seat, g])
    _add_counts(row, at[_PLACED_THEIRS], s[r.PLACED + other, g])
    for kind in range(t.ACTION_KINDS):
        row[at[_USED_MINE] + kind] = s[r.USED + seat, g] >> kind & 1
        row[at[_USED_THEIRS] + kind] = s[r.USED + other, g] >> kind & 1
    row[at[_DECK_SIZE]] = t.TURNS - s[r.TURN, g] - 1
    row[at[_HAND_SIZES]] = r.hand_size(hand)
    row[at[_HAND_SIZES] + 1] = r.hand_size(s[r.HANDS + other, g])
    seen = (
        hand
        + s[r.TRADEOFF + seat, g]
        + s[r.SECRET + seat, g]
        + s[r.PLACED + 0, g]
        + s[r.PLACED + 1, g]
    )
    if s[r.PENDING, g] >= 0:
        seen += t.ACTION_PACKED[s[r.PENDING, g]]
    _add_counts(row, at[_UNSEEN], t.FULL - seen)
    return _observe_offer(s, g, row, at)


@jit
def observe(s: r.State, seats: Any, at: Any, out: Any) -> None:
    """Each game's observation tensor from ``seats[g]``'s side into ``out[g]``: the
    pieces of :data:`OBSERVATION_PIECES` at the offsets ``at`` (in that order)."""
    out[:] = 0.0
    for g in range(out.shape[0]):
        row = out[g]
        seat = seats[g]
        over = s[r.TERMINATION, g] >= 0
        if over:
            _add_counts(row, at[_UNSEEN], t.FULL)
            phase = _PHASE_OVER
        else:
            phase = _observe_round(s, g, seat, row, at)
        for kind in range(t.ITEMS):
            holder = s[r.FAVOR + kind, g]
            row[at[_FAVOR] + 3 * kind + (1 if holder < 0 else (0 if holder == seat else 2))] = 1.0
        row[at[_PHASE] + phase] = 1.0
        row[at[_TO_MOVE] + (2 if over else (0 if s[r.TO_MOVE, g] == seat else 1))] = 1.0
        row[at[_STARTER] + (0 if s[r.STARTER, g] == seat else 1)] = 1.0
        row[at[_ROUND]] = s[r.ROUND, g]
        limit = s[r.MAX_ROUNDS, g]
        row[at[_LAST_ROUND]] = 1.0 if limit > 0 and s[r.ROUND, g] >= limit else 0.0
