"""Playing arena games: duplicate pairs of seeded games, and what each game leaves.

Duplicate play: a seed gives two games, both ``Game(variant, seed=seed,
first_player=seed % 2)``, so every round's deal is the same in both. In the first
game player A sits in seat 0, in the second in seat 1. Each player thus meets the very
deals, from the very seat, that its opponent met, and luck of the deal cancels out
within the pair. The bot in a seat gets :func:`~hanamikoji.arena.players.bot_seed` of
the game's seed and that seat.

A player that raises, or returns a decision that is not legal, loses that game at
once; the reason is kept (:class:`Forfeit`). The budget of an in-process bot is a soft
limit: every decision is timed and decisions over budget are counted as overtime,
never stopped. An external engine enforces a hard limit itself: it loses on time.

>>> from hanamikoji.arena.players import PlayerSpec
>>> batch = Batch(MatchConfig("french"), 0, (PlayerSpec.bot_named("random"),
...     PlayerSpec("other", "random")), (11,))
>>> first, second = play_batch(batch)
>>> first.players, second.players
(('random', 'other'), ('other', 'random'))
>>> first.moves == second.moves   # the same bot seeds per seat: the same game
True
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

from hanamikoji.arena.players import PlayerSpec, bot_seed
from hanamikoji.bots import Bot
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.notation.records import Forfeit, GameRecord
from hanamikoji.protocol import ExternalEngineBot, GameObserver, forfeit_of

__all__ = [
    "DEFAULT_CONFIG",
    "FORFEIT",
    "Batch",
    "BotPool",
    "Forfeit",
    "GameResult",
    "MatchConfig",
    "SeatTiming",
    "first_player_of",
    "overtime_limit",
    "play_batch",
    "play_game",
    "seeds_for",
    "split_seeds",
]

FORFEIT = "forfeit"
"""The termination of a game a player lost by forfeit."""

EVENT = "hanamikoji arena"


def first_player_of(seed: int) -> int:
    """The seat that starts round 1 in both games of ``seed``."""
    return seed % 2


def overtime_limit(budget: float) -> float:
    """The decision time past which a decision counts as overtime: the budget plus a
    grace of 10% of it, at least 5 ms (a search checks its clock between iterations,
    so it always ends a little after its budget)."""
    return budget + max(0.005, 0.1 * budget)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What every game of a match shares.

    ``budget`` is seconds per decision for every bot (``None``: each bot's default);
    ``date`` goes into the records (``YYYY.MM.DD``), left out when ``None``.
    """

    variant: str = "classic"
    budget: float | None = None
    date: str | None = None


DEFAULT_CONFIG = MatchConfig()


@dataclass(frozen=True, slots=True)
class Batch:
    """A unit of work for a backend: the duplicate pairs of ``seeds`` between ``players``
    (A, B), the ``pairing``-th pairing of a match or round-robin. With ``duplicate``
    false each seed is played once, A in seat 0 (a tournament's game: the pairing
    decides the seats)."""

    config: MatchConfig
    pairing: int
    players: tuple[PlayerSpec, PlayerSpec]
    seeds: tuple[int, ...]
    duplicate: bool = True


@dataclass(frozen=True, slots=True)
class SeatTiming:
    """One seat's decisions in one game: each decision's thinking time in seconds, how
    many took longer than :func:`overtime_limit` of the bot's budget, and the search
    iterations the bot reported (``None`` if it reports none)."""

    times: tuple[float, ...]
    overtime: int
    iterations: int | None

    @property
    def decisions(self) -> int:
        return len(self.times)

    @property
    def seconds(self) -> float:
        return sum(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times) if self.times else 0.0

    @property
    def max(self) -> float:
        return max(self.times, default=0.0)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One arena game. ``players`` are the labels in seat order; ``swapped`` is whether
    player A sat in seat 1; ``winner`` is a seat or ``None`` (a draw or shared win);
    ``termination`` a :class:`~hanamikoji.core.outcome.Termination` value or
    :data:`FORFEIT`; ``record`` the game record's text."""

    pairing: int
    seed: int
    swapped: bool
    players: tuple[str, str]
    first_player: int
    winner: int | None
    termination: str
    rounds: int
    moves: tuple[str, ...]
    forfeit: Forfeit | None
    record: str
    timing: tuple[SeatTiming, SeatTiming]

    @property
    def seat_of_a(self) -> int:
        return 1 if self.swapped else 0

    def points_of(self, seat: int) -> float:
        """1 for a win, 1/2 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == seat else 0.0

    @property
    def points_of_a(self) -> float:
        return self.points_of(self.seat_of_a)

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` in seat order, forfeits included."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"

    def outcome_key(self) -> tuple[object, ...]:
        """Everything about the game but the clock: equal for any backend and jobs when
        the bots are deterministic given their seeds."""
        return (
            self.pairing,
            self.seed,
            self.swapped,
            self.players,
            self.first_player,
            self.winner,
            self.termination,
            self.rounds,
            self.moves,
            self.forfeit,
            self.record,
        )


@runtime_checkable
class _Closable(Protocol):
    def close(self) -> None: ...


class BotPool:
    """The bots of one batch of games: a built-in bot is built afresh for every game
    (seeded by the game and seat), an engine once, then reused, and closed at the end."""

    def __init__(self) -> None:
        self._engines: dict[str, Bot] = {}

    def bot(self, spec: PlayerSpec, seed: int, budget: float | None) -> Bot:
        if not spec.is_engine:
            return spec.build(seed, budget)
        engine = self._engines.get(spec.label)
        if engine is None:
            engine = spec.build(seed, budget)
            self._engines[spec.label] = engine
        if isinstance(engine, ExternalEngineBot):
            # Started (or restarted after a failure) here, so that the start-up is not
            # counted as thinking time.
            engine.start()
        return engine

    def done(self, bot: Bot) -> None:
        """The game of ``bot`` is over; a built-in bot that holds resources releases them."""
        if bot not in self._engines.values() and isinstance(bot, _Closable):
            bot.close()

    def close(self) -> None:
        engines, self._engines = list(self._engines.values()), {}
        for engine in engines:
            if isinstance(engine, _Closable):
                engine.close()


def play_game(
    config: MatchConfig,
    seats: tuple[PlayerSpec, PlayerSpec],
    seed: int,
    pool: BotPool | None = None,
) -> GameResult:
    """One game of ``seed`` with ``seats[0]`` in seat 0 (the result's ``pairing`` is 0
    and ``swapped`` is ``False``: :func:`play_batch` sets them). Bots come from
    ``pool`` (by default one for this game alone, closed after it)."""
    if pool is None:
        own = BotPool()
        try:
            return play_game(config, seats, seed, own)
        finally:
            own.close()
    first = first_player_of(seed)
    game = Game(config.variant, seed=seed, first_player=first)
    times: tuple[list[float], list[float]] = ([], [])
    overtime = [0, 0]
    iterations: list[int | None] = [None, None]
    forfeit: Forfeit | None = None
    bots: list[Bot] = []
    try:
        for index, spec in enumerate(seats):
            try:
                bots.append(pool.bot(spec, bot_seed(seed, index), config.budget))
            except Exception as error:
                failed = forfeit_of(index, error)
                forfeit = Forfeit(index, failed.kind, f"could not start: {failed.reason}")
                break
        while forfeit is None and not game.is_over():
            to_move = game.to_move
            assert to_move is not None, "a seeded game never waits for a deal"
            seat: int = to_move
            bot = bots[seat]
            legal = game.generate_legal_moves()
            view = game.view(seat)
            searched_before = _search_stats(bot)
            start = time.perf_counter()
            try:
                move = bot.choose(view, legal)
            except Exception as error:
                forfeit = forfeit_of(seat, error)
                break
            finally:
                elapsed = time.perf_counter() - start
                times[seat].append(elapsed)
                if bot.budget is not None and elapsed > overtime_limit(bot.budget):
                    overtime[seat] += 1
            if not isinstance(move, Move) or move not in legal:
                forfeit = Forfeit(seat, "illegal", _illegal(game, move))
                break
            game.push(move)
            searched = _search_stats(bot)
            if searched is not None and searched is not searched_before:
                count = getattr(searched, "iterations", None)
                if isinstance(count, int):
                    iterations[seat] = (iterations[seat] or 0) + count
        if len(bots) == 2:
            _tell_game_over(game, bots, forfeit)
    finally:
        for bot in bots:
            pool.done(bot)
    return _result(config, seats, game, seed, forfeit, times, overtime, iterations)


def _tell_game_over(game: Game, bots: Sequence[Bot], forfeit: Forfeit | None) -> None:
    """Engines hear how each game ended before the next one starts."""
    for seat, bot in enumerate(bots):
        if not isinstance(bot, GameObserver):
            continue
        # A failure to hear the end changes nothing about the game; a dead engine is
        # restarted by its next game.
        with contextlib.suppress(Exception):
            if forfeit is None:
                bot.game_over(game.view(seat))
            else:
                bot.game_over(game.view(seat), result=forfeit.result, reason=forfeit.kind)


def _illegal(game: Game, move: object) -> str:
    if isinstance(move, Move):
        try:
            game.parse_move(move.text())
        except ValueError as error:
            return str(error)
    return f"returned {move!r}, which is not a legal decision"


def _search_stats(bot: Bot) -> object | None:
    # Search bots (ISMCTS) keep what their last search did in a new ``stats`` object per
    # search; a decision that needed no search leaves the old one in place.
    stats: object | None = getattr(bot, "stats", None)
    return stats


def _result(
    config: MatchConfig,
    seats: tuple[PlayerSpec, PlayerSpec],
    game: Game,
    seed: int,
    forfeit: Forfeit | None,
    times: tuple[list[float], list[float]],
    overtime: list[int],
    iterations: list[int | None],
) -> GameResult:
    labels = (seats[0].label, seats[1].label)
    outcome = game.outcome
    if forfeit is not None:
        winner: int | None = 1 - forfeit.seat
        termination = FORFEIT
    else:
        assert outcome is not None
        winner = outcome.winner
        termination = outcome.termination.value
    record = GameRecord.from_game(
        game, players=labels, date=config.date, event=EVENT, forfeit=forfeit
    )
    return GameResult(
        pairing=0,
        seed=seed,
        swapped=False,
        players=labels,
        first_player=game.first_player,
        winner=winner,
        termination=termination,
        rounds=game.round,
        moves=tuple(str(move) for move in game.move_stack),
        forfeit=forfeit,
        record=record.to_text(),
        timing=(
            SeatTiming(tuple(times[0]), overtime[0], iterations[0]),
            SeatTiming(tuple(times[1]), overtime[1], iterations[1]),
        ),
    )


def play_batch(batch: Batch) -> list[GameResult]:
    """Both games of every seed of ``batch``: A in seat 0, then A in seat 1 (only the
    first unless the batch is ``duplicate``)."""
    a, b = batch.players
    results: list[GameResult] = []
    pool = BotPool()
    try:
        for seed in batch.seeds:
            for swapped in (False, True) if batch.duplicate else (False,):
                seats = (b, a) if swapped else (a, b)
                result = play_game(batch.config, seats, seed, pool)
                results.append(_placed(result, batch.pairing, swapped))
    finally:
        pool.close()
    return results


def _placed(result: GameResult, pairing: int, swapped: bool) -> GameResult:
    return replace(result, pairing=pairing, swapped=swapped)


def seeds_for(first_seed: int, games: int) -> tuple[int, ...]:
    """The seeds of ``games`` games (an even number): ``games / 2`` consecutive seeds."""
    if games <= 0 or games % 2:
        raise ValueError(f"a duplicate match has an even, positive number of games, not {games}")
    return tuple(range(first_seed, first_seed + games // 2))


def split_seeds(seeds: Sequence[int], parts: int) -> list[tuple[int, ...]]:
    """``seeds`` in at most ``parts`` consecutive runs of nearly equal length."""
    parts = max(1, min(parts, len(seeds)))
    size, extra = divmod(len(seeds), parts)
    runs: list[tuple[int, ...]] = []
    start = 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        runs.append(tuple(seeds[start:end]))
        start = end
    return runs
