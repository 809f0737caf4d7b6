"""The lines of the bot API's two NDJSON streams, as typed values (docs/bot-api.md).

The event stream (``GET /api/stream/event``) sends :class:`GameStart`,
:class:`GameFinish`, :class:`ChallengeEvent`, :class:`ChallengeCanceled` and
:class:`ChallengeDeclined`; a game's stream (``GET /api/bot/game/stream/{id}``) sends
:class:`GameFull`, then :class:`GameStateEvent`, :class:`ChatLine` and
:class:`OpponentGone`. A game's state is the page's own ``SeatState``
(``web/wire/outgoing.py``), decoded as that type: one schema. :func:`decode_line`
reads one line; a line of a type this client does not know is an :class:`Unknown`
(a newer server may send more), a line that is not one of these raises
:class:`BadLine`.

>>> decode_line(b'{"type": "chatLine", "room": "player", "username": "ann", "text": "hi"}')
ChatLine(room='player', username='ann', text='hi')
>>> decode_line(b'{"type": "somethingNew", "x": 1}')
Unknown(type='somethingNew')
"""

from __future__ import annotations

from typing import Literal

import msgspec

from hanamikoji.interfaces.web.wire.outgoing import SeatState

__all__ = [
    "BadLine",
    "Challenge",
    "ChallengeCanceled",
    "ChallengeDeclined",
    "ChallengeEvent",
    "ChatLine",
    "Event",
    "GameFinish",
    "GameFull",
    "GameRef",
    "GameStart",
    "GameStateEvent",
    "OpponentGone",
    "Player",
    "Unknown",
    "decode_line",
    "player_name",
]


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """Who sits at a seat (the page's ``SeatPlayer``, with ``bot``: a bot account)."""

    kind: str = "account"
    name: str | None = None
    level: int | None = None
    rating: int | None = None
    provisional: bool = False
    bot: bool = False


def player_name(player: Player) -> str:
    """A player as a log line or a record names them: the account's or guest's name,
    a built-in bot's level, else the kind."""
    if player.name:
        return player.name
    if player.level is not None:
        return f"level {player.level}"
    return player.kind


class GameRef(msgspec.Struct, frozen=True, kw_only=True):
    """A game of the bot: its id, the bot's seat, and its settings."""

    id: str
    seat: int
    variant: str
    rated: bool = False
    clock: str | None = None
    opponent: Player = Player()


class Challenge(msgspec.Struct, frozen=True, kw_only=True):
    """A challenge to or from the bot; ``clock`` is a time control's name (``3+2``,
    ``1d``) or ``None`` (untimed)."""

    id: str
    challenger: Player
    dest: Player
    variant: str
    clock: str | None = None
    rated: bool = False
    first: str = "random"
    status: str = "created"


class _Line(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A line of a stream: its ``type`` names it."""


class GameStart(_Line, frozen=True, kw_only=True, tag="gameStart"):
    game: GameRef


class GameFinish(_Line, frozen=True, kw_only=True, tag="gameFinish"):
    game: GameRef


class ChallengeEvent(_Line, frozen=True, kw_only=True, tag="challenge"):
    challenge: Challenge


class ChallengeCanceled(_Line, frozen=True, kw_only=True, tag="challengeCanceled"):
    challenge: Challenge


class ChallengeDeclined(_Line, frozen=True, kw_only=True, tag="challengeDeclined"):
    challenge: Challenge


class GameFull(_Line, frozen=True, kw_only=True, tag="gameFull"):
    """A game stream's first line: the game's settings and the seat's whole state."""

    id: str
    seat: int
    variant: str
    rated: bool = False
    clock: str | None = None
    people: tuple[Player, Player] = (Player(), Player())
    state: SeatState


class GameStateEvent(_Line, frozen=True, kw_only=True, tag="gameState"):
    """The seat's whole state after a change (a decision, a clock's end, a resignation)."""

    state: SeatState


class ChatLine(_Line, frozen=True, kw_only=True, tag="chatLine"):
    room: Literal["player", "spectator"] | str
    username: str
    text: str


class OpponentGone(_Line, frozen=True, kw_only=True, tag="opponentGone"):
    gone: bool
    claim_win_in_seconds: int | None = msgspec.field(default=None, name="claimWinInSeconds")


class Unknown(msgspec.Struct, frozen=True):
    """A line of a type this client does not know: ignored (a newer server's)."""

    type: str


Event = (
    GameStart
    | GameFinish
    | ChallengeEvent
    | ChallengeCanceled
    | ChallengeDeclined
    | GameFull
    | GameStateEvent
    | ChatLine
    | OpponentGone
)

_DECODER = msgspec.json.Decoder(Event)
_KNOWN = {
    "gameStart",
    "gameFinish",
    "challenge",
    "challengeCanceled",
    "challengeDeclined",
    "gameFull",
    "gameState",
    "chatLine",
    "opponentGone",
}


class _Typed(msgspec.Struct):
    type: str


class BadLine(ValueError):
    """A stream's line that is not JSON, or not the shape its type says."""


def decode_line(line: bytes | str) -> Event | Unknown:
    """One stream line as its event (see the module's documentation)."""
    try:
        event: Event = _DECODER.decode(line)
        return event
    except msgspec.DecodeError as error:
        try:
            kind = msgspec.json.decode(line, type=_Typed).type
        except msgspec.DecodeError:
            raise BadLine(f"not an event line: {error}") from None
        if kind not in _KNOWN:
            return Unknown(kind)
        raise BadLine(f"a {kind!r} line: {error}") from None
