"""Several game records in one file, as a game site exports a player's games: the text
form (the records one after another, a blank line apart, as PGN files hold many games),
JSON (an array of the records' JSON objects), and NDJSON (one record's JSON object per
line, for a reader that takes the games as they come).

Each record is written by :class:`~hanamikoji.notation.records.GameRecord`'s own
``to_text`` and ``to_json`` and read back by its readers, so a file of one record is that
record's file. A reader's error names the game (its place in the file) and where in it.

>>> from hanamikoji import Game
>>> games = [Game(seed=7), Game(seed=8)]
>>> _ = games[0].push_text("G:FGG")
>>> records = [GameRecord.from_game(game, players=("Ann", "Bob")) for game in games]
>>> records_from_text(records_to_text(records)) == records
True
>>> records_from_json(records_to_json(records)) == records
True
>>> records_from_ndjson("".join(ndjson_line(record) for record in records)) == records
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from hanamikoji.notation.records import GameRecord, RecordError

__all__ = [
    "JSON_CLOSE",
    "JSON_OPEN",
    "json_entry",
    "ndjson_line",
    "records_from_json",
    "records_from_ndjson",
    "records_from_text",
    "records_to_json",
    "records_to_text",
    "text_entry",
]

JSON_OPEN = "[\n"
JSON_CLOSE = "]\n"
"""What a JSON file of records starts and ends with (an empty one is ``[\\n]\\n``)."""


def text_entry(record: GameRecord, first: bool) -> str:
    """``record``'s part of a text file: its text form, after a blank line unless first."""
    return record.to_text() if first else "\n" + record.to_text()


def json_entry(record: GameRecord, first: bool) -> str:
    """``record``'s part of a JSON file, between :data:`JSON_OPEN` and :data:`JSON_CLOSE`:
    its JSON object, after a comma unless first."""
    return ("" if first else ",\n") + record.to_json().rstrip("\n") + "\n"


def ndjson_line(record: GameRecord) -> str:
    """``record``'s JSON object on one line, ended by a newline."""
    compact = json.dumps(json.loads(record.to_json()), ensure_ascii=False, separators=(",", ":"))
    return compact + "\n"


def records_to_text(records: Iterable[GameRecord]) -> str:
    """The text file of ``records``."""
    return "".join(text_entry(record, index == 0) for index, record in enumerate(records))


def records_to_json(records: Iterable[GameRecord]) -> str:
    """The JSON file of ``records``."""
    parts = (json_entry(record, index == 0) for index, record in enumerate(records))
    return JSON_OPEN + "".join(parts) + JSON_CLOSE


def records_from_text(text: str, *, check: bool = True) -> list[GameRecord]:
    """Every record of a text file: a record starts at a tag line that follows a round
    (or the file's first tag line). Raises :class:`RecordError` with the file's line."""
    records = []
    for offset, chunk in _text_chunks(text):
        try:
            records.append(GameRecord.from_text(chunk, check=check))
        except RecordError as error:
            raise _placed(error, len(records), line_offset=offset) from None
    return records


def records_from_json(text: str, *, check: bool = True) -> list[GameRecord]:
    """Every record of a JSON file (an array of records' objects). Raises
    :class:`RecordError` with the record's path (``$[2].rounds[0]``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error.msg}", line=error.lineno, column=error.colno) from None
    if not isinstance(data, list):
        raise RecordError("a file of records is a JSON array", path="$")
    records = []
    for index, item in enumerate(data):
        try:
            records.append(GameRecord.from_json(json.dumps(item), check=check))
        except RecordError as error:
            raise _placed(error, index, path=f"$[{index}]") from None
    return records


def records_from_ndjson(text: str, *, check: bool = True) -> list[GameRecord]:
    """Every record of an NDJSON text (one record's object per line; blank lines are
    skipped). Raises :class:`RecordError` with the line."""
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(GameRecord.from_json(line, check=check))
        except RecordError as error:
            raise _placed(error, len(records), line_offset=number - 1) from None
    return records


def _text_chunks(text: str) -> list[tuple[int, str]]:
    """The text of each record and the number of lines before it in the file."""
    chunks: list[tuple[int, list[str]]] = []
    after_rounds = False
    for number, line in enumerate(text.splitlines()):
        shown = line.strip()
        if not shown or shown.startswith("#"):
            if chunks:
                chunks[-1][1].append(line)
            continue
        is_tag = shown.startswith("[")
        if not chunks or (is_tag and after_rounds):
            chunks.append((number, []))
        chunks[-1][1].append(line)
        after_rounds = not is_tag
    return [(offset, "\n".join(lines) + "\n") for offset, lines in chunks]


def _placed(
    error: RecordError, index: int, *, line_offset: int = 0, path: str | None = None
) -> RecordError:
    """``error`` as a file's error: the game's place first, its line in the file."""
    inner = error.path
    return RecordError(
        f"game {index + 1}: {error.reason}",
        line=None if error.line is None else error.line + line_offset,
        column=error.column,
        path=None if path is None else path + ("" if inner is None else inner.removeprefix("$")),
        round=error.round,
        turn=error.turn,
    )
