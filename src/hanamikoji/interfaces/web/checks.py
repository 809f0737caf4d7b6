"""Validation of what players send, with the reason in the player's language.

Every incoming message is decoded by :mod:`~hanamikoji.interfaces.web.schema`; every
decision goes through :func:`check_decision`. Both raise :class:`Refused` (a catalog key
and its fields), and nothing changes when they do.

>>> from hanamikoji.core import Game
>>> game = Game(seed=7)
>>> check_decision(game, 1, "S:G")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.checks.Refused: err_not_your_turn
>>> check_decision(game, 0, "S:B")
Traceback (most recent call last):
...
hanamikoji.interfaces.web.checks.Refused: err_not_in_hand
>>> check_decision(game, 0, "s:g")
Move.from_text('S:G')
"""

from __future__ import annotations

import contextlib

from hanamikoji.core.cards import ITEM_COUNT, count_of, pack
from hanamikoji.core.errors import IllegalMoveError, InvalidMoveError
from hanamikoji.core.game import Game
from hanamikoji.core.moves import CARDS_PER_ACTION, Move, MoveKind, response_moves
from hanamikoji.notation.names import LANGUAGES, Lang, action_name, card_label

__all__ = [
    "Refused",
    "check_decision",
    "parse_lang",
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
        return {
            name: value(lang) if callable(value) else value for name, value in self.fields.items()
        }


def parse_lang(value: object) -> Lang:
    for lang in LANGUAGES:
        if value == lang:
            return lang
    raise Refused("err_bad_lang", langs=", ".join(LANGUAGES))


def _action(kind: MoveKind) -> object:
    return lambda lang: action_name(kind, lang)


def _cards(cards: tuple[int, ...]) -> object:
    return lambda lang: ", ".join(card_label(card, lang) for card in cards)


def check_decision(game: Game, seat: int, text: str) -> Move:
    """The decision ``text`` of ``seat`` if it is legal now; else :class:`Refused` says why.

    The core decides legality (:meth:`Game.parse_move`); this only names the reason
    in words a player reads, in any language.
    """
    if game.is_over():
        raise Refused("err_game_over")
    if game.to_move != seat:
        raise Refused("err_not_your_turn")
    with contextlib.suppress(ValueError):
        return game.parse_move(text)  # legal: the common case needs no diagnosis
    try:
        move = Move.from_text(text)
    except InvalidMoveError as error:
        raise Refused("err_not_a_move", text=text[:_MAX_MOVE_CHARS], detail=str(error)) from None
    pending = game.pending
    if pending is not None:
        if not move.is_response:
            raise Refused("err_answer_first", action=_action(pending.kind))
        if move not in response_moves(pending):
            raise Refused("err_not_offered", action=_action(pending.kind))
    elif move.is_response:
        raise Refused("err_no_offer")
    else:
        view = game.view(seat)
        if move.kind in view.used[seat]:
            raise Refused("err_used", action=_action(move.kind))
        if move.hidden or len(move.cards) != CARDS_PER_ACTION[move.kind]:
            raise Refused(
                "err_card_count", action=_action(move.kind), count=CARDS_PER_ACTION[move.kind]
            )
        hand = pack(view.hand)
        missing = tuple(
            kind
            for kind in range(ITEM_COUNT)
            for _ in range(count_of(move.packed, kind) - count_of(hand, kind))
        )
        if missing:
            raise Refused("err_not_in_hand", cards=_cards(missing))
    try:
        return game.parse_move(text)
    except IllegalMoveError as error:  # a reason the checks above do not name
        raise Refused("err_illegal", detail=str(error)) from None
