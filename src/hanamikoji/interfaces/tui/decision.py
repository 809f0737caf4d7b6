"""A decision being built by keys or mouse, before it is played.

A :class:`Draft` holds what the person has chosen so far from their own view: an action
and cards from the hand (by position in the sorted hand), the pairing of a
Competition's four cards, or the answer to an offer. It never holds an illegal
decision: an action already used, more cards than the action takes or a card not in
the hand are refused with the reason (a :data:`Refusal`, a sentence key and its
fields). Undo takes back the last step.

>>> from hanamikoji.core import Game
>>> view = Game(seed=7, first_player=0).view(0)
>>> view.hand
(0, 3, 4, 5, 5, 6, 6)
>>> draft = Draft(view)
>>> draft.choose(MoveKind.COMPETITION)
>>> for slot in (0, 6, 1, 3):
...     draft.toggle(slot)
>>> [str(move) for move in draft.pairings()], str(draft.move())
(['C:AG/DF', 'C:AD/FG', 'C:AF/DG'], 'C:AG/DF')
>>> draft.next_pairing(); str(draft.move())
'C:AD/FG'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hanamikoji.core import ACTIONS, Move, MoveKind, View
from hanamikoji.core.moves import CARDS_PER_ACTION

__all__ = ["Draft", "Refusal"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a step was refused: a sentence key of ``interfaces.messages`` and its fields
    (an action is given as its :class:`MoveKind`, named in the player's language)."""

    key: str
    action: MoveKind | None = None
    n: int | None = None


@dataclass(slots=True)
class Draft:
    """The decision the player of ``view`` is building (``view`` is theirs, to move)."""

    view: View
    kind: MoveKind | None = None
    chosen: list[int] = field(default_factory=list)
    """Positions in ``view.hand`` of the chosen cards, in the order chosen."""
    pairing: int = 0
    cursor: int = 0
    """The hand position under the cursor, or the highlighted answer to an offer."""

    @property
    def answering(self) -> bool:
        """Whether the decision is the answer to an opponent's Gift or Competition."""
        return self.view.pending is not None

    def options(self) -> tuple[Move, ...]:
        """The answers to the offer (empty when this is a turn)."""
        return self.view.generate_legal_moves() if self.answering else ()

    def actions_left(self) -> tuple[MoveKind, ...]:
        used = self.view.used[self.view.player]
        return tuple(kind for kind in ACTIONS if kind not in used)

    def needed(self) -> int | None:
        """How many cards the chosen action takes."""
        return None if self.kind is None else CARDS_PER_ACTION[self.kind]

    def cards(self) -> tuple[int, ...]:
        """The chosen cards, in the order chosen."""
        return tuple(self.view.hand[slot] for slot in self.chosen)

    # -- steps ------------------------------------------------------------------------

    def choose(self, kind: MoveKind) -> Refusal | None:
        """Take the action ``kind`` (cards already chosen stay, as many as it takes)."""
        pending = self.view.pending
        if pending is not None:
            return Refusal("err_answer_first", action=pending.kind)
        if kind not in self.actions_left():
            return Refusal("err_used", action=kind)
        self.kind = kind
        del self.chosen[CARDS_PER_ACTION[kind] :]
        self.pairing = 0
        return None

    def toggle(self, slot: int) -> Refusal | None:
        """Choose the card at hand position ``slot``, or give it back if chosen. A
        one-card action swaps its card; a full choice refuses another."""
        if self.answering:
            return self.pick(slot)
        if not 0 <= slot < len(self.view.hand):
            return Refusal("tui_no_card", n=len(self.view.hand))
        self.cursor = slot
        self.pairing = 0
        if slot in self.chosen:
            self.chosen.remove(slot)
            return None
        needed = self.needed()
        if needed is not None and len(self.chosen) >= needed:
            if needed != 1:
                return Refusal("err_card_count", action=self.kind, n=needed)
            self.chosen.clear()
        self.chosen.append(slot)
        return None

    def pick(self, index: int) -> Refusal | None:
        """Highlight answer ``index`` to the offer."""
        count = len(self.options())
        if not 0 <= index < count:
            return Refusal("tui_no_option", n=count)
        self.cursor = index
        return None

    def move_cursor(self, step: int) -> None:
        """Move the cursor along the hand or the answers, wrapping around."""
        size = len(self.options()) if self.answering else len(self.view.hand)
        if size:
            self.cursor = (self.cursor + step) % size

    def pairings(self) -> tuple[Move, ...]:
        """A Competition's possible pairings of its four cards, the order chosen first
        (the first two cards chosen against the last two)."""
        if self.kind != MoveKind.COMPETITION or len(self.chosen) != 4:
            return ()
        a, b, c, d = self.cards()
        splits = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
        return tuple(dict.fromkeys(Move.competition(*split) for split in splits))

    def next_pairing(self) -> None:
        """Switch to the Competition's next pairing."""
        count = len(self.pairings())
        if count:
            self.pairing = (self.pairing + 1) % count

    def undo(self) -> bool:
        """Take back the last step (a card, else the action); whether there was one."""
        if self.answering or (self.kind is None and not self.chosen):
            return False
        if self.chosen:
            self.chosen.pop()
            self.pairing = 0
        else:
            self.kind = None
        return True

    def clear(self) -> None:
        """Start the decision again."""
        self.kind = None
        self.chosen.clear()
        self.pairing = 0

    # -- the result -------------------------------------------------------------------

    def move(self) -> Move | None:
        """The decision, once complete; ``None`` while something is missing."""
        if self.answering:
            options = self.options()
            return options[self.cursor] if 0 <= self.cursor < len(options) else None
        if self.kind is None or len(self.chosen) != self.needed():
            return None
        cards = self.cards()
        if self.kind == MoveKind.SECRET:
            return Move.secret(cards[0])
        if self.kind == MoveKind.TRADE_OFF:
            return Move.trade_off(*cards)
        if self.kind == MoveKind.GIFT:
            return Move.gift(*cards)
        return self.pairings()[self.pairing]

    def missing(self) -> Refusal:
        """What the decision still lacks (when :meth:`move` is ``None``)."""
        if self.kind is None:
            return Refusal("tui_choose_action")
        return Refusal("err_card_count", action=self.kind, n=self.needed())
