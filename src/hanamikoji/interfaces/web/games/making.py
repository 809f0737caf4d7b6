"""How games between named players are made, in three steps so a caller may write
them in a transaction with more (a tournament's pairing, ``tournaments/``):

1. :func:`prepare`: the game's row and its seats' tokens (:meth:`.GameHub.prepare`);
2. :func:`write_games`: the rows and their named seats, in the caller's transaction;
3. :func:`games_made`: after the commit, the hub takes on the games it owns and the
   pages open on them read their seats again.

Each game's named players are told it started (``news.py``): the write sends its note
to the other instances with the commit, :func:`games_made` to this instance's pages.

The lobby's pairings and the challenges make theirs through
``services.people_game``, which runs the three steps for one game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from hanamikoji.interfaces.clocks import TimeControl
from hanamikoji.interfaces.web.db.games import StoredGame, insert_game
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.games.live import NewGame
from hanamikoji.interfaces.web.games.news import start_note
from hanamikoji.interfaces.web.players.store import name_seat
from hanamikoji.interfaces.web.social.notes import SocialNote, send_notes

__all__ = ["GameOrder", "PreparedGame", "games_made", "prepare", "write_games"]


@dataclass(frozen=True, slots=True)
class GameOrder:
    """A game to make: the players named at seats 0 and 1 (``None`` at seat 1: our bot
    of ``bot_level``; ``None`` at seat 0 too: our bot of ``second_level``), the variant,
    the time control's name, rated, the seat that starts."""

    players: tuple[str | None, str | None]
    variant: str
    time_control: str
    rated: bool
    first: int
    bot_level: int | None = None
    second_level: int | None = None


@dataclass(frozen=True, slots=True)
class PreparedGame:
    """A game's row, its seats' tokens, and who sits where."""

    row: StoredGame
    new: NewGame
    players: tuple[str | None, str | None]


def prepare(hub: GameHub, order: GameOrder) -> PreparedGame:
    clock = TimeControl.parse(order.time_control)
    row, new = hub.prepare(
        order.variant,
        order.first,
        order.bot_level,
        clock=clock,
        rated=order.rated,
        second_level=order.second_level,
    )
    return PreparedGame(row, new, order.players)


def write_games(connection: Connection, games: Sequence[PreparedGame], instance: str) -> None:
    """Write ``games`` and name their players' seats, in ``connection``'s transaction;
    the other instances hear of their starts with its commit."""
    for game in games:
        insert_game(connection, game.row)
        for seat, player in enumerate(game.players):
            if player is not None:
                name_seat(connection, game.row.id, seat, player, instance)
    send_notes(connection, instance, _started(games))


def _started(games: Sequence[PreparedGame]) -> list[SocialNote]:
    notes = (start_note(game.players, game.row.id) for game in games)
    return [note for note in notes if note is not None]


async def games_made(hub: GameHub, games: Sequence[PreparedGame]) -> None:
    """After the commit: the hub takes on its games' work and tells their pages, and
    their players' pages here are told they started."""
    await hub.made([game.row for game in games])
    for game in games:
        await hub.seats_changed(game.row.id)
    hub.news.deliver(_started(games))
