"""What every game record must be, whichever form it was read from: its tags, its
rounds of decisions grouped in turns, and the errors that say where it is broken.

Each reader (:mod:`~hanamikoji.notation.record_text`, :mod:`~hanamikoji.notation.record_json`)
reads its form into tags and :class:`RecordRound` values; the checks here raise a
:class:`Problem` placed in that model (:class:`Where`), and the reader turns the place into
a line and column or a JSON path in its :class:`RecordError`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from hanamikoji.core.errors import InvalidMoveError, UnknownVariantError
from hanamikoji.core.game import TURNS_PER_ROUND
from hanamikoji.core.moves import CARDS_PER_ACTION, Move, MoveKind
from hanamikoji.core.outcome import Termination
from hanamikoji.core.rng import MAX_SEED, Deal
from hanamikoji.core.variants import Variant

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Player 1 won, Player 2 won, a draw or shared win, unfinished."""

REQUIRED_TAGS = ("Variant", "FirstPlayer", "Result")

FORFEIT_TAGS = ("ForfeitResult", "Forfeit")
"""The tags of a game a player lost by forfeit, after the standard ones: the result the
forfeit gives and who forfeited how and why (:class:`~hanamikoji.notation.records.Forfeit`)."""

TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_SEED = re.compile(r"(?:0|[1-9][0-9]*)")
OFFERS = (MoveKind.GIFT, MoveKind.COMPETITION)
_ANSWER = {
    MoveKind.GIFT: MoveKind.GIFT_RESPONSE,
    MoveKind.COMPETITION: MoveKind.COMPETITION_RESPONSE,
}


class RecordError(ValueError):
    """A game record that cannot be read, or whose decisions do not replay.

    Attributes:
        reason: why, without the place.
        line, column: where in a text record (1-based), or in a JSON text that is not JSON.
        path: where in a JSON record, as ``$.rounds[1].moves[4]``.
        round, turn: the round and turn (1-based) of a decision at fault.
    """

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
        round: int | None = None,
        turn: int | None = None,
    ) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.path = path
        self.round = round
        self.turn = turn
        places = []
        if line is not None:
            places.append(f"line {line}" if column is None else f"line {line}, column {column}")
        if path is not None:
            places.append(path)
        if round is not None:
            places.append(f"round {round}" if turn is None else f"round {round}, turn {turn}")
        super().__init__(": ".join([*places, reason]))


@dataclass(frozen=True)
class RecordRound:
    """One round of a record: its explicit deal (``None`` when the seed gives it) and
    every decision in order, each Gift or Competition followed by its response."""

    number: int
    deal: Deal | None
    moves: tuple[Move, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", tuple(self.moves))

    def turns(self) -> tuple[tuple[Move, ...], ...]:
        """The decisions grouped by turn: an action, and its response if it has one."""
        grouped: list[list[Move]] = []
        for move in self.moves:
            if move.is_response and grouped:
                grouped[-1].append(move)
            else:
                grouped.append([move])
        return tuple(tuple(turn) for turn in grouped)


@dataclass(frozen=True)
class Where:
    """A place in the record model, which each reader turns into a line or a JSON path.

    ``tag`` is an index into the tags (``field`` "name" or "value"); ``round`` an index
    into the rounds, with ``move`` an index into its decisions (or ``field`` "deal");
    ``missing_tag`` a required tag that is absent.
    """

    tag: int | None = None
    round: int | None = None
    move: int | None = None
    field: str | None = None
    missing_tag: str | None = None


class Problem(Exception):
    def __init__(self, where: Where, reason: str) -> None:
        super().__init__(reason)
        self.where = where
        self.reason = reason


def check_tags(tags: Sequence[tuple[str, str]]) -> None:
    first_index: dict[str, int] = {}
    for index, (name, value) in enumerate(tags):
        if not isinstance(name, str) or not TAG_NAME.fullmatch(name):
            raise Problem(
                Where(tag=index, field="name"),
                f"{name!r} is not a tag name: a letter, then letters, digits or '_'",
            )
        if not isinstance(value, str):
            raise Problem(
                Where(tag=index, field="value"),
                f"the {name} tag's value is text, not {type(value).__name__}",
            )
        if "\n" in value or "\r" in value:
            raise Problem(
                Where(tag=index, field="value"), f"the {name} tag's value must fit on one line"
            )
        if name in first_index:
            raise Problem(Where(tag=index, field="name"), f"the {name} tag is given twice")
        first_index[name] = index
        reason = _standard_value_problem(name, value)
        if reason is not None:
            raise Problem(Where(tag=index, field="value"), reason)
    for name in REQUIRED_TAGS:
        if name not in first_index:
            example = {"Variant": "classic", "FirstPlayer": "1", "Result": "*"}[name]
            raise Problem(
                Where(missing_tag=name),
                f'the record has no {name} tag (such as [{name} "{example}"])',
            )
    termination = first_index.get("Termination")
    result = first_index.get("Result")
    if termination is not None and result is not None and tags[result][1] == "*":
        raise Problem(
            Where(tag=termination, field="value"),
            "an unfinished game (Result *) has no Termination tag",
        )


def _standard_value_problem(name: str, value: str) -> str | None:
    if name == "Variant":
        try:
            Variant.by_name(value)
        except UnknownVariantError as error:
            return f"the Variant tag: {error}"
    elif name == "Seed":
        # The length first: int() refuses more digits than sys.get_int_max_str_digits().
        if not _SEED.fullmatch(value) or len(value) > len(str(MAX_SEED)) or int(value) > MAX_SEED:
            return f"the Seed {value!r} is not a whole number from 0 to {MAX_SEED}"
    elif name == "FirstPlayer":
        if value not in ("1", "2"):
            return f"FirstPlayer is 1 or 2 (who starts round 1), not {value!r}"
    elif name == "Result":
        if value not in RESULTS:
            return f"the Result is 1-0, 0-1, 1/2-1/2 or * (unfinished), not {value!r}"
    elif name == FORFEIT_TAGS[0]:
        if value not in ("1-0", "0-1"):
            return f"the {name} is 1-0 or 0-1 (the other player won), not {value!r}"
    elif name == "Termination":
        known = [t.value for t in Termination]
        if value not in known:
            return f"the Termination {value!r} is none of {', '.join(known)}"
    return None


def check_rounds(rounds: Sequence[RecordRound], seeded: bool) -> None:
    if not seeded and not rounds:
        raise Problem(
            Where(missing_tag="Seed"),
            "the record has no Seed tag and no round with a Deal: nothing says how the cards"
            " were dealt",
        )
    for index, rnd in enumerate(rounds):
        if not isinstance(rnd, RecordRound):
            raise Problem(Where(round=index), f"a round is a RecordRound, not {rnd!r}")
        if rnd.number != index + 1:
            raise Problem(
                Where(round=index, field="round"),
                f"round {rnd.number} is out of place: round {index + 1} comes here",
            )
        if rnd.deal is None and not seeded:
            raise Problem(
                Where(round=index, field="deal"),
                f"round {rnd.number} has no Deal and the record has no Seed tag: nothing says"
                " how its cards were dealt",
            )
        if rnd.deal is not None and not isinstance(rnd.deal, Deal):
            raise Problem(Where(round=index, field="deal"), f"a deal is a Deal, not {rnd.deal!r}")
        _check_round_moves(index, rnd, last=index == len(rounds) - 1)


def _check_round_moves(index: int, rnd: RecordRound, last: bool) -> None:
    moves = rnd.moves
    for position, move in enumerate(moves):
        if not isinstance(move, Move):
            reader = f": read text with Move.from_text({move!r})" if isinstance(move, str) else ""
            where = Where(round=index, move=position)
            raise Problem(where, f"a decision is a Move, not {move!r}{reader}")
    turns = 0
    position = 0
    while position < len(moves):
        move = moves[position]
        where = Where(round=index, move=position)
        if move.hidden:
            example = "A" * CARDS_PER_ACTION[move.kind]
            raise Problem(
                where, f"{move} hides its cards: a record names them (such as {move}:{example})"
            )
        if move.is_response:
            raise Problem(
                where,
                f"{move} answers a Gift or Competition, but none is on offer: a turn starts"
                " with S:, T:, G: or C:",
            )
        turns += 1
        if turns > TURNS_PER_ROUND:
            raise Problem(where, f"{move} would be turn {turns}: a round has 8 turns")
        position += 1
        if move.kind not in OFFERS:
            continue
        offer = "Gift" if move.kind == MoveKind.GIFT else "Competition"
        if position == len(moves):
            if last:
                break  # the record stops while the offer waits for its answer
            raise Problem(where, f"the {offer} {move} has no response")
        answer = moves[position]
        if not answer.is_response:
            raise Problem(where, f"the {offer} {move} has no response")
        if answer.kind != _ANSWER[move.kind]:
            prefix = "G>" if move.kind == MoveKind.GIFT else "C>"
            raise Problem(
                Where(round=index, move=position),
                f"{answer} does not answer the {offer} {move}: its answer starts with {prefix}",
            )
        position += 1
    complete = turns == TURNS_PER_ROUND and not (moves and moves[-1].kind in OFFERS)
    if not last and not complete:
        raise Problem(
            Where(round=index, field="round"),
            f"round {rnd.number} has {turns} of its 8 turns; only the last round of a record"
            " may be unfinished",
        )


def turn_of(moves: Sequence[Move], position: int) -> int:
    """The 1-based turn of the decision at ``position`` (a response shares its offer's;
    so does whatever stands where a response belongs, even if it is not a Move)."""
    turn = 0
    previous: object = None
    for move in moves[: position + 1]:
        if isinstance(move, Move):
            turn += not move.is_response
        else:
            turn += not (isinstance(previous, Move) and previous.kind in OFFERS)
        previous = move
    return max(1, turn)


def move_problem(token: str, error: InvalidMoveError) -> str:
    """``'S:X' is not a move: ...`` without the core's own repetition of the text."""
    message = str(error)
    echo = f"{token!r}: "
    if message.startswith(echo):
        message = message[len(echo) :]
    return f"{token!r} is not a move: {message}"


class RecordReader(Protocol):
    """A reader of one form: the tags and rounds as written, and a :class:`RecordError`
    placed in that form for a :class:`Problem` the checks or the replay find in them."""

    def read(self) -> tuple[tuple[tuple[str, str], ...], tuple[RecordRound, ...]]: ...

    def located_error(self, problem: Problem) -> RecordError: ...
