"""What the lobby holds and pairs: seeks, the quick-pairing queue's places, and pairings.

* A **seek** is one page's offer of a game: variant, time control, rated or not, and the
  ratings it accepts (``range``; anyone without one). It names its instance and its page
  (a client key), and shows its player as every instance needs them (:class:`SeekPlayer`),
  so that no instance asks the database per page.
* **Quick pairing** pairs the closest ratings among those waiting (:class:`Waiting`) for
  the same settings, within a window that widens while they wait (:func:`window`,
  :func:`candidates`).
* A **pairing** (:class:`Pairing`) is two players to seat in a new game; the game's maker
  (:data:`GameMaker`) returns their seats (:class:`Seat`).
* Two players of whom one blocked the other are never paired (:data:`BlockedPair`, the
  social part's block list as ``services.py`` plugs it in).

>>> window(0.0), window(10.0), window(600.0)
(100.0, 300.0, 700.0)
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import msgspec

from hanamikoji.interfaces.web.wire.lobby_messages import PublicSeek, SeekPlayerInfo

__all__ = [
    "MAX_SEEKS",
    "NOBODY_BLOCKED",
    "BlockedPair",
    "GameMaker",
    "Pairing",
    "Seat",
    "Seek",
    "SeekPlayer",
    "Waiting",
    "candidates",
    "window",
]

MAX_SEEKS = 3
"""Open seeks one page may have at once."""

WINDOW_START = 100.0
WINDOW_GROWTH = 20.0
WINDOW_MAX = 700.0


def window(waited: float) -> float:
    """How far apart two ratings may be for a quick pairing, after ``waited`` seconds in
    the queue: 100 at once, 20 more each second, at most 700."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * waited)


class SeekPlayer(msgspec.Struct, frozen=True):
    """The seeker as a seek shows them: id, name, account or guest, and their rating in
    the seek's variant (``provisional``: too few games to trust it)."""

    id: str
    name: str
    account: bool
    rating: float
    provisional: bool

    def public(self) -> SeekPlayerInfo:
        return SeekPlayerInfo(
            name=self.name,
            account=self.account,
            rating=round(self.rating),
            provisional=self.provisional,
        )


class Seek(msgspec.Struct, frozen=True):
    """An open seek: its page (``client``, a key) on ``instance``, its player, its
    settings, the ratings it accepts (``None``: anyone), and when it was posted (ms)."""

    id: str
    instance: str
    client: str
    player: SeekPlayer
    variant: str
    time_control: str
    rated: bool
    range: tuple[int, int] | None
    created: int

    def admits(self, rating: float) -> bool:
        """Whether a player rated ``rating`` in the seek's variant is within its range."""
        if self.range is None:
            return True
        low, high = self.range
        return low <= rating <= high

    def public(self, mine: bool) -> PublicSeek:
        return PublicSeek(
            id=self.id,
            variant=self.variant,
            time_control=self.time_control,
            rated=self.rated,
            range=self.range,
            player=self.player.public(),
            mine=mine,
        )


class Waiting(msgspec.Struct, frozen=True):
    """A page in the quick-pairing queue: its instance, player, settings, rating in the
    variant, and since when (ms) it waits."""

    client: str
    instance: str
    player: str
    variant: str
    time_control: str
    rated: bool
    rating: float
    since: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players (their ids) to seat in a new game of these settings (``seeker`` at
    seat 0)."""

    seeker: str
    opponent: str
    variant: str
    time_control: str
    rated: bool


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a paired game, and its token (``None``: not known here; the seat opens
    by its player's session)."""

    game: str
    seat: int
    token: str | None


GameMaker = Callable[[Pairing], Awaitable[tuple[Seat, Seat]]]
"""Creates the game of a pairing with both seats named; returns (seeker's, opponent's)."""


BlockedPair = Callable[[str, str], bool]
"""Whether one of two players (their ids) blocked the other: a blocking query, asked in
a thread as a pairing is about to be made, so that a block takes effect at once."""


def nobody_blocked(a: str, b: str) -> bool:
    """The default :data:`BlockedPair`: nobody blocked anybody."""
    return False


NOBODY_BLOCKED: BlockedPair = nobody_blocked


def candidates(queue: list[Waiting], now: int) -> list[tuple[Waiting, Waiting]]:
    """Pairs of ``queue`` that may play at ``now`` (ms), closest ratings first (then the
    longest waiting): same settings, two players, ratings within both windows."""
    found = []
    for a, b in itertools.combinations(queue, 2):
        if (a.variant, a.time_control, a.rated) != (b.variant, b.time_control, b.rated):
            continue
        if a.player == b.player:
            continue  # two pages of one player: never paired together
        gap = abs(a.rating - b.rating)
        if gap <= min(window((now - a.since) / 1000), window((now - b.since) / 1000)):
            found.append((gap, min(a.since, b.since), a, b))
    found.sort(key=lambda item: (item[0], item[1]))
    return [(a, b) for _, _, a, b in found]
