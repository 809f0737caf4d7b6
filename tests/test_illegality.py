"""Why a decision is illegal is a value the core fills where it finds it
(``IllegalMoveError.reason`` with the action, count or cards involved), and every
interface names it from that value in its player's language: the web server and the
terminal read the same sentence, and nothing works the rules out a second time."""

from __future__ import annotations

import pytest
from conftest import random_position
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.core import Game, IllegalMoveError, Move
from hanamikoji.core.cards import count_of
from hanamikoji.core.errors import GameOverError, Illegality
from hanamikoji.core.moves import CARDS_PER_ACTION
from hanamikoji.interfaces.messages import illegality, localized, message
from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.games.checks import check_decision
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.names import LANGUAGES
from hanamikoji.research.encoding import all_moves

EVERY_MOVE = all_moves()


def refusal(game: Game, move: Move) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as raised:
        game.push(move)
    return raised.value


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    variant=st.sampled_from(["classic", "three-rounds", "french"]),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
    index=st.integers(0, len(EVERY_MOVE) - 1),
)
def test_every_refusal_carries_its_reason_with_what_is_involved(
    variant: str, seed: int, plies: int, index: int
) -> None:
    game = random_position(variant, seed, plies)
    move = EVERY_MOVE[index]
    if game.is_legal(move):
        assert move in game.legal_moves
        return
    error = refusal(game, move)
    if game.is_over():
        assert isinstance(error, GameOverError) and error.reason is Illegality.GAME_OVER
        return
    seat = game.to_move
    assert seat is not None
    pending = game.pending
    if pending is not None:
        expected = Illegality.NOT_OFFERED if move.is_response else Illegality.ANSWER_FIRST
        assert (error.reason, error.action) == (expected, pending.kind)
    elif move.is_response:
        assert error.reason is Illegality.NO_OFFER
    elif move.kind in game.view(seat).used[seat]:
        assert (error.reason, error.action) == (Illegality.ACTION_USED, move.kind)
    elif error.reason is Illegality.CARD_COUNT:
        assert error.count == CARDS_PER_ACTION[move.kind] and error.action == move.kind
    else:
        assert error.reason is Illegality.NOT_IN_HAND
        hand = game.hand(seat)
        for card in set(error.cards):
            missing = count_of(move.packed, card) - hand.count(card)
            assert error.cards.count(card) == missing > 0
    key, fields = illegality(error)
    for lang in LANGUAGES:
        assert message(key, lang, **localized(fields, lang))
    with pytest.raises(Refused) as refused:
        check_decision(game, seat, move.text())
    for lang in LANGUAGES:
        said = text(refused.value.key, lang, **refused.value.localized_fields(lang))
        assert said == message(key, lang, **localized(fields, lang))


def test_a_missing_card_is_named_in_the_players_language() -> None:
    game = Game(seed=7, first_player=0)  # Player 1 holds no B
    error = refusal(game, Move.from_text("S:B"))
    assert (error.reason, error.cards) == (Illegality.NOT_IN_HAND, (1,))
    key, fields = illegality(error)
    assert message(key, "es", **localized(fields, "es")).startswith("No está en tu mano: ")
    assert str(error) == "illegal move S:B: not in Player 1's hand: 1 x B (Iroha's fan)"
