"""The oracle benchmark's bots search the true hidden world, and the arena runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from types import ModuleType

from conftest import BENCHMARKS, load_benchmark

from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.core.cards import counts, pack
from hanamikoji.core.game import Game
from hanamikoji.core.moves import MoveKind

SCRIPT = BENCHMARKS / "oracle.py"


def _benchmark() -> ModuleType:
    return load_benchmark("oracle")


def _game_with_hidden_actions() -> Game:
    """A game of greedy self-play stopped once the player to move faces an opponent who
    has kept a Secret and made a Trade-off."""
    for seed in range(1, 200):
        game = Game(seed=seed)
        bots = (GreedyBot(seed=1), GreedyBot(seed=2))
        while not game.is_over() and game.round == 1:
            mover = game.to_move
            assert mover is not None
            used = game.view(mover).used[1 - mover]
            if MoveKind.SECRET in used and MoveKind.TRADE_OFF in used and game.deck():
                return game
            game.push(bots[mover].choose(game.view(mover), game.legal_moves))
    raise AssertionError("no such position in 200 games")


def test_the_oracle_searches_the_true_world_and_hand_only_keeps_the_opponents_cards() -> None:
    oracle = _benchmark()
    game = _game_with_hidden_actions()
    mover = game.to_move
    assert mover is not None
    view = game.view(mover)
    oracle.TRUTH["game"] = game
    opponent = 1 - mover
    truth = game.position_key()

    knowing = oracle.OracleBot(seed=1, iterations=10)
    # The oracle's sampler, on purpose (SLF001 here and below): the worlds it deals.
    world, random_opponent = knowing._sampler(view)()  # noqa: SLF001
    assert not random_opponent
    assert world.hand(opponent) == game.hand(opponent) and world.deck() == game.deck()
    assert world.removed() == game.removed()
    assert world.scoring_sides() == game.scoring_sides()
    assert world.information_key(opponent) == game.information_key(opponent)
    assert game.position_key() == truth  # the real game is untouched

    guessing = oracle.OracleBot(seed=1, iterations=10, hand_only=True)
    sample = guessing._sampler(view)  # noqa: SLF001
    decks = set()
    for _ in range(30):
        world, _ = sample()
        assert world.information_key(opponent) == game.information_key(opponent)
        removed, true_removed = world.removed(), game.removed()
        assert removed is not None and true_removed is not None
        rest = counts(pack([removed, *world.deck()]))
        assert rest == counts(pack([true_removed, *game.deck()]))
        decks.add(world.deck())
    assert len(decks) > 1


def test_the_oracle_refuses_a_view_of_another_game() -> None:
    oracle = _benchmark()
    game = _game_with_hidden_actions()
    other = Game(seed=10_000)
    mover = other.to_move
    assert mover is not None
    oracle.TRUTH["game"] = game
    bot = oracle.OracleBot(seed=1, iterations=10)
    try:
        bot._sampler(other.view(mover))  # noqa: SLF001
    except RuntimeError as error:
        assert "not the one behind this view" in str(error)
    else:
        raise AssertionError("a view of another game was searched")


def test_the_arena_plays_the_oracle_in_forked_workers() -> None:
    done = subprocess.run(
        [
            *(sys.executable, str(SCRIPT)),
            *("oracle:iterations=10", "oracle:hand_only=true,iterations=10"),
            *("--games", "4", "--jobs", "2", "--no-records", "--json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (match,) = json.loads(done.stdout)["matches"]
    assert match["games"] == 4 and match["forfeits"] == []
