"""Refusals over HTTP: one status table, one exception handler, one Origin check; and
the error message a page is sent, over HTTP or on a socket (:func:`error_message`).

A route refuses by raising :class:`~hanamikoji.interfaces.web.wire.refused.Refused`; the
handler :func:`refused` (registered once by the app) answers it with
``{"type": "error", "code", "message"}`` in the request's language, the status
:data:`STATUS` gives its key, and ``Retry-After`` when the refusal carries ``seconds``.

Every unsafe request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) passes :class:`OriginCheck`
before any route runs: a page of another site gets ``err_origin`` (403). The WebSocket
handshakes check the same rule where they are accepted (:func:`foreign_socket`). The
session's CSRF token is checked by ``players.sessions.acting_session`` where a route acts for
the session (a seat opened by its token needs none; docs/web.md, *Accounts*).
"""

from __future__ import annotations

from msgspec import UNSET
from starlette.requests import HTTPConnection, Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.db.health import RETRY_AFTER_SECONDS
from hanamikoji.interfaces.web.http.guards import origin_allowed
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.api_messages import ApiError
from hanamikoji.interfaces.web.wire.outgoing import ErrorMessage
from hanamikoji.interfaces.web.wire.refused import Refused, parse_lang
from hanamikoji.notation.names import LANGUAGES, Lang

__all__ = [
    "API_PREFIXES",
    "CLOSE_POLICY",
    "STATUS",
    "UNSAFE_METHODS",
    "NotFound",
    "OriginCheck",
    "api_refusal_response",
    "error_message",
    "foreign_socket",
    "no_route",
    "path_lang",
    "refusal_response",
    "refused",
    "request_lang",
    "status_of",
    "unavailable_message",
]

CLOSE_POLICY = 4403
"""The close code of a WebSocket handshake refused for its ``Origin`` (HTTP 403)."""

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

STATUS = {
    # the request itself
    "err_not_json": 400,
    "err_not_object": 400,
    "err_unknown_type": 400,
    "err_bad_field": 400,
    "err_bad_lang": 400,  # in a route's path: 404 (path_lang)
    "err_too_long": 413,
    "err_content_type": 415,
    "err_rate_limited": 429,
    "err_origin": 403,
    "err_csrf": 403,
    # players
    "err_signed_out": 401,
    "err_login_failed": 401,
    "err_name_length": 400,
    "err_name_chars": 400,
    "err_name_reserved": 400,
    "err_nickname_length": 400,
    "err_nickname_chars": 400,
    "err_password_length": 400,
    "err_name_taken": 409,
    "err_already_account": 409,
    "err_seat_taken": 409,
    "err_claim_both": 409,
    "err_no_player": 404,
    "err_login_rate": 429,
    # games
    "err_bad_token": 404,
    "err_no_game": 404,
    "err_unavailable": 503,
    "err_hint_rated": 409,
    "err_hint_friend": 409,
    "err_hint_late": 503,
    "err_rated_needs_account": 403,
    "err_rated_variant": 400,
    "err_not_your_turn": 409,
    "err_not_a_move": 409,
    "err_stale": 409,
    "err_conflict": 409,
    "err_storage": 409,
    "err_not_over": 409,
    "err_game_over": 409,
    # e-mail (notices/)
    "err_email_off": 404,
    "err_email_account": 403,
    "err_email_address": 400,
    "err_email_none": 409,
    "err_email_unverified": 409,
    "err_email_token": 400,
    "err_email_expired": 410,
    "err_email_rate": 429,
    "err_email_send": 503,
    "err_abort_late": 409,
    # friends and challenges (social/)
    "err_account_only": 403,
    "err_relation_self": 400,
    "err_too_many_relations": 409,
    "err_blocked": 403,
    "err_challenge_self": 400,
    "err_challenge_gone": 409,
    "err_challenge_not_yours": 403,
    "err_no_challenge": 404,
    "err_too_many_challenges": 409,
    "err_pairing": 503,
    # chat (chat/)
    "err_chat_none": 409,
    "err_chat_room": 403,
    "err_chat_preset": 400,
    "err_chat_empty": 400,
    "err_chat_long": 400,
    "err_chat_chars": 400,
    "err_chat_account": 403,
    "err_chat_closed": 403,
    "err_chat_rate": 429,
    "err_chat_no_line": 404,
    "err_chat_reported": 409,
    # puzzles/
    "err_no_puzzle": 404,
    "err_puzzle_none": 404,
    "err_puzzle_malformed": 400,
    "err_puzzle_illegal": 400,
    "err_puzzle_answered": 409,
    "err_puzzle_not_yours": 403,
    "err_puzzle_out_of_reach": 422,
    "err_puzzle_unclear": 422,
    # the bot API (bots/, api/; docs/bot-api.md)
    "err_token": 401,
    "err_scope": 403,
    "err_not_bot": 403,
    "err_has_games": 409,
    "err_bot_pairing": 403,
    "err_illegal": 400,
    "err_malformed": 400,
    "err_rate": 429,
    "err_too_many_tokens": 409,
    "err_no_token": 404,
    # the bot ladder (ladder/)
    "err_not_on_ladder": 404,
    # tournaments (tournaments/; docs/tournaments.md)
    "err_no_tournament": 404,
    "err_tournament_closed": 409,
    "err_tournament_entry": 403,
    "err_tournament_in": 409,
    "err_tournament_full": 409,
    "err_tournament_creator": 403,
    "err_no_route": 404,
}
"""The HTTP status of each refusal a route can raise (docs/web.md's error table)."""


class NotFound(Refused):
    """A refusal of a route's path: what it names does not exist (404, whatever its key)."""


def status_of(refusal: Refused) -> int:
    """The refusal's HTTP status: 404 for :class:`NotFound`, else :data:`STATUS`'s, 400
    for a key it does not name."""
    if isinstance(refusal, NotFound):
        return 404
    return STATUS.get(refusal.key, 400)


def path_lang(request: HTTPConnection) -> Lang:
    """The language a route's path names (``/api/i18n/{lang}``); :class:`NotFound`
    (``err_bad_lang``, 404) if it names none."""
    try:
        return parse_lang(request.path_params["lang"])
    except Refused as refusal:
        raise NotFound(refusal.key, **refusal.fields) from None


def request_lang(request: HTTPConnection) -> Lang:
    """The language of a request's refusals: the path's language on a route whose path
    names one (English if it names none); else ``?lang=``, ``X-Hanamikoji-Lang``, then
    the first of ``Accept-Language``'s that the server speaks, else English."""
    if "lang" in request.path_params:
        in_path = request.path_params["lang"]
        return parse_lang(in_path) if in_path in LANGUAGES else "en"
    wanted = request.query_params.get("lang") or request.headers.get("x-hanamikoji-lang", "")
    if wanted in LANGUAGES:
        return parse_lang(wanted)
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in ("es", "fr", "en"):
            return parse_lang(code)
    return "en"


def error_message(refusal: Refused, lang: Lang) -> ErrorMessage:
    """The message a page gets when something it sent is refused (over HTTP, on a
    socket)."""
    wait = refusal.fields.get("seconds")
    return ErrorMessage(
        code=refusal.key,
        message=text(refusal.key, lang, **refusal.localized_fields(lang)),
        seconds=wait if isinstance(wait, int) else UNSET,
    )


def unavailable_message(lang: Lang) -> ErrorMessage:
    """The message a page gets while the database cannot be reached (``health.py``)."""
    return error_message(Refused("err_unavailable", seconds=RETRY_AFTER_SECONDS), lang)


def refusal_response(refusal: Refused, lang: Lang) -> WireResponse:
    """The answer to a refused request: its message, status and ``Retry-After``."""
    response = WireResponse(error_message(refusal, lang), status_code=status_of(refusal))
    wait = refusal.fields.get("seconds")
    if isinstance(wait, int):
        response.headers["Retry-After"] = str(wait)
    return response


async def refused(request: Request, error: Exception) -> Response:
    """The app's handler of :class:`Refused`, wherever in a route it is raised. Sockets
    answer their own refusals on the socket: one that escapes is not an HTTP answer. The
    bot API's routes (:data:`API_PREFIXES`) answer in its own form."""
    if isinstance(request, WebSocket) or not isinstance(error, Refused):
        raise error
    if request.url.path.startswith(API_PREFIXES):
        return api_refusal_response(error, request_lang(request))
    return refusal_response(error, request_lang(request))


API_PREFIXES = (
    "/api/bot/",
    "/api/stream/",
    "/api/challenge/",
    "/api/account",
    "/api/tournament/",
)
"""The bot API's paths (docs/bot-api.md): a refusal there is ``{"error", "message"}``."""


async def no_route(request: Request, error: Exception) -> Response:
    """The app's answer to a path no route matches (or a method it does not take): in
    the bot API's form (``err_no_route``, 404; 405 for a method) under
    :data:`API_PREFIXES`, as Starlette answers elsewhere."""
    status = getattr(error, "status_code", 404)
    headers = getattr(error, "headers", None)
    if isinstance(request, WebSocket):
        raise error
    if not request.url.path.startswith(API_PREFIXES):
        return PlainTextResponse(str(getattr(error, "detail", "Not Found")), status, headers)
    response = api_refusal_response(NotFound("err_no_route"), request_lang(request))
    response.status_code = status
    if headers:
        response.headers.update(headers)
    return response


def api_refusal_response(refusal: Refused, lang: Lang) -> WireResponse:
    """A refused bot API request: ``{"error": code, "message"}`` with its status,
    ``Retry-After`` for a rate, ``WWW-Authenticate`` for a token that opens nothing."""
    wait = refusal.fields.get("seconds")
    body = ApiError(
        error=refusal.key,
        message=text(refusal.key, lang, **refusal.localized_fields(lang)),
        seconds=wait if isinstance(wait, int) else UNSET,
    )
    response = WireResponse(body, status_code=status_of(refusal))
    if isinstance(wait, int):
        response.headers["Retry-After"] = str(wait)
    if refusal.key == "err_token":
        response.headers["WWW-Authenticate"] = 'Bearer realm="hanamikoji"'
    return response


class OriginCheck:
    """Refuses every unsafe request (:data:`UNSAFE_METHODS`) whose ``Origin`` is not the
    server's own or one of ``allowed`` (``--allow-origin``) with 403 ``err_origin``,
    before any route runs."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            connection = HTTPConnection(scope)
            if not origin_allowed(connection, self.allowed):
                response = refusal_response(Refused("err_origin"), request_lang(connection))
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def foreign_socket(websocket: WebSocket, allowed: frozenset[str]) -> bool:
    """Whether the socket's handshake comes from a page of another site than the
    server's own and ``allowed`` (``--allow-origin``); if so it is refused (closed
    before it is accepted: HTTP 403)."""
    if origin_allowed(websocket, allowed):
        return False
    await websocket.close(code=CLOSE_POLICY)
    return True
