"""Every answer and message of tournaments (``tournaments/``): the list, a tournament
as its page shows it (the standings, the pairings, the viewer's own game), and the
bot API's answer to a join. Players are shown by name (a level by its number); no
message is about a game's cards, only its result and its address to watch.
"""

from __future__ import annotations

from typing import Literal

from hanamikoji.interfaces.web.wire.outgoing import WireStruct

__all__ = [
    "TOURNAMENT_ANSWERS",
    "TournamentBoard",
    "TournamentCard",
    "TournamentCreated",
    "TournamentEntry",
    "TournamentLine",
    "TournamentList",
    "TournamentMine",
    "TournamentView",
]


class TournamentCard(WireStruct, frozen=True, kw_only=True, gc=False):
    """A tournament in the list: its settings, status, start (and an arena's end, ms
    since the epoch) and how many entered."""

    id: str
    name: str
    creator: str
    variant: str
    time_control: str
    rated: bool
    kind: Literal["swiss", "arena"]
    rounds: int | None
    minutes: int | None
    starts: int
    ends: int | None
    status: Literal["created", "started", "finished"]
    entry: Literal["people", "bots", "both"]
    entrants: int


class TournamentList(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/tournaments``: upcoming, running and finished open tournaments, and
    the server's time (for the countdowns)."""

    upcoming: tuple[TournamentCard, ...]
    running: tuple[TournamentCard, ...]
    finished: tuple[TournamentCard, ...]
    now: int


class TournamentLine(WireStruct, frozen=True, kw_only=True, gc=False):
    """A line of the standings: a Swiss's score, Buchholz and Sonneborn-Berger, or an
    arena's points, streak (``fire``) and what each game was worth (``sheet``)."""

    rank: int
    name: str
    level: int | None
    bot: bool
    rating: int
    active: bool
    score: float
    buchholz: float
    sonneborn_berger: float
    fire: bool
    sheet: tuple[int, ...]
    wins: int
    draws: int
    losses: int
    byes: int


class TournamentBoard(WireStruct, frozen=True, kw_only=True, gc=False):
    """A pairing: its round (0 in an arena), who starts (``first``) and who plays them,
    the result from the first's side (``None``: on), and its game (``None``: played
    between two levels, no page)."""

    round: int
    first: str
    second: str
    result: str | None
    game: str | None


class TournamentMine(WireStruct, frozen=True, kw_only=True, gc=False):
    """The viewer's own place: entered, still paired (``active``), their game on (and
    its seat), and their opponent's name."""

    entered: bool
    active: bool
    game: str | None
    seat: int | None
    opponent: str | None


class TournamentView(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/tournaments/{id}`` and the tournament's socket: the card, its
    standings, its pairings (each round's, the latest first; byes named), the viewer's
    place, whether they may join, and (to its creator) the invitation code."""

    card: TournamentCard
    standings: tuple[TournamentLine, ...]
    boards: tuple[TournamentBoard, ...]
    byes: tuple[str, ...]
    round: int
    mine: TournamentMine
    can_join: bool
    creator: bool
    invite_code: str | None
    now: int


class TournamentCreated(WireStruct, frozen=True, kw_only=True, gc=False):
    """``POST /api/tournaments``: the new tournament's id (and invitation code)."""

    id: str
    invite_code: str | None


class TournamentEntry(WireStruct, frozen=True, kw_only=True, gc=False):
    """A join or a withdrawal, done: whether the player is now in."""

    id: str
    entered: bool


TOURNAMENT_ANSWERS = (TournamentList, TournamentView, TournamentCreated, TournamentEntry)
"""The tournament routes' answers (the socket sends :class:`TournamentView`)."""
