"""The security headers every HTTP response carries (:class:`SecurityHeaders`)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["HEADERS", "SecurityHeaders"]

HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
        b" connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]
"""Each header and its value; a route's own value of one of them wins."""


class SecurityHeaders:
    """Every HTTP response says: no framing, no sniffing, no referrer, only our own code
    (the fragment of a page address holds a seat token)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name for name, _ in headers}
                headers.extend(item for item in HEADERS if item[0] not in names)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
