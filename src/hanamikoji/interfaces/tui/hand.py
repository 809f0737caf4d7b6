"""The hand of the person facing the screen, and their action markers, both clickable.

The hand is drawn in cells of :data:`CELL` columns: the key (1-7) above each card, a
▸ at the cursor and a * at the card just drawn; chosen cards are in brackets (and
reversed); the line below names the card under the cursor in words.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from hanamikoji.core import ACTIONS, MoveKind, View
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.tui.board import Side, render_markers
from hanamikoji.interfaces.tui.cards import card_words, chip
from hanamikoji.interfaces.tui.decision import Draft
from hanamikoji.interfaces.tui.flow import FlowBar
from hanamikoji.notation.names import Deck, Lang

__all__ = ["CELL", "ActionBar", "HandBar", "render_hand"]

CELL = 5
"""Columns per card of the hand."""

MARKER_GAP = "  "
"""Between two action markers on a line."""


def _drawn_slot(view: View) -> int | None:
    if view.drawn is None:
        return None
    return max(slot for slot, card in enumerate(view.hand) if card == view.drawn)


def render_hand(view: View, draft: Draft | None, lang: Lang, deck: Deck = "boxed") -> Text:
    """Three lines: keys, cards, the card under the cursor in words."""
    keys, cards = Text(), Text()
    chosen = draft.chosen if draft is not None and not draft.answering else []
    cursor = draft.cursor if draft is not None and not draft.answering else None
    drawn = _drawn_slot(view)
    for slot, card in enumerate(view.hand):
        mark = "▸" if slot == cursor else " "
        star = "*" if slot == drawn else " "
        keys.append(f"{mark}{slot + 1}{star}".center(CELL), style="bold" if mark != " " else "dim")
        face = chip(card, deck)
        pad = " " * (CELL - 2 - face.cell_len)
        if slot in chosen:
            face.stylize("reverse")
            cards.append("[", style="bold")
            cards.append_text(face)
            cards.append("]" + pad, style="bold")
        else:
            cards.append(" ")
            cards.append_text(face)
            cards.append(" " + pad)
    words = Text(message("tui_hand", lang, n=len(view.hand)), style="dim")
    if cursor is not None and 0 <= cursor < len(view.hand):
        words = Text("▸ ")
        words.append_text(card_words(view.hand[cursor], lang, deck))
        if cursor == drawn:
            words.append(f" ({message('drawn', lang)})", style="italic")
    return Text("\n").join((keys, cards, words))


class HandBar(Static):
    """The hand; a click on a card chooses it."""

    class Clicked(Message):
        def __init__(self, slot: int) -> None:
            super().__init__()
            self.slot = slot

    def on_click(self, event: events.Click) -> None:
        at = event.get_content_offset(self)
        if at is not None and at.y in (0, 1):
            self.post_message(self.Clicked(at.x // CELL))


class ActionBar(FlowBar):
    """One side's action markers, on as many lines as the width needs; for the person
    deciding, a click chooses one."""

    class Chosen(Message):
        def __init__(self, kind: MoveKind) -> None:
            super().__init__()
            self.kind = kind

    def __init__(self, *, id: str) -> None:
        super().__init__(gap=MARKER_GAP, id=id)
        self._active = False

    def show_side(self, side: Side, lang: Lang, active: bool, deck: Deck = "boxed") -> None:
        self._active = active
        self.show_parts(render_markers(side, lang, keys=active, deck=deck))

    def on_click(self, event: events.Click) -> None:
        at = event.get_content_offset(self)
        if not self._active or at is None:
            return
        for kind, (row, start, end) in zip(ACTIONS, self.spans, strict=True):
            if row == at.y and start <= at.x < end:
                self.post_message(self.Chosen(kind))
