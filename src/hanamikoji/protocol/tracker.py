"""One seat's knowledge rebuilt from the protocol's events alone.

An engine is told only what its seat may know (``docs/protocol.md``). The
:class:`KnowledgeTracker` turns that stream of events back into the
:class:`~hanamikoji.core.view.View` our bots decide from, without ever holding a
hidden card: it is the engine side's whole model of the game. It checks every event
against what came before and raises :class:`ProtocolError` on one that does not fit.

>>> from hanamikoji.protocol.messages import parse_event
>>> tracker = KnowledgeTracker("classic", seat=1, first=0)
>>> for line in ("deal round 1 starter 1 hand AADEFG", "move 1 S"):
...     tracker.apply(parse_event(line))
>>> tracker.apply(parse_event("draw G"))
>>> view = tracker.view()
>>> view.hand, view.hand_sizes, view.deck_size, view.my_turn
((0, 0, 3, 4, 5, 6, 6), (6, 7), 6, True)
"""

from __future__ import annotations

from hanamikoji.core.cards import CHARMS, ITEM_COUNT, count_of, counts, from_counts, items, pack
from hanamikoji.core.moves import CARDS_PER_ACTION, Move, MoveKind, response_moves
from hanamikoji.core.outcome import Outcome, RoundSummary, Termination, favor_tally
from hanamikoji.core.rng import DECK_SIZE, HAND_SIZE
from hanamikoji.core.seats import seat_number
from hanamikoji.core.variants import Variant
from hanamikoji.core.view import LogEntry, Phase, View
from hanamikoji.protocol.messages import (
    DealEvent,
    DrawEvent,
    Event,
    GameOverEvent,
    MoveEvent,
    ProtocolError,
    ScoreEvent,
    format_favor,
)

__all__ = ["KnowledgeTracker"]

TURNS_PER_ROUND = DECK_SIZE
_EMPTY = (0,) * ITEM_COUNT


class KnowledgeTracker:
    """What seat ``seat`` knows of a game of ``variant`` that seat ``first`` starts,
    built from events only.

    Between a round's scoring and the next ``deal`` the view's phase is
    ``AWAITING_DEAL``; after ``gameover`` it is ``OVER`` (with ``outcome`` ``None`` if
    the GUI ended the game for a reason outside the rules, such as a forfeit).
    """

    def __init__(self, variant: Variant | str, seat: int, first: int) -> None:
        if seat not in (0, 1) or first not in (0, 1):
            raise ProtocolError("seats are 0 and 1")
        self.variant = Variant.by_name(variant) if isinstance(variant, str) else variant
        self.seat = seat
        self.first = first
        self._round = 0
        self._starter = first
        self._favor: tuple[int | None, ...] = (None,) * ITEM_COUNT
        self._summaries: tuple[RoundSummary, ...] = ()
        self._log: list[LogEntry] = []
        self._over = False
        self._outcome: Outcome | None = None
        self._in_round = False
        self._reset_round()

    def _reset_round(self) -> None:
        self._turn = 0
        self._to_move = self._starter
        self._hand = 0
        self._drawn: int | None = None
        self._awaiting_draw = False
        self._secret: int | None = None
        self._tradeoff: tuple[int, ...] = ()
        self._placed = [0, 0]
        self._used: list[frozenset[MoveKind]] = [frozenset(), frozenset()]
        self._opponent_hand = 0
        self._pending: Move | None = None

    # -- state --------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self._over:
            return Phase.OVER
        if not self._in_round:
            return Phase.AWAITING_DEAL
        if self._pending is None:
            return Phase.TURN
        if self._pending.kind == MoveKind.GIFT:
            return Phase.GIFT_RESPONSE
        return Phase.COMPETITION_RESPONSE

    @property
    def awaiting_draw(self) -> bool:
        """Whether the seat's turn has begun and its ``draw`` has not come yet."""
        return self._awaiting_draw

    def must_decide(self) -> bool:
        """Whether the next request can only be a ``go`` for this seat."""
        return self.phase not in (Phase.OVER, Phase.AWAITING_DEAL) and (
            self._to_move == self.seat and not self._awaiting_draw
        )

    def _hand_size(self, seat: int) -> int:
        if seat == self.seat:
            return len(items(self._hand))
        return self._opponent_hand

    def view(self) -> View:
        """The seat's :class:`View` now; the same as ``Game.view(seat)`` of the real game,
        except that once the game is over the log stays as this seat saw it and there is
        no reveal."""
        active = self._in_round and not self._over
        mine = active and self._to_move == self.seat and self._pending is None
        return View(
            player=self.seat,
            variant=self.variant,
            round=max(self._round, 1),
            round_starter=self._starter,
            to_move=self._to_move if active else None,
            phase=self.phase,
            favor=self._favor,
            hand=items(self._hand) if active else (),
            drawn=self._drawn if mine else None,
            secret=self._secret if active else None,
            tradeoff=self._tradeoff if active else (),
            placed=(counts(self._placed[0]), counts(self._placed[1])) if active else (_EMPTY,) * 2,
            used=(self._used[0], self._used[1]) if active else (frozenset(), frozenset()),
            hand_sizes=(self._hand_size(0), self._hand_size(1)) if active else (0, 0),
            deck_size=TURNS_PER_ROUND - self._turn - 1 if active else 0,
            pending=self._pending if active else None,
            log=tuple(self._log),
            rounds=self._summaries,
            outcome=self._outcome,
            reveal=None,
        )

    # -- events -------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Take one event into account. Raises :class:`ProtocolError` if it does not fit."""
        if self._over:
            raise ProtocolError("the game is over: only 'newgame' starts another")
        if isinstance(event, DealEvent):
            self._deal(event)
        elif isinstance(event, DrawEvent):
            self._draw(event.card)
        elif isinstance(event, MoveEvent):
            self._move(event.seat, event.move)
        elif isinstance(event, ScoreEvent):
            self._score(event)
        else:
            self._game_over(event)

    def _deal(self, event: DealEvent) -> None:
        if self._in_round:
            raise ProtocolError(f"round {self._round} is still being played")
        if len(self._summaries) != self._round:
            raise ProtocolError(f"round {self._round} has not been scored")
        if event.round != self._round + 1:
            raise ProtocolError(f"expected the deal of round {self._round + 1}, not {event.round}")
        expected = self.first if event.round == 1 else 1 - self._starter
        if event.starter != expected:
            raise ProtocolError(f"round {event.round} is started by seat {expected + 1}")
        if len(event.hand) != HAND_SIZE:
            raise ProtocolError(f"a hand is dealt {HAND_SIZE} cards, not {len(event.hand)}")
        hand = pack(event.hand)
        if any(n > charm for n, charm in zip(counts(hand), CHARMS, strict=True)):
            raise ProtocolError("the hand holds more copies of an item than exist")
        self._round = event.round
        self._starter = event.starter
        self._reset_round()
        self._in_round = True
        self._hand = hand
        self._opponent_hand = HAND_SIZE
        self._start_turn(self._starter)

    def _start_turn(self, seat: int) -> None:
        self._to_move = seat
        if seat == self.seat:
            self._awaiting_draw = True
        else:
            self._opponent_hand += 1

    def _draw(self, card: int) -> None:
        if not self._awaiting_draw:
            raise ProtocolError("a draw comes only at the start of this seat's turn")
        if counts(self._unseen())[card] == 0:
            raise ProtocolError("this card cannot still be in the deck")
        self._awaiting_draw = False
        self._hand += pack((card,))
        self._drawn = card

    def _unseen(self) -> int:
        seen = self._hand + self._placed[0] + self._placed[1] + pack(self._tradeoff)
        if self._secret is not None:
            seen += pack((self._secret,))
        if self._pending is not None:
            seen += self._pending.packed
        return from_counts(CHARMS) - seen

    def _move(self, seat: int, move: Move) -> None:
        if not self._in_round:
            raise ProtocolError("no round is being played")
        if seat != self._to_move:
            deciding, asked = seat_number(self._to_move), seat_number(seat)
            raise ProtocolError(f"seat {deciding} decides now, not seat {asked}")
        if self._awaiting_draw:
            raise ProtocolError("this seat's draw must come before its decision")
        turn = self._turn + 1
        if move.is_response:
            self._respond(seat, move)
        elif seat == self.seat:
            self._own_action(move)
        else:
            move = self._opponent_action(move)
        self._log.append(LogEntry(self._round, turn, seat, move))

    def _respond(self, seat: int, move: Move) -> None:
        pending = self._pending
        if pending is None or move not in response_moves(pending):
            offer = "nothing is on offer" if pending is None else f"the offer is {pending}"
            raise ProtocolError(f"{move} does not answer: {offer}")
        kept = pending.packed - move.packed
        self._placed[seat] += move.packed
        self._placed[1 - seat] += kept
        self._pending = None
        self._end_turn(1 - seat)

    def _own_action(self, move: Move) -> None:
        if move not in self.view().generate_legal_moves():
            raise ProtocolError(f"{move} is not a legal decision of this seat now")
        self._hand -= move.packed
        self._drawn = None
        self._mark_used(self.seat, move.kind)
        if move.kind == MoveKind.SECRET:
            self._secret = move.cards[0]
        elif move.kind == MoveKind.TRADE_OFF:
            self._tradeoff = move.cards
        else:
            self._pending = move
            self._to_move = 1 - self.seat
            return
        self._end_turn(self.seat)

    def _opponent_action(self, move: Move) -> Move:
        """Apply the opponent's action; returns it as this seat sees it."""
        if self._pending is not None:
            raise ProtocolError(f"the offer {self._pending} must be answered first")
        kind = move.kind
        seat = 1 - self.seat
        if kind in self._used[seat]:
            raise ProtocolError(f"seat {seat_number(seat)} has already used {kind.label}")
        size = CARDS_PER_ACTION[kind]
        if size > self._opponent_hand:
            raise ProtocolError(f"seat {seat_number(seat)} holds fewer than {size} cards")
        hidden = kind in (MoveKind.SECRET, MoveKind.TRADE_OFF)
        # Every check before any change: a refused event leaves the knowledge as it was.
        if not hidden and not _fits(move.packed, self._unseen()):
            raise ProtocolError(f"{move} offers cards this seat knows are elsewhere")
        self._opponent_hand -= size
        self._mark_used(seat, kind)
        if hidden:
            self._end_turn(seat)
            return move.public()
        self._pending = move
        self._to_move = self.seat
        return move

    def _mark_used(self, seat: int, kind: MoveKind) -> None:
        self._used[seat] = self._used[seat] | {kind}

    def _end_turn(self, actor: int) -> None:
        self._turn += 1
        if self._turn < TURNS_PER_ROUND:
            self._start_turn(1 - actor)
        else:
            self._to_move = actor
            self._in_round = False

    def _score(self, event: ScoreEvent) -> None:
        if self._in_round or self._round == 0 or len(self._summaries) == self._round:
            raise ProtocolError("a score comes once, after a round's eighth turn")
        if event.round != self._round:
            raise ProtocolError(f"round {self._round} was played, not round {event.round}")
        if self._secret is not None and event.secrets[self.seat] != self._secret:
            raise ProtocolError("the score shows another Secret than this seat's own")
        opponent_secret = pack((event.secrets[1 - self.seat],))
        if not _fits(opponent_secret, self._unseen()):
            raise ProtocolError("the opponent's Secret is a card this seat knows is elsewhere")
        sides = [self._placed[s] + pack((event.secrets[s],)) for s in (0, 1)]
        favor = list(self._favor)
        for kind in range(ITEM_COUNT):
            ours, theirs = count_of(sides[0], kind), count_of(sides[1], kind)
            if ours != theirs:
                favor[kind] = 0 if ours > theirs else 1
        if tuple(favor) != event.favor:
            raise ProtocolError(
                f"the favor after this round is {format_favor(tuple(favor))}, "
                f"not {format_favor(event.favor)}"
            )
        charm, geishas = favor_tally(tuple(favor))
        self._favor = event.favor
        self._summaries = (
            *self._summaries,
            RoundSummary(
                self._round,
                self._starter,
                event.secrets,
                (counts(sides[0]), counts(sides[1])),
                event.favor,
                charm,
                geishas,
            ),
        )

    def _game_over(self, event: GameOverEvent) -> None:
        self._over = True
        self._in_round = False
        try:
            termination = Termination(event.reason)
        except ValueError:
            return
        if self._summaries and len(self._summaries) == self._round:
            last = self._summaries[-1]
            self._outcome = Outcome(
                event.winner, termination, last.charm, last.geishas, self._round
            )


def _fits(part: int, whole: int) -> bool:
    return all(a <= b for a, b in zip(counts(part), counts(whole), strict=True))
