"""The game: a position, its legal decisions, and a move stack (push/pop).

>>> game = Game(seed=7)
>>> game.hand(0)
(0, 3, 4, 5, 5, 6, 6)
>>> len(game.legal_moves)
76
>>> game.push_text("S:G")
Move.from_text('S:G')
>>> game.view(1).log[0].move
Move.from_text('S')
>>> game.pop()
Move.from_text('S:G')
"""

from __future__ import annotations

import secrets as _secrets
from collections.abc import Iterable, Sequence
from typing import NamedTuple, NoReturn

from hanamikoji.core.cards import (
    CHARMS,
    GEISHAS,
    ITEM_COUNT,
    UNIT,
    Cards,
    count_of,
    counts,
    is_subset,
    items,
    pack,
    size,
)
from hanamikoji.core.errors import DealError, GameOverError, Illegality, IllegalMoveError
from hanamikoji.core.moves import (
    CARDS_PER_ACTION,
    LegalMoves,
    Move,
    MoveKind,
    require_move,
    response_moves,
    turn_moves,
)
from hanamikoji.core.outcome import (
    NEUTRAL,
    WIN_CHARM,
    WIN_GEISHAS,
    Outcome,
    RoundSummary,
    Termination,
)
from hanamikoji.core.rng import DECK_SIZE, MAX_SEED, Deal, deal_for_round
from hanamikoji.core.seats import seat_number
from hanamikoji.core.variants import CLASSIC, Tiebreak, Variant
from hanamikoji.core.view import LogEntry, Phase, Reveal, RoundReveal, View, draw_table

__all__ = ["Game", "GameState"]

TURNS_PER_ROUND = DECK_SIZE
_SECRET = MoveKind.SECRET
_TRADE_OFF = MoveKind.TRADE_OFF
_GIFT = MoveKind.GIFT
_COMPETITION = MoveKind.COMPETITION
_GIFT_RESPONSE = MoveKind.GIFT_RESPONSE
_COMPETITION_RESPONSE = MoveKind.COMPETITION_RESPONSE
_SIZES = (1, 2, 3, 4, 1, 2)


def _illegal(
    move: Move,
    reason: Illegality,
    why: str,
    *,
    action: int | None = None,
    count: int | None = None,
    cards: tuple[int, ...] = (),
) -> IllegalMoveError:
    return IllegalMoveError(
        f"illegal move {move}: {why}", reason, action=action, count=count, cards=cards
    )


def _card_name(card: int) -> str:
    geisha = GEISHAS[card]
    return f"{geisha.letter} ({geisha.name}'s {geisha.item})"


class _RoundPrivate:
    """The hidden side of one round, kept for the reveal at the end of the game."""

    __slots__ = ("deal", "secrets", "tradeoffs")

    def __init__(self, deal: Deal, secrets: tuple[int, int], tradeoffs: tuple[int, int]) -> None:
        self.deal = deal
        self.secrets = secrets
        self.tradeoffs = tradeoffs


class GameState(NamedTuple):
    """Everything a decision may change in a :class:`Game`: push keeps one per decision
    to undo it, and :mod:`hanamikoji.core.worlds` sets up positions with one.

    Fields are the game's attributes of the same names; cards are packed multisets
    (``core/cards.py``) and action markers bitmasks, one per seat.
    """

    round: int
    starter: int
    to_move: int
    turn: int
    hands: tuple[int, int]
    deck: tuple[int, ...]
    secret: tuple[int, int]
    tradeoff: tuple[int, int]
    placed: tuple[int, int]
    used: tuple[int, int]
    pending: Move | None
    favor: tuple[int, ...]
    outcome: Outcome | None
    needs_deal: bool
    summaries: tuple[RoundSummary, ...]
    private: tuple[_RoundPrivate, ...]

    def restore(self, game: Game) -> None:
        """Put ``game`` in this state (its move stack is left as it is)."""
        # self[:] is a plain tuple, which unpacks faster than a tuple subclass: pop runs
        # this millions of times in search.
        # GameState is Game's own snapshot, in this module: it writes the game's slots directly
        # (SLF001 below) because pop runs this in search's innermost loop.
        (
            game._round,  # noqa: SLF001
            game._starter,  # noqa: SLF001
            game._to_move,  # noqa: SLF001
            game._turn,  # noqa: SLF001
            game._hands,  # noqa: SLF001
            game._deck,  # noqa: SLF001
            game._secret,  # noqa: SLF001
            game._tradeoff,  # noqa: SLF001
            game._placed,  # noqa: SLF001
            game._used,  # noqa: SLF001
            game._pending,  # noqa: SLF001
            game._favor,  # noqa: SLF001
            game._outcome,  # noqa: SLF001
            game._needs_deal,  # noqa: SLF001
            game._summaries,  # noqa: SLF001
            game._private,  # noqa: SLF001
        ) = self[:]


_new_state = tuple.__new__
"""Builds a :class:`GameState` from a tuple of its fields in order, without the Python
call of its generated constructor: push makes one per decision."""


class Game:
    """A game of Hanamikoji from its first deal to its outcome.

    Args:
        variant: a :class:`Variant` or its name (``classic``, ``three-rounds``,
            ``french``, optionally with ``/cap=N``).
        seed: every round's deal derives from it; a random one if ``None`` and no
            ``deals`` are given.
        first_player: the seat (0 or 1) that starts round 1.
        deals: explicit deals for the first rounds (a real table, a puzzle, a test).
            After them the seed deals, or, with no seed, the game waits for
            :meth:`deal`.
        external_deals: no seed at all: every round not in ``deals`` waits for
            :meth:`deal` (chance nodes for research APIs, a game on a real table).

    Seats are 0 and 1, shown as Player 1 and Player 2 (:mod:`hanamikoji.core.seats`).
    Each turn's draw happens by itself: when a player must act, the top card is already
    in their hand.
    """

    __slots__ = (
        "_deck",
        "_explicit",
        "_favor",
        "_hands",
        "_moves",
        "_needs_deal",
        "_outcome",
        "_pending",
        "_placed",
        "_private",
        "_round",
        "_secret",
        "_starter",
        "_summaries",
        "_to_move",
        "_tradeoff",
        "_turn",
        "_undo",
        "_used",
        "first_player",
        "seed",
        "variant",
    )

    variant: Variant
    seed: int | None
    first_player: int

    def __init__(
        self,
        variant: Variant | str = CLASSIC,
        seed: int | None = None,
        first_player: int = 0,
        deals: Iterable[Deal] = (),
        *,
        external_deals: bool = False,
    ) -> None:
        self.variant = Variant.by_name(variant) if isinstance(variant, str) else variant
        explicit = tuple(deals)
        if external_deals and seed is not None:
            raise ValueError("a game with external deals has no seed")
        if seed is None and not explicit and not external_deals:
            seed = _secrets.randbits(64)
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise ValueError(f"a seed is an integer from 0 to {MAX_SEED}, not {seed}")
        if first_player not in (0, 1):
            raise ValueError(f"first_player is seat 0 or 1, not {first_player!r}")
        for deal in explicit:
            if not isinstance(deal, Deal):
                raise DealError(f"expected a Deal, got {type(deal).__name__}")
        self.seed = seed
        self.first_player = first_player
        self._explicit = explicit
        self._round = 1
        self._starter = first_player
        self._favor: tuple[int, ...] = (NEUTRAL,) * ITEM_COUNT
        self._outcome: Outcome | None = None
        self._summaries: tuple[RoundSummary, ...] = ()
        self._private: tuple[_RoundPrivate, ...] = ()
        self._moves: list[Move] = []
        self._undo: list[GameState] = []
        self._start_round()

    # -- rounds -------------------------------------------------------------------

    def _start_round(self) -> None:
        number = self._round
        if number <= len(self._explicit):
            deal = self._explicit[number - 1]
        elif self.seed is not None:
            deal = deal_for_round(self.seed, number)
        else:
            self._needs_deal = True
            self._to_move = self._starter
            self._turn = 0
            self._pending: Move | None = None
            self._hands = (0, 0)
            self._deck: tuple[int, ...] = ()
            self._secret = (0, 0)
            self._tradeoff = (0, 0)
            self._placed = (0, 0)
            self._used = (0, 0)
            return
        self._begin(deal)

    def _begin(self, deal: Deal) -> None:
        self._needs_deal = False
        self._private = (*self._private, _RoundPrivate(deal, (0, 0), (0, 0)))
        self._hands = (pack(deal.hands[0]), pack(deal.hands[1]))
        self._deck = deal.deck
        self._secret = (0, 0)
        self._tradeoff = (0, 0)
        self._placed = (0, 0)
        self._used = (0, 0)
        self._pending = None
        self._turn = 0
        self._to_move = self._starter
        self._draw()

    def deal(self, deal: Deal) -> None:
        """Supply the deal of a round the game is waiting for (no seed, explicit deals used up)."""
        if not self._needs_deal:
            raise DealError("the game is not waiting for a deal")
        self._begin(deal)

    def _draw(self) -> None:
        card = UNIT[self._deck[self._turn]]
        if self._to_move == 0:
            self._hands = (self._hands[0] + card, self._hands[1])
        else:
            self._hands = (self._hands[0], self._hands[1] + card)

    def _end_turn(self, actor: int) -> None:
        turn = self._turn + 1
        self._turn = turn
        if turn >= TURNS_PER_ROUND:
            self._score_round()
            return
        # The other player draws (_draw inlined: this runs on most decisions).
        card = UNIT[self._deck[turn]]
        hands = self._hands
        if actor:
            self._to_move = 0
            self._hands = (hands[0] + card, hands[1])
        else:
            self._to_move = 1
            self._hands = (hands[0], hands[1] + card)

    def _score_round(self) -> None:
        sides = (
            counts(self._placed[0] + self._secret[0]),
            counts(self._placed[1] + self._secret[1]),
        )
        favor = list(self._favor)
        for kind, (a, b) in enumerate(zip(*sides, strict=True)):
            if a > b:
                favor[kind] = 0
            elif b > a:
                favor[kind] = 1
        self._favor = tuple(favor)
        charm = [0, 0]
        geishas = [0, 0]
        for kind, seat in enumerate(favor):
            if seat != NEUTRAL:
                charm[seat] += CHARMS[kind]
                geishas[seat] += 1
        charm_t = (charm[0], charm[1])
        geishas_t = (geishas[0], geishas[1])
        secrets = tuple(items(s)[0] if s else -1 for s in self._secret)
        self._summaries = (
            *self._summaries,
            RoundSummary(
                self._round,
                self._starter,
                (secrets[0], secrets[1]),
                sides,
                tuple(None if f == NEUTRAL else f for f in favor),
                charm_t,
                geishas_t,
            ),
        )
        last = self._private[-1]
        self._private = (
            *self._private[:-1],
            _RoundPrivate(last.deal, self._secret, self._tradeoff),
        )
        self._to_move = -1
        outcome = self._decide(charm_t, geishas_t)
        if outcome is not None:
            self._outcome = outcome
            return
        self._round += 1
        self._starter = 1 - self._starter
        self._start_round()

    def _decide(self, charm: tuple[int, int], geishas: tuple[int, int]) -> Outcome | None:
        def end(winner: int | None, why: Termination) -> Outcome:
            return Outcome(winner, why, charm, geishas, self._round)

        # 11 charm beats 4 geishas in the same scoring; two players cannot both reach
        # 11 charm (21 in all) nor both hold 4 of the 7 geishas.
        for seat in (0, 1):
            if charm[seat] >= WIN_CHARM:
                return end(seat, Termination.CHARM)
        for seat in (0, 1):
            if geishas[seat] >= WIN_GEISHAS:
                return end(seat, Termination.GEISHAS)
        limit = self.variant.max_rounds
        if limit is None or self._round < limit:
            return None
        tiebreak = self.variant.tiebreak
        if tiebreak == Tiebreak.GEISHAS_THEN_CHARM:
            if geishas[0] != geishas[1]:
                return end(0 if geishas[0] > geishas[1] else 1, Termination.MOST_GEISHAS)
            if charm[0] != charm[1]:
                return end(0 if charm[0] > charm[1] else 1, Termination.MOST_CHARM)
            return end(None, Termination.SHARED_WIN)
        if tiebreak == Tiebreak.CHARM:
            if charm[0] != charm[1]:
                return end(0 if charm[0] > charm[1] else 1, Termination.MOST_CHARM)
            return end(None, Termination.NO_WINNER)
        return end(None, Termination.ROUND_CAP)

    # -- decisions ----------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """The distinct legal decisions of the player to move (empty once the game is
        over or while it waits for a deal), as a :class:`LegalMoves` collection:
        ``len(game.legal_moves)``, ``move in game.legal_moves``, iteration, indexing.
        Calling it, ``game.legal_moves()``, is deprecated."""
        return LegalMoves(self.generate_legal_moves())

    def generate_legal_moves(self) -> tuple[Move, ...]:
        """The distinct legal decisions of the player to move as a plain tuple (the
        generator's shared one): :attr:`legal_moves` without the collection, for loops
        that play millions of decisions."""
        pending = self._pending
        if pending is not None:
            return response_moves(pending)
        if self._outcome is not None or self._needs_deal:
            return ()
        p = self._to_move
        return turn_moves(self._hands[p], self._used[p])

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be pushed now. Raises ``TypeError`` if it is not a
        :class:`Move` (text is read by :meth:`Move.from_text`)."""
        return self._illegality(require_move(move, "Game.is_legal")) is None

    def _illegality(self, move: Move) -> IllegalMoveError | None:
        """Why ``move`` is illegal now (the error to raise), or ``None`` if it is legal."""
        if self._outcome is not None:
            return GameOverError(f"illegal move {move}: the game is over")
        if self._needs_deal:
            why = "the game is waiting for the next round's deal"
            return _illegal(move, Illegality.AWAITING_DEAL, why)
        p = self._to_move
        who = f"Player {seat_number(p)}"  # exception messages stay in English
        pending = self._pending
        kind = move.kind
        if pending is not None:
            return self._answer_illegality(move, pending, who)
        if move.is_response:
            why = "there is no Gift or Competition to answer: it is a turn"
            return _illegal(move, Illegality.NO_OFFER, why)
        action = kind.label
        size = CARDS_PER_ACTION[kind]
        if self._used[p] >> kind & 1:
            why = f"{who} has already used {action} this round"
            return _illegal(move, Illegality.ACTION_USED, why, action=kind)
        if move.hidden:
            why = f"{move} hides its cards: name them (for example {move}:{'A' * size})"
            return _illegal(move, Illegality.CARD_COUNT, why, action=kind, count=size)
        if len(move.cards) != size:
            why = f"{action} takes {size} card(s), not {len(move.cards)}"
            return _illegal(move, Illegality.CARD_COUNT, why, action=kind, count=size)
        hand = self._hands[p]
        if is_subset(move.packed, hand):
            return None
        missing = tuple(
            k
            for k in range(ITEM_COUNT)
            for _ in range(count_of(move.packed, k) - count_of(hand, k))
        )
        names = ", ".join(f"{missing.count(k)} x {_card_name(k)}" for k in sorted(set(missing)))
        return _illegal(
            move, Illegality.NOT_IN_HAND, f"not in {who}'s hand: {names}", cards=missing
        )

    @staticmethod
    def _answer_illegality(move: Move, pending: Move, who: str) -> IllegalMoveError | None:
        """Why ``move`` does not answer the offer ``pending``, or ``None`` if it does."""
        offer = pending.kind
        options = response_moves(pending)
        if move in options:
            return None
        listed = " or ".join(str(m) for m in options)
        name = "Gift" if offer == _GIFT else "Competition"
        if not move.is_response:
            why = f"{who} must first answer the {name} {pending} ({listed})"
            return _illegal(move, Illegality.ANSWER_FIRST, why, action=offer)
        wanted = _GIFT_RESPONSE if offer == _GIFT else _COMPETITION_RESPONSE
        if move.kind != wanted:
            why = f"the offer is a {name} {pending}: answer with {listed}"
        else:
            why = f"{move} takes cards the {name} {pending} does not offer ({listed})"
        return _illegal(move, Illegality.NOT_OFFERED, why, action=offer)

    def push(self, move: Move) -> None:
        """Play a decision of the player to move. Raises :class:`IllegalMoveError`
        (:class:`GameOverError` after the end) saying why, and changes nothing then;
        ``TypeError`` if ``move`` is not a :class:`Move` (text goes to :meth:`push_text`)."""
        p = self._to_move
        try:
            kind = move.kind
        except AttributeError:  # not a Move (the type is checked off the hot path)
            self._raise(move)
        pending = self._pending
        # The common legal cases are checked inline; anything else gets the full diagnosis.
        if pending is None:
            if (
                kind > _COMPETITION
                or self._outcome is not None
                or self._needs_deal
                or self._used[p] >> kind & 1
                or move.hidden
                or len(move.cards) != _SIZES[kind]
                or not is_subset(move.packed, self._hands[p])
            ):
                self._raise(move)
        elif move not in response_moves(pending):
            self._raise(move)
        self._undo.append(
            _new_state(
                GameState,
                (
                    self._round,
                    self._starter,
                    p,
                    self._turn,
                    self._hands,
                    self._deck,
                    self._secret,
                    self._tradeoff,
                    self._placed,
                    self._used,
                    pending,
                    self._favor,
                    self._outcome,
                    self._needs_deal,
                    self._summaries,
                    self._private,
                ),
            )
        )
        self._moves.append(move)
        if pending is not None:
            offerer = 1 - p
            taken = move.packed
            kept = pending.packed - taken
            if p == 0:
                self._placed = (self._placed[0] + taken, self._placed[1] + kept)
            else:
                self._placed = (self._placed[0] + kept, self._placed[1] + taken)
            self._pending = None
            self._end_turn(offerer)
            return
        packed = move.packed
        bit = 1 << kind
        if p == 0:
            self._hands = (self._hands[0] - packed, self._hands[1])
            self._used = (self._used[0] | bit, self._used[1])
        else:
            self._hands = (self._hands[0], self._hands[1] - packed)
            self._used = (self._used[0], self._used[1] | bit)
        if kind == _SECRET:
            self._secret = (packed, self._secret[1]) if p == 0 else (self._secret[0], packed)
            self._end_turn(p)
        elif kind == _TRADE_OFF:
            self._tradeoff = (packed, self._tradeoff[1]) if p == 0 else (self._tradeoff[0], packed)
            self._end_turn(p)
        else:
            self._pending = move
            self._to_move = 1 - p

    def _raise(self, move: Move) -> NoReturn:
        """Raise why ``move`` was refused by :meth:`push`."""
        require_move(move, "Game.push", reader="Game.push_text")
        error = self._illegality(move)
        if error is None:  # pragma: no cover - the fast check and the diagnosis disagree
            raise AssertionError(f"{move} was refused but looks legal")
        raise error

    def pop(self) -> Move:
        """Undo the last decision and return it. Raises ``IndexError`` if there is none."""
        try:
            move = self._moves.pop()
        except IndexError:
            raise IndexError("no decision to undo") from None
        self._undo.pop().restore(self)
        return move

    def parse_move(self, text: str) -> Move:
        """Parse ``text`` and check it is legal now. Raises :class:`InvalidMoveError` or
        :class:`IllegalMoveError`."""
        move = Move.from_text(text)
        error = self._illegality(move)
        if error is not None:
            raise error
        return move

    def push_text(self, text: str) -> Move:
        """Parse, check and push a decision; returns it."""
        move = self.parse_move(text)
        self.push(move)
        return move

    # -- position -----------------------------------------------------------------

    @property
    def move_stack(self) -> Sequence[Move]:
        """Every decision so far, in full (hidden cards included)."""
        return tuple(self._moves)

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` when the game is over or awaits a deal."""
        if self._outcome is not None or self._needs_deal:
            return None
        return self._to_move

    @property
    def round(self) -> int:
        return self._round

    @property
    def round_starter(self) -> int:
        return self._starter

    @property
    def turn(self) -> int:
        """Turns completed in this round (0-8)."""
        return self._turn

    @property
    def phase(self) -> Phase:
        if self._outcome is not None:
            return Phase.OVER
        if self._needs_deal:
            return Phase.AWAITING_DEAL
        if self._pending is None:
            return Phase.TURN
        if self._pending.kind == _GIFT:
            return Phase.GIFT_RESPONSE
        return Phase.COMPETITION_RESPONSE

    @property
    def pending(self) -> Move | None:
        """The Gift or Competition awaiting its response."""
        return self._pending

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def needs_deal(self) -> bool:
        return self._needs_deal

    def favor(self) -> tuple[int | None, ...]:
        """Each geisha's marker: a seat, or ``None`` while neutral."""
        return tuple(None if f == NEUTRAL else f for f in self._favor)

    def hand(self, seat: int) -> tuple[int, ...]:
        """A seat's hand as sorted item indices (full information: not for players)."""
        return items(self._hands[seat])

    def position_key(self) -> tuple[object, ...]:
        """A hashable key of everything that decides the rest of this round (full
        information: hands, deck, Secrets, Trade-offs, placed cards, used actions, the
        pending offer, who moves), for transposition tables in search."""
        return (
            self._round,
            self._turn,
            self._to_move,
            self._hands,
            self._secret,
            self._placed,
            self._used,
            self._pending,
            self._deck[self._turn + 1 :] if not self._needs_deal else (),
            self._favor,
            self._outcome,
        )

    def information_key(self, seat: int) -> tuple[object, ...]:
        """A hashable key of what ``seat`` knows of the game now: positions with equal
        keys show ``seat`` the same view, apart from the log and which card was drawn
        last. Search uses it to cache work done on one player's information set across
        sampled hidden worlds."""
        active = not self._needs_deal and self._outcome is None
        other = self._hands[1 - seat] if active else 0
        return (
            seat,
            self._round,
            self._turn,
            self._to_move,
            self._hands[seat],
            self._secret[seat],
            self._tradeoff[seat],
            self._placed,
            self._used,
            self._pending,
            size(other),
            self._favor,
            self._outcome,
        )

    def scoring_sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per seat, per item: the cards that will score at the end of this round so far,
        face-up cards and Secret (full information: not for players)."""
        return (
            counts(self._placed[0] + self._secret[0]),
            counts(self._placed[1] + self._secret[1]),
        )

    def deck(self) -> tuple[int, ...]:
        """The cards still to be drawn this round, top first (full information)."""
        return self._deck[self._turn + 1 :] if not self._needs_deal else ()

    def removed(self) -> int | None:
        """This round's removed card (full information)."""
        return self._private[-1].deal.removed if self._private and not self._needs_deal else None

    def summaries(self) -> tuple[RoundSummary, ...]:
        return self._summaries

    def state(self) -> GameState:
        """The position as one record (full information: not for players), which
        :meth:`GameState.restore` puts back."""
        return GameState(
            self._round,
            self._starter,
            self._to_move,
            self._turn,
            self._hands,
            self._deck,
            self._secret,
            self._tradeoff,
            self._placed,
            self._used,
            self._pending,
            self._favor,
            self._outcome,
            self._needs_deal,
            self._summaries,
            self._private,
        )

    def copy(self) -> Game:
        """An independent copy, move stack included."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        # Game's own slots on another Game (SLF001 flags any receiver but self).
        other._moves = list(self._moves)  # noqa: SLF001
        other._undo = list(self._undo)  # noqa: SLF001
        return other

    def __repr__(self) -> str:
        seed = "" if self.seed is None else f" seed={self.seed}"
        outcome = self._outcome
        if outcome is not None:
            where = f"over after round {outcome.rounds} ({outcome.result()})"
        elif self._needs_deal:
            where = f"round {self._round}, awaiting a deal"
        else:
            where = f"round {self._round}, seat {self._to_move} to move"
        moves = len(self._moves)
        return f"<Game {self.variant.name}{seed} {where}, {moves} move{'s' * (moves != 1)}>"

    def __str__(self) -> str:
        """The public table, what both players see (:func:`~hanamikoji.core.view.draw_table`):
        no hand, Secret or Trade-off; :meth:`full_board` draws those too."""
        return draw_table(self.view(self._to_move if self._to_move in (0, 1) else 0))

    def full_board(self) -> str:
        """The table with everything hidden (full information: not for players): the
        public table, both hands, Secrets and Trade-offs, the deck top first and the
        removed card.

        >>> for line in Game(seed=7).full_board().splitlines()[-3:]:
        ...     print(line)
        Player 1 (seat 0) holds: hand ADEFFGG, drew G
        Player 2 (seat 1) holds: hand BCDFFG
        deck, top first: CGEGABE; removed: D
        """
        views = (self.view(0), self.view(1))
        lines = [draw_table(views[self._to_move if self._to_move in (0, 1) else 0], views)]
        removed = self.removed()
        if removed is not None:
            lines.append(
                f"deck, top first: {Cards(self.deck()) or '-'}; removed: {Cards((removed,))}"
            )
        return "\n".join(lines)

    # -- knowledge ----------------------------------------------------------------

    def log(self, player: int | None = None) -> tuple[LogEntry, ...]:
        """Every decision with its round, turn and seat, as ``player`` saw it (the
        opponent's Secret and Trade-off cards hidden); in full when ``player`` is ``None``."""
        entries = []
        for move, before in zip(self._moves, self._undo, strict=True):
            seat = before.to_move
            shown = move if player is None or seat == player else move.public()
            entries.append(LogEntry(before.round, before.turn + 1, seat, shown))
        return tuple(entries)

    def view(self, player: int) -> View:
        """Exactly what ``player`` may know now. Once the game is over it carries the
        full :class:`Reveal`."""
        if player not in (0, 1):
            raise ValueError(f"player is seat 0 or 1, not {player!r}")
        active = not self._needs_deal and self._outcome is None
        mine = active and self._to_move == player and self._pending is None
        drawn = self._deck[self._turn] if mine else None
        secret = self._secret[player]
        sizes = (len(items(self._hands[0])), len(items(self._hands[1]))) if active else (0, 0)
        over = self._outcome is not None
        return View(
            player=player,
            variant=self.variant,
            round=self._round,
            round_starter=self._starter,
            to_move=self.to_move,
            phase=self.phase,
            favor=self.favor(),
            hand=items(self._hands[player]) if active else (),
            drawn=drawn,
            secret=items(secret)[0] if secret and active else None,
            tradeoff=items(self._tradeoff[player]) if active else (),
            placed=(counts(self._placed[0]), counts(self._placed[1]))
            if active
            else ((0,) * ITEM_COUNT, (0,) * ITEM_COUNT),
            used=(_kinds(self._used[0]), _kinds(self._used[1]))
            if active
            else (frozenset(), frozenset()),
            hand_sizes=sizes,
            deck_size=(TURNS_PER_ROUND - self._turn - 1) if active else 0,
            pending=self._pending,
            log=self.log(None if over else player),
            rounds=self._summaries,
            outcome=self._outcome,
            reveal=self.reveal() if over else None,
        )

    def reveal(self) -> Reveal:
        """Everything hidden, round by round. Raises ``ValueError`` before the game is over:
        call it on a finished game (replays, analysis)."""
        if self._outcome is None:
            raise ValueError("the reveal is only available once the game is over")
        return self._full_reveal()

    def _full_reveal(self) -> Reveal:
        rounds = tuple(
            RoundReveal(
                number,
                private.deal,
                (_single(private.secrets[0]), _single(private.secrets[1])),
                (items(private.tradeoffs[0]), items(private.tradeoffs[1])),
            )
            for number, private in enumerate(self._private, start=1)
        )
        return Reveal(rounds, self.log())

    def deals(self) -> tuple[Deal, ...]:
        """Every round's deal so far (full information: records, replays)."""
        return tuple(private.deal for private in self._private)


def _single(packed: int) -> int | None:
    cards = items(packed)
    return cards[0] if cards else None


def _kinds(mask: int) -> frozenset[MoveKind]:
    return frozenset(kind for kind in MoveKind if mask >> kind & 1)
