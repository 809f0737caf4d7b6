"""The JSON the players' routes answer, as typed Structs (``docs/web.md``, Accounts).

A field that a game's line leaves out when it has nothing to say (a bot's level, a named
opponent's rating, a rating change of an unrated game) is ``UNSET``: left out of the
JSON, as before these were typed.
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import UNSET, UnsetType

from hanamikoji.interfaces.web.wire.answers import RatingPoint, VariantRating
from hanamikoji.interfaces.web.wire.outgoing import ClockState, WireStruct

__all__ = [
    "PLAYER_ANSWERS",
    "FinishedGame",
    "MyGames",
    "OngoingGame",
    "Opponent",
    "PlayedGame",
    "PlayerInfo",
    "PlayerPage",
    "PlayerPageGame",
    "PublicPlayer",
    "SeatClaimed",
    "SignedIn",
    "SignedOut",
]

PlayerKind = Literal["guest", "account"]
Outcome = Literal["won", "lost", "drawn", "aborted"]
"""How a finished game ended from the player's seat (``aborted``: with no result)."""


class PlayerInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """A signed-in player as the player's own page knows them."""

    id: str
    name: str
    kind: PlayerKind
    bot: bool = False


class SignedIn(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/me`` and signing in, registering, a guest's nickname: the player and
    the session's CSRF token (for ``X-CSRF-Token``)."""

    player: PlayerInfo
    csrf: str


class SignedOut(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/me`` with no session, and signing out."""

    player: None = None


class SeatClaimed(WireStruct, frozen=True, kw_only=True, gc=False):
    """``POST /api/games/{id}/claim``: the seat now named for the player."""

    seat: int
    player: PlayerInfo


class Opponent(WireStruct, frozen=True, kw_only=True, gc=False):
    """Who sits at the other seat: a bot (its ``level``), a player (``name``, and their
    current ``rating`` in the game's variant if they have one), or nobody named."""

    kind: Literal["bot", "anonymous", "guest", "account"]
    level: int | UnsetType = UNSET
    name: str | UnsetType = UNSET
    rating: VariantRating | UnsetType = UNSET
    bot: bool | UnsetType = UNSET
    """``True`` for a bot account (its BOT badge); absent for anyone else."""


class PlayerPageGame(WireStruct, frozen=True, kw_only=True, gc=False):
    """A finished game on a player's public page: no id, no seat (nothing opens it)."""

    variant: str
    created: str
    opponent: Opponent
    outcome: Outcome
    rating_delta: int | UnsetType = UNSET


class PlayedGame(WireStruct, frozen=True, kw_only=True, gc=False):
    """A game in the player's own list: its id and the player's seat."""

    id: str
    variant: str
    seat: int
    created: str
    opponent: Opponent
    rating_delta: int | UnsetType = UNSET


class OngoingGame(PlayedGame, frozen=True, kw_only=True, gc=False):
    """A game in play: decisions so far, whether it is the player's turn, its clocks."""

    ply: int
    your_turn: bool
    clock: ClockState | None


class FinishedGame(PlayedGame, frozen=True, kw_only=True, gc=False):
    """A game over, from the player's seat (``aborted``: ended with no result)."""

    outcome: Outcome


class MyGames(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/me/games``: the player, their ratings, their games in play (those
    waiting for them first) and their finished games, newest first."""

    player: PlayerInfo
    ratings: tuple[VariantRating, ...]
    ongoing: tuple[OngoingGame, ...]
    finished: tuple[FinishedGame, ...]


class PublicPlayer(WireStruct, frozen=True, kw_only=True, gc=False):
    """A player as anyone may see them (``bot``: a bot account, its BOT badge)."""

    name: str
    kind: PlayerKind
    bot: bool = False


class PlayerPage(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/players/{name}``: an account's page (its ratings, their history and its
    recent games)."""

    player: PublicPlayer
    since: str
    games: tuple[PlayerPageGame, ...]
    ratings: tuple[VariantRating, ...]
    history: tuple[RatingPoint, ...]


PLAYER_ANSWERS: tuple[Any, ...] = (SignedIn, SignedOut, SeatClaimed, MyGames, PlayerPage)
"""Every answer here, for ``typescript.py``."""
