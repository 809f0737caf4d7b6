"""Cards as the full-screen app draws them: readable without colour.

Every card shows its letter (the notation's A-G) and an item glyph; colour, the geisha's
own, only adds to them.

>>> chip(3).plain, letters_with_glyphs((0, 6, 6)).plain
('D☂', 'A♪ G✿ G✿')
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from hanamikoji.core import GEISHAS
from hanamikoji.interfaces.terminal import GEISHA_STYLES
from hanamikoji.notation.names import Lang, item_name

__all__ = ["GLYPHS", "card_words", "chip", "letters_with_glyphs"]

GLYPHS = ("♪", "◭", "§", "☂", "♫", "♨", "✿")
"""One glyph per item, in row order: flute, fan, scroll, parasol, shamisen, tea set,
flower (each one terminal cell wide)."""


def chip(card: int) -> Text:
    """A card in two cells: its letter and glyph, in the geisha's colour."""
    return Text(GEISHAS[card].letter + GLYPHS[card], style=GEISHA_STYLES[card])


def letters_with_glyphs(cards: Iterable[int]) -> Text:
    """Cards as chips separated by spaces."""
    return Text(" ").join(chip(card) for card in cards)


def card_words(card: int, lang: Lang) -> Text:
    """A card in words: ``D☂ Yoko · parasol · 3``."""
    geisha = GEISHAS[card]
    text = chip(card)
    text.append(f" {geisha.name} · {item_name(card, lang)} · {geisha.charm}")
    return text
