"""Fuzzing bot specs (``NAME:OPTION=VALUE,...``): ``make_bot`` either builds a bot or
raises ``BotSpecError`` (a ``ValueError``) with a message, whatever the text; and a bot
that a spec builds can decide.
"""

from __future__ import annotations

import contextlib
import math
import signal
from collections.abc import Iterator

from fuzz_strategies import TRICKY_CHARS, fuzz_settings, fuzz_text
from hypothesis import event, example, given
from hypothesis import strategies as st

from hanamikoji.bots import BOTS, Bot, make_bot
from hanamikoji.bots.base import BotSpecError, bot_options, parse_bot_spec
from hanamikoji.core import Game

NAMES = sorted(BOTS)
OPTIONS = sorted({option for name in NAMES for option in bot_options(name)})

VALUES = st.one_of(
    st.integers(-5, 12).map(str),
    st.integers(-(2**70), 2**70).map(str),
    st.floats().map(repr),
    st.sampled_from(
        [
            "true",
            "false",
            "none",
            "True",
            "FALSE",
            "nOnE",
            "nan",
            "-nan",
            "inf",
            "-inf",
            "infinity",
            "1e308",
            "1e309",
            "-1e309",
            "1e-320",
            "0.0",
            "-0.0",
            "0x10",
            "1_000",
            "²",
            "١",
            "１",
            " 1 ",
            "1 2",
            "",
            "=",
            "9" * 5000,
            "0." + "0" * 5000 + "1",
        ]
    ),
    fuzz_text(max_size=6),
)
"""Option values: numbers of every size and form, words, look-alikes, garbage."""


def _join(name: str, options: list[tuple[str, str, str]], separator: str) -> str:
    if not options:
        return name
    return name + ":" + separator.join(f"{key}{equals}{value}" for key, equals, value in options)


SPECS = st.one_of(
    fuzz_text(alphabet=":=,.", max_size=60),
    st.builds(
        _join,
        st.one_of(st.sampled_from(NAMES), st.sampled_from([" random ", "Random", "ismct", ""])),
        st.lists(
            st.tuples(
                st.one_of(st.sampled_from(OPTIONS), fuzz_text(max_size=8)),
                st.sampled_from(["=", "=", "=", " = ", "==", ":", ""]),
                VALUES,
            ),
            max_size=4,
        ),
        st.sampled_from([",", ",", ", ", ",,", ";"]),
    ),
)


@fuzz_settings(800)
@given(SPECS)
@example("ismcts:iterations=" + "9" * 5000)
@example("random:budget=1e309")
@example("greedy:budget=²")
@example("ismcts:" + TRICKY_CHARS)
def test_a_spec_builds_a_bot_or_is_refused(spec: str) -> None:
    try:
        bot = make_bot(spec, seed=1)
    except BotSpecError as error:
        event("refused")
        assert str(error).strip()
        return
    event("built")
    name, options = parse_bot_spec(spec)
    assert isinstance(bot, Bot) and name in BOTS
    assert set(options) <= set(bot_options(name))
    for value in options.values():
        assert not isinstance(value, float) or math.isfinite(value)


# Specs whose bots decide quickly: a small budget, a number of playouts it bounds.
_QUICK_VALUES = st.one_of(
    st.sampled_from(["true", "false", "none", "0", "1", "2", "3", "8", "9", "100"]),
    st.sampled_from(["0.0", "1e-9", "0.01", "0.5", "1.0", "2.5", "1000", "1e6", "-0.5", "-1"]),
)


@st.composite
def quick_specs(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(NAMES))
    keys = draw(st.lists(st.sampled_from(bot_options(name)), unique=True, max_size=4))
    options = [
        (key, "=", draw(st.sampled_from(["0.01", "0.02"]) if key == "budget" else _QUICK_VALUES))
        for key in keys
    ]
    return _join(name, options, ",")


@contextlib.contextmanager
def at_most(seconds: float) -> Iterator[None]:
    """Raise ``TimeoutError`` in the block after ``seconds`` (a bot that never decides
    must fail the test, not hang the suite)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"no decision within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@fuzz_settings(150)
@given(quick_specs(), st.integers(0, 2**32))
@example("ismcts:candidates=0", 205879)  # looped forever before 'candidates' had a range
def test_a_bot_a_spec_builds_can_decide(spec: str, seed: int) -> None:
    try:
        bot = make_bot(spec, seed=1, budget=0.01)
    except BotSpecError as error:
        event("refused")
        assert str(error).strip()
        return
    event("built")
    game = Game(seed=seed)
    seat = game.to_move
    assert seat is not None
    with at_most(10):
        move = bot.choose(game.view(seat), game.legal_moves)
    assert move in game.legal_moves
