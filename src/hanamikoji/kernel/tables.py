"""The compiled engine's constant tables, built at import from the rules and the encoding.

Nothing here is written out by hand a second time: the action tables come from
:func:`hanamikoji.kernel.encoding.all_moves`, the cards from :mod:`hanamikoji.core.cards`,
the deal's constants from :mod:`hanamikoji.core.rng`, the codes of terminations and
tiebreaks from the order of their enums. Every table is a NumPy array (or an ``int``) that
the numba functions read as a constant.

Hands are packed multisets as in the core (4 bits per item kind). A hand also has a
*hand index*, its counts read as a mixed-radix number (item ``k`` has ``charm_k + 1``
digits): :data:`LEGAL_START` and :data:`LEGAL_IDS` list, for every hand index and action
kind, the ids of the distinct decisions of that kind the hand allows, in id order, so
that a state's legal decisions are a few table slices.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from hanamikoji.core import rng
from hanamikoji.core.cards import CHARMS, FULL_SET, ITEM_COUNT, TOTAL_CARDS, UNIT, items
from hanamikoji.core.game import TURNS_PER_ROUND
from hanamikoji.core.moves import ACTIONS, MoveKind, response_moves
from hanamikoji.core.outcome import WIN_CHARM, WIN_GEISHAS, Termination
from hanamikoji.core.rng import HAND_SIZE
from hanamikoji.core.variants import Tiebreak
from hanamikoji.kernel.encoding import KIND_OFFSETS, NUM_ACTIONS, all_moves, encode

__all__ = [
    "ACTION_FIRST_PAIR",
    "ACTION_KIND",
    "ACTION_PACKED",
    "CHARM_OF",
    "GUARD",
    "HAND_STRIDES",
    "LEGAL_IDS",
    "LEGAL_START",
    "ORDERED",
    "RESPONSES",
    "RESPONSE_COUNT",
    "TERMINATIONS",
    "THRESHOLDS",
    "TIEBREAKS",
    "UNITS",
]

I64 = npt.NDArray[np.int64]

# -- cards and rules ----------------------------------------------------------------------

ITEMS = ITEM_COUNT
CARDS = TOTAL_CARDS
TURNS = TURNS_PER_ROUND
HAND = HAND_SIZE
ACTION_KINDS = len(ACTIONS)
WIN_AT_CHARM = WIN_CHARM
WIN_AT_GEISHAS = WIN_GEISHAS
CHARM_OF: I64 = np.array(CHARMS, dtype=np.int64)
UNITS: I64 = np.array(UNIT, dtype=np.int64)
FULL: int = FULL_SET
GUARD: int = sum(8 << (4 * k) for k in range(ITEM_COUNT))
"""The guard bit of every nibble (``core/cards.py``'s subset test)."""

ORDERED: npt.NDArray[np.int8] = np.array(items(FULL_SET), dtype=np.int8)
"""The 21 cards in row order: what a round's shuffle starts from (``core/rng.py``)."""
GAMMA = np.uint64(rng.GAMMA)
THRESHOLDS: npt.NDArray[np.uint64] = np.array(rng.THRESHOLDS, dtype=np.uint64)
"""Lemire's rejection threshold of each bound (``core/rng.py``)."""

TERMINATIONS: tuple[Termination, ...] = tuple(Termination)
"""A kernel termination code is the index of its :class:`Termination` here."""
TIEBREAKS: tuple[Tiebreak, ...] = tuple(Tiebreak)
"""A kernel tiebreak code is the index of its :class:`Tiebreak` here."""
BY_CHARM = TERMINATIONS.index(Termination.CHARM)
BY_GEISHAS = TERMINATIONS.index(Termination.GEISHAS)
BY_MOST_GEISHAS = TERMINATIONS.index(Termination.MOST_GEISHAS)
BY_MOST_CHARM = TERMINATIONS.index(Termination.MOST_CHARM)
BY_SHARED_WIN = TERMINATIONS.index(Termination.SHARED_WIN)
BY_NO_WINNER = TERMINATIONS.index(Termination.NO_WINNER)
BY_ROUND_CAP = TERMINATIONS.index(Termination.ROUND_CAP)
TIEBREAK_GEISHAS_THEN_CHARM = TIEBREAKS.index(Tiebreak.GEISHAS_THEN_CHARM)
TIEBREAK_CHARM = TIEBREAKS.index(Tiebreak.CHARM)

# -- actions ------------------------------------------------------------------------------

_MOVES = all_moves()
ACTIONS_COUNT = NUM_ACTIONS
ACTION_KIND: npt.NDArray[np.int8] = np.array([m.kind for m in _MOVES], dtype=np.int8)
ACTION_PACKED: I64 = np.array([m.packed for m in _MOVES], dtype=np.int64)
"""The cards of each decision as a packed multiset: those put down, or those taken."""
ACTION_FIRST_PAIR: I64 = np.array(
    [sum(UNIT[c] for c in m.pairs[0]) if m.pairs else 0 for m in _MOVES], dtype=np.int64
)
"""A Competition's first pair (canonical order) as a packed multiset; 0 otherwise."""
GIFT = int(MoveKind.GIFT)
TURN_ACTIONS = KIND_OFFSETS[MoveKind.COMPETITION].stop
"""Ids below this are the four actions; the responses follow."""


def _responses() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """The ids of the distinct answers to each Gift or Competition id, in id order."""
    table = np.full((NUM_ACTIONS, 3), -1, dtype=np.int16)
    count = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action, move in enumerate(_MOVES):
        if move.kind in (MoveKind.GIFT, MoveKind.COMPETITION):
            answers = sorted(encode(answer) for answer in response_moves(move))
            table[action, : len(answers)] = answers
            count[action] = len(answers)
    return table, count


RESPONSES, RESPONSE_COUNT = _responses()

# -- hands --------------------------------------------------------------------------------

HAND_STRIDES: I64 = np.cumprod([1] + [c + 1 for c in CHARMS[:-1]]).astype(np.int64)
"""A hand's index is the sum of its count of item ``k`` times ``HAND_STRIDES[k]``."""
HAND_INDICES = int(np.prod([c + 1 for c in CHARMS]))
MOST_IN_HAND = HAND_SIZE + 1
"""A player holds at most 7 cards (6 dealt and 1 drawn): larger hands get no rows of
ids, which keeps the tables small enough for numba to compile them in as constants."""


def _legal_tables() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int16]]:
    """For every hand index (hands of up to :data:`MOST_IN_HAND` cards), where its legal
    ids of each action kind start in the flat list of ids (5 columns: the four kinds'
    starts, then the end), and that list."""
    digits = np.indices([c + 1 for c in CHARMS]).reshape(ITEM_COUNT, -1)
    index = HAND_STRIDES @ digits
    hands = np.zeros(HAND_INDICES, dtype=np.int64)
    hands[index] = (digits << (4 * np.arange(ITEM_COUNT))[:, None]).sum(axis=0)
    actions = ACTION_PACKED[:TURN_ACTIONS]
    allowed = ((hands[:, None] | GUARD) - actions[None, :]) & GUARD == GUARD
    sizes = np.zeros(HAND_INDICES, dtype=np.int64)
    sizes[index] = digits.sum(axis=0)
    allowed[sizes > MOST_IN_HAND] = False
    per_kind = np.stack([allowed[:, KIND_OFFSETS[kind]].sum(axis=1) for kind in ACTIONS], axis=1)
    start = np.zeros((HAND_INDICES, ACTION_KINDS + 1), dtype=np.int64)
    start[:, 1:] = np.cumsum(per_kind, axis=1)
    start += (np.cumsum(per_kind.sum(axis=1)) - per_kind.sum(axis=1))[:, None]
    _, ids = np.nonzero(allowed)
    return start.astype(np.int32), ids.astype(np.int16)


LEGAL_START, LEGAL_IDS = _legal_tables()
