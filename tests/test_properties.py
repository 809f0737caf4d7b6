"""Properties over random games of every variant (hypothesis).

A game is drawn as a variant, a seed, a first player and a source of choices; each
decision picks among the legal ones by that source. Games of ``classic`` are cut after
``DECISION_LIMIT`` decisions, since that variant has no round limit.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from conftest import (
    FULL_DECK,
    brute_force_moves,
    card_multiset,
    snapshot,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.core import (
    Deal,
    Game,
    Move,
    MoveKind,
    Phase,
    View,
)

DECISION_LIMIT = 120
VARIANT_NAMES = ["classic", "three-rounds", "french", "classic/cap=2"]


@dataclass(frozen=True)
class Line:
    """A random game: how it was set up and every decision in order."""

    variant: str
    seed: int
    first_player: int
    moves: tuple[Move, ...]

    def new_game(self) -> Game:
        return Game(self.variant, seed=self.seed, first_player=self.first_player)


@st.composite
def lines(draw: st.DrawFn) -> Line:
    variant = draw(st.sampled_from(VARIANT_NAMES))
    seed = draw(st.integers(0, 2**64 - 1))
    first_player = draw(st.integers(0, 1))
    # Hypothesis' own randoms shrink well but favour short games; a seeded Random plays
    # uniformly, so games of four rounds and more show up too.
    rng = draw(
        st.one_of(
            st.randoms(use_true_random=False),
            st.integers(0, 2**32 - 1).map(random.Random),
        )
    )
    game = Game(variant, seed=seed, first_player=first_player)
    while not game.is_over() and len(game.move_stack) < DECISION_LIMIT:
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])
    return Line(variant, seed, first_player, tuple(game.move_stack))


def replay(line: Line) -> list[Game]:
    """The game after 0, 1, ..., all of the line's decisions (independent copies)."""
    game = line.new_game()
    states = [game.copy()]
    for move in line.moves:
        game.push(move)
        states.append(game.copy())
    return states


LIMITS = (2, 2, 2, 3, 3, 4, 5)


def _possible(cards: tuple[int, ...]) -> bool:
    return all(cards.count(k) <= LIMITS[k] for k in cards)


def _universe() -> tuple[Move, ...]:
    """Every distinct decision that exists at all, to test `is_legal` against the generator."""
    kinds = range(7)
    moves: set[Move] = {Move.secret(k) for k in kinds}
    moves.update(Move.gift_response(k) for k in kinds)
    for a, b in combinations_with_replacement(kinds, 2):
        if _possible((a, b)):
            moves.add(Move.trade_off(a, b))
        moves.add(Move.competition_response((a, b)))
    for a, b, c in combinations_with_replacement(kinds, 3):
        if _possible((a, b, c)):
            moves.add(Move.gift(a, b, c))
    for four in combinations_with_replacement(kinds, 4):
        if not _possible(four):
            continue
        for first in combinations(range(4), 2):
            i, j = (k for k in range(4) if k not in first)
            moves.add(Move.competition((four[first[0]], four[first[1]]), (four[i], four[j])))
    return tuple(sorted(moves, key=str))


UNIVERSE = _universe()


@settings(max_examples=120, deadline=None)
@given(lines())
def test_every_card_is_accounted_for_at_every_step(line: Line) -> None:
    game = line.new_game()
    for move in (*line.moves, None):
        assert card_multiset(game) == FULL_DECK
        if not game.is_over():
            deck = game.deck()
            removed = game.removed()
            assert removed is not None
            for seat in (0, 1):
                view = game.view(seat)
                assert view.hand_sizes == (len(game.hand(0)), len(game.hand(1)))
                assert view.deck_size == len(deck)
                # What a player has not seen is exactly the opponent's hidden cards,
                # the removed card and the deck.
                other = game.view(1 - seat)
                unseen = Counter(game.hand(1 - seat)) + Counter(other.tradeoff)
                unseen.update(deck)
                unseen[removed] += 1
                if other.secret is not None:
                    unseen[other.secret] += 1
                assert view.unseen() == tuple(unseen[k] for k in range(7))
        if move is not None:
            game.push(move)
    if game.is_over():
        # Each scored round, from its public summary and the final reveal, holds all 21.
        reveal = game.reveal()
        assert [r.deal for r in reveal.rounds] == list(game.deals())
        for summary, hidden in zip(game.summaries(), reveal.rounds, strict=True):
            cards: Counter[int] = Counter({hidden.deal.removed: 1})
            for seat in (0, 1):
                cards.update({k: n for k, n in enumerate(summary.sides[seat]) if n})
                cards.update(hidden.tradeoffs[seat])
                secret = hidden.secrets[seat]
                assert secret == summary.secrets[seat]
                assert secret is not None and summary.sides[seat][secret] >= 1
            assert cards == FULL_DECK


@settings(max_examples=80, deadline=None)
@given(lines())
def test_the_generator_agrees_with_brute_force_and_is_legal(line: Line) -> None:
    game = line.new_game()
    for move in (*line.moves, None):
        legal = game.legal_moves
        assert len(set(legal)) == len(legal), "legal_moves() repeats a decision"
        texts = [str(m) for m in legal]
        assert len(set(texts)) == len(texts)
        assert set(texts) == brute_force_moves(game)
        assert {m for m in UNIVERSE if game.is_legal(m)} == set(legal)
        for m in legal:
            assert Move.from_text(str(m)) == m
        seat = game.to_move
        if seat is not None:
            assert game.view(seat).legal_moves == legal
            assert game.view(1 - seat).legal_moves == ()
        else:
            assert legal == ()
        if move is not None:
            assert move in legal
            game.push(move)


@settings(max_examples=80, deadline=None)
@given(lines())
def test_pop_restores_every_previous_state(line: Line) -> None:
    game = line.new_game()
    history = [snapshot(game)]
    for move in line.moves:
        game.push(move)
        history.append(snapshot(game))
    assert snapshot(game) == history[-1]
    for move, expected in zip(reversed(line.moves), reversed(history[:-1]), strict=True):
        assert game.pop() == move
        assert snapshot(game) == expected
    assert game.move_stack == ()


@settings(max_examples=80, deadline=None)
@given(lines())
def test_replaying_the_move_stack_gives_the_same_game(line: Line) -> None:
    original = line.new_game()
    for move in line.moves:
        original.push(move)
    expected = snapshot(original)
    again = line.new_game()
    for move in original.move_stack:
        again.push(move)
    assert snapshot(again) == expected
    # Through the text form, and from the recorded deals without the seed.
    from_text = Game(line.variant, first_player=line.first_player, deals=original.deals())
    for move in original.move_stack:
        from_text.push_text(str(move))
    assert snapshot(from_text) == expected


# -- information hiding ----------------------------------------------------------------------


@dataclass
class SlotTrace:
    """Which physical card slots of one round's deal went where.

    Slots follow ``Deal.from_order``: 0 is the removed card, 1-6 seat 0's hand, 7-12
    seat 1's hand, 13-20 the deck in drawing order. Copies of an item are alike, so
    which slot an action takes among equal cards does not matter.
    """

    order: list[int]
    holdings: tuple[list[int], list[int]]
    hidden: dict[int, list[int]]
    drawn: int = 0

    @classmethod
    def of(cls, deal: Deal) -> SlotTrace:
        order = [deal.removed, *deal.hands[0], *deal.hands[1], *deal.deck]
        return cls(order, (list(range(1, 7)), list(range(7, 13))), {})

    def draw(self, seat: int) -> None:
        self.holdings[seat].append(13 + self.drawn)
        self.drawn += 1

    def play(self, index: int, seat: int, move: Move) -> None:
        if not move.kind.is_action:
            return
        taken = []
        for card in move.cards:
            slot = next(s for s in self.holdings[seat] if self.order[s] == card)
            self.holdings[seat].remove(slot)
            taken.append(slot)
        if move.kind in (MoveKind.SECRET, MoveKind.TRADE_OFF):
            self.hidden[index] = taken

    def unseen_by(self, seat: int, hidden_owner: dict[int, int]) -> list[int]:
        opponent = 1 - seat
        slots = [0, *self.holdings[opponent], *range(13 + self.drawn, 21)]
        for index, taken in self.hidden.items():
            if hidden_owner[index] == opponent:
                slots.extend(taken)
        return slots


def hidden_move(kind: MoveKind, cards: list[int]) -> Move:
    if kind == MoveKind.SECRET:
        return Move.secret(cards[0])
    return Move.trade_off(cards[0], cards[1])


@settings(max_examples=200, deadline=None)
@given(lines(), st.data())
def test_views_do_not_depend_on_cards_the_player_has_not_seen(
    line: Line, data: st.DataObject
) -> None:
    states = replay(line)
    live = [n for n, state in enumerate(states) if state.phase != Phase.OVER]
    stop = data.draw(st.sampled_from(live), label="position")
    seat = data.draw(st.integers(0, 1), label="seat")
    shuffler = data.draw(st.randoms(use_true_random=False), label="shuffle")
    round_number = states[stop].round
    start = next(n for n in live if states[n].round == round_number)
    deals = states[stop].deals()

    # Follow the round's cards slot by slot up to the chosen position.
    trace = SlotTrace.of(deals[round_number - 1])
    owner: dict[int, int] = {}
    for index in range(start, stop + 1):
        state = states[index]
        if state.phase == Phase.TURN:
            actor = state.to_move
            assert actor is not None
            trace.draw(actor)
        if index < stop:
            actor = state.to_move
            assert actor is not None
            owner[index] = actor
            trace.play(index, actor, line.moves[index])

    # Shuffle every card the player has not seen among the places it could be.
    unseen = trace.unseen_by(seat, owner)
    contents = [trace.order[s] for s in unseen]
    shuffler.shuffle(contents)
    order = list(trace.order)
    for slot, card in zip(unseen, contents, strict=True):
        order[slot] = card
    twin_deal = Deal.from_order(order)
    twin = Game(
        line.variant,
        seed=line.seed,
        first_player=line.first_player,
        deals=[*deals[: round_number - 1], twin_deal],
    )
    for index in range(stop):
        move = line.moves[index]
        if index in trace.hidden and owner[index] == 1 - seat:
            move = hidden_move(move.kind, [order[s] for s in trace.hidden[index]])
        if index >= start:
            assert_same_knowledge(states[index].view(seat), twin.view(seat))
        twin.push(move)
    assert_same_knowledge(states[stop].view(seat), twin.view(seat))
    assert twin.hand(seat) == states[stop].hand(seat)
    # Search caches work by this key across sampled worlds: it must not see them either.
    assert twin.information_key(seat) == states[stop].information_key(seat)


def assert_same_knowledge(expected: View, actual: View) -> None:
    assert actual == expected
    assert actual.legal_moves == expected.legal_moves
    assert actual.unseen() == expected.unseen()
