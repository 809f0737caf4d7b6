"""The challenges in the games database (``challenges``, revision ``0012_social``): made,
read, taken, ended and swept; every write tells the pages concerned on every instance
with its commit (``notes.py``).

Taking is decided here, by the database: :meth:`ChallengeStore.take` changes an open,
unexpired challenge to ``accepted`` in one statement, so of two acceptors (on one
instance or two) one finds it open, the other finds nothing.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> from hanamikoji.interfaces.web.players.store import PlayerStore, new_player
>>> store = Store("sqlite://")
>>> ann = PlayerStore(store).create_player(new_player("account", "Ann"), "h")
>>> db = ChallengeStore(store)
>>> db.add(Challenge("c1", Side(ann.id, "Ann", True), None, "classic", "none", False,
...     "me", OPEN, None, None, 0, 1000), [])
>>> db.take("c1", "bob", 10), db.take("c1", "cy", 10), db.get("c1").status
(True, False, 'accepted')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, insert, or_, select, update

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import challenges, player_presence, players
from hanamikoji.interfaces.web.social.challenges import (
    ACCEPTED,
    CANCELLED,
    EXPIRED,
    OPEN,
    Challenge,
    First,
    Side,
)
from hanamikoji.interfaces.web.social.notes import SocialNote, send_notes

__all__ = ["ChallengeStore"]

_challenger = players.alias("challenger")
_opponent = players.alias("opponent")


class ChallengeStore:
    """The statements of ``challenges``; each write tells the other instances."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.me = store.instance

    def add(self, challenge: Challenge, notes: Sequence[SocialNote]) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                insert(challenges).values(
                    id=challenge.id,
                    challenger_id=challenge.challenger.id,
                    opponent_id=None if challenge.opponent is None else challenge.opponent.id,
                    variant=challenge.variant,
                    time_control=challenge.time_control,
                    rated=challenge.rated,
                    first=challenge.first,
                    status=challenge.status,
                    created_ms=challenge.created,
                    expires_ms=challenge.expires,
                )
            )
            send_notes(connection, self.me, notes)

    def get(self, challenge_id: str) -> Challenge | None:
        rows = self._select(challenges.c.id == challenge_id)
        return rows[0] if rows else None

    def open_to(self, player_id: str, now: int) -> list[Challenge]:
        """The open challenges sent to ``player_id``, the oldest first."""
        return self._select(
            challenges.c.opponent_id == player_id,
            challenges.c.status == OPEN,
            challenges.c.expires_ms > now,
        )

    def open_from(self, player_id: str, now: int) -> list[Challenge]:
        """The open challenges ``player_id`` sent, the oldest first."""
        return self._select(
            challenges.c.challenger_id == player_id,
            challenges.c.status == OPEN,
            challenges.c.expires_ms > now,
        )

    def _select(self, *where: ColumnElement[bool]) -> list[Challenge]:
        query = (
            select(
                challenges,
                _challenger.c.name.label("challenger_name"),
                _challenger.c.kind.label("challenger_kind"),
                _opponent.c.name.label("opponent_name"),
                _opponent.c.kind.label("opponent_kind"),
            )
            .join(_challenger, _challenger.c.id == challenges.c.challenger_id)
            .outerjoin(_opponent, _opponent.c.id == challenges.c.opponent_id)
            .where(*where)
            .order_by(challenges.c.created_ms, challenges.c.id)
        )
        with self.store.connection() as connection:
            return [_challenge(row._mapping) for row in connection.execute(query).all()]

    def take(self, challenge_id: str, acceptor: str, now: int) -> bool:
        """Accept an open, unexpired challenge for ``acceptor``; ``False`` if it is not
        (another took it first, it ended or expired)."""
        with self.store.transaction() as connection:
            taken = connection.execute(
                update(challenges)
                .where(
                    challenges.c.id == challenge_id,
                    challenges.c.status == OPEN,
                    challenges.c.expires_ms > now,
                )
                .values(status=ACCEPTED, acceptor_id=acceptor)
            ).rowcount
        return taken == 1

    def made(self, challenge_id: str, game: str, notes: Sequence[SocialNote]) -> None:
        """The accepted challenge's game was made."""
        with self.store.transaction() as connection:
            connection.execute(
                update(challenges).where(challenges.c.id == challenge_id).values(game_id=game)
            )
            send_notes(connection, self.me, notes)

    def reopen(self, challenge_id: str) -> None:
        """Its game could not be made: the challenge is open again."""
        with self.store.transaction() as connection:
            connection.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id, challenges.c.status == ACCEPTED)
                .values(status=OPEN, acceptor_id=None)
            )

    def end(self, challenge_id: str, status: str, by: str, notes: Sequence[SocialNote]) -> bool:
        """End an open challenge: ``cancelled`` by its challenger ``by``, ``declined`` by
        its opponent ``by``; whether it was open (and theirs to end)."""
        side = challenges.c.challenger_id if status == CANCELLED else challenges.c.opponent_id
        return self._end(challenge_id, status, side == by, notes)

    def due(self, now: int, away_ms: int) -> list[Challenge]:
        """The open challenges to end now: out of time, or older than ``away_ms`` while
        their challenger has had no page of the site open for that long."""
        seen = exists().where(
            player_presence.c.player_id == challenges.c.challenger_id,
            player_presence.c.seen_ms >= now - away_ms,
        )
        gone = and_(challenges.c.created_ms < now - away_ms, ~seen)
        return self._select(challenges.c.status == OPEN, or_(challenges.c.expires_ms <= now, gone))

    def expire(self, challenge_id: str, notes: Sequence[SocialNote]) -> bool:
        """End a due challenge (:meth:`due`) as ``expired``; whether it was still open
        (another instance may have swept it first)."""
        return self._end(challenge_id, EXPIRED, challenges.c.id == challenge_id, notes)

    def _end(
        self, challenge_id: str, status: str, who: ColumnElement[bool], notes: Sequence[SocialNote]
    ) -> bool:
        with self.store.transaction() as connection:
            ended = connection.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id, challenges.c.status == OPEN, who)
                .values(status=status)
            ).rowcount
            if ended:
                send_notes(connection, self.me, notes)
        return bool(ended)

    def count_open_from(self, player_id: str, now: int) -> int:
        with self.store.connection() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(challenges)
                    .where(
                        challenges.c.challenger_id == player_id,
                        challenges.c.status == OPEN,
                        challenges.c.expires_ms > now,
                    )
                ).scalar_one()
            )


def _challenge(row: Any) -> Challenge:
    first: First = "me" if row["first"] == "me" else "them" if row["first"] == "them" else "random"
    opponent = None
    if row["opponent_id"] is not None:
        opponent = Side(
            str(row["opponent_id"]),
            str(row["opponent_name"] or ""),
            row["opponent_kind"] == "account",
        )
    return Challenge(
        id=str(row["id"]),
        challenger=Side(
            str(row["challenger_id"]),
            str(row["challenger_name"]),
            row["challenger_kind"] == "account",
        ),
        opponent=opponent,
        variant=str(row["variant"]),
        time_control=str(row["time_control"]),
        rated=bool(row["rated"]),
        first=first,
        status=str(row["status"]),
        game=None if row["game_id"] is None else str(row["game_id"]),
        acceptor=None if row["acceptor_id"] is None else str(row["acceptor_id"]),
        created=int(row["created_ms"]),
        expires=int(row["expires_ms"]),
    )
