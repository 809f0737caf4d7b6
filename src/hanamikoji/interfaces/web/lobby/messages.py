"""What the lobby sends its pages: the seeks a page may see when it opens (``lobby``),
each change (``seek``, ``unseek``), its place in the queue (``queued``) and, once
paired, its seat (``paired``)."""

from __future__ import annotations

from collections.abc import Iterable

from hanamikoji.interfaces.web.lobby.clients import LobbyClient, visible_to
from hanamikoji.interfaces.web.lobby.seeks import Seek
from hanamikoji.interfaces.web.payload import JSON

__all__ = [
    "lobby_message",
    "paired_message",
    "queued_message",
    "seek_message",
    "unseek_message",
]


def lobby_message(client: LobbyClient, seeks: Iterable[Seek], queued: bool) -> JSON:
    """What a page sees when it opens: its player, the seeks it may see, whether it is
    in the queue."""
    return {
        "type": "lobby",
        "you": None if client.player is None else client.player.you(),
        "seeks": [s.public(s.client == client.key) for s in seeks if visible_to(s, client)],
        "queued": queued,
    }


def seek_message(seek: Seek, mine: bool) -> JSON:
    return {"type": "seek", "seek": seek.public(mine)}


def unseek_message(seek_id: str) -> JSON:
    return {"type": "unseek", "seek": seek_id}


def queued_message(queued: bool) -> JSON:
    return {"type": "queued", "queued": queued}


def paired_message(game: str, seat: int, token: str | None) -> JSON:
    """A page's seat: with its token when known here, else opened by the session."""
    message: JSON = {"type": "paired", "game": game, "seat": seat}
    if token is not None:
        message["token"] = token
    return message
