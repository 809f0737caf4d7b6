"""The e-mails the server sends, and how: the SMTP settings (``hanamikoji serve``'s,
off unless a host and the site's public address are set), the verification e-mail, the
batch of correspondence games waiting for a player, and the sender (aiosmtplib).

Every e-mail is written in the player's language from the catalog's sentences, as plain
text, and names games, opponents and at most the action an opponent last took (its
marker's name: never a card, so nothing a seat may not know leaves in an e-mail). A
batch carries its unsubscribe link in its text and in ``List-Unsubscribe`` (with
``List-Unsubscribe-Post``: one click, RFC 8058).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import quote, urlsplit

import aiosmtplib

from hanamikoji.core.moves import MoveKind
from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.notices.links import VERIFY_HOURS
from hanamikoji.interfaces.web_settings import ServeSettings
from hanamikoji.notation.names import Lang, action_name

__all__ = ["MailSettings", "Mailer", "WaitingGame", "turn_mail", "verification_mail"]

log = logging.getLogger("hanamikoji.web")

SEND_TIMEOUT = 20.0
"""Seconds an SMTP exchange may take before it counts as failed."""


@dataclass(frozen=True, slots=True)
class MailSettings:
    """Where and how e-mails are sent, and the site's address their links start with."""

    host: str
    port: int
    tls: str
    user: str | None
    password: str | None
    sender: str
    public_url: str
    batch_ms: int

    @staticmethod
    def of(settings: ServeSettings) -> MailSettings | None:
        """The mail settings of ``hanamikoji serve``'s, or ``None`` (no e-mail at all)
        unless both ``--smtp-host`` and ``--public-url`` are set."""
        if not settings.smtp_host or not settings.public_url:
            if settings.smtp_host:
                log.warning("--smtp-host without --public-url: the server sends no e-mail")
            return None
        public = settings.public_url.rstrip("/")
        domain = urlsplit(public).hostname or "localhost"
        return MailSettings(
            host=settings.smtp_host,
            port=settings.smtp_port,
            tls=settings.smtp_tls,
            user=settings.smtp_user,
            password=settings.smtp_password,
            sender=settings.mail_from or f"hanamikoji@{domain}",
            public_url=public,
            batch_ms=settings.mail_batch_minutes * 60_000,
        )

    def link(self, path: str, token: str | None = None, lang: Lang | None = None) -> str:
        """An address on the site: ``path``, with a link's token and language."""
        query = []
        if token is not None:
            query.append(f"t={quote(token)}")
        if lang is not None:
            query.append(f"lang={quote(lang)}")
        return self.public_url + path + ("?" + "&".join(query) if query else "")


@dataclass(frozen=True, slots=True)
class WaitingGame:
    """A correspondence game waiting for a player, as their e-mail lists it."""

    id: str
    variant: str
    opponent: str
    last_action: MoveKind | None
    """The kind of action the opponent last took (an offer they answered counts as that
    offer's), or ``None`` before they took one."""


def _message(settings: MailSettings, to: str, subject: str, body: list[str]) -> EmailMessage:
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content("\n".join(body) + "\n")
    return message


def verification_mail(
    settings: MailSettings, to: str, name: str, lang: Lang, token: str
) -> EmailMessage:
    """The e-mail whose link verifies ``to`` for the account ``name``."""
    return _message(
        settings,
        to,
        text("mail_verify_subject", lang),
        [
            text("mail_hello", lang, name=name),
            "",
            text("mail_verify_line", lang, hours=VERIFY_HOURS),
            settings.link("/email/verify", token, lang),
            "",
            text("mail_verify_ignore", lang),
        ],
    )


def _offered(kind: MoveKind) -> MoveKind:
    """The action a decision took: an answer to an offer counts as the offer's."""
    if kind is MoveKind.GIFT_RESPONSE:
        return MoveKind.GIFT
    if kind is MoveKind.COMPETITION_RESPONSE:
        return MoveKind.COMPETITION
    return kind


def turn_mail(
    settings: MailSettings,
    to: str,
    name: str,
    lang: Lang,
    games: list[WaitingGame],
    unsubscribe: str,
) -> EmailMessage:
    """The batch: every correspondence game waiting for the player, with its link, and
    the unsubscribe link (``unsubscribe``: its token)."""
    body = [text("mail_hello", lang, name=name), "", text("mail_turn_intro", lang), ""]
    for game in games:
        variant = text(f"variant_name_{game.variant.replace('-', '_')}", lang)
        body.append(text("mail_turn_game", lang, variant=variant, opponent=game.opponent))
        if game.last_action is not None:
            action = action_name(_offered(game.last_action), lang)
            body.append("  " + text("mail_turn_last", lang, action=action))
        body += ["  " + settings.link(f"/g/{game.id}"), ""]
    leave = settings.link("/email/unsubscribe", unsubscribe, lang)
    body += ["--", text("mail_unsubscribe", lang), leave]
    message = _message(settings, to, text("mail_turn_subject", lang, n=len(games)), body)
    message["List-Unsubscribe"] = f"<{leave}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


class Mailer:
    """Sends e-mails through the SMTP server of :class:`MailSettings`."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    async def send(self, message: EmailMessage) -> None:
        """Send ``message``; raises ``aiosmtplib.SMTPException`` or ``OSError``."""
        config = self.settings
        await aiosmtplib.send(
            message,
            hostname=config.host,
            port=config.port,
            username=config.user,
            password=config.password,
            use_tls=config.tls == "tls",
            start_tls=config.tls == "starttls",
            timeout=SEND_TIMEOUT,
        )
