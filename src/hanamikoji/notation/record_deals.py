"""A round's deal in a record: the four fields of the text form's Deal line
(``removed``, ``hand1``, ``hand2``, ``deck``) and the JSON form's deal object."""

from __future__ import annotations

from hanamikoji.core.cards import ITEM_LETTERS, letters
from hanamikoji.core.errors import DealError
from hanamikoji.core.rng import DECK_SIZE, HAND_SIZE, Deal

DEAL_FIELDS = ("removed", "hand1", "hand2", "deck")
DEAL_SIZES = {"removed": 1, "hand1": HAND_SIZE, "hand2": HAND_SIZE, "deck": DECK_SIZE}


class FieldProblem(Exception):
    """A deal field at fault; ``offset`` is the character within its value, if one is."""

    def __init__(self, field: str, offset: int | None, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.offset = offset
        self.reason = reason


def deal_line(deal: Deal) -> str:
    return (
        f"Deal removed:{ITEM_LETTERS[deal.removed]} hand1:{letters(deal.hands[0])}"
        f" hand2:{letters(deal.hands[1])} deck:{letters(deal.deck)}"
    )


def deal_json(deal: Deal) -> dict[str, object]:
    return {
        "removed": ITEM_LETTERS[deal.removed],
        "hands": [letters(deal.hands[0]), letters(deal.hands[1])],
        "deck": letters(deal.deck),
    }


def deal_from_fields(fields: dict[str, str]) -> Deal:
    """A deal from the letters of its four fields. Raises :class:`FieldProblem`."""
    cards: dict[str, tuple[int, ...]] = {}
    for name in DEAL_FIELDS:
        letters = fields[name]
        parsed = []
        for offset, letter in enumerate(letters):
            card = ITEM_LETTERS.find(letter.upper())
            if card < 0 or not letter.strip():
                raise FieldProblem(
                    name,
                    offset,
                    f"{letter!r} is not a card (cards are the letters A-G, Ayane to Ruri)",
                )
            parsed.append(card)
        if len(parsed) != DEAL_SIZES[name]:
            what = "the removed card is one card" if name == "removed" else f"{name} has"
            wanted = DEAL_SIZES[name]
            raise FieldProblem(
                name,
                None,
                f"{what}, not {len(parsed)}"
                if name == "removed"
                else f"{what} {wanted} cards, not {len(parsed)}",
            )
        cards[name] = tuple(parsed)
    try:
        return Deal(cards["removed"][0], (cards["hand1"], cards["hand2"]), cards["deck"])
    except DealError as error:
        raise FieldProblem("", None, f"not a deal of the 21 cards: {error}") from None
