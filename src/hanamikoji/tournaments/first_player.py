"""Who starts: the first player of each game, balanced over a player's event.

A player's roles are their games in order, ``True`` where they started; their
*balance* is games started minus games not started. In a pairing the player with the
lower balance starts; on equal balances, the one who did not start in the latest game
where their roles differed; failing that (a first game, or the same roles all along),
the higher-ranked player starts on the even boards (the first, third, ...) and not on
the odd ones, so the top half of the first round is split evenly.

Both players stay within one of a perfect balance unless they meet with the same
balance, not zero: :func:`overflow` counts who would go beyond, which the pairing
avoids when it can.

>>> balance((True, False, True))
1
>>> starts((True,), (False,), higher=True, board=0)   # the one behind starts
False
>>> starts((True, False), (False, True), higher=True, board=0)   # alternation
True
>>> starts((), (), higher=True, board=1)   # the higher-ranked on odd boards: second
False
>>> overflow((True,), (True,)), overflow((True,), (False,))
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Roles", "balance", "overflow", "starts"]

Roles = tuple[bool, ...]
"""A player's games in order: ``True`` where they started."""


def balance(roles: Sequence[bool]) -> int:
    """Games started minus games not started."""
    started = sum(roles)
    return started - (len(roles) - started)


def starts(mine: Roles, theirs: Roles, *, higher: bool, board: int) -> bool:
    """Whether the player with roles ``mine`` starts against ``theirs``; ``higher``:
    whether they are the higher-ranked of the two; ``board``: the pairing's place in its
    round (or the game's number in an arena)."""
    own, other = balance(mine), balance(theirs)
    if own != other:
        return own < other
    for my_role, their_role in zip(reversed(mine), reversed(theirs), strict=False):
        if my_role != their_role:
            return not my_role
    return higher == (board % 2 == 0)


def overflow(mine: Roles, theirs: Roles) -> int:
    """How many of the two would end more than one from a perfect balance after their
    game (the one with the lower balance starting): 0, 1 or 2."""
    low, high = sorted((balance(mine), balance(theirs)))
    return int(abs(low + 1) > 1) + int(abs(high - 1) > 1)
