"""Validators for the numbers the ``hanamikoji`` subcommands take, shared by all of them.

Each is an argparse ``type=``: it turns the text of an option into its value, or raises
:class:`argparse.ArgumentTypeError` with one line saying what the option takes, which
argparse shows as ``hanamikoji play: error: argument --budget: ...`` with exit status 2.
``nan``, ``inf`` and values past a sane bound are refused like any other bad value.

>>> positive_seconds("0.5"), seed("7"), port("8000"), deck_style("card-table")
(0.5, 7, 8000, 'card-table')
>>> positive_seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: a number of seconds above 0 and at most 3600, not 'nan'
>>> seed("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: a seed is a whole number from 0 to 18446744073709551615, not '-1'

A check that needs several options (``--budget`` without ``--engine``) raises
:class:`UsageError` from the subcommand; ``hanamikoji`` shows it as argparse shows its
own errors.
"""

from __future__ import annotations

import argparse
import math
import shlex
from collections.abc import Callable

from hanamikoji.bots.base import MAX_BUDGET, NumberRange
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.notation.names import Deck, check_deck

__all__ = [
    "MAX_COUNT",
    "MAX_JOBS",
    "MAX_SECONDS",
    "UsageError",
    "command_line",
    "deck_style",
    "jobs",
    "non_negative_int",
    "non_negative_seconds",
    "number",
    "port",
    "positive_int",
    "positive_milliseconds",
    "positive_seconds",
    "seed",
    "whole_number",
    "worker_processes",
]

MAX_SECONDS = MAX_BUDGET
"""The longest time per decision (or pause) any option takes: an hour, as for bot specs."""

MAX_COUNT = 1_000_000
"""The largest count (games, ...) an option takes unless it says otherwise."""

MAX_JOBS = 1024
"""The most worker processes an option may start."""


class UsageError(Exception):
    """Options that do not go together; ``hanamikoji`` shows the message as a usage error
    (exit status 2)."""


def whole_number(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``; ``what`` names it in
    the error (``"a port"``)."""
    allowed = NumberRange(low, high)

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value not in allowed:
            raise argparse.ArgumentTypeError(f"{what} is a whole number {allowed}, not {text!r}")
        return value

    return parse


def number(allowed: NumberRange, unit: str) -> Callable[[str], float]:
    """An argparse type: a finite number in ``allowed``, of ``unit`` (``"seconds"``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value in allowed):
            raise argparse.ArgumentTypeError(f"a number of {unit} {allowed}, not {text!r}")
        return value

    return parse


def command_line(text: str) -> str:
    """An argparse type: a command line to start a program (an engine), split as a POSIX
    shell splits it, without running one.

    >>> command_line("hanamikoji engine --name 'my bot'")
    "hanamikoji engine --name 'my bot'"
    """
    try:
        words = shlex.split(text)
    except ValueError as error:  # an unclosed quote
        raise argparse.ArgumentTypeError(f"{text!r} is not a command line: {error}") from None
    if not words:
        raise argparse.ArgumentTypeError("a command line names a program, not nothing")
    return text


def deck_style(text: str) -> Deck:
    """An argparse type: the faces shown beside the cards' names, ``boxed`` (the boxed
    game's alone) or ``card-table`` (the card-table deck's too; docs/rules.md).

    >>> deck_style("tarot")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: unknown deck 'tarot'; known: boxed, card-table
    """
    try:
        return check_deck(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


seed = whole_number(0, MAX_SEED, "a seed")
"""A game or bot seed, 0 to 2**64 - 1 (the range of a record's Seed tag)."""

port = whole_number(0, 65535, "a port")
"""A TCP port; 0 lets the system choose one."""

positive_int = whole_number(1, MAX_COUNT, "a count")
"""A count of at least 1 (games, ...)."""

non_negative_int = whole_number(0, MAX_COUNT, "a count")
"""A count that may be 0."""

jobs = whole_number(1, MAX_JOBS, "a number of processes")
"""How many worker processes: 1 to :data:`MAX_JOBS`."""

worker_processes = whole_number(0, MAX_JOBS, "a number of processes")
"""How many worker processes, where 0 means none (threads): 0 to :data:`MAX_JOBS`."""

positive_seconds = number(NumberRange(0, MAX_SECONDS, above=True), "seconds")
"""A time per decision in seconds: above 0, at most :data:`MAX_SECONDS`."""

non_negative_seconds = number(NumberRange(0, MAX_SECONDS), "seconds")
"""A pause in seconds that may be 0, at most :data:`MAX_SECONDS`."""

positive_milliseconds = number(NumberRange(0, MAX_SECONDS * 1000, above=True), "milliseconds")
"""A time per decision in milliseconds: above 0, at most :data:`MAX_SECONDS` seconds."""
