"""What a challenge is and its rules: one player asks another (by name), or anyone
(through the challenge's link: an **open** challenge), for a game of chosen settings.

* **Who may challenge**: a signed-in player (a guest too, unrated), never themselves
  (``err_challenge_self``), never a player either of the two blocked
  (``err_blocked``); a rated challenge needs an account on both sides
  (``err_rated_needs_account``, ``ratings/model.check_rated``). A player has at most
  :data:`MAX_OPEN` open challenges (``err_too_many_challenges``).
* **Who may accept**: the named opponent, or for an open challenge any signed-in player
  but the challenger (an account if it is rated); a challenge that is no longer open
  (accepted, declined, cancelled, expired) is refused (``err_challenge_gone``), and one
  named for someone else too (``err_challenge_not_yours``). Of two acceptances at once,
  the database takes one (``store.py``): one game.
* **How long**: :data:`LIFETIME_MS` (10 minutes), and no longer than its challenger
  has a page of the site open (``presence.py``): the sweep ends it after that
  (``expired``).
* **The game**: the challenger at seat 0, the acceptor at seat 1, both seats named;
  who starts as the challenger chose (:func:`first_seat`).

>>> first_seat("me", 1), first_seat("them", 0), first_seat("random", 1)
(0, 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hanamikoji.interfaces.web.players.store import Player
from hanamikoji.interfaces.web.ratings.model import check_rated
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "ACCEPTED",
    "CANCELLED",
    "DECLINED",
    "EXPIRED",
    "LIFETIME_MS",
    "MAX_OPEN",
    "OPEN",
    "Challenge",
    "First",
    "Side",
    "check_accept",
    "check_challenge",
    "first_seat",
]

OPEN, ACCEPTED, DECLINED, CANCELLED, EXPIRED = (
    "open",
    "accepted",
    "declined",
    "cancelled",
    "expired",
)

LIFETIME_MS = 10 * 60 * 1000
"""How long a challenge stays open without an answer."""

MAX_OPEN = 5
"""The most open challenges one player may have sent at once."""

First = Literal["me", "them", "random"]


@dataclass(frozen=True, slots=True)
class Side:
    """A player of a challenge: id, name, whether an account."""

    id: str
    name: str
    account: bool


@dataclass(frozen=True, slots=True)
class Challenge:
    """A stored challenge (``opponent``: ``None`` for an open one)."""

    id: str
    challenger: Side
    opponent: Side | None
    variant: str
    time_control: str
    rated: bool
    first: First
    status: str
    game: str | None
    acceptor: str | None
    created: int
    expires: int

    def players(self) -> tuple[str, ...]:
        """The ids told of what becomes of it: the challenger, and the opponent or the
        acceptor."""
        other = self.opponent.id if self.opponent is not None else self.acceptor
        return (self.challenger.id,) if other is None else (self.challenger.id, other)

    def is_open(self, now: int) -> bool:
        return self.status == OPEN and now < self.expires


def first_seat(first: First, draw: int) -> int:
    """The seat that starts: the challenger sits at 0, the acceptor at 1; ``draw`` (0
    or 1) decides ``random``."""
    return 0 if first == "me" else 1 if first == "them" else draw


def check_challenge(
    challenger: Player | None, opponent: Player | None, *, rated: bool, variant: str, blocked: bool
) -> Player:
    """The challenger, who may send this challenge; else :class:`Refused` (see the
    module's rules). ``blocked``: either of the two blocked the other."""
    if challenger is None:
        raise Refused("err_signed_out")
    if rated:
        check_rated(challenger, None, variant)
    if opponent is not None:
        if opponent.id == challenger.id:
            raise Refused("err_challenge_self")
        if blocked:
            raise Refused("err_blocked")
    return challenger


def check_accept(
    challenge: Challenge, acceptor: Player | None, *, now: int, blocked: bool
) -> Player:
    """The acceptor, who may accept ``challenge`` now; else :class:`Refused`."""
    if acceptor is None:
        raise Refused("err_signed_out")
    if not challenge.is_open(now):
        raise Refused("err_challenge_gone")
    if acceptor.id == challenge.challenger.id:
        raise Refused("err_challenge_self")
    if challenge.opponent is not None and challenge.opponent.id != acceptor.id:
        raise Refused("err_challenge_not_yours")
    if blocked:
        raise Refused("err_blocked")
    if challenge.rated:
        check_rated(acceptor, None, challenge.variant)
    return acceptor
