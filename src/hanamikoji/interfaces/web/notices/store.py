"""The e-mail rows: an account's address, its verification and opt-in
(``player_emails``), and the batches sent (``mail_batches``), on SQLite and PostgreSQL.

An address is the account's own: no query here joins it to anything another player can
read. A batch is claimed by moving the player's ``sent_ms`` from the value an instance
read to now (or inserting it, for a first batch): of two instances that read the same
value, one moves it and sends, the other sees no row changed and sends nothing.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> notices = NoticeStore(Store("sqlite://"))
>>> notices.set_address("p1", "ann@example.org", "en")
>>> notices.set_notify("p1", True), notices.verify("p1", "ann@example.org")
(False, True)
>>> notices.set_notify("p1", True), notices.email_of("p1").notify
(True, True)
>>> notices.claim_batch("p1", None, 1_000), notices.claim_batch("p1", None, 1_001)
(True, False)
>>> notices.claim_batch("p1", 1_000, 2_000), notices.claim_batch("p1", 1_000, 2_001)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import PLAYING
from hanamikoji.interfaces.web.db.tables import (
    game_seats,
    games,
    mail_batches,
    player_emails,
    players,
)
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = ["CORRESPONDENCE", "EmailRow", "NoticeStore", "Subscriber"]

CORRESPONDENCE = "correspondence"
"""The ``clock_kind`` of a game played at days per decision (``interfaces/clocks.py``)."""


@dataclass(frozen=True, slots=True)
class EmailRow:
    """An account's address and what it chose."""

    address: str
    verified: bool
    notify: bool
    lang: Lang


@dataclass(frozen=True, slots=True)
class Subscriber:
    """An account e-mailed about its turn: its name, address, language, when it was
    last sent a batch (``None``: never) and its correspondence games in play (each
    game's id and the player's seat)."""

    player_id: str
    name: str
    address: str
    lang: Lang
    sent_ms: int | None
    games: tuple[tuple[str, int], ...]


def _lang(value: object) -> Lang:
    for lang in LANGUAGES:
        if value == lang:
            return lang
    return "en"


class NoticeStore:
    """The statements of ``player_emails`` and ``mail_batches``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.me = store.instance

    def email_of(self, player_id: str) -> EmailRow | None:
        with self.store.connection() as connection:
            row = connection.execute(
                select(player_emails).where(player_emails.c.player_id == player_id)
            ).first()
        if row is None:
            return None
        found = row._mapping
        return EmailRow(
            str(found["address"]),
            bool(found["verified"]),
            bool(found["notify"]),
            _lang(found["lang"]),
        )

    def set_address(self, player_id: str, address: str, lang: Lang) -> None:
        """The account's address is now ``address``, not verified, not opted in."""
        values = {
            "address": address,
            "verified": False,
            "notify": False,
            "lang": lang,
            "changed": datetime.now(UTC),
        }
        with self.store.transaction() as connection:
            changed = connection.execute(
                update(player_emails).where(player_emails.c.player_id == player_id).values(values)
            )
            if changed.rowcount == 0:
                connection.execute(insert(player_emails).values(player_id=player_id, **values))

    def remove(self, player_id: str) -> None:
        with self.store.transaction() as connection:
            connection.execute(delete(player_emails).where(player_emails.c.player_id == player_id))
            connection.execute(delete(mail_batches).where(mail_batches.c.player_id == player_id))

    def verify(self, player_id: str, address: str) -> bool:
        """Mark the address verified if it is still the account's."""
        with self.store.transaction() as connection:
            done = connection.execute(
                update(player_emails)
                .where(player_emails.c.player_id == player_id, player_emails.c.address == address)
                .values(verified=True, changed=datetime.now(UTC))
            )
        return done.rowcount == 1

    def set_notify(self, player_id: str, on: bool) -> bool:
        """Turn the e-mails about the player's turn on or off; ``False`` when the account
        has no verified address."""
        with self.store.transaction() as connection:
            done = connection.execute(
                update(player_emails)
                .where(player_emails.c.player_id == player_id, player_emails.c.verified.is_(True))
                .values(notify=on, changed=datetime.now(UTC))
            )
        return done.rowcount == 1

    def subscribers(self) -> list[Subscriber]:
        """Every account with a verified address, opted in, that has correspondence
        games in play, with those games."""
        query = (
            select(
                player_emails.c.player_id,
                players.c.name,
                player_emails.c.address,
                player_emails.c.lang,
                mail_batches.c.sent_ms,
                games.c.id,
                game_seats.c.seat,
            )
            .join(players, players.c.id == player_emails.c.player_id)
            .join(game_seats, game_seats.c.player_id == player_emails.c.player_id)
            .join(games, games.c.id == game_seats.c.game_id)
            .outerjoin(mail_batches, mail_batches.c.player_id == player_emails.c.player_id)
            .where(
                player_emails.c.verified.is_(True),
                player_emails.c.notify.is_(True),
                players.c.kind == "account",
                games.c.status == PLAYING,
                games.c.clock_kind == CORRESPONDENCE,
            )
            .order_by(player_emails.c.player_id, games.c.created, games.c.id)
        )
        with self.store.connection() as connection:
            rows = connection.execute(query).all()
        found: dict[str, Subscriber] = {}
        for player_id, name, address, lang, sent, game_id, seat in rows:
            had = found.get(str(player_id))
            game = (str(game_id), int(seat))
            ids = (*had.games, game) if had else (game,)
            found[str(player_id)] = Subscriber(
                str(player_id),
                str(name),
                str(address),
                _lang(lang),
                None if sent is None else int(sent),
                ids,
            )
        return list(found.values())

    def claim_batch(self, player_id: str, seen: int | None, now: int) -> bool:
        """Claim the player's next batch: ``sent_ms`` moved from ``seen`` (what this
        instance read; ``None``: no batch yet) to ``now``. ``False``: another instance
        claimed it first."""
        try:
            with self.store.transaction() as connection:
                if seen is None:
                    connection.execute(
                        insert(mail_batches).values(
                            player_id=player_id, sent_ms=now, instance_id=self.me
                        )
                    )
                    return True
                moved = connection.execute(
                    update(mail_batches)
                    .where(mail_batches.c.player_id == player_id, mail_batches.c.sent_ms == seen)
                    .values(sent_ms=now, instance_id=self.me)
                )
                return moved.rowcount == 1
        except IntegrityError:
            return False
