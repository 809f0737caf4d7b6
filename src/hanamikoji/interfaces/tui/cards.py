"""Cards as the full-screen app draws them: readable without colour.

Every card shows its letter (the notation's A-G) and an item glyph, and with the
card-table deck its suit; colour, the geisha's own, only adds to them.

>>> chip(3).plain, letters_with_glyphs((0, 6, 6)).plain
('D☂', 'A♪ G✿ G✿')
>>> chip(3, "card-table").plain, card_words(3, "en", "card-table").plain
('D☂♦', 'D☂♦ Yoko · parasol · 3♦')

An action is named in words; with the card-table deck its card follows, rank and suit
(Player 1's clubs, Player 2's spades), so that no rank reads as a key (``Q`` quits):

>>> action_words(MoveKind.GIFT, 0, "en", "card-table"), action_words(MoveKind.GIFT, 1, "en")
('Gift Q♣', 'Gift')
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from hanamikoji.core import GEISHAS, MoveKind
from hanamikoji.interfaces.words import GEISHA_STYLES
from hanamikoji.notation.names import (
    ACTION_SUITS,
    Deck,
    Lang,
    action_name,
    card_table_action,
    card_table_geisha,
    card_table_item,
    item_name,
)

__all__ = ["GLYPHS", "action_words", "card_words", "chip", "geisha_rank", "letters_with_glyphs"]

GLYPHS = ("♪", "◭", "§", "☂", "♫", "♨", "✿")
"""One glyph per item, in row order: flute, fan, scroll, parasol, shamisen, tea set,
flower (each one terminal cell wide)."""


def chip(card: int, deck: Deck = "boxed") -> Text:
    """A card in two cells, its letter and glyph, in the geisha's colour; in three with
    the card-table deck, its suit after them."""
    suit = card_table_item(card) if deck == "card-table" else ""
    return Text(GEISHAS[card].letter + GLYPHS[card] + suit, style=GEISHA_STYLES[card])


def letters_with_glyphs(cards: Iterable[int], deck: Deck = "boxed") -> Text:
    """Cards as chips separated by spaces."""
    return Text(" ").join(chip(card, deck) for card in cards)


def geisha_rank(card: int, deck: Deck = "boxed") -> str:
    """A geisha's charm; with the card-table deck her card, of that rank: ``3♦``."""
    return card_table_geisha(card) if deck == "card-table" else str(GEISHAS[card].charm)


def card_words(card: int, lang: Lang, deck: Deck = "boxed") -> Text:
    """A card in words: ``D☂ Yoko · parasol · 3``."""
    geisha = GEISHAS[card]
    text = chip(card, deck)
    text.append(f" {geisha.name} · {item_name(card, lang)} · {geisha_rank(card, deck)}")
    return text


def action_words(kind: MoveKind, seat: int, lang: Lang, deck: Deck = "boxed") -> str:
    """The name of ``seat``'s action ``kind``; with the card-table deck its card after it,
    rank and suit (``Gift Q♣``). The app's keys are letters: a rank alone before the name
    (``Q Gift``) would read as the key of the action."""
    name = action_name(kind, lang)
    if deck != "card-table":
        return name
    return f"{name} {card_table_action(kind)}{ACTION_SUITS[seat].symbol}"
