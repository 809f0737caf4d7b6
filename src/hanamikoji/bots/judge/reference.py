"""The judge in Python: the readable reference, an estimate of how the round will end.

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

The compiled judge (:mod:`hanamikoji.bots.judge.kernel`) gives the same scores, bit for
bit; ``tests/test_judge_kernel.py`` holds the two together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from hanamikoji.bots.judge.match import cached_worths, match_end
from hanamikoji.bots.judge.position import (
    ALL_ACTIONS,
    DESTINATIONS,
    ME,
    THEM,
    JudgedPosition,
)
from hanamikoji.core.cards import CHARMS, ITEM_COUNT
from hanamikoji.core.moves import ACTIONS, Move, MoveKind, response_moves
from hanamikoji.core.view import View

__all__ = ["ReferenceJudge", "Tuning", "best_first", "judged_content", "unseen_places"]


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


def unseen_places(my_draws: int, theirs_left: int, their_hand: int) -> tuple[int, int, int]:
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
    _, their_cards, hidden = unseen_places(my_draws, theirs_left, their_hand)
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
    """Everything :class:`ReferenceJudge` reads of a view (the legal decisions follow from it):
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


class ReferenceJudge:
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
        last_round, tiebreak = match_end(view.variant, view)
        self.worths = cached_worths(tuple(chances), last_round, tiebreak, tuning.future_weight)
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
