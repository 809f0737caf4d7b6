"""The bot ladder in the games database (``ladder_bots``, ``ladder_games``, revision
``0018_ladder``): who is on it, the games it made, and what its pairing and its
standings read.

>>> from hanamikoji.interfaces.web.db.database import Store
>>> from hanamikoji.interfaces.web.players.store import PlayerStore, new_player
>>> store = Store("sqlite://")
>>> ann = PlayerStore(store).create_player(new_player("account", "AnnBot"), "h")
>>> ladder = LadderStore(store)
>>> ladder.join(ann.id, ("classic",), 2, 1000)
>>> [(m.name, m.variants, m.concurrency) for m in ladder.members()]
[('AnnBot', ('classic',), 2)]
>>> ladder.leave(ann.id), ladder.leave(ann.id), ladder.members()
(True, False, [])
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, union_all

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import PLAYING
from hanamikoji.interfaces.web.db.tables import (
    game_seats,
    games,
    ladder_bots,
    ladder_games,
    players,
)

__all__ = ["LadderStore", "Member", "Tally"]


@dataclass(frozen=True, slots=True)
class Member:
    """A bot on the ladder."""

    player_id: str
    name: str
    variants: tuple[str, ...]
    concurrency: int
    joined_ms: int


@dataclass(slots=True)
class Tally:
    """A bot's finished ladder games in a variant: won, lost, drawn."""

    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def games(self) -> int:
        return self.won + self.lost + self.drawn


class LadderStore:
    """The statements of the ladder's tables."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def join(self, player_id: str, variants: Sequence[str], concurrency: int, now: int) -> None:
        """Put the bot on the ladder (or change its variants and cap; it keeps its place)."""
        with self.store.transaction() as connection:
            found = connection.execute(
                select(ladder_bots.c.joined_ms).where(ladder_bots.c.player_id == player_id)
            ).scalar()
            connection.execute(delete(ladder_bots).where(ladder_bots.c.player_id == player_id))
            connection.execute(
                insert(ladder_bots).values(
                    player_id=player_id,
                    variants=",".join(variants),
                    concurrency=concurrency,
                    joined_ms=now if found is None else found,
                )
            )

    def leave(self, player_id: str) -> bool:
        """Take the bot off the ladder; whether it was on it."""
        with self.store.transaction() as connection:
            gone = connection.execute(
                delete(ladder_bots).where(ladder_bots.c.player_id == player_id)
            )
            return bool(gone.rowcount)

    def members(self) -> list[Member]:
        query = select(
            ladder_bots.c.player_id,
            players.c.name,
            ladder_bots.c.variants,
            ladder_bots.c.concurrency,
            ladder_bots.c.joined_ms,
        ).join(players, players.c.id == ladder_bots.c.player_id)
        with self.store.connection() as connection:
            rows = connection.execute(query.order_by(ladder_bots.c.joined_ms)).all()
        return [
            Member(row[0], row[1], tuple(v for v in row[2].split(",") if v), row[3], row[4])
            for row in rows
        ]

    def made(self, game_id: str, variant: str, players_: tuple[str, str], now: int) -> None:
        with self.store.transaction() as connection:
            connection.execute(
                insert(ladder_games).values(
                    game_id=game_id,
                    variant=variant,
                    player_0=players_[0],
                    player_1=players_[1],
                    made_ms=now,
                )
            )

    def playing(self, player_ids: Sequence[str]) -> dict[str, int]:
        """How many games in progress each of these players has a seat in (any game,
        the ladder's or not)."""
        if not player_ids:
            return {}
        query = (
            select(game_seats.c.player_id, func.count())
            .join(games, games.c.id == game_seats.c.game_id)
            .where(game_seats.c.player_id.in_(list(player_ids)), games.c.status == PLAYING)
            .group_by(game_seats.c.player_id)
        )
        with self.store.connection() as connection:
            return {row[0]: int(row[1]) for row in connection.execute(query)}

    def last_games(self) -> dict[tuple[str, str], tuple[str, int]]:
        """Each bot's last ladder game per variant: (player, variant) -> (opponent, when)."""
        sides = union_all(
            select(
                ladder_games.c.player_0.label("me"),
                ladder_games.c.player_1.label("them"),
                ladder_games.c.variant,
                ladder_games.c.made_ms,
            ),
            select(
                ladder_games.c.player_1.label("me"),
                ladder_games.c.player_0.label("them"),
                ladder_games.c.variant,
                ladder_games.c.made_ms,
            ),
        ).subquery()
        on_ladder = select(ladder_bots.c.player_id)
        query = (
            select(sides.c.me, sides.c.variant, sides.c.them, sides.c.made_ms)
            .where(sides.c.me.in_(on_ladder))
            .order_by(sides.c.made_ms)
        )
        found: dict[tuple[str, str], tuple[str, int]] = {}
        with self.store.connection() as connection:
            for me, variant, them, made_ms in connection.execute(query):
                found[(me, variant)] = (them, int(made_ms))
        return found

    def tallies(self, variant: str) -> dict[str, Tally]:
        """The won, lost and drawn finished ladder games of every bot in ``variant``."""
        query = (
            select(ladder_games.c.player_0, ladder_games.c.player_1, games.c.result)
            .join(games, games.c.id == ladder_games.c.game_id)
            .where(ladder_games.c.variant == variant, games.c.status != PLAYING)
        )
        found: dict[str, Tally] = defaultdict(Tally)
        with self.store.connection() as connection:
            for first, second, result in connection.execute(query):
                if result == "1/2-1/2":
                    found[first].drawn += 1
                    found[second].drawn += 1
                elif result in ("1-0", "0-1"):
                    winner, loser = (first, second) if result == "1-0" else (second, first)
                    found[winner].won += 1
                    found[loser].lost += 1
        return dict(found)
