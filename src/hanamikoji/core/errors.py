"""The errors the core raises. All are ``ValueError`` subclasses, as in python-chess."""

from __future__ import annotations

import enum

__all__ = [
    "DealError",
    "GameOverError",
    "IllegalMoveError",
    "Illegality",
    "InvalidMoveError",
    "UnknownVariantError",
]


class InvalidMoveError(ValueError):
    """Text that is not a decision in the notation at all."""


class Illegality(enum.Enum):
    """Why a well-formed decision is not legal now: what an interface names, in its
    player's language, instead of reading the core's English message."""

    GAME_OVER = "game_over"
    """The game has ended."""
    AWAITING_DEAL = "awaiting_deal"
    """A round's deal must be given first (games dealt from outside)."""
    ANSWER_FIRST = "answer_first"
    """An action while an offer (``action``) waits for its answer."""
    NOT_OFFERED = "not_offered"
    """An answer that the offer (``action``) does not allow."""
    NO_OFFER = "no_offer"
    """An answer when no offer waits."""
    ACTION_USED = "action_used"
    """The action (``action``) was already used this round."""
    CARD_COUNT = "card_count"
    """The action (``action``) takes ``count`` cards, named: not that many, or hidden."""
    NOT_IN_HAND = "not_in_hand"
    """Cards (``cards``, one entry per missing copy) the player does not hold."""


class IllegalMoveError(ValueError):
    """A well-formed decision that is not legal in the current position. The message says
    why in English; ``reason`` says it as a value, with the ``action`` (a
    :class:`~hanamikoji.core.moves.MoveKind`), the card ``count`` it takes or the missing
    ``cards`` (item indices) where they matter."""

    def __init__(
        self,
        message: str,
        reason: Illegality,
        *,
        action: int | None = None,
        count: int | None = None,
        cards: tuple[int, ...] = (),
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.action = action
        self.count = count
        self.cards = cards


class GameOverError(IllegalMoveError):
    """A decision was offered after the game ended."""

    def __init__(self, message: str) -> None:
        super().__init__(message, Illegality.GAME_OVER)


class UnknownVariantError(ValueError):
    """No variant has this name."""


class DealError(ValueError):
    """An explicit deal that is not a partition of the 21 item cards."""
