"""Exact values near the end of a round, over every world of a player's information set.

A search samples the hidden world behind a player's view (:mod:`hanamikoji.bots.inference`):
a world is drawn uniformly and weighed by how likely the opponent's decisions this round
were in it, under an opponent model. Near a round's end so few cards are hidden that the
worlds can be listed instead, each with its exact weight:

- its prior weight: the number of orders of the unseen cards that deal it (every order
  of the shuffled cards is equally likely);
- times the mean, over every past consistent with it (which card the opponent drew at
  each of their turns), of the chance the model gives to every decision the opponent
  made this round; the search draws one such past at random per world, so this is the
  weight it gives the world on average. The mean is summed by dynamic programming over
  the opponent's hands, walking the round backwards.

The value of a decision is then its mean over the weighed worlds of the chance to win
the match once the rest of the round is played:

- on the last turn of a round (the deck empty), after an answer the round is scored: the
  value is exact. After an offer, the answer is chosen by the answerer on *their* view,
  as this module would choose it (every world of their information set, weighed by
  their inference about the offerer), not by an answerer who sees the offerer's cards;
- earlier (the seventh turn), the rest of each world's round is solved by
  :class:`~hanamikoji.bots.solver.RoundSolver`, both players seeing its cards, as the
  search solves its last turn.

The round's end is valued for the match by the match table
(:mod:`hanamikoji.bots.match_table`), except when the game ends there (1, 0 or 0.5).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from hanamikoji.bots.evaluation import MatchValue, round_end_value
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.inference import DecisionModel, replay_round, replayed_world
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, opponent_model
from hanamikoji.bots.judge import judged_content
from hanamikoji.bots.match_table import table_match_value
from hanamikoji.bots.solver import RoundSolver
from hanamikoji.core.cards import UNIT, counts, from_counts, items, pack
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.core.view import View
from hanamikoji.core.worlds import World, from_view

__all__ = [
    "ExactValue",
    "InformationSet",
    "Opponent",
    "Solution",
    "WeighedWorld",
    "exact_values",
    "judge_model",
    "list_worlds",
    "mean_likelihood",
    "world_values",
]

TIE = 1e-12
"""Values closer than this are equal (an answerer choosing among equal answers)."""


@dataclass(frozen=True, slots=True)
class WeighedWorld:
    """One world behind a view and its chance, given what the viewer knows."""

    world: World
    chance: float


@dataclass(frozen=True, slots=True)
class ExactValue:
    """A decision's exact value for its mover: the chance to win the match after it, and
    the chance that the game ends at this round's scoring with the mover's win or loss
    (``None`` where the rest of the round is solved, not played out here)."""

    value: float
    wins_at_once: float | None
    loses_at_once: float | None


@dataclass(frozen=True, slots=True)
class Solution:
    """The exact value of each decision, over ``worlds`` worlds."""

    values: dict[Move, ExactValue]
    worlds: int


Opponent = DecisionModel | None
"""The model that weighs worlds by the opponent's decisions; ``None``: uniform worlds."""


def judge_model(
    temperature: float = DEFAULT_CONFIG.temperature, surprise: float = DEFAULT_CONFIG.surprise
) -> Callable[[View, Sequence[Move]], dict[Move, float]]:
    """The opponent model of ``ismcts``'s inference (the judge's softmax mixed with
    uniform choice, :func:`~hanamikoji.bots.ismcts.opponent_model`, at the search's
    temperature and surprise by default), its answers remembered by the judged content
    of the view."""
    judge = GreedyBot(compiled=True)
    remembered: dict[tuple[object, ...], dict[Move, float]] = {}

    def model(view: View, legal: Sequence[Move]) -> dict[Move, float]:
        key = judged_content(view)
        known = remembered.get(key)
        if known is None:
            known = opponent_model(judge.scores(view, legal), temperature, surprise)
            remembered[key] = known
        return known

    return model


# -- listing the worlds -------------------------------------------------------------------


def _choices(available: tuple[int, ...], size: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every sub-multiset of ``size`` cards of ``available`` (counts per kind), as its
    sorted cards, with the number of orders of its cards (``size!`` over the factorials
    of its counts)."""

    def extend(kind: int, left: int, chosen: list[int]) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield tuple(chosen)
            return
        if kind == len(available):
            return
        for take in range(min(left, available[kind]), -1, -1):
            yield from extend(kind + 1, left - take, chosen + [kind] * take)

    for cards in extend(0, size, []):
        orders = math.factorial(size)
        for count in counts(pack(cards)):
            orders //= math.factorial(count)
        yield cards, orders


def _arrangements(available: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every distinct order of the cards of ``available`` (counts per kind)."""
    if not any(available):
        yield ()
        return
    for kind, count in enumerate(available):
        if count:
            rest = (*available[:kind], count - 1, *available[kind + 1 :])
            for tail in _arrangements(rest):
                yield (kind, *tail)


def _minus(available: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    return counts(from_counts(available) - pack(cards))


def list_worlds(view: View, limit: int | None = None) -> list[tuple[World, int]] | None:
    """Every world behind ``view`` (the opponent's hand, Secret and Trade-off, the
    removed card and the deck's order, from the cards it has not seen), each once, with
    its prior weight: the number of orders of the unseen cards that deal it. ``None``
    if there are more than ``limit``."""
    opponent = view.opponent
    has_secret = MoveKind.SECRET in view.used[opponent]
    has_tradeoff = MoveKind.TRADE_OFF in view.used[opponent]
    found: list[tuple[World, int]] = []
    unseen = view.unseen()
    for hand, hand_orders in _choices(unseen, view.hand_sizes[opponent]):
        after_hand = _minus(unseen, hand)
        for secret, _ in _choices(after_hand, 1) if has_secret else iter([((), 1)]):
            after_secret = _minus(after_hand, secret)
            for tradeoff, tradeoff_orders in _choices(after_secret, 2 if has_tradeoff else 0):
                after_tradeoff = _minus(after_secret, tradeoff)
                for (removed,), _ in _choices(after_tradeoff, 1):
                    for deck in _arrangements(_minus(after_tradeoff, (removed,))):
                        world = World(hand, secret[0] if secret else None, tradeoff, removed, deck)
                        found.append((world, hand_orders * tradeoff_orders))
                        if limit is not None and len(found) > limit:
                            return None
    return found


# -- weighing them ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Draw:
    """The opponent drew a card (at the start of their turn)."""


@dataclass(frozen=True, slots=True)
class _Decision:
    """The opponent made ``move`` on ``view`` (its hand to be replaced); an action takes
    its cards out of their hand, an answer does not."""

    view: View
    move: Move


_Event = _Draw | _Decision


def _opponent_events(view: View, world: World) -> list[_Event]:
    """The opponent's draws and decisions this round, in order, had the world been
    ``world`` (their views as in one past consistent with it: only the hand differs
    between pasts)."""
    game, moves = replay_round(view, world, random.Random(0))
    them = view.opponent
    events: list[_Event] = []
    for move in moves:
        if game.to_move == them:
            if game.pending is None:
                events.append(_Draw())
            events.append(_Decision(game.view(them), move))
        game.push(move)
    return events


def mean_likelihood(view: View, world: World, model: DecisionModel) -> float:
    """The chance ``model`` gives to every decision the opponent made this round, had the
    world been ``world``, averaged over every past consistent with it (which of their
    cards they drew at each of their turns, each past as likely as the shuffle makes
    it): the weight :class:`~hanamikoji.bots.inference.WorldSampler` gives the world on
    average."""
    events = _opponent_events(view, world)
    known: dict[tuple[int, int], float] = {}

    def chance(decision: _Decision, hand: int) -> float:
        seen = replace(decision.view, hand=items(hand), drawn=None)
        legal = seen.generate_legal_moves()
        return 1.0 if len(legal) <= 1 else model(seen, legal).get(decision.move, 0.0)

    def before(index: int, hand: int) -> float:
        # The mean over the pasts of the events before ``index``, the hand after them.
        if index == 0:
            return 1.0
        remembered = known.get((index, hand))
        if remembered is not None:
            return remembered
        event = events[index - 1]
        if isinstance(event, _Draw):
            per_kind = counts(hand)
            total = sum(
                count * before(index - 1, hand - UNIT[kind])
                for kind, count in enumerate(per_kind)
                if count
            )
            value = total / sum(per_kind)
        else:
            held = hand if event.move.is_response else hand + pack(event.move.cards)
            value = chance(event, held)
            if value > 0.0:
                value *= before(index - 1, held)
        known[(index, hand)] = value
        return value

    return before(len(events), pack(world.opponent_hand))


class InformationSet:
    """The worlds behind one view, each with its chance given the view: the prior weight
    times :func:`mean_likelihood` under ``model``, normalised."""

    def __init__(self, view: View, model: Opponent, limit: int | None = None) -> None:
        self.view = view
        listed = list_worlds(view, limit)
        self.complete = listed is not None
        self.worlds: tuple[WeighedWorld, ...] = ()
        if listed is None:
            return
        weights = [
            prior * (1.0 if model is None else mean_likelihood(view, world, model))
            for world, prior in listed
        ]
        total = sum(weights)
        self.worlds = tuple(
            WeighedWorld(world, weight / total)
            for (world, _), weight in zip(listed, weights, strict=True)
        )


# -- valuing decisions --------------------------------------------------------------------


class _Values:
    """Values of decisions over one information set (see :func:`exact_values`)."""

    def __init__(self, model: Opponent, match_value: MatchValue, limit: int | None) -> None:
        self.model = model
        self.match_value = match_value
        self.limit = limit
        # Answers chosen at the last turn, by the answerer's information set.
        self._answers: dict[tuple[object, ...], tuple[Move, ...]] = {}
        self._solved: dict[tuple[object, ...], float] = {}

    def values(self, view: View, legal: Sequence[Move]) -> Solution | None:
        info = InformationSet(view, self.model, self.limit)
        if not info.complete:
            return None
        if view.deck_size == 0:
            values = {move: self._last_turn(view, info, move) for move in legal}
        else:
            values = self._solved_values(view, info, legal)
        return Solution(values, len(info.worlds))

    def _last_turn(self, view: View, info: InformationSet, move: Move) -> ExactValue:
        """``move`` on the last turn: the round is scored after it, or after the answer
        the answerer chooses on their own view."""
        value = wins = losses = 0.0
        for weighed in info.worlds:
            in_world = self.last_turn_in(view, weighed.world, move)
            value += weighed.chance * in_world.value
            wins += weighed.chance * (in_world.wins_at_once or 0.0)
            losses += weighed.chance * (in_world.loses_at_once or 0.0)
        return ExactValue(value, wins, losses)

    def last_turn_in(self, view: View, world: World, move: Move) -> ExactValue:
        """``move`` on the last turn in one world: its value and whether the game ends at
        once with the mover's win or loss (shares, if the answerer has equal answers)."""
        me = view.player
        value = wins = losses = 0.0
        game = replayed_world(view, world, random.Random(0))
        game.push(move)
        answers = (None,) if game.pending is None else self._answer(game)
        for answer in answers:
            if answer is not None:
                game.push(answer)
            share = 1.0 / len(answers)
            value += share * round_end_value(game, me, self.match_value)
            outcome = game.outcome
            if outcome is not None and outcome.winner is not None:
                wins += share if outcome.winner == me else 0.0
                losses += share if outcome.winner != me else 0.0
            if answer is not None:
                game.pop()
        return ExactValue(value, wins, losses)

    def in_worlds(
        self, view: View, legal: Sequence[Move]
    ) -> list[tuple[WeighedWorld, dict[Move, float]]] | None:
        """Each world of ``view``'s information set and each decision's value in it (see
        :func:`world_values`)."""
        info = InformationSet(view, self.model, self.limit)
        if not info.complete:
            return None
        me = view.player
        solver = RoundSolver(self.match_value, table=self._solved)
        found: list[tuple[WeighedWorld, dict[Move, float]]] = []
        for weighed in info.worlds:
            values: dict[Move, float] = {}
            for move in legal:
                if view.deck_size == 0:
                    values[move] = self.last_turn_in(view, weighed.world, move).value
                    continue
                game = from_view(view, weighed.world)
                game.push(move)
                seat0 = solver.value(game)
                values[move] = seat0 if me == 0 else 1.0 - seat0
            found.append((weighed, values))
        return found

    def _answer(self, game: Game) -> tuple[Move, ...]:
        """The answers the answerer to ``game``'s pending last offer chooses on their
        view: those of the highest exact value over their information set."""
        answerer = game.to_move
        assert answerer is not None
        key = game.information_key(answerer)
        chosen = self._answers.get(key)
        if chosen is None:
            seen = game.view(answerer)
            legal = seen.generate_legal_moves()
            info = InformationSet(seen, self.model)
            values = {move: self._last_turn(seen, info, move).value for move in legal}
            best = max(values.values())
            chosen = tuple(move for move in legal if values[move] >= best - TIE)
            self._answers[key] = chosen
        return chosen

    def _solved_values(
        self, view: View, info: InformationSet, legal: Sequence[Move]
    ) -> dict[Move, ExactValue]:
        """Each decision's mean, over the worlds, of the rest of the round solved in each."""
        me = view.player
        solver = RoundSolver(self.match_value, table=self._solved)
        totals = dict.fromkeys(legal, 0.0)
        for weighed in info.worlds:
            game = from_view(view, weighed.world)
            for move in legal:
                game.push(move)
                seat0 = solver.value(game)
                game.pop()
                totals[move] += weighed.chance * (seat0 if me == 0 else 1.0 - seat0)
        return {move: ExactValue(total, None, None) for move, total in totals.items()}


def exact_values(
    view: View,
    legal: Sequence[Move],
    model: Opponent,
    limit: int | None = None,
    match_value: MatchValue = table_match_value,
) -> Solution | None:
    """The exact value of each of ``legal`` for ``view``'s player, over every world of
    their information set weighed by inference under ``model`` (see the module's
    docstring), or ``None`` if there are more than ``limit`` worlds.

    Meant for the last turns of a round: on the seventh the worlds number tens to
    hundreds, earlier thousands and more."""
    return _Values(model, match_value, limit).values(view, legal)


def world_values(
    view: View,
    legal: Sequence[Move],
    model: Opponent = None,
    limit: int | None = None,
    match_value: MatchValue = table_match_value,
) -> list[tuple[WeighedWorld, dict[Move, float]]] | None:
    """Every world of ``view``'s information set (with its chance, as :func:`exact_values`
    weighs it) and the value of each of ``legal`` in that world alone, or ``None`` past
    ``limit`` worlds: where a decision does better or worse than another. The mean of a
    decision's values over the worlds, by their chances, is its :func:`exact_values`."""
    return _Values(model, match_value, limit).in_worlds(view, legal)
