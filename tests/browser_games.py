"""Finished, ongoing and private games made straight in a database, for the game
browser's tests (``test_web_browser.py``, ``test_web_browser_postgres.py``): accounts,
games played to their end by random legal decisions (their records replay), games ended
at once by a clock (no decisions), at chosen times.

Not a test module."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hanamikoji.core.game import Game
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import Append, GameStore, new_game_row
from hanamikoji.interfaces.web.players.store import PlayerStore, new_player

__all__ = ["START", "Games"]

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
"""When the first game a :class:`Games` makes started; each next one a minute later."""


class Games:
    """Accounts and games in ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games = GameStore(store)
        self.players = PlayerStore(store)
        self.made = 0

    def account(self, name: str, kind: str = "account") -> str:
        player = new_player("account" if kind == "account" else "guest", name)
        hashed = "$argon2id$x" if kind == "account" else None
        return self.players.create_player(player, hashed).id

    def game(
        self,
        seats: tuple[str | None, str | None],
        *,
        variant: str = "classic",
        bot_level: int | None = None,
        result: str | None = None,
        play: bool = False,
        finished: bool = True,
        private: bool = False,
        rated: bool = False,
        first: int = 0,
        created: datetime | None = None,
    ) -> str:
        """A game between ``seats`` (a player id, or ``None``: a bot when ``bot_level``
        is given, else nobody named). ``play``: played to the end by random legal
        decisions; else, when ``finished``, ended by a clock with ``result``
        (``None``: aborted, ``*``)."""
        bot_seat = None if bot_level is None else seats.index(None)
        self.made += 1
        seed = 1000 + self.made
        row = new_game_row(
            variant, seed, first, (None, None), bot_seat, bot_level, private=private, rated=rated
        )
        row = replace(row, created=created or START + timedelta(minutes=self.made))
        self.games.create_game(row)
        for seat, player in enumerate(seats):
            if player is not None:
                assert self.players.take_seat(row.id, seat, player) == "taken"
        if play:
            self._play(row.id, variant, seed, first, finished)
        elif finished:
            self.games.end_outside_rules(row.id, 0, result or "*", "time" if result else "aborted")
        return row.id

    def _play(self, game_id: str, variant: str, seed: int, first: int, finish: bool) -> None:
        game = Game(variant, seed=seed, first_player=first)
        rng = random.Random(seed)
        batch: list[Append] = []
        while not game.is_over() and (finish or len(batch) < 5):
            move = rng.choice(game.legal_moves)
            game.push(move)
            outcome = game.outcome
            batch.append(
                Append(
                    game_id, len(batch), move.text(), None if outcome is None else outcome.result()
                )
            )
        for item in batch:
            self.games.append(item.game_id, item.ply, item.text, item.result)
