"""Validation of what players send, with the reason in the player's language.

Every incoming message is decoded by :mod:`~hanamikoji.interfaces.web.wire.incoming`; every
decision goes through :func:`check_decision`. Both raise
:class:`~hanamikoji.interfaces.web.wire.refused.Refused` (a catalog key and its fields),
and nothing changes when they do.

>>> from hanamikoji.core import Game
>>> game = Game(seed=7)
>>> check_decision(game, 1, "S:G")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_not_your_turn
>>> check_decision(game, 0, "S:B")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_not_in_hand
>>> check_decision(game, 0, "s:g")
Move.from_text('S:G')
"""

from __future__ import annotations

from hanamikoji.core.errors import IllegalMoveError, InvalidMoveError
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.interfaces.messages import illegality
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["check_decision"]

_MAX_MOVE_CHARS = 32


def check_decision(game: Game, seat: int, text: str) -> Move:
    """The decision ``text`` of ``seat`` if it is legal now; else :class:`Refused` says why.

    The core decides legality and says why not (:class:`IllegalMoveError`'s reason);
    this only names the reason in words a player reads, in any language.
    """
    if game.is_over():
        raise Refused("err_game_over")
    if game.to_move != seat:
        raise Refused("err_not_your_turn")
    try:
        return game.parse_move(text)
    except InvalidMoveError as error:
        raise Refused("err_not_a_move", text=text[:_MAX_MOVE_CHARS], detail=str(error)) from None
    except IllegalMoveError as error:
        key, fields = illegality(error)
        raise Refused(key, **fields) from None
