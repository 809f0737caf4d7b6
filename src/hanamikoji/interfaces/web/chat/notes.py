"""The ``chat`` events between instances (``cluster/events.py``): a line written on one
instance reaches the pages on the others with its commit. The event's ``data`` is the
line itself, as :class:`LineNote`: its room, author and words, nothing else (a line
holds no card: it cannot carry one).

>>> note = LineNote(1, "g", "player", 0, "p1", "Ann", "chat_hello", None, 5, 2)
>>> decode_line(encode_line(note)) == note
True
>>> decode_line("nonsense") is None
True
"""

from __future__ import annotations

import msgspec

from hanamikoji.interfaces.web.chat.model import Line, Room

__all__ = ["TOPIC", "LineNote", "decode_line", "encode_line", "line_of", "note_of"]

TOPIC = "chat"


class LineNote(msgspec.Struct, frozen=True, array_like=True):
    """A stored line, as another instance hears of it."""

    id: int
    game_id: str
    room: Room
    seat: int | None
    author_id: str | None
    author_name: str | None
    preset: str | None
    text: str | None
    at: int
    ply: int


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(LineNote)


def note_of(line: Line) -> LineNote:
    return LineNote(
        line.id,
        line.game_id,
        line.room,
        line.seat,
        line.author_id,
        line.author_name,
        line.preset,
        line.text,
        line.at,
        line.ply,
    )


def line_of(note: LineNote) -> Line:
    return Line(
        note.id,
        note.game_id,
        note.room,
        note.seat,
        note.author_id,
        note.author_name,
        note.preset,
        note.text,
        note.at,
        note.ply,
    )


def encode_line(note: LineNote) -> str:
    return _encoder.encode(note).decode("utf-8")


def decode_line(data: str) -> LineNote | None:
    """The line of an event's data; ``None`` for one this code cannot read."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError:
        return None
