"""The JSON the game browser's routes answer (``browser/routes.py``), as typed Structs:
a page of finished public games and a player's statistics.

Nothing here holds a card: a listed game is its settings, its seats' names and its
result; its record (which names its seed) is served only for a finished public game
(``browser/export.py``).
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import UNSET, UnsetType

from hanamikoji.interfaces.web.wire.outgoing import WireStruct
from hanamikoji.interfaces.web.wire.player_answers import Opponent, Outcome

__all__ = [
    "BROWSER_ANSWERS",
    "BrowsedGame",
    "GameSearch",
    "LevelTally",
    "PlayerStatistics",
    "Tally",
    "VariantTally",
]

GameResult = Literal["1-0", "0-1", "1/2-1/2", "*"]
"""Player 1 won, Player 2 won, a draw, no result (aborted)."""


class BrowsedGame(WireStruct, frozen=True, kw_only=True, gc=False):
    """A finished public game in the browser: who sat at each seat (a bot's level, a
    player's name, or nobody named), its result and how it ended; ``outcome`` from the
    searched player's side when the search named one. ``created`` in ISO 8601."""

    id: str
    variant: str
    created: str
    rated: bool
    first_player: int
    players: tuple[Opponent, Opponent]
    result: GameResult
    termination: str | None
    outcome: Outcome | UnsetType = UNSET


class GameSearch(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/games/search``: a page of games, newest first, and the cursor of the
    next page (``None``: this is the last)."""

    games: tuple[BrowsedGame, ...]
    next: str | None


class Tally(WireStruct, frozen=True, kw_only=True, gc=False):
    """Finished games counted by how they ended for the player."""

    won: int
    lost: int
    drawn: int
    aborted: int


class VariantTally(Tally, frozen=True, kw_only=True, gc=False):
    """A player's results in one variant."""

    variant: str


class LevelTally(Tally, frozen=True, kw_only=True, gc=False):
    """A player's results against one bot level."""

    level: int


class PlayerStatistics(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/players/{name}/statistics``: an account's results in its finished public
    games: in all, by variant, as first and as second player, against each bot level."""

    name: str
    total: Tally
    variants: tuple[VariantTally, ...]
    first: Tally
    second: Tally
    bots: tuple[LevelTally, ...]


BROWSER_ANSWERS: tuple[Any, ...] = (GameSearch, PlayerStatistics)
"""Every answer here, for ``typescript.py``."""
