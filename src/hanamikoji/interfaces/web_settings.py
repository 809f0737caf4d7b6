"""The settings of ``hanamikoji serve``, written once: :class:`ServeSettings`.

Each field holds its default and, in its metadata, an :class:`Option`: the command-line
flag, the parser of its text, its help. Its environment variable is named by one rule,
``HANAMIKOJI_`` and the field's name in capitals (:func:`env_name`). From them come the
argparse options and ``--help`` of ``hanamikoji serve`` (:func:`add_options`) and the
values (:func:`read_settings`): a flag given on the command line, else the environment
variable (an empty one counts as unset), else the default. A bad value in the
environment is refused as a bad flag is, naming the variable.

>>> env_name("database_url")
'HANAMIKOJI_DATABASE_URL'
>>> parser = argparse.ArgumentParser()
>>> add_options(parser)
>>> settings = read_settings(parser.parse_args(["--port", "8001"]),
...     {"HANAMIKOJI_PORT": "9000", "HANAMIKOJI_ALLOWED_HOSTS": "a.example, b.example"})
>>> settings.port, settings.allowed_hosts, settings.create_rate
(8001, ('a.example', 'b.example'), '20/minute')
>>> read_settings(parser.parse_args([]), {"HANAMIKOJI_PORT": "99999"})
Traceback (most recent call last):
...
hanamikoji.interfaces.options.UsageError: environment variable HANAMIKOJI_PORT: ...
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from hanamikoji.bots.analysis import AnalysisSettings
from hanamikoji.interfaces.options import (
    UsageError,
    non_negative_seconds,
    port,
    whole_number,
    worker_processes,
)

__all__ = [
    "ENV_PREFIX",
    "LOG_LEVELS",
    "SMTP_TLS_MODES",
    "Option",
    "ServeSettings",
    "add_options",
    "env_name",
    "options",
    "read_settings",
]

ENV_PREFIX = "HANAMIKOJI_"
"""Every setting's environment variable is this and the field's name in capitals."""

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")

tcp_port = port
"""The parser of a port (the field ``port`` hides the name inside the class)."""

SMTP_TLS_MODES = ("starttls", "tls", "none")

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})

LIST_SEPARATOR = re.compile(r"[,\s]+")
"""What separates the items of a repeatable setting in its environment variable."""


def rate(text: str) -> str:
    """An argparse type: a rate such as ``20/minute`` or ``off``, checked when the web
    extra (and its rate parser) is installed."""
    try:
        from hanamikoji.interfaces.web.http.guards import parse_rate
    except ImportError:  # no web extra: the server says so when it starts
        return text
    try:
        parse_rate(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def text(value: str) -> str:
    return value


@dataclass(frozen=True, slots=True)
class Option:
    """How a setting is given on the command line and in the environment.

    Args:
        flag: the option string (``--db``).
        help: what it does, for ``--help``; the default and the variable are added.
        parse: turns a text into the value (an argparse ``type=``).
        metavar: the value's name in ``--help``.
        repeat: the flag may be given again for each item (the variable: items
            separated by commas or spaces).
        switch: a flag without a value (the variable: 1, true, yes, on or 0, false, no, off).
        choices: the only values taken.
        shown_default: the default as ``--help`` words it, when not the value itself.
        env_only: read from the environment only, never the command line (a password,
            which ``ps`` would show); ``flag`` is then only its name in the docs.
    """

    flag: str
    help: str
    parse: Callable[[str], Any] = text
    metavar: str | None = None
    repeat: bool = False
    switch: bool = False
    choices: tuple[str, ...] = ()
    shown_default: str | None = None
    env_only: bool = False


def _setting(default: Any, flag: str, help: str, **how: Any) -> Any:
    return field(default=default, metadata={"option": Option(flag, help, **how)})


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """Every setting of ``hanamikoji serve``, with its default (the fields' metadata say
    how each is given: :class:`Option`)."""

    host: str = _setting("127.0.0.1", "--host", "address to listen on")
    port: int = _setting(8000, "--port", "port", parse=port)
    database_url: str | None = _setting(
        None,
        "--db",
        "games database as an SQLAlchemy URL (e.g. postgresql+psycopg://user:password"
        "@localhost/hanamikoji; keep a password in the environment, off the command line)",
        metavar="URL",
        shown_default="SQLite in the user's data directory",
    )
    bot_processes: int = _setting(
        1,
        "--bot-processes",
        "worker processes for the searching bot levels (7-8; 0: think in threads)",
        parse=worker_processes,
        metavar="N",
    )
    bot_delay: float = _setting(
        0.4,
        "--bot-delay",
        "pause before a bot acts, so each move can be seen",
        parse=non_negative_seconds,
        metavar="SECONDS",
    )
    allowed_origins: tuple[str, ...] = _setting(
        (),
        "--allow-origin",
        "another page origin allowed to open game sockets (behind a proxy); repeatable",
        metavar="URL",
        repeat=True,
    )
    allowed_hosts: tuple[str, ...] = _setting(
        (),
        "--allowed-host",
        "a host name the server answers besides --host and loopback's (the public name"
        " behind a proxy); any other Host is refused; repeatable",
        metavar="NAME",
        repeat=True,
    )
    trusted_proxies: tuple[str, ...] = _setting(
        (),
        "--trusted-proxy",
        "the address of a reverse proxy in front of this server (e.g. 127.0.0.1 for nginx"
        " on this machine), whose X-Forwarded-For and X-Forwarded-Proto are believed: the"
        " limits per client address then count each player, not the proxy; repeatable",
        metavar="ADDRESS",
        repeat=True,
    )
    create_rate: str = _setting(
        "20/minute",
        "--create-rate",
        "new games one client address may create (off: no limit)",
        parse=rate,
        metavar="RATE",
    )
    message_rate: str = _setting(
        "10/second",
        "--message-rate",
        "messages one page may send over its socket (off: no limit)",
        parse=rate,
        metavar="RATE",
    )
    login_rate: str = _setting(
        "10/minute",
        "--login-rate",
        "sign-in attempts one client address, and one account name, may make (off: no limit)",
        parse=rate,
        metavar="RATE",
    )
    header_timeout: int = _setting(
        10,
        "--header-timeout",
        "seconds a connection has to send a request's headers, from its start or the"
        " server's last answer, before it is closed",
        parse=whole_number(1, 3600, "a number of seconds"),
        metavar="S",
    )
    connections_per_address: int = _setting(
        64,
        "--connections-per-address",
        "connections one client address may hold open (HTTP and sockets); one more is"
        " closed at once; a --trusted-proxy's own address is exempt",
        parse=whole_number(1, 100_000, "a number of connections"),
        metavar="N",
    )
    sockets_per_address: int = _setting(
        32,
        "--sockets-per-address",
        "WebSockets (games, spectators, the lobby) one client address may have open;"
        " one more is refused",
        parse=whole_number(1, 100_000, "a number of sockets"),
        metavar="N",
    )
    secure_cookies: bool = _setting(
        False,
        "--secure-cookies",
        "mark session cookies Secure (the server is reached over https, e.g. behind a proxy)",
        switch=True,
        shown_default="off",
    )
    session_days: int = _setting(
        30,
        "--session-days",
        "how long a player stays signed in",
        parse=whole_number(1, 3650, "a number of days"),
        metavar="N",
    )
    abort_timeout: float = _setting(
        120,
        "--abort-timeout",
        "seconds a side of an untimed rated game has for its first decision before the"
        " game is aborted, not rated",
        parse=whole_number(5, 86_400, "a number of seconds"),
        metavar="S",
    )
    abandon_timeout: float = _setting(
        180,
        "--abandon-timeout",
        "seconds a player of an untimed rated game may be away, once each side has"
        " decided, before losing it (timed games: the clock decides)",
        parse=whole_number(5, 86_400, "a number of seconds"),
        metavar="S",
    )
    analysis_worlds: int = _setting(
        AnalysisSettings().worlds,
        "--analysis-worlds",
        "sampled worlds per searched decision when a finished game is analysed",
        parse=whole_number(1, 100_000, "a number of worlds"),
        metavar="N",
        shown_default=f"{AnalysisSettings().worlds}, the analysis's own, as for hanamikoji analyze",
    )
    analysis_limit: int = _setting(
        2,
        "--analysis-limit",
        "games analysed at once; more is refused until one is done",
        parse=whole_number(1, 64, "a number of games"),
        metavar="N",
    )
    log_level: str = _setting("info", "--log-level", "what the server logs", choices=LOG_LEVELS)
    # -- e-mail for correspondence games (web/notices/): off while smtp_host is unset
    smtp_host: str | None = _setting(
        None,
        "--smtp-host",
        "the SMTP server that sends e-mails (verification links, your turn in a"
        " correspondence game); unset: the server sends no e-mail",
        metavar="HOST",
        shown_default="none: no e-mail",
    )
    smtp_port: int = _setting(587, "--smtp-port", "the SMTP server's port", parse=tcp_port)
    smtp_tls: str = _setting(
        "starttls",
        "--smtp-tls",
        "how the SMTP connection is secured: starttls (upgraded after connecting), tls"
        " (TLS from the start, usually port 465) or none (a local relay only)",
        choices=SMTP_TLS_MODES,
    )
    smtp_user: str | None = _setting(
        None,
        "--smtp-user",
        "the SMTP account's user name (its password: HANAMIKOJI_SMTP_PASSWORD, in the"
        " environment only)",
        metavar="NAME",
        shown_default="none: no sign-in",
    )
    smtp_password: str | None = _setting(
        None,
        "HANAMIKOJI_SMTP_PASSWORD",
        "the SMTP account's password",
        env_only=True,
        shown_default="none",
    )
    mail_from: str | None = _setting(
        None,
        "--mail-from",
        "the e-mails' From address",
        metavar="ADDRESS",
        shown_default="hanamikoji@ and the --public-url's host",
    )
    public_url: str | None = _setting(
        None,
        "--public-url",
        "the site's address as players reach it (https://play.example.org), for the links"
        " in e-mails; e-mail needs it",
        metavar="URL",
        shown_default="none: no e-mail",
    )
    mail_batch_minutes: int = _setting(
        15,
        "--mail-batch-minutes",
        "at most one e-mail per player in this many minutes, listing every correspondence"
        " game waiting for them",
        parse=whole_number(1, 10_080, "a number of minutes"),
        metavar="N",
    )


def env_name(name: str) -> str:
    """The environment variable of the setting ``name``."""
    return ENV_PREFIX + name.upper()


def options() -> Iterator[tuple[str, Option, Any]]:
    """Each setting's name, :class:`Option` and default, in the order of ``--help``."""
    for each in fields(ServeSettings):
        yield each.name, each.metadata["option"], each.default


def _help(name: str, option: Option, default: Any) -> str:
    if option.switch:
        return f"{option.help} (default: off; env: {env_name(name)}=1)"
    if option.repeat:
        return f"{option.help} (env: {env_name(name)}, comma-separated)"
    shown = option.shown_default or str(default)
    return f"{option.help} (default: {shown}; env: {env_name(name)})"


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``hanamikoji serve``, one per setting. An option not given is not
    set on the namespace: :func:`read_settings` then looks in the environment."""
    for name, option, default in options():
        if option.env_only:
            continue
        how: dict[str, Any] = {"dest": name, "default": argparse.SUPPRESS}
        how["help"] = _help(name, option, default)
        if option.switch:
            how["action"] = "store_true"
        else:
            how["type"] = option.parse
            how["metavar"] = option.metavar
            if option.repeat:
                how["action"] = "append"
            if option.choices:
                how["choices"] = option.choices
                del how["metavar"]
        parser.add_argument(option.flag, **how)


def _from_env(name: str, option: Option, raw: str) -> Any:
    try:
        if option.switch:
            word = raw.strip().lower()
            if word not in TRUE_WORDS | FALSE_WORDS:
                raise ValueError(f"1, true, yes or on, or 0, false, no or off, not {raw!r}")
            return word in TRUE_WORDS
        if option.repeat:
            return tuple(option.parse(item) for item in LIST_SEPARATOR.split(raw.strip()) if item)
        if option.choices and raw not in option.choices:
            raise ValueError(f"one of {', '.join(option.choices)}, not {raw!r}")
        return option.parse(raw)
    except (argparse.ArgumentTypeError, ValueError) as error:
        raise UsageError(f"environment variable {env_name(name)}: {error}") from None


def read_settings(args: argparse.Namespace, environ: Mapping[str, str]) -> ServeSettings:
    """The settings: each from its flag in ``args`` if given, else from its variable in
    ``environ`` if set and not empty, else its default. Raises :class:`UsageError`
    naming the variable for a bad value in the environment."""
    given = vars(args)
    values: dict[str, Any] = {}
    for name, option, _default in options():
        if name in given:
            value = given[name]
            values[name] = tuple(value) if option.repeat else value
        elif environ.get(env_name(name), "").strip():
            values[name] = _from_env(name, option, environ[env_name(name)])
    return ServeSettings(**values)
