"""Who is in the lobby: a page (:class:`LobbyClient`) and its player (:class:`LobbyPlayer`:
the session's guest or account, or nobody), who may see a seek, and who may seek.

A rated game needs an account on both sides. Two players of whom one blocked the other
(``social/relations.py``) never see each other's seeks nor accept them. Ratings are per
variant: a seek's range, and the quick-pairing gap, use the ratings in the game's
variant; a player with no rating in it counts as Glicko-2's new player: 1500,
provisional.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from hanamikoji.arena.glicko2 import Rating, provisional
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.lobby.seeks import Seek, SeekPlayer
from hanamikoji.interfaces.web.wire.lobby_messages import LobbyPlayerInfo, ShownRating
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = ["LobbyClient", "LobbyPlayer", "player_of", "visible_to"]


@dataclass(frozen=True, slots=True)
class LobbyPlayer:
    """Who is in the lobby: the session's player (``account`` or a guest), their
    rating in each variant they have one in, and the players they blocked or were
    blocked by (``avoids``, read as the page opens)."""

    id: str
    name: str
    account: bool
    ratings: Mapping[str, Rating] = field(default_factory=dict)
    avoids: frozenset[str] = frozenset()
    bot: bool = False
    """A bot account (``bots/``): it plays challenges, never the lobby's pairing."""

    def rating(self, variant: str) -> Rating:
        """The rating in ``variant``; a new player's (1500, provisional) without one."""
        rating = self.ratings.get(variant)
        return Rating() if rating is None else rating

    def in_seek(self, variant: str) -> SeekPlayer:
        """The player as a seek of ``variant`` shows them, on every instance."""
        rating = self.rating(variant)
        return SeekPlayer(self.id, self.name, self.account, rating.rating, provisional(rating))

    def rating_json(self, variant: str) -> ShownRating:
        rating = self.rating(variant)
        return ShownRating(rating=round(rating.rating), provisional=provisional(rating))

    def you(self) -> LobbyPlayerInfo:
        """The player as their own lobby page shows them: a rating per variant."""
        ratings = {variant: self.rating_json(variant) for variant in VARIANTS}
        return LobbyPlayerInfo(name=self.name, account=self.account, ratings=ratings)


class LobbyClient:
    """One open lobby page: its player (``None``: nobody signed in, it may only look)
    and where its messages go."""

    def __init__(self, player: LobbyPlayer | None, send: Callable[[str], None]) -> None:
        self.player = player
        self.send = send
        self.key = secrets.token_urlsafe(9)


def visible_to(seek: Seek, client: LobbyClient) -> bool:
    """Whether the page ``client`` may see ``seek``: its own, or its player is in range
    and neither blocked the other."""
    if client.key == seek.client:
        return True
    player = client.player
    if player is None or seek.player.id in player.avoids:
        return False
    return seek.admits(player.rating(seek.variant).rating)


def player_of(client: LobbyClient, *, rated: bool) -> LobbyPlayer:
    """The page's player, who may seek or accept: refused without one, or without an
    account for a rated game."""
    if client.player is None:
        raise Refused("err_signed_out")
    if rated and not client.player.account:
        raise Refused("err_rated_account")
    return client.player
