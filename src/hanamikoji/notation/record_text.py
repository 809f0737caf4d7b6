"""The text form of a game record (see :mod:`~hanamikoji.notation.records` and
``docs/records.md``): writing it, and reading it back line by line with the line and
column of anything wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hanamikoji.core.errors import InvalidMoveError
from hanamikoji.core.game import TURNS_PER_ROUND
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.core.rng import Deal
from hanamikoji.notation.record_deals import DEAL_FIELDS, FieldProblem, deal_from_fields, deal_line
from hanamikoji.notation.record_shape import (
    OFFERS,
    TAG_NAME,
    Problem,
    RecordError,
    RecordRound,
    move_problem,
    turn_of,
)

_TURN_NUMBER = re.compile(r"([0-9]+)\.")
_TOKEN = re.compile(r"\S+")


def text_of(tags: tuple[tuple[str, str], ...], rounds: tuple[RecordRound, ...]) -> str:
    """The text form of a record's tags and rounds."""
    lines = [f'[{name} "{_quote(value)}"]' for name, value in tags]
    for rnd in rounds:
        lines.append("")
        lines.append(f"Round {rnd.number}")
        if rnd.deal is not None:
            lines.append(deal_line(rnd.deal))
        for number, turn in enumerate(rnd.turns(), start=1):
            lines.append(f"{number}. " + " ".join(move.text() for move in turn))
    return "\n".join(lines) + "\n"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


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


class TextReader:
    """Reads the text form line by line, remembering where each tag, round and decision
    was, so that a problem found later (in the shared checks or the replay) has a place."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        self.lines = text.split("\n")
        self.tags: list[tuple[str, str]] = []
        self.tag_places: list[tuple[int, int, int]] = []
        self.rounds: list[_RoundDraft] = []
        self.read_rounds: tuple[RecordRound, ...] = ()

    def read(self) -> tuple[tuple[tuple[str, str], ...], tuple[RecordRound, ...]]:
        for number, line in enumerate(self.lines, start=1):
            self._line(number, line)
        self.read_rounds = tuple(
            RecordRound(draft.number, draft.deal, tuple(draft.moves)) for draft in self.rounds
        )
        return tuple(self.tags), self.read_rounds

    def located_error(self, problem: Problem) -> RecordError:
        """The error for ``problem``, at its line and column."""
        where = problem.where
        rounds = self.read_rounds
        if where.tag is not None:
            line, name_column, value_column = self.tag_places[where.tag]
            column = name_column if where.field == "name" else value_column
            return RecordError(problem.reason, line=line, column=column)
        if where.round is not None:
            draft = self.rounds[where.round]
            if where.move is not None:
                line, column = draft.places[where.move]
                turn = turn_of(rounds[where.round].moves, where.move)
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
            name_match = TAG_NAME.match(line, position)
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
            if not colon or key.lower() not in DEAL_FIELDS:
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
        missing = [key for key in DEAL_FIELDS if key not in fields]
        if missing:
            end = tokens[-1][1] + len(tokens[-1][0])
            raise RecordError(f"the Deal has no {', '.join(missing)}", line=number, column=end + 1)
        try:
            deal = deal_from_fields(fields)
        except FieldProblem as problem:
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
                raise RecordError(move_problem(token, error), line=number, column=at + 1) from None
        action = moves[0]
        if action.is_response:
            raise RecordError(
                f"{action} is a response: a turn starts with its action (S:, T:, G: or C:)",
                line=number,
                column=tokens[0][1] + 1,
            )
        if len(moves) == 2:
            answer = moves[1]
            if action.kind not in OFFERS:
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
