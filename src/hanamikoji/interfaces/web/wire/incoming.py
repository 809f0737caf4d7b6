"""Every message the server takes in, as typed schemas, and the one decoder for them.

A body or a WebSocket message is decoded straight into its schema (msgspec): a value of
the wrong kind is refused at the first byte that shows it, unknown fields are refused,
and since every field is a flat value no input can nest deeper than its schema, however
many brackets it opens. Whatever is wrong becomes a :class:`Refused` with the code the
page already knows (``err_not_json``, ``err_not_object``, ``err_unknown_type``,
``err_bad_field``, ``err_bad_lang``, ``err_too_long``); ``docs/web.md`` lists them. A body,
and a socket message in a binary frame, are bytes that must be JSON in UTF-8: bytes that
are not UTF-8, even inside a string, are not JSON.

>>> decode_client_message('{"type": "move", "move": "S:D", "ply": 4}')
MoveMessage(move='S:D', ply=4)
>>> decode_client_message('{"type": "move", "move": "S:D", "ply": 4.0}')
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_bad_field
>>> decode_client_message("[" * 1000 + "]" * 1000)
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_not_object
>>> decode_new_game(b'{"opponent": "bot", "level": []}')
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_bad_field
>>> decode_new_game(b'{"variant": "\\xc3\\x28"}')
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_not_json
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, TypeVar

import msgspec

from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_MESSAGE_CHARS",
    "AbortMessage",
    "ChallengeRequest",
    "ChatReportMessage",
    "ChatSayMessage",
    "ClientMessage",
    "Credentials",
    "EmailNotifyRequest",
    "EmailRequest",
    "GuestRating",
    "GuestRequest",
    "Hello",
    "LangMessage",
    "MoveMessage",
    "NewGameRequest",
    "Ping",
    "PuzzleAnswer",
    "PuzzleMakeRequest",
    "ResignMessage",
    "SocialMessage",
    "decode_body",
    "decode_challenge",
    "decode_client_message",
    "decode_credentials",
    "decode_email",
    "decode_email_notify",
    "decode_guest",
    "decode_new_game",
    "decode_puzzle_answer",
    "decode_puzzle_make",
    "decode_social_message",
]

MAX_MESSAGE_CHARS = 2048
"""The longest WebSocket message taken (a move message is under 60)."""

MAX_BODY_BYTES = 4096
"""The longest HTTP body taken (a new game's settings are under 100 bytes)."""

DEFAULT_LEVEL = 3
"""The level a new game against a bot is at unless asked otherwise: the one whose rating
(``docs/strength.md``, "The levels' ratings") is nearest a new player's 1500."""

Token = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
MoveText = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
Ply = Annotated[int, msgspec.Meta(ge=0)]


class NewGameRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/games``: a game against a bot of ``level``, or a friend."""

    opponent: Literal["bot", "friend"] = "bot"
    level: int = DEFAULT_LEVEL
    variant: str = "classic"
    first: Literal["me", "opponent", "random"] = "random"
    clock: Literal["none", "3+2", "5+5", "10+0", "1d", "3d"] = "none"
    """The time control: untimed, real time (minutes + seconds per decision) or
    correspondence (days per decision); ``games/clocks.py``'s ``PRESETS``."""
    private: bool = False
    rated: bool = False
    """Rated (``ratings/``): only an account may ask, and a friend must be one too."""


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True, frozen=True):
    """The first message of a socket: the seat it opens (by its token, or without one
    the seat the session cookie's player holds), and the page's language."""

    token: Token | None = None
    lang: Lang = "en"


Text = Annotated[str, msgspec.Meta(max_length=1024)]


class Credentials(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/me/register`` and ``/api/me/login``: an account's name and password
    (their rules are checked by ``players/names.py``, which says which one is broken)."""

    name: Text
    password: Text


class GuestRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/me/guest``: the nickname a guest plays under."""

    nickname: Text


class EmailRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/me/email``: the address an account wants e-mails at (its rule is
    checked by ``notices/links.py``)."""

    address: Text


class EmailNotifyRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/me/email/notify``: e-mails about the player's turn in correspondence
    games, on or off."""

    on: bool


class MoveMessage(msgspec.Struct, tag="move", forbid_unknown_fields=True, frozen=True):
    """A decision, in the notation; ``ply`` (the page's count of decisions so far)
    makes a decision sent from an outdated table stale instead of wrong."""

    move: MoveText
    ply: Ply | None = None


class LangMessage(msgspec.Struct, tag="lang", forbid_unknown_fields=True, frozen=True):
    """The page switched language."""

    lang: Lang


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True, frozen=True):
    """Are you there? (answered by ``pong``)."""


class ResignMessage(msgspec.Struct, tag="resign", forbid_unknown_fields=True, frozen=True):
    """The seat gives the game up, whoever is to decide (refused with ``err_game_over``
    once it is over, ``err_spectator`` from a spectator's socket)."""


class AbortMessage(msgspec.Struct, tag="abort", forbid_unknown_fields=True, frozen=True):
    """The seat calls the game off before each side has decided (refused with
    ``err_abort_late`` after, ``err_game_over`` once it is over)."""


class ChatSayMessage(msgspec.Struct, tag="chat", forbid_unknown_fields=True, frozen=True):
    """A chat line in ``room`` (a seat's page writes in ``player``, a spectator's in
    ``spectator``): a preset phrase by its key, or free text (``chat/model.py`` says
    which text is taken)."""

    room: Literal["player", "spectator"]
    preset: Annotated[str, msgspec.Meta(max_length=40)] | None = None
    text: Text | None = None


class ChatReportMessage(msgspec.Struct, tag="chat_report", forbid_unknown_fields=True, frozen=True):
    """Report a line of the page's room to the moderators."""

    line: Annotated[int, msgspec.Meta(ge=1, le=2**62)]


ClientMessage = (
    Hello
    | MoveMessage
    | LangMessage
    | Ping
    | ResignMessage
    | AbortMessage
    | ChatSayMessage
    | ChatReportMessage
)

_T = TypeVar("_T")

_NEW_GAME = msgspec.json.Decoder(NewGameRequest)
_CREDENTIALS = msgspec.json.Decoder(Credentials)
_GUEST = msgspec.json.Decoder(GuestRequest)
_EMAIL = msgspec.json.Decoder(EmailRequest)
_EMAIL_NOTIFY = msgspec.json.Decoder(EmailNotifyRequest)
_CLIENT_MESSAGE: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)
_FIELD = re.compile(r"at `\$\.(\w+)`|field `(\w+)`")


def decode_new_game(body: bytes) -> NewGameRequest:
    """The settings of a new game (an empty body: every default), checked against the
    levels and variants there are."""
    request = _decode(_NEW_GAME, body or b"{}", tagged=False)
    if request.opponent == "bot" and request.level not in LEVELS:
        raise Refused("err_bad_field", field="level")
    if request.variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    return request


def decode_credentials(body: bytes) -> Credentials:
    """A name and a password to register or sign in with."""
    return _decode(_CREDENTIALS, body, tagged=False)


def decode_guest(body: bytes) -> GuestRequest:
    """A guest's nickname."""
    return _decode(_GUEST, body, tagged=False)


def decode_email(body: bytes) -> EmailRequest:
    """An e-mail address to verify."""
    return _decode(_EMAIL, body, tagged=False)


def decode_email_notify(body: bytes) -> EmailNotifyRequest:
    """E-mails about the player's turn, on or off."""
    return _decode(_EMAIL_NOTIFY, body, tagged=False)


def decode_client_message(data: str | bytes) -> ClientMessage:
    """One WebSocket message from a page: a text frame, or a binary one (UTF-8 JSON)."""
    return _decode(_CLIENT_MESSAGE, _within_limit(data), tagged=True)


def _within_limit(data: str | bytes) -> str | bytes:
    """A socket message, refused (``err_too_long``) over :data:`MAX_MESSAGE_CHARS`
    (characters of a text frame, bytes of a binary one)."""
    if len(data) > MAX_MESSAGE_CHARS:
        raise Refused("err_too_long", limit=MAX_MESSAGE_CHARS)
    return data


def decode_body(decoder: msgspec.json.Decoder[_T], body: bytes) -> _T:
    """A request's JSON body decoded into ``decoder``'s schema (another module's bodies:
    ``wire/api_messages.py``); whatever is wrong, a :class:`Refused`."""
    return _decode(decoder, body, tagged=False)


def _decode(decoder: msgspec.json.Decoder[_T], data: bytes | str, *, tagged: bool) -> _T:
    """``data`` decoded into its schema; whatever is wrong, a :class:`Refused`. Bytes that
    are not UTF-8 (msgspec checks them only inside strings, and raises
    ``UnicodeDecodeError``), and text with a lone surrogate (``UnicodeEncodeError``), are
    not JSON."""
    try:
        return decoder.decode(data)
    except msgspec.ValidationError as error:
        raise _refusal(str(error), tagged=tagged) from None
    except (msgspec.DecodeError, UnicodeError):
        raise Refused("err_not_json") from None


def _refusal(reason: str, *, tagged: bool) -> Refused:
    """The refusal for msgspec's account of what is wrong (it names the field)."""
    found = _FIELD.search(reason)
    field = None if found is None else found.group(1) or found.group(2)
    if field is None:
        return Refused("err_not_object")
    if tagged and field == "type":
        return Refused("err_unknown_type")
    if field == "lang":
        return Refused("err_bad_lang", langs=", ".join(LANGUAGES))
    return Refused("err_bad_field", field=field)


# -- the lobby's socket (lobby/) --------------------------------------------------------

TimeControlName = Literal["none", "3+2", "5+5", "10+0", "1d", "3d"]
"""A time control by name, as game creation takes it (untimed, real time, or days per
decision); the lobby carries it to the game it makes."""

RATING_BOUNDS = (0, 4000)
"""The ratings a seek's range may name."""


class SeekMessage(msgspec.Struct, tag="seek", forbid_unknown_fields=True, frozen=True):
    """An open seek: a game of ``variant`` and ``time_control``, ``rated`` or not, for an
    opponent rated within ``range`` (``[low, high]``; anyone when absent)."""

    variant: str = "classic"
    time_control: TimeControlName = "none"
    rated: bool = False
    range: tuple[int, int] | None = None


class CancelMessage(msgspec.Struct, tag="cancel", forbid_unknown_fields=True, frozen=True):
    """Withdraw one of this page's seeks."""

    seek: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class AcceptMessage(msgspec.Struct, tag="accept", forbid_unknown_fields=True, frozen=True):
    """Accept another player's seek: the game starts."""

    seek: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class QuickMessage(msgspec.Struct, tag="quick", forbid_unknown_fields=True, frozen=True):
    """Join the quick-pairing queue for a game of these settings."""

    variant: str = "classic"
    time_control: TimeControlName = "none"
    rated: bool = False


class LeaveQueueMessage(msgspec.Struct, tag="unqueue", forbid_unknown_fields=True, frozen=True):
    """Leave the quick-pairing queue."""


LobbyMessage = (
    SeekMessage
    | CancelMessage
    | AcceptMessage
    | QuickMessage
    | LeaveQueueMessage
    | LangMessage
    | Ping
)

_LOBBY_MESSAGE: msgspec.json.Decoder[LobbyMessage] = msgspec.json.Decoder(LobbyMessage)


def decode_lobby_message(data: str | bytes) -> LobbyMessage:
    """One message from the lobby page (a text or binary frame, as
    :func:`decode_client_message` takes). A variant the server does not know is refused
    (``err_bad_field`` naming ``variant``), as is a range whose low end is above its high
    or that leaves :data:`RATING_BOUNDS`."""
    message = _decode(_LOBBY_MESSAGE, _within_limit(data), tagged=True)
    if isinstance(message, SeekMessage | QuickMessage) and message.variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    if isinstance(message, SeekMessage) and message.range is not None:
        low, high = message.range
        if not RATING_BOUNDS[0] <= low <= high <= RATING_BOUNDS[1]:
            raise Refused("err_bad_field", field="range")
    return message


# -- friends and challenges (social/) ---------------------------------------------------

PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class ChallengeRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/challenges``: challenge the account ``opponent`` (``None``: an open
    challenge, for whoever opens its link) to a game of these settings; ``first`` is
    who starts, from the challenger's side."""

    opponent: PlayerName | None = None
    variant: str = "classic"
    time_control: TimeControlName = "none"
    rated: bool = False
    first: Literal["me", "them", "random"] = "random"


SocialMessage = LangMessage | Ping
"""What a page may send on the site socket (``WS /social/ws``)."""

_CHALLENGE = msgspec.json.Decoder(ChallengeRequest)
_SOCIAL_MESSAGE: msgspec.json.Decoder[SocialMessage] = msgspec.json.Decoder(SocialMessage)


def decode_challenge(body: bytes) -> ChallengeRequest:
    """A challenge's settings (an empty body: an open casual game of the defaults); a
    variant the server does not know is refused (``err_bad_field`` naming ``variant``)."""
    request = _decode(_CHALLENGE, body or b"{}", tagged=False)
    if request.variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    return request


def decode_social_message(data: str | bytes) -> SocialMessage:
    """One message from a page on the site socket (a text or binary frame)."""
    return _decode(_SOCIAL_MESSAGE, _within_limit(data), tagged=True)


# -- puzzles (puzzles/) ------------------------------------------------------------------

PuzzleAnswerText = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class GuestRating(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A guest's puzzle rating as its page keeps it: sent back moved by the answer, never
    used for anything rated."""

    rating: Annotated[float, msgspec.Meta(ge=0, le=4000)]
    deviation: Annotated[float, msgspec.Meta(ge=30, le=350)]
    volatility: Annotated[float, msgspec.Meta(gt=0, le=0.2)] = 0.06


class PuzzleAnswer(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/puzzles/{id}/answer``: the decision chosen (any of its text forms),
    and for a guest the rating its page keeps."""

    answer: PuzzleAnswerText
    guest: GuestRating | None = None


class PuzzleMakeRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/puzzles/make``: make a puzzle of decision ``ply`` (from 1, as the
    analysis numbers them) of the finished game ``game``."""

    game: Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern="^[A-Za-z0-9_-]+$")]
    ply: Annotated[int, msgspec.Meta(ge=1, le=400)]


_PUZZLE_ANSWER = msgspec.json.Decoder(PuzzleAnswer)
_PUZZLE_MAKE = msgspec.json.Decoder(PuzzleMakeRequest)


def decode_puzzle_answer(body: bytes) -> PuzzleAnswer:
    """An answer to a puzzle."""
    return _decode(_PUZZLE_ANSWER, body, tagged=False)


def decode_puzzle_make(body: bytes) -> PuzzleMakeRequest:
    """Which decision of a game to make a puzzle of."""
    return _decode(_PUZZLE_MAKE, body, tagged=False)
