"""Our side of the protocol as an engine: one of our bots behind stdin and stdout.

:func:`serve` reads GUI lines, keeps the seat's knowledge in a
:class:`~hanamikoji.protocol.tracker.KnowledgeTracker` and answers every ``go`` with
the bot's choice from the view the events describe. ``hanamikoji engine`` runs it.

>>> import io
>>> from hanamikoji.bots import make_bot
>>> gui = io.StringIO(
...     "hmp 1\\n"
...     "newgame variant classic seat 1 first 1\\n"
...     "deal round 1 starter 1 hand AADEFG\\n"
...     "draw G\\n"
...     "go movetime 100\\n"
...     "quit\\n"
... )
>>> out = io.StringIO()
>>> serve(make_bot("random", seed=1), gui, out, name="doctest")
>>> print(out.getvalue(), end="")
id name doctest
id author the hanamikoji project
hmpok
bestmove G:AAD
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from hanamikoji.bots.base import Bot
from hanamikoji.core.errors import UnknownVariantError
from hanamikoji.protocol.messages import (
    EVENT_WORDS,
    PROTOCOL_VERSION,
    ProtocolError,
    parse_event,
    parse_go,
    parse_new_game,
)
from hanamikoji.protocol.tracker import KnowledgeTracker

__all__ = ["MOVETIME_SHARE", "serve"]

MOVETIME_SHARE = 0.8
"""The share of ``go movetime`` a bot may think for; the rest covers the pipes and
process scheduling, which the GUI's clock also counts."""

AUTHOR = "the hanamikoji project"

_LONGEST_MOVETIME_MS = 365 * 24 * 3600 * 1000
"""A longer ``go movetime`` (the protocol sets no bound) is taken as a year: dividing an
integer past a float's range raises ``OverflowError``."""


def serve(
    bot: Bot,
    stdin: TextIO,
    stdout: TextIO,
    name: str | None = None,
    author: str = AUTHOR,
) -> None:
    """Speak the engine side of the protocol until ``quit`` or the end of ``stdin``.

    A line the engine cannot take into account is answered with ``info string`` and
    leaves the game's state unusable; a later ``go`` then gets ``bestmove none`` (the
    GUI treats it as a malformed answer) rather than a decision from a wrong view.
    """

    def send(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    default_budget = bot.budget
    try:
        _serve(bot, stdin, send, name or f"hanamikoji {bot.name}", author)
    finally:
        bot.budget = default_budget


def _serve(bot: Bot, stdin: TextIO, send: Callable[[str], None], name: str, author: str) -> None:
    default_budget = bot.budget
    tracker: KnowledgeTracker | None = None
    broken = "no game has begun"
    while True:
        raw = stdin.readline()
        if not raw:
            return
        line = raw.strip()
        if not line:
            continue
        word = line.split()[0]
        try:
            if word == "quit":
                return
            if word == "hmp":
                version = line.split()[1:]
                if version and version != [str(PROTOCOL_VERSION)]:
                    send(f"info string this engine speaks hmp {PROTOCOL_VERSION}")
                send(f"id name {name}")
                send(f"id author {author}")
                send("hmpok")
            elif word == "isready":
                send("readyok")
            elif word == "setoption":
                send(f"info string no such option: {line}")
            elif word == "newgame":
                start = parse_new_game(line)
                tracker = KnowledgeTracker(start.variant, start.seat, start.first)
                broken = ""
            elif word in EVENT_WORDS:
                if tracker is None or broken:
                    continue
                tracker.apply(parse_event(line))
            elif word == "go":
                go = parse_go(line)
                if tracker is None or broken or not tracker.must_decide():
                    why = broken or "it is not this engine's decision"
                    send(f"info string cannot decide: {why}")
                    send("bestmove none")
                    continue
                budget = default_budget
                if go.movetime_ms is not None:
                    movetime = min(go.movetime_ms, _LONGEST_MOVETIME_MS)
                    allowed = movetime / 1000 * MOVETIME_SHARE
                    budget = allowed if budget is None else min(budget, allowed)
                bot.budget = budget
                view = tracker.view()
                send(f"bestmove {bot.choose(view, view.generate_legal_moves())}")
            else:
                send(f"info string unknown command: {line}")
        except (ProtocolError, UnknownVariantError) as error:
            broken = f"{line!r}: {error}"
            send(f"info string error: {broken}")
