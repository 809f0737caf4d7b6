"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012), guided
by the greedy bot's judgement.

Each iteration samples one hidden world consistent with the view (the opponent's hand,
Secret and Trade-off, the removed card and the deck order, from the cards this player
has not seen, weighed by how likely the opponent's decisions this round were in it:
:mod:`hanamikoji.bots.inference`) and walks the single shared tree of this player's
information set with UCB over the decisions legal in that world (counting
availability), expands one node, plays the round out and scores its end by its match
value: favor markers carry over, so the round is worth what it means for the match.

The greedy judge (:mod:`hanamikoji.bots.greedy`) shapes the search:

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
exactly (:mod:`hanamikoji.bots.solver`) instead.

docs/bots.md has the measurements behind each choice.
"""

from __future__ import annotations

import gc
import math
import time
from bisect import bisect
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from typing import TypeVar

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.determinize import determinize
from hanamikoji.bots.evaluation import MatchValue, round_end_value
from hanamikoji.bots.greedy import GreedyBot, best_first, judged_content
from hanamikoji.bots.inference import DecisionModel, WorldSampler, exposure, uniform_model
from hanamikoji.bots.match_table import table_match_value
from hanamikoji.bots.network import ValueNetwork
from hanamikoji.bots.solver import RoundSolver, SolverTimeout
from hanamikoji.core.game import TURNS_PER_ROUND, Game
from hanamikoji.core.moves import Move
from hanamikoji.core.view import View
from hanamikoji.core.worlds import from_view

__all__ = [
    "ISMCTSBot",
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
EXPOSURE_CAP = 2.0
"""With ``hiding``, exposures count within plus or minus this many nats: the opponent's
model is rough, and a decision it finds very unlikely is usually a poor one."""
EXPOSURE_SAMPLES = 32
"""Hands the opponent cannot tell from this player's, drawn to weigh a decision's
exposure (a few milliseconds per decision weighed)."""
EXPOSURE_WEIGHED = 3
"""With ``hiding``, the exposure of at most this many of the best root decisions is weighed."""
HIDING_RESERVE = 0.03
"""Seconds of the budget kept from the search, with ``hiding``, to weigh exposures."""
RACE_FROM = 20
"""Worlds played under every root candidate before racing may drop one."""
RACE_EVERY = 10
"""Worlds between two looks at the race."""


_Answer = TypeVar("_Answer")
_Chances = Callable[[View, Sequence[Move]], Mapping[Move, float]]
"""``(view, legal) -> each decision's chance``, unnormalised."""


class _OutOfTime(Exception):
    """A playout ran past the cutoff: it is dropped, unscored."""


class _Node:
    __slots__ = ("available", "children", "move", "mover", "replies", "value", "visits")

    def __init__(self, move: Move | None, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.available = 0
        self.value = 0.0
        # Where the opponent is to move and searches (``reply_widening``): by their
        # information set, each reply's [visits, value for them].
        self.replies: dict[tuple[object, ...], dict[Move, list[float]]] | None = None


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
        exploration: the UCB constant.
        match_value: how the end of a round is scored for the match.
        candidates: how many of this player's best-ranked decisions are searched at each
            of its nodes (``None``: all).
        replies: how many of the opponent's best-ranked decisions are searched at each of
            their nodes (1: the model's choice; ``None``: all, as plain ISMCTS does).
        exact_turns: from this many turns before a round's end on (the answers to
            offers included), play is solved exactly in each sampled world instead of
            by the judge, and at the root there every decision is compared.
        inference: sample worlds in proportion to how likely the opponent's decisions
            this round were in them (:mod:`hanamikoji.bots.inference`), the opponent
            modelled as choosing by the judge's scores with this softmax temperature;
            ``None``: uniformly.
        surprise: the share of that opponent model that chooses uniformly, so that no
            decision is impossible (a searching opponent often plays the judge's third
            choice or lower).
        shortlist: the softmax of that opponent model is over the judge's this many best
            decisions only, the rest having only the uniform share: an opponent who
            searches the judge's few best, as ``ismcts`` searches its 3 (``None``: over
            every decision).
        network: a learned evaluation (:mod:`hanamikoji.bots.network`); if given, its
            ``network_candidates`` best decisions are searched at the root besides the
            judge's, and with ``network_playouts`` it ranks the decisions below the root
            (so it plays the playouts and the opponent's replies) instead of the judge.
        root_candidates: how many of the judge's best-ranked decisions are searched at the
            root (``None``: ``candidates``).
        racing: drop a root candidate once the best one's lead over it, paired world by
            world, exceeds this many standard errors, so the playouts go to the
            decisions still in contention (``None``: every candidate to the end).
        compiled: judge with the compiled kernel (:class:`GreedyBot`'s option of that
            name): the same playouts, about five times as many in the same time. Off
            by default, so that ``ismcts`` stays the search the bots issue measured
            (docs/strength.md's tables) and the ``expert``'s baseline.
        reply_temperature: the opponent's decisions below the root (in the tree and in
            the playouts) are drawn from a softmax over the judge's scores on their view
            at this temperature, instead of always being the judge's choice (``None``).
        playout_temperature: likewise for this player's own decisions in the playouts.
        modelled_replies: the opponent's decisions below the root are drawn from
            inference's opponent model on their view (``inference``, ``surprise``,
            ``shortlist``): the search plans against the opponent that weighs its worlds.
        random_prior: the prior chance that the opponent chooses uniformly at random (as
            the ``random`` bot does, or a beginner might) rather than as the judge.
            Inference weighs each world under both models, and draws the model with the
            world: in a world where the opponent plays at random their decisions below
            the root are drawn uniformly and the exact last turn averages over them.
            The chance inferred by the bot's last search of a round is the next round's
            prior (bounded by ``BELIEF_BOUNDS``), so the evidence adds up over a match.
            Needs ``inference``. ``None``: the opponent is the judge.
        reply_widening: the opponent's replies below the root are searched too, in
            *their* information set (their hand in the sampled world and what they have
            seen), as in multiple-observer ISMCTS (Cowling, Powley and Whitehouse,
            2012): the judge's choice on their view first, and one more of its
            runners-up (up to ``candidates``) per this many visits to that information
            set at that node, chosen by UCB on the opponent's own results. Information
            sets that recur (late in a round, few cards unseen) get a searched reply;
            rare ones keep the judge's. ``None``: the judge's choice (``replies``).
        hiding: the opponent may infer this player's cards from its decisions as
            inference infers theirs: among the root decisions whose values are close,
            prefer those that give the hand away least. Each is scored by its value
            less ``hiding`` times its :func:`~hanamikoji.bots.inference.exposure` under
            inference's model (in nats, within ``EXPOSURE_CAP``). Needs ``inference``.
            ``None``: the best value alone.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        iterations: int | None = None,
        exploration: float = 0.3,
        match_value: MatchValue = table_match_value,
        candidates: int | None = 3,
        replies: int | None = 1,
        exact_turns: int = 1,
        inference: float | None = TEMPERATURE,
        network: ValueNetwork | None = None,
        network_candidates: int = 2,
        network_playouts: bool = False,
        racing: float | None = None,
        root_candidates: int | None = None,
        compiled: bool = False,
        reply_temperature: float | None = None,
        playout_temperature: float | None = None,
        random_prior: float | None = None,
        reply_widening: int | None = None,
        surprise: float = SURPRISE,
        shortlist: int | None = None,
        modelled_replies: bool = False,
        hiding: float | None = None,
    ) -> None:
        super().__init__(seed, budget if budget is not None else DEFAULT_BUDGET)
        if hiding is not None and (hiding <= 0 or inference is None):
            raise ValueError("hiding is a positive weight, and needs inference's model")
        self.hiding = hiding
        self.iterations = iterations
        self.candidates = candidates
        self.replies = replies
        if not 0 <= exact_turns <= TURNS_PER_ROUND:
            raise ValueError(f"exact_turns is 0 to {TURNS_PER_ROUND}, not {exact_turns}")
        self.exact_turns = exact_turns
        self.inference = inference
        if not 0 < surprise <= 1:
            raise ValueError(f"surprise is a share above 0 and at most 1, not {surprise}")
        self.surprise = surprise
        if shortlist is not None and shortlist < 1:
            raise ValueError(f"shortlist is a positive number of decisions, not {shortlist}")
        self.shortlist = shortlist
        self.network = network
        self.network_candidates = network_candidates
        self.network_playouts = network_playouts
        if racing is not None and racing <= 0:
            raise ValueError(f"racing is a positive number of standard errors, not {racing}")
        self.racing = racing
        self.root_candidates = root_candidates if root_candidates is not None else candidates
        for option, temperature in (
            ("reply_temperature", reply_temperature),
            ("playout_temperature", playout_temperature),
        ):
            if temperature is not None and temperature <= 0:
                raise ValueError(f"{option} is a positive number, not {temperature}")
        if modelled_replies and (inference is None or reply_temperature is not None):
            raise ValueError("modelled_replies needs inference and no reply_temperature")
        self.reply_temperature = reply_temperature
        self.playout_temperature = playout_temperature
        self.modelled_replies = modelled_replies
        if random_prior is not None and not 0 < random_prior < 1:
            raise ValueError(f"random_prior is a chance between 0 and 1, not {random_prior}")
        if random_prior is not None and inference is None:
            raise ValueError("random_prior needs inference: it is inferred from the decisions")
        self.random_prior = random_prior
        if reply_widening is not None and reply_widening < 1:
            raise ValueError(f"reply_widening is a positive number of visits, not {reply_widening}")
        self.reply_widening = reply_widening
        # By round of the match being played: the chance that the opponent chooses at
        # random, as the last search in that round inferred it.
        self._random_beliefs: dict[int, float] = {}
        # In the world being played: does the opponent choose at random?
        self._random_opponent = False
        self._judge = GreedyBot(seed, compiled=compiled)
        # How the opponent's replies and this player's playout decisions are drawn, if
        # they are: the chance of each decision on the mover's view.
        self._reply_chances: _Chances | None = None
        if modelled_replies:
            self._reply_chances = self._model
        elif reply_temperature is not None:
            self._reply_chances = self._softmax_at(reply_temperature)
        self._playout_chances = (
            None if playout_temperature is None else self._softmax_at(playout_temperature)
        )
        self.exploration = exploration
        self.match_value = match_value
        self.stats = SearchStats()
        # Per search, by a player's information set (views repeat across worlds): the
        # judge's ranking of their decisions.
        self._rankings: dict[tuple[object, ...], list[Move]] = {}
        # Likewise, when they choose at random: their decisions and cumulative chances.
        self._policies: dict[tuple[object, ...], tuple[list[Move], list[float]]] = {}
        # Per search: the exactly solved ends of the round, by position (RoundSolver),
        # against the judge and against a random opponent.
        self._solved: dict[tuple[object, ...], float] = {}
        self._solved_against_random: dict[tuple[object, ...], float] = {}
        self._cutoff = math.inf
        self._models: dict[tuple[object, ...], dict[Move, float]] = {}

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        if self.hiding is None:
            return self._search(view, legal, (), _best_move)
        best, values = self._search(
            view, legal, (), lambda root: (_best_move(root), _root_values(root))
        )
        # With fewer than two decisions played, there is nothing to weigh.
        return best if len(values) < 2 else self._least_exposed(view, values, self.hiding)

    def _least_exposed(
        self, view: View, values: Mapping[Move, tuple[int, float]], weight: float
    ) -> Move:
        """The root decision of highest value less ``weight`` times its exposure, among
        the few best whose value is close enough to the best for exposure to matter."""
        best = max(value for _, value in values.values())
        margin = 2 * EXPOSURE_CAP * weight
        close = [m for m, (_, value) in values.items() if value >= best - margin]
        # The best few only, so that weighing them fits in HIDING_RESERVE.
        close = sorted(close, key=lambda m: -values[m][1])[:EXPOSURE_WEIGHED]
        if len(close) == 1:
            return close[0]

        def score(move: Move) -> float:
            exposed = exposure(view, move, self._model, self.rng, EXPOSURE_SAMPLES)
            return values[move][1] - weight * min(max(exposed, -EXPOSURE_CAP), EXPOSURE_CAP)

        return max(close, key=score)

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
            self._policies = {}
            self._solved = {}
            self._solved_against_random = {}
            if collecting:
                gc.enable()

    def _timed_search(self, view: View, legal: Sequence[Move], include: tuple[Move, ...]) -> _Node:
        start = time.perf_counter()
        assert self.budget is not None
        # Time left, with hiding, to weigh the exposure of the best decisions after.
        budget = self.budget - (HIDING_RESERVE if self.hiding is not None else 0.0)
        deadline = start + max(budget * PLANNED, budget - PLANNED_MARGIN)
        self._cutoff = start + max(budget * CUTOFF, budget - CUTOFF_MARGIN)
        limit = self.iterations if self.iterations is not None else 1 << 62
        me = view.player
        root = _Node(None, 1 - me)
        scores = self._judge.scores(view, legal)
        ranked = best_first(legal, scores)
        keep = len(ranked) if self.root_candidates is None else self.root_candidates
        if view.deck_size < self.exact_turns:
            # Solved in each world: every decision can be compared.
            keep = len(ranked)
        searched = ranked[:keep]
        if self.network is not None and keep < len(ranked):
            searched += [m for m in self._by_network(view, legal, scores) if m not in searched][
                : self.network_candidates
            ]
        searched += [m for m in include if m in ranked and m not in searched]
        # Best-ranked first: with no playout at all, the judge's choice is played.
        for move in searched:
            root.children[move] = _Node(move, me)
        sample = self._sampler(view)
        done = 0
        clock = time.perf_counter
        now = clock()
        # A playout consults the judge several times: it takes at least this long.
        longest = now - start
        # Per searched decision, its value for this player in each world played under
        # every decision still in the race.
        results: dict[Move, list[float]] = {move: [] for move in searched}
        racing = list(searched)
        worlds = 0
        # Stop while one more playout still fits even if it is half as long again as the
        # slowest seen (a playout can take milliseconds, and a new world can need fresh
        # judgements); the last world may then be played under only some of the
        # candidates, one playout among many.
        while done < limit and now + SAFETY * longest < deadline:
            world, self._random_opponent = sample()
            values: list[float] = []
            for index, move in enumerate(racing):
                game = world if index == len(racing) - 1 else world.copy()
                begun = now
                child = root.children[move]
                before = child.value
                game.push(move)
                try:
                    self._iterate(child, game, me)
                except _OutOfTime:
                    # A pause of the process, or a playout far slower than any before.
                    now = clock()
                    break
                values.append(child.value - before)
                root.visits += 1
                done += 1
                now = clock()
                longest = max(longest, now - begun)
                if done >= limit or now + SAFETY * longest >= deadline:
                    break
            if len(values) < len(racing):
                continue
            for move, value in zip(racing, values, strict=True):
                results[move].append(value)
            worlds += 1
            if self.racing is not None and worlds >= RACE_FROM and worlds % RACE_EVERY == 0:
                racing = _race(racing, results, self.racing, include)
                if len(racing) == 1:
                    break  # the decision is made: the rest of the budget would not change it
        for move in searched:
            if move not in racing:
                # Behind on the very worlds the others were compared on: out of the choice.
                del root.children[move]
        stats = SearchStats()
        stats.iterations = done
        stats.seconds = time.perf_counter() - start
        stats.root_visits = {m: c.visits for m, c in root.children.items()}
        self.stats = stats
        return root

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
        if self.inference is None:
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
        if self.random_prior is None:
            return None
        if view.round == 1:
            # A new match (the bot may be reused): nothing is known of this opponent.
            self._random_beliefs.clear()
        previous = self._random_beliefs.get(view.round - 1)
        if previous is None:
            return self.random_prior
        low, high = BELIEF_BOUNDS
        return min(max(previous, low), high)

    def _model(self, view: View, legal: Sequence[Move]) -> dict[Move, float]:
        """The opponent model of inference: a softmax over the judge's scores."""
        assert self.inference is not None
        # The same past decision with the same hand recurs across worlds and searches.
        key = judged_content(view)
        known = self._models.get(key)
        if known is not None:
            return known
        if len(self._models) >= MODEL_CACHE:
            self._models.clear()
        scores = self._judge.scores(view, legal)
        chances = opponent_model(scores, self.inference, self.surprise, self.shortlist)
        self._models[key] = chances
        return chances

    def _ranked(self, game: Game, mover: int, legal: Sequence[Move]) -> list[Move]:
        """``legal`` best first, as the judge ranks them on ``mover``'s view of ``game``."""
        key = game.information_key(mover)
        ranked = self._rankings.get(key)
        if ranked is None:
            if time.perf_counter() > self._cutoff:
                raise _OutOfTime
            view = game.view(mover)
            if self.network is not None and self.network_playouts:
                ranked = self._by_network(view, legal)
            else:
                ranked = self._by_judge(view, legal)
            self._rankings[key] = ranked
        return ranked

    def _softmax_at(self, temperature: float) -> _Chances:
        """Unnormalised chances: a softmax at ``temperature`` over the judge's scores."""
        judge = self._judge
        return lambda view, legal: _softmax_weights(judge.scores(view, legal), temperature)

    def _drawn(self, game: Game, mover: int, legal: Sequence[Move], chances: _Chances) -> Move:
        """One of ``legal``, drawn by ``chances`` on ``mover``'s view of ``game``."""
        if len(legal) == 1:
            return legal[0]
        key = game.information_key(mover)
        policy = self._policies.get(key)
        if policy is None:
            if time.perf_counter() > self._cutoff:
                raise _OutOfTime
            weights = chances(game.view(mover), legal)
            policy = self._policies[key] = (list(weights), list(accumulate(weights.values())))
        moves, cumulative = policy
        return moves[bisect(cumulative, self.rng.random() * cumulative[-1])]

    def _drawn_reply(self, game: Game, mover: int, legal: Sequence[Move]) -> Move | None:
        """The opponent's decision, if it is drawn at random in this world rather than
        ranked by the judge: uniformly if they play at random, else from the softmax at
        ``reply_temperature`` or inference's model (``modelled_replies``) if set."""
        if self._random_opponent:
            return legal[self.rng.randrange(len(legal))]
        if self._reply_chances is not None:
            return self._drawn(game, mover, legal, self._reply_chances)
        return None

    def _playout_move(self, game: Game, mover: int, me: int) -> Move:
        """``mover``'s decision in a playout: the judge's choice, or drawn at random."""
        legal = game.legal_moves()
        if mover != me:
            drawn = self._drawn_reply(game, mover, legal)
            if drawn is not None:
                return drawn
        elif self._playout_chances is not None:
            return self._drawn(game, mover, legal, self._playout_chances)
        return legal[0] if len(legal) == 1 else self._ranked(game, mover, legal)[0]

    def _iterate(self, below: _Node, game: Game, me: int) -> None:
        """One iteration under the root decision ``below``, already played in ``game``."""
        node = below
        path = [below]
        # The opponent's own statistics of the replies searched in their information set.
        credited: list[list[float]] = []
        c = self.exploration
        exact_from = TURNS_PER_ROUND - self.exact_turns
        # Selection and expansion, within the round being played.
        while not (game.needs_deal or game.is_over()) and game.turn < exact_from:
            legal: Sequence[Move] = game.legal_moves()
            mover = game.to_move
            assert mover is not None
            drawn = None if mover == me else self._drawn_reply(game, mover, legal)
            if drawn is not None:
                # The opponent's reply is drawn anew in each world: the only one searched
                # here this time.
                legal = [drawn]
            else:
                if mover == me:
                    keep = self._widened(node.visits, WIDENING)
                elif self.reply_widening is not None:
                    legal = [self._searched_reply(node, game, mover, legal, credited)]
                    keep = 1
                else:
                    keep = self.replies if self.replies is not None else len(legal)
                if len(legal) > keep:
                    legal = self._ranked(game, mover, legal)[:keep]
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
        if game.needs_deal or game.is_over():
            win0 = round_end_value(game, 0, self.match_value)
        else:
            # The round's last turns, as both would play them knowing the sampled world.
            if self._random_opponent:
                solver = RoundSolver(
                    self.match_value, self._cutoff, self._solved_against_random, 1 - me
                )
            else:
                solver = RoundSolver(self.match_value, self._cutoff, self._solved)
            try:
                win0 = solver.value(game)
            except SolverTimeout:
                raise _OutOfTime from None
        for visited in path:
            visited.visits += 1
            visited.value += win0 if visited.mover == 0 else 1.0 - win0
        if credited:
            theirs = win0 if me == 1 else 1.0 - win0
            for entry in credited:
                entry[0] += 1
                entry[1] += theirs

    def _widened(self, visits: int, per: int) -> int:
        """Progressive widening: how many of the judge's best decisions a node searches
        after ``visits``. The judge's choice first, one more of its runners-up per ``per``
        visits (up to ``candidates``), once there are enough to tell them apart."""
        keep = 1 + visits // per
        return keep if self.candidates is None else min(keep, self.candidates)

    def _searched_reply(
        self,
        node: _Node,
        game: Game,
        mover: int,
        legal: Sequence[Move],
        credited: list[list[float]],
    ) -> Move:
        """The opponent's reply at ``node`` in this world, chosen in their information set
        (``reply_widening``); its statistics are added to ``credited``."""
        assert self.reply_widening is not None
        if node.replies is None:
            node.replies = {}
        stats = node.replies.setdefault(game.information_key(mover), {})
        visits = sum(int(entry[0]) for entry in stats.values())
        keep = self._widened(visits, self.reply_widening)
        ranked = legal if len(legal) == 1 else self._ranked(game, mover, legal)[:keep]
        for move in ranked:
            if move not in stats:
                # Best-ranked first: the judge's choice, then its runners-up.
                entry = stats[move] = [0, 0.0]
                credited.append(entry)
                return move
        log_visits = math.log(visits)
        c = self.exploration
        best = max(
            ranked,
            key=lambda move: (
                stats[move][1] / stats[move][0] + c * math.sqrt(log_visits / stats[move][0])
            ),
        )
        credited.append(stats[best])
        return best


def opponent_model(
    scores: Mapping[Move, float],
    temperature: float,
    surprise: float,
    shortlist: int | None = None,
) -> dict[Move, float]:
    """Inference's model of the opponent: the chance of each decision, a softmax over the
    judge's ``scores`` at ``temperature`` (over its ``shortlist`` best decisions only, if
    given, ties in the scores' order as the search ranks them) mixed with a ``surprise``
    share of uniform choice (``benchmarks/opponent_model.py`` fits all three to recorded
    games)."""
    considered = scores
    if shortlist is not None and shortlist < len(scores):
        considered = {move: scores[move] for move in best_first(list(scores), scores)[:shortlist]}
    return mixed_softmax(considered, list(scores), temperature, surprise)


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
    return ISMCTSBot(seed, budget=1e9, iterations=iterations, compiled=True)


def _softmax_weights(scores: Mapping[Move, float], temperature: float) -> dict[Move, float]:
    """Each decision's unnormalised softmax weight at ``temperature`` (the best one's is 1)."""
    best = max(scores.values())
    return {move: math.exp((score - best) / temperature) for move, score in scores.items()}


def _race(
    racing: list[Move], results: Mapping[Move, list[float]], z: float, keep: Sequence[Move]
) -> list[Move]:
    """``racing`` without the decisions whose paired deficit to the best one exceeds ``z``
    standard errors (those in ``keep`` stay). All of ``racing`` were played in the same
    worlds, so each world's difference cancels how good its hands were."""
    count = len(results[racing[0]])
    leader = max(racing, key=lambda move: sum(results[move]))
    best = results[leader]
    staying = []
    for move in racing:
        if move != leader and move not in keep:
            gaps = [b - v for b, v in zip(best, results[move], strict=True)]
            mean = sum(gaps) / count
            variance = sum((gap - mean) ** 2 for gap in gaps) / (count - 1)
            if mean > z * math.sqrt(variance / count):
                continue
        staying.append(move)
    return staying


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
