"""A game's start and end, told to its named players' site pages on every instance (the
bot API's event stream is one: ``gameStart``, ``gameFinish``), as a challenge is told to
its players (``social/notes.py``): one mechanism, no polling.

* A **start** is told by the transaction that writes the game (``making.write_games``,
  whichever made it: a challenge, the lobby, the bot ladder, a tournament), then to this
  instance's pages after the commit (:meth:`GameNews.deliver`).
* An **end** (by the rules, on time, resigned, aborted, forfeited) is told by the instance
  that stored it (:meth:`GameNews.ended`, from ``finishing.Finishing.ended``) right after
  its commit, in a transaction of its own: a crash between the two loses the line, and the
  game's own stream still carries the final state.

A game's note carries its id and nothing else: no card.

>>> note = start_note(("p1", None), "g1")
>>> note.players, note.text
(('p1',), '{"type":"game_start","game":"g1"}')
>>> start_note((None, None), "g2") is None
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.players.store import PlayerStore
from hanamikoji.interfaces.web.social.notes import SocialNote, note_of, send_notes
from hanamikoji.interfaces.web.social.presence import SitePages
from hanamikoji.interfaces.web.wire.social_messages import GameFinished, GameStarted

__all__ = ["GameNews", "end_note", "start_note"]


def start_note(players: Iterable[str | None], game_id: str) -> SocialNote | None:
    """The note of a game's start for its named players (``None``: nobody named)."""
    named = [player for player in players if player is not None]
    return note_of(named, GameStarted(game=game_id)) if named else None


def end_note(players: Iterable[str | None], game_id: str) -> SocialNote | None:
    """The note of a game's end for its named players (``None``: nobody named)."""
    named = [player for player in players if player is not None]
    return note_of(named, GameFinished(game=game_id)) if named else None


class GameNews:
    """Tells the players of this instance's games that one started or ended.

    Args:
        store: the database (its events reach the other instances: PostgreSQL).
        players: who sits at a game's seats.
        pages: the site sockets open on this instance, per player.
    """

    def __init__(self, store: Store, players: PlayerStore, pages: SitePages) -> None:
        self.store = store
        self.players = players
        self.pages = pages

    def deliver(self, notes: Sequence[SocialNote]) -> None:
        """Tell this instance's pages (the others heard the notes' events)."""
        self.pages.deliver(notes)

    async def ended(self, live: LiveGame) -> None:
        """``live`` has just ended here: its named players are told, on every instance.
        A game no account or guest sits at (a page's game against our bot, by its link)
        is told to nobody, without a query."""
        people = live.people
        if people is not None and all(p.kind not in ("account", "guest") for p in people):
            return
        seated = await asyncio.to_thread(self.players.seat_players, live.id)
        note = end_note(seated, live.id)
        if note is None:
            return
        if self.store.dialect != "sqlite":
            await asyncio.to_thread(self._send, note)
        self.deliver([note])

    def _send(self, note: SocialNote) -> None:
        with self.store.transaction() as connection:
            send_notes(connection, self.store.instance, [note])
