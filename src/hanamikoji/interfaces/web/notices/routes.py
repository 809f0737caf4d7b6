"""The e-mail routes.

==========================================  =============================================
``GET /api/me/email``                       the account's address, verified, opted in
``POST /api/me/email``                      a new address: its verification link is sent
``POST /api/me/email/notify``               e-mails about the player's turn on or off
``POST /api/me/email/remove``               the address forgotten
``GET /email/verify?t=TOKEN``               the verification link (a page)
``GET /email/unsubscribe?t=TOKEN``          the unsubscribe link (a page), one click
``POST /email/unsubscribe?t=TOKEN``         the same, for ``List-Unsubscribe-Post``
==========================================  =============================================

The ``/api/me/email`` routes answer the signed-in account only, about itself: an address
is in no other answer. Their ``POST``s carry the session's CSRF token
(``players/sessions.py``). The links need no session: their token is signed
(``links.py``). Verification e-mails are limited per account
(:data:`VERIFICATIONS_PER_HOUR`, counted in the database every instance shares).
"""

from __future__ import annotations

import html

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.db.attempts import attempt_key, count_attempt
from hanamikoji.interfaces.web.http.guards import read_body
from hanamikoji.interfaces.web.http.refusals import request_lang, status_of
from hanamikoji.interfaces.web.notices.batches import Notices
from hanamikoji.interfaces.web.notices.links import check_address, link_player
from hanamikoji.interfaces.web.players.accounts import Session
from hanamikoji.interfaces.web.players.sessions import acting_session, current_session
from hanamikoji.interfaces.web.services import services
from hanamikoji.interfaces.web.wire.answers import WireResponse
from hanamikoji.interfaces.web.wire.incoming import (
    MAX_BODY_BYTES,
    decode_email,
    decode_email_notify,
)
from hanamikoji.interfaces.web.wire.notice_answers import EmailSettings
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.names import Lang

__all__ = ["VERIFICATIONS_PER_HOUR", "notice_routes"]

VERIFICATIONS_PER_HOUR = 5
"""Verification e-mails one account may ask for in an hour."""

NO_STORE = {"Cache-Control": "no-store"}


def notice_routes() -> list[BaseRoute]:
    return [
        Route("/api/me/email", _settings),
        Route("/api/me/email", _set_address, methods=["POST"]),
        Route("/api/me/email/notify", _notify, methods=["POST"]),
        Route("/api/me/email/remove", _remove, methods=["POST"]),
        Route("/email/verify", _verify),
        Route("/email/unsubscribe", _unsubscribe, methods=["GET", "POST"]),
    ]


def _notices(request: Request) -> Notices:
    return services(request).notices


async def _answer(request: Request, player_id: str) -> Response:
    notices = _notices(request)
    row = await notices.call(lambda: notices.rows.email_of(player_id))
    answer = EmailSettings(
        enabled=notices.enabled,
        address=None if row is None else row.address,
        verified=row is not None and row.verified,
        notify=row is not None and row.notify,
    )
    return WireResponse(answer, headers=NO_STORE)


async def _account(request: Request, *, acting: bool) -> Session:
    session = await (acting_session(request) if acting else current_session(request))
    if session is None:
        raise Refused("err_signed_out")
    if session.player.kind != "account":
        raise Refused("err_email_account")
    return session


async def _body(request: Request) -> bytes:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Refused("err_content_type")
    return await read_body(request, MAX_BODY_BYTES)


async def _settings(request: Request) -> Response:
    session = await _account(request, acting=False)
    return await _answer(request, session.player.id)


async def _set_address(request: Request) -> Response:
    session = await _account(request, acting=True)
    notices = _notices(request)
    if not notices.enabled:
        raise Refused("err_email_off")
    address = check_address(decode_email(await _body(request)).address)
    player = session.player
    serving = services(request)
    key = [attempt_key("verification-mail", player.id)]
    wait_ms = await serving.writer.call(
        lambda: count_attempt(serving.store, key, serving.now(), VERIFICATIONS_PER_HOUR, 3_600_000)
    )
    if wait_ms is not None:
        raise Refused("err_email_rate", seconds=max(1, round(wait_ms / 1000)))
    lang = request_lang(request)
    await notices.call(lambda: notices.rows.set_address(player.id, address, lang))
    try:
        await notices.send_verification(player.id, player.name, address, lang)
    except Exception:
        raise Refused("err_email_send") from None
    return await _answer(request, player.id)


async def _notify(request: Request) -> Response:
    session = await _account(request, acting=True)
    wanted = decode_email_notify(await _body(request))
    notices = _notices(request)
    player_id = session.player.id
    row = await notices.call(lambda: notices.rows.email_of(player_id))
    if row is None:
        raise Refused("err_email_none")
    if not await notices.call(lambda: notices.rows.set_notify(player_id, wanted.on)):
        raise Refused("err_email_unverified")
    return await _answer(request, player_id)


async def _remove(request: Request) -> Response:
    session = await _account(request, acting=True)
    notices = _notices(request)
    player_id = session.player.id
    await notices.call(lambda: notices.rows.remove(player_id))
    return await _answer(request, player_id)


# -- the links of e-mails: pages of their own, no session ---------------------------------------


def _page(lang: Lang, message: str, status: int = 200) -> HTMLResponse:
    """A small page of its own that says ``message`` (escaped), with a way back."""
    body = (
        "<!doctype html>\n"
        f'<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Hanamikoji</title>"
        '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">'
        '<link rel="stylesheet" href="/static/style.css"></head>'
        '<body><main class="email-page"><h1><a href="/">Hanamikoji</a></h1>'
        f'<p id="email-result">{html.escape(message)}</p>'
        f'<p><a href="/me">{html.escape(text("my_games", lang))}</a></p>'
        "</main></body></html>\n"
    )
    return HTMLResponse(body, status_code=status, headers=NO_STORE)


def _refused_page(lang: Lang, refusal: Refused) -> HTMLResponse:
    """A link refused: the page says why, with the refusal's status."""
    message = text(refusal.key, lang, **refusal.localized_fields(lang))
    return _page(lang, message, status_of(refusal))


def _token(request: Request) -> str:
    token = request.query_params.get("t", "")
    link_player(token)  # refuses what is no token
    return token


async def _verify(request: Request) -> Response:
    lang = request_lang(request)
    notices = _notices(request)
    try:
        token = _token(request)
        player_id = link_player(token)
        row = await notices.call(lambda: notices.rows.email_of(player_id))
        if row is None:
            raise Refused("err_email_token")
        notices.keys.check_verification(token, row.address, notices.now())
        await notices.call(lambda: notices.rows.verify(player_id, row.address))
    except Refused as refusal:
        return _refused_page(lang, refusal)
    return _page(lang, text("email_page_verified", lang))


async def _unsubscribe(request: Request) -> Response:
    lang = request_lang(request)
    notices = _notices(request)
    try:
        token = _token(request)
        player_id = link_player(token)
        row = await notices.call(lambda: notices.rows.email_of(player_id))
        if row is None:
            raise Refused("err_email_token")
        notices.keys.check_unsubscribe(token, row.address)
        await notices.call(lambda: notices.rows.set_notify(player_id, False))
    except Refused as refusal:
        return _refused_page(lang, refusal)
    return _page(lang, text("email_page_unsubscribed", lang))
