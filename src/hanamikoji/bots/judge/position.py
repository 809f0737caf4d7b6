"""What the judge reads of a view (the position's features), and the constants its two
forms share.

The judge is written twice: in Python (:mod:`hanamikoji.bots.judge.reference`, the
readable reference) and compiled with numba (:mod:`hanamikoji.bots.judge.kernel`). Both
read the same :class:`JudgedPosition` and the same tables, which live here so that
neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from hanamikoji.core.cards import ITEM_COUNT
from hanamikoji.core.moves import ACTIONS, MoveKind
from hanamikoji.core.view import View

__all__ = [
    "ALL_ACTIONS",
    "DESTINATIONS",
    "ME",
    "NOBODY",
    "THEM",
    "TIE_TOLERANCE",
    "JudgedPosition",
]

ALL_ACTIONS = sum(1 << kind for kind in ACTIONS)
"""The bitmask of the four action markers."""

DESTINATIONS: dict[MoveKind, tuple[int, int, int]] = {
    MoveKind.SECRET: (1, 0, 0),
    MoveKind.TRADE_OFF: (0, 0, 2),
    MoveKind.GIFT: (2, 1, 0),
    MoveKind.COMPETITION: (2, 2, 0),
}
"""Where the cards of one action end up: (actor's side, other side, out of the round).
In a Gift the opponent takes 1 of 3, in a Competition 2 of 4."""

TIE_TOLERANCE = 1e-9
"""Scores this close are equal; chances this close to 1 are certain."""

ME, THEM, NOBODY = 0, 1, 2
"""Who holds a geisha's marker, from the deciding player's side."""


@dataclass(slots=True)
class JudgedPosition:
    """What the judge reads of a view, from the deciding player's side."""

    lead: list[int]
    """Per geisha, this player's committed cards (its Secret included) minus the opponent's."""
    hand: list[int]
    unseen: tuple[int, ...]
    holder: list[int]
    mine_left: int
    theirs_left: int
    their_hand: int
    drawn_now: int
    """1 on this player's turn: its next draw comes with its next action."""

    @classmethod
    def of(cls, view: View) -> JudgedPosition:
        me, them = view.player, view.opponent
        mine = list(view.placed[me])
        if view.secret is not None:
            mine[view.secret] += 1
        theirs = view.placed[them]
        hand = [0] * ITEM_COUNT
        for card in view.hand:
            hand[card] += 1
        return cls(
            lead=[mine[k] - theirs[k] for k in range(ITEM_COUNT)],
            hand=hand,
            unseen=view.unseen(),
            holder=[
                NOBODY if owner is None else ME if owner == me else THEM for owner in view.favor
            ],
            mine_left=ALL_ACTIONS & ~sum(1 << kind for kind in view.used[me]),
            theirs_left=ALL_ACTIONS & ~sum(1 << kind for kind in view.used[them]),
            their_hand=view.hand_sizes[them],
            drawn_now=1 if view.pending is None else 0,
        )
