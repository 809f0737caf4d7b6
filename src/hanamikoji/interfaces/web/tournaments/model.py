"""A tournament as the server keeps it: its settings, its status, and the library's
event (:class:`~hanamikoji.tournaments.Swiss` or :class:`~hanamikoji.tournaments.Arena`)
with the version it was read at, for compare-and-set (``store.py``).

An entrant's id in the event is an account's id, or ``level:N`` for one of our bot
levels (entered by the creator, seated as the game's bot seat).

>>> settings = Settings("Friday", "classic", "5+5", False, "swiss", 3, None, 0, None, "both")
>>> settings.admits(bot=True), Settings.__doc__ is not None
(True, True)
>>> level_of("level:3"), level_of("p1")
(3, None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from hanamikoji.tournaments import Arena, Swiss

__all__ = [
    "ARENA",
    "CREATED",
    "ENTRIES",
    "FINISHED",
    "KINDS",
    "MAX_ENTRANTS",
    "MAX_MINUTES",
    "MAX_ROUNDS",
    "STARTED",
    "SWISS",
    "Event",
    "Settings",
    "Tournament",
    "event_json",
    "level_id",
    "level_of",
    "new_event",
    "parse_event",
]

SWISS, ARENA = "swiss", "arena"
KINDS = (SWISS, ARENA)
ENTRIES = ("people", "bots", "both")
"""Who may enter: accounts of people, bot accounts, or both (our own levels are
entered by the creator whatever this says)."""
CREATED, STARTED, FINISHED = "created", "started", "finished"

MAX_ROUNDS = 15
MAX_MINUTES = 720
MAX_ENTRANTS = 200
"""The most entrants one tournament takes (bot levels included)."""

Event = Swiss | Arena


@dataclass(frozen=True, slots=True)
class Settings:
    """What its creator chose: a name, the games' variant, time control and whether
    they are rated, the kind (``rounds`` for a Swiss, ``minutes`` for an arena), the
    start (ms since the epoch), the invitation code (``None``: open to all), and who
    may enter (:data:`ENTRIES`)."""

    name: str
    variant: str
    time_control: str
    rated: bool
    kind: str
    rounds: int | None
    minutes: int | None
    starts: int
    invite_code: str | None
    entry: str

    def admits(self, *, bot: bool) -> bool:
        """Whether an account (a bot account if ``bot``) may enter."""
        return self.entry == "both" or self.entry == ("bots" if bot else "people")

    @property
    def ends(self) -> int | None:
        """When an arena ends (ms since the epoch); ``None`` for a Swiss."""
        return None if self.minutes is None else self.starts + self.minutes * 60_000


@dataclass(frozen=True, slots=True)
class Tournament:
    """A stored tournament: ``id``, its creator, settings, status, event, and the
    ``version`` its row was read at."""

    id: str
    creator: str
    settings: Settings
    status: str
    event: Event
    version: int
    created: int
    ended: int | None = None
    creator_name: str = ""


def level_id(level: int) -> str:
    """The entrant id of our bot level ``level``."""
    return f"level:{level}"


def level_of(entrant: str) -> int | None:
    """The bot level an entrant id names, or ``None`` (an account)."""
    name, _, level = entrant.partition(":")
    return int(level) if name == "level" and level.isdigit() else None


def new_event(kind: str, rounds: int | None) -> Event:
    return Swiss(rounds or 1) if kind == SWISS else Arena()


def parse_event(text: str) -> Event:
    data = json.loads(text)
    return Swiss.from_json(data) if data.get("kind") == SWISS else Arena.from_json(data)


def event_json(event: Event) -> str:
    return json.dumps(event.to_json(), separators=(",", ":"))
