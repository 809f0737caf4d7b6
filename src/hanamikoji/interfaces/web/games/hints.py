"""Hints in games against a bot: the analysis of the seat's current decision.

A hint is the decision :func:`~hanamikoji.bots.analysis.analyse_decision` values best for
the seat to move, from that seat's view of the cards alone, with the strongest level's
thinking time (``bots/levels.py``): the judge's best decisions compared over sampled
worlds, or every decision valued exactly on the last turns of a round. The analysis
needs a decision to compare with the others: the ``greedy`` level's (one of the
judge's best, so nothing more to search). Both run in the bots' workers
(:class:`~hanamikoji.interfaces.web.games.thinkers.BotRunner`), never on the event loop.

What the seat may not know never reaches a hint: the bot sees the seat's view only, and
the analysis values a decision from its player's view (the cards it cannot see are the
worlds consistent with it); the search's seed depends on the ply alone, and the bot's on
the game's id, which the seat has. A rated game gets no hints (its result counts: the
player plays alone), nor does a friend game (two people play there), a seat gets hints
only for its own decision, and a hint is computed once per decision
(asking again, or from a second page, waits for the same one).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections import OrderedDict

from hanamikoji.bots.analysis import AnalysisSettings, DecisionAnalysis, MoveValue
from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.game import Game
from hanamikoji.interfaces.web.games.live import LiveGame
from hanamikoji.interfaces.web.games.payload import move_json
from hanamikoji.interfaces.web.games.thinkers import BotRunner, bot_seed
from hanamikoji.interfaces.web.wire.answers import ForcedHint, Hint
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.records import GameRecord

__all__ = ["HINT_SECONDS", "Hints", "hint_json"]

HINT_SECONDS = LEVELS[max(LEVELS)].budget or 1.0
"""How long the analysis of a hint may search: the strongest level's time per decision."""

STAND_IN_LEVEL = next(number for number, level in LEVELS.items() if level.spec() == "greedy")
"""The level whose decision the analysis compares with the judge's best ones: ``greedy``'s."""

TIMEOUT = 20.0
"""Seconds a request waits for its hint (behind the bots of other games) before it is
told to ask again; the hint goes on being computed, and is there when asked for."""

RETRY_SECONDS = 2
"""What a request refused over the limit is told to wait."""

KEPT = 512
"""Hints (finished or not) remembered, the oldest forgotten first."""

Key = tuple[str, int, int]
"""(game id, seat, ply): one decision of one seat."""


class Hints:
    """The hints of one server process.

    Args:
        bots: where the bot and the analysis run.
        worlds: sampled worlds per decision compared (the analysis's, within
            :data:`HINT_SECONDS`).
        limit: hints computed at once; one more is refused (``err_rate_limited``).
        seconds: how long the analysis may search (``None``: until it has played
            ``worlds`` worlds, however long that takes; the hint is then reproducible).
    """

    def __init__(
        self,
        bots: BotRunner,
        worlds: int,
        limit: int = 4,
        seconds: float | None = HINT_SECONDS,
    ) -> None:
        self.bots = bots
        self.settings = AnalysisSettings(worlds=worlds, seconds=seconds)
        self.limit = limit
        self._hints: OrderedDict[Key, asyncio.Task[Hint | ForcedHint]] = OrderedDict()

    async def suggest(self, live: LiveGame, seat: int) -> Hint | ForcedHint:
        """The hint for ``seat``'s current decision in ``live``. Raises :class:`Refused`
        in a rated game, in a friend game, when it is not the seat's decision, over the
        limit, or when the hint does not come within :data:`TIMEOUT`."""
        async with live.lock:
            game = _position(live, seat)
        key = (live.id, seat, len(game.move_stack))
        task = self._hints.get(key)
        if task is None:
            if sum(not known.done() for known in self._hints.values()) >= self.limit:
                raise Refused("err_rate_limited", seconds=RETRY_SECONDS)
            task = asyncio.create_task(self.compute(live.id, game, seat))
            self._remember(key, task)
        try:
            return await asyncio.wait_for(asyncio.shield(task), TIMEOUT)
        except TimeoutError:
            raise Refused("err_hint_late") from None
        except Exception:
            self._hints.pop(key, None)  # a defect: the next request starts again
            raise

    def _remember(self, key: Key, task: asyncio.Task[Hint | ForcedHint]) -> None:
        self._hints[key] = task
        while len(self._hints) > KEPT:
            _, oldest = self._hints.popitem(last=False)
            oldest.cancel()

    async def compute(self, game_id: str, game: Game, seat: int) -> Hint | ForcedHint:
        """The hint for ``seat``'s decision (which must be now) in ``game`` of id
        ``game_id``; ``game`` is moved on (pass a copy)."""
        legal = game.generate_legal_moves()
        ply = len(game.move_stack)
        if len(legal) == 1:
            return ForcedHint(ply=ply, move=move_json(legal[0]))
        view = game.view(seat)
        stand_in, _ = await self.bots.choose(STAND_IN_LEVEL, _hint_seed(game_id, ply), view)
        game.push(game.parse_move(stand_in))
        record = GameRecord.from_game(game)
        analysis = await self.bots.analyse(record, ply, self.settings)
        return hint_json(analysis)

    async def close(self) -> None:
        tasks = list(self._hints.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _position(live: LiveGame, seat: int) -> Game:
    """A copy of the game at ``seat``'s decision; raises :class:`Refused` when there is
    none to hint at (the caller holds the game's lock)."""
    if live.stored.rated:
        raise Refused("err_hint_rated")
    if live.stored.bot_seat is None:
        raise Refused("err_hint_friend")
    if live.game.is_over():
        raise Refused("err_game_over")
    if live.game.to_move != seat:
        raise Refused("err_not_your_turn")
    return live.game.copy()


def _hint_seed(game_id: str, ply: int) -> int:
    """The stand-in bot's seed: from what the seat knows (the game's id and the ply)."""
    return bot_seed(int.from_bytes(hashlib.blake2b(game_id.encode(), digest_size=8).digest()), ply)


def hint_json(analysis: DecisionAnalysis) -> Hint:
    """A hint as the page shows it: the best decision and its value (the chance to win
    the match after it), the next best one's, how the values were found and over how
    many worlds.

    >>> from hanamikoji.bots.analysis import Method
    >>> from hanamikoji.core.moves import Move
    >>> values = (MoveValue(Move.from_text("S:G"), 0.61), MoveValue(Move.from_text("S:A"), 0.5))
    >>> hint = hint_json(DecisionAnalysis(3, 1, 2, 0, values[1].move, Method.SEARCH, 90, values))
    >>> hint.move.text, hint.value, hint.next.text, hint.next_value
    ('S:G', 0.61, 'S:A', 0.5)
    """
    best = analysis.best_entry
    assert best is not None, "an analysed decision has the one played among its values"
    others = [entry for entry in analysis.values if entry.move != best.move]
    following: MoveValue | None = others[0] if others else None
    return Hint(
        ply=analysis.ply - 1,
        method=analysis.method.value,
        worlds=analysis.worlds,
        move=move_json(best.move),
        value=round(best.value, 4),
        next=None if following is None else move_json(following.move),
        next_value=None if following is None else round(following.value, 4),
    )
