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
the format in full. The forms are written and read by
:mod:`~hanamikoji.notation.record_text` and :mod:`~hanamikoji.notation.record_json`, and
checked by :mod:`~hanamikoji.notation.record_shape`.

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
hanamikoji.notation.record_shape.RecordError: line 10, column 4: 'S:X' is not a move: 'X' is not...
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from hanamikoji.core.errors import IllegalMoveError, UnknownVariantError
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.rng import deal_for_round
from hanamikoji.core.seats import seat_from_number, seat_number
from hanamikoji.core.variants import Variant
from hanamikoji.core.view import LogEntry
from hanamikoji.notation.outcomes import describe_outcome, seat_name
from hanamikoji.notation.record_json import JSON_FORMAT, JSON_VERSION, JsonReader, json_of
from hanamikoji.notation.record_shape import (
    FORFEIT_TAGS,
    RESULTS,
    Problem,
    RecordError,
    RecordReader,
    RecordRound,
    Where,
    check_rounds,
    check_tags,
    turn_of,
)
from hanamikoji.notation.record_text import TextReader, text_of

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
    "record_file_text",
    "write_record",
]

RECORD_SUFFIX = ".hkr"
"""The suggested file suffix of the text format (``.json`` files hold the JSON form)."""

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

RESIGNED = "resigned"
"""The :class:`Forfeit` kind of a player who gave the game up (the web's Resign)."""


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
            check_tags(self.tags)
            check_rounds(self.rounds, self.tag("Seed") is not None)
        except Problem as problem:
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
        except Problem as problem:
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
                raise Problem(
                    Where(round=index),
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
                    raise Problem(Where(round=index, move=move_index), str(error)) from None
        self._check_result(game)
        return game

    def _check_result(self, game: Game) -> None:
        outcome = game.outcome
        actual = "*" if outcome is None else outcome.result()
        names = [name for name, _ in self.tags]
        if self.result != actual:
            told = "the game is unfinished" if outcome is None else describe_outcome(outcome)
            raise Problem(
                Where(tag=names.index("Result"), field="value"),
                f"the Result tag says {self.result} but the decisions give {actual}: {told}",
            )
        termination = self.termination
        if termination is not None:
            where = Where(tag=names.index("Termination"), field="value")
            if outcome is None:
                raise Problem(
                    where, f"the Termination tag says {termination} but the game is unfinished"
                )
            if termination != outcome.termination.value:
                raise Problem(
                    where,
                    f"the Termination tag says {termination} but the game ended by"
                    f" {outcome.termination.value}: {describe_outcome(outcome)}",
                )

    def _error(self, problem: Problem) -> RecordError:
        """The error for a problem found in the model, placed by round and turn."""
        where = problem.where
        if where.round is None or where.round >= len(self.rounds):
            return RecordError(problem.reason)
        turn = None
        if where.move is not None:
            turn = turn_of(self.rounds[where.round].moves, where.move)
        return RecordError(problem.reason, round=where.round + 1, turn=turn)

    # -- text ---------------------------------------------------------------------

    def to_text(self) -> str:
        """The text form; :meth:`from_text` reads it back to an equal record."""
        return text_of(self.tags, self.rounds)

    @classmethod
    def from_text(cls, text: str, *, check: bool = True) -> GameRecord:
        """Read the text form. Raises :class:`RecordError` with the line and column.

        With ``check`` (the default) the record is also replayed, so that illegal
        decisions, decisions after the end and a wrong Result are refused with their line.
        """
        return cls._read(TextReader(text), check)

    # -- JSON ---------------------------------------------------------------------

    def to_json(self) -> str:
        """The JSON form (see ``docs/records.md``); :meth:`from_json` reads it back."""
        return json_of(self.tags, self.rounds)

    @classmethod
    def from_json(cls, text: str, *, check: bool = True) -> GameRecord:
        """Read the JSON form. Raises :class:`RecordError` naming the JSON path (or the
        line and column when the text is not JSON). ``check`` as for :meth:`from_text`."""
        return cls._read(JsonReader(text), check)

    @classmethod
    def _read(cls, reader: RecordReader, check: bool) -> GameRecord:
        """The record a reader reads, checked (and with ``check`` replayed) with each
        problem placed where the reader read it."""
        tags, rounds = reader.read()
        try:
            check_tags(tags)
            check_rounds(rounds, any(name == "Seed" for name, _ in tags))
            record = cls(tags, rounds)
            if check:
                record._replay()
        except Problem as problem:
            raise reader.located_error(problem) from None
        return record

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
    return GameRecord.parse(record_file_text(path), check=check)


def record_file_text(path: str | os.PathLike[str]) -> str:
    """A record file's text, UTF-8 (a byte-order mark skipped), its line ends made
    ``\\n``. Raises :class:`RecordError` at the first byte that is not UTF-8."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start, read = error.start, error.object
        raise RecordError(
            f"not UTF-8 text (byte {start + 1}: {read[start : start + 1]!r})",
            line=read.count(b"\n", 0, start) + 1,
            column=start - read.rfind(b"\n", 0, start),
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as read_text() reads lines


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
