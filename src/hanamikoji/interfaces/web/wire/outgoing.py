"""Every message the server sends about a game, as typed Structs, and the one encoder.

A message is built as one of these Structs (``games/payload.py`` builds the game's) and
encoded by :func:`encode` (msgspec's JSON encoder: compact, UTF-8 as it is), in the
order its fields are declared here. The types say what can leave the server: a seat's
state (:class:`SeatState`) holds the seat's own cards and only a count of the other
seat's hand; a spectator's (:class:`SpectatorState`) holds no hand at all (its hand is
typed empty) until the end reveal. ``typescript.py`` turns these Structs into the
page's ``static/js/wire.d.ts``, so that a renamed field fails the page's type check too.

>>> encode(Pong())
'{"type":"pong"}'
>>> encode(ErrorMessage(code="err_stale", message="Too late."))
'{"type":"error","code":"err_stale","message":"Too late."}'
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

__all__ = [
    "ClockState",
    "ErrorMessage",
    "GameOutcome",
    "LogLine",
    "MoveInfo",
    "MoveKindName",
    "PendingOffer",
    "PhaseName",
    "Pong",
    "ReplayFrame",
    "Reveal",
    "RevealedRound",
    "ScoredRound",
    "SeatPlayer",
    "SeatState",
    "SpectatorState",
    "TableState",
    "WireStruct",
    "encode",
    "encode_bytes",
    "to_plain",
]

MoveKindName = Literal[
    "secret", "trade-off", "gift", "competition", "gift-response", "competition-response"
]
"""A decision's kind as the page names it (``payload.KIND_NAMES``)."""

PhaseName = Literal["turn", "gift-response", "competition-response", "awaiting-deal", "over"]
"""What the game waits for (``core.view.Phase``'s values)."""

Pair = tuple[int, int]
"""Two numbers, one per seat (seat 0's first)."""

Cards = tuple[int, ...]
"""Cards as item indices 0..6 (Ayane .. Ruri), sorted; or counts per geisha."""


class WireStruct(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What every outgoing message is: immutable, built with named fields, not tracked
    by the garbage collector (a message holds no cycle)."""


class MoveInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """A decision with its cards (none for a hidden Secret or Trade-off)."""

    text: str
    kind: MoveKindName
    cards: Cards
    pairs: tuple[Cards, ...]
    hidden: bool


class LogLine(WireStruct, frozen=True, kw_only=True, gc=False):
    """One decision of the game's log: when, by whom, and the decision as the seat knows it."""

    round: int
    turn: int
    seat: int
    text: str
    kind: MoveKindName
    cards: Cards
    pairs: tuple[Cards, ...]
    hidden: bool


class PendingOffer(MoveInfo, frozen=True, kw_only=True, gc=False):
    """A Gift or Competition waiting for its answer: ``by`` the seat that offered it
    (``None`` before anyone), and the answers there are."""

    by: int | None
    options: tuple[MoveInfo, ...]


class ScoredRound(WireStruct, frozen=True, kw_only=True, gc=False):
    """One scored round: its Secrets (shown at scoring), the sides, the markers after it."""

    round: int
    starter: int
    secrets: Pair
    sides: tuple[Cards, Cards]
    favor: tuple[int | None, ...]
    charm: Pair
    geishas: Pair


class GameOutcome(WireStruct, frozen=True, kw_only=True, gc=False):
    """How the game ended: under the rules, or by a clock (``termination`` ``time`` or
    ``aborted``); ``reason`` is the key of the sentence that says it."""

    winner: int | None
    termination: str
    reason: str
    charm: Pair
    geishas: Pair
    rounds: int
    result: str


class RevealedRound(WireStruct, frozen=True, kw_only=True, gc=False):
    """One round's hidden cards, shown once the game is over."""

    round: int
    removed: int
    hands: tuple[Cards, Cards]
    deck: Cards
    secrets: tuple[int | None, int | None]
    tradeoffs: tuple[Cards, Cards]


class Reveal(WireStruct, frozen=True, kw_only=True, gc=False):
    """Every round's hidden cards (the end reveal)."""

    rounds: tuple[RevealedRound, ...]


class ClockState(WireStruct, frozen=True, kw_only=True, gc=False):
    """A timed game's clocks: its control (by name, ``kind`` real time or
    correspondence), the milliseconds left per seat when the message was made, and the
    seat whose clock runs (``None``: none)."""

    control: str
    kind: Literal["none", "realtime", "correspondence"]
    remaining: tuple[int, ...]
    running: int | None


class SeatPlayer(WireStruct, frozen=True, kw_only=True, gc=False):
    """Who sits at a seat, as anyone at the table or watching may know: an account
    (``name``, its player page at ``/@/{name}``, its current ``rating`` in the game's
    variant and whether it is ``provisional``, when it has one), a guest (its nickname),
    a bot (its ``level``), or nobody named (``anonymous``: a seat opened by its link).
    ``bot``: an account played by a program through the bot API (its BOT badge).
    Nothing here comes from the cards."""

    kind: Literal["account", "guest", "bot", "anonymous"]
    name: str | None = None
    level: int | None = None
    rating: int | None = None
    provisional: bool = False
    bot: bool = False


class TableState(WireStruct, tag="state", frozen=True, kw_only=True, gc=False):
    """Everything a page at the table shows (``{"type": "state", ...}``): the seat's
    (:class:`SeatState`) or a spectator's (:class:`SpectatorState`). ``placed`` and
    ``unseen`` are counts per geisha; ``unseen`` is the remaining-card tracker."""

    game: str
    seat: int | None
    ply: int
    players: tuple[str, str]
    levels: tuple[int | None, int | None]
    people: tuple[SeatPlayer, SeatPlayer]
    """Who sits at each seat (names, ratings); ``players`` and ``levels`` say only
    person or bot."""
    connected: tuple[bool, bool]
    rematch: str | None
    variant: str
    max_rounds: int | None
    round: int
    round_starter: int
    to_move: int | None
    phase: PhaseName
    favor: tuple[int | None, ...]
    charm: Pair
    geishas: Pair
    hand: Cards
    drawn: int | None
    secret: int | None
    tradeoff: Cards
    placed: tuple[Cards, Cards]
    used: tuple[tuple[MoveKindName, ...], tuple[MoveKindName, ...]]
    hand_sizes: Pair
    deck: int
    pending: PendingOffer | None
    unseen: Cards
    log: tuple[LogLine, ...]
    rounds: tuple[ScoredRound, ...]
    outcome: GameOutcome | None
    reveal: Reveal | None
    clock: ClockState | None
    rated: bool


class SeatState(TableState, frozen=True, kw_only=True, gc=False):
    """A seat's state: its own hand, drawn card, Secret and Trade-off; of the other
    seat's hand only its size (``hand_sizes``): there is no field for those cards."""

    seat: int


class SpectatorState(TableState, frozen=True, kw_only=True, gc=False):
    """A spectator's state: no seat and no seat's own cards (typed empty); the log's
    Secrets and Trade-offs hidden until the end."""

    seat: None = None
    hand: tuple[()] = ()
    drawn: None = None
    secret: None = None
    tradeoff: tuple[()] = ()


class ReplayFrame(WireStruct, frozen=True, kw_only=True, gc=False):
    """One position of a finished game with every card shown (``/replay``); a move that
    ends a round carries that round's scoring (``scored``)."""

    ply: int
    round: int
    move: MoveInfo | None
    seat: int | None
    to_move: int | None
    favor: tuple[int | None, ...]
    hands: tuple[Cards, Cards]
    secrets: tuple[int | None, int | None]
    tradeoffs: tuple[Cards, Cards]
    placed: tuple[Cards, Cards]
    pending: PendingOffer | None
    removed: int | None
    deck: Cards
    scored: ScoredRound | None
    outcome: GameOutcome | None


class Replay(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/games/{id}/replay``: every position, from the first deal to the end."""

    frames: tuple[ReplayFrame, ...]


class ErrorMessage(WireStruct, tag="error", frozen=True, kw_only=True, gc=False):
    """Something sent was refused: its code (``docs/web.md``'s table) and the sentence
    in the page's language. The same body answers a refused HTTP request."""

    code: str
    message: str
    seconds: int | UnsetType = UNSET
    """For a refusal that says when to try again (a rate): the seconds to wait, as HTTP's
    ``Retry-After``; left out otherwise."""


class Pong(WireStruct, tag="pong", frozen=True, kw_only=True, gc=False):
    """The answer to a ``ping``."""


_ENCODER = msgspec.json.Encoder()


def encode_bytes(message: WireStruct | Any) -> bytes:
    """A message as UTF-8 JSON bytes (an HTTP body): the one encoder of the server."""
    return _ENCODER.encode(message)


def encode(message: WireStruct) -> str:
    """A message as the text sent on a socket: compact JSON."""
    return _ENCODER.encode(message).decode("utf-8")


def to_plain(message: WireStruct | Any) -> Any:
    """A message as the page decodes it: dicts, lists and plain values (for an answer
    that holds a message inside data of its own, and for tests)."""
    return msgspec.json.decode(_ENCODER.encode(message))
