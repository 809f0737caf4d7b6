"""What knowing the hidden cards is worth to the expert: its search given the truth.

Run: ``.venv/bin/python benchmarks/oracle.py ARGS...``, where ``ARGS`` are those of
``hanamikoji arena`` with two more bots to name:

- ``oracle``: the expert's search (its defaults; the opponent modelled as the judge, as
  the expert does unless it infers a random player) whose every sampled world is the
  true one: the opponent's hand, Secret and Trade-off, the removed card and the order of
  the deck.
- ``oracle:hand_only=true``: its worlds hold the opponent's true hand, Secret and
  Trade-off, and deal the removed card and the deck uniformly from the rest.

For example ``.venv/bin/python benchmarks/oracle.py oracle ismcts --budget 1000 --games
100 --jobs 2 --seed 960001 --records DIR --quiet``, then ``.venv/bin/python
benchmarks/paired.py DIR EXPERT_DIR --opponent ismcts`` against the expert's own games
on those seeds. Neither bot is a player: both cheat. They bound what the expert could
gain from a better guess of the opponent's cards (inference) and of the deck, with its
search, playouts and evaluation unchanged; what they leave short of winning every game
is what those are worth.

The arena hands a bot only its view, by design. The oracle learns the truth because
this script wraps ``Game.view`` to remember the seeded game whose view was asked for
last: the arena asks for the mover's view just before the mover chooses, and the
search's own worlds are games without a seed, so they never take its place. The arena's
worker processes are forked from this one, so they share the wrapper (the ``ray``
backend's workers would not: it is refused).
"""

from __future__ import annotations

import multiprocessing
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

from hanamikoji.bots.base import register
from hanamikoji.bots.determinize import World
from hanamikoji.bots.expert import EXPERT_CONFIG, ExpertBot
from hanamikoji.core.game import Game
from hanamikoji.core.view import View
from hanamikoji.core.worlds import from_view, hidden_from
from hanamikoji.interfaces.cli import main as cli_main

TRUTH: dict[str, Game] = {}
"""The seeded game whose view was asked for last (under ``"game"``)."""


def true_world(game: Game, view: View) -> World:
    """The hidden world behind ``view`` in ``game``."""
    if game.hand(view.player) != view.hand or game.round != view.round:
        raise RuntimeError("the remembered game is not the one behind this view")
    return hidden_from(game, view.player)


class OracleBot(ExpertBot):
    """The expert, searching the true hidden world (``hand_only``: the opponent's true
    cards, the rest of the deal sampled uniformly) instead of inferred ones."""

    name = "oracle"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        hand_only: bool = False,
    ) -> None:
        super().__init__(seed, budget, iterations, replace(EXPERT_CONFIG, random_prior=None))
        self.hand_only = hand_only

    def _sampler(self, view: View) -> Callable[[], tuple[Game, bool]]:
        world = true_world(TRUTH["game"], view)
        if not self.hand_only:
            return lambda: (from_view(view, world), False)
        rest = [world.removed, *world.deck]
        rng: random.Random = self.rng

        def sample() -> tuple[Game, bool]:
            dealt = list(rest)
            rng.shuffle(dealt)
            return from_view(view, world._replace(removed=dealt[0], deck=tuple(dealt[1:]))), False

        return sample


def remember_the_real_game() -> None:
    """Wrap ``Game.view`` so that :data:`TRUTH` holds the seeded game asked last."""
    plain = Game.view

    def view(game: Game, player: int) -> View:
        if game.seed is not None:
            TRUTH["game"] = game
        return plain(game, player)

    Game.view = view  # type: ignore[method-assign,assignment]


def main(argv: Sequence[str]) -> int:
    if "ray" in argv or "--backend=ray" in argv:
        raise SystemExit("the oracle needs the local backend: ray's workers do not fork")
    multiprocessing.set_start_method("fork", force=True)
    remember_the_real_game()
    register("oracle", OracleBot)
    return cli_main(["arena", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
