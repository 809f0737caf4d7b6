"""Every message the lobby's socket sends (``WS /lobby/ws``), as typed Structs.

``lobby/messages.py`` builds them and encodes them with ``outgoing.encode``; the socket also
sends ``outgoing``'s ``ErrorMessage`` and ``Pong``.
"""

from __future__ import annotations

import msgspec

from hanamikoji.interfaces.web.wire.outgoing import ErrorMessage, Pong, WireStruct

__all__ = [
    "LobbyPlayerInfo",
    "LobbyServerMessage",
    "LobbyState",
    "Paired",
    "PublicSeek",
    "Queued",
    "SeekPlayerInfo",
    "SeekPosted",
    "SeekWithdrawn",
    "ShownRating",
]


class ShownRating(WireStruct, frozen=True, kw_only=True, gc=False):
    """A rating as shown: rounded, and whether it is still provisional (``1500?``)."""

    rating: int
    provisional: bool


class LobbyPlayerInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """The lobby page's own player: a rating per variant."""

    name: str
    account: bool
    ratings: dict[str, ShownRating]


class SeekPlayerInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """Who posted a seek, with their rating in its variant."""

    name: str
    account: bool
    rating: int
    provisional: bool


class PublicSeek(WireStruct, frozen=True, kw_only=True, gc=False):
    """An open seek as pages see it; ``mine``: this page's own."""

    id: str
    variant: str
    time_control: str
    rated: bool
    range: tuple[int, int] | None
    player: SeekPlayerInfo
    mine: bool


class LobbyState(WireStruct, tag="lobby", frozen=True, kw_only=True, gc=False):
    """The lobby as a page opens it: its player (``None``: nobody signed in), the seeks
    it may see, and whether it waits in the quick-pairing queue."""

    you: LobbyPlayerInfo | None
    seeks: tuple[PublicSeek, ...]
    queued: bool


class SeekPosted(WireStruct, tag="seek", frozen=True, kw_only=True, gc=False):
    """A seek the page may see was posted."""

    seek: PublicSeek


class SeekWithdrawn(WireStruct, tag="unseek", frozen=True, kw_only=True, gc=False):
    """A seek went (taken, cancelled, or its page closed): its id."""

    seek: str


class Queued(WireStruct, tag="queued", frozen=True, kw_only=True, gc=False):
    """The page joined (``true``) or left (``false``) the quick-pairing queue."""

    queued: bool


class Paired(WireStruct, tag="paired", frozen=True, kw_only=True, gc=False):
    """A game was made for the page: its seat, with the seat's token when this
    instance made the game (else the session opens the seat)."""

    game: str
    seat: int
    token: str | msgspec.UnsetType = msgspec.UNSET


LobbyServerMessage = LobbyState | SeekPosted | SeekWithdrawn | Queued | Paired | ErrorMessage | Pong
"""Whatever the lobby's socket sends."""
