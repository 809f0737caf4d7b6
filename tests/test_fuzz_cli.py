"""Fuzzing the command line: every option that takes a value, of every subcommand, with
any text; and ``replay``/``analyze`` with any file. Each is either taken or refused with
one line naming what is wrong (exit 2 for an option, 1 for a file), never a traceback.
Bounded and derandomized: a few hundred inputs each."""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.interfaces.cli import Streams, build_parser, run_command

FUZZ = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
)

POSITIONALS = {
    "arena": ["random", "greedy"],
    "tournament": ["random", "greedy"],
    "bridge": ["--server", "https://example.org", "--token-file", "token"],
    "replay": ["game.hkr"],
    "analyze": ["game.hkr"],
}
"""Values for the arguments each subcommand needs, so that options alone are tested."""

ACTIONS = {"moderate": ["reports"]}
"""A subcommand's own subcommand, after its options (they are the parent's)."""


def _options() -> list[tuple[str, str]]:
    """(subcommand, option) for every option that takes a value."""
    parser = build_parser()
    # argparse has no public way to list subcommands and their options.
    subparsers = next(
        action
        for action in parser._actions  # noqa: SLF001
        if isinstance(action, argparse._SubParsersAction)  # noqa: SLF001
    )
    found = []
    for name, sub in subparsers.choices.items():
        for action in sub._actions:  # noqa: SLF001
            if action.option_strings and action.nargs != 0 and action.dest != "help":
                found.append((name, action.option_strings[-1]))
    return sorted(found)


OPTIONS = _options()

values = (
    st.text(max_size=30)
    | st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e309", "0x10", "１", "²", "", " "])
    | st.integers(min_value=-(2**80), max_value=2**80).map(str)
    | st.floats(allow_nan=True, allow_infinity=True).map(repr)
)


def parse(argv: list[str]) -> tuple[int | None, str]:
    """argparse's verdict on ``argv``: ``None`` if it parses, else its exit status; and
    what it wrote to stderr."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(argv)
        except SystemExit as stop:
            return (stop.code if isinstance(stop.code, int) else -1), stderr.getvalue()
    return None, stderr.getvalue()


def test_every_subcommand_has_its_options_fuzzed() -> None:
    assert {name for name, _ in OPTIONS} >= {"play", "analyze", "arena", "engine", "serve"}


@FUZZ
@given(option=st.sampled_from(OPTIONS), value=values)
def test_any_option_value_is_taken_or_refused_in_one_line(
    option: tuple[str, str], value: str
) -> None:
    command, flag = option
    argv = [command, *POSITIONALS.get(command, []), f"{flag}={value}", *ACTIONS.get(command, [])]
    status, errors = parse(argv)
    assert "Traceback" not in errors
    if status is not None:
        assert status == 2, errors
        last = errors.strip().splitlines()[-1]
        assert "error:" in last and flag in last, errors


@FUZZ
@given(content=st.binary(max_size=400) | st.text(max_size=400).map(str.encode))
def test_any_file_to_replay_is_replayed_or_refused_naming_it(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.hkr"
        path.write_bytes(content)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
            status = run_command(["replay", str(path)], Streams(io.StringIO(), stdout, stderr))
    errors = stderr.getvalue()
    assert "Traceback" not in errors
    if status != 0:
        assert status == 1
        lines = errors.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {path}: "), errors


specs = st.one_of(
    st.text(max_size=20),
    st.builds(
        "{}:{}={}".format,
        st.sampled_from(["random", "greedy", "ismcts", "expert", "learned", "nobody"]),
        st.sampled_from(["budget", "iterations", "seed", "candidates", "x", ""]),
        values,
    ),
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(bot=specs, variant=st.sampled_from(["classic", "french/cap=2"]) | st.text(max_size=12))
def test_any_bot_and_variant_given_to_play_start_a_game_or_are_refused(
    bot: str, variant: str
) -> None:
    """With no input the game, if it starts, ends at once (exit 4): Player 1 moves first."""
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["play", f"--bot={bot}", f"--variant={variant}", "--first", "you", "--seed", "1"]
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
        status = run_command(argv, Streams(io.StringIO(), stdout, stderr))
    errors = stderr.getvalue()
    assert "Traceback" not in errors + stdout.getvalue()
    assert status in (2, 4), (status, errors)
    if status == 2:
        assert "error:" in errors.strip().splitlines()[-1]
