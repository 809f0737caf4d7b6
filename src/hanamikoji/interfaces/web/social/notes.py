"""The ``social`` events between instances (``cluster/events.py``): a message for some
players' pages, wherever they are open. The write that makes a challenge, ends it or
accepts it sends, with its commit, the message each side's pages are to get; every other
instance hands it to the pages it has of those players (``presence.SitePages``), and the
writing instance to its own.

>>> from hanamikoji.interfaces.web.wire.social_messages import ChallengeGone
>>> note = note_of(("p1", "p2"), ChallengeGone(id="c1", reason="declined"))
>>> decode_note(encode_note(note)) == note, note.text
(True, '{"type":"challenge_gone","id":"c1","reason":"declined"}')
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
from sqlalchemy.engine import Connection

from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.wire.outgoing import WireStruct, encode

__all__ = ["TOPIC", "SocialNote", "decode_note", "encode_note", "note_of", "send_notes"]

TOPIC = "social"


class SocialNote(msgspec.Struct, frozen=True):
    """``text`` (an encoded page message) for every page of ``players``."""

    players: tuple[str, ...]
    text: str


def note_of(players: Iterable[str], message: WireStruct) -> SocialNote:
    return SocialNote(tuple(players), encode(message))


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(SocialNote)


def encode_note(note: SocialNote) -> str:
    return _encoder.encode(note).decode("utf-8")


def decode_note(data: str) -> SocialNote | None:
    """The note of an event's data; ``None`` for one this code cannot read."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError:
        return None


def send_notes(connection: Connection, origin: str, notes: Iterable[SocialNote]) -> None:
    """Tell the other instances, when ``connection``'s transaction commits."""
    events = [Event(TOPIC, ",".join(n.players)[:64], origin, data=encode_note(n)) for n in notes]
    notify(connection, *events)
