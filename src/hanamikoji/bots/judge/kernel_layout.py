"""The compiled judge's layouts: the arrays its functions share, and how they are compiled.

The compiled judge (:mod:`hanamikoji.bots.judge.kernel`, the worths of
:mod:`hanamikoji.bots.judge.kernel_worths`) reads a judged position and encoded
decisions as integer arrays, and keeps its work in preallocated arrays whose columns
this module lays out. numba comes with the ``fast`` and ``web`` extras (``pip install
'hanamikoji[fast]'``); where it cannot be imported, the functions stay Python
(:data:`AVAILABLE` says which).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hanamikoji.bots.judge.position import JudgedPosition
from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.moves import ACTIONS, Move, MoveKind

try:
    from numba import njit
except ImportError:  # pragma: no cover - exercised where numba is missing
    AVAILABLE = False
else:
    AVAILABLE = True

__all__ = [
    "AVAILABLE",
    "CARDS",
    "CHANCES",
    "COPIES",
    "COUNT",
    "COUNTS",
    "DRAWN_NOW",
    "EVERY_GEISHA",
    "FATES",
    "FLOATS",
    "GAINS",
    "GAIN_STAMPS",
    "HAND",
    "HANDS",
    "HOLDER",
    "INTS",
    "KIND",
    "KINDS",
    "KINDS_COUNT",
    "LEAD",
    "LEADS",
    "MEMO",
    "MINE_LEFT",
    "NONE",
    "OFFSET",
    "OPEN",
    "PADDED",
    "POSITION_SIZE",
    "ROWS",
    "SCRATCH",
    "SLOTS",
    "SPREAD",
    "STACK",
    "STACK_DEPTH",
    "STAMP",
    "START",
    "THEIRS_LEFT",
    "THEIR_HAND",
    "TOTALS",
    "UNSEEN",
    "WIDTH",
    "WORTHS",
    "bare",
    "encode_move",
    "inline",
    "jit",
    "pack_position",
    "workspace",
]

NONE = -1
# Columns of an encoded move: its kind, its number of cards, then its cards (sorted; a
# Competition's as its two pairs in order).
KIND, COUNT, CARDS = 0, 1, 2
# Then its geishas (reference._tally): how many, each (ascending) and her copies.
KINDS_COUNT = CARDS + 4
KINDS = KINDS_COUNT + 1
COPIES = KINDS + 4
WIDTH = COPIES + 4

OFFSET = max(CHARMS)  # a geisha's final difference never exceeds her copies
SPREAD = 2 * OFFSET + 1
EVERY_GEISHA = (1 << ITEM_COUNT) - 1  # every geisha, as a bitmask

# The judgement's memory: a geisha's worth by the actions left (slot 0: this position's,
# slot 1 + a: without action a), the geisha, her lead (-5 to 5) and her copies in hand
# (0 to 5). Leads and hands never leave these ranges: a geisha's cards, committed or
# not, never outnumber her copies.
SLOTS = 5
LEADS = SPREAD
HANDS = OFFSET + 1
MEMO = SLOTS * ITEM_COUNT * LEADS * HANDS

# The scratch row of the work arrays (see workspace). Its floats: the memory's worths,
# each slot's card fates, a spread (padded by a zero each side), each slot's total, each
# geisha's worths and chances. Its integers: the memory's stamps (the judgement that
# wrote each worth), the number of the current judgement, the open geishas, the stack of
# _without_each, a count by geisha, and a move's geishas with their copies.
FATES = MEMO
PADDED = FATES + 4 * SLOTS
TOTALS = PADDED + SPREAD + 2
WORTHS = TOTALS + SLOTS
CHANCES = WORTHS + 3 * ITEM_COUNT
# Gains remembered as the worths are (the reference judge's ``_gains``), by slot, geisha,
# change of her lead (-5 to 5) and change of her copies in hand (-5 to 0), with their
# stamps.
GAINS = CHANCES + 3 * ITEM_COUNT
FLOATS = GAINS + MEMO
STAMP = MEMO  # the current judgement's number
OPEN = STAMP + 1
STACK = OPEN + ITEM_COUNT
STACK_DEPTH = 16
COUNTS = STACK + 6 * STACK_DEPTH
GAIN_STAMPS = COUNTS + ITEM_COUNT
INTS = GAIN_STAMPS + MEMO
ROWS = 2 * 3 + 1
"""Two rows per level of halving 7 geishas (3 levels fold), and one for the start."""
START = ROWS - 1
SCRATCH = ROWS


def jit(function: Any) -> Any:
    # The GIL stays held: calls share one workspace (kernel_scores).
    return njit(cache=True)(function) if AVAILABLE else function


def bare(function: Any) -> Any:
    """A function that allocates nothing, compiled without reference counting (numba's
    ``_nrt=False``): the arrays it reads belong to its caller, and counting the
    references to them was most of the judge's time."""
    options: dict[str, Any] = {"cache": True, "_nrt": False}
    return njit(**options)(function) if AVAILABLE else function


def inline(function: Any) -> Any:
    """A small function of the hot loops, inlined into its callers."""
    return njit(cache=True, inline="always")(function) if AVAILABLE else function


# The judge's position, as one integer array: per geisha the lead (this player's cards
# minus the opponent's, this player's Secret included), the copies in hand, the unseen
# copies and the holder of her marker (0 this player, 1 the opponent, 2 nobody); then the
# actions left to each (bitmasks), the opponent's hand size, and 1 if this player has
# drawn its turn's card already.
LEAD, HAND, UNSEEN, HOLDER = 0, 7, 14, 21
MINE_LEFT, THEIRS_LEFT, THEIR_HAND, DRAWN_NOW = 28, 29, 30, 31
POSITION_SIZE = 32


def workspace(states: int) -> tuple[Any, Any, Any]:
    """Work arrays for a match of ``states`` states: spreads (states and chances) in rows
    0 to START, the judgement's memory and scratch in row SCRATCH, and an index from
    state to entry (see _fold) with the number of the last fold at its end."""
    width = max(states, FLOATS, INTS)
    return (
        np.zeros((ROWS + 1, width), dtype=np.int32),
        np.zeros((ROWS + 1, width)),
        np.zeros(states + 1, dtype=np.int64),
    )


def encode_move(move: Move) -> list[int]:
    """``move`` as one row of integers: its kind, its number of cards, its cards (sorted;
    a Competition's as its two pairs in order), then its geishas (how many, each
    ascending, and her copies), padded to :data:`WIDTH` (a row of
    :func:`hanamikoji.bots.judge.kernel.encode_moves`)."""
    cards = [c for pair in move.pairs for c in pair] if move.pairs else list(move.cards)
    kinds = sorted(set(cards))
    padding = 4 - len(kinds)
    return [
        int(move.kind),
        len(cards),
        *cards,
        *([NONE] * (4 - len(cards))),
        len(kinds),
        *kinds,
        *([NONE] * padding),
        *(cards.count(kind) for kind in kinds),
        *([0] * padding),
    ]


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


assert ITEM_COUNT == 7 and tuple(ACTIONS) == tuple(MoveKind)[:4]
