"""What the lobby sends its pages: the seeks a page may see when it opens (``lobby``),
each change (``seek``, ``unseek``), its place in the queue (``queued``) and, once
paired, its seat (``paired``); the messages themselves are typed in
``wire/lobby_messages.py``."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from hanamikoji.interfaces.web.lobby.clients import LobbyClient, visible_to
from hanamikoji.interfaces.web.lobby.seeks import Seek
from hanamikoji.interfaces.web.wire.lobby_messages import (
    LobbyState,
    Paired,
    Queued,
    SeekPosted,
    SeekWithdrawn,
)

__all__ = [
    "lobby_message",
    "paired_message",
    "queued_message",
    "seek_message",
    "unseek_message",
]


def lobby_message(client: LobbyClient, seeks: Iterable[Seek], queued: bool) -> LobbyState:
    """What a page sees when it opens: its player, the seeks it may see, whether it is
    in the queue."""
    return LobbyState(
        you=None if client.player is None else client.player.you(),
        seeks=tuple(s.public(s.client == client.key) for s in seeks if visible_to(s, client)),
        queued=queued,
    )


def seek_message(seek: Seek, mine: bool) -> SeekPosted:
    return SeekPosted(seek=seek.public(mine))


def unseek_message(seek_id: str) -> SeekWithdrawn:
    return SeekWithdrawn(seek=seek_id)


def queued_message(queued: bool) -> Queued:
    return Queued(queued=queued)


def paired_message(game: str, seat: int, token: str | None) -> Paired:
    """A page's seat: with its token when known here, else opened by the session."""
    return Paired(game=game, seat=seat, token=msgspec.UNSET if token is None else token)
