"""The lines of the Hanamikoji engine protocol (HMP), as values.

``docs/protocol.md`` is the specification. Seats are ``1`` and ``2`` on the wire and
``0`` and ``1`` here; cards are the letters ``A``-``G``; decisions use the notation of
:mod:`hanamikoji.core.moves`.

>>> format_event(DealEvent(round=1, starter=0, hand=(0, 3, 3, 5, 6, 6)))
'deal round 1 starter 1 hand ADDFGG'
>>> parse_event("move 2 G:DDG")
MoveEvent(seat=1, move=Move.from_text('G:DDG'))
>>> format_event(ScoreEvent(round=2, secrets=(6, 0), favor=(0, None, 1, None, None, 1, 0)))
'score round 2 secrets G A favor 1.2..21'
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from hanamikoji.core.cards import ITEM_COUNT, ITEM_LETTERS, letters
from hanamikoji.core.errors import InvalidMoveError
from hanamikoji.core.moves import Move
from hanamikoji.core.seats import seat_from_number, seat_number

__all__ = [
    "PROTOCOL_VERSION",
    "DealEvent",
    "DrawEvent",
    "Event",
    "GameOverEvent",
    "Go",
    "MoveEvent",
    "NewGame",
    "ProtocolError",
    "ScoreEvent",
    "format_event",
    "format_favor",
    "format_seat",
    "parse_cards",
    "parse_event",
    "parse_favor",
    "parse_go",
    "parse_new_game",
    "parse_seat",
]

PROTOCOL_VERSION = 1
RESULTS = ("1-0", "0-1", "1/2-1/2")


class ProtocolError(ValueError):
    """A line that does not follow the protocol, or does not fit what came before."""


# -- small pieces ---------------------------------------------------------------------------


def format_seat(seat: int) -> str:
    """Seat 0 is ``1`` on the wire, seat 1 is ``2``."""
    return str(seat_number(seat))


def parse_seat(token: str) -> int:
    """Seat ``1`` on the wire is seat 0, ``2`` is seat 1."""
    if token not in ("1", "2"):
        raise ProtocolError(f"a seat is 1 or 2, not {token!r}")
    return seat_from_number(token)


def parse_cards(token: str) -> tuple[int, ...]:
    """Letters ``A``-``G`` (any case) as sorted item indices."""
    cards = []
    for letter in token:
        index = ITEM_LETTERS.find(letter.upper())
        if index < 0:
            raise ProtocolError(f"{letter!r} in {token!r} is not a card (cards are A-G)")
        cards.append(index)
    return tuple(sorted(cards))


def parse_card(token: str) -> int:
    cards = parse_cards(token)
    if len(cards) != 1:
        raise ProtocolError(f"expected one card, got {token!r}")
    return cards[0]


def format_favor(favor: tuple[int | None, ...]) -> str:
    """Seven characters in row order: ``1`` or ``2`` for the seat holding the geisha's
    favor, ``.`` for a neutral marker."""
    return "".join("." if seat is None else format_seat(seat) for seat in favor)


def parse_favor(token: str) -> tuple[int | None, ...]:
    if len(token) != ITEM_COUNT or any(ch not in "12." for ch in token):
        raise ProtocolError(f"favor is {ITEM_COUNT} characters from '1', '2', '.': {token!r}")
    return tuple(None if ch == "." else parse_seat(ch) for ch in token)


def _int(token: str, what: str, minimum: int = 0) -> int:
    # isdigit() alone takes digits int() refuses (such as '²'); int() refuses more
    # digits than sys.get_int_max_str_digits().
    value = None
    if token.isascii() and token.isdigit():
        with contextlib.suppress(ValueError):
            value = int(token)
    if value is None or value < minimum:
        raise ProtocolError(f"{what} is an integer >= {minimum}, not {token!r}")
    return value


def _fields(tokens: list[str], keys: tuple[str, ...], line: str) -> list[str]:
    """The values of ``key value`` pairs that must come in exactly this order."""
    if len(tokens) != 2 * len(keys) or tokens[0::2] != list(keys):
        wanted = " ".join(f"{key} <{key}>" for key in keys)
        raise ProtocolError(f"expected '{wanted}' in {line!r}")
    return tokens[1::2]


# -- commands from the GUI that are not events ------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewGame:
    """``newgame variant <name> seat <1|2> first <1|2>``: a game begins; the engine plays
    ``seat`` and ``first`` starts round 1."""

    variant: str
    seat: int
    first: int

    def line(self) -> str:
        return (
            f"newgame variant {self.variant} seat {format_seat(self.seat)} "
            f"first {format_seat(self.first)}"
        )


def parse_new_game(line: str) -> NewGame:
    tokens = line.split()
    if not tokens or tokens[0] != "newgame":
        raise ProtocolError(f"not a newgame line: {line!r}")
    variant, seat, first = _fields(tokens[1:], ("variant", "seat", "first"), line)
    return NewGame(variant, parse_seat(seat), parse_seat(first))


@dataclass(frozen=True, slots=True)
class Go:
    """``go [movetime <ms>]``: decide now, within ``movetime`` milliseconds if given."""

    movetime_ms: int | None = None

    def line(self) -> str:
        return "go" if self.movetime_ms is None else f"go movetime {self.movetime_ms}"


def parse_go(line: str) -> Go:
    tokens = line.split()
    if not tokens or tokens[0] != "go":
        raise ProtocolError(f"not a go line: {line!r}")
    if len(tokens) == 1:
        return Go()
    (movetime,) = _fields(tokens[1:], ("movetime",), line)
    return Go(_int(movetime, "movetime", 1))


# -- information events -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealEvent:
    """``deal round <n> starter <1|2> hand <6 letters>``: a round begins with this hand."""

    round: int
    starter: int
    hand: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrawEvent:
    """``draw <letter>``: the engine's own draw at the start of its turn."""

    card: int


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """``move <1|2> <decision>``: a decision, as the engine's seat may see it (the
    opponent's Secret and Trade-off as a bare ``S`` or ``T``)."""

    seat: int
    move: Move


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """``score round <n> secrets <X> <Y> favor <7 chars>``: a round was scored; both
    Secrets are revealed (seat 1's first) and the favor markers are where they now stand."""

    round: int
    secrets: tuple[int, int]
    favor: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class GameOverEvent:
    """``gameover <result> <reason>``: the game ended. ``result`` is ``1-0``, ``0-1`` or
    ``1/2-1/2`` (seat 1's score first); ``reason`` is an outcome's termination
    (``charm``, ``geishas``, ...) or a word of the GUI's own (``forfeit``, ``aborted``)."""

    result: str
    reason: str

    @property
    def winner(self) -> int | None:
        return {"1-0": 0, "0-1": 1}.get(self.result)


Event = DealEvent | DrawEvent | MoveEvent | ScoreEvent | GameOverEvent


def format_event(event: Event) -> str:
    """The protocol line of an event."""
    if isinstance(event, DealEvent):
        return (
            f"deal round {event.round} starter {format_seat(event.starter)} "
            f"hand {letters(event.hand, sort=True)}"
        )
    if isinstance(event, DrawEvent):
        return f"draw {ITEM_LETTERS[event.card]}"
    if isinstance(event, MoveEvent):
        return f"move {format_seat(event.seat)} {event.move}"
    if isinstance(event, ScoreEvent):
        first, second = (ITEM_LETTERS[card] for card in event.secrets)
        return (
            f"score round {event.round} secrets {first} {second} favor {format_favor(event.favor)}"
        )
    return f"gameover {event.result} {event.reason}"


def parse_event(line: str) -> Event:
    """The event of a protocol line. Raises :class:`ProtocolError`."""
    tokens = line.split()
    if not tokens:
        raise ProtocolError("empty line")
    head, rest = tokens[0], tokens[1:]
    if head == "deal":
        number, starter, hand = _fields(rest, ("round", "starter", "hand"), line)
        return DealEvent(_int(number, "round", 1), parse_seat(starter), parse_cards(hand))
    if head == "draw":
        if len(rest) != 1:
            raise ProtocolError(f"expected 'draw <card>': {line!r}")
        return DrawEvent(parse_card(rest[0]))
    if head == "move":
        if len(rest) != 2:
            raise ProtocolError(f"expected 'move <seat> <decision>': {line!r}")
        try:
            move = Move.from_text(rest[1])
        except InvalidMoveError as error:
            raise ProtocolError(str(error)) from None
        return MoveEvent(parse_seat(rest[0]), move)
    if head == "score":
        if len(rest) != 7 or rest[0] != "round" or rest[2] != "secrets" or rest[5] != "favor":
            raise ProtocolError(
                f"expected 'score round <n> secrets <card> <card> favor <7 chars>': {line!r}"
            )
        secrets = (parse_card(rest[3]), parse_card(rest[4]))
        return ScoreEvent(_int(rest[1], "round", 1), secrets, parse_favor(rest[6]))
    if head == "gameover":
        if len(rest) != 2 or rest[0] not in RESULTS:
            raise ProtocolError(f"expected 'gameover <1-0|0-1|1/2-1/2> <reason>': {line!r}")
        return GameOverEvent(rest[0], rest[1])
    raise ProtocolError(f"not an event: {line!r}")


EVENT_WORDS = frozenset({"deal", "draw", "move", "score", "gameover"})
"""The first words of the event lines."""
