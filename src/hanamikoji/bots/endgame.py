"""Endgames solved per information set: the last turns of a round as one imperfect-
information game over sampled worlds, solved by CFR+.

Solving each sampled world on its own (:mod:`hanamikoji.bots.solver`) lets both players
see every card in it: each world gets its own best decision even where a player cannot
tell the worlds apart (strategy fusion). Here the worlds are joined into one game whose
first move is chance's (which world is the true one) and whose information sets are the
players' (:meth:`Game.information_key`): a decision is made once for all the worlds its
player cannot tell apart, and a player's strategy may mix, as hiding cards needs.

What it solves: from a player's view near a round's end (:func:`endgame_decision`), up
to ``WORLDS`` completions of the opponent's hidden cards are drawn uniformly from what
the player has not seen; for each, ``ALTERNATIVES`` completions of this player's own
hidden cards are drawn uniformly from the *opponent's* view of it, so that every
information set of the opponent holds several hands of this player (a two-level
sampling, in the spirit of safe and depth-limited subgame solving). Completions are
taken, with their alternatives, until the tree holds ``NODES`` nodes: many worlds for a
last answer, fewer for a third action. The worlds of one opponent completion share its
chance equally. The joint game over all of them, to the end of the round, leaves
scored by what the round's end means for the match
(:func:`hanamikoji.bots.evaluation.round_end_value`), is solved by CFR+ (Tammelin 2014:
regret matching+, alternating updates, linearly weighted average strategy) for a fixed
number of iterations, and the player's decision is drawn from the average strategy at
their true information set with the seeded generator (actions below ``FLOOR`` dropped).

The worlds are not weighed by inference (:mod:`hanamikoji.bots.inference`): its model
of the opponent is the greedy judge, while the solve assumes an opponent who plays the
solution; and on the exploitability benchmark's positions, whose worlds are dealt
uniformly, inference's worlds led the solve to worse third actions (docs/bots.md,
"Exploitability").

What it assumes: the round's end is the subgame's end. The subgame starts at the
current position, so the opponent's belief over this player's hidden cards is uniform
over what the opponent has not seen (the alternatives drawn, the true hand among them):
it is not conditioned on this player's earlier decisions, not even those of the last
turns, which an opponent who knows the strategy could read (re-solving from the start
of the last turns would, at the cost of that whole tree for every decision). The
opponent plays as well as the solution, not as the judge. In the alternative worlds
this player's information sets are often single worlds, where the solution lets them
see the opponent's cards (the fusion is pushed one level down, not removed). The tree
is the whole rest of the round (no decision is pruned), which keeps it to a few
hundred nodes per world over the last three turns (each player's last action uses the
cards in hand: only its kind, a Competition's split and the answers are choices); more
turns than that grow it quickly.

The iterations run on arrays (nodes in pre-order, edges, information sets' action
slots), compiled with numba where it can be imported (as :mod:`hanamikoji.bots.judge.kernel` is), in
plain Python otherwise: the same numbers, slower.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from hanamikoji.bots.determinize import determinize
from hanamikoji.bots.evaluation import MatchValue, round_end_value
from hanamikoji.bots.solver import round_over
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.extras import installed, require

# The arrays are NumPy's (the learned extra): without it this module imports, and a
# subgame asked for says what to install.
if TYPE_CHECKING or installed("numpy"):
    import numpy as np
    import numpy.typing as npt

try:
    from numba import njit
except ImportError:  # pragma: no cover - exercised where numba is missing
    AVAILABLE = False
else:
    AVAILABLE = True

__all__ = [
    "ALTERNATIVES",
    "AVAILABLE",
    "ITERATIONS",
    "MAX_TURNS",
    "NODES",
    "WORLDS",
    "Endgame",
    "endgame_decision",
    "endgame_worlds",
]

WORLDS = 24
"""The most completions of the opponent's hidden cards drawn from this player's view..."""
NODES = 30_000
"""...or fewer, once the tree holds this many nodes (about a tenth of a second to build
at the start of the last three turns)."""
ALTERNATIVES = 2
"""Completions of this player's hidden cards drawn from the opponent's view of each."""
ITERATIONS = 200
"""CFR+ iterations (each updates one player, in turn)."""
FLOOR = 0.05
"""Actions the average strategy gives less than this chance are not played: what CFR's
average keeps of its early iterations' mistakes."""
MAX_TURNS = 3
"""The most turns before a round's end the solver takes on: the tree is the whole rest
of the round, a few hundred leaves per world over three turns, far more over four."""

_LEAF = -1
if TYPE_CHECKING:
    _Floats: TypeAlias = npt.NDArray[np.float64]
    _Ints: TypeAlias = npt.NDArray[np.int64]

Weighted = tuple[Game, float]
"""A world and its chance (the chances of a subgame's worlds add up to 1 or not: they
are normalised)."""


def _jit(function: Any) -> Any:
    return njit(cache=True)(function) if AVAILABLE else function


class _Builder:
    """The joint game tree of a subgame, built world by world into flat lists: nodes in
    pre-order (a node before its children), each decision node with one edge per legal
    decision of its information set (which orders them); decisions with no alternative
    are played through, not stored."""

    def __init__(self, match_value: MatchValue) -> None:
        self.match_value = match_value
        self.node_info: list[int] = []
        self.node_first: list[int] = []
        self.node_value: list[float] = []
        self.children: list[int] = []
        self.keys: dict[tuple[object, ...], int] = {}
        self.moves: list[tuple[Move, ...]] = []
        self.players: list[int] = []
        self.stages: list[int] = []
        self.info_first: list[int] = []
        self.slots = 0

    def add(self, game: Game, round_number: int) -> int:
        """The node of ``game`` (restored to where it was), its subtree added."""
        forced = 0
        legal = game.generate_legal_moves() if not round_over(game, round_number) else ()
        while len(legal) == 1:
            game.push(legal[0])
            forced += 1
            legal = game.generate_legal_moves() if not round_over(game, round_number) else ()
        node = len(self.node_info)
        self.node_first.append(len(self.children))
        if not legal:
            self.node_info.append(_LEAF)
            self.node_value.append(round_end_value(game, 0, self.match_value))
        else:
            info = self._information_set(game, legal)
            self.node_info.append(info)
            self.node_value.append(0.0)
            first = len(self.children)
            self.children.extend([0] * len(legal))
            for index, move in enumerate(legal):
                game.push(move)
                self.children[first + index] = self.add(game, round_number)
                game.pop()
        for _ in range(forced):
            game.pop()
        return node

    def _information_set(self, game: Game, legal: tuple[Move, ...]) -> int:
        mover = game.to_move
        assert mover is not None
        key = game.information_key(mover)
        info = self.keys.get(key)
        if info is None:
            info = self.keys[key] = len(self.moves)
            self.moves.append(legal)
            self.players.append(mover)
            # Along any line of play a later stage: a turn's action, then its answer.
            self.stages.append(2 * game.turn + (game.pending is not None))
            self.info_first.append(self.slots)
            self.slots += len(legal)
        elif self.moves[info] != legal:
            raise AssertionError("one information set, two lists of legal decisions")
        return info


class Endgame:
    """A subgame over weighted worlds (one position of one round, completed differently),
    solved by :meth:`solve`; :meth:`strategy` reads the average strategy at a player's
    information set. Seat 0's value of a profile is its chance to win the match.

    The worlds come in ``groups``, taken in order until the tree holds at least
    ``nodes`` nodes (all of them without ``nodes``): a fixed amount of work, however
    large each world's tree, and no group split."""

    def __init__(
        self,
        groups: Iterable[Sequence[Weighted]],
        match_value: MatchValue,
        nodes: int | None = None,
    ) -> None:
        require("numpy", "learned", "the endgame solver (ismcts's endgame_turns)")
        builder = _Builder(match_value)
        self.worlds: list[Weighted] = []
        roots: list[int] = []
        for group in groups:
            for game, weight in group:
                roots.append(builder.add(game, game.round))
                self.worlds.append((game, weight))
            if nodes is not None and len(builder.node_info) >= nodes:
                break
        if not self.worlds:
            raise ValueError("a subgame needs at least one world")
        if len({game.round for game, _ in self.worlds}) > 1:
            raise ValueError("a subgame's worlds are all in one round")
        self.roots: _Ints = np.array(roots, dtype=np.int64)
        weights = np.array([weight for _, weight in self.worlds], dtype=np.float64)
        self.weights: _Floats = weights / weights.sum()
        self.node_info: _Ints = np.array(builder.node_info, dtype=np.int64)
        self.node_first: _Ints = np.array(builder.node_first, dtype=np.int64)
        self.leaf_value: _Floats = np.array(builder.node_value, dtype=np.float64)
        self.children: _Ints = np.array(builder.children, dtype=np.int64)
        self.info_player: _Ints = np.array(builder.players, dtype=np.int64)
        self.info_first: _Ints = np.array(builder.info_first, dtype=np.int64)
        self.info_count: _Ints = np.array([len(m) for m in builder.moves], dtype=np.int64)
        self.info_stage: _Ints = np.array(builder.stages, dtype=np.int64)
        self.keys = builder.keys
        self.moves = builder.moves
        slots = int(self.info_count.sum())
        self.regrets: _Floats = np.zeros(slots)
        self.average: _Floats = np.zeros(slots)
        self.iterations = 0

    @property
    def nodes(self) -> int:
        return len(self.node_info)

    def _tree(self) -> tuple[_Ints, _Ints, _Ints, _Ints, _Ints, _Ints]:
        """The tree's arrays, in the order the compiled functions take them."""
        return (
            self.node_info,
            self.node_first,
            self.children,
            self.info_player,
            self.info_first,
            self.info_count,
        )

    def solve(self, iterations: int) -> None:
        """Run ``iterations`` more iterations of CFR+."""
        _cfr(
            self.iterations,
            iterations,
            *self._tree(),
            self.leaf_value,
            self.roots,
            self.weights,
            self.regrets,
            self.average,
        )
        self.iterations += iterations

    def profile(self) -> _Floats:
        """The average strategy, every information set's chances in its action slots."""
        strategy = np.empty_like(self.average)
        _normalised(self.average, self.info_first, self.info_count, strategy)
        return strategy

    def strategy(self, game: Game, seat: int) -> dict[Move, float]:
        """The average strategy of ``seat`` at its information set in ``game`` (a
        position of the subgame where ``seat`` has a choice)."""
        info = self.keys[game.information_key(seat)]
        first = int(self.info_first[info])
        chances = self.profile()[first : first + int(self.info_count[info])]
        return dict(zip(self.moves[info], (float(c) for c in chances), strict=True))

    def value(self) -> float:
        """Seat 0's value when both play the average strategy."""
        values = self.leaf_value.copy()
        _values(*self._tree(), self.profile(), values)
        return float(self.weights @ values[self.roots])

    def best_response(self, seat: int) -> float:
        """``seat``'s value when it best responds, knowing the other's average strategy
        (a test of how near equilibrium the solution is: the two best responses' values
        add up to 1 exactly at an equilibrium)."""
        profile = self.profile()
        reach = np.zeros((3, self.nodes))
        _reach(*self._tree(), self.roots, self.weights, profile, reach)
        values = self.leaf_value if seat == 0 else 1.0 - self.leaf_value
        values = values.copy()
        # Stage by stage from the round's end: children are always in a later stage.
        deciding = np.flatnonzero(self.node_info != _LEAF)
        stages = self.info_stage[self.node_info[deciding]]
        for stage in sorted(set(stages.tolist()), reverse=True):
            here = deciding[stages == stage]
            self._respond(here, seat, profile, reach[2] * reach[1 - seat], values)
        return float(self.weights @ values[self.roots])

    def _respond(
        self, nodes: _Ints, seat: int, profile: _Floats, reach: _Floats, values: _Floats
    ) -> None:
        """Values of ``nodes`` (one stage) with ``seat`` best responding at its own."""
        chosen: dict[int, int] = {}
        for node in nodes.tolist():
            info = int(self.node_info[node])
            edges = self._edges(node)
            if self.info_player[info] != seat:
                first = self.info_first[info]
                chances = profile[first : first + len(edges)]
                values[node] = float(chances @ values[edges])
            elif info not in chosen:
                members = nodes[self.node_info[nodes] == info]
                gains = sum(reach[m] * values[self._edges(m)] for m in members.tolist())
                chosen[info] = int(np.argmax(gains))
            if info in chosen:
                values[node] = values[edges[chosen[info]]]

    def _edges(self, node: int) -> _Ints:
        first = int(self.node_first[node])
        count = int(self.info_count[self.node_info[node]])
        return self.children[first : first + count]


@_jit
def _normalised(
    totals: _Floats, info_first: _Ints, info_count: _Ints, strategy: _Floats
) -> None:  # pragma: no cover - compiled
    """Each information set's ``totals`` made chances (uniform where they are all 0)."""
    for info in range(info_first.shape[0]):
        first = info_first[info]
        count = info_count[info]
        total = 0.0
        for slot in range(first, first + count):
            total += max(totals[slot], 0.0)
        for slot in range(first, first + count):
            strategy[slot] = max(totals[slot], 0.0) / total if total > 0.0 else 1.0 / count


@_jit
def _reach(
    node_info: _Ints,
    node_first: _Ints,
    children: _Ints,
    info_player: _Ints,
    info_first: _Ints,
    info_count: _Ints,
    roots: _Ints,
    weights: _Floats,
    strategy: _Floats,
    reach: _Floats,
) -> None:  # pragma: no cover - compiled
    """Each node's reach: by seat 0's decisions, seat 1's, and chance's (``reach`` rows)."""
    for index in range(roots.shape[0]):
        root = roots[index]
        reach[0, root] = 1.0
        reach[1, root] = 1.0
        reach[2, root] = weights[index]
    for node in range(node_info.shape[0]):
        info = node_info[node]
        if info < 0:
            continue
        player = info_player[info]
        first = info_first[info]
        edge = node_first[node]
        for action in range(info_count[info]):
            child = children[edge + action]
            reach[0, child] = reach[0, node]
            reach[1, child] = reach[1, node]
            reach[2, child] = reach[2, node]
            reach[player, child] *= strategy[first + action]


@_jit
def _values(
    node_info: _Ints,
    node_first: _Ints,
    children: _Ints,
    info_player: _Ints,
    info_first: _Ints,
    info_count: _Ints,
    strategy: _Floats,
    values: _Floats,
) -> None:  # pragma: no cover - compiled
    """Seat 0's value of every decision node under ``strategy`` (leaves' already set)."""
    for node in range(node_info.shape[0] - 1, -1, -1):
        info = node_info[node]
        if info < 0:
            continue
        first = info_first[info]
        edge = node_first[node]
        total = 0.0
        for action in range(info_count[info]):
            total += strategy[first + action] * values[children[edge + action]]
        values[node] = total


@_jit
def _cfr(
    done: int,
    iterations: int,
    node_info: _Ints,
    node_first: _Ints,
    children: _Ints,
    info_player: _Ints,
    info_first: _Ints,
    info_count: _Ints,
    leaf_value: _Floats,
    roots: _Ints,
    weights: _Floats,
    regrets: _Floats,
    average: _Floats,
) -> None:  # pragma: no cover - compiled
    """CFR+ iterations ``done + 1`` to ``done + iterations``: iteration t updates seat
    ``t % 2``'s regrets (clipped at 0) and adds its strategy, weighted by t and its own
    reach, to ``average``."""
    nodes = node_info.shape[0]
    strategy = np.empty(regrets.shape[0])
    reach = np.zeros((3, nodes))
    values = leaf_value.copy()
    for t in range(done + 1, done + iterations + 1):
        player = t % 2
        sign = 1.0 if player == 0 else -1.0
        _normalised(regrets, info_first, info_count, strategy)
        tree = (node_info, node_first, children, info_player, info_first, info_count)
        _reach(*tree, roots, weights, strategy, reach)
        _values(*tree, strategy, values)
        for node in range(nodes):
            info = node_info[node]
            if info < 0 or info_player[info] != player:
                continue
            against = reach[2, node] * reach[1 - player, node]
            own = reach[player, node] * t
            first = info_first[info]
            edge = node_first[node]
            for action in range(info_count[info]):
                gain = values[children[edge + action]] - values[node]
                regrets[first + action] += sign * against * gain
                average[first + action] += own * strategy[first + action]
        for info in range(info_first.shape[0]):
            if info_player[info] != player:
                continue
            first = info_first[info]
            for slot in range(first, first + info_count[info]):
                regrets[slot] = max(regrets[slot], 0.0)


def endgame_worlds(
    view: View,
    rng: random.Random,
    worlds: int = WORLDS,
    alternatives: int = ALTERNATIVES,
) -> Iterator[list[Weighted]]:
    """The worlds of ``view``'s endgame, in groups of equal chance: up to ``worlds``
    completions of ``view`` drawn uniformly, each with ``alternatives`` games where this
    player's hidden cards are drawn uniformly from the opponent's view of it (every
    world of a group as likely)."""
    if worlds < 1 or alternatives < 0:
        raise ValueError("at least one world, and no negative number of alternatives")
    for _ in range(worlds):
        game = determinize(view, rng)
        theirs = game.view(view.opponent)
        others = [determinize(theirs, rng) for _ in range(alternatives)]
        yield [(world, 1.0) for world in (game, *others)]


def endgame_decision(
    view: View,
    legal: Sequence[Move],
    rng: random.Random,
    match_value: MatchValue,
    iterations: int = ITERATIONS,
) -> Move:
    """``view``'s player's decision near a round's end (one of ``legal``, at least two),
    drawn with ``rng`` from the average strategy of the solved endgame
    (:func:`endgame_worlds`, ``NODES``) at the true information set: a function of the
    view and of ``rng``'s state."""
    groups = endgame_worlds(view, rng, WORLDS, ALTERNATIVES)
    endgame = Endgame(groups, match_value, NODES)
    endgame.solve(iterations)
    chances = endgame.strategy(endgame.worlds[0][0], view.player)
    return _drawn({move: chances.get(move, 0.0) for move in legal}, rng)


def _drawn(chances: dict[Move, float], rng: random.Random) -> Move:
    """A decision drawn in proportion to its chance, those below ``FLOOR`` dropped (the
    likeliest is always kept)."""
    best = max(chances, key=chances.__getitem__)
    kept = {move: c for move, c in chances.items() if c >= FLOOR or move == best}
    return rng.choices(list(kept), weights=list(kept.values()))[0]
