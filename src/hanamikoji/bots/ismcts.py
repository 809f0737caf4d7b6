"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012), guided
by the greedy bot's judgement.

Each iteration samples one hidden world consistent with the view (the opponent's hand,
Secret and Trade-off, the removed card and the deck order, from the cards this player
has not seen, weighed by how likely the opponent's decisions this round were in it:
:mod:`hanamikoji.bots.inference`) and walks the single shared tree of this player's
information set with UCB over the decisions legal in that world (counting
availability), expands one node, plays the round out and scores its end by its match
value: favor markers carry over, so the round is worth what it means for the match.

The greedy judge (:mod:`hanamikoji.bots.judge`) shapes the search:

- at this player's nodes only its few best-ranked decisions are searched (ranked on
  this player's view of the sampled world): a few hundred iterations spread over up to
  168 decisions could not tell them apart;
- at the opponent's nodes the opponent plays the judge's choice on *their* view of the
  sampled world, so the opponent knows their own hand, as uniform replies do not;
- playouts are the judge's choices for both players, not random: random play swamps
  the small differences between good decisions with noise;
- every sampled world is played under each searched decision at the root (common random
  numbers), so the comparison between them is not blurred by how good the sampled
  hands happen to be.

From the last turn of a round on (``exact_turns``), play in each sampled world is solved
exactly (:mod:`hanamikoji.bots.solver`) instead. From the last ``endgame_turns`` turns on,
the bot does not search: it solves the rest of the round over many sampled worlds at
once, as one game of hidden cards (:mod:`hanamikoji.bots.endgame`).

How it searches (its time and playouts aside) is one frozen :class:`SearchConfig`, which
the expert (:mod:`hanamikoji.bots.expert`) derives from :data:`DEFAULT_CONFIG` with
:func:`dataclasses.replace`, and whose plain fields a bot spec sets by name
(``ismcts:candidates=5,inference=false``).

docs/bots.md has the measurements behind each choice.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.determinize import determinize
from hanamikoji.bots.evaluation import MatchValue, round_end_value
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.inference import DecisionModel, WorldSampler, uniform_model
from hanamikoji.bots.judge import best_first, judged_content
from hanamikoji.bots.match_table import table_match_value
from hanamikoji.bots.solver import RoundSolver, SolverTimeout
from hanamikoji.core.game import TURNS_PER_ROUND, Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.core.worlds import from_view

if TYPE_CHECKING:
    from hanamikoji.bots.network import ValueNetwork

__all__ = [
    "DEFAULT_CONFIG",
    "ISMCTSBot",
    "SearchConfig",
    "SearchStats",
    "fixed_search",
    "mixed_softmax",
    "opponent_model",
    "searching_model",
]

DEFAULT_BUDGET = 0.2
WIDENING = 20
"""Below the root, one more of this player's decisions is searched per this many visits."""
PLANNED = 0.85
"""Playouts are started only to end within this share of the budget: the machine can
pause a process for tens of milliseconds (docs/bots.md)..."""
PLANNED_MARGIN = 0.06
"""...or within this many seconds of its end, whichever leaves more time: the pauses do
not grow with the budget."""
SAFETY = 1.5
"""A playout is started only if this many times the slowest one so far still fits."""
TEMPERATURE = 0.02
"""Of the opponent model in inference: the judge's scores differ by a median 0.03
between its first and second choice."""
SURPRISE = 0.05
"""The share of the opponent model that chooses uniformly: no decision is impossible."""
BELIEF_BOUNDS = (0.01, 0.99)
"""A round's prior chance that the opponent plays at random, carried over from the round
before, stays within these: a few decisions must be able to change the bot's mind."""
MODEL_CACHE = 20_000
"""Opponent-model answers remembered by the bot (they stay valid: the judge is a pure
function of the view) before the memory is cleared."""
CUTOFF = 0.9
"""A playout still running at this share of the budget is abandoned..."""
CUTOFF_MARGIN = 0.04
"""...or this many seconds before its end, whichever is later."""


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How :class:`ISMCTSBot` searches, its time (``budget``) and playouts
    (``iterations``) aside: one value, derived with :func:`dataclasses.replace`.

    >>> replace(DEFAULT_CONFIG, candidates=5).candidates
    5
    >>> SearchConfig(surprise=0)
    Traceback (most recent call last):
    ...
    ValueError: surprise is a share above 0 and at most 1, not 0

    Attributes:
        exploration: the UCB constant.
        candidates: how many of this player's best-ranked decisions are searched at each
            of its nodes (``None``: all).
        root_candidates: how many of the judge's best-ranked decisions are searched at the
            root (``None``: ``candidates``).
        replies: how many of the opponent's best-ranked decisions are searched at each of
            their nodes (1: the model's choice; ``None``: all, as plain ISMCTS does).
        exact_turns: from this many turns before a round's end on (the answers to
            offers included), play is solved exactly in each sampled world instead of
            by the judge, and at the root there every decision is compared.
        endgame_turns: from this many turns before a round's end on (0 to
            ``MAX_TURNS``, 3), the bot decides by solving the rest of the round over
            sampled worlds as one game of hidden cards, per information set
            (:func:`hanamikoji.bots.endgame.endgame_decision`: worlds dealt uniformly,
            a fixed amount of work, not the budget) instead of searching; 0: never.
        inference: sample worlds in proportion to how likely the opponent's decisions
            this round were in them (:mod:`hanamikoji.bots.inference`) under the
            opponent model of :func:`opponent_model`; ``False``: uniformly.
        temperature: the softmax temperature of that opponent model, over the judge's
            scores.
        surprise: the share of that opponent model that chooses uniformly, so that no
            decision is impossible (a searching opponent often plays the judge's third
            choice or lower).
        random_prior: the prior chance that the opponent chooses uniformly at random (as
            the ``random`` bot does, or a beginner might) rather than as the judge.
            Inference weighs each world under both models, and draws the model with the
            world: in a world where the opponent plays at random their decisions below
            the root are drawn uniformly and the exact last turn averages over them.
            The chance inferred by the bot's last search of a round is the next round's
            prior (bounded by ``BELIEF_BOUNDS``), so the evidence adds up over a match.
            Needs ``inference``. ``None``: the opponent is the judge.
        network_candidates: how many of the learned evaluation's
            (:mod:`hanamikoji.bots.network`) best decisions are searched at the root
            besides the judge's (0: none, and the network is not loaded).
        compiled: judge with the compiled kernel (:class:`GreedyBot`'s option of that
            name): the same playouts, about five times as many in the same time. Off
            by default, so that ``ismcts`` stays the search the bots issue measured
            (docs/strength.md's tables) and the ``expert``'s baseline.
        match_value: how the end of a round is scored for the match.
    """

    exploration: float = 0.3
    candidates: int | None = 3
    root_candidates: int | None = None
    replies: int | None = 1
    exact_turns: int = 1
    endgame_turns: int = 0
    inference: bool = True
    temperature: float = TEMPERATURE
    surprise: float = SURPRISE
    random_prior: float | None = None
    network_candidates: int = 0
    compiled: bool = False
    match_value: MatchValue = table_match_value

    def __post_init__(self) -> None:
        if not 0 <= self.exact_turns <= TURNS_PER_ROUND:
            raise ValueError(f"exact_turns is 0 to {TURNS_PER_ROUND}, not {self.exact_turns}")
        if self.endgame_turns:
            # The endgame solver (NumPy, numba where installed) is imported when used.
            from hanamikoji.bots.endgame import MAX_TURNS

            if not 0 <= self.endgame_turns <= MAX_TURNS:
                raise ValueError(f"endgame_turns is 0 to {MAX_TURNS}, not {self.endgame_turns}")
        if not self.temperature > 0:
            raise ValueError(f"temperature is a positive number, not {self.temperature}")
        if not 0 < self.surprise <= 1:
            raise ValueError(f"surprise is a share above 0 and at most 1, not {self.surprise}")
        prior = self.random_prior
        if prior is not None and not 0 < prior < 1:
            raise ValueError(f"random_prior is a chance between 0 and 1, not {prior}")
        if prior is not None and not self.inference:
            raise ValueError("random_prior needs inference: it is inferred from the decisions")


DEFAULT_CONFIG = SearchConfig()
"""``ismcts``'s search."""


_Answer = TypeVar("_Answer")


class _OutOfTime(Exception):
    """A playout ran past the cutoff: it is dropped, unscored."""


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
    """Single-observer ISMCTS with the greedy judge as opponent model and playout policy.

    Args:
        seed: for reproducibility (all sampling draws from it).
        budget: seconds per decision (default 0.2).
        iterations: stop after this many playouts if the budget has not run out first;
            with a generous budget this makes the bot fully reproducible.
        config: how it searches (:class:`SearchConfig`; default :data:`DEFAULT_CONFIG`).
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        config: SearchConfig = DEFAULT_CONFIG,
    ) -> None:
        super().__init__(seed, budget if budget is not None else DEFAULT_BUDGET)
        self.iterations = iterations
        self.config = config
        self.network: ValueNetwork | None = None
        if config.network_candidates > 0:
            from hanamikoji.bots.network import load_network  # NumPy: imported when used

            self.network = load_network()
        # By round of the match being played: the chance that the opponent chooses at
        # random, as the last search in that round inferred it.
        self._random_beliefs: dict[int, float] = {}
        # In the world being played: does the opponent choose at random?
        self._random_opponent = False
        self._judge = GreedyBot(seed, compiled=config.compiled)
        self.stats = SearchStats()
        # Per search, by a player's information set (views repeat across worlds): the
        # judge's ranking of their decisions.
        self._rankings: dict[tuple[object, ...], list[Move]] = {}
        # Per search: the exactly solved ends of the round, by position (RoundSolver),
        # against the judge and against a random opponent.
        self._solved: dict[tuple[object, ...], float] = {}
        self._solved_against_random: dict[tuple[object, ...], float] = {}
        self._cutoff = math.inf
        self._models: dict[tuple[object, ...], dict[Move, float]] = {}

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        if view.deck_size < self.config.endgame_turns:
            return self._endgame(view, legal)
        return self._search(view, legal, (), _best_move)

    def _endgame(self, view: View, legal: Sequence[Move]) -> Move:
        """The decision of the endgame solved per information set (``endgame_turns``)."""
        from hanamikoji.bots.endgame import endgame_decision

        start = time.perf_counter()
        move = endgame_decision(view, legal, self.rng, self.config.match_value)
        stats = SearchStats()
        stats.seconds = time.perf_counter() - start
        self.stats = stats
        return move

    def memory(self) -> dict[int, float]:
        """The chance that the opponent plays at random, as inferred by the last search
        of each round so far (``random_prior``)."""
        return dict(self._random_beliefs)

    def recall(self, memory: object) -> None:
        self._random_beliefs = {}
        if isinstance(memory, dict):
            self._random_beliefs = {
                number: chance
                for number, chance in memory.items()
                if isinstance(number, int) and isinstance(chance, float)
            }

    def evaluate(
        self, view: View, legal: Sequence[Move], include: Sequence[Move] = ()
    ) -> dict[Move, tuple[int, float]]:
        """Search as for :meth:`choose` and return, for each decision searched, its visit
        count and its mean value: the chance that this player wins the match after it.
        Moves in ``include`` are searched even if the candidate filter would drop them."""
        return self._search(view, legal, tuple(include), _root_values)

    def _search(
        self,
        view: View,
        legal: Sequence[Move],
        include: tuple[Move, ...],
        answer: Callable[[_Node], _Answer],
    ) -> _Answer:
        # The tree has no cycles, so reference counting frees it; a collection in the
        # middle of a search, or the first one after it while the tree is still alive,
        # would walk every node (tens of milliseconds): the answer is read and the tree
        # dropped before collection resumes.
        collecting = gc.isenabled()
        gc.disable()
        try:
            root = self._timed_search(view, legal, include)
            result = answer(root)
            del root
            return result
        finally:
            self._rankings = {}
            self._solved = {}
            self._solved_against_random = {}
            if collecting:
                gc.enable()

    def _timed_search(self, view: View, legal: Sequence[Move], include: tuple[Move, ...]) -> _Node:
        start = time.perf_counter()
        budget = self.budget
        assert budget is not None
        deadline = start + max(budget * PLANNED, budget - PLANNED_MARGIN)
        self._cutoff = start + max(budget * CUTOFF, budget - CUTOFF_MARGIN)
        limit = self.iterations if self.iterations is not None else 1 << 62
        me = view.player
        root = _Node(None, 1 - me)
        searched = self._root_candidates(view, legal, include)
        # Best-ranked first: with no playout at all, the judge's choice is played.
        for move in searched:
            root.children[move] = _Node(move, me)
        sample = self._sampler(view)
        done = 0
        clock = time.perf_counter
        now = clock()
        # A playout consults the judge several times: it takes at least this long.
        longest = now - start
        # Stop while one more playout still fits even if it is half as long again as the
        # slowest seen (a playout can take milliseconds, and a new world can need fresh
        # judgements); the last world may then be played under only some of the
        # candidates, one playout among many.
        while done < limit and now + SAFETY * longest < deadline:
            world, self._random_opponent = sample()
            for index, move in enumerate(searched):
                game = world if index == len(searched) - 1 else world.copy()
                begun = now
                game.push(move)
                try:
                    self._iterate(root.children[move], game, me)
                except _OutOfTime:
                    # A pause of the process, or a playout far slower than any before.
                    now = clock()
                    break
                root.visits += 1
                done += 1
                now = clock()
                longest = max(longest, now - begun)
                if done >= limit or now + SAFETY * longest >= deadline:
                    break
        stats = SearchStats()
        stats.iterations = done
        stats.seconds = time.perf_counter() - start
        stats.root_visits = {m: c.visits for m, c in root.children.items()}
        self.stats = stats
        return root

    def _root_candidates(
        self, view: View, legal: Sequence[Move], include: tuple[Move, ...]
    ) -> list[Move]:
        """The decisions searched at the root, best-ranked first: the judge's best, the
        network's best besides them, and those of ``include``."""
        config = self.config
        scores = self._judge.scores(view, legal)
        ranked = best_first(legal, scores)
        width = config.root_candidates if config.root_candidates is not None else config.candidates
        keep = len(ranked) if width is None else width
        if view.deck_size < config.exact_turns:
            # Solved in each world: every decision can be compared.
            keep = len(ranked)
        searched = ranked[:keep]
        if self.network is not None and keep < len(ranked):
            searched += [m for m in self._by_network(view, legal, scores) if m not in searched][
                : config.network_candidates
            ]
        searched += [m for m in include if m in ranked and m not in searched]
        return searched

    def _by_judge(self, view: View, legal: Sequence[Move]) -> list[Move]:
        """``legal`` best first, as the one-ply judge ranks them on ``view``."""
        return best_first(legal, self._judge.scores(view, legal))

    def _by_network(
        self, view: View, legal: Sequence[Move], scores: dict[Move, float] | None = None
    ) -> list[Move]:
        """``legal`` best first, as the learned network values them on ``view`` (given
        the judge's ``scores`` if known)."""
        assert self.network is not None
        values = self.network.values(view, legal, scores)
        return best_first(legal, dict(zip(legal, values, strict=True)))

    def _sampler(self, view: View) -> Callable[[], tuple[Game, bool]]:
        """A source of hidden worlds behind ``view``, weighed by inference if enabled,
        each with whether the opponent chooses at random in it."""
        if not self.config.inference:
            return lambda: (determinize(view, self.rng), False)
        prior = self._random_prior(view)
        alternatives = [] if prior is None else [(prior, uniform_model)]
        # The models read neither the log nor the last card drawn: answers are remembered.
        worlds = WorldSampler(view, self.rng, self._model, True, alternatives)
        beliefs = self._random_beliefs

        def sample() -> tuple[Game, bool]:
            world, model = worlds.draw_typed()
            if prior is not None:
                beliefs[view.round] = worlds.posterior()[1]
            return from_view(view, world), model == 1

        return sample

    def _random_prior(self, view: View) -> float | None:
        """The prior chance, this round, that the opponent chooses at random: what the
        previous round's last search inferred, else ``random_prior``."""
        if self.config.random_prior is None:
            return None
        if view.round == 1:
            # A new match (the bot may be reused): nothing is known of this opponent.
            self._random_beliefs.clear()
        previous = self._random_beliefs.get(view.round - 1)
        if previous is None:
            return self.config.random_prior
        low, high = BELIEF_BOUNDS
        return min(max(previous, low), high)

    def _model(self, view: View, legal: Sequence[Move]) -> dict[Move, float]:
        """The opponent model of inference: a softmax over the judge's scores."""
        # The same past decision with the same hand recurs across worlds and searches.
        key = judged_content(view)
        known = self._models.get(key)
        if known is not None:
            return known
        if len(self._models) >= MODEL_CACHE:
            self._models.clear()
        scores = self._judge.scores(view, legal)
        chances = opponent_model(scores, self.config.temperature, self.config.surprise)
        self._models[key] = chances
        return chances

    def _ranked(self, game: Game, mover: int, legal: Sequence[Move]) -> list[Move]:
        """``legal`` best first, as the judge ranks them on ``mover``'s view of ``game``."""
        key = game.information_key(mover)
        ranked = self._rankings.get(key)
        if ranked is None:
            if time.perf_counter() > self._cutoff:
                raise _OutOfTime
            ranked = self._rankings[key] = self._by_judge(game.view(mover), legal)
        return ranked

    def _playout_move(self, game: Game, mover: int, me: int) -> Move:
        """``mover``'s decision in a playout: the judge's choice, or drawn uniformly for
        an opponent who plays at random in this world."""
        legal = game.generate_legal_moves()
        if mover != me and self._random_opponent:
            return legal[self.rng.randrange(len(legal))]
        return legal[0] if len(legal) == 1 else self._ranked(game, mover, legal)[0]

    def _searched_here(self, node: _Node, game: Game, mover: int, me: int) -> Sequence[Move]:
        """The decisions searched at ``node`` in this world: this player's best-ranked
        (progressive widening), the opponent's best-ranked ``replies``, or the one reply
        drawn anew in each world from an opponent who plays at random."""
        legal: Sequence[Move] = game.generate_legal_moves()
        if mover != me and self._random_opponent:
            return [legal[self.rng.randrange(len(legal))]]
        if mover == me:
            keep = self._widened(node.visits)
        else:
            replies = self.config.replies
            keep = replies if replies is not None else len(legal)
        if len(legal) > keep:
            return self._ranked(game, mover, legal)[:keep]
        return legal

    def _iterate(self, below: _Node, game: Game, me: int) -> None:
        """One iteration under the root decision ``below``, already played in ``game``."""
        node = below
        path = [below]
        c = self.config.exploration
        exact_from = TURNS_PER_ROUND - self.config.exact_turns
        # Selection and expansion, within the round being played.
        while not (game.needs_deal or game.is_over()) and game.turn < exact_from:
            mover = game.to_move
            assert mover is not None
            legal = self._searched_here(node, game, mover, me)
            children = node.children
            untried = [m for m in legal if m not in children]
            if untried:
                # Best-ranked first when ranked.
                move = untried[0]
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
        # The rest of the round as the judge would play it, for both players.
        while not (game.needs_deal or game.is_over()) and game.turn < exact_from:
            mover = game.to_move
            assert mover is not None
            game.push(self._playout_move(game, mover, me))
        win0 = self._round_value(game, me)
        for visited in path:
            visited.visits += 1
            visited.value += win0 if visited.mover == 0 else 1.0 - win0

    def _round_value(self, game: Game, me: int) -> float:
        """Seat 0's chance to win the match from ``game``: at the round's end its match
        value, before it the rest of the round solved as both would play it knowing the
        sampled world."""
        match_value = self.config.match_value
        if game.needs_deal or game.is_over():
            return round_end_value(game, 0, match_value)
        if self._random_opponent:
            solver = RoundSolver(match_value, self._cutoff, self._solved_against_random, 1 - me)
        else:
            solver = RoundSolver(match_value, self._cutoff, self._solved)
        try:
            return solver.value(game)
        except SolverTimeout:
            raise _OutOfTime from None

    def _widened(self, visits: int) -> int:
        """Progressive widening: how many of the judge's best decisions a node searches
        after ``visits``. The judge's choice first, one more of its runners-up per
        ``WIDENING`` visits (up to ``candidates``), once there are enough to tell them
        apart."""
        keep = 1 + visits // WIDENING
        candidates = self.config.candidates
        return keep if candidates is None else min(keep, candidates)


def opponent_model(
    scores: Mapping[Move, float], temperature: float, surprise: float
) -> dict[Move, float]:
    """Inference's model of the opponent: the chance of each decision, a softmax over the
    judge's ``scores`` at ``temperature`` mixed with a ``surprise`` share of uniform
    choice (``benchmarks/opponent_model.py`` fits both to recorded games)."""
    return mixed_softmax(scores, list(scores), temperature, surprise)


def mixed_softmax(
    values: Mapping[Move, float], legal: Sequence[Move], temperature: float, surprise: float
) -> dict[Move, float]:
    """The chance of each of ``legal``: a softmax at ``temperature`` over ``values`` (of
    the decisions considered), mixed with a ``surprise`` share of uniform choice."""
    weights = _softmax_weights(values, temperature)
    share = (1.0 - surprise) / sum(weights.values())
    floor = surprise / len(legal)
    return {move: floor + weights.get(move, 0.0) * share for move in legal}


def searching_model(
    iterations: int, temperature: float, surprise: float, seed: int | None = None
) -> DecisionModel:
    """A model of an opponent who searches: the chance of each decision, a softmax at
    ``temperature`` over the values that ``ismcts`` at ``iterations`` playouts (with the
    compiled judge: the same search, faster) gives the decisions it searched on the
    opponent's view, mixed with a ``surprise`` share of uniform choice. It predicts
    ``ismcts``'s own decisions far better than :func:`opponent_model` but costs a search
    per decision, milliseconds where that costs microseconds: the benchmarks use it to
    ask whether a better model of a searching opponent guesses its cards better."""
    if temperature <= 0 or not 0 < surprise <= 1:
        raise ValueError("temperature is positive and surprise a share above 0 and at most 1")
    search = fixed_search(iterations, seed)

    def model(view: View, legal: Sequence[Move]) -> dict[Move, float]:
        values = {move: value for move, (_, value) in search.evaluate(view, legal).items()}
        return mixed_softmax(values, legal, temperature, surprise)

    return model


def fixed_search(iterations: int, seed: int | None = None) -> ISMCTSBot:
    """``ismcts`` stopped by a number of playouts alone, so that it is reproducible, and
    with the compiled judge (the same search, faster)."""
    if iterations < 1:
        raise ValueError(f"iterations is a positive number of playouts, not {iterations}")
    config = replace(DEFAULT_CONFIG, compiled=True)
    return ISMCTSBot(seed, budget=1e9, iterations=iterations, config=config)


def _softmax_weights(scores: Mapping[Move, float], temperature: float) -> dict[Move, float]:
    """Each decision's unnormalised softmax weight at ``temperature`` (the best one's is 1)."""
    best = max(scores.values())
    return {move: math.exp((score - best) / temperature) for move, score in scores.items()}


def _best_move(root: _Node) -> Move:
    children = list(root.children.values())
    # Every searched decision saw the same worlds, so their means compare directly.
    played = [child for child in children if child.visits]
    # With no playout in the budget, the judge's choice (searched first).
    best = max(played, key=lambda child: child.value / child.visits) if played else children[0]
    assert best.move is not None
    return best.move


def _root_values(root: _Node) -> dict[Move, tuple[int, float]]:
    return {
        move: (child.visits, child.value / child.visits)
        for move, child in root.children.items()
        if child.visits
    }


register("ismcts", ISMCTSBot)
