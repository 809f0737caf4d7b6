"""Puzzle files: JSON lines, a header line with the schema version, a puzzle a line.

The first line is ``{"format": "hanamikoji-puzzles", "schema": 1}``; each other line one
puzzle (:func:`puzzle_json`). :func:`read_puzzles` checks every field's type and, unless
told not to, that each puzzle replays and is consistent (:meth:`Puzzle.check`), and
raises :class:`~hanamikoji.puzzles.model.PuzzleError` naming the file, the line and the
field. :func:`shipped_puzzles` reads the set shipped in the package
(``puzzles/data/puzzles.jsonl.gz``: a file named ``.gz`` is gzipped).
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path

from hanamikoji.puzzles.model import Method, Puzzle, PuzzleError

__all__ = [
    "FORMAT",
    "SCHEMA",
    "append_puzzles",
    "parse_puzzles",
    "puzzle_from_json",
    "puzzle_json",
    "read_puzzles",
    "shipped_puzzles",
    "write_puzzles",
]

FORMAT = "hanamikoji-puzzles"
SCHEMA = 1
"""The schema version this module reads and writes."""
HEADER = json.dumps({"format": FORMAT, "schema": SCHEMA})
FIELDS = frozenset(
    [
        "id",
        "variant",
        "seed",
        "first",
        "moves",
        "seat",
        "solution",
        "values",
        "margin",
        "method",
        "worlds",
        "themes",
        "level",
        "source",
    ]
)
"""The fields of a puzzle's JSON form, every one required..."""
OPTIONAL = frozenset(["greedy"])
"""...and these may be left out (``greedy``: the decision greedy chose when it was mined)."""


def puzzle_json(puzzle: Puzzle) -> dict[str, object]:
    """The puzzle as JSON-ready data (values rounded to 4 decimals); moves one string."""
    return {
        "id": puzzle.id,
        "variant": puzzle.variant,
        "seed": puzzle.seed,
        "first": puzzle.first_player,
        "moves": " ".join(puzzle.moves),
        "seat": puzzle.seat,
        "solution": puzzle.solution,
        "values": [[text, round(value, 4)] for text, value in puzzle.values],
        "margin": round(puzzle.margin, 4),
        "method": puzzle.method.value,
        "worlds": puzzle.worlds,
        "themes": list(puzzle.themes),
        "level": puzzle.level,
        "source": puzzle.source,
    } | ({} if puzzle.greedy is None else {"greedy": puzzle.greedy})


def _field(data: dict[str, object], name: str) -> object:
    if name not in data:
        raise PuzzleError(f"missing field {name!r}")
    return data[name]


def _wrong(name: str, value: object) -> PuzzleError:
    return PuzzleError(f"field {name!r} has the wrong type ({type(value).__name__})")


def _str(data: dict[str, object], name: str) -> str:
    value = _field(data, name)
    if not isinstance(value, str):
        raise _wrong(name, value)
    return value


def _int(data: dict[str, object], name: str) -> int:
    value = _field(data, name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _wrong(name, value)
    return value


def _float(data: dict[str, object], name: str) -> float:
    value = _field(data, name)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _wrong(name, value)
    return float(value)


def _list(data: dict[str, object], name: str) -> list[object]:
    value = _field(data, name)
    if not isinstance(value, list):
        raise _wrong(name, value)
    return value


def _value_pair(item: object) -> tuple[str, float]:
    if (
        not isinstance(item, list)
        or len(item) != 2
        or not isinstance(item[0], str)
        or not isinstance(item[1], int | float)
        or isinstance(item[1], bool)
    ):
        raise PuzzleError("field 'values' holds [decision, value] pairs")
    return item[0], float(item[1])


def puzzle_from_json(data: object) -> Puzzle:
    """A puzzle from its JSON form, every field's type checked (not its replay)."""
    if not isinstance(data, dict):
        raise PuzzleError("a puzzle is a JSON object")
    values = _list(data, "values")
    themes = _list(data, "themes")
    method = _str(data, "method")
    if not all(isinstance(theme, str) for theme in themes):
        raise PuzzleError("field 'themes' holds strings")
    try:
        known = Method(method)
    except ValueError:
        raise PuzzleError(f"field 'method' is 'proved' or 'searched', not {method!r}") from None
    greedy = data.get("greedy")
    if greedy is not None and not isinstance(greedy, str):
        raise _wrong("greedy", greedy)
    extra = set(data) - FIELDS - OPTIONAL
    if extra:
        raise PuzzleError(f"unknown fields {sorted(extra)}")
    return Puzzle(
        id=_str(data, "id"),
        variant=_str(data, "variant"),
        seed=_int(data, "seed"),
        first_player=_int(data, "first"),
        moves=tuple(_str(data, "moves").split()),
        seat=_int(data, "seat"),
        solution=_str(data, "solution"),
        values=tuple(_value_pair(item) for item in values),
        margin=_float(data, "margin"),
        method=known,
        worlds=_int(data, "worlds"),
        themes=tuple(str(theme) for theme in themes),
        level=_int(data, "level"),
        source=_str(data, "source"),
        greedy=greedy,
    )


def parse_puzzles(
    lines: Iterable[str], name: str = "<puzzles>", check: bool = True
) -> Iterator[Puzzle]:
    """The puzzles of a file's lines (see the module's docstring); ``name`` names the file
    in errors. Ids are unique."""
    seen: set[str] = set()
    header = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise PuzzleError(f"{name} line {number}: not JSON ({error.msg})") from None
        if not header:
            if data != {"format": FORMAT, "schema": SCHEMA}:
                raise PuzzleError(
                    f"{name} line {number}: the header is {HEADER}, not {line.strip()[:80]}"
                )
            header = True
            continue
        try:
            puzzle = puzzle_from_json(data)
            if puzzle.id in seen:
                raise PuzzleError(f"the id {puzzle.id!r} is not unique")
            seen.add(puzzle.id)
            if check:
                puzzle.check()
        except PuzzleError as error:
            said = str(error)
            known = data.get("id") if isinstance(data, dict) else None
            if isinstance(known, str) and not said.startswith("puzzle "):
                said = f"puzzle {known}: {said}"
            raise PuzzleError(f"{name} line {number}: {said}") from None
        yield puzzle
    if not header:
        raise PuzzleError(f"{name}: no header line")


def _read_text(path: Path) -> str:
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    return path.read_text(encoding="utf-8")


def read_puzzles(path: str | os.PathLike[str], check: bool = True) -> list[Puzzle]:
    """Every puzzle of the file at ``path`` (:func:`parse_puzzles`); gzipped if its name
    ends in ``.gz``."""
    return list(parse_puzzles(_read_text(Path(path)).splitlines(), str(path), check))


def _line(puzzle: Puzzle) -> str:
    return json.dumps(puzzle_json(puzzle), separators=(",", ":")) + "\n"


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` at ``path`` at once (a temporary file renamed), gzipped with no
    time stamp (the same bytes for the same puzzles) if the name ends in ``.gz``."""
    data = text.encode("utf-8")
    if path.suffix == ".gz":
        data = gzip.compress(data, compresslevel=9, mtime=0)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    partial.replace(path)


def write_puzzles(path: str | os.PathLike[str], puzzles: Iterable[Puzzle]) -> None:
    """Write a puzzle file: the header, then the puzzles (gzipped if named ``.gz``)."""
    _write_text(Path(path), HEADER + "\n" + "".join(_line(puzzle) for puzzle in puzzles))


def append_puzzles(path: str | os.PathLike[str], puzzles: Iterable[Puzzle]) -> None:
    """Add puzzles at the end of a puzzle file, writing its header first if it is new (a
    gzipped file is written again whole)."""
    target = Path(path)
    lines = "".join(_line(puzzle) for puzzle in puzzles)
    new = not target.exists() or target.stat().st_size == 0
    if target.suffix == ".gz":
        if lines or new:
            _write_text(target, (HEADER + "\n" if new else _read_text(target)) + lines)
        return
    with open(target, "a", encoding="utf-8") as file:
        if new:
            file.write(HEADER + "\n")
        file.write(lines)


SHIPPED = "data/puzzles.jsonl.gz"
"""The shipped set, in the package ``hanamikoji.puzzles``."""


@cache
def shipped_puzzles(check: bool = False) -> tuple[Puzzle, ...]:
    """The puzzle set shipped in the package (types checked; replays too if ``check``)."""
    data = resources.files("hanamikoji.puzzles").joinpath(SHIPPED).read_bytes()
    text = gzip.decompress(data).decode("utf-8")
    return tuple(parse_puzzles(text.splitlines(), f"puzzles/{SHIPPED}", check))
