"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

Each iteration samples one hidden world consistent with the view (the opponent's hand,
Secret and Trade-off, the removed card and the deck order, uniformly from the cards
this player has not seen), walks the single shared tree with UCB over the decisions
legal in that world (counting availability), expands one node, plays the rest of the
round out at random, and scores the round's end by its match value: favor markers
carry over, so the round is worth what it means for the match.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Sequence

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.determinize import determinize
from hanamikoji.bots.evaluation import MatchValue, round_end_value
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.match_table import table_match_value
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View

__all__ = ["ISMCTSBot", "SearchStats"]

DEFAULT_BUDGET = 0.2


class _Node:
    __slots__ = ("available", "children", "move", "mover", "value", "visits")

    def __init__(self, move: Move | None, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.available = 0
        self.value = 0.0


class SearchStats:
    """What the last search did: iterations, seconds, and the root's visit counts."""

    __slots__ = ("iterations", "root_visits", "seconds")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.root_visits: dict[Move, int] = {}


class ISMCTSBot(Bot):
    """Single-observer ISMCTS with random playouts to the end of the round.

    Args:
        seed: for reproducibility (all sampling and playouts draw from it).
        budget: seconds per decision (default 0.2).
        iterations: stop after this many iterations if the budget has not run out
            first; with a generous budget this makes the bot fully reproducible.
        exploration: the UCB constant.
        match_value: how the end of a round is scored for the match.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        exploration: float = 0.7,
        match_value: MatchValue = table_match_value,
        candidates: int | None = 3,
    ) -> None:
        super().__init__(seed, budget if budget is not None else DEFAULT_BUDGET)
        self.iterations = iterations
        self.candidates = candidates
        self._judge = GreedyBot(seed)
        self.exploration = exploration
        self.match_value = match_value
        self.stats = SearchStats()

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        root = self._search(view, legal, ())
        legal_set = set(legal)
        best = max(
            (child for move, child in root.children.items() if move in legal_set),
            key=lambda child: (child.visits, child.value),
            default=None,
        )
        if best is None or best.move is None:
            return legal[self.rng.randrange(len(legal))]
        return best.move

    def evaluate(
        self, view: View, legal: Sequence[Move], include: Sequence[Move] = ()
    ) -> dict[Move, tuple[int, float]]:
        """Search as for :meth:`choose` and return, for each decision searched, its visit
        count and its mean value: the chance that this player wins the match after it.
        Moves in ``include`` are searched even if the candidate filter would drop them."""
        root = self._search(view, legal, tuple(include))
        return {
            move: (child.visits, child.value / child.visits)
            for move, child in root.children.items()
            if child.visits
        }

    def _search(self, view: View, legal: Sequence[Move], include: tuple[Move, ...]) -> _Node:
        # The tree has no cycles, so reference counting frees it; a full collection over
        # the move caches in the middle of a search could cost more than the budget.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._timed_search(view, legal, include)
        finally:
            if collecting:
                gc.enable()

    def _timed_search(self, view: View, legal: Sequence[Move], include: tuple[Move, ...]) -> _Node:
        start = time.perf_counter()
        assert self.budget is not None
        # A margin for the caller's bookkeeping around the search.
        deadline = start + self.budget * 0.95
        limit = self.iterations if self.iterations is not None else 1 << 62
        me = view.player
        root = _Node(None, 1 - me)
        rng = self.rng
        allowed: set[Move] | None = None
        if self.candidates is not None and len(legal) > self.candidates:
            # Search only the moves the one-ply judge likes best: with hundreds of
            # legal decisions, spreading the iterations over all of them leaves each
            # too few playouts to tell them apart.
            scores = self._judge.scores(view, legal)
            ranked = sorted(legal, key=lambda m: scores[m], reverse=True)
            allowed = set(ranked[: self.candidates]) | set(include)
        done = 0
        longest = 0.0
        clock = time.perf_counter
        while done < limit:
            begun = clock()
            self._iterate(root, determinize(view, rng), rng, allowed)
            done += 1
            now = clock()
            # Stop while one more iteration of the slowest kind seen still fits.
            longest = max(longest, now - begun)
            if now + longest >= deadline:
                break
        stats = SearchStats()
        stats.iterations = done
        stats.seconds = time.perf_counter() - start
        stats.root_visits = {m: c.visits for m, c in root.children.items()}
        self.stats = stats
        return root

    def _iterate(
        self, root: _Node, game: Game, rng: random.Random, allowed: set[Move] | None
    ) -> None:
        node = root
        path = [root]
        c = self.exploration
        # Selection and expansion, within the round being played.
        while not (game.needs_deal or game.is_over()):
            legal: Sequence[Move] = game.legal_moves()
            if node is root and allowed is not None:
                legal = [m for m in legal if m in allowed]
            mover = game.to_move
            assert mover is not None
            children = node.children
            untried = [m for m in legal if m not in children]
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = _Node(move, mover)
                children[move] = child
                game.push(move)
                path.append(child)
                break
            best: _Node | None = None
            best_score = -1.0
            for move in legal:
                child = children[move]
                child.available += 1
                score = child.value / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if score > best_score:
                    best, best_score = child, score
            assert best is not None and best.move is not None
            game.push(best.move)
            node = best
            path.append(node)
        # Playout to the end of the round, at random: cheap, and at equal time better
        # than the smarter playouts tried (docs/bots.md).
        while not (game.needs_deal or game.is_over()):
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])
        win0 = round_end_value(game, 0, self.match_value)
        for visited in path:
            visited.visits += 1
            visited.value += win0 if visited.mover == 0 else 1.0 - win0


register("ismcts", ISMCTSBot)
