"""Deals derived from a game's seed by an algorithm this project owns.

Python's ``random`` may change its algorithms between releases; a game record must
replay identically for ever, so each round's shuffle comes from SplitMix64
(Steele, Lea and Flood, 2014) and an unbiased bounded draw (Lemire, 2019), written
out here in full.
"""

from __future__ import annotations

from dataclasses import dataclass

from hanamikoji.core.cards import (
    FULL_SET,
    ITEM_COUNT,
    TOTAL_CARDS,
    counts,
    items,
    pack,
)
from hanamikoji.core.errors import DealError

__all__ = ["MAX_SEED", "Deal", "deal_for_round", "splitmix64"]

_MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
"""SplitMix64's increment (the golden ratio in 64 bits)."""
HAND_SIZE = 6
DECK_SIZE = TOTAL_CARDS - 1 - 2 * HAND_SIZE


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: the next state and a 64-bit output.

    >>> splitmix64(0)[1]
    16294208416658607535
    """
    state = (state + GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


@dataclass(frozen=True, slots=True)
class Deal:
    """One round's cards: the removed card, each seat's 6-card hand, the 8-card deck.

    ``hands[0]`` is seat 0's hand whoever starts the round; ``deck[0]`` is drawn first.
    """

    removed: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    deck: tuple[int, ...]

    def __post_init__(self) -> None:
        for hand in self.hands:
            if len(hand) != HAND_SIZE:
                raise DealError(f"a hand has {HAND_SIZE} cards, not {len(hand)}")
        if len(self.deck) != DECK_SIZE:
            raise DealError(f"the deck has {DECK_SIZE} cards, not {len(self.deck)}")
        every = (self.removed, *self.hands[0], *self.hands[1], *self.deck)
        if any(type(c) is not int or not 0 <= c < ITEM_COUNT for c in every):
            raise DealError("cards are item indices 0-6")
        object.__setattr__(self, "deck", tuple(self.deck))
        if pack(every) != FULL_SET:
            over = counts(pack(every))
            wanted = counts(FULL_SET)
            wrong = [
                f"{k}: {over[k]} instead of {wanted[k]}"
                for k in range(ITEM_COUNT)
                if over[k] != wanted[k]
            ]
            raise DealError("a deal uses each item card exactly once; item " + ", ".join(wrong))
        object.__setattr__(
            self, "hands", (tuple(sorted(self.hands[0])), tuple(sorted(self.hands[1])))
        )

    @classmethod
    def from_order(cls, order: tuple[int, ...] | list[int]) -> Deal:
        """The deal of a shuffled 21-card order: removed card, seat 0's hand, seat 1's, deck."""
        return cls(
            order[0],
            (tuple(order[1:7]), tuple(order[7:13])),
            tuple(order[13:21]),
        )

    @classmethod
    def _from_permutation(cls, order: list[int]) -> Deal:
        # A permutation of the full set is a valid deal by construction; skipping the
        # checks matters because every seeded round makes one.
        deal = object.__new__(cls)
        object.__setattr__(deal, "removed", order[0])
        hands = (tuple(sorted(order[1:7])), tuple(sorted(order[7:13])))
        object.__setattr__(deal, "hands", hands)
        object.__setattr__(deal, "deck", tuple(order[13:21]))
        return deal


MAX_SEED = _MASK


def _round_state(seed: int, round_number: int) -> int:
    _, mixed = splitmix64(seed)
    _, mixed = splitmix64(mixed ^ round_number)
    return mixed


def deal_for_round(seed: int, round_number: int) -> Deal:
    """The deal of round ``round_number`` (1-based) of the game with ``seed``.

    >>> deal_for_round(1, 1) == deal_for_round(1, 1) != deal_for_round(1, 2)
    True
    """
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is an integer from 0 to {MAX_SEED}, not {seed}")
    state = _round_state(seed, round_number)
    order = list(_ORDERED)
    mask = _MASK
    for i in range(TOTAL_CARDS - 1, 0, -1):
        bound = i + 1
        while True:
            # SplitMix64, inlined: this loop runs for every round of every game.
            state = (state + GAMMA) & mask
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            product = (z ^ (z >> 31)) * bound
            # Lemire's method: reject the few low products that would bias the draw.
            if product & mask >= THRESHOLDS[bound]:
                break
        j = product >> 64
        order[i], order[j] = order[j], order[i]
    # Deal's private constructor, from its own module: the order is a permutation already.
    return Deal._from_permutation(order)  # noqa: SLF001


_ORDERED = items(FULL_SET)
THRESHOLDS = [0] + [((1 << 64) - bound) % bound for bound in range(1, TOTAL_CARDS + 1)]
"""Lemire's rejection threshold of each bound: a draw whose low product is below it is
drawn again (the compiled engine draws with the same numbers)."""
