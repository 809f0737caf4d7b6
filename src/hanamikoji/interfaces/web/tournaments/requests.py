"""What a page may send about tournaments: a new tournament's settings, a bot level to
enter. Whatever is wrong is a :class:`Refused` naming the field (``err_bad_field``):
an unknown variant, a name empty, over-long or with control characters.

>>> decode_create(b'{"name": "Friday"}').kind
'swiss'
>>> decode_create(b'{"name": "a\\\\u0007"}')
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_bad_field
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

import msgspec

from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.tournaments.model import MAX_MINUTES, MAX_ROUNDS
from hanamikoji.interfaces.web.wire.incoming import TimeControlName, decode_body
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["MAX_START_MINUTES", "CreateRequest", "LevelRequest", "decode_create", "decode_level"]

MAX_START_MINUTES = 7 * 24 * 60
"""The furthest start a tournament may be given: a week from now."""

TournamentName = Annotated[str, msgspec.Meta(min_length=1, max_length=60)]


class CreateRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/tournaments``: a Swiss of ``rounds`` or an arena of ``minutes``,
    starting ``starts_in`` minutes from now; ``invitation``: by its link only."""

    name: TournamentName
    variant: str = "classic"
    time_control: TimeControlName = "5+5"
    rated: bool = False
    kind: Literal["swiss", "arena"] = "swiss"
    rounds: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)] = 5
    minutes: Annotated[int, msgspec.Meta(ge=1, le=MAX_MINUTES)] = 60
    starts_in: Annotated[int, msgspec.Meta(ge=0, le=MAX_START_MINUTES)] = 5
    invitation: bool = False
    entry: Literal["people", "bots", "both"] = "both"


class LevelRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/tournaments/{id}/level``: the creator enters our bot level."""

    level: int


_CREATE = msgspec.json.Decoder(CreateRequest)
_LEVEL = msgspec.json.Decoder(LevelRequest)


def decode_create(body: bytes) -> CreateRequest:
    request = decode_body(_CREATE, body or b"{}")
    name = request.name.strip()
    if not name or any(unicodedata.category(c).startswith("C") for c in name):
        raise Refused("err_bad_field", field="name")
    if request.variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    return msgspec.structs.replace(request, name=name)


def decode_level(body: bytes) -> LevelRequest:
    request = decode_body(_LEVEL, body or b"{}")
    if request.level not in LEVELS:
        raise Refused("err_bad_field", field="level")
    return request
