"""Validation of what players send, with the reason in the player's language.

Every incoming message is decoded by :mod:`~hanamikoji.interfaces.web.wire.incoming`; every
decision goes through :func:`check_decision`. Both raise :class:`Refused` (a catalog key
and its fields), and nothing changes when they do. A number written in a query or a
header is read by :func:`whole_number`, never by ``int()`` (which refuses more than
4,300 digits with a ``ValueError``, and takes digits of any script).

>>> from hanamikoji.core import Game
>>> game = Game(seed=7)
>>> check_decision(game, 1, "S:G")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.games.checks.Refused: err_not_your_turn
>>> check_decision(game, 0, "S:B")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.games.checks.Refused: err_not_in_hand
>>> check_decision(game, 0, "s:g")
Move.from_text('S:G')
>>> whole_number("007", 10), whole_number("9" * 5000, 10), whole_number("²", 10)
(7, 10, None)
"""

from __future__ import annotations

from hanamikoji.core.errors import IllegalMoveError, InvalidMoveError
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.interfaces.messages import illegality, localized
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = [
    "Refused",
    "check_decision",
    "parse_lang",
    "whole_number",
]

_MAX_MOVE_CHARS = 32


class Refused(Exception):
    """A message or decision that is refused; ``key`` names the catalog sentence and
    ``fields`` fill it in. ``fields`` may hold callables of the language (card and action
    names), so one refusal reads right in every language."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields

    def localized_fields(self, lang: Lang) -> dict[str, object]:
        return localized(self.fields, lang)


def parse_lang(value: object) -> Lang:
    for lang in LANGUAGES:
        if value == lang:
            return lang
    raise Refused("err_bad_lang", langs=", ".join(LANGUAGES))


def whole_number(text: str, cap: int) -> int | None:
    """The whole number ``text`` writes in ASCII digits, ``cap`` if it is larger (however
    many digits it has), or ``None`` if ``text`` is not one (empty, a sign, a point,
    digits of another script)."""
    if not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(cap)):
        return cap
    return min(int(digits), cap)


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
