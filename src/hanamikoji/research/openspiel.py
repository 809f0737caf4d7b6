"""Hanamikoji as an OpenSpiel game, ``python_hanamikoji``, registered on import.

>>> import pyspiel
>>> game = pyspiel.load_game("python_hanamikoji", {"variant": "three-rounds"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 7)
>>> game.num_distinct_actions(), game.max_game_length()
(534, 36)

Parameters (``pyspiel.load_game("python_hanamikoji", {...})``):

``variant`` (default ``"classic"``)
    A variant name of :mod:`hanamikoji.core.variants` (``classic``, ``three-rounds``,
    ``french``).
``round_cap`` (default 10)
    OpenSpiel needs a bounded game. A variant without a round limit (``classic``) is
    played as ``classic/cap=N``: a game nobody has won after ``N`` rounds is a draw. A
    cap below a variant's own limit shortens it the same way (``three-rounds`` with
    ``round_cap=1`` is a one-round game decided by its tiebreak); a larger cap changes
    nothing. The effective variant is :attr:`HanamikojiGame.variant`.
``first_player`` (default 0)
    The seat that starts round 1 (the rules let the players choose).

Chance: each round begins with 21 chance nodes that deal the cards one at a time, as
item kinds (outcome ``k`` is a card of geisha ``k``, with probability proportional to
the copies not dealt yet): the removed card, seat 0's six cards, seat 1's six cards,
then the deck from the top. The deal is revealed to the players when it is complete.
Rewards come at the end: +1 for the winner, -1 for the loser, 0 each when nobody wins
(a shared win, no winner, or the round cap).

Information states and observations are those of :mod:`hanamikoji.research.observation`,
computed from the player's :class:`~hanamikoji.core.view.View` (``docs/research.md``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.determinize import sample_world
from hanamikoji.core.cards import FULL_SET, ITEM_COUNT, ITEM_LETTERS, counts, letters, pack
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.core.rng import DECK_SIZE, HAND_SIZE, Deal
from hanamikoji.core.variants import Variant
from hanamikoji.core.view import LogEntry, Phase, Reveal, View
from hanamikoji.notation.outcomes import describe_outcome
from hanamikoji.research.encoding import NUM_ACTIONS, decode, encode, legal_actions
from hanamikoji.research.observation import (
    HISTORY_TURN_LAYOUT,
    INFORMATION_STATE_LAYOUT,
    OBSERVATION_LAYOUT,
    information_state_string,
    information_state_tensor,
    observation_string,
    observation_tensor,
)
from hanamikoji.research.variant import DEFAULT_ROUND_CAP, research_variant

__all__ = [
    "DECISIONS_PER_ROUND",
    "DEFAULT_ROUND_CAP",
    "GAME_NAME",
    "HanamikojiGame",
    "HanamikojiObserver",
    "HanamikojiState",
    "OpenSpielBot",
    "first_player_of",
    "ismcts_bot",
    "research_variant",
    "state_from_view",
]

GAME_NAME = "python_hanamikoji"
CARDS_PER_DEAL = 1 + 2 * HAND_SIZE + DECK_SIZE
DECISIONS_PER_ROUND = DECK_SIZE + 4
"""8 turns, and an answer to each player's Gift and Competition."""

_PARAMETERS: dict[str, Any] = {
    "variant": "classic",
    "round_cap": DEFAULT_ROUND_CAP,
    "first_player": 0,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Hanamikoji (hanamikoji Python package)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class HanamikojiGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game. Load it with ``pyspiel.load_game(GAME_NAME, params)``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_PARAMETERS, **(params or {})}
        self.variant = research_variant(str(merged["variant"]), int(merged["round_cap"]))
        first_player = int(merged["first_player"])
        if first_player not in (0, 1):
            raise ValueError(f"first_player is seat 0 or 1, not {first_player}")
        self.first_player = first_player
        rounds = self.variant.max_rounds
        assert rounds is not None
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=ITEM_COUNT,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=DECISIONS_PER_ROUND * rounds,
        )
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> HanamikojiState:
        return HanamikojiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> HanamikojiObserver:
        return HanamikojiObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )

    def max_chance_nodes_in_history(self) -> int:
        rounds = self.variant.max_rounds
        assert rounds is not None
        return CARDS_PER_DEAL * rounds


class _Position:
    """The core game behind a state, with the cards of a deal in progress.

    OpenSpiel clones a Python state by deep-copying its attributes, and serializes it by
    pickling them; both go through here, so a clone is a cheap :meth:`Game.copy` and a
    pickle is the list of actions, replayed on load.
    """

    __slots__ = ("actions", "dealing", "game")

    def __init__(self, variant: Variant, first_player: int) -> None:
        self._start(variant, first_player)

    def _start(self, variant: Variant, first_player: int) -> None:
        self.game = Game(variant, first_player=first_player, external_deals=True)
        self.dealing: list[int] = []
        self.actions: list[int] = []

    def apply(self, action: int) -> None:
        if self.game.needs_deal:
            if not 0 <= action < ITEM_COUNT or self.remaining()[action] == 0:
                raise ValueError(f"{action} is not a card left to deal")
            self.dealing.append(action)
            if len(self.dealing) == CARDS_PER_DEAL:
                self.game.deal(Deal.from_order(self.dealing))
                self.dealing = []
        else:
            self.game.push(decode(action))
        self.actions.append(action)

    def remaining(self) -> tuple[int, ...]:
        return counts(FULL_SET - pack(self.dealing))

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        other = _Position.__new__(_Position)
        other.game = self.game.copy()
        other.dealing = list(self.dealing)
        other.actions = list(self.actions)
        return other

    def __getstate__(self) -> tuple[str, int, list[int]]:
        return (self.game.variant.name, self.game.first_player, self.actions)

    def __setstate__(self, state: tuple[str, int, list[int]]) -> None:
        variant, first_player, actions = state
        self._start(Variant.by_name(variant), first_player)
        for action in actions:
            self.apply(action)


class HanamikojiState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_hanamikoji``: a core :class:`Game` with external deals."""

    def __init__(self, game: HanamikojiGame) -> None:
        super().__init__(game)
        self.position = _Position(game.variant, game.first_player)

    @property
    def game(self) -> Game:
        """The core game (full information; players' knowledge is :meth:`view`)."""
        return self.position.game

    def view(self, player: int) -> View:
        return self.position.game.view(player)

    def current_player(self) -> int:
        game = self.position.game
        if game.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if game.needs_deal:
            return int(pyspiel.PlayerId.CHANCE)
        seat = game.to_move
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return legal_actions(self.position.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self.position.remaining()
        total = sum(left)
        return [(kind, n / total) for kind, n in enumerate(left) if n]

    def _apply_action(self, action: int) -> None:
        self.position.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {ITEM_LETTERS[action]}"
        return decode(action).text()

    def is_terminal(self) -> bool:
        return self.position.game.is_over()

    def returns(self) -> list[float]:
        outcome = self.position.game.outcome
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HanamikojiState:
        """A state the player cannot tell from this one, the hidden cards of this round
        drawn uniformly (and those of earlier rounds too: see :func:`state_from_view`)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return state_from_view(self.get_game(), self.view(player_id), rng)

    def __str__(self) -> str:
        game = self.position.game
        lines = [f"{game.variant.name} first P{game.first_player + 1}"]
        log = game.log()
        for number, deal in enumerate(game.deals(), start=1):
            hands = " ".join(letters(hand) for hand in deal.hands)
            moves = " ".join(str(e.move) for e in log if e.round == number)
            lines.append(
                f"round {number}: removed {ITEM_LETTERS[deal.removed]} hands {hands}"
                f" deck {letters(deal.deck)} | {moves}"
            )
        if self.position.dealing:
            lines.append(f"dealing {letters(tuple(self.position.dealing))}")
        if game.outcome is not None:
            lines.append(describe_outcome(game.outcome))
        return "\n".join(lines)


class HanamikojiObserver:
    """The observer of ``python_hanamikoji`` (OpenSpiel's Python observer interface).

    ``perfect_recall=True`` gives the information state (observation plus this round's
    turns, and the whole game in the string), ``False`` the observation. Only the
    player's own private information is supported, with the public information.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_hanamikoji observers take no parameters, not {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            raise ValueError(
                "python_hanamikoji observes one player's private information and the public"
                " information"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        layout = INFORMATION_STATE_LAYOUT if self.perfect_recall else OBSERVATION_LAYOUT
        self.tensor = np.zeros(layout.size, dtype=np.float32)
        self.dict: dict[str, Any] = {}
        for piece in OBSERVATION_LAYOUT.pieces:
            self.dict[piece.name] = self.tensor[piece.offset : piece.offset + piece.size]
        if self.perfect_recall:
            history = INFORMATION_STATE_LAYOUT["history"]
            self.dict["history"] = self.tensor[history.offset :].reshape(
                DECK_SIZE, HISTORY_TURN_LAYOUT.size
            )

    def set_from(self, state: HanamikojiState, player: int) -> None:
        view = state.view(player)
        if self.perfect_recall:
            information_state_tensor(view, self.tensor)
        else:
            observation_tensor(view, self.tensor)

    def string_from(self, state: HanamikojiState, player: int) -> str:
        view = state.view(player)
        if self.perfect_recall:
            return information_state_string(view)
        return observation_string(view)


# -- completing a view into a state ------------------------------------------------------


def _actor_sequence(actions: Sequence[tuple[int, ...]], hand: Sequence[int]) -> list[int]:
    """One player's cards of a round in an order that deals and draws them in time: the
    cards of each action in turn order, then those still in hand. The first six are the
    dealt hand, the rest the draws in order. Every action finds its cards in hand, since
    the first ``j`` actions (of distinct sizes from 1 to 4) use at most 4, 7, 9, 10 cards
    for ``j`` = 1..4, never more than the ``6 + j`` dealt and drawn by then."""
    sequence = [card for cards in actions for card in cards]
    sequence.extend(hand)
    return sequence


def _round_deal(
    starter: int,
    sequences: tuple[list[int], list[int]],
    future: Sequence[int],
    removed: int,
) -> list[int]:
    """The 21 chance outcomes of a round: removed card, seat 0's hand, seat 1's hand,
    deck (each turn's draw from its actor's sequence, then the cards not drawn yet)."""
    draws = (iter(sequences[0][HAND_SIZE:]), iter(sequences[1][HAND_SIZE:]))
    drawn = sum(len(s) - HAND_SIZE for s in sequences)
    deck = [next(draws[starter if t % 2 == 0 else 1 - starter]) for t in range(drawn)]
    deck.extend(future)
    return [
        removed,
        *sorted(sequences[0][:HAND_SIZE]),
        *sorted(sequences[1][:HAND_SIZE]),
        *deck,
    ]


def _fill_hidden(move: Move, secret: int | None, tradeoff: Sequence[int]) -> Move:
    if not move.hidden:
        return move
    if move.kind == MoveKind.SECRET:
        assert secret is not None
        return Move.secret(secret)
    return Move.trade_off(tradeoff[0], tradeoff[1])


def first_player_of(view: View) -> int:
    """The seat that started round 1 of the view's game."""
    return view.rounds[0].starter if view.rounds else view.round_starter


def state_from_view(game: HanamikojiGame, view: View, rng: random.Random) -> HanamikojiState:
    """A state of ``game`` in which ``view``'s player sees exactly ``view``.

    The hidden cards of the current round are drawn uniformly among those consistent with
    the view (:func:`hanamikoji.bots.determinize.sample_world`). Earlier rounds are
    completed too, since an OpenSpiel state is its history: their revealed Secrets and
    public cards are kept and the opponent's Trade-off and the removed card are drawn from
    the three cards left. Which of a player's cards were dealt and which drawn (which the
    view does not keep) is chosen so that every decision was legal when it was made.

    ``game`` must have the view's first player and a round limit no smaller than the
    view's round. Raises ``ValueError`` otherwise.
    """
    if first_player_of(view) != game.first_player:
        raise ValueError("the view's game has another first player")
    if view.variant.family != game.variant.family:
        raise ValueError(f"the view is of {view.variant.name}, not {game.variant.name}")
    limit = game.variant.max_rounds
    if limit is not None and view.round > limit:
        raise ValueError(f"the view is in round {view.round}, beyond {game.variant.name}")
    if view.reveal is not None:
        return _replay(game, view.reveal)
    me, them = view.player, view.opponent
    summaries = {summary.round: summary for summary in view.rounds}
    entries: dict[int, list[LogEntry]] = {}
    for entry in view.log:
        entries.setdefault(entry.round, []).append(entry)
    actions: list[int] = []
    active = view.phase in (Phase.TURN, Phase.GIFT_RESPONSE, Phase.COMPETITION_RESPONSE)
    for number in range(1, view.round + 1):
        played = entries.get(number, [])
        summary = summaries.get(number)
        turns = [e for e in played if not e.move.is_response]
        mine = [e.move.cards for e in turns if e.seat == me]
        if summary is not None:
            secret: int | None = summary.secrets[them]
            shown = [c for e in turns if e.seat == them and not e.move.hidden for c in e.move.cards]
            seen = FULL_SET - pack(c for cards in mine for c in cards)
            seen -= pack([*shown, summary.secrets[them]])
            left = [k for k, n in enumerate(counts(seen)) for _ in range(n)]
            rng.shuffle(left)
            tradeoff: Sequence[int] = sorted(left[:2])
            removed = left[2]
            future: Sequence[int] = ()
            my_hand: list[int] = []
            their_hand: Sequence[int] = ()
            starter = summary.starter
        elif number == view.round and active:
            their_hand, secret, tradeoff, removed, future = sample_world(view, rng)
            my_hand = list(view.hand)
            if view.drawn is not None:
                my_hand.remove(view.drawn)
                my_hand.append(view.drawn)
            starter = view.round_starter
        else:
            break
        theirs = [_fill_hidden(e.move, secret, tradeoff).cards for e in turns if e.seat == them]
        sequences = (_actor_sequence(mine, my_hand), _actor_sequence(theirs, their_hand))
        if me == 1:
            sequences = (sequences[1], sequences[0])
        actions.extend(_round_deal(starter, sequences, future, removed))
        actions.extend(
            encode(e.move if e.seat == me else _fill_hidden(e.move, secret, tradeoff))
            for e in played
        )
    return _state_of(game, actions)


def _state_of(game: HanamikojiGame, actions: Sequence[int]) -> HanamikojiState:
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def _replay(game: HanamikojiGame, reveal: Reveal) -> HanamikojiState:
    """The state of a finished game, whose views hide nothing."""
    actions: list[int] = []
    for revealed in reveal.rounds:
        deal = revealed.deal
        actions.extend((deal.removed, *deal.hands[0], *deal.hands[1], *deal.deck))
        actions.extend(encode(e.move) for e in reveal.moves if e.round == revealed.round)
    return _state_of(game, actions)


# -- OpenSpiel bots as hanamikoji bots ---------------------------------------------------

BotMaker = Callable[[HanamikojiGame, int, int], Any]
"""Builds an OpenSpiel bot (``pyspiel.Bot``) from a game, the player it plays and a seed."""


class OpenSpielBot(Bot):
    """An OpenSpiel bot playing as a :class:`~hanamikoji.bots.base.Bot`.

    Each decision, the view is completed into an OpenSpiel state (:func:`state_from_view`)
    and the OpenSpiel bot steps on it; a bot that searches (ISMCTS) then resamples the
    hidden cards itself through ``resample_from_infostate``. The OpenSpiel game has the
    view's variant, capped at ``round_cap`` rounds beyond the current one when the
    variant has no limit (the search sees a draw past that horizon).

    >>> from hanamikoji import Game
    >>> from open_spiel.python.bots.uniform_random import UniformRandomBot
    >>> def make(game, player, seed):
    ...     return UniformRandomBot(player, np.random.RandomState(seed))
    >>> bot = OpenSpielBot(make, seed=3)
    >>> game = Game("three-rounds", seed=1)
    >>> bot.choose(game.view(0), game.legal_moves) in game.legal_moves
    True
    """

    name = "openspiel"

    def __init__(
        self,
        make: BotMaker,
        seed: int | None = None,
        budget: float | None = None,
        round_cap: int = DEFAULT_ROUND_CAP,
    ) -> None:
        super().__init__(seed, budget)
        self.make = make
        self.round_cap = round_cap
        self._bots: dict[tuple[str, int, int, int], tuple[HanamikojiGame, Any]] = {}

    def _bot_for(self, view: View) -> tuple[HanamikojiGame, Any]:
        first = first_player_of(view)
        variant = view.variant
        cap = variant.max_rounds or view.round - 1 + self.round_cap
        key = (variant.family, cap, first, view.player)
        found = self._bots.get(key)
        if found is None:
            params = {"variant": variant.family, "round_cap": cap, "first_player": first}
            game = pyspiel.load_game(GAME_NAME, params)
            found = (game, self.make(game, view.player, self.rng.randrange(2**31)))
            self._bots[key] = found
        return found

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        game, bot = self._bot_for(view)
        state = state_from_view(game, view, self.rng)
        move = decode(int(bot.step(state)))
        if move not in legal:
            raise ValueError(f"the OpenSpiel bot chose {move}, not a legal decision")
        return move


def ismcts_bot(
    seed: int | None = None,
    budget: float | None = None,
    simulations: int = 100,
    uct_c: float = 2.0,
    rollouts: int = 1,
) -> OpenSpielBot:
    """OpenSpiel's information-set MCTS (its Python implementation, with random rollouts)
    as a hanamikoji bot, registered as ``openspiel-ismcts``.

    It searches ``simulations`` times per decision, each from a world resampled by
    :meth:`HanamikojiState.resample_from_infostate`; ``budget`` is not used. (OpenSpiel's
    C++ ``pyspiel.ISMCTSBot`` crashes on games written in Python, its own
    ``python_kuhn_poker`` included, so the Python one is used.)
    """

    def make(game: HanamikojiGame, player: int, bot_seed: int) -> Any:
        random_state = np.random.RandomState(bot_seed)
        evaluator = mcts.RandomRolloutEvaluator(rollouts, random_state)
        return ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, random_state=random_state)

    bot = OpenSpielBot(make, seed, budget)
    bot.name = "openspiel-ismcts"
    return bot


def _register() -> None:
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, HanamikojiGame)
    register("openspiel-ismcts", ismcts_bot)


_register()
