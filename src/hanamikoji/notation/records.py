"""Game records: a text format people read and write, the same record as JSON, and replay.

A record is a header of tags, then the decisions round by round::

    [Variant "classic"]
    [Seed "7"]
    [FirstPlayer "1"]
    [Player1 "Alice"]
    [Player2 "Bob"]
    [Result "*"]

    Round 1
    1. G:FGG G>F
    2. S:C

A turn line holds a turn's action and, after a Gift or Competition, the opponent's
response. A round whose cards the seed does not give carries a ``Deal`` line. The
reader ignores comments (``#`` to the end of the line), blank lines and extra
whitespace, and says where and why a record is broken. ``docs/records.md`` describes
the format in full.

>>> from hanamikoji import Game
>>> game = Game(seed=7)
>>> for text in ("G:FGG", "G>F", "S:C"):
...     _ = game.push_text(text)
>>> record = GameRecord.from_game(game, players=("Alice", "Bob"))
>>> print(record.to_text())
[Variant "classic"]
[Seed "7"]
[FirstPlayer "1"]
[Player1 "Alice"]
[Player2 "Bob"]
[Result "*"]
<BLANKLINE>
Round 1
1. G:FGG G>F
2. S:C
<BLANKLINE>
>>> GameRecord.from_text(record.to_text()) == record
True
>>> record.replay().move_stack == game.move_stack
True
>>> GameRecord.from_text(record.to_text().replace("S:C", "S:X"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanamikoji.notation.records.RecordError: line 10, column 4: 'S:X' is not a move: 'X' is not...
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hanamikoji.core.cards import ITEM_LETTERS, letters
from hanamikoji.core.errors import (
    DealError,
    IllegalMoveError,
    InvalidMoveError,
    UnknownVariantError,
)
from hanamikoji.core.game import TURNS_PER_ROUND, Game
from hanamikoji.core.moves import CARDS_PER_ACTION, Move, MoveKind
from hanamikoji.core.outcome import Termination
from hanamikoji.core.rng import DECK_SIZE, HAND_SIZE, MAX_SEED, Deal, deal_for_round
from hanamikoji.core.seats import seat_from_number, seat_number
from hanamikoji.core.variants import Variant
from hanamikoji.core.view import LogEntry
from hanamikoji.notation.outcomes import describe_outcome, seat_name

__all__ = [
    "FORFEIT_TAGS",
    "JSON_FORMAT",
    "JSON_VERSION",
    "RECORD_SUFFIX",
    "RESIGNED",
    "RESULTS",
    "STANDARD_TAGS",
    "Forfeit",
    "GameRecord",
    "RecordError",
    "RecordRound",
    "read_record",
    "write_record",
]

RECORD_SUFFIX = ".hkr"
"""The suggested file suffix of the text format (``.json`` files hold the JSON form)."""

JSON_FORMAT = "hanamikoji-record"
JSON_VERSION = 1

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Player 1 won, Player 2 won, a draw or shared win, unfinished."""

STANDARD_TAGS = (
    "Event",
    "Date",
    "Variant",
    "Seed",
    "FirstPlayer",
    "Player1",
    "Player2",
    "Result",
    "Termination",
)
"""The tags :meth:`GameRecord.from_game` writes, in this order; any other tag is kept as given."""

REQUIRED_TAGS = ("Variant", "FirstPlayer", "Result")

FORFEIT_TAGS = ("ForfeitResult", "Forfeit")
"""The tags of a game a player lost by forfeit, after the standard ones: the result the
forfeit gives and who forfeited how and why (:class:`Forfeit`)."""

RESIGNED = "resigned"
"""The :class:`Forfeit` kind of a player who gave the game up (the web's Resign)."""

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_SEED = re.compile(r"(?:0|[1-9][0-9]*)")
_TURN_NUMBER = re.compile(r"([0-9]+)\.")
_TOKEN = re.compile(r"\S+")
_OFFERS = (MoveKind.GIFT, MoveKind.COMPETITION)
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


# -- the model ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Why ``seat`` lost a game outside the rules: ``kind`` is one word (``error``: the
    player raised; ``illegal``: it chose a decision that is not legal; ``timeout``; an
    engine's ``crash`` or ``malformed`` answer; ``resigned``: the player gave the game
    up, :data:`RESIGNED`), ``reason`` says what happened (empty when the kind says it all).

    The game under the rules is unfinished, so its record says ``Result "*"`` and still
    replays; the forfeit goes in the :data:`FORFEIT_TAGS` (:meth:`GameRecord.from_game`),
    and :attr:`GameRecord.forfeit` reads it back:

    >>> Forfeit(1, "crash", "the engine exited").tags(("Ann", "stub"))
    [('ForfeitResult', '1-0'), ('Forfeit', 'Player 2 (stub) crash: the engine exited')]
    >>> Forfeit(0, RESIGNED, "").tags(("Ann", "Bob"))
    [('ForfeitResult', '0-1'), ('Forfeit', 'Player 1 (Ann) resigned')]
    """

    seat: int
    kind: str
    reason: str

    @property
    def result(self) -> str:
        """The result in seat order: the other seat wins."""
        return "0-1" if self.seat == 0 else "1-0"

    def tags(self, players: tuple[str, str]) -> list[tuple[str, str]]:
        """The record's tags of this forfeit, the loser named by seat and name."""
        loser = _loser(players, self.seat)
        said = f"{loser} {self.kind}: {self.reason}" if self.reason else f"{loser} {self.kind}"
        return [(FORFEIT_TAGS[0], self.result), (FORFEIT_TAGS[1], " ".join(said.split()))]

    @classmethod
    def from_tags(cls, players: tuple[str, str], result: str, said: str) -> Forfeit | None:
        """The forfeit the tags :meth:`tags` wrote say (``None``: not in that form)."""
        if result not in ("1-0", "0-1"):
            return None
        seat = 0 if result == "0-1" else 1
        prefix = " ".join(f"{_loser(players, seat)} ".split()) + " "
        if not said.startswith(prefix):
            return None
        kind, _, reason = said[len(prefix) :].partition(": ")
        if not kind or " " in kind:
            return None
        return cls(seat, kind, reason)


def _loser(players: tuple[str, str], seat: int) -> str:
    """A forfeit's loser: the seat, and its name when it has one."""
    name, loser = players[seat], seat_name(seat)
    return loser if name == loser else f"{loser} ({name})"


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
class GameRecord:
    """A game as a record: its tags in order, and its rounds of decisions.

    Constructing a record checks its tags and the shape of its rounds (raising
    :class:`RecordError`); whether the decisions are legal is known by :meth:`replay`.
    """

    tags: tuple[tuple[str, str], ...]
    rounds: tuple[RecordRound, ...]

    def __post_init__(self) -> None:
        tags = tuple(tuple(tag) for tag in self.tags)
        for tag in tags:
            if len(tag) != 2:
                raise RecordError(f"a tag is a (name, value) pair, not {tag!r}")
        object.__setattr__(self, "tags", tags)
        object.__setattr__(self, "rounds", tuple(self.rounds))
        try:
            _check_tags(self.tags)
            _check_rounds(self.rounds, self.tag("Seed") is not None)
        except _Problem as problem:
            raise self._error(problem) from None

    # -- tags ---------------------------------------------------------------------

    def tag(self, name: str) -> str | None:
        """The value of a tag, or ``None`` when the record does not have it."""
        for tag_name, value in self.tags:
            if tag_name == name:
                return value
        return None

    def _required(self, name: str) -> str:
        value = self.tag(name)
        assert value is not None, f"{name} is checked on construction"
        return value

    @property
    def variant(self) -> str:
        """The variant's name, as :meth:`Variant.by_name` reads it."""
        return self._required("Variant")

    @property
    def seed(self) -> int | None:
        """The seed the deals not written in the record come from."""
        value = self.tag("Seed")
        return None if value is None else int(value)

    @property
    def first_player(self) -> int:
        """The seat (0 or 1) that starts round 1."""
        return seat_from_number(self._required("FirstPlayer"))

    @property
    def players(self) -> tuple[str, str]:
        """The names of seat 0 and seat 1 (Player 1 and Player 2 when not tagged)."""
        first, second = self.tag("Player1"), self.tag("Player2")
        return (
            seat_name(0) if first is None else first,
            seat_name(1) if second is None else second,
        )

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unfinished)."""
        return self._required("Result")

    @property
    def termination(self) -> str | None:
        """Why the game ended (a :class:`Termination` value), when the record says."""
        return self.tag("Termination")

    @property
    def forfeit(self) -> Forfeit | None:
        """How a player lost the game outside the rules (the :data:`FORFEIT_TAGS`: a
        resignation, an engine's crash, ...), when the record says."""
        result, said = (self.tag(name) for name in FORFEIT_TAGS)
        if result is None or said is None:
            return None
        return Forfeit.from_tags(self.players, result, said)

    @property
    def date(self) -> str | None:
        return self.tag("Date")

    @property
    def event(self) -> str | None:
        return self.tag("Event")

    # -- from a game, back to a game ----------------------------------------------

    @classmethod
    def from_game(
        cls,
        game: Game,
        players: tuple[str, str] = (seat_name(0), seat_name(1)),
        date: str | None = None,
        event: str | None = None,
        extra_tags: Iterable[tuple[str, str]] = (),
        forfeit: Forfeit | None = None,
    ) -> GameRecord:
        """The record of ``game`` so far, finished or not; a game a player lost by
        ``forfeit`` gets its :data:`FORFEIT_TAGS` after the ``extra_tags``.

        A round gets its deal written when the seed does not give it (or there is no
        seed). Deals the game was given for rounds not yet started are not part of it.
        """
        variant = game.variant
        try:
            known: Variant | None = Variant.by_name(variant.name)
        except UnknownVariantError:
            known = None
        if known != variant:
            raise RecordError(
                f"the variant {variant.name!r} is not one Variant.by_name knows by that name,"
                " so a record cannot name it"
            )
        tags: list[tuple[str, str]] = []
        if event is not None:
            tags.append(("Event", event))
        if date is not None:
            tags.append(("Date", date))
        tags.append(("Variant", variant.name))
        seed = game.seed
        if seed is not None:
            tags.append(("Seed", str(seed)))
        tags.append(("FirstPlayer", str(seat_number(game.first_player))))
        tags.append(("Player1", players[0]))
        tags.append(("Player2", players[1]))
        outcome = game.outcome
        tags.append(("Result", "*" if outcome is None else outcome.result()))
        if outcome is not None:
            tags.append(("Termination", outcome.termination.value))
        tags.extend(extra_tags)
        if forfeit is not None:
            if outcome is not None:
                raise RecordError("a game the rules ended is not lost by forfeit")
            tags.extend(forfeit.tags(players))

        deals = game.deals()
        moves: list[list[Move]] = [[] for _ in deals]
        for entry in game.log():
            moves[entry.round - 1].append(entry.move)
        rounds = tuple(
            RecordRound(
                number,
                None if seed is not None and deal == deal_for_round(seed, number) else deal,
                tuple(round_moves),
            )
            for number, (deal, round_moves) in enumerate(zip(deals, moves, strict=True), start=1)
        )
        return cls(tuple(tags), rounds)

    def replay(self) -> Game:
        """The game this record describes, every decision pushed.

        Raises :class:`RecordError` naming the round, turn and decision when a decision
        is illegal or comes after the end, and when the Result or Termination tag
        disagrees with the game the decisions give.
        """
        try:
            return self._replay()
        except _Problem as problem:
            raise self._error(problem) from None

    def decisions(self) -> Iterator[tuple[Game, LogEntry]]:
        """Every decision of the record (in full, as :meth:`Game.log` gives it) with the
        game just before it, for seeded and dealt records alike. The game is one object
        moved on after each step: copy it to keep a position. Raises
        :class:`RecordError` as :meth:`replay` does."""
        replayed = self.replay()
        # The replayed game's deals, fed one round at a time.
        game = Game(self.variant, first_player=self.first_player, external_deals=True)
        deals = iter(replayed.deals())
        for entry in replayed.log():
            if game.needs_deal:
                game.deal(next(deals))
            yield game, entry
            game.push(entry.move)

    def _replay(self) -> Game:
        variant = Variant.by_name(self.variant)
        seed = self.seed
        rounds = self.rounds
        if seed is None:
            first_deal = rounds[0].deal
            assert first_deal is not None, "a record without a seed has every deal"
            game = Game(variant, None, self.first_player, deals=(first_deal,))
        else:
            # Game takes explicit deals for the first rounds only: fill the gaps before the
            # last written deal with the seed's own deals.
            written = [i for i, rnd in enumerate(rounds) if rnd.deal is not None]
            prefix = tuple(
                rnd.deal if rnd.deal is not None else deal_for_round(seed, rnd.number)
                for rnd in rounds[: written[-1] + 1 if written else 0]
            )
            game = Game(variant, seed, self.first_player, deals=prefix)
        for index, rnd in enumerate(rounds):
            outcome = game.outcome
            if outcome is not None:
                raise _Problem(
                    _Where(round=index),
                    f"the game ended in round {outcome.rounds}: {describe_outcome(outcome)}"
                    f" Round {rnd.number} should not be in the record",
                )
            if game.needs_deal:
                assert rnd.deal is not None, "a record without a seed has every deal"
                game.deal(rnd.deal)
            # A game ends only when a round does, so an ended game is caught above.
            for move_index, move in enumerate(rnd.moves):
                try:
                    game.push(move)
                except IllegalMoveError as error:
                    raise _Problem(_Where(round=index, move=move_index), str(error)) from None
        self._check_result(game)
        return game

    def _check_result(self, game: Game) -> None:
        outcome = game.outcome
        actual = "*" if outcome is None else outcome.result()
        names = [name for name, _ in self.tags]
        if self.result != actual:
            told = "the game is unfinished" if outcome is None else describe_outcome(outcome)
            raise _Problem(
                _Where(tag=names.index("Result"), field="value"),
                f"the Result tag says {self.result} but the decisions give {actual}: {told}",
            )
        termination = self.termination
        if termination is not None:
            where = _Where(tag=names.index("Termination"), field="value")
            if outcome is None:
                raise _Problem(
                    where, f"the Termination tag says {termination} but the game is unfinished"
                )
            if termination != outcome.termination.value:
                raise _Problem(
                    where,
                    f"the Termination tag says {termination} but the game ended by"
                    f" {outcome.termination.value}: {describe_outcome(outcome)}",
                )

    def _error(self, problem: _Problem) -> RecordError:
        """The error for a problem found in the model, placed by round and turn."""
        where = problem.where
        if where.round is None or where.round >= len(self.rounds):
            return RecordError(problem.reason)
        turn = None
        if where.move is not None:
            turn = _turn_of(self.rounds[where.round].moves, where.move)
        return RecordError(problem.reason, round=where.round + 1, turn=turn)

    # -- text ---------------------------------------------------------------------

    def to_text(self) -> str:
        """The text form; :meth:`from_text` reads it back to an equal record."""
        lines = [f'[{name} "{_quote(value)}"]' for name, value in self.tags]
        for rnd in self.rounds:
            lines.append("")
            lines.append(f"Round {rnd.number}")
            if rnd.deal is not None:
                lines.append(_deal_line(rnd.deal))
            for number, turn in enumerate(rnd.turns(), start=1):
                lines.append(f"{number}. " + " ".join(move.text() for move in turn))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, *, check: bool = True) -> GameRecord:
        """Read the text form. Raises :class:`RecordError` with the line and column.

        With ``check`` (the default) the record is also replayed, so that illegal
        decisions, decisions after the end and a wrong Result are refused with their line.
        """
        return _TextReader(text).read(check)

    # -- JSON ---------------------------------------------------------------------

    def to_json(self) -> str:
        """The JSON form (see ``docs/records.md``); :meth:`from_json` reads it back."""

        def dump(value: object) -> str:
            return json.dumps(value, ensure_ascii=False)

        tags = ",\n".join(f"    {dump(name)}: {dump(value)}" for name, value in self.tags)
        rounds = ",\n".join(
            "    "
            + dump(
                {
                    "round": rnd.number,
                    "deal": None if rnd.deal is None else _deal_json(rnd.deal),
                    "moves": [move.text() for move in rnd.moves],
                }
            )
            for rnd in self.rounds
        )
        return (
            "{\n"
            f'  "format": {dump(JSON_FORMAT)},\n'
            f'  "version": {JSON_VERSION},\n'
            f'  "tags": {{\n{tags}\n  }},\n'
            + (f'  "rounds": [\n{rounds}\n  ]\n' if rounds else '  "rounds": []\n')
            + "}\n"
        )

    @classmethod
    def from_json(cls, text: str, *, check: bool = True) -> GameRecord:
        """Read the JSON form. Raises :class:`RecordError` naming the JSON path (or the
        line and column when the text is not JSON). ``check`` as for :meth:`from_text`."""
        return _JsonReader(text).read(check)

    @classmethod
    def parse(cls, text: str, *, check: bool = True) -> GameRecord:
        """Read either form, told apart by the content: JSON when it starts with ``{``,
        the text form when its first line that is not blank or a comment starts with
        ``[`` (a tag). Anything else is read as both, and refused with both reasons.
        ``check`` as for :meth:`from_text`.

        >>> record = GameRecord.from_game(Game(seed=7))
        >>> GameRecord.parse(record.to_json()) == GameRecord.parse(record.to_text()) == record
        True
        >>> try:
        ...     GameRecord.parse("hello")
        ... except RecordError as error:
        ...     print(error)
        line 1, column 1: neither a text record nor a JSON record (as text: line 1, column 1:
        expected a tag, 'Round N', a Deal line or a numbered turn such as '1. S:D'; as JSON:
        line 1, column 1: not JSON: Expecting value)
        """
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        form = _form_of(text)
        if form == "json":
            return cls.from_json(text, check=check)
        if form == "text":
            return cls.from_text(text, check=check)
        try:
            return cls.from_text(text, check=check)
        except RecordError as as_text:
            try:
                return cls.from_json(text, check=check)
            except RecordError as as_json:
                reason = f"neither a text record nor a JSON record (as text: {as_text}; "
                raise RecordError(
                    f"{reason}as JSON: {as_json})", line=as_text.line, column=as_text.column
                ) from None


def read_record(path: str | os.PathLike[str], *, check: bool = True) -> GameRecord:
    """Read a record file in either form, whatever its name (:meth:`GameRecord.parse`).
    Raises :class:`RecordError`."""
    file = Path(path)
    data = file.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start, read = error.start, error.object
        raise RecordError(
            f"not UTF-8 text (byte {start + 1}: {read[start : start + 1]!r})",
            line=read.count(b"\n", 0, start) + 1,
            column=start - read.rfind(b"\n", 0, start),
        ) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as read_text() reads lines
    return GameRecord.parse(text, check=check)


def _form_of(text: str) -> str:
    """``json`` or ``text`` when the start of ``text`` says which form it is, else ``""``."""
    for line in text.lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("{"):
            return "json"
        return "text" if stripped.startswith("[") else ""
    return ""


def write_record(path: str | os.PathLike[str], record: GameRecord) -> None:
    """Write a record file: JSON when its name ends in ``.json``, else the text form
    (``.hkr`` is the suggested suffix)."""
    file = Path(path)
    text = record.to_json() if file.suffix.lower() == ".json" else record.to_text()
    file.write_text(text, encoding="utf-8")


# -- checks shared by every way in --------------------------------------------------


@dataclass(frozen=True)
class _Where:
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


class _Problem(Exception):
    def __init__(self, where: _Where, reason: str) -> None:
        super().__init__(reason)
        self.where = where
        self.reason = reason


def _assemble(
    tags: tuple[tuple[str, str], ...], rounds: tuple[RecordRound, ...], check: bool
) -> GameRecord:
    """A record from parsed tags and rounds, checked as a reader must; raises ``_Problem``."""
    _check_tags(tags)
    _check_rounds(rounds, any(name == "Seed" for name, _ in tags))
    record = GameRecord(tags, rounds)
    if check:
        # GameRecord's own module: a reader checks the record by replaying it.
        record._replay()  # noqa: SLF001
    return record


def _check_tags(tags: Sequence[tuple[str, str]]) -> None:
    first_index: dict[str, int] = {}
    for index, (name, value) in enumerate(tags):
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
            raise _Problem(
                _Where(tag=index, field="name"),
                f"{name!r} is not a tag name: a letter, then letters, digits or '_'",
            )
        if not isinstance(value, str):
            raise _Problem(
                _Where(tag=index, field="value"),
                f"the {name} tag's value is text, not {type(value).__name__}",
            )
        if "\n" in value or "\r" in value:
            raise _Problem(
                _Where(tag=index, field="value"), f"the {name} tag's value must fit on one line"
            )
        if name in first_index:
            raise _Problem(_Where(tag=index, field="name"), f"the {name} tag is given twice")
        first_index[name] = index
        reason = _standard_value_problem(name, value)
        if reason is not None:
            raise _Problem(_Where(tag=index, field="value"), reason)
    for name in REQUIRED_TAGS:
        if name not in first_index:
            example = {"Variant": "classic", "FirstPlayer": "1", "Result": "*"}[name]
            raise _Problem(
                _Where(missing_tag=name),
                f'the record has no {name} tag (such as [{name} "{example}"])',
            )
    termination = first_index.get("Termination")
    result = first_index.get("Result")
    if termination is not None and result is not None and tags[result][1] == "*":
        raise _Problem(
            _Where(tag=termination, field="value"),
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


def _check_rounds(rounds: Sequence[RecordRound], seeded: bool) -> None:
    if not seeded and not rounds:
        raise _Problem(
            _Where(missing_tag="Seed"),
            "the record has no Seed tag and no round with a Deal: nothing says how the cards"
            " were dealt",
        )
    for index, rnd in enumerate(rounds):
        if not isinstance(rnd, RecordRound):
            raise _Problem(_Where(round=index), f"a round is a RecordRound, not {rnd!r}")
        if rnd.number != index + 1:
            raise _Problem(
                _Where(round=index, field="round"),
                f"round {rnd.number} is out of place: round {index + 1} comes here",
            )
        if rnd.deal is None and not seeded:
            raise _Problem(
                _Where(round=index, field="deal"),
                f"round {rnd.number} has no Deal and the record has no Seed tag: nothing says"
                " how its cards were dealt",
            )
        if rnd.deal is not None and not isinstance(rnd.deal, Deal):
            raise _Problem(_Where(round=index, field="deal"), f"a deal is a Deal, not {rnd.deal!r}")
        _check_round_moves(index, rnd, last=index == len(rounds) - 1)


def _check_round_moves(index: int, rnd: RecordRound, last: bool) -> None:
    moves = rnd.moves
    for position, move in enumerate(moves):
        if not isinstance(move, Move):
            reader = f": read text with Move.from_text({move!r})" if isinstance(move, str) else ""
            where = _Where(round=index, move=position)
            raise _Problem(where, f"a decision is a Move, not {move!r}{reader}")
    turns = 0
    position = 0
    while position < len(moves):
        move = moves[position]
        where = _Where(round=index, move=position)
        if move.hidden:
            example = "A" * CARDS_PER_ACTION[move.kind]
            raise _Problem(
                where, f"{move} hides its cards: a record names them (such as {move}:{example})"
            )
        if move.is_response:
            raise _Problem(
                where,
                f"{move} answers a Gift or Competition, but none is on offer: a turn starts"
                " with S:, T:, G: or C:",
            )
        turns += 1
        if turns > TURNS_PER_ROUND:
            raise _Problem(where, f"{move} would be turn {turns}: a round has 8 turns")
        position += 1
        if move.kind not in _OFFERS:
            continue
        offer = "Gift" if move.kind == MoveKind.GIFT else "Competition"
        if position == len(moves):
            if last:
                break  # the record stops while the offer waits for its answer
            raise _Problem(where, f"the {offer} {move} has no response")
        answer = moves[position]
        if not answer.is_response:
            raise _Problem(where, f"the {offer} {move} has no response")
        if answer.kind != _ANSWER[move.kind]:
            prefix = "G>" if move.kind == MoveKind.GIFT else "C>"
            raise _Problem(
                _Where(round=index, move=position),
                f"{answer} does not answer the {offer} {move}: its answer starts with {prefix}",
            )
        position += 1
    complete = turns == TURNS_PER_ROUND and not (moves and moves[-1].kind in _OFFERS)
    if not last and not complete:
        raise _Problem(
            _Where(round=index, field="round"),
            f"round {rnd.number} has {turns} of its 8 turns; only the last round of a record"
            " may be unfinished",
        )


def _turn_of(moves: Sequence[Move], position: int) -> int:
    """The 1-based turn of the decision at ``position`` (a response shares its offer's;
    so does whatever stands where a response belongs, even if it is not a Move)."""
    turn = 0
    previous: object = None
    for move in moves[: position + 1]:
        if isinstance(move, Move):
            turn += not move.is_response
        else:
            turn += not (isinstance(previous, Move) and previous.kind in _OFFERS)
        previous = move
    return max(1, turn)


# -- deals as text ------------------------------------------------------------------

_DEAL_FIELDS = ("removed", "hand1", "hand2", "deck")
_DEAL_SIZES = {"removed": 1, "hand1": HAND_SIZE, "hand2": HAND_SIZE, "deck": DECK_SIZE}


class _FieldProblem(Exception):
    """A deal field at fault; ``offset`` is the character within its value, if one is."""

    def __init__(self, field: str, offset: int | None, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.offset = offset
        self.reason = reason


def _deal_line(deal: Deal) -> str:
    return (
        f"Deal removed:{ITEM_LETTERS[deal.removed]} hand1:{letters(deal.hands[0])}"
        f" hand2:{letters(deal.hands[1])} deck:{letters(deal.deck)}"
    )


def _deal_json(deal: Deal) -> dict[str, object]:
    return {
        "removed": ITEM_LETTERS[deal.removed],
        "hands": [letters(deal.hands[0]), letters(deal.hands[1])],
        "deck": letters(deal.deck),
    }


def _deal_from_fields(fields: dict[str, str]) -> Deal:
    """A deal from the letters of its four fields. Raises :class:`_FieldProblem`."""
    cards: dict[str, tuple[int, ...]] = {}
    for name in _DEAL_FIELDS:
        letters = fields[name]
        parsed = []
        for offset, letter in enumerate(letters):
            card = ITEM_LETTERS.find(letter.upper())
            if card < 0 or not letter.strip():
                raise _FieldProblem(
                    name,
                    offset,
                    f"{letter!r} is not a card (cards are the letters A-G, Ayane to Ruri)",
                )
            parsed.append(card)
        if len(parsed) != _DEAL_SIZES[name]:
            what = "the removed card is one card" if name == "removed" else f"{name} has"
            wanted = _DEAL_SIZES[name]
            raise _FieldProblem(
                name,
                None,
                f"{what}, not {len(parsed)}"
                if name == "removed"
                else f"{what} {wanted} cards, not {len(parsed)}",
            )
        cards[name] = tuple(parsed)
    try:
        return Deal(cards["removed"][0], (cards["hand1"], cards["hand2"]), cards["deck"])
    except DealError as error:
        raise _FieldProblem("", None, f"not a deal of the 21 cards: {error}") from None


def _move_problem(token: str, error: InvalidMoveError) -> str:
    """``'S:X' is not a move: ...`` without the core's own repetition of the text."""
    message = str(error)
    echo = f"{token!r}: "
    if message.startswith(echo):
        message = message[len(echo) :]
    return f"{token!r} is not a move: {message}"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


# -- the text reader ----------------------------------------------------------------


@dataclass
class _RoundDraft:
    number: int
    line: int
    column: int
    deal: Deal | None = None
    deal_line: int | None = None
    turns: int = 0
    moves: list[Move] = field(default_factory=list)
    places: list[tuple[int, int]] = field(default_factory=list)


class _TextReader:
    """Reads the text form line by line, remembering where each tag, round and decision
    was, so that a problem found later (in the shared checks or the replay) has a place."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        self.lines = text.split("\n")
        self.tags: list[tuple[str, str]] = []
        self.tag_places: list[tuple[int, int, int]] = []
        self.rounds: list[_RoundDraft] = []

    def read(self, check: bool) -> GameRecord:
        for number, line in enumerate(self.lines, start=1):
            self._line(number, line)
        rounds = tuple(
            RecordRound(draft.number, draft.deal, tuple(draft.moves)) for draft in self.rounds
        )
        tags = tuple(self.tags)
        try:
            return _assemble(tags, rounds, check)
        except _Problem as problem:
            raise self._located_error(problem, rounds) from None

    def _located_error(self, problem: _Problem, rounds: Sequence[RecordRound]) -> RecordError:
        where = problem.where
        if where.tag is not None:
            line, name_column, value_column = self.tag_places[where.tag]
            column = name_column if where.field == "name" else value_column
            return RecordError(problem.reason, line=line, column=column)
        if where.round is not None:
            draft = self.rounds[where.round]
            if where.move is not None:
                line, column = draft.places[where.move]
                turn = _turn_of(rounds[where.round].moves, where.move)
                return RecordError(
                    problem.reason, line=line, column=column, round=draft.number, turn=turn
                )
            return RecordError(problem.reason, line=draft.line, column=draft.column)
        line = self.tag_places[0][0] if self.tag_places else 1
        return RecordError(problem.reason, line=line, column=1)

    def _line(self, number: int, line: str) -> None:
        stripped = line.lstrip()
        if stripped.startswith("["):
            if self.rounds:
                raise RecordError(
                    "tags come before the first round",
                    line=number,
                    column=len(line) - len(stripped) + 1,
                )
            self._tags(number, line, len(line) - len(stripped))
            return
        content = line.split("#", 1)[0]
        tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(content)]
        if not tokens:
            return
        first, start = tokens[0]
        if first.lower() == "round":
            self._round(number, tokens)
        elif first.lower() == "deal":
            self._deal(number, tokens)
        else:
            turn = _TURN_NUMBER.match(content, start)
            if turn is None:
                raise RecordError(
                    "expected a tag, 'Round N', a Deal line or a numbered turn such as '1. S:D'",
                    line=number,
                    column=start + 1,
                )
            self._turn(number, content, turn)

    def _tags(self, number: int, line: str, at: int) -> None:
        def fail(reason: str, position: int) -> RecordError:
            return RecordError(reason, line=number, column=position + 1)

        def skip_space(position: int) -> int:
            while position < len(line) and line[position].isspace():
                position += 1
            return position

        position = at
        while True:
            position = skip_space(position + 1)  # past '['
            name_match = _TAG_NAME.match(line, position)
            if name_match is None:
                raise fail(
                    'a tag is [Name "value"], its name a letter then letters, digits or _',
                    position,
                )
            name = name_match.group()
            name_at = position
            position = skip_space(name_match.end())
            if position >= len(line) or line[position] != '"':
                raise fail(
                    f'the {name} tag\'s value goes in double quotes: [{name} "..."]', position
                )
            opening = position
            position += 1
            value: list[str] = []
            while True:
                if position >= len(line):
                    raise fail(f"the {name} tag's value has no closing '\"'", opening)
                char = line[position]
                if char == "\\":
                    if position + 1 < len(line) and line[position + 1] in '\\"':
                        value.append(line[position + 1])
                        position += 2
                        continue
                    raise fail("in a tag value, '\\' comes before only '\\' or '\"'", position)
                position += 1
                if char == '"':
                    break
                value.append(char)
            position = skip_space(position)
            if position >= len(line) or line[position] != "]":
                raise fail(f"the {name} tag ends with ']' after its value", position)
            self.tags.append((name, "".join(value)))
            self.tag_places.append((number, name_at + 1, opening + 2))
            position = skip_space(position + 1)
            if position >= len(line) or line[position] == "#":
                return
            if line[position] != "[":
                raise fail(
                    "after a tag comes another tag, a comment ('#') or the line's end", position
                )

    def _round(self, number: int, tokens: list[tuple[str, int]]) -> None:
        keyword_at = tokens[0][1]
        expected = len(self.rounds) + 1
        if len(tokens) < 2:
            raise RecordError(
                f"expected 'Round {expected}'", line=number, column=keyword_at + len("Round") + 1
            )
        text, at = tokens[1]
        # Compared as text: isdigit() takes digits int() refuses ('²'), and int() refuses
        # more digits than sys.get_int_max_str_digits().
        if not (text.isascii() and text.isdigit()) or text.lstrip("0") != str(expected):
            raise RecordError(
                f"expected round {expected} here, not {text!r}", line=number, column=at + 1
            )
        if len(tokens) > 2:
            raise RecordError(
                "a Round line holds only 'Round N'", line=number, column=tokens[2][1] + 1
            )
        self.rounds.append(_RoundDraft(expected, number, keyword_at + 1))

    def _deal(self, number: int, tokens: list[tuple[str, int]]) -> None:
        keyword_at = tokens[0][1]
        if not self.rounds:
            raise RecordError(
                "a Deal line belongs to a round: put it after 'Round N'",
                line=number,
                column=keyword_at + 1,
            )
        draft = self.rounds[-1]
        if draft.deal_line is not None:
            raise RecordError(
                f"round {draft.number} already has its Deal (line {draft.deal_line})",
                line=number,
                column=keyword_at + 1,
            )
        if draft.turns:
            raise RecordError(
                f"the Deal of round {draft.number} comes right after 'Round {draft.number}',"
                " before its turns",
                line=number,
                column=keyword_at + 1,
            )
        fields: dict[str, str] = {}
        value_at: dict[str, int] = {}
        for token, at in tokens[1:]:
            key, colon, value = token.partition(":")
            if not colon or key.lower() not in _DEAL_FIELDS:
                raise RecordError(
                    "a Deal line's fields are removed:X hand1:XXXXXX hand2:XXXXXX deck:XXXXXXXX",
                    line=number,
                    column=at + 1,
                )
            key = key.lower()
            if key in fields:
                raise RecordError(f"the Deal gives {key} twice", line=number, column=at + 1)
            fields[key] = value
            value_at[key] = at + len(key) + 1
        missing = [key for key in _DEAL_FIELDS if key not in fields]
        if missing:
            end = tokens[-1][1] + len(tokens[-1][0])
            raise RecordError(f"the Deal has no {', '.join(missing)}", line=number, column=end + 1)
        try:
            deal = _deal_from_fields(fields)
        except _FieldProblem as problem:
            if not problem.field:
                column = keyword_at + 1
            else:
                column = value_at[problem.field] + (problem.offset or 0) + 1
            raise RecordError(problem.reason, line=number, column=column) from None
        draft.deal = deal
        draft.deal_line = number

    def _turn(self, number: int, content: str, turn: re.Match[str]) -> None:
        number_at = turn.start()
        if not self.rounds:
            raise RecordError("a turn comes after 'Round 1'", line=number, column=number_at + 1)
        draft = self.rounds[-1]
        given = turn.group(1)  # compared as text: int() refuses very long numbers
        expected = draft.turns + 1
        if expected > TURNS_PER_ROUND:
            raise RecordError(
                f"round {draft.number} already has its 8 turns: the next round starts with"
                f" 'Round {draft.number + 1}'",
                line=number,
                column=number_at + 1,
            )
        if given.lstrip("0") != str(expected):
            raise RecordError(
                f"expected turn {expected} here, not turn {given}",
                line=number,
                column=number_at + 1,
            )
        tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(content, turn.end())]
        if not tokens:
            raise RecordError(
                f"turn {expected} has no decision", line=number, column=turn.end() + 1
            )
        if len(tokens) > 2:
            raise RecordError(
                "a turn line holds an action and, after a Gift or Competition, its response;"
                " nothing more",
                line=number,
                column=tokens[2][1] + 1,
            )
        moves = []
        for token, at in tokens:
            try:
                moves.append(Move.from_text(token))
            except InvalidMoveError as error:
                raise RecordError(_move_problem(token, error), line=number, column=at + 1) from None
        action = moves[0]
        if action.is_response:
            raise RecordError(
                f"{action} is a response: a turn starts with its action (S:, T:, G: or C:)",
                line=number,
                column=tokens[0][1] + 1,
            )
        if len(moves) == 2:
            answer = moves[1]
            if action.kind not in _OFFERS:
                raise RecordError(
                    f"{action} is a whole turn: only a Gift or Competition is followed by a"
                    " response, and the next turn has its own numbered line",
                    line=number,
                    column=tokens[1][1] + 1,
                )
            if not answer.is_response:
                prefix = "G>" if action.kind == MoveKind.GIFT else "C>"
                raise RecordError(
                    f"after {action} comes its response ({prefix}...), not {answer}:"
                    " the next turn has its own numbered line",
                    line=number,
                    column=tokens[1][1] + 1,
                )
        draft.turns += 1
        draft.moves.extend(moves)
        draft.places.extend((number, at + 1) for _, at in tokens)


# -- the JSON reader ----------------------------------------------------------------


class _JsonObject(dict[str, object]):
    """A JSON object that remembers a key given twice (``json`` keeps only the last)."""

    duplicate: str | None = None


def _json_object(pairs: list[tuple[str, object]]) -> _JsonObject:
    result = _JsonObject()
    for key, value in pairs:
        if key in result and result.duplicate is None:
            result.duplicate = key
        result[key] = value
    return result


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _key_path(path: str, key: str) -> str:
    if _TAG_NAME.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


_JSON_DEPTH = 100
"""How deep a record's JSON arrays and objects may nest when ``json`` cannot read them
for their depth (a record's own go 4 deep)."""

_JSON_TOKEN = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"'  # a string, skipped
    r"|[\[{\]}]"
    r"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"  # a number
)


def _beyond_json_limits(text: str, error: Exception) -> RecordError:
    """The error for a JSON text that ``json`` refuses for its size, not its syntax:
    arrays and objects nested past the recursion limit, or an integer of more digits
    than ``int`` reads. The place is found by scanning the text for it."""
    depth = 0
    digits = sys.get_int_max_str_digits()
    for token in _JSON_TOKEN.finditer(text):
        value = token.group()
        if value in ("[", "{"):
            depth += 1
            if isinstance(error, RecursionError) and depth > _JSON_DEPTH:
                reason = f"arrays and objects nest more than {_JSON_DEPTH} deep"
                break
        elif value in ("]", "}"):
            depth -= 1
        elif (
            isinstance(error, ValueError)
            and value.lstrip("-").isdigit()  # not a string, nor a number with a fraction
            and 0 < digits < len(value.lstrip("-"))
        ):
            reason = f"a whole number has more than {digits} digits"
            break
    else:  # pragma: no cover - json refused something this scan does not find
        return RecordError(f"not JSON this reader takes: {error}", line=1, column=1)
    start = token.start()
    line = text.count("\n", 0, start) + 1
    column = start - text.rfind("\n", 0, start)
    return RecordError(f"not JSON this reader takes: {reason}", line=line, column=column)


class _JsonReader:
    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        self.text = text
        self.tags_are_object = True

    def read(self, check: bool) -> GameRecord:
        try:
            data = json.loads(self.text, object_pairs_hook=_json_object)
        except json.JSONDecodeError as error:
            raise RecordError(
                f"not JSON: {error.msg}", line=error.lineno, column=error.colno
            ) from None
        except (RecursionError, ValueError) as error:
            raise _beyond_json_limits(self.text, error) from None
        top = self._object(data, "$", required=("format", "version", "tags", "rounds"), optional=())
        if top["format"] != JSON_FORMAT:
            raise RecordError(
                f"the format is {JSON_FORMAT!r}, not {top['format']!r}", path="$.format"
            )
        version = top["version"]
        if isinstance(version, bool) or version != JSON_VERSION:
            raise RecordError(
                f"this reader knows version {JSON_VERSION}, not {version!r}", path="$.version"
            )
        tags = self._tags(top["tags"])
        rounds = self._rounds(top["rounds"])
        try:
            return _assemble(tags, rounds, check)
        except _Problem as problem:
            raise self._located_error(problem, tags, rounds) from None

    def _located_error(
        self,
        problem: _Problem,
        tags: Sequence[tuple[str, str]],
        rounds: Sequence[RecordRound],
    ) -> RecordError:
        where = problem.where
        if where.tag is not None:
            if self.tags_are_object:
                path = _key_path("$.tags", tags[where.tag][0])
            else:
                path = f"$.tags[{where.tag}][{0 if where.field == 'name' else 1}]"
            return RecordError(problem.reason, path=path)
        if where.round is not None:
            path = f"$.rounds[{where.round}]"
            if where.move is not None:
                turn = _turn_of(rounds[where.round].moves, where.move)
                return RecordError(
                    problem.reason,
                    path=f"{path}.moves[{where.move}]",
                    round=where.round + 1,
                    turn=turn,
                )
            if where.field is not None:
                path = f"{path}.{where.field}"
            return RecordError(problem.reason, path=path)
        return RecordError(problem.reason, path="$.tags")

    def _object(
        self,
        value: object,
        path: str,
        required: tuple[str, ...],
        optional: tuple[str, ...],
    ) -> dict[str, object]:
        if not isinstance(value, dict):
            raise RecordError(f"expected an object, not {_json_type(value)}", path=path)
        if isinstance(value, _JsonObject) and value.duplicate is not None:
            raise RecordError(
                f"the key {value.duplicate!r} is given twice", path=_key_path(path, value.duplicate)
            )
        for key in value:
            if key not in required and key not in optional:
                known = ", ".join(repr(k) for k in (*required, *optional))
                raise RecordError(
                    f"unknown key {key!r} (the keys are {known})", path=_key_path(path, key)
                )
        for key in required:
            if key not in value:
                raise RecordError(f"the object has no {key!r}", path=path)
        return value

    def _string(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            raise RecordError(f"expected a string, not {_json_type(value)}", path=path)
        return value

    def _list(self, value: object, path: str) -> list[object]:
        if not isinstance(value, list):
            raise RecordError(f"expected an array, not {_json_type(value)}", path=path)
        return value

    def _tags(self, value: object) -> tuple[tuple[str, str], ...]:
        if isinstance(value, list):
            self.tags_are_object = False
            tags = []
            for index, entry in enumerate(value):
                path = f"$.tags[{index}]"
                pair = self._list(entry, path)
                if len(pair) != 2:
                    raise RecordError(f"a tag is [name, value], not {len(pair)} items", path=path)
                tags.append(
                    (self._string(pair[0], f"{path}[0]"), self._string(pair[1], f"{path}[1]"))
                )
            return tuple(tags)
        if not isinstance(value, dict):
            raise RecordError(
                f"the tags are an object (or an array of [name, value]), not {_json_type(value)}",
                path="$.tags",
            )
        tag_object = self._object(value, "$.tags", required=(), optional=tuple(value))
        return tuple(
            (name, self._string(tag_value, _key_path("$.tags", name)))
            for name, tag_value in tag_object.items()
        )

    def _rounds(self, value: object) -> tuple[RecordRound, ...]:
        rounds = []
        for index, entry in enumerate(self._list(value, "$.rounds")):
            path = f"$.rounds[{index}]"
            fields = self._object(entry, path, required=("round", "moves"), optional=("deal",))
            number = fields["round"]
            if isinstance(number, bool) or not isinstance(number, int):
                raise RecordError(
                    f"a round number is a whole number, not {_json_type(number)}",
                    path=f"{path}.round",
                )
            deal_value = fields.get("deal")
            deal = None if deal_value is None else self._deal(deal_value, f"{path}.deal")
            moves = []
            for move_index, move_value in enumerate(self._list(fields["moves"], f"{path}.moves")):
                move_path = f"{path}.moves[{move_index}]"
                text = self._string(move_value, move_path)
                try:
                    moves.append(Move.from_text(text))
                except InvalidMoveError as error:
                    raise RecordError(_move_problem(text, error), path=move_path) from None
            rounds.append(RecordRound(number, deal, tuple(moves)))
        return tuple(rounds)

    def _deal(self, value: object, path: str) -> Deal:
        fields = self._object(value, path, required=("removed", "hands", "deck"), optional=())
        hands = self._list(fields["hands"], f"{path}.hands")
        if len(hands) != 2:
            raise RecordError(
                f"a deal has the hands of seat 0 and seat 1, not {len(hands)}",
                path=f"{path}.hands",
            )
        paths = {
            "removed": f"{path}.removed",
            "hand1": f"{path}.hands[0]",
            "hand2": f"{path}.hands[1]",
            "deck": f"{path}.deck",
        }
        letters = {
            "removed": self._string(fields["removed"], paths["removed"]),
            "hand1": self._string(hands[0], paths["hand1"]),
            "hand2": self._string(hands[1], paths["hand2"]),
            "deck": self._string(fields["deck"], paths["deck"]),
        }
        try:
            return _deal_from_fields(letters)
        except _FieldProblem as problem:
            raise RecordError(problem.reason, path=paths.get(problem.field, path)) from None
