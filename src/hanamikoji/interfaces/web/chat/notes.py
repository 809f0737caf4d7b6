"""The ``chat`` events between instances (``cluster/events.py``): a line written on one
instance reaches the pages on the others with its commit. The event's ``data`` is the
line itself, a :class:`~.model.Line`: its room, author and words, nothing else (a line
holds no card: it cannot carry one).

>>> line = Line(1, "g", "player", 0, "p1", "Ann", "chat_hello", None, 5, 2)
>>> decode_line(encode_line(line)) == line
True
>>> decode_line("nonsense") is None
True
"""

from __future__ import annotations

import msgspec

from hanamikoji.interfaces.web.chat.model import Line

__all__ = ["TOPIC", "decode_line", "encode_line"]

TOPIC = "chat"


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Line)


def encode_line(line: Line) -> str:
    return _encoder.encode(line).decode("utf-8")


def decode_line(data: str) -> Line | None:
    """The line of an event's data; ``None`` for one this code cannot read."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError:
        return None
