"""``Notices``: the server's e-mails about correspondence games, and their background task.

Every :data:`LOOK_SECONDS` each instance looks (:meth:`Notices.send_due`): for every
account with a verified address that opted in, its correspondence games in play whose
decision is the player's and that the player has no page open on (a seat's socket on any
instance: the cluster's presence, ``seat_presence``). When one of them became the
player's turn since the player's last e-mail, and that e-mail is at least
``--mail-batch-minutes`` old, the instance claims the batch in the database
(``NoticeStore.claim_batch``: one instance wins) and sends one e-mail listing every such
game. Without SMTP settings nothing is looked at and nothing queued.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from email.message import EmailMessage
from typing import TypeVar

from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.interfaces.clocks import datetime_to_ms
from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.cluster.instances import ClusterStore, Writer, away_since
from hanamikoji.interfaces.web.db.games import GameStore, StoredGame
from hanamikoji.interfaces.web.games.live import rebuild
from hanamikoji.interfaces.web.notices.links import VERIFY_HOURS, LinkKeys
from hanamikoji.interfaces.web.notices.mail import (
    Mailer,
    MailSettings,
    WaitingGame,
    turn_mail,
    verification_mail,
)
from hanamikoji.interfaces.web.notices.store import NoticeStore, Subscriber
from hanamikoji.interfaces.web.players.store import PlayerStore
from hanamikoji.notation.names import Lang

__all__ = ["LOOK_SECONDS", "Notices", "run_notices"]

log = logging.getLogger("hanamikoji.web")

T = TypeVar("T")

LOOK_SECONDS = 30.0
"""Seconds between two looks for correspondence games waiting for their players."""


class Notices:
    """The e-mails of one instance: verification links, and batches of games waiting.

    Args:
        games: the games' rows (the notices' and cluster's are on the same database).
        players: the players' rows (opponents' names).
        run: runs a blocking write in turn (the server's writer thread).
        settings: the SMTP settings; ``None``: this server sends no e-mail.
        keys: what signs the e-mails' links.
        now: the server's clock, ms since the epoch.
    """

    def __init__(
        self,
        games: GameStore,
        players: PlayerStore,
        run: Writer,
        settings: MailSettings | None,
        keys: LinkKeys,
        now: Callable[[], int],
    ) -> None:
        self.games = games
        self.players = players
        self.rows = NoticeStore(games.store)
        self.cluster = ClusterStore(games.store)
        self._run = run
        self.settings = settings
        self.keys = keys
        self.now = now
        self.mailer = None if settings is None else Mailer(settings)

    async def call(self, work: Callable[[], T]) -> T:
        """Run a statement of :attr:`rows` in turn on the writer thread."""
        done: T = await self._run(work)
        return done

    @property
    def enabled(self) -> bool:
        """Whether this server sends e-mail (SMTP settings given)."""
        return self.mailer is not None

    async def send(self, message: EmailMessage) -> None:
        if self.mailer is None:
            raise RuntimeError("this server sends no e-mail")
        await self.mailer.send(message)

    async def send_verification(self, player_id: str, name: str, address: str, lang: Lang) -> None:
        """Send the link that verifies ``address`` for the account."""
        assert self.settings is not None, "no e-mail without SMTP settings"
        expires = self.now() + VERIFY_HOURS * 3_600_000
        token = self.keys.verification(player_id, address, expires)
        await self.send(verification_mail(self.settings, address, name, lang, token))

    async def send_due(self) -> int:
        """Send every batch that is due (see the module); the number of e-mails sent."""
        if self.settings is None:
            return 0
        sent = 0
        for subscriber in await asyncio.to_thread(self.rows.subscribers):
            waiting = await asyncio.to_thread(self._waiting, subscriber)
            if not self._due(subscriber, waiting):
                continue
            claim = functools.partial(
                self.rows.claim_batch, subscriber.player_id, subscriber.sent_ms, self.now()
            )
            claimed = await self._run(claim)
            if not claimed:
                continue  # another instance sends this one
            try:
                await self.send(self._batch(subscriber, [game for game, _ in waiting]))
                sent += 1
            except Exception:
                log.exception("could not e-mail player %s their games", subscriber.player_id)
        return sent

    def _due(self, subscriber: Subscriber, waiting: list[tuple[WaitingGame, int]]) -> bool:
        assert self.settings is not None
        last = subscriber.sent_ms
        if not waiting:
            return False
        if last is not None and self.now() - last < self.settings.batch_ms:
            return False
        return last is None or any(since > last for _, since in waiting)

    def _batch(self, subscriber: Subscriber, games: list[WaitingGame]) -> EmailMessage:
        assert self.settings is not None
        unsubscribe = self.keys.unsubscribe(subscriber.player_id, subscriber.address)
        return turn_mail(
            self.settings, subscriber.address, subscriber.name, subscriber.lang, games, unsubscribe
        )

    def _waiting(self, subscriber: Subscriber) -> list[tuple[WaitingGame, int]]:
        """The subscriber's games whose decision is theirs and that they have no page
        open on, each with when it became their turn (ms)."""
        found = []
        for game_id, seat in subscriber.games:
            stored = self.games.load(game_id)
            if stored is None or stored.termination is not None:
                continue
            game = rebuild(stored)
            if game.is_over() or game.to_move != seat:
                continue
            if away_since(self.cluster.presence(game_id), seat, 0) is None:
                continue  # open on a page: the player sees it there
            since = (
                datetime_to_ms(stored.decision_times[-1])
                if stored.decision_times
                else datetime_to_ms(stored.created)
            )
            last = _last_action(stored, seat)
            opponent = self._opponent(stored, seat, subscriber.lang)
            found.append((WaitingGame(game_id, stored.variant, opponent, last), since))
        return found

    def _opponent(self, stored: StoredGame, seat: int, lang: Lang) -> str:
        other = 1 - seat
        if stored.bot_seat == other and stored.bot_level is not None:
            return text("bot_name", lang, level=stored.bot_level)
        held = self.players.seat_players(stored.id)[other]
        player = None if held is None else self.players.player(held)
        if player is None:
            return text("player", lang, number=other + 1)
        if player.kind == "guest":
            return text("account_guest_name", lang, name=player.name)
        return player.name


def _last_action(stored: StoredGame, seat: int) -> MoveKind | None:
    """The kind of the latest decision the other seat made (replayed from the start:
    only the decisions' kinds are kept, never their cards)."""
    game = Game(stored.variant, seed=stored.seed, first_player=stored.first_player)
    last = None
    for text_ in stored.decisions:
        move = Move.from_text(text_)
        if game.to_move == 1 - seat:
            last = move.kind
        game.push(move)
    return last


async def run_notices(notices: Notices, interval: float = LOOK_SECONDS) -> None:
    """Look for batches due again and again (:meth:`Notices.send_due`) until cancelled;
    nothing at all on a server that sends no e-mail."""
    if not notices.enabled:
        return
    while True:
        await asyncio.sleep(interval)
        try:
            await notices.send_due()
        except Exception:  # the database was away: the next look tries again
            log.exception("looking for correspondence games to e-mail failed")
