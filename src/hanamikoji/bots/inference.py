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

__all__ = ["DecisionModel", "WorldSampler", "replay_round", "replayed_world", "world_likelihood"]

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
    game = Game.before_round(view)
    game.deal(Deal(removed, (dealt[0], dealt[1]), tuple(deck)))
    return game, moves


def replayed_world(view: View, world: World, rng: random.Random) -> Game:
    """``view``'s position completed with ``world``, reached by replaying the round
    (:func:`replay_round`): unlike :meth:`Game.from_view`, its views carry the round's
    log, which a bot that infers from it needs."""
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
    them = view.opponent
    if not any(entry.seat == them for entry in _round_entries(view)):
        return 1.0
    game, moves = replay_round(view, world, rng)
    likelihood = 1.0
    for move in moves:
        if game.to_move == them:
            legal = game.legal_moves()
            if len(legal) > 1:
                if remembered is None:
                    chances = model(game.view(them), legal)
                else:
                    key = game.information_key(them)
                    known = remembered.get(key)
                    if known is None:
                        known = remembered[key] = model(game.view(them), legal)
                    chances = known
                likelihood *= chances[move]
        game.push(move)
    return likelihood


class WorldSampler:
    """Sampling importance resampling of hidden worlds behind one view: every
    :meth:`draw` adds one uniformly sampled world, weighed by :func:`world_likelihood`,
    to a growing pool and returns a world drawn from the pool in proportion to weight.
    With ``remember``, the model's answers are remembered across the worlds (see
    :func:`world_likelihood`)."""

    def __init__(
        self, view: View, rng: random.Random, model: DecisionModel, remember: bool = False
    ) -> None:
        self.view = view
        self.rng = rng
        self.model = model
        self.worlds: list[World] = []
        self._cumulative: list[float] = []
        # See world_likelihood: only for a model that reads neither log nor last draw.
        self._remembered: dict[tuple[object, ...], Mapping[Move, float]] | None = (
            {} if remember else None
        )

    def draw(self) -> World:
        world = sample_world(self.view, self.rng)
        weight = world_likelihood(self.view, world, self.rng, self.model, self._remembered)
        total = (self._cumulative[-1] if self._cumulative else 0.0) + weight
        self.worlds.append(world)
        self._cumulative.append(total)
        if total <= 0.0:
            return world
        return self.worlds[bisect.bisect_right(self._cumulative, self.rng.random() * total)]
