"""The JSON form of a game record (see :mod:`~hanamikoji.notation.records` and
``docs/records.md``): writing it, and reading it back with the JSON path of anything
wrong (or the line and column of a text that is not JSON)."""

from __future__ import annotations

import json
import re
import sys

from hanamikoji.core.errors import InvalidMoveError
from hanamikoji.core.moves import Move
from hanamikoji.core.rng import Deal
from hanamikoji.notation.record_deals import FieldProblem, deal_from_fields, deal_json
from hanamikoji.notation.record_shape import (
    TAG_NAME,
    Problem,
    RecordError,
    RecordRound,
    move_problem,
    turn_of,
)

JSON_FORMAT = "hanamikoji-record"
JSON_VERSION = 1


def json_of(tags: tuple[tuple[str, str], ...], rounds: tuple[RecordRound, ...]) -> str:
    """The JSON form of a record's tags and rounds, a round a line."""

    def dump(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    tag_lines = ",\n".join(f"    {dump(name)}: {dump(value)}" for name, value in tags)
    round_lines = ",\n".join(
        "    "
        + dump(
            {
                "round": rnd.number,
                "deal": None if rnd.deal is None else deal_json(rnd.deal),
                "moves": [move.text() for move in rnd.moves],
            }
        )
        for rnd in rounds
    )
    return (
        "{\n"
        f'  "format": {dump(JSON_FORMAT)},\n'
        f'  "version": {JSON_VERSION},\n'
        f'  "tags": {{\n{tag_lines}\n  }},\n'
        + (f'  "rounds": [\n{round_lines}\n  ]\n' if round_lines else '  "rounds": []\n')
        + "}\n"
    )


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
    if TAG_NAME.fullmatch(key):
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


class JsonReader:
    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise RecordError(f"a record is text, not {type(text).__name__}")
        self.text = text
        self.tags_are_object = True
        self.read_tags: tuple[tuple[str, str], ...] = ()
        self.read_rounds: tuple[RecordRound, ...] = ()

    def read(self) -> tuple[tuple[tuple[str, str], ...], tuple[RecordRound, ...]]:
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
        self.read_tags = self._tags(top["tags"])
        self.read_rounds = self._rounds(top["rounds"])
        return self.read_tags, self.read_rounds

    def located_error(self, problem: Problem) -> RecordError:
        """The error for ``problem``, at its JSON path."""
        tags, rounds = self.read_tags, self.read_rounds
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
                turn = turn_of(rounds[where.round].moves, where.move)
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
                    raise RecordError(move_problem(text, error), path=move_path) from None
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
            return deal_from_fields(letters)
        except FieldProblem as problem:
            raise RecordError(problem.reason, path=paths.get(problem.field, path)) from None
