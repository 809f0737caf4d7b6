"""Who follows and who blocks whom (lichess's relations): one relation per pair and
direction, ``follow`` or ``block``, never both.

Following is for accounts, of accounts: a list of players whose online dot the player
sees (``presence.py``) and whom they can challenge in one click. Blocking a player
refuses their challenges, hides their seeks in the lobby (both ways), and (the chat's
business) hides their chat lines: :meth:`Relations.blocked_by` is the set of players a
player blocked, :meth:`Relations.blocks` whether either of two blocked the other.
Blocking someone ends a follow between the two, either way.

Every method is a blocking query: call it in a thread (``asyncio.to_thread``) or on the
server's writer (``db/writer.py``).

>>> from hanamikoji.interfaces.web.db.database import Store
>>> relations = Relations(Store("sqlite://"))
>>> relations.set("ann", "bob", FOLLOW, 0)
>>> relations.kind("ann", "bob"), relations.blocks("ann", "bob")
('follow', False)
>>> relations.set("bob", "ann", BLOCK, 1)
>>> relations.kind("ann", "bob"), relations.blocked_by("bob"), relations.blocks("ann", "bob")
(None, frozenset({'ann'}), True)
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import ColumnElement, and_, delete, func, insert, or_, select

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import players, relations

__all__ = ["BLOCK", "FOLLOW", "MAX_RELATIONS", "Kind", "Relations"]

Kind = Literal["follow", "block"]
FOLLOW: Kind = "follow"
BLOCK: Kind = "block"

MAX_RELATIONS = 500
"""The most players one player may follow, and the most they may block (lichess's
bound is of this order): one more is refused (``err_too_many_relations``)."""


class Relations:
    """The relations' statements, on the connections of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def set(self, owner: str, other: str, kind: Kind, now: int) -> None:
        """``owner`` now follows (or blocks) ``other``, whatever it did before; a block
        also ends ``other``'s follow of ``owner``."""
        with self.store.transaction() as connection:
            pair: ColumnElement[bool] = (relations.c.owner_id == owner) & (
                relations.c.other_id == other
            )
            if kind == BLOCK:
                back = (relations.c.owner_id == other) & (relations.c.other_id == owner)
                pair = or_(pair, back & (relations.c.kind == FOLLOW))
            connection.execute(delete(relations).where(pair))
            connection.execute(
                insert(relations).values(owner_id=owner, other_id=other, kind=kind, created_ms=now)
            )

    def remove(self, owner: str, other: str, kind: Kind) -> bool:
        """``owner`` no longer follows (or blocks) ``other``; whether it did."""
        with self.store.transaction() as connection:
            gone = connection.execute(
                delete(relations).where(
                    relations.c.owner_id == owner,
                    relations.c.other_id == other,
                    relations.c.kind == kind,
                )
            ).rowcount
        return bool(gone)

    def kind(self, owner: str, other: str) -> Kind | None:
        """How ``owner`` relates to ``other``: ``follow``, ``block`` or nothing."""
        with self.store.connection() as connection:
            found = connection.execute(
                select(relations.c.kind).where(
                    relations.c.owner_id == owner, relations.c.other_id == other
                )
            ).scalar_one_or_none()
        return FOLLOW if found == FOLLOW else BLOCK if found == BLOCK else None

    def count(self, owner: str, kind: Kind) -> int:
        with self.store.connection() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(relations)
                    .where(relations.c.owner_id == owner, relations.c.kind == kind)
                ).scalar_one()
            )

    def listed(self, owner: str, kind: Kind) -> list[tuple[str, str]]:
        """The players ``owner`` follows (or blocks): (id, name), by name."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(players.c.id, players.c.name)
                .join(relations, relations.c.other_id == players.c.id)
                .where(relations.c.owner_id == owner, relations.c.kind == kind)
                .order_by(func.lower(players.c.name), players.c.id)
            ).all()
        return [(str(player_id), str(name)) for player_id, name in rows]

    def blocked_by(self, player_id: str) -> frozenset[str]:
        """The ids of the players ``player_id`` blocked (whose chat lines, challenges
        and seeks they do not want)."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(relations.c.other_id).where(
                    relations.c.owner_id == player_id, relations.c.kind == BLOCK
                )
            ).all()
        return frozenset(str(row[0]) for row in rows)

    def avoided(self, player_id: str) -> frozenset[str]:
        """The ids of the players ``player_id`` blocked or was blocked by: the two never
        meet through a challenge or a seek."""
        with self.store.connection() as connection:
            rows = connection.execute(
                select(relations.c.owner_id, relations.c.other_id).where(
                    relations.c.kind == BLOCK,
                    or_(relations.c.owner_id == player_id, relations.c.other_id == player_id),
                )
            ).all()
        return frozenset(str(b if a == player_id else a) for a, b in rows)

    def blocks(self, a: str, b: str) -> bool:
        """Whether ``a`` blocked ``b`` or ``b`` blocked ``a``."""
        either = or_(
            and_(relations.c.owner_id == a, relations.c.other_id == b),
            and_(relations.c.owner_id == b, relations.c.other_id == a),
        )
        with self.store.connection() as connection:
            found = connection.execute(
                select(relations.c.owner_id).where(either, relations.c.kind == BLOCK).limit(1)
            ).first()
        return found is not None
