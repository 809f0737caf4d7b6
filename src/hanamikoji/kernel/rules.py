"""The rules of :mod:`hanamikoji.core`, compiled with numba for batches of games.

The state of N games is a :class:`Games`: one int64 array with a row per field value,
indexed by game (struct of arrays). Every function here takes that array ``s`` and a
game index ``g`` and
follows one method of :class:`hanamikoji.core.game.Game`, which stays the readable
reference (``tests/test_kernel.py`` and ``benchmarks/kernel_check.py`` compare the two
decision by decision): the seeded deal (``core/rng.py``), the draw, a decision, the end
of a turn, the scoring of a round and the end of the game.

Decisions are action ids of the stable encoding (:mod:`hanamikoji.kernel.encoding`).
The functions assume that a decision is legal: :func:`is_legal` checks one.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from hanamikoji.kernel import tables as t

try:
    from numba import njit
except ImportError as error:  # pragma: no cover - exercised where numba is missing
    raise ImportError(
        "the compiled engine (hanamikoji.kernel) needs numba: pip install 'hanamikoji[fast]'"
    ) from error

__all__ = ["FIELDS", "NONE", "Games", "State"]

F = TypeVar("F", bound=Callable[..., Any])

NONE = -1
"""No seat, no pending offer, no termination yet."""

FIELDS: dict[str, int] = {
    "seed": 1,
    "first_player": 1,
    "max_rounds": 1,
    "tiebreak": 1,
    "round": 1,
    "starter": 1,
    "to_move": 1,
    "turn": 1,
    "hands": 2,
    "deck": t.TURNS,
    "removed": 1,
    "secret": 2,
    "tradeoff": 2,
    "placed": 2,
    "used": 2,
    "pending": 1,
    "favor": t.ITEMS,
    "winner": 1,
    "termination": 1,
    "charm": 2,
    "geishas": 2,
    "decisions": 1,
}
"""The fields of a game and how many values each holds (one per seat, card, geisha)."""
_OFFSETS = dict(zip(FIELDS, accumulate([0, *FIELDS.values()]), strict=False))
ROWS = sum(FIELDS.values())
(
    SEED,
    FIRST_PLAYER,
    MAX_ROUNDS,
    TIEBREAK,
    ROUND,
    STARTER,
    TO_MOVE,
    TURN,
    HANDS,
    DECK,
    REMOVED,
    SECRET,
    TRADEOFF,
    PLACED,
    USED,
    PENDING,
    FAVOR,
    WINNER,
    TERMINATION,
    CHARM,
    GEISHAS,
    DECISIONS,
) = _OFFSETS.values()
"""The first row of each field in the state array."""


class _Field:
    """A field of :class:`Games` as a NumPy view: (N,) or (N, width)."""

    def __init__(self, name: str) -> None:
        self.first = _OFFSETS[name]
        self.width = FIELDS[name]

    def __get__(self, games: Games, owner: type[Games] | None = None) -> npt.NDArray[np.int64]:
        rows = games.store[self.first : self.first + self.width]
        return rows[0] if self.width == 1 else rows.T


class Games:
    """The state of N games: one int64 array :attr:`store` with a row per value of a
    field (struct of arrays: each value is contiguous over the games). The compiled
    functions take :attr:`store` and a game index ``g``; Python reads and writes the
    fields as the views below, ``(N,)`` or ``(N, width)``.

    Cards are packed multisets (4 bits per item kind, ``core/cards.py``), action markers
    bitmasks (bit ``k`` for action kind ``k``), seats 0 and 1, ``-1`` for none.
    """

    __slots__ = ("store",)

    def __init__(self, count: int) -> None:
        self.store: npt.NDArray[np.int64] = np.zeros((ROWS, count), dtype=np.int64)

    def __len__(self) -> int:
        return int(self.store.shape[1])

    seed = _Field("seed")
    """Every round's deal derives from it, as in ``Game(seed=...)`` (its 64 bits: seeds
    of 2**63 and up read as negative; ``.view(np.uint64)`` reads them back)."""
    first_player = _Field("first_player")
    max_rounds = _Field("max_rounds")
    """The variant's round limit (with its cap); 0 for none."""
    tiebreak = _Field("tiebreak")
    """The variant's tiebreak: an index into :data:`tables.TIEBREAKS`."""
    round = _Field("round")
    starter = _Field("starter")
    to_move = _Field("to_move")
    """The seat that decides now; -1 once the game is over."""
    turn = _Field("turn")
    """Turns completed in this round (0-8)."""
    hands = _Field("hands")
    """(N, 2): each seat's hand, the card drawn for this turn included."""
    deck = _Field("deck")
    """(N, 8): this round's deck, ``deck[g, turn]`` drawn at the start of turn ``turn``."""
    removed = _Field("removed")
    secret = _Field("secret")
    tradeoff = _Field("tradeoff")
    placed = _Field("placed")
    """(N, 2): the cards face up on each seat's side this round."""
    used = _Field("used")
    pending = _Field("pending")
    """The id of the Gift or Competition awaiting its answer, or -1."""
    favor = _Field("favor")
    """(N, 7): each geisha's marker, a seat or -1 (neutral)."""
    winner = _Field("winner")
    """The winner once the game is over; -1 for none (a draw, a shared win, not over)."""
    termination = _Field("termination")
    """-1 while the game goes on, then an index into :data:`tables.TERMINATIONS`."""
    charm = _Field("charm")
    """(N, 2): each seat's charm at the last scoring."""
    geishas = _Field("geishas")
    decisions = _Field("decisions")
    """Decisions made so far in the game."""


State = npt.NDArray[np.int64]
"""What the compiled functions take: :attr:`Games.store`."""


def jit(function: F) -> F:
    """Compile in nopython mode, cached on disk (typed as the Python function it runs)."""
    return cast(F, njit(cache=True)(function))


# -- SplitMix64 and Lemire's bounded draw, in uint64 (core/rng.py) --------------------------

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


@jit
def mix64(z: Any) -> Any:
    """SplitMix64's output function of a state (already advanced by gamma)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit
def high_product(z: Any, bound: Any) -> int:
    """``(z * bound) >> 64`` for a 64-bit ``z`` and a ``bound`` below 2**32."""
    high = (z >> _S32) * bound + (((z & _LOW32) * bound) >> _S32)
    return int(np.int64(high >> _S32))


@jit
def round_state(seed: Any, round_number: int) -> Any:
    """core.rng._round_state: the generator's state for one round's shuffle."""
    mixed = mix64(seed + t.GAMMA)
    return mix64((mixed ^ np.uint64(round_number)) + t.GAMMA)


@jit
def deal_order(seed: Any, round_number: int, order: Any) -> None:
    """core.rng.deal_for_round: the round's 21 cards in dealt order, into ``order``
    (removed card, seat 0's six, seat 1's six, the deck)."""
    order[:] = t.ORDERED
    state = round_state(seed, round_number)
    for i in range(t.CARDS - 1, 0, -1):
        bound = np.uint64(i + 1)
        while True:
            state = state + t.GAMMA
            z = mix64(state)
            if z * bound >= t.THRESHOLDS[i + 1]:
                break
        j = high_product(z, bound)
        order[i], order[j] = order[j], order[i]


# -- one game -------------------------------------------------------------------------------


@jit
def start(s: State, g: int, seed: Any, first_player: int, max_rounds: int, tiebreak: int) -> None:
    """Game.__init__: a new game ``g`` with its variant's round limit and tiebreak."""
    s[SEED, g] = seed
    s[FIRST_PLAYER, g] = first_player
    s[MAX_ROUNDS, g] = max_rounds
    s[TIEBREAK, g] = tiebreak
    s[ROUND, g] = 1
    s[STARTER, g] = first_player
    s[FAVOR : FAVOR + 7, g] = NONE
    s[WINNER, g] = NONE
    s[TERMINATION, g] = NONE
    s[CHARM : CHARM + 2, g] = 0
    s[GEISHAS : GEISHAS + 2, g] = 0
    s[DECISIONS, g] = 0
    start_round(s, g)


@jit
def start_round(s: State, g: int) -> None:
    """Game._begin with the seeded deal: hands, deck, cleared round, the starter draws."""
    order = np.empty(t.CARDS, dtype=np.int8)
    deal_order(np.uint64(s[SEED, g]), s[ROUND, g], order)
    s[REMOVED, g] = order[0]
    for seat in range(2):
        hand = 0
        for i in range(1 + seat * t.HAND, 1 + (seat + 1) * t.HAND):
            hand += t.UNITS[order[i]]
        s[HANDS + seat, g] = hand
        s[SECRET + seat, g] = 0
        s[TRADEOFF + seat, g] = 0
        s[PLACED + seat, g] = 0
        s[USED + seat, g] = 0
    s[DECK : DECK + 8, g] = order[1 + 2 * t.HAND :]
    s[PENDING, g] = NONE
    s[TURN, g] = 0
    s[TO_MOVE, g] = s[STARTER, g]
    s[HANDS + s[STARTER, g], g] += t.UNITS[s[DECK + 0, g]]


@jit
def step(s: State, g: int, action: int) -> None:
    """Game.push of a legal decision ``action`` by the seat to move."""
    p = s[TO_MOVE, g]
    s[DECISIONS, g] += 1
    offer = s[PENDING, g]
    if offer >= 0:
        taken = t.ACTION_PACKED[action]
        s[PLACED + p, g] += taken
        s[PLACED + 1 - p, g] += t.ACTION_PACKED[offer] - taken
        s[PENDING, g] = NONE
        end_turn(s, g, 1 - p)
        return
    kind = t.ACTION_KIND[action]
    packed = t.ACTION_PACKED[action]
    s[HANDS + p, g] -= packed
    s[USED + p, g] |= 1 << kind
    if kind == 0:
        s[SECRET + p, g] = packed
        end_turn(s, g, p)
    elif kind == 1:
        s[TRADEOFF + p, g] = packed
        end_turn(s, g, p)
    else:
        s[PENDING, g] = action
        s[TO_MOVE, g] = 1 - p


@jit
def end_turn(s: State, g: int, actor: int) -> None:
    """Game._end_turn: the other seat draws, or the round is scored."""
    turn = s[TURN, g] + 1
    s[TURN, g] = turn
    if turn >= t.TURNS:
        score_round(s, g)
        return
    other = 1 - actor
    s[TO_MOVE, g] = other
    s[HANDS + other, g] += t.UNITS[s[DECK + turn, g]]


@jit
def score_round(s: State, g: int) -> None:
    """Game._score_round: markers move to majorities, then the game ends or goes on."""
    mine = s[PLACED + 0, g] + s[SECRET + 0, g]
    theirs = s[PLACED + 1, g] + s[SECRET + 1, g]
    charm0 = charm1 = geishas0 = geishas1 = 0
    for kind in range(t.ITEMS):
        a = (mine >> (4 * kind)) & 15
        b = (theirs >> (4 * kind)) & 15
        if a > b:
            s[FAVOR + kind, g] = 0
        elif b > a:
            s[FAVOR + kind, g] = 1
        holder = s[FAVOR + kind, g]
        if holder == 0:
            charm0 += t.CHARM_OF[kind]
            geishas0 += 1
        elif holder == 1:
            charm1 += t.CHARM_OF[kind]
            geishas1 += 1
    s[CHARM + 0, g] = charm0
    s[CHARM + 1, g] = charm1
    s[GEISHAS + 0, g] = geishas0
    s[GEISHAS + 1, g] = geishas1
    s[TO_MOVE, g] = NONE
    if decide(s, g, charm0, charm1, geishas0, geishas1):
        return
    s[ROUND, g] += 1
    s[STARTER, g] = 1 - s[STARTER, g]
    start_round(s, g)


@jit
def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@jit
def _end(s: State, g: int, winner: int, why: int) -> bool:
    s[WINNER, g] = winner
    s[TERMINATION, g] = why
    return True


@jit
def decide(s: State, g: int, charm0: int, charm1: int, geishas0: int, geishas1: int) -> bool:
    """Game._decide: whether the game ends after this scoring (and how, if so)."""
    if charm0 >= t.WIN_AT_CHARM or charm1 >= t.WIN_AT_CHARM:
        return _end(s, g, 0 if charm0 >= t.WIN_AT_CHARM else 1, t.BY_CHARM)
    if geishas0 >= t.WIN_AT_GEISHAS or geishas1 >= t.WIN_AT_GEISHAS:
        return _end(s, g, 0 if geishas0 >= t.WIN_AT_GEISHAS else 1, t.BY_GEISHAS)
    limit = s[MAX_ROUNDS, g]
    if limit == 0 or s[ROUND, g] < limit:
        return False
    by_charm = _sign(charm0 - charm1)
    tiebreak = s[TIEBREAK, g]
    if tiebreak == t.TIEBREAK_GEISHAS_THEN_CHARM:
        by_geishas = _sign(geishas0 - geishas1)
        if by_geishas != 0:
            return _end(s, g, 0 if by_geishas > 0 else 1, t.BY_MOST_GEISHAS)
        if by_charm != 0:
            return _end(s, g, 0 if by_charm > 0 else 1, t.BY_MOST_CHARM)
        return _end(s, g, NONE, t.BY_SHARED_WIN)
    if tiebreak == t.TIEBREAK_CHARM:
        if by_charm != 0:
            return _end(s, g, 0 if by_charm > 0 else 1, t.BY_MOST_CHARM)
        return _end(s, g, NONE, t.BY_NO_WINNER)
    return _end(s, g, NONE, t.BY_ROUND_CAP)


# -- legal decisions ------------------------------------------------------------------------


@jit
def hand_index(hand: int) -> int:
    """The hand's row in tables.LEGAL_START."""
    index = 0
    for kind in range(t.ITEMS):
        index += ((hand >> (4 * kind)) & 15) * t.HAND_STRIDES[kind]
    return index


@jit
def hand_size(hand: int) -> int:
    """The number of cards in a packed multiset."""
    size = 0
    for kind in range(t.ITEMS):
        size += (hand >> (4 * kind)) & 15
    return size


@jit
def turn_row(s: State, g: int) -> tuple[int, int]:
    """The seat to move's row of the legal table (its hand's index) and used actions."""
    p = s[TO_MOVE, g]
    return hand_index(s[HANDS + p, g]), s[USED + p, g]


@jit
def legal_count(s: State, g: int) -> int:
    """How many distinct legal decisions the seat to move has (0 once the game is over)."""
    if s[TERMINATION, g] >= 0:
        return 0
    offer = s[PENDING, g]
    if offer >= 0:
        return int(t.RESPONSE_COUNT[offer])
    row, used = turn_row(s, g)
    count = 0
    for kind in range(t.ACTION_KINDS):
        if not used >> kind & 1:
            count += t.LEGAL_START[row, kind + 1] - t.LEGAL_START[row, kind]
    return count


@jit
def legal_ids(s: State, g: int, out: Any) -> int:
    """The legal decisions' ids, ascending, into ``out`` (at least 534 long); their number."""
    if s[TERMINATION, g] >= 0:
        return 0
    offer = s[PENDING, g]
    if offer >= 0:
        n = t.RESPONSE_COUNT[offer]
        out[:n] = t.RESPONSES[offer, :n]
        return int(n)
    row, used = turn_row(s, g)
    n = 0
    for kind in range(t.ACTION_KINDS):
        if not used >> kind & 1:
            for i in range(t.LEGAL_START[row, kind], t.LEGAL_START[row, kind + 1]):
                out[n] = t.LEGAL_IDS[i]
                n += 1
    return n


@jit
def legal_at(s: State, g: int, index: int) -> int:
    """The ``index``-th legal decision (in id order) of a game that is not over."""
    offer = s[PENDING, g]
    if offer >= 0:
        return int(t.RESPONSES[offer, index])
    row, used = turn_row(s, g)
    for kind in range(t.ACTION_KINDS):
        if not used >> kind & 1:
            first = t.LEGAL_START[row, kind]
            count = t.LEGAL_START[row, kind + 1] - first
            if index < count:
                return int(t.LEGAL_IDS[first + index])
            index -= count
    return NONE


@jit
def is_legal(s: State, g: int, action: int) -> bool:
    """Whether ``action`` is a legal decision of game ``g`` now (Game.is_legal)."""
    if s[TERMINATION, g] >= 0 or action < 0 or action >= t.ACTIONS_COUNT:
        return False
    offer = s[PENDING, g]
    if offer >= 0:
        return bool((t.RESPONSES[offer, : t.RESPONSE_COUNT[offer]] == action).any())
    p = s[TO_MOVE, g]
    kind = t.ACTION_KIND[action]
    if action >= t.TURN_ACTIONS or s[USED + p, g] >> kind & 1:
        return False
    return bool(((s[HANDS + p, g] | t.GUARD) - t.ACTION_PACKED[action]) & t.GUARD == t.GUARD)


@jit
def copy_game(source: State, g: int, target: State, h: int) -> None:
    """Game ``g`` of ``source`` copied into game ``h`` of ``target``."""
    target[:, h] = source[:, g]
