"""The bot ladder's messages (``ladder/``): the body of ``POST /api/bot/ladder/join``,
a bot's place on the ladder, and a variant's standings (``GET /api/ladder``), which hold
nothing but public facts (names, ratings, counts of games, who is online)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from hanamikoji.interfaces.web.wire.incoming import decode_body
from hanamikoji.interfaces.web.wire.outgoing import WireStruct

__all__ = [
    "LADDER_ANSWERS",
    "LadderJoinBody",
    "LadderLine",
    "LadderPlace",
    "LadderStandings",
    "decode_ladder_join",
]


class LadderJoinBody(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/bot/ladder/join``: the variants to play (none: all) and the most
    ladder games at once."""

    variants: Annotated[
        tuple[Annotated[str, msgspec.Meta(max_length=40)], ...], msgspec.Meta(max_length=8)
    ] = ()
    concurrency: int = 1


_JOIN = msgspec.json.Decoder(LadderJoinBody)


def decode_ladder_join(body: bytes) -> LadderJoinBody:
    return decode_body(_JOIN, body or b"{}")


class LadderPlace(WireStruct, frozen=True, kw_only=True, gc=False):
    """A bot's place on the ladder after joining: its variants and cap."""

    variants: tuple[str, ...]
    concurrency: int


class LadderLine(WireStruct, frozen=True, kw_only=True, gc=False):
    """A bot in a variant's standings: its rating, its finished ladder games won, lost
    and drawn, and whether its event stream is open now."""

    name: str
    rating: int
    provisional: bool
    games: int
    won: int
    lost: int
    drawn: int
    online: bool


class LadderStandings(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/ladder?variant=``: the bots on the ladder in a variant, best first,
    and every variant the ladder has."""

    variant: str
    variants: tuple[str, ...]
    bots: tuple[LadderLine, ...]


LADDER_ANSWERS = (LadderPlace, LadderStandings)
"""The ladder routes' answers."""
