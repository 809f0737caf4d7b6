"""Every message and answer of friends and challenges (``social/``), as typed Structs:
what the site socket (``WS /social/ws``) sends a page, and what the routes under
``/api/...`` answer.

A challenge is shown by name, never by player id; its settings are the challenger's
(``first``: ``me`` means the challenger starts). No message here is about a game's
cards: a challenge accepted says which game was made, nothing more.
"""

from __future__ import annotations

from typing import Any, Literal

from hanamikoji.interfaces.web.wire.outgoing import ErrorMessage, Pong, WireStruct

__all__ = [
    "SOCIAL_ANSWERS",
    "ChallengeAccepted",
    "ChallengeGame",
    "ChallengeGone",
    "ChallengeInfo",
    "ChallengeList",
    "ChallengePlayer",
    "ChallengeReceived",
    "ChallengeView",
    "Friend",
    "Friends",
    "GameFinished",
    "GameStarted",
    "GoneReason",
    "RelationState",
    "SocialServerMessage",
    "SocialState",
]

GoneReason = Literal["cancelled", "declined", "expired", "taken"]
"""Why a challenge went: withdrawn by its challenger, declined by its opponent, out of
time (or its challenger left the site), accepted by someone else (an open challenge)."""


class ChallengePlayer(WireStruct, frozen=True, kw_only=True, gc=False):
    """The challenger as the challenge shows them: name, whether an account, and their
    rating in the challenge's variant (a new player's 1500? without one); ``bot``: a bot
    account (its BOT badge)."""

    name: str
    account: bool
    rating: int
    provisional: bool
    bot: bool = False


class ChallengeInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """A challenge: who sent it, to whom (``None``: an open challenge, for whoever opens
    its link), its settings (``first`` from the challenger's side), its status
    (``open``, ``accepted``, ``declined``, ``cancelled``, ``expired``), the game an
    acceptance made, and when it expires (ms since the epoch); ``opponent_bot``: the
    named opponent is a bot account (its BOT badge)."""

    id: str
    challenger: ChallengePlayer
    opponent: str | None
    variant: str
    time_control: str
    rated: bool
    first: Literal["me", "them", "random"]
    status: str
    game: str | None
    expires: int
    opponent_bot: bool = False


class SocialState(WireStruct, tag="social", frozen=True, kw_only=True, gc=False):
    """The site socket as it opens: the open challenges sent to the page's player, and
    those they sent."""

    incoming: tuple[ChallengeInfo, ...]
    outgoing: tuple[ChallengeInfo, ...]


class ChallengeReceived(WireStruct, tag="challenge", frozen=True, kw_only=True, gc=False):
    """A player challenged the page's player (or the page's player sent one, from
    another page)."""

    challenge: ChallengeInfo


class ChallengeGone(WireStruct, tag="challenge_gone", frozen=True, kw_only=True, gc=False):
    """A challenge to or from the page's player is no longer open, and why."""

    id: str
    reason: GoneReason


class ChallengeGame(WireStruct, tag="challenge_game", frozen=True, kw_only=True, gc=False):
    """A challenge of the page's player was accepted: the game it made (both seats are
    named, so the page opens its seat by its session)."""

    id: str
    game: str


class GameStarted(WireStruct, tag="game_start", frozen=True, kw_only=True, gc=False):
    """A game with the page's player named at a seat was made (an accepted challenge, a
    pairing of the lobby, the bot ladder or a tournament): its id, nothing more. The
    bot API's event stream turns it into ``gameStart``; a page has nothing to do."""

    game: str


class GameFinished(WireStruct, tag="game_finish", frozen=True, kw_only=True, gc=False):
    """A game of the page's player ended (by its rules, on time, resigned, aborted,
    forfeited): its id (the event stream's ``gameFinish``)."""

    game: str


SocialServerMessage = (
    SocialState
    | ChallengeReceived
    | ChallengeGone
    | ChallengeGame
    | GameStarted
    | GameFinished
    | ErrorMessage
    | Pong
)
"""Whatever the site socket sends."""


class ChallengeView(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/challenges/{id}``: the challenge, whether the asking player sent it
    (``yours``), and whether they may accept it (``for_you``: it is open and theirs to
    take)."""

    challenge: ChallengeInfo
    yours: bool
    for_you: bool


class ChallengeList(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/challenges``: the open challenges to and from the player."""

    incoming: tuple[ChallengeInfo, ...]
    outgoing: tuple[ChallengeInfo, ...]


class ChallengeAccepted(WireStruct, frozen=True, kw_only=True, gc=False):
    """``POST /api/challenges/{id}/accept``: the game made, and the acceptor's seat."""

    game: str
    seat: int


class RelationState(WireStruct, frozen=True, kw_only=True, gc=False):
    """What the asking player's relation to a player is (``GET
    /api/players/{name}/relation``, and the answer to follow, block and their undoing):
    whether they follow or block them, whether that player is online now, and whether
    a bot account (its BOT badge)."""

    name: str
    online: bool
    following: bool
    blocking: bool
    bot: bool = False


class Friend(WireStruct, frozen=True, kw_only=True, gc=False):
    """A player the asking player follows, and whether they are online now."""

    name: str
    online: bool
    bot: bool = False


class Friends(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/me/friends``: the players followed (those online first, then by name)
    and those blocked (by name)."""

    following: tuple[Friend, ...]
    blocked: tuple[str, ...]


SOCIAL_ANSWERS: tuple[Any, ...] = (
    ChallengeView,
    ChallengeList,
    ChallengeAccepted,
    ChallengeInfo,
    RelationState,
    Friends,
)
"""Every answer of the social routes, for ``typescript.py``."""
