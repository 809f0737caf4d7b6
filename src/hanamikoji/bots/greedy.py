"""The greedy bot: one ply, judged by an estimate of how the round will end.

For every legal decision the bot estimates, geisha by geisha, the chance that her favor
marker ends the round on its side, on the opponent's side, or stays neutral; then it values
those chances by what they mean for the *match*: a geisha is worth what she adds to the
chance of reaching 11 charm or 4 geishas (markers carry over between rounds), not only
her charm.

The estimate of one geisha starts from the cards already committed to each side (the
bot's own Secret included), and treats every card not yet committed as going to the
bot's side, to the opponent's side or out of the round, with chances given by the action
markers still to be used: the bot's own hand follows the bot's remaining actions
(Secret keeps one card, Trade-off discards two, Gift keeps two of three, Competition two
of four), the unseen cards follow where they may be (the opponent's hand, their hidden
Secret and Trade-off, the deck, the removed card). A tie leaves the marker where it is,
so a tie counts for whoever holds her already.

Gift and Competition are judged by the opponent's best answer (the worst case for the
bot); as responder the bot takes the card or pair that leaves it best off. The known
tricks follow from this: a Gift of three identical cards guarantees a 2:1 split, two
identical pairs leave no choice, cards of a geisha already decided cost nothing to
discard or give away, and a single card that decides a close, valuable geisha is worth
keeping as the Secret.

>>> from hanamikoji import Game
>>> game = Game(seed=3)
>>> bot = GreedyBot(seed=1)
>>> bot.choose(game.view(0), game.legal_moves()) in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType

import numpy as np
import numpy.typing as npt

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.judgement import (
    ALL_ACTIONS,
    DESTINATIONS,
    ME,
    NOBODY,
    THEM,
    TIE_TOLERANCE,
    JudgedPosition,
)
from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.game import Game
from hanamikoji.core.moves import ACTIONS, Move, MoveKind, response_moves
from hanamikoji.core.outcome import WIN_CHARM, WIN_GEISHAS
from hanamikoji.core.variants import Tiebreak, Variant
from hanamikoji.core.view import View

__all__ = ["GreedyBot", "Tuning", "best_first", "judged_content"]


@dataclass(frozen=True, slots=True)
class Tuning:
    """The knobs of the estimate (defaults chosen by matches between settings)."""

    future_weight: float = 0.5
    """How much an unfinished match's standing counts, against a won (1) or lost (-1) match."""
    response_hope: float = 0.1
    """The share of the average answer in judging a Gift or Competition; the rest is the
    opponent's best answer. It separates offers whose worst case is the same."""
    giveaway: float = 0.85
    """A player chooses which held cards to offer: the chance that a held card of a geisha
    goes to the other side, as a share of the plain proportion of cards offered away."""
    discard: float = 0.75
    """Likewise for the chance that a held card is traded off."""
    unused: tuple[float, float, float, float] = (0.0, 0.0, -0.1, 0.0)
    """Worth of each action marker (Secret, Trade-off, Gift, Competition) still unused
    after a turn. Matches between settings favour giving a Gift early: a Gift's 2:1 split
    secures majorities the later actions can build on, and the estimate otherwise
    overrates a Gift held back."""


# -- one geisha ---------------------------------------------------------------------------


def _remaining(mask: int) -> list[MoveKind]:
    return [kind for kind in ACTIONS if mask >> kind & 1]


def _unseen_places(my_draws: int, theirs_left: int, their_hand: int) -> tuple[int, int, int]:
    """Where the cards the bot has not seen are: ``(bot's future draws, opponent's hand and
    future draws, opponent's Secret and Trade-off and the removed card)``."""
    used_by_them = ALL_ACTIONS & ~theirs_left
    hidden = 1 + (1 if used_by_them >> MoveKind.SECRET & 1 else 0)
    hidden += 2 if used_by_them >> MoveKind.TRADE_OFF & 1 else 0
    return my_draws, their_hand + len(_remaining(theirs_left)), hidden


@cache
def _card_fates(
    my_draws: int, mine_left: int, theirs_left: int, their_hand: int, tuning: Tuning
) -> tuple[float, float, float, float]:
    """Chances that one uncommitted card of a kind ends on the bot's side or the opponent's:
    ``(hand_to_me, hand_to_them, unseen_to_me, unseen_to_them)``.

    ``mine_left`` and ``theirs_left`` are bitmasks of the action markers still to use;
    each of the opponent's is also a card still to draw, and the bot has ``my_draws`` to come.
    """

    def fates(mask: int) -> tuple[float, float]:
        other = out = total = 0
        for kind in _remaining(mask):
            keep, give, discard = DESTINATIONS[kind]
            other += give
            out += discard
            total += keep + give + discard
        if not total:
            return 0.0, 0.0
        given = tuning.giveaway * other / total
        return 1.0 - given - tuning.discard * out / total, given

    my_own, my_other = fates(mine_left)
    their_own, their_other = fates(theirs_left)
    _, their_cards, hidden = _unseen_places(my_draws, theirs_left, their_hand)
    their_secret = 0 if theirs_left >> MoveKind.SECRET & 1 else 1
    unseen = my_draws + their_cards + hidden
    to_me = (my_draws * my_own + their_cards * their_other) / unseen
    to_them = (their_secret + their_cards * their_own + my_draws * my_other) / unseen
    return (my_own, my_other, to_me, to_them)


@cache
def _contest(
    lead: int,
    hand: int,
    unseen: int,
    my_draws: int,
    mine_left: int,
    theirs_left: int,
    their_hand: int,
    tuning: Tuning,
) -> tuple[float, float, float]:
    """Chances that the bot ends the round with more, as many, or fewer cards of a geisha
    than the opponent. ``lead`` is the committed difference (bot minus opponent), ``hand``
    the copies in the bot's hand, ``unseen`` the copies it has not seen."""
    hand_me, hand_them, unseen_me, unseen_them = _card_fates(
        my_draws, mine_left, theirs_left, their_hand, tuning
    )
    # Distribution of the final difference; it never exceeds the copies of one kind.
    offset = max(CHARMS)
    spread = [0.0] * (2 * offset + 1)
    spread[lead + offset] = 1.0
    for count, up, down in ((hand, hand_me, hand_them), (unseen, unseen_me, unseen_them)):
        stay = 1.0 - up - down
        for _ in range(count):
            nxt = [0.0] * len(spread)
            for i, p in enumerate(spread):
                if p:
                    nxt[i] += p * stay
                    if up:
                        nxt[i + 1] += p * up
                    if down:
                        nxt[i - 1] += p * down
            spread = nxt
    ahead = sum(spread[offset + 1 :])
    level = spread[offset]
    return ahead, level, max(0.0, 1.0 - ahead - level)


# -- the match ----------------------------------------------------------------------------

_CHARM_STATES = WIN_CHARM + 1
_COUNT_STATES = WIN_GEISHAS + 1
_STATES = (_CHARM_STATES * _COUNT_STATES) ** 2


def _state(my_charm: int, my_count: int, their_charm: int, their_count: int) -> int:
    # 11 charm wins whatever else happens (both sides cannot reach it): one state each.
    if my_charm >= WIN_CHARM:
        my_count, their_charm, their_count = 0, 0, 0
    elif their_charm >= WIN_CHARM:
        my_charm, my_count, their_count = 0, 0, 0
    mine = min(my_charm, WIN_CHARM) * _COUNT_STATES + min(my_count, WIN_GEISHAS)
    theirs = min(their_charm, WIN_CHARM) * _COUNT_STATES + min(their_count, WIN_GEISHAS)
    return mine * _CHARM_STATES * _COUNT_STATES + theirs


def _unstate(state: int) -> tuple[int, int, int, int]:
    mine, theirs = divmod(state, _CHARM_STATES * _COUNT_STATES)
    my_charm, my_count = divmod(mine, _COUNT_STATES)
    their_charm, their_count = divmod(theirs, _COUNT_STATES)
    return my_charm, my_count, their_charm, their_count


def _step_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``table[geisha][owner][state]``: the match state once ``owner`` holds ``geisha``."""
    table = []
    for geisha in range(ITEM_COUNT):
        charm = CHARMS[geisha]
        rows = []
        for owner in (ME, THEM, NOBODY):
            row = []
            for state in range(_STATES):
                mc, mn, tc, tn = _unstate(state)
                if owner == ME:
                    mc, mn = mc + charm, mn + 1
                elif owner == THEM:
                    tc, tn = tc + charm, tn + 1
                row.append(_state(mc, mn, tc, tn))
            rows.append(tuple(row))
        table.append(tuple(rows))
    return tuple(table)


_STEP = _step_table()


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@cache
def _final_values(last_round: bool, tiebreak: Tiebreak, future_weight: float) -> tuple[float, ...]:
    """The worth of each end-of-round state for the bot: 1 won, -1 lost, in between for a
    match that goes on (by the standing it leaves) or ends in a draw."""
    values = []
    for state in range(_STATES):
        mc, mn, tc, tn = _unstate(state)
        if mc >= WIN_CHARM:
            value = 1.0
        elif tc >= WIN_CHARM:
            value = -1.0
        elif mn >= WIN_GEISHAS:
            value = 1.0
        elif tn >= WIN_GEISHAS:
            value = -1.0
        elif not last_round:
            # Markers stay: every one held is a head start (and wins ties) next round.
            standing = (mc - tc) / WIN_CHARM + (mn - tn) / WIN_GEISHAS
            value = future_weight * standing / 2
        elif tiebreak == Tiebreak.GEISHAS_THEN_CHARM:
            value = float(_sign(mn - tn) or _sign(mc - tc))
        elif tiebreak == Tiebreak.CHARM:
            value = float(_sign(mc - tc))
        else:
            value = 0.0
        values.append(value)
    return tuple(values)


def _geisha_worths(
    chances: Sequence[tuple[float, float, float]], finals: Sequence[float]
) -> list[tuple[float, float, float]]:
    """For each geisha, the match's expected worth if she ends with the bot, with the
    opponent, or neutral, the others ending as ``chances`` say.

    Judging every decision by these (a first-order view of the match) keeps the match
    arithmetic out of the per-decision loop.
    """
    settled = 0
    open_geishas: list[int] = []
    for geisha, chance in enumerate(chances):
        owner = _certain_owner(chance)
        if owner is None:
            open_geishas.append(geisha)
        else:
            settled = _STEP[geisha][owner][settled]
    others = _without_each(open_geishas, chances, {settled: 1.0})
    # A geisha nothing can change keeps equal worths: they cancel out of every comparison.
    worths = [(0.0, 0.0, 0.0)] * ITEM_COUNT
    for geisha, spread in others.items():
        to_me, to_them, to_nobody = _STEP[geisha]
        mine = theirs = nobodys = 0.0
        for state, p in spread.items():
            mine += p * finals[to_me[state]]
            theirs += p * finals[to_them[state]]
            nobodys += p * finals[to_nobody[state]]
        worths[geisha] = (mine, theirs, nobodys)
    return worths


@lru_cache(maxsize=1 << 14)
def _cached_worths(
    chances: tuple[tuple[float, float, float], ...],
    last_round: bool,
    tiebreak: Tiebreak,
    future_weight: float,
) -> tuple[tuple[float, float, float], ...]:
    """:func:`_geisha_worths`, remembered: the same chances recur across the positions a
    search judges (about a third of its judgements)."""
    finals = _final_values(last_round, tiebreak, future_weight)
    return tuple(_geisha_worths(chances, finals))


def _fold(
    spread: dict[int, float], geishas: Sequence[int], chances: Sequence[tuple[float, ...]]
) -> dict[int, float]:
    """The match states once ``geishas`` end as ``chances`` say, from ``spread``."""
    for geisha in geishas:
        steps = _STEP[geisha]
        nxt: dict[int, float] = {}
        get = nxt.get
        for owner, p_owner in enumerate(chances[geisha]):
            if p_owner <= 0.0:
                continue
            step = steps[owner]
            for state, p in spread.items():
                target = step[state]
                nxt[target] = get(target, 0.0) + p * p_owner
        spread = nxt
    return spread


def _without_each(
    geishas: Sequence[int], chances: Sequence[tuple[float, ...]], spread: dict[int, float]
) -> dict[int, dict[int, float]]:
    """For each of ``geishas``, the match states once all the others have ended.

    Halving the group each time folds every geisha about log2(n) times instead of n - 1.
    """
    if len(geishas) <= 1:
        return {geisha: spread for geisha in geishas}
    half = len(geishas) // 2
    left, right = geishas[:half], geishas[half:]
    found = _without_each(left, chances, _fold(spread, right, chances))
    found.update(_without_each(right, chances, _fold(spread, left, chances)))
    return found


def _certain_owner(chance: tuple[float, float, float]) -> int | None:
    for owner, p in enumerate(chance):
        if p >= 1.0 - TIE_TOLERANCE:
            return owner
    return None


def _owners(contest: tuple[float, float, float], holder: int) -> tuple[float, float, float]:
    """Turn (ahead, level, behind) into (bot, opponent, nobody) with the marker rule:
    a tie leaves her marker with ``holder``."""
    ahead, level, behind = contest
    if holder == ME:
        return ahead + level, behind, 0.0
    if holder == THEM:
        return ahead, behind + level, 0.0
    return ahead, behind, level


# -- a decision ---------------------------------------------------------------------------


def judged_content(view: View) -> tuple[object, ...]:
    """Everything :class:`_Judge` reads of a view (the legal decisions follow from it):
    views with equal keys get equal scores, so callers may remember them by it."""
    return (
        view.variant,
        view.round,
        view.player,
        view.hand,
        view.secret,
        view.tradeoff,
        view.placed,
        view.used,
        view.pending,
        view.hand_sizes,
        view.favor,
    )


class _Judge:
    """The position of one decision, from the bot's side, and the worth of changes to it."""

    def __init__(self, view: View, tuning: Tuning) -> None:
        self.tuning = tuning
        position = JudgedPosition.of(view)
        self.lead = position.lead
        self.hand = position.hand
        self.unseen = position.unseen
        self.holder = position.holder
        self.mine_left = position.mine_left
        self.theirs_left = position.theirs_left
        self.their_hand = position.their_hand
        self.drawn_now = position.drawn_now
        chances = [
            self._owners(k, self.lead[k], self.hand[k], self.mine_left) for k in range(ITEM_COUNT)
        ]
        if view.pending is not None:
            # The cards on offer belong to nobody yet: the geishas they may swing stay open.
            chances = self._average_answer(view.pending, chances)
        last_round, tiebreak = _match_end(view.variant, view)
        self.worths = _cached_worths(tuple(chances), last_round, tiebreak, tuning.future_weight)
        self._totals: dict[int, float] = {}
        self._memo: dict[tuple[int, int, int, int], float] = {}
        self._gains: dict[tuple[int, int, int, int], float] = {}

    def _owners(
        self, geisha: int, lead: int, hand: int, mine_left: int
    ) -> tuple[float, float, float]:
        contest = _contest(
            lead,
            hand,
            self.unseen[geisha],
            self.draws(mine_left),
            mine_left,
            self.theirs_left,
            self.their_hand,
            self.tuning,
        )
        return _owners(contest, self.holder[geisha])

    def _average_answer(
        self, offer: Move, chances: list[tuple[float, float, float]]
    ) -> list[tuple[float, float, float]]:
        answers = [answer.cards for answer in response_moves(offer)]
        for geisha in set(offer.cards):
            total = [0.0, 0.0, 0.0]
            for taken in answers:
                kept = _minus(offer.cards, taken)
                lead = self.lead[geisha] + taken.count(geisha) - kept.count(geisha)
                for owner, p in enumerate(
                    self._owners(geisha, lead, self.hand[geisha], self.mine_left)
                ):
                    total[owner] += p / len(answers)
            chances[geisha] = (total[0], total[1], total[2])
        return chances

    def draws(self, mine_left: int) -> int:
        """Cards the bot will still draw when ``mine_left`` are its actions to come."""
        draws = len(_remaining(mine_left))
        return draws - self.drawn_now if mine_left == self.mine_left else draws

    def _worth(self, geisha: int, lead: int, hand: int, mine_left: int) -> float:
        key = (geisha, lead, hand, mine_left)
        worth = self._memo.get(key)
        if worth is None:
            chance = self._owners(geisha, lead, hand, mine_left)
            weights = self.worths[geisha]
            worth = chance[0] * weights[0] + chance[1] * weights[1] + chance[2] * weights[2]
            self._memo[key] = worth
        return worth

    def _total(self, mine_left: int) -> float:
        total = self._totals.get(mine_left)
        if total is None:
            total = sum(
                self._worth(k, self.lead[k], self.hand[k], mine_left) for k in range(ITEM_COUNT)
            )
            total += sum(self.tuning.unused[kind] for kind in _remaining(mine_left))
            self._totals[mine_left] = total
        return total

    def _gain(self, geisha: int, lead_change: int, hand_change: int, mine_left: int) -> float:
        """How much a change to one geisha's cards adds, the bot having ``mine_left`` to use."""
        key = (geisha, lead_change, hand_change, mine_left)
        gain = self._gains.get(key)
        if gain is None:
            lead, hand = self.lead[geisha], self.hand[geisha]
            gain = self._worth(geisha, lead + lead_change, hand + hand_change, mine_left)
            gain -= self._worth(geisha, lead, hand, mine_left)
            self._gains[key] = gain
        return gain

    def score(self, move: Move, pending: Move | None) -> float:
        """The worth of the position ``move`` leads to (after the opponent's best answer)."""
        kind = move.kind
        if kind == MoveKind.GIFT_RESPONSE or kind == MoveKind.COMPETITION_RESPONSE:
            assert pending is not None
            taken = move.cards
            total = self._total(self.mine_left)
            for geisha, offered in _tally(pending.cards):
                took = taken.count(geisha)
                total += self._gain(geisha, 2 * took - offered, 0, self.mine_left)
            return total
        left = self.mine_left & ~(1 << kind)
        spent = _tally(move.cards)
        if kind == MoveKind.SECRET:
            return self._total(left) + self._gain(move.cards[0], 1, -1, left)
        if kind == MoveKind.TRADE_OFF:
            return self._total(left) + sum(self._gain(k, 0, -n, left) for k, n in spent)
        if kind == MoveKind.GIFT:
            answers: list[tuple[int, ...]] = [(card,) for card in sorted(set(move.cards))]
        else:
            answers = sorted(set(move.pairs))
        base = self._total(left)
        outcomes = [
            base + sum(self._gain(k, n - 2 * taken.count(k), -n, left) for k, n in spent)
            for taken in answers
        ]
        worst = min(outcomes)
        return worst + self.tuning.response_hope * (sum(outcomes) / len(outcomes) - worst)


def best_first(legal: Sequence[Move], scores: Mapping[Move, float]) -> list[Move]:
    """``legal`` by decreasing score, the judge's or any other (ties in their given
    order)."""
    return sorted(legal, key=scores.__getitem__, reverse=True)


def _tally(cards: Sequence[int]) -> list[tuple[int, int]]:
    """Each kind among ``cards`` with its number of copies."""
    return [(kind, cards.count(kind)) for kind in sorted(set(cards))]


def _minus(cards: Sequence[int], taken: Sequence[int]) -> tuple[int, ...]:
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


def _match_end(variant: Variant, view: View) -> tuple[bool, Tiebreak]:
    last = variant.max_rounds is not None and view.round >= variant.max_rounds
    return last, variant.tiebreak


@cache
def _kernel() -> ModuleType | None:
    """The compiled judge, imported when first needed (numba takes a while to load), or
    ``None`` without numba."""
    try:
        from hanamikoji.bots import judge_kernel
    except ImportError:  # pragma: no cover - numba is installed with the project
        return None
    return judge_kernel if judge_kernel.AVAILABLE else None


@cache
def _kernel_tables(
    last_round: bool, tiebreak: Tiebreak, tuning: Tuning
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """The compiled judge's match values, match steps and tuning, as arrays."""
    finals = np.array(_final_values(last_round, tiebreak, tuning.future_weight))
    knobs = (tuning.future_weight, tuning.response_hope, tuning.giveaway, tuning.discard)
    return finals, _step_array(), np.array(knobs + tuning.unused, dtype=np.float64)


@cache
def _step_array() -> npt.NDArray[np.int32]:
    return np.array(_STEP, dtype=np.int32)


def compiled_scores(view: View, legal: Sequence[Move], tuning: Tuning) -> list[float] | None:
    """The judge's score of each of ``legal`` in their order, computed by the compiled
    judge (:mod:`hanamikoji.bots.judge_kernel`, the same numbers as :class:`_Judge`), or
    ``None`` if numba is not installed."""
    kernel = _kernel()
    if kernel is None:
        return None
    pending = view.pending
    answers = response_moves(pending) if pending is not None else ()
    finals, step, knobs = _kernel_tables(*_match_end(view.variant, view), tuning)
    scores: list[float] = kernel.kernel_scores(
        JudgedPosition.of(view), pending, answers, finals, step, knobs, legal
    ).tolist()
    return scores


@cache
def _warm_kernel() -> None:
    game = Game(seed=0)
    compiled_scores(game.view(0), game.legal_moves(), Tuning())


class GreedyBot(Bot):
    """One-ply heuristic player: the decision whose estimated round end is worth most for
    the match. Ties between equally good decisions are broken by the bot's seeded rng.

    Args:
        seed: breaks ties.
        budget: unused (the bot decides at once).
        tuning: the estimate's knobs.
        compiled: judge with the compiled kernel (:mod:`hanamikoji.bots.judge_kernel`:
            the same scores, several times faster, after compiling for tens of seconds
            the first time on a machine). Off by default: alone, greedy decides in about
            a millisecond either way; searches that judge thousands of positions per
            decision turn it on.
    """

    name = "greedy"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        tuning: Tuning | None = None,
        compiled: bool = False,
    ) -> None:
        super().__init__(seed, budget)
        self.tuning = tuning or Tuning()
        self.compiled = compiled
        if compiled:
            # Compiling (or loading the compiled code) takes seconds at first: not in the
            # time of a decision.
            _warm_kernel()

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        scores = self._score_list(view, legal)
        best = max(scores)
        choices = [m for m, s in zip(legal, scores, strict=True) if s >= best - TIE_TOLERANCE]
        return choices[self.rng.randrange(len(choices))] if len(choices) > 1 else choices[0]

    def scores(self, view: View, legal: Sequence[Move]) -> dict[Move, float]:
        """The worth the bot sees in each decision (for tests and analysis)."""
        return dict(zip(legal, self._score_list(view, legal), strict=True))

    def _score_list(self, view: View, legal: Sequence[Move]) -> list[float]:
        if self.compiled:
            scores = compiled_scores(view, legal, self.tuning)
            if scores is not None:
                return scores
        judge = _Judge(view, self.tuning)
        return [judge.score(move, view.pending) for move in legal]


register("greedy", GreedyBot)
