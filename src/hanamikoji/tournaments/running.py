"""Tournaments among bots and engines, offline, on the arena's backends.

The Swiss and arena models pair; this module plays their games: each pairing becomes
one game (a :class:`~hanamikoji.arena.games.Batch` of one seed, not duplicated), run by
a backend of :mod:`hanamikoji.arena.backends` (local processes or Ray). The ``n``-th
game of the event (from 0, in the order paired) is played on seed ``first_seed + n``,
its first player in the seat that starts that seed's game (``seed % 2``). A Swiss
round's games run together and the next round is paired when they have all ended; an
arena's games are submitted as they are paired, and each game's end pairs its players
again at once, until the time or the number of games is up (:class:`Limit`).

>>> from hanamikoji.arena.backends import ProcessBackend
>>> from hanamikoji.arena.players import players_from_names
>>> from hanamikoji.tournaments.swiss import Swiss
>>> field = Field(tuple(players_from_names(["random", "random", "random"])), MatchConfig("french"))
>>> event = run_swiss(Swiss(2, field.entrants()), field, ProcessBackend(jobs=1))
>>> [len(r.pairings) for r in event.played], event.finished
([1, 1], True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from hanamikoji.arena.backends import Backend
from hanamikoji.arena.games import DEFAULT_CONFIG, Batch, GameResult, MatchConfig, first_player_of
from hanamikoji.arena.players import PlayerSpec
from hanamikoji.bots.ratings import bot_rating
from hanamikoji.notation.records import GameRecord
from hanamikoji.tournaments.arena import Arena
from hanamikoji.tournaments.model import DEFAULT_RATING, Entrant, Pairing
from hanamikoji.tournaments.swiss import Swiss

__all__ = ["Field", "Limit", "Played", "result_of", "run_arena", "run_swiss"]


@dataclass(frozen=True, slots=True)
class Played:
    """A game of the event: its pairing, what the arena's games left (its record is
    tagged with ``event``)."""

    pairing: Pairing
    result: GameResult
    event: str

    def record(self) -> GameRecord:
        """The game's record, its ``Event`` tag the event's."""
        record = GameRecord.parse(self.result.record)
        tags = tuple((n, self.event if n == "Event" else v) for n, v in record.tags)
        return replace(record, tags=tags)


OnGame = Callable[[Played], None]


@dataclass(frozen=True, slots=True)
class Field:
    """The players (labels are their ids), what every game shares, and the first seed."""

    players: tuple[PlayerSpec, ...]
    config: MatchConfig = DEFAULT_CONFIG
    first_seed: int = 1

    def entrants(self) -> tuple[Entrant, ...]:
        """The players as entrants: a difficulty level (``level:N``) rated at its fixed
        rating in the variant where it has one, everyone else at the default."""
        return tuple(Entrant(p.label, p.label, self.rating_of(p)) for p in self.players)

    def rating_of(self, player: PlayerSpec) -> int:
        name, _, level = (player.bot or "").partition(":")
        if name == "level" and level.isdigit():
            try:
                return round(bot_rating(int(level), self.config.variant).rating)
            except (ValueError, LookupError):
                pass
        return DEFAULT_RATING

    def batch(self, pairing: Pairing, index: int) -> Batch:
        """The ``index``-th game of the event, as a batch of one game."""
        specs = {player.label: player for player in self.players}
        seed = self.first_seed + index
        first, second = specs[pairing.first], specs[pairing.second]
        seats = (first, second) if first_player_of(seed) == 0 else (second, first)
        return Batch(self.config, index, seats, (seed,), duplicate=False)


def result_of(pairing: Pairing, game: GameResult) -> str:
    """``game``'s result from the pairing's first player's side."""
    if game.winner is None:
        return "1/2-1/2"
    return "1-0" if game.players[game.winner] == pairing.first else "0-1"


def run_swiss(event: Swiss, field: Field, backend: Backend, on_game: OnGame | None = None) -> Swiss:
    """``event`` played to its end: every round paired, its games run together."""
    index = sum(len(played.pairings) for played in event.played)
    while not event.finished:
        event = event.pair_next_round()
        played = event.played[-1]
        batches = [field.batch(p, index + board) for board, p in enumerate(played.pairings)]
        for results in backend.run(batches):
            (game,) = results
            board = game.pairing - index
            pairing = event.played[-1].pairings[board]
            event = event.record(played.number, board, result_of(pairing, game), str(game.seed))
            if on_game is not None:
                name = f"hanamikoji tournament: Swiss, round {played.number}, board {board + 1}"
                on_game(Played(event.played[-1].pairings[board], game, name))
        index += len(batches)
    return event


@dataclass(frozen=True, slots=True)
class Limit:
    """When an arena ends: after ``seconds`` (on ``clock``), or when ``games`` games have
    ended, whichever comes first. A game that ends after the time counts nothing; the
    games still on when the limit is reached count nothing either (they are dropped)."""

    seconds: float | None = None
    games: int | None = None
    clock: Callable[[], float] = time.monotonic


def run_arena(
    arena: Arena, field: Field, backend: Backend, limit: Limit, on_game: OnGame | None = None
) -> Arena:
    """``arena`` played until ``limit``; returns it ended."""
    deadline = None if limit.seconds is None else limit.clock() + limit.seconds
    ended = 0
    with backend.session() as session:
        arena = _pair(arena, field, session.submit)
        while session.pending and (limit.games is None or ended < limit.games):
            (game,) = session.next_done()
            if deadline is not None and limit.clock() > deadline:
                break
            pairing = arena.games[game.pairing]
            arena = arena.record(game.pairing, result_of(pairing, game), str(game.seed))
            ended += 1
            if on_game is not None:
                name = f"hanamikoji tournament: arena, game {game.pairing + 1}"
                on_game(Played(arena.games[game.pairing], game, name))
            arena = _pair(arena, field, session.submit)
    return arena.end()


def _pair(arena: Arena, field: Field, submit: Callable[[Batch], None]) -> Arena:
    """``arena`` with its waiting players paired, their games submitted."""
    paired = arena.pair_waiting()
    for index in range(len(arena.games), len(paired.games)):
        submit(field.batch(paired.games[index], index))
    return paired
