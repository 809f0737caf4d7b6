"""Policy-based inference: sampling the hidden world in proportion to how likely the
opponent's decisions this round were in it.

A uniform sample (:mod:`hanamikoji.bots.determinize`) ignores what the opponent's
offers, answers, Secret and Trade-off say about their cards. Here each uniformly sampled
world is given a past: which cards each player held at each of their decisions this round
(a uniformly random draw order consistent with the world and with every card played).
The round is replayed in that past with the core engine, and the world weighs the
product, over the opponent's decisions, of the chance an opponent model gives to the
decision they made. Sampling importance resampling (Rubin 1988) then draws the worlds a
search plays from the weighted pool. Buro, Long, Furtak and Sturtevant (2009) showed such
inference from a policy model to be worth much in determinized card-game search (Skat).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Mapping, Sequence

from hanamikoji.bots.determinize import World, sample_world
from hanamikoji.core.game import TURNS_PER_ROUND, Game
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.core.rng import Deal
from hanamikoji.core.view import LogEntry, View
from hanamikoji.core.worlds import before_round

__all__ = [
    "DecisionModel",
    "WorldSampler",
    "replay_round",
    "replayed_world",
    "uniform_model",
    "world_likelihood",
    "world_likelihoods",
]

DecisionModel = Callable[[View, Sequence[Move]], Mapping[Move, float]]
"""``(view, legal) -> chance of each legal decision``: a model of a player."""


def _round_entries(view: View) -> list[LogEntry]:
    return [entry for entry in view.log if entry.round == view.round]


def _with_cards(entry: LogEntry, secret: int | None, tradeoff: tuple[int, ...]) -> Move:
    """The decision of ``entry`` with the cards the world gives a hidden Secret or Trade-off."""
    move = entry.move
    if not move.hidden:
        return move
    if move.kind == MoveKind.SECRET:
        assert secret is not None
        return Move.secret(secret)
    return Move.trade_off(*tradeoff)


def _past(
    seat: int,
    holding: Sequence[int],
    actions: Mapping[int, Move],
    turn: int,
    starter: int,
    rng: random.Random,
    deck: list[int],
) -> tuple[int, ...]:
    """Walk ``seat``'s turns of this round backwards from ``holding`` (its hand now): give
    each action's cards back, take out the card drawn at the start of that turn (a
    uniformly random one of those in hand then) into ``deck``; return the dealt hand."""
    hand = list(holding)
    for past_turn in range(turn, -1, -1):
        if (starter + past_turn) % 2 != seat:
            continue
        action = actions.get(past_turn)
        if action is not None:
            hand.extend(action.cards)
        drawn = hand.pop(rng.randrange(len(hand)))
        deck[past_turn] = drawn
    return tuple(hand)


def replay_round(view: View, world: World, rng: random.Random) -> tuple[Game, list[Move]]:
    """A game at the start of ``view``'s round dealt so that, with the returned decisions
    (the round's so far, the opponent's hidden cards filled in from ``world``) pushed, it
    reaches ``view``'s position in ``world``. The draw order of the cards already drawn
    is sampled uniformly among those consistent with the decisions."""
    hand, secret, tradeoff, removed, future = world
    me, them = view.player, view.opponent
    entries = _round_entries(view)
    moves = [
        _with_cards(entry, secret, tradeoff) if entry.seat == them else entry.move
        for entry in entries
    ]
    actions: tuple[dict[int, Move], dict[int, Move]] = ({}, {})
    for entry, move in zip(entries, moves, strict=True):
        if not move.is_response:
            actions[entry.seat][entry.turn - 1] = move
    turn = TURNS_PER_ROUND - 1 - view.deck_size
    deck = [0] * (turn + 1) + list(future)
    # Secret and Trade-off cards come back with their actions: start from the hands.
    dealt: list[tuple[int, ...]] = [(), ()]
    dealt[me] = _past(me, view.hand, actions[me], turn, view.round_starter, rng, deck)
    dealt[them] = _past(them, hand, actions[them], turn, view.round_starter, rng, deck)
    game = before_round(view)
    game.deal(Deal(removed, (dealt[0], dealt[1]), tuple(deck)))
    return game, moves


def replayed_world(view: View, world: World, rng: random.Random) -> Game:
    """``view``'s position completed with ``world``, reached by replaying the round
    (:func:`replay_round`): unlike :func:`hanamikoji.core.worlds.from_view`'s, its views
    carry the round's log, which a bot that infers from it needs."""
    game, moves = replay_round(view, world, rng)
    for move in moves:
        game.push(move)
    return game


def world_likelihood(
    view: View,
    world: World,
    rng: random.Random,
    model: DecisionModel,
    remembered: dict[tuple[object, ...], Mapping[Move, float]] | None = None,
) -> float:
    """The chance ``model`` gives to every decision the opponent made this round, had
    the world been ``world`` (with a sampled draw order).

    With ``remembered``, the model's answers are kept there by the opponent's
    information set (:meth:`Game.information_key`), and a decision met again in another
    world is not asked of the model again (nor is the opponent's view built for it): for
    a model that reads neither the log nor which card was drawn last, as the search's
    judge does not."""
    return world_likelihoods(view, world, rng, (model,), (remembered,))[0]


def world_likelihoods(
    view: View,
    world: World,
    rng: random.Random,
    models: Sequence[DecisionModel],
    remembered: Sequence[dict[tuple[object, ...], Mapping[Move, float]] | None],
) -> list[float]:
    """:func:`world_likelihood` under each of ``models`` (each with its own memory in
    ``remembered``, or ``None``), from one replay of the round."""
    them = view.opponent
    likelihoods = [1.0] * len(models)
    if not any(entry.seat == them for entry in _round_entries(view)):
        return likelihoods
    game, moves = replay_round(view, world, rng)
    for move in moves:
        if game.to_move == them:
            legal = game.generate_legal_moves()
            if len(legal) > 1:
                # Built at most once per decision, and only if a model is asked.
                key: tuple[object, ...] | None = None
                seen: View | None = None
                for index, (model, memory) in enumerate(zip(models, remembered, strict=True)):
                    if memory is not None:
                        key = key if key is not None else game.information_key(them)
                        known = memory.get(key)
                        if known is not None:
                            likelihoods[index] *= known[move]
                            continue
                    seen = seen if seen is not None else game.view(them)
                    chances = model(seen, legal)
                    if memory is not None:
                        assert key is not None
                        memory[key] = chances
                    likelihoods[index] *= chances[move]
        game.push(move)
    return likelihoods


def uniform_model(view: View, legal: Sequence[Move]) -> dict[Move, float]:
    """A player who chooses uniformly among the distinct legal decisions (the
    ``random`` bot)."""
    chance = 1.0 / len(legal)
    return dict.fromkeys(legal, chance)


class WorldSampler:
    """Sampling importance resampling of hidden worlds behind one view: every
    :meth:`draw` adds one uniformly sampled world, weighed by :func:`world_likelihood`,
    to a growing pool and returns a world drawn from the pool in proportion to weight.
    With ``remember``, the model's answers are remembered across the worlds (see
    :func:`world_likelihood`).

    ``alternatives`` are other models of the opponent, each with its prior chance of
    being the right one (``model`` has the rest). Each world then enters the pool once
    per model, weighed by the model's prior times the likelihood under it, and
    :meth:`draw_typed` draws a world together with the model that explains it: the
    posterior over models follows the opponent's decisions, as the one over worlds does.
    """

    def __init__(
        self,
        view: View,
        rng: random.Random,
        model: DecisionModel,
        remember: bool = False,
        alternatives: Sequence[tuple[float, DecisionModel]] = (),
    ) -> None:
        rest = 1.0 - sum(prior for prior, _ in alternatives)
        if not all(0.0 < prior < 1.0 for prior, _ in alternatives) or rest <= 0.0:
            raise ValueError("the alternative models' prior chances must add up to less than 1")
        self.view = view
        self.rng = rng
        self.models = (model, *(alternative for _, alternative in alternatives))
        self.priors = (rest, *(prior for prior, _ in alternatives))
        self.worlds: list[World] = []
        self._cumulative: list[float] = []
        self._model_weights = [0.0] * len(self.models)
        # See world_likelihood: only for models that read neither log nor last draw.
        self._remembered: list[dict[tuple[object, ...], Mapping[Move, float]] | None] = [
            {} if remember else None for _ in self.models
        ]

    def posterior(self) -> list[float]:
        """Each model's chance of being the opponent's, given their decisions this round,
        as the pool estimates it (the priors while the pool is empty or weighs nothing)."""
        total = sum(self._model_weights)
        if total <= 0.0:
            return list(self.priors)
        return [weight / total for weight in self._model_weights]

    def draw(self) -> World:
        """A world, drawn as by :meth:`draw_typed`."""
        return self.draw_typed()[0]

    def draw_typed(self) -> tuple[World, int]:
        """A world and the index of the model (0: ``model``, then the alternatives)
        the opponent follows in it, drawn from the pool in proportion to weight."""
        world = sample_world(self.view, self.rng)
        likelihoods = world_likelihoods(self.view, world, self.rng, self.models, self._remembered)
        total = self._cumulative[-1] if self._cumulative else 0.0
        self.worlds.append(world)
        for model, (prior, likelihood) in enumerate(zip(self.priors, likelihoods, strict=True)):
            total += prior * likelihood
            self._cumulative.append(total)
            self._model_weights[model] += prior * likelihood
        if total <= 0.0:
            return world, 0
        index = bisect.bisect_right(self._cumulative, self.rng.random() * total)
        # The pool holds one entry per (world, model), world by world.
        index = min(index, len(self._cumulative) - 1)
        return self.worlds[index // len(self.models)], index % len(self.models)
