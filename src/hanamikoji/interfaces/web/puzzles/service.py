"""``Puzzles``: the shipped set and the players' own puzzles, each as its solver may see
it before the answer, and each answer graded, revealed and (an account's first) rated.

An account's streak is kept on the server and moved by its first answer to the puzzle
the streak is at (``streaks.py``); a guest's page keeps its own.

A guest (no session, or a guest's session) is never rated: its page keeps its rating and
sends it with the answer, and gets it back moved by the answer; the puzzle's rating does
not move for it. An account's answer is rated once per puzzle (``store.py``); a second
answer is refused (``err_puzzle_answered``) and changes nothing.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
from collections.abc import Callable, Collection

from hanamikoji.arena.glicko2 import Rating
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
from hanamikoji.interfaces.web.games.thinkers import BotRunner
from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.puzzles.store import PuzzleStore, SolverRating
from hanamikoji.interfaces.web.puzzles.streaks import KeptStreak
from hanamikoji.interfaces.web.wire.incoming import PuzzleAnswer
from hanamikoji.interfaces.web.wire.puzzle_messages import (
    PuzzleDecisionValue,
    PuzzleQuestion,
    PuzzleRatingInfo,
    PuzzleResult,
    PuzzleStreakRun,
    PuzzleWorld,
)
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.puzzles.answers import AnswerError, Reveal, reveal
from hanamikoji.puzzles.choosing import daily_puzzle, next_puzzle, streak
from hanamikoji.puzzles.model import Puzzle
from hanamikoji.puzzles.rating import rate_attempt
from hanamikoji.puzzles.store import shipped_puzzles

__all__ = [
    "MAKING_LIMIT",
    "MAKING_RETRY_SECONDS",
    "Puzzles",
    "is_account",
    "own_id",
    "rating_info",
    "streak_run",
]

MAKING_LIMIT = 4
"""Positions judged at once for "Make this a puzzle"; one more is refused."""
MAKING_RETRY_SECONDS = 5


def is_account(player: Player | None) -> bool:
    return player is not None and player.kind == "account"


def rating_info(rating: Rating, attempts: int = 0, solved: int = 0) -> PuzzleRatingInfo:
    return PuzzleRatingInfo(
        rating=round(rating.rating, 1),
        deviation=round(rating.deviation, 1),
        volatility=round(rating.volatility, 6),
        provisional=rating.provisional,
        attempts=attempts,
        solved=solved,
    )


def streak_run(kept: KeptStreak) -> PuzzleStreakRun:
    """An account's kept streak as its page reads it."""
    return PuzzleStreakRun(
        seed=kept.seed,
        ids=kept.ids,
        kept=True,
        at=kept.at,
        solved=kept.solved,
        over=kept.ended,
        best=kept.best,
    )


def own_id(game_id: str, ply: int) -> str:
    """The id of the puzzle made of decision ``ply`` (from 1) of a game."""
    return f"own-{game_id}-{ply}"


@functools.lru_cache(maxsize=4096)
def _reveal(puzzle: Puzzle, answer: str) -> Reveal:
    # Deterministic: the same puzzle and answer always reveal the same worlds.
    return reveal(puzzle, answer)


class Puzzles:
    """The puzzles of a server (see the module's docstring)."""

    def __init__(
        self, store: PuzzleStore, now: Callable[[], int], bots: BotRunner | None = None
    ) -> None:
        self.store = store
        self.now = now
        self.bots = bots
        self.making = 0
        self.shipped = shipped_puzzles()
        self.by_id = {puzzle.id: puzzle for puzzle in self.shipped}

    async def find(self, puzzle_id: str) -> Puzzle:
        """A shipped or a player's puzzle; :class:`Refused` (``err_no_puzzle``) if none."""
        found = self.by_id.get(puzzle_id)
        if found is None and len(puzzle_id) <= 64 and puzzle_id.startswith("own-"):
            found = await asyncio.to_thread(self.store.own, puzzle_id)
        if found is None:
            raise Refused("err_no_puzzle")
        return found

    def daily(self) -> Puzzle:
        """Today's puzzle (a UTC date), the same for everyone."""
        day = datetime.datetime.fromtimestamp(self.now() / 1000, datetime.UTC).date()
        return daily_puzzle(self.shipped, day)

    async def kept_streak(self, player: Player | None) -> PuzzleStreakRun | None:
        """An account's streak kept on the server, ``None`` for a guest or if none."""
        if player is None or not is_account(player):
            return None
        kept = await asyncio.to_thread(self.store.kept_streak, player.id)
        return None if kept is None else streak_run(kept)

    async def new_streak(self, player: Player | None, seed: int) -> PuzzleStreakRun:
        """A new streak drawn from ``seed``: an account's among the puzzles it never
        answered, kept on the server in place of its last one (``streaks.py``); a
        guest's, for its page to keep. :class:`Refused` (``err_puzzle_none``) if the
        account answered them all."""
        ratings = await asyncio.to_thread(self.store.ratings)
        if player is None or not is_account(player):
            ids = tuple(p.id for p in streak(self.shipped, seed=seed, ratings=ratings))
            return PuzzleStreakRun(
                seed=seed, ids=ids, kept=False, at=0, solved=0, over=False, best=0
            )
        answered = await asyncio.to_thread(self.store.answered_ids, player.id)
        pool = [puzzle for puzzle in self.shipped if puzzle.id not in answered]
        if not pool:
            raise Refused("err_puzzle_none")
        ids = tuple(p.id for p in streak(pool, seed=seed, ratings=ratings))
        kept = await asyncio.to_thread(self.store.start_streak, player.id, seed, ids, self.now())
        return streak_run(kept)

    async def question(self, puzzle: Puzzle, player: Player | None) -> PuzzleQuestion:
        """The puzzle before the answer: the solver's seat's state and its decisions."""
        rating = await asyncio.to_thread(self.store.puzzle_rating, puzzle)
        mine: PuzzleRatingInfo | None = None
        answered = False
        if player is not None and is_account(player):
            solver = await asyncio.to_thread(self.store.solver, player.id)
            mine = _solver_info(solver)
            answered = await asyncio.to_thread(self.store.answered, player.id, puzzle.id)
        public = PublicGame(puzzle.id, ("human", "human"), (None, None), puzzle.ply)
        return PuzzleQuestion(
            id=puzzle.id,
            variant=puzzle.variant,
            themes=puzzle.themes,
            level=puzzle.level,
            rating=round(rating.rating),
            state=seat_state(puzzle.view(), public),
            decisions=tuple(sorted(text for text, _ in puzzle.values)),
            mine=mine,
            answered=answered,
        )

    async def next(
        self, player: Player | None, rating: float, theme: str | None, seen: Collection[str]
    ) -> Puzzle:
        """The next puzzle for ``player`` (an account: its own rating and its recent
        puzzles; a guest: the ``rating`` and ``seen`` its page sends); :class:`Refused`
        (``err_puzzle_none``) when every puzzle of the theme was seen."""
        if player is not None and is_account(player):
            solver = await asyncio.to_thread(self.store.solver, player.id)
            rating = solver.rating.rating
            seen = set(await asyncio.to_thread(self.store.recent, player.id))
        ratings = await asyncio.to_thread(self.store.ratings)
        seed = f"{player.id if player is not None else ''}:{self.now() // 60_000}"
        found = next_puzzle(
            self.shipped, rating, ratings=ratings, seen=seen, theme=theme, seed=seed
        )
        if found is None:
            raise Refused("err_puzzle_none")
        return found

    async def answer(
        self, puzzle: Puzzle, player: Player | None, body: PuzzleAnswer
    ) -> PuzzleResult:
        """Grade, reveal and rate an answer (see the module's docstring)."""
        try:
            shown = await asyncio.to_thread(_reveal, puzzle, body.answer)
        except AnswerError as error:
            if error.reason == "illegal":
                legal = ", ".join(sorted(text for text, _ in puzzle.values))
                raise Refused("err_puzzle_illegal", legal=legal) from None
            raise Refused("err_puzzle_malformed") from None
        graded = shown.graded
        before = after = guest = None
        kept: PuzzleStreakRun | None = None
        rated = False
        if player is not None and is_account(player):
            attempt = await asyncio.to_thread(
                self.store.attempt, player.id, puzzle, graded.answer, graded.correct, self.now()
            )
            if attempt is None:
                raise Refused("err_puzzle_answered")
            solver = await asyncio.to_thread(self.store.solver, player.id)
            before = rating_info(
                attempt.before, solver.attempts - 1, solver.solved - graded.correct
            )
            after = _solver_info(solver)
            rated = True
            kept = None if attempt.streak is None else streak_run(attempt.streak)
        elif body.guest is not None:
            was = Rating(body.guest.rating, body.guest.deviation, body.guest.volatility)
            start = await asyncio.to_thread(self.store.puzzle_rating, puzzle)
            moved, _ = rate_attempt(was, start, solved=graded.correct)
            guest = rating_info(moved)
        puzzle_rating = await asyncio.to_thread(self.store.puzzle_rating, puzzle)
        return PuzzleResult(
            id=puzzle.id,
            answer=graded.answer,
            correct=graded.correct,
            solution=shown.solution,
            values=tuple(PuzzleDecisionValue(decision=t, value=v) for t, v in shown.values),
            method=shown.method.value,
            worlds=tuple(
                PuzzleWorld(
                    chance=world.chance,
                    opponent_hand=world.opponent_hand,
                    opponent_secret=world.opponent_secret,
                    opponent_tradeoff=world.opponent_tradeoff,
                    removed=world.removed,
                    deck=world.deck,
                    answer_value=world.answer_value,
                    solution_value=world.solution_value,
                )
                for world in shown.worlds
            ),
            rated=rated,
            before=before,
            after=after,
            guest=guest,
            puzzle_rating=round(puzzle_rating.rating),
            streak=kept,
        )

    async def make(self, live: LiveGame, seat: int, player: Player, ply: int) -> str:
        """The id of the puzzle of decision ``ply`` (from 1, as the analysis numbers
        them) of ``seat``'s finished game, made now (judged exactly in the bots'
        workers) unless made before. :class:`Refused`: the game is not over
        (``err_not_over``), no such decision (``err_bad_field``), the decision is the
        opponent's (``err_puzzle_not_yours``), too many made at once
        (``err_rate_limited``), or no puzzle (``err_puzzle_out_of_reach``,
        ``err_puzzle_unclear``)."""
        async with live.lock:
            if not live.game.is_over():
                raise Refused("err_not_over")
            log = live.game.log()
            stored = live.stored
        if not 1 <= ply <= len(log):
            raise Refused("err_bad_field", field="ply")
        if log[ply - 1].seat != seat:
            raise Refused("err_puzzle_not_yours")
        identity = own_id(live.id, ply)
        if await asyncio.to_thread(self.store.own, identity) is not None:
            return identity
        if self.bots is None or self.making >= MAKING_LIMIT:
            raise Refused("err_rate_limited", seconds=MAKING_RETRY_SECONDS)
        moves = tuple(entry.move.text() for entry in log[: ply - 1])
        self.making += 1
        try:
            made = await self.bots.make_puzzle(
                stored.variant, stored.seed, stored.first_player, moves, identity
            )
        finally:
            self.making -= 1
        if made == "out_of_reach":
            raise Refused("err_puzzle_out_of_reach")
        if made == "unclear":
            raise Refused("err_puzzle_unclear")
        assert isinstance(made, Puzzle)
        await asyncio.to_thread(self.store.add_own, player.id, live.id, made, self.now())
        return identity


def _solver_info(solver: SolverRating) -> PuzzleRatingInfo:
    return rating_info(solver.rating, solver.attempts, solver.solved)
