"""The errors the core raises. All are ``ValueError`` subclasses, as in python-chess."""

from __future__ import annotations

__all__ = [
    "DealError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "UnknownVariantError",
]


class InvalidMoveError(ValueError):
    """Text that is not a decision in the notation at all."""


class IllegalMoveError(ValueError):
    """A well-formed decision that is not legal in the current position; the message says why."""


class GameOverError(IllegalMoveError):
    """A decision was offered after the game ended."""


class UnknownVariantError(ValueError):
    """No variant has this name."""


class DealError(ValueError):
    """An explicit deal that is not a partition of the 21 item cards."""
