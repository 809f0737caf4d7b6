"""The ``lobby`` events between instances (``cluster/events.py``): what a write of the
lobby's rows tells the other instances with its commit, so that each keeps its copy of
the open seeks (``board.py``) without asking the database: a seek posted (the whole
seek), a seek gone (its id), a page paired (the game and the seat, never a seat's token:
the page opens its seat by its session), a page queued (the matcher looks at the queue).

>>> decode_note(encode_note(UnseekNote("s1")))
UnseekNote(seek='s1')
"""

from __future__ import annotations

import msgspec

from hanamikoji.interfaces.web.lobby.seeks import Seek

__all__ = [
    "TOPIC",
    "Note",
    "PairedNote",
    "QueueNote",
    "SeekNote",
    "UnseekNote",
    "decode_note",
    "encode_note",
]

TOPIC = "lobby"


class SeekNote(msgspec.Struct, frozen=True, tag="seek"):
    """A seek was posted."""

    seek: Seek


class UnseekNote(msgspec.Struct, frozen=True, tag="unseek"):
    """A seek went (accepted, withdrawn, or its page or instance gone)."""

    seek: str


class PairedNote(msgspec.Struct, frozen=True, tag="paired"):
    """The page ``client`` was paired: its seat of ``game``. No token: the seat is named
    for the page's player, whose session opens it."""

    client: str
    game: str
    seat: int


class QueueNote(msgspec.Struct, frozen=True, tag="queue"):
    """A page joined the queue: the matcher looks at it now."""

    client: str


Note = SeekNote | UnseekNote | PairedNote | QueueNote
"""What a ``lobby`` event's ``data`` says."""

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Note] = msgspec.json.Decoder(Note)


def encode_note(note: Note) -> str:
    return _encoder.encode(note).decode("utf-8")


def decode_note(data: str) -> Note | None:
    """The note of an event's data; ``None`` for one this code cannot read."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError:
        return None
