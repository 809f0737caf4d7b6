"""The bot API's messages (docs/bot-api.md): the bodies its routes take, the JSON they
answer, and the NDJSON lines of its two streams; modelled on lichess's Bot API.

Event ``type``\\ s are camelCase as lichess's are; the game's state is the page's own
:class:`~.outgoing.SeatState` (one schema), so a line holds only what the seat may know.

>>> encode(OpponentGone(gone=True, claim_win_in_seconds=30))
'{"type":"opponentGone","gone":true,"claimWinInSeconds":30}'
>>> encode(ApiError(error="err_token", message="No token."))
'{"error":"err_token","message":"No token."}'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from hanamikoji.interfaces.web.db.api_tokens import Scope
from hanamikoji.interfaces.web.wire.incoming import decode_body
from hanamikoji.interfaces.web.wire.outgoing import SeatPlayer, SeatState, WireStruct, encode
from hanamikoji.interfaces.web.wire.refused import Refused

__all__ = [
    "TOKEN_ANSWERS",
    "AccountInfo",
    "ApiChallenge",
    "ApiChallengeMade",
    "ApiError",
    "ApiOk",
    "BotUpgraded",
    "ChallengeBody",
    "ChallengeEvent",
    "ChatBody",
    "ChatLineEvent",
    "GameFull",
    "GameRef",
    "GameRefEvent",
    "GameStateEvent",
    "MoveBody",
    "OpponentGone",
    "StreamLine",
    "TokenBody",
    "TokenCreated",
    "TokenInfo",
    "TokenList",
    "VariantRatingLine",
    "decode_challenge_body",
    "decode_chat_body",
    "decode_move_body",
    "decode_token_body",
    "encode",
]

First = Literal["challenger", "dest", "random"]

# -- bodies -----------------------------------------------------------------------------


class TokenBody(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/tokens``: a token's name and its scopes."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
    scopes: Annotated[tuple[Scope, ...], msgspec.Meta(min_length=1, max_length=2)]


class MoveBody(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/bot/game/{id}/move``: the decision in our notation."""

    decision: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class ChatBody(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/bot/game/{id}/chat``: a line of free text in a room."""

    room: Literal["player", "spectator"]
    text: Annotated[str, msgspec.Meta(max_length=1024)]


class ChallengeBody(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/challenge/{name}``: the game's settings (``clock``: a time control's
    name, ``None`` untimed)."""

    variant: str = "classic"
    clock: Literal["3+2", "5+5", "10+0", "1d", "3d"] | None = None
    rated: bool = False
    first: First = "random"


_TOKEN = msgspec.json.Decoder(TokenBody)
_MOVE = msgspec.json.Decoder(MoveBody)
_CHAT = msgspec.json.Decoder(ChatBody)
_CHALLENGE = msgspec.json.Decoder(ChallengeBody)


def decode_token_body(body: bytes) -> TokenBody:
    found = decode_body(_TOKEN, body)
    if len(set(found.scopes)) != len(found.scopes) or not found.name.strip():
        raise Refused("err_bad_field", field="scopes" if found.name.strip() else "name")
    return found


def decode_move_body(body: bytes) -> MoveBody:
    return decode_body(_MOVE, body)


def decode_chat_body(body: bytes) -> ChatBody:
    return decode_body(_CHAT, body)


def decode_challenge_body(body: bytes) -> ChallengeBody:
    return decode_body(_CHALLENGE, body or b"{}")


# -- answers ------------------------------------------------------------------------------


class ApiError(WireStruct, frozen=True, kw_only=True, gc=False):
    """A refused API request: its code (``docs/bot-api.md``) and the sentence."""

    error: str
    message: str
    seconds: int | UnsetType = UNSET


class ApiOk(WireStruct, frozen=True, kw_only=True, gc=False):
    ok: bool = True


class TokenInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """A token as its account's list shows it (never the token)."""

    id: str
    name: str
    scopes: tuple[str, ...]
    created: int
    last_used: int | None


class TokenCreated(WireStruct, frozen=True, kw_only=True, gc=False):
    """A new token, with its text: the only time the server shows it."""

    id: str
    name: str
    scopes: tuple[str, ...]
    token: str
    created: int


class TokenList(WireStruct, frozen=True, kw_only=True, gc=False):
    tokens: tuple[TokenInfo, ...]


class VariantRatingLine(WireStruct, frozen=True, kw_only=True, gc=False):
    rating: int
    provisional: bool
    games: int


class AccountInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/account``: the token's account and its ratings by variant."""

    id: str
    name: str
    bot: bool
    ratings: dict[str, VariantRatingLine]


class BotUpgraded(WireStruct, frozen=True, kw_only=True, gc=False):
    bot: bool = True


class ApiChallenge(WireStruct, frozen=True, kw_only=True, gc=False):
    """A challenge as the bot API shows it (``dest``: the challenged account)."""

    id: str
    challenger: SeatPlayer
    dest: SeatPlayer
    variant: str
    clock: str | None
    rated: bool
    first: First
    status: str


class ApiChallengeMade(WireStruct, frozen=True, kw_only=True, gc=False):
    challenge: ApiChallenge


class GameRef(WireStruct, frozen=True, kw_only=True, gc=False):
    """A bot's game as its event stream names it."""

    id: str
    seat: int
    variant: str
    rated: bool
    clock: str | None
    opponent: SeatPlayer


# -- stream lines -------------------------------------------------------------------------


class GameRefEvent(WireStruct, frozen=True, kw_only=True, gc=False):
    """``gameStart`` or ``gameFinish``."""

    type: Literal["gameStart", "gameFinish"]
    game: GameRef


class ChallengeEvent(WireStruct, frozen=True, kw_only=True, gc=False):
    """``challenge`` (open), ``challengeCanceled`` or ``challengeDeclined``."""

    type: Literal["challenge", "challengeCanceled", "challengeDeclined"]
    challenge: ApiChallenge


class GameFull(WireStruct, tag="gameFull", frozen=True, kw_only=True, gc=False):
    """The game stream's first line: the game and the seat's whole state."""

    id: str
    seat: int
    variant: str
    rated: bool
    clock: str | None
    people: tuple[SeatPlayer, SeatPlayer]
    state: SeatState


class GameStateEvent(WireStruct, tag="gameState", frozen=True, kw_only=True, gc=False):
    """The seat's whole state after a change (its clocks with it)."""

    state: SeatState


class ChatLineEvent(WireStruct, tag="chatLine", frozen=True, kw_only=True, gc=False):
    room: Literal["player", "spectator"]
    username: str
    text: str


class OpponentGone(WireStruct, tag="opponentGone", frozen=True, kw_only=True, gc=False):
    """The other seat has no page or stream open (``gone``), and in how many seconds
    its forfeit falls (``None``: no forfeit is coming)."""

    gone: bool
    claim_win_in_seconds: int | None = msgspec.field(name="claimWinInSeconds")


TOKEN_ANSWERS: tuple[Any, ...] = (TokenList, TokenCreated, BotUpgraded)
"""What the account's page reads of the tokens' routes, for ``typescript.py``."""

StreamLine = (
    GameRefEvent | ChallengeEvent | GameFull | GameStateEvent | ChatLineEvent | OpponentGone
)
"""A line of either stream."""
