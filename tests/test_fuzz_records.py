"""Fuzzing the game-record readers: ``GameRecord.from_text``, ``GameRecord.from_json``
and ``read_record`` on arbitrary text and on mutations of valid records (lines deleted,
duplicated, swapped or rewritten, characters edited, numbers changed, decisions
replaced; in JSON, values replaced by others of any type, keys removed or added, huge
numbers, deep nesting).

A text either reads into a consistent record (one that replays to the game it
describes and writes back to itself) or is refused with ``RecordError`` saying where:
a line and column in the text form, a JSON path (or a line and column when the text is
not JSON) in the JSON form.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fuzz_strategies import (
    HUGE_NUMBER,
    NUMBER_TEXTS,
    TRICKY_CHARS,
    WELL_FORMED,
    dealt_games,
    fuzz_settings,
    fuzz_text,
    long_text,
    mutated,
    reachable_games,
)
from hypothesis import event, example, given
from hypothesis import strategies as st

from hanamikoji.core import Game, Termination
from hanamikoji.notation.records import (
    RESULTS,
    STANDARD_TAGS,
    GameRecord,
    RecordError,
    read_record,
)

# -- valid records ----------------------------------------------------------------------------

_TAG_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(exclude_characters="\n\r"),
        st.sampled_from(TRICKY_CHARS.replace("\r", "")),
    ),
    max_size=12,
)
_EXTRA_TAG = st.tuples(
    st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True).filter(
        lambda name: name not in STANDARD_TAGS
    ),
    _TAG_TEXT,
)


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    """The record of a random game (seeded, or dealt round by round), with random
    player names, date, event and extra tags."""
    game = draw(st.one_of(reachable_games(), dealt_games()))
    return GameRecord.from_game(
        game,
        players=(draw(_TAG_TEXT), draw(_TAG_TEXT)),
        date=draw(st.none() | _TAG_TEXT),
        event=draw(st.none() | _TAG_TEXT),
        extra_tags=draw(st.lists(_EXTRA_TAG, max_size=2, unique_by=lambda tag: tag[0])),
    )


# -- mutations of the text form ---------------------------------------------------------------

_Lines = list[str]

_SOMETIMES = st.sampled_from([False] * 5 + [True])
"""True one time in six (hypothesis draws the first choices and the bounds of ranges
more often than others)."""


def _delete_line(lines: _Lines, draw: st.DrawFn) -> _Lines:
    at = draw(st.integers(0, len(lines) - 1))
    return lines[:at] + lines[at + 1 :]


def _duplicate_line(lines: _Lines, draw: st.DrawFn) -> _Lines:
    at = draw(st.integers(0, len(lines) - 1))
    return lines[: at + 1] + lines[at:]


def _swap_lines(lines: _Lines, draw: st.DrawFn) -> _Lines:
    a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines = list(lines)
    lines[a], lines[b] = lines[b], lines[a]
    return lines


def _insert_line(lines: _Lines, draw: st.DrawFn) -> _Lines:
    at = draw(st.integers(0, len(lines)))
    line = draw(st.one_of(fuzz_text(), st.sampled_from(lines), long_text("Round Deal1. ")))
    return [*lines[:at], line, *lines[at:]]


def _edit_line(lines: _Lines, draw: st.DrawFn) -> _Lines:
    at = draw(st.integers(0, len(lines) - 1))
    return [*lines[:at], draw(mutated(st.just(lines[at]))), *lines[at + 1 :]]


def _replace_token(
    lines: _Lines, draw: st.DrawFn, pattern: str, by: st.SearchStrategy[str]
) -> _Lines:
    places = [
        (number, match.span())
        for number, line in enumerate(lines)
        for match in re.finditer(pattern, line)
    ]
    if not places:
        return lines
    number, (start, end) = draw(st.sampled_from(places))
    line = lines[number]
    return [*lines[:number], line[:start] + draw(by) + line[end:], *lines[number + 1 :]]


def _change_number(lines: _Lines, draw: st.DrawFn) -> _Lines:
    return _replace_token(lines, draw, r"[0-9]+", NUMBER_TEXTS)


def _change_move(lines: _Lines, draw: st.DrawFn) -> _Lines:
    return _replace_token(lines, draw, r"[STGC][:>][A-G/]*", WELL_FORMED)


def _change_tag_value(lines: _Lines, draw: st.DrawFn) -> _Lines:
    values = st.sampled_from(
        [*RESULTS, *(t.value for t in Termination), "classic", "french/cap=²", "1", "2", "0"]
    )
    return _replace_token(lines, draw, r'(?<=")[^"]*(?="\])', values)


_LINE_EDITS: tuple[Callable[[_Lines, st.DrawFn], _Lines], ...] = (
    _change_move,  # first and twice: most often a decision the replay refuses
    _change_move,
    _delete_line,
    _duplicate_line,
    _swap_lines,
    _insert_line,
    _edit_line,
    _change_number,
    _change_move,
    _change_tag_value,
)


@st.composite
def mutated_record_texts(draw: st.DrawFn) -> str:
    """The text form of a valid record with 1 to 3 line edits, sometimes truncated."""
    lines = draw(records()).to_text().split("\n")
    for _ in range(draw(st.integers(1, 3))):
        lines = draw(st.sampled_from(_LINE_EDITS))(lines, draw)
    text = "\n".join(lines)
    if draw(_SOMETIMES):
        text = text[: draw(st.integers(0, len(text)))]
    return text


# -- mutations of the JSON form ---------------------------------------------------------------

_HUGE_MARKER = "\0huge\0"
_DEEP_MARKER = "\0deep\0"
"""Markers put in the JSON data and replaced in its text by a number of 5000 digits and
by 100,000 nested arrays (``json.dumps`` can write neither)."""

JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(),
        fuzz_text(max_size=10),
        WELL_FORMED,
        st.sampled_from([_HUGE_MARKER, _DEEP_MARKER, 1, 0, -1, 1.0, "", "classic", "1"]),
    ),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(fuzz_text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)

_Path = tuple[str | int, ...]


def _paths(value: Any, path: _Path = ()) -> list[_Path]:
    """The path of every value in a JSON document, the document's own (``()``) first."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*path, index))
    return found


@st.composite
def mutated_record_json(draw: st.DrawFn) -> str:
    """The JSON form of a valid record with 1 to 3 values replaced (by a value of any
    type, a decision, a huge number, deep nesting), removed, or added; sometimes with
    character edits of the text."""
    data: Any = json.loads(draw(records()).to_json())
    for _ in range(draw(st.integers(1, 3))):
        # Deepest first, the document itself not (the other strategy writes any JSON).
        paths = _paths(data)[:0:-1]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        action = draw(st.sampled_from(["replace", "remove", "add", "wrap"]))
        if action == "replace":
            parent[last] = draw(JSON_VALUES)
        elif action == "remove":
            del parent[last]
        elif action == "wrap":
            parent[last] = [parent[last]] if draw(st.booleans()) else {"value": parent[last]}
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["round", "deal", "moves", "Seed", "tags", "x"]))] = draw(
                JSON_VALUES
            )
        else:
            parent.insert(last, draw(JSON_VALUES))
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    text = text.replace(json.dumps(_HUGE_MARKER), HUGE_NUMBER)
    text = text.replace(json.dumps(_DEEP_MARKER), "[" * 100_000 + "]" * 100_000)
    if draw(_SOMETIMES):
        text = draw(mutated(st.just(text)))
    return text


# -- the checks -------------------------------------------------------------------------------


def assert_consistent(record: GameRecord) -> None:
    """A record read from outside replays to its own decisions and result, and writes
    back (as text and as JSON) to an equal record."""
    game = record.replay()
    assert tuple(game.move_stack) == tuple(m for rnd in record.rounds for m in rnd.moves)
    assert record.result == ("*" if game.outcome is None else game.outcome.result())
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record


def assert_placed(error: RecordError, text: str, json_form: bool) -> None:
    """A refusal has a reason and says where: a line and column within the text, or
    (JSON) a path."""
    assert str(error).strip() and error.reason.strip()
    if json_form and error.path is not None:
        assert error.path.startswith("$"), error.path
        return
    assert error.line is not None and error.column is not None, f"no place: {error}"
    lines = text.count("\n") + 1
    assert 1 <= error.line <= lines, f"{error} (the text has {lines} lines)"
    assert error.column >= 1, str(error)


Reader = Callable[..., GameRecord]


def check_reader(text: str, read: Reader, json_form: bool) -> None:
    """``read`` either gives a consistent record or a placed ``RecordError``; without the
    replay (``check=False``) it reads at least what it reads with it, and a record read
    so is refused by its replay exactly when the full read refuses it."""
    try:
        unchecked: GameRecord | None = read(text, check=False)
    except RecordError as error:
        assert_placed(error, text, json_form)
        unchecked = None
    try:
        record = read(text)
    except RecordError as error:
        event("refused by the replay" if error.round is not None else "refused")
        assert_placed(error, text, json_form)
        if unchecked is not None:
            with pytest.raises(RecordError):
                unchecked.replay()
        return
    event("read")
    assert unchecked == record
    assert_consistent(record)


# -- the tests --------------------------------------------------------------------------------


def _valid_record() -> GameRecord:
    game = Game(seed=7)
    for text in ("G:FGG", "G>F", "S:C"):
        game.push_text(text)
    return GameRecord.from_game(game)


VALID_TEXT = _valid_record().to_text()
VALID_JSON = _valid_record().to_json()


@fuzz_settings(60)
@given(records())
def test_valid_records_read_back(record: GameRecord) -> None:
    """The generator's records are valid (else the mutations start from garbage)."""
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record
    assert_consistent(record)


@fuzz_settings(1500)
@given(st.one_of(fuzz_text(max_size=200), long_text('[]"Round Deal 1.\n#'), mutated_record_texts()))
# Each of these raised ValueError (int() of '²' or of more than 4300 digits), not RecordError.
@example(VALID_TEXT.replace('[Seed "7"]', f'[Seed "{HUGE_NUMBER}"]'))
@example(VALID_TEXT.replace("Round 1", "Round ²"))
@example(VALID_TEXT.replace("Round 1", f"Round {HUGE_NUMBER}"))
@example(VALID_TEXT.replace("2. S:C", f"{HUGE_NUMBER}. S:C"))
@example(VALID_TEXT.replace('"classic"', '"classic/cap=²"'))
def test_text_records_read_or_are_refused_with_a_line(text: str) -> None:
    check_reader(text, GameRecord.from_text, json_form=False)


@fuzz_settings(1500)
@given(
    st.one_of(
        fuzz_text(alphabet='{}[]":,.-+eE0123456789 truefalsn\\', max_size=200),
        mutated_record_json(),
    )
)
# These raised RecursionError and ValueError (int() of more than 4300 digits).
@example("[" * 100_000 + "]" * 100_000)
@example(VALID_JSON.replace('"version": 1', f'"version": {HUGE_NUMBER}'))
@example(VALID_JSON.replace('"round": 1', f'"round": -{HUGE_NUMBER}'))
@example(VALID_JSON.replace('"classic"', '"classic/cap=²"'))
def test_json_records_read_or_are_refused_with_a_path(text: str) -> None:
    check_reader(text, GameRecord.from_json, json_form=True)


_BAD_BYTES = st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x00", b"\r"])


@st.composite
def record_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A record file's suffix and bytes: a valid record, as text or JSON, with bytes that
    are not UTF-8 (or a byte-order mark, a NUL, a carriage return) put in."""
    record = draw(records())
    suffix = draw(st.sampled_from([".hkr", ".json"]))
    text = record.to_json() if suffix == ".json" else record.to_text()
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate is not UTF-8
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(_BAD_BYTES) + data[at:]
    return suffix, data


@fuzz_settings(300)
@given(record_files())
@example(file=(".hkr", b"\xff" + VALID_TEXT.encode()))  # raised UnicodeDecodeError
def test_record_files_read_or_are_refused(
    tmp_path_factory: pytest.TempPathFactory, file: tuple[str, bytes]
) -> None:
    suffix, data = file
    path = Path(tmp_path_factory.mktemp("records")) / f"game{suffix}"
    path.write_bytes(data)
    try:
        record = read_record(path)
    except RecordError as error:
        event("refused")
        assert str(error).strip() and error.reason.strip()
        assert error.line is not None or error.path is not None, str(error)
        return
    event("read")
    assert_consistent(record)


def test_json_past_what_json_reads_is_placed() -> None:
    """Where the regression examples above are refused: at the array past 100 levels,
    at the first digit of the long number."""
    with pytest.raises(RecordError, match="nest more than 100 deep") as deep:
        GameRecord.from_json('{"a":\n  ' + "[" * 5000 + "]" * 5000 + "}")
    assert (deep.value.line, deep.value.column) == (2, 102)  # the 100th "[" in "{"
    text = VALID_JSON.replace('"round": 1', f'"round": -{HUGE_NUMBER}')
    with pytest.raises(RecordError, match="more than 4300 digits") as huge:
        GameRecord.from_json(text)
    start = text.index(f"-{HUGE_NUMBER}")
    assert huge.value.line == text.count("\n", 0, start) + 1
    assert huge.value.column == start - text.rfind("\n", 0, start)


def test_record_files_not_in_utf8_are_placed(tmp_path: Path) -> None:
    path = tmp_path / "game.hkr"
    path.write_bytes(VALID_TEXT.encode().replace(b"Round 1", b"Round \xff"))
    with pytest.raises(RecordError, match="not UTF-8") as error:
        read_record(path)
    line = VALID_TEXT.count("\n", 0, VALID_TEXT.index("Round 1")) + 1
    assert (error.value.line, error.value.column) == (line, 7)
    path.write_bytes(b"\xef\xbb\xbf" + VALID_TEXT.replace("\n", "\r\n").encode())
    assert read_record(path) == GameRecord.from_text(VALID_TEXT)
