"""The compiled judge (bots/judge/kernel.py) against the Python judge it compiles: the
same score for every legal decision of every position, bit for bit."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji import Game, Move
from hanamikoji.bots.base import make_bot
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot
from hanamikoji.bots.judge import ReferenceJudge, Tuning, compiled_scores, kernel
from hanamikoji.bots.judge.kernel import AVAILABLE, encode_move
from hanamikoji.bots.judge.kernel_layout import SCRATCH, STAMP
from hanamikoji.core.variants import VARIANTS
from hanamikoji.core.view import View

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="numba is not installed")


def python_scores(view: View, legal: tuple[Move, ...], tuning: Tuning) -> list[float]:
    judge = ReferenceJudge(view, tuning)
    return [judge.score(move, view.pending) for move in legal]


def assert_same_scores(game: Game, tuning: Tuning) -> int:
    """Both judges on the position of the player to move; returns how many were compared."""
    seat = game.to_move
    assert seat is not None
    legal = game.legal_moves
    view = game.view(seat)
    expected = python_scores(view, legal, tuning)
    found = compiled_scores(view, legal, tuning)
    assert found is not None
    for move, want, got in zip(legal, expected, found, strict=True):
        assert got == want, f"{move} in {view}: compiled {got!r}, Python {want!r}"
    return len(legal)


def play_and_compare(game: Game, rng: random.Random, tuning: Tuning) -> int:
    """Play ``game`` to its end with random decisions, comparing the judges at each one."""
    compared = 0
    while not game.is_over():
        compared += assert_same_scores(game, tuning)
        legal = game.legal_moves
        game.push(legal[rng.randrange(len(legal))])
    return compared


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(list(VARIANTS)),
    first_player=st.sampled_from([0, 1]),
)
def test_same_scores_as_the_python_judge(seed: int, variant: str, first_player: int) -> None:
    game = Game(variant=variant, seed=seed, first_player=first_player)
    assert play_and_compare(game, random.Random(seed), Tuning()) > 0


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    response_hope=st.floats(0.0, 1.0),
    giveaway=st.floats(0.0, 1.0),
    discard=st.floats(0.0, 1.0),
    future_weight=st.floats(0.0, 1.0),
    unused=st.tuples(*[st.floats(-0.5, 0.5)] * 4),
)
def test_same_scores_with_any_tuning(
    seed: int,
    response_hope: float,
    giveaway: float,
    discard: float,
    future_weight: float,
    unused: tuple[float, float, float, float],
) -> None:
    tuning = Tuning(future_weight, response_hope, giveaway, discard, unused)
    game = Game(variant="three-rounds", seed=seed)
    play_and_compare(game, random.Random(seed), tuning)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    giveaway=st.sampled_from([0.0, 1.0]),
    discard=st.sampled_from([0.0, 1.0]),
    variant=st.sampled_from(list(VARIANTS)),
)
def test_same_scores_when_cards_cannot_move(
    seed: int, giveaway: float, discard: float, variant: str
) -> None:
    """Tunings at their ends make chances of 0 for a card to go one way (greedy skips
    those terms, the kernel adds zeros) or to stay (1 - up - down rounds to 0 or below)."""
    tuning = Tuning(giveaway=giveaway, discard=discard)
    game = Game(variant=variant, seed=seed)
    play_and_compare(game, random.Random(seed), tuning)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
def test_same_scores_in_greedy_play(seed: int, plies: int) -> None:
    """Positions greedy play reaches (random play rarely builds the close contests)."""
    game = Game(seed=seed, first_player=seed & 1)
    bots = [GreedyBot(seed=seed), GreedyBot(seed=seed + 1)]
    for _ in range(plies):
        if game.is_over():
            return
        seat = game.to_move
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat), game.legal_moves))
    play_and_compare(game, random.Random(seed), Tuning())


def test_a_judgement_forgets_the_ones_before() -> None:
    """The kernel remembers worths in its work arrays, stamped with the judgement's
    number: no stale worth across judgements, also when the numbers start again."""
    game = Game(seed=5)
    assert_same_scores(game, Tuning())
    # The kernel's scratch stamps, on purpose: brought near their wrap-around.
    (work,) = [w for w in kernel._WORKSPACES.values()]  # noqa: SLF001
    stamps = work[0][SCRATCH]
    stamps[STAMP] = 2**31 - 5
    assert play_and_compare(game, random.Random(5), Tuning()) > 0
    assert 0 < stamps[STAMP] < 100


def test_greedy_plays_the_same_games_either_way() -> None:
    """Equal scores, equal ties: the compiled and Python judges choose alike."""
    for seed in range(6):
        records = []
        for compiled in (True, False):
            game = Game(seed=seed)
            bots = [GreedyBot(seed=seed, compiled=compiled), GreedyBot(seed=7, compiled=compiled)]
            while not game.is_over():
                seat = game.to_move
                assert seat is not None
                game.push(bots[seat].choose(game.view(seat), game.legal_moves))
            records.append(game.move_stack)
        assert records[0] == records[1]


def test_the_option_is_a_bot_spec() -> None:
    bot = make_bot("greedy:compiled=true", seed=1)
    assert isinstance(bot, GreedyBot) and bot.compiled
    assert not GreedyBot().compiled


def test_moves_are_encoded_with_their_cards() -> None:
    """Kind, number of cards, the cards; then the geishas among them and their copies."""
    assert encode_move(Move.from_text("S:D"))[:6] == [0, 1, 3, -1, -1, -1]
    assert encode_move(Move.from_text("G:DGD"))[:6] == [2, 3, 3, 3, 6, -1]
    assert encode_move(Move.from_text("C:FG/AB"))[:6] == [3, 4, 0, 1, 5, 6]
    assert encode_move(Move.from_text("C>FG"))[:6] == [5, 2, 5, 6, -1, -1]
    assert encode_move(Move.from_text("S:D"))[6:] == [1, 3, -1, -1, -1, 1, 0, 0, 0]
    assert encode_move(Move.from_text("G:DGD"))[6:] == [2, 3, 6, -1, -1, 2, 1, 0, 0]
    assert encode_move(Move.from_text("C:FG/AB"))[6:] == [4, 0, 1, 5, 6, 1, 1, 1, 1]


def test_the_search_plays_the_same_playouts_either_way() -> None:
    """The search ranks by the judge, so at a fixed number of playouts the compiled judge
    changes nothing but the time: the same decisions after the same root visits."""
    game = Game(seed=21)
    bots = [GreedyBot(seed=1), GreedyBot(seed=2)]
    for _ in range(12):
        seat = game.to_move
        assert seat is not None
        view, legal = game.view(seat), game.legal_moves
        found = []
        for compiled in (True, False):
            search = ISMCTSBot(
                seed=5, budget=1e6, iterations=40, config=replace(DEFAULT_CONFIG, compiled=compiled)
            )
            found.append((search.choose(view, legal), search.stats.root_visits))
        assert found[0] == found[1]
        game.push(bots[seat].choose(view, legal))


def test_the_expert_judges_compiled_and_ismcts_does_not() -> None:
    expert, ismcts = make_bot("expert", seed=1), make_bot("ismcts", seed=1)
    assert isinstance(expert, ISMCTSBot) and isinstance(ismcts, ISMCTSBot)
    # Which judge each bot holds, on purpose: only the expert's is compiled.
    assert expert._judge.compiled and not ismcts._judge.compiled  # noqa: SLF001
