"""Tournaments in the games database (``db/tables.py``: ``tournaments``,
``tournament_entrants``, ``tournament_games``; migration ``r0019_tournaments.py``).

Every change of an event is a compare-and-set on its row's ``version``
(:meth:`TournamentStore.save`): of two writers that read one version, one writes and
the other is told to read again. A round's pairings and their games are written in
that one transaction (``games/making.py``), so a pairing never lacks its game nor a
game its pairing. Each write tells the other instances (a ``tournament`` event,
``cluster/events.py``): their pages read the tournament again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, or_, select, update
from sqlalchemy.engine import Connection

from hanamikoji.interfaces.web.cluster.events import Event, notify
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import (
    games,
    players,
    tournament_entrants,
    tournament_games,
    tournaments,
)
from hanamikoji.interfaces.web.games.making import PreparedGame, write_games
from hanamikoji.interfaces.web.tournaments.model import (
    CREATED,
    FINISHED,
    STARTED,
    Settings,
    Tournament,
    event_json,
    parse_event,
)

__all__ = ["TOPIC", "Change", "EntrantRow", "GameLink", "TournamentStore"]

TOPIC = "tournament"
"""The cluster events' topic of a tournament's change (its id the key)."""

LISTED = 50
"""Tournaments listed at most per status."""


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """Who entered: an account (``player``) or a bot level, and the name shown."""

    entrant: str
    player: str | None
    level: int | None
    name: str
    bot: bool = False
    joined: int = 0


@dataclass(frozen=True, slots=True)
class GameLink:
    """A tournament's game: its round (0 in an arena) and board (an arena's game index)."""

    game: str
    round: int
    board: int


@dataclass(frozen=True, slots=True)
class Change:
    """What one compare-and-set writes besides the event: a new status, new entrants,
    new games with their links."""

    status: str | None = None
    ended: int | None = None
    entrants: tuple[EntrantRow, ...] = ()
    games: tuple[PreparedGame, ...] = ()
    links: tuple[GameLink, ...] = ()


_SELECT = select(tournaments, players.c.name.label("creator_name")).join(
    players, players.c.id == tournaments.c.creator_id
)


class TournamentStore:
    """The tournaments' statements."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.me = store.instance

    def _tell(self, connection: Connection, tournament_id: str) -> None:
        notify(connection, Event(TOPIC, tournament_id, self.me))

    def create(self, tournament: Tournament, creator_name: str) -> None:
        s = tournament.settings
        with self.store.transaction() as connection:
            connection.execute(
                insert(tournaments).values(
                    id=tournament.id,
                    creator_id=tournament.creator,
                    name=s.name,
                    variant=s.variant,
                    time_control=s.time_control,
                    rated=s.rated,
                    kind=s.kind,
                    rounds=s.rounds,
                    minutes=s.minutes,
                    starts_ms=s.starts,
                    invite_code=s.invite_code,
                    entry=s.entry,
                    status=tournament.status,
                    event=event_json(tournament.event),
                    version=tournament.version,
                    created_ms=tournament.created,
                )
            )
            self._tell(connection, tournament.id)

    def get(self, tournament_id: str) -> Tournament | None:
        with self.store.connection() as connection:
            row = connection.execute(_SELECT.where(tournaments.c.id == tournament_id)).first()
        return None if row is None else _tournament(row)

    def version(self, tournament_id: str) -> int | None:
        """The tournament's version (``None``: no such tournament), without its event."""
        with self.store.connection() as connection:
            found = connection.execute(
                select(tournaments.c.version).where(tournaments.c.id == tournament_id)
            ).scalar()
        return None if found is None else int(found)

    def listing(self, status: str) -> list[Tournament]:
        """The open tournaments of ``status``: the soonest to start first, the latest
        finished first."""
        order = (
            tournaments.c.ended_ms.desc() if status == FINISHED else tournaments.c.starts_ms.asc()
        )
        with self.store.connection() as connection:
            rows = connection.execute(
                _SELECT.where(tournaments.c.status == status, tournaments.c.invite_code.is_(None))
                .order_by(order, tournaments.c.id)
                .limit(LISTED)
            ).all()
        return [_tournament(row) for row in rows]

    def due(self, now: int) -> list[str]:
        """The tournaments a director has work in: started, or due to start."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(tournaments.c.id).where(
                    or_(
                        tournaments.c.status == STARTED,
                        (tournaments.c.status == CREATED) & (tournaments.c.starts_ms <= now),
                    )
                )
            ).all()
        return [str(row[0]) for row in rows]

    def save(self, tournament: Tournament, event: Any, change: Change = Change()) -> bool:
        """Write ``event`` (and ``change``) over the row read at ``tournament.version``;
        ``False`` (nothing written) if another writer got there first."""
        values: dict[str, Any] = {"event": event_json(event), "version": tournament.version + 1}
        if change.status is not None:
            values["status"] = change.status
        if change.ended is not None:
            values["ended_ms"] = change.ended
        with self.store.transaction() as connection:
            written = connection.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tournament.id,
                    tournaments.c.version == tournament.version,
                )
                .values(**values)
            ).rowcount
            if written != 1:
                return False
            for entrant in change.entrants:
                _add_entrant(connection, tournament.id, entrant)
            write_games(connection, change.games, self.me)
            for link in change.links:
                connection.execute(
                    insert(tournament_games).values(
                        game_id=link.game,
                        tournament_id=tournament.id,
                        round=link.round,
                        board=link.board,
                    )
                )
            self._tell(connection, tournament.id)
        return True

    def entrants(self, tournament_id: str) -> dict[str, EntrantRow]:
        with self.store.connection() as connection:
            rows = connection.execute(
                select(tournament_entrants).where(
                    tournament_entrants.c.tournament_id == tournament_id
                )
            ).all()
        return {
            str(row.entrant_id): EntrantRow(
                str(row.entrant_id),
                None if row.player_id is None else str(row.player_id),
                None if row.bot_level is None else int(row.bot_level),
                str(row.name),
                bool(row.bot),
            )
            for row in rows
        }

    def game_ends(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The result (from seat 0's side; ``*`` for none) of each of ``game_ids`` that
        has finished."""
        if not game_ids:
            return {}
        with self.store.connection() as connection:
            rows = connection.execute(
                select(games.c.id, games.c.result).where(
                    games.c.id.in_(list(game_ids)), games.c.status == "finished"
                )
            ).all()
        return {str(row.id): str(row.result or "*") for row in rows}

    def links(self, tournament_id: str) -> list[GameLink]:
        with self.store.connection() as connection:
            rows = connection.execute(
                select(tournament_games)
                .where(tournament_games.c.tournament_id == tournament_id)
                .order_by(tournament_games.c.round, tournament_games.c.board)
            ).all()
        return [GameLink(str(row.game_id), int(row.round), int(row.board)) for row in rows]


def _add_entrant(connection: Connection, tournament_id: str, entrant: EntrantRow) -> None:
    known = connection.execute(
        select(tournament_entrants.c.entrant_id).where(
            tournament_entrants.c.tournament_id == tournament_id,
            tournament_entrants.c.entrant_id == entrant.entrant,
        )
    ).first()
    if known is None:
        connection.execute(
            insert(tournament_entrants).values(
                tournament_id=tournament_id,
                entrant_id=entrant.entrant,
                player_id=entrant.player,
                bot_level=entrant.level,
                bot=entrant.bot,
                name=entrant.name,
                joined_ms=entrant.joined,
            )
        )


def _tournament(row: Any) -> Tournament:
    settings = Settings(
        str(row.name),
        str(row.variant),
        str(row.time_control),
        bool(row.rated),
        str(row.kind),
        None if row.rounds is None else int(row.rounds),
        None if row.minutes is None else int(row.minutes),
        int(row.starts_ms),
        None if row.invite_code is None else str(row.invite_code),
        str(row.entry),
    )
    return Tournament(
        str(row.id),
        str(row.creator_id),
        settings,
        str(row.status),
        parse_event(str(row.event)),
        int(row.version),
        int(row.created_ms),
        None if row.ended_ms is None else int(row.ended_ms),
        str(row.creator_name),
    )
