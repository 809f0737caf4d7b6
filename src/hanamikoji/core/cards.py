"""Geishas, item cards and the packed multiset that holds them.

A hand or a pile is a multiset of the 7 item kinds. It is stored as one ``int``
with a 4-bit count per kind (kind ``k`` in bits ``4k..4k+3``): adding or
removing cards is integer arithmetic, and "is this a sub-multiset" is one
subtraction against guard bits. No kind has more than 5 copies, so bit 3 of
every nibble is free to serve as the guard.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "FULL_SET",
    "GEISHAS",
    "ITEM_COUNT",
    "ITEM_LETTERS",
    "TOTAL_CARDS",
    "TOTAL_CHARM",
    "Card",
    "Cards",
    "Geisha",
    "count_of",
    "counts",
    "from_counts",
    "is_subset",
    "items",
    "letters",
    "pack",
    "size",
]


@dataclass(frozen=True, slots=True)
class Geisha:
    """One geisha card: her place in the row, charm, colour and item."""

    index: int
    name: str
    charm: int
    colour: str
    item: str
    letter: str


GEISHAS: tuple[Geisha, ...] = (
    Geisha(0, "Ayane", 2, "purple", "flute", "A"),
    Geisha(1, "Iroha", 2, "red", "fan", "B"),
    Geisha(2, "Tomoyo", 2, "yellow", "scroll", "C"),
    Geisha(3, "Yoko", 3, "blue", "parasol", "D"),
    Geisha(4, "Chiharu", 3, "orange", "shamisen", "E"),
    Geisha(5, "Anju", 4, "green", "tea set", "F"),
    Geisha(6, "Ruri", 5, "pink", "flower", "G"),
)

ITEM_COUNT = len(GEISHAS)
ITEM_LETTERS = "".join(g.letter for g in GEISHAS)


class Card(enum.IntEnum):
    """An item card, named by its geisha's letter in the row: ``Card.A`` (Ayane's flute)
    to ``Card.G`` (Ruri's flower). It is the item index everywhere an ``int`` is (hands,
    moves, counts), and prints as its letter.

    >>> card = Card(6)
    >>> print(card)
    G
    >>> card == 6, card.geisha.name, card.item, card.charm
    (True, 'Ruri', 'flower', 5)
    """

    A = 0
    B = 1
    C = 2
    D = 3
    E = 4
    F = 5
    G = 6

    @property
    def geisha(self) -> Geisha:
        """The geisha this card counts for."""
        return GEISHAS[self]

    @property
    def item(self) -> str:
        """The item it shows, in English (``flute`` ... ``flower``)."""
        return GEISHAS[self].item

    @property
    def charm(self) -> int:
        """Its geisha's charm: how many cards of this item there are."""
        return GEISHAS[self].charm

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card.{self.name}"


class Cards(tuple[Card, ...]):
    """Cards (item indices, or their letters) as a tuple of :class:`Card`, printed as
    their letters in the notation's form.

    >>> hand = Cards((0, 3, 4, 5, 5, 6, 6))
    >>> print(hand)
    ADEFFGG
    >>> hand[0].geisha.name, hand.count(Card.F), hand == (0, 3, 4, 5, 5, 6, 6)
    ('Ayane', 2, True)
    >>> Cards("gad"), Cards(())
    (Cards('GAD'), Cards(''))
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[int] | str = ()) -> Cards:
        if isinstance(cards, str):
            return super().__new__(cls, map(_card_of_letter, cards))
        return super().__new__(cls, map(Card, cards))

    def __str__(self) -> str:
        return "".join(card.name for card in self)

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"


def _card_of_letter(letter: str) -> Card:
    try:
        return Card[letter.upper()]
    except KeyError:
        raise ValueError(f"{letter!r} is not a card (cards are the letters A-G)") from None


CHARMS: tuple[int, ...] = tuple(g.charm for g in GEISHAS)
TOTAL_CARDS = sum(CHARMS)
TOTAL_CHARM = sum(CHARMS)

_SHIFTS: tuple[int, ...] = tuple(4 * k for k in range(ITEM_COUNT))
UNIT: tuple[int, ...] = tuple(1 << s for s in _SHIFTS)
_GUARD = sum(8 << s for s in _SHIFTS)

FULL_SET = sum(c << s for c, s in zip(CHARMS, _SHIFTS, strict=True))
"""All 21 item cards as a packed multiset."""


def pack(cards: Iterable[int]) -> int:
    """The packed multiset of an iterable of item indices.

    >>> counts(pack([3, 3, 6]))
    (0, 0, 0, 2, 0, 0, 1)
    """
    packed = 0
    for card in cards:
        packed += UNIT[card]
    return packed


def from_counts(per_kind: Iterable[int]) -> int:
    """The packed multiset with the given count of each of the 7 kinds."""
    return sum(c << s for c, s in zip(per_kind, _SHIFTS, strict=True))


def count_of(packed: int, item: int) -> int:
    """How many cards of one kind the multiset holds."""
    return (packed >> _SHIFTS[item]) & 15


def counts(packed: int) -> tuple[int, ...]:
    """The count of each kind, in row order."""
    return tuple((packed >> s) & 15 for s in _SHIFTS)


def items(packed: int) -> tuple[int, ...]:
    """The cards of a multiset as sorted item indices.

    >>> items(pack([6, 0, 3, 0]))
    (0, 0, 3, 6)
    """
    out: list[int] = []
    for kind, shift in enumerate(_SHIFTS):
        out.extend([kind] * ((packed >> shift) & 15))
    return tuple(out)


def letters(cards: Iterable[int], *, sort: bool = False) -> str:
    """Cards (item indices) as their notation letters, in their order or ``sort``-ed.

    >>> letters([6, 0, 3]), letters([6, 0, 3], sort=True), letters([])
    ('GAD', 'ADG', '')
    """
    return "".join(ITEM_LETTERS[card] for card in (sorted(cards) if sort else cards))


def size(packed: int) -> int:
    """Number of cards in a multiset."""
    return sum((packed >> s) & 15 for s in _SHIFTS)


def is_subset(part: int, whole: int) -> bool:
    """Whether every card of ``part`` is in ``whole`` (as multisets).

    The guard bit of a nibble survives the subtraction exactly when that
    kind did not underflow.
    """
    return ((whole | _GUARD) - part) & _GUARD == _GUARD
