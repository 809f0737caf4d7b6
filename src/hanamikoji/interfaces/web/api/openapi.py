"""The bot API's OpenAPI 3.1 document, served at ``GET /api/openapi.json``
(docs/bot-api.md): the schemas are the routes' own msgspec Structs
(``msgspec.json.schema_components``), the paths a small table here, so the document
cannot drift from what the routes decode and answer.

>>> document = openapi_document()
>>> document["openapi"], sorted(document["components"]["securitySchemes"])
('3.1.0', ['bearer', 'csrf', 'session'])
>>> "/api/bot/game/{game_id}/move" in document["paths"]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, get_args

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.web.wire.api_messages import (
    AccountInfo,
    ApiChallengeMade,
    ApiError,
    ApiOk,
    BotUpgraded,
    ChallengeBody,
    ChatBody,
    MoveBody,
    StreamLine,
    TokenBody,
    TokenCreated,
    TokenList,
)
from hanamikoji.interfaces.web.wire.ladder_messages import LadderJoinBody, LadderPlace
from hanamikoji.interfaces.web.wire.outgoing import ErrorMessage

__all__ = ["OPERATIONS", "Operation", "openapi_document", "openapi_routes"]

REF = "#/components/schemas/{name}"
NDJSON = "application/x-ndjson"


@dataclass(frozen=True, slots=True)
class Operation:
    """One route of the document: its method and path, what it takes and answers, who
    may call it (``bearer``: a token; ``session``: the page's session cookie, with the
    CSRF header if it changes something), and the statuses of its refusals."""

    method: str
    path: str
    summary: str
    answer: Any | None
    status: int = 200
    body: Any | None = None
    auth: str = "bearer"
    refusals: tuple[int, ...] = (400, 401, 403, 404, 409, 413, 415, 429, 503)
    stream: bool = False
    body_optional: bool = False
    """Whether the body may be left out (its fields then take their defaults)."""


_GAME = "/api/bot/game/{game_id}"
_SESSION_REFUSALS = (400, 401, 403, 404, 409, 413, 415, 503)

OPERATIONS: tuple[Operation, ...] = (
    Operation("get", "/api/tokens", "The account's tokens in use", TokenList, auth="session"),
    Operation(
        "post",
        "/api/tokens",
        "A new token: its text, shown once",
        TokenCreated,
        201,
        TokenBody,
        auth="session",
        refusals=_SESSION_REFUSALS,
    ),
    Operation(
        "delete",
        "/api/tokens/{token_id}",
        "Revoke a token",
        None,
        204,
        auth="session",
        refusals=_SESSION_REFUSALS,
    ),
    Operation("get", "/api/account", "The token's account", AccountInfo),
    Operation("post", "/api/bot/account/upgrade", "Make the account a bot, for good", BotUpgraded),
    Operation("get", "/api/stream/event", "The bot's events (NDJSON)", StreamLine, stream=True),
    Operation("get", "/api/bot/game/stream/{game_id}", "A game (NDJSON)", StreamLine, stream=True),
    Operation("post", f"{_GAME}/move", "A decision, in the body", ApiOk, body=MoveBody),
    Operation("post", f"{_GAME}/move/{{decision}}", "A decision, percent-encoded", ApiOk),
    Operation("post", f"{_GAME}/resign", "Resign", ApiOk),
    Operation("post", f"{_GAME}/abort", "Abort, before each side has decided", ApiOk),
    Operation("post", f"{_GAME}/chat", "A chat line", ApiOk, body=ChatBody),
    Operation(
        "post",
        "/api/challenge/{name}",
        "Challenge an account",
        ApiChallengeMade,
        body=ChallengeBody,
    ),
    Operation("post", "/api/challenge/{challenge_id}/accept", "Accept a challenge", ApiOk),
    Operation("post", "/api/challenge/{challenge_id}/decline", "Decline a challenge", ApiOk),
    Operation("post", "/api/challenge/{challenge_id}/cancel", "Cancel a challenge", ApiOk),
    Operation(
        "post",
        "/api/bot/ladder/join",
        "Join the bot ladder (no body: every variant, one game at a time)",
        LadderPlace,
        body=LadderJoinBody,
        body_optional=True,
    ),
    Operation("post", "/api/bot/ladder/leave", "Leave the bot ladder", ApiOk),
)
"""Every route of the bot API and of the tokens, as the document shows them."""

_SECURITY = {
    "bearer": {"type": "http", "scheme": "bearer", "description": "A personal API token"},
    "session": {"type": "apiKey", "in": "cookie", "name": "hanamikoji_session"},
    "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"},
}

_PATH_PARAMETERS = {
    "game_id": {"type": "string", "minLength": 1, "maxLength": 32},
    "token_id": {"type": "string", "minLength": 1, "maxLength": 32},
    "challenge_id": {"type": "string", "minLength": 1, "maxLength": 32},
    "name": {"type": "string", "minLength": 1, "maxLength": 40},
    "decision": {"type": "string", "minLength": 1, "maxLength": 32},
}


def _ref(kind: Any) -> dict[str, str]:
    return {"$ref": REF.format(name=kind.__name__)}


def _operation(op: Operation) -> dict[str, Any]:
    error = ErrorMessage if op.auth == "session" else ApiError
    responses: dict[str, Any] = {}
    if op.answer is None:
        responses[str(op.status)] = {"description": "Done"}
    elif op.stream:
        line = {"$ref": REF.format(name="StreamLine")}
        responses[str(op.status)] = {
            "description": "One JSON object a line (an empty line: keep-alive)",
            "content": {NDJSON: {"schema": line}},
        }
    else:
        content = {"application/json": {"schema": _ref(op.answer)}}
        responses[str(op.status)] = {"description": "Done", "content": content}
    for status in op.refusals:
        refusal: dict[str, Any] = {
            "description": "Refused (docs/bot-api.md, Errors)",
            "content": {"application/json": {"schema": _ref(error)}},
        }
        if status == 429:
            refusal["headers"] = {"Retry-After": {"schema": {"type": "integer"}}}
        if status == 401 and op.auth == "bearer":
            refusal["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}}}
        responses[str(status)] = refusal
    found: dict[str, Any] = {
        "summary": op.summary,
        "operationId": f"{op.method}_{op.path}".replace("/", "_").replace("{", "").replace("}", ""),
        "responses": responses,
        "security": [{"bearer": []}] if op.auth == "bearer" else [{"session": [], "csrf": []}],
    }
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": schema}
        for name, schema in _PATH_PARAMETERS.items()
        if f"{{{name}}}" in op.path
    ]
    if parameters:
        found["parameters"] = parameters
    if op.body is not None:
        schema = _ref(op.body)
        found["requestBody"] = {
            "required": not op.body_optional,
            "content": {"application/json": {"schema": schema}},
        }
    return found


@cache
def openapi_document() -> dict[str, Any]:
    """The document, built once."""
    kinds = {op.body for op in OPERATIONS if op.body is not None}
    kinds |= {op.answer for op in OPERATIONS if op.answer is not None and not op.stream}
    kinds |= {ApiError, ErrorMessage}
    ordered = sorted(kinds, key=lambda kind: kind.__name__)
    lines = get_args(StreamLine)
    _, components = msgspec.json.schema_components([*ordered, *lines], ref_template=REF)
    components["StreamLine"] = {"anyOf": [_ref(line) for line in lines]}
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        paths.setdefault(op.path, {})[op.method] = _operation(op)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Hanamikoji bot API",
            "version": "1",
            "description": "Bot accounts, personal tokens, NDJSON streams (docs/bot-api.md).",
        },
        "paths": paths,
        "components": {"schemas": components, "securitySchemes": _SECURITY},
    }


async def _openapi(request: Request) -> Response:
    return JSONResponse(openapi_document(), headers={"Cache-Control": "public, max-age=300"})


def openapi_routes() -> list[BaseRoute]:
    return [Route("/api/openapi.json", _openapi)]
