"""A live game in one server's memory, and the pages open on it.

A :class:`LiveGame` is a game rebuilt from its stored row and decisions (:func:`rebuild`),
with the pages open at its seats and as spectators (:class:`Connection`), its decisions'
times for the clocks (:func:`timeline`) and who is at each seat. :mod:`hub` keeps them
(``memory.py``) and runs their decisions, events and timers through its parts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.interfaces.clocks import (
    Clocks,
    Decision,
    TimeControl,
    clocks,
    datetime_to_ms,
)
from hanamikoji.interfaces.web.cluster.instances import PresenceRow
from hanamikoji.interfaces.web.db.games import StoredGame
from hanamikoji.interfaces.web.games.payload import PublicGame
from hanamikoji.interfaces.web.games.people import People, record_name, unnamed
from hanamikoji.interfaces.web.wire.outgoing import ClockState
from hanamikoji.notation.names import Lang

__all__ = [
    "MAX_LIVE_GAMES",
    "SEED_LIMIT",
    "SPECTATOR",
    "Connection",
    "LiveGame",
    "NewGame",
    "SeatTap",
    "clock_json",
    "clock_tags",
    "live_clocks",
    "needs_owner",
    "rebuild",
    "stored_clocks",
    "timeline",
]

MAX_LIVE_GAMES = 20_000
"""Games kept in memory before those nobody watches are dropped (and bots' memories
kept)."""

SEED_LIMIT = 1 << 53
"""Seeds stay exact in JavaScript numbers and in a signed 64-bit column."""
assert SEED_LIMIT <= MAX_SEED

SeatTap = Callable[[str, int, str], None]
"""Called with (game id, seat, message text) for every message sent to a seat, and with
:data:`SPECTATOR` as the seat for every message sent to a spectator (tests)."""

SPECTATOR = -1
"""The tap's seat for a spectator's page."""


class Connection:
    """One open page at a seat. Messages are queued and written by the connection's own
    task, so a slow reader never holds up the game; a newer state replaces one that has
    not been written yet."""

    def __init__(self, send: Callable[[str], Awaitable[None]], lang: Lang) -> None:
        self.lang = lang
        self._send = send
        self._queue: list[tuple[bool, str]] = []
        self._wake = asyncio.Event()
        self._closed = False
        self._writer = asyncio.create_task(self._write())

    def push(self, message: str, *, is_state: bool = False) -> None:
        if self._closed:
            return
        if is_state:
            self._queue = [item for item in self._queue if not item[0]]
        self._queue.append((is_state, message))
        self._wake.set()

    async def _write(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                queued, self._queue = self._queue, []
                for _, message in queued:
                    await self._send(message)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away; the reader side notices and detaches
            self._closed = True

    async def close(self) -> None:
        self._closed = True
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer


@dataclass(eq=False)
class LiveGame:
    """A game in memory, rebuilt from its stored row and decisions."""

    stored: StoredGame
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: tuple[set[Connection], set[Connection]] = field(
        default_factory=lambda: (set(), set())
    )
    watchers: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    # Who made each decision and when (ms), for the clocks of a timed game; the flag
    # timer of its running side.
    timeline: list[Decision] = field(default_factory=list)
    clock_timer: asyncio.TimerHandle | None = None
    # Since when (ms) each seat has had no page open on any instance (None: one is
    # open), from the presence rows of every instance (cluster/instances.py); the timer of an
    # untimed rated game's next forfeit (ratings/forfeits.py).
    absent_since: list[int | None] = field(default_factory=lambda: [None, None])
    presence: list[PresenceRow] = field(default_factory=list)
    loaded_at: int = 0
    presence_timer: asyncio.TimerHandle | None = None
    # Who sits at each seat (games/people.py): read with the game, and again when a
    # seat is claimed; ``None`` until read (its bot and nobody named).
    people: People | None = None

    @property
    def ended(self) -> bool:
        """Over by the rules, or ended by a clock."""
        return self.game.is_over() or self.stored.termination is not None

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def ply(self) -> int:
        return len(self.game.move_stack)

    def owned_by(self, instance: str) -> bool:
        """Whether ``instance`` runs the game's pending work (``cluster/instances.py``)."""
        return self.stored.owner == instance

    def watched(self) -> bool:
        """Whether a page is open on the game, at a seat or watching it."""
        return any(self.connections) or bool(self.watchers)

    def public(self) -> PublicGame:
        stored = self.stored
        players = tuple("bot" if seat in stored.bot_seats else "human" for seat in (0, 1))
        levels = tuple(stored.level_at(seat) for seat in (0, 1))
        return PublicGame(
            id=stored.id,
            players=(players[0], players[1]),
            levels=(levels[0], levels[1]),
            ply=self.ply,
            connected=(self.absent_since[0] is None, self.absent_since[1] is None),
            rematch=stored.rematch_id,
            rated=stored.rated,
            people=self.seated(),
        )

    def seated(self) -> People:
        """Who sits at each seat, as far as known."""
        return unnamed(self.stored) if self.people is None else self.people

    def player_names(self) -> tuple[str, str]:
        """The names written into records (``Player1``, ``Player2``)."""
        people = self.seated()
        return (record_name(people[0], 0), record_name(people[1], 1))


@dataclass(frozen=True, slots=True)
class NewGame:
    """A created game: the creator's seat token and, with a friend, the other seat's."""

    id: str
    token: str
    friend_token: str | None


def timeline(stored: StoredGame) -> list[Decision]:
    """Who made each stored decision and when: what the clocks are recomputed from
    (only a timed game needs it)."""
    if not stored.clock.timed and not stored.rated:
        return []
    game = Game(stored.variant, seed=stored.seed, first_player=stored.first_player)
    decisions = []
    for text_, at in zip(stored.decisions, stored.decision_times, strict=True):
        seat = game.to_move
        assert seat is not None, "a stored decision after the end"
        decisions.append(Decision(seat, datetime_to_ms(at)))
        game.push(Move.from_text(text_))
    return decisions


def clock_json(control: TimeControl, state: Clocks) -> ClockState:
    """A timed game's clocks as the page gets them (seat states, My games)."""
    return ClockState(
        control=control.name,
        kind=control.kind,
        remaining=state.remaining,
        running=state.running,
    )


def live_clocks(live: LiveGame, now: int) -> Clocks:
    """Both sides' clocks at ``now``, recomputed from the stored times (``clocks.py``)."""
    stored = live.stored
    start = datetime_to_ms(stored.created)
    if stored.termination is not None:
        # Ended by a clock: the side to decide is the one whose time ran out (zero).
        out = clocks(stored.clock, start, live.timeline, live.game.to_move, now)
        return replace(out, running=None)
    running = None if live.ended else live.game.to_move
    return clocks(stored.clock, start, live.timeline, running, now)


def stored_clocks(stored: StoredGame, running: int | None, now: int) -> Clocks:
    """The clocks of a stored game (loaded with its decisions) with ``running`` to decide."""
    start = datetime_to_ms(stored.created)
    return clocks(stored.clock, start, timeline(stored), running, now)


def clock_tags(stored: StoredGame) -> list[tuple[str, str]]:
    """The record's tags of a game a clock ended: the time control, the result and why."""
    return [
        ("TimeControl", stored.clock.name),
        ("WebResult", stored.result or "*"),
        ("WebTermination", stored.termination or ""),
    ]


def needs_owner(stored: StoredGame, to_move: int | None) -> bool:
    """Whether a game has work its owner must run while ``to_move`` is to decide: a clock,
    a rated game's forfeit timer, or its bot's turn (``cluster/instances.py``)."""
    if to_move is None or stored.termination is not None:
        return False
    return stored.clock.timed or stored.rated or to_move in stored.bot_seats


def rebuild(stored: StoredGame) -> Game:
    """The game of a stored row and its decisions, replayed."""
    game = Game(stored.variant, seed=stored.seed, first_player=stored.first_player)
    for text_ in stored.decisions:
        game.push(Move.from_text(text_))
    return game
