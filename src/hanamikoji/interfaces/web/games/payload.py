"""What leaves the server about a game: built from one seat's :class:`View` only.

:func:`seat_state` is the one function that turns a game into a message for a player;
the WebSocket, the HTTP state route and the tests all go through it. It reads nothing
but the seat's view and the game's public settings, so it cannot show a card the view
hides. The full record (:func:`replay_frames`) exists only once the game is over.

>>> from hanamikoji.core import Game
>>> game = Game(seed=7)
>>> state = seat_state(game.view(1), PublicGame("g1", ("human", "bot"), (None, 2), 0))
>>> state.hand, state.to_move, state.deck
((1, 2, 3, 5, 5, 6), 0, 7)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, MoveKind, response_moves
from hanamikoji.core.outcome import Outcome, RoundSummary
from hanamikoji.core.view import LogEntry, Phase, View
from hanamikoji.core.view import Reveal as CoreReveal
from hanamikoji.interfaces.messages import outcome_key
from hanamikoji.interfaces.web.wire.outgoing import (
    ClockState,
    GameOutcome,
    LogLine,
    MoveInfo,
    MoveKindName,
    PendingOffer,
    ReplayFrame,
    Reveal,
    RevealedRound,
    ScoredRound,
    SeatPlayer,
    SeatState,
    SpectatorState,
    TableState,
)

__all__ = [
    "KIND_NAMES",
    "PublicGame",
    "move_json",
    "outcome_json",
    "public_view",
    "replay_frames",
    "seat_state",
    "spectator_state",
]

KIND_NAMES: dict[MoveKind, MoveKindName] = {
    MoveKind.SECRET: "secret",
    MoveKind.TRADE_OFF: "trade-off",
    MoveKind.GIFT: "gift",
    MoveKind.COMPETITION: "competition",
    MoveKind.GIFT_RESPONSE: "gift-response",
    MoveKind.COMPETITION_RESPONSE: "competition-response",
}


@dataclass(frozen=True, slots=True)
class PublicGame:
    """What anyone at the table knows about the game besides the cards.

    ``players`` is ``"human"`` or ``"bot"`` per seat, ``levels`` the bot's level;
    ``connected`` which seats have a page open; ``rematch`` the next game's id.
    """

    id: str
    players: tuple[str, str]
    levels: tuple[int | None, int | None]
    ply: int
    connected: tuple[bool, bool] = (False, False)
    rematch: str | None = None
    clock: ClockState | None = None
    """A timed game's clocks at the moment the state is made."""
    ended: tuple[str, str] | None = None
    """How a clock ended the game: (``time`` or ``aborted``, the result)."""
    rated: bool = False
    """Whether the game is rated (``ratings/``): the page then offers no hints."""
    people: tuple[SeatPlayer, SeatPlayer] | None = None
    """Who sits at each seat (``people.py``); ``None``: a bot is a bot of its level, a
    person is nobody named."""

    def seat_players(self) -> tuple[SeatPlayer, SeatPlayer]:
        if self.people is not None:
            return self.people
        named = [
            SeatPlayer(kind="bot", level=level) if kind == "bot" else SeatPlayer(kind="anonymous")
            for kind, level in zip(self.players, self.levels, strict=True)
        ]
        return (named[0], named[1])


@functools.cache
def move_json(move: Move) -> MoveInfo:
    """A decision with its cards (none for a hidden Secret or Trade-off). Moves are
    interned values and the message is immutable: each distinct one is made once."""
    return MoveInfo(
        text=move.text(),
        kind=KIND_NAMES[move.kind],
        cards=move.cards,
        pairs=move.pairs,
        hidden=move.hidden,
    )


def _entry_json(entry: LogEntry) -> LogLine:
    move = move_json(entry.move)
    return LogLine(
        round=entry.round,
        turn=entry.turn,
        seat=entry.seat,
        text=move.text,
        kind=move.kind,
        cards=move.cards,
        pairs=move.pairs,
        hidden=move.hidden,
    )


def _summary_json(summary: RoundSummary) -> ScoredRound:
    return ScoredRound(
        round=summary.round,
        starter=summary.starter,
        secrets=summary.secrets,
        sides=summary.sides,
        favor=summary.favor,
        charm=summary.charm,
        geishas=summary.geishas,
    )


def outcome_json(outcome: Outcome) -> GameOutcome:
    """The outcome for the page; ``reason`` is the key of the sentence that says who
    won and why (:func:`~hanamikoji.interfaces.messages.outcome_key`, as the terminal
    says it)."""
    return GameOutcome(
        winner=outcome.winner,
        termination=outcome.termination.value,
        reason=outcome_key(outcome),
        charm=outcome.charm,
        geishas=outcome.geishas,
        rounds=outcome.rounds,
        result=outcome.result(),
    )


def _reveal_json(reveal: CoreReveal) -> Reveal:
    return Reveal(
        rounds=tuple(
            RevealedRound(
                round=rnd.round,
                removed=rnd.deal.removed,
                hands=rnd.deal.hands,
                deck=rnd.deal.deck,
                secrets=rnd.secrets,
                tradeoffs=rnd.tradeoffs,
            )
            for rnd in reveal.rounds
        )
    )


def _pending_json(pending: Move | None, offerer: int | None) -> PendingOffer | None:
    if pending is None:
        return None
    move = move_json(pending)
    return PendingOffer(
        text=move.text,
        kind=move.kind,
        cards=move.cards,
        pairs=move.pairs,
        hidden=move.hidden,
        by=offerer,
        options=tuple(move_json(option) for option in response_moves(pending)),
    )


def seat_state(view: View, public: PublicGame) -> SeatState:
    """Everything the page of ``view.player`` shows.

    Cards are item indices 0..6 (Ayane .. Ruri); ``placed`` and ``unseen`` are counts per
    geisha. ``unseen`` is the remaining-card tracker: cards this seat has not seen this
    round (opponent's hand, Secret and Trade-off, the removed card, the deck).
    """
    return _table(
        SeatState,
        view,
        public,
        seat=view.player,
        hand=view.hand,
        drawn=view.drawn,
        secret=view.secret,
        tradeoff=view.tradeoff,
    )


_State = TypeVar("_State", bound=TableState)


def _table(kind: type[_State], view: View, public: PublicGame, **own: Any) -> _State:
    """A state of ``kind``: the table, and the seat's ``own`` cards (none for a
    spectator, whose state has no place for them)."""
    over = view.phase == Phase.OVER
    offerer = None if view.to_move is None else 1 - view.to_move
    return kind(
        game=public.id,
        ply=public.ply,
        players=public.players,
        levels=public.levels,
        people=public.seat_players(),
        connected=public.connected,
        rematch=public.rematch,
        variant=view.variant.name,
        max_rounds=view.variant.max_rounds,
        round=view.round,
        round_starter=view.round_starter,
        to_move=view.to_move,
        phase=view.phase.value,
        favor=view.favor,
        charm=(view.charm(0), view.charm(1)),
        geishas=(view.geishas(0), view.geishas(1)),
        placed=view.placed,
        used=(_used(view, 0), _used(view, 1)),
        hand_sizes=view.hand_sizes,
        deck=view.deck_size,
        pending=_pending_json(view.pending, offerer),
        unseen=() if over else view.unseen(),
        log=tuple(_entry_json(entry) for entry in view.log),
        rounds=tuple(_summary_json(summary) for summary in view.rounds),
        outcome=_outcome_or_ended(view, public.ended),
        reveal=None if view.reveal is None else _reveal_json(view.reveal),
        clock=public.clock,
        rated=public.rated,
        **own,
    )


def _outcome_or_ended(view: View, ended: tuple[str, str] | None) -> GameOutcome | None:
    """The outcome under the rules or, for a game a clock ended, one in the same shape:
    ``termination`` ``time`` (``winner`` the other seat) or ``aborted`` (no winner),
    ``reason`` that termination's sentence; the scores are those when it ended, and no
    hidden card is shown."""
    if view.outcome is not None:
        return outcome_json(view.outcome)
    if ended is None:
        return None
    termination, result = ended
    return GameOutcome(
        winner={"1-0": 0, "0-1": 1}.get(result),
        termination=termination,
        reason=f"outcome_{termination}",
        charm=(view.charm(0), view.charm(1)),
        geishas=(view.geishas(0), view.geishas(1)),
        rounds=view.round,
        result=result,
    )


def public_view(view: View) -> View:
    """What anyone watching may know: ``view`` (either seat's) without the seat's own
    cards (hand, drawn card, Secret, Trade-off) and with both seats' Secret and Trade-off
    hidden in the log. The markers, the cards on the sides, the used actions, the counts
    of the hands and the deck and the pending offer's face-up cards stay. Once the game
    is over nothing is hidden any more and ``view`` is returned as it is (the end reveal
    the seats get)."""
    if view.phase == Phase.OVER:
        return view
    return replace(
        view,
        hand=(),
        drawn=None,
        secret=None,
        tradeoff=(),
        log=tuple(replace(entry, move=entry.move.public()) for entry in view.log),
        reveal=None,
    )


def spectator_state(view: View, public: PublicGame) -> SpectatorState:
    """The state a spectator's page gets: the table of :func:`public_view`, with no seat
    and none of a seat's own cards (once the game is over the hands are empty anyway).
    ``unseen`` is then every card not yet shown to anyone."""
    return _table(SpectatorState, public_view(view), public)


def _used(view: View, seat: int) -> tuple[MoveKindName, ...]:
    return tuple(sorted(KIND_NAMES[k] for k in view.used[seat]))


def replay_frames(
    game: Game, decisions: Sequence[str], *, ended_early: bool = False
) -> list[ReplayFrame]:
    """Every position of a finished game with all cards shown, from the first deal to the
    end: the replay of the record, removed cards included.

    ``game`` is a fresh game with the finished game's settings; ``decisions`` its record.
    Raises ``ValueError`` if the decisions do not finish the game (the replay is not for
    games in progress) unless ``ended_early`` (a clock ended it).
    """
    frames = [_frame(game, None, None, None)]
    for text in decisions:
        seat = game.to_move
        scored_before = len(game.summaries())
        move = game.push_text(text)
        summaries = game.summaries()
        scored = summaries[-1] if len(summaries) > scored_before else None
        frames.append(_frame(game, move, seat, scored))
    if not game.is_over() and not ended_early:
        raise ValueError("the replay exists only for a finished game")
    return frames


def _frame(
    game: Game, move: Move | None, seat: int | None, scored: RoundSummary | None
) -> ReplayFrame:
    """One position in full. A move that ends a round carries that round's scoring
    (``scored``); the cards shown are then the next round's deal."""
    views = (game.view(0), game.view(1))
    over = game.is_over()
    return ReplayFrame(
        ply=len(game.move_stack),
        round=game.round,
        move=None if move is None else move_json(move),
        seat=seat,
        to_move=game.to_move,
        favor=game.favor(),
        hands=(game.hand(0), game.hand(1)) if not over else ((), ()),
        secrets=(views[0].secret, views[1].secret),
        tradeoffs=(views[0].tradeoff, views[1].tradeoff),
        placed=views[0].placed,
        pending=_pending_json(game.pending, None if seat is None else seat),
        removed=game.removed() if not over else None,
        deck=game.deck() if not over else (),
        scored=None if scored is None else _summary_json(scored),
        outcome=None if game.outcome is None else outcome_json(game.outcome),
    )
