"""The command line refuses what it cannot do with one line and a documented exit status.

Every number an option takes is checked when the options are read; bot specs are checked
where they are parsed; an engine is started before the game; record files fail alike in
every subcommand that reads them; ``scripts/setup-venv`` installs only when it must.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import math
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hanamikoji
from hanamikoji.bots.base import BotSpecError, parse_bot_spec
from hanamikoji.core.rng import MAX_SEED
from hanamikoji.interfaces import cli
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.exits import (
    EXIT_ENGINE,
    EXIT_ERROR,
    EXIT_INPUT_ENDED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
)
from hanamikoji.notation.records import GameRecord
from hanamikoji.protocol import ExternalEngineBot

ROOT = Path(__file__).resolve().parent.parent
ENGINES = Path(__file__).resolve().parent / "engines"
MISBEHAVING = f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / 'misbehaving_engine.py'))}"
FIRST_LEGAL = f"{shlex.quote(sys.executable)} {shlex.quote(str(ENGINES / 'first_legal_engine.py'))}"
EXIT_STATUSES = (EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_ENGINE, EXIT_INPUT_ENDED, EXIT_INTERRUPTED)


def run(argv: list[str], text: str = "") -> tuple[int, str, str]:
    """Run a subcommand as a process would, argparse's output included (it writes to
    ``sys.stdout`` and ``sys.stderr``, not the streams)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = run_command(argv, Streams(io.StringIO(text), stdout, stderr))
    return status, stdout.getvalue(), stderr.getvalue()


def finished_record(seed: int = 17) -> GameRecord:
    from hanamikoji import Game

    game = Game(seed=seed, first_player=0)
    while not game.is_over():
        game.push(game.legal_moves[0])
    return GameRecord.from_game(game)


# -- numbers ------------------------------------------------------------------------------

BAD_SECONDS = ["-1", "0", "nan", "inf", "-inf", "1e9", "1e400", "abc", ""]


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        *((["play", "--engine", "true", "--budget", v], "--budget") for v in BAD_SECONDS),
        *((["play", "--seed", v], "--seed") for v in ["-1", str(MAX_SEED + 1), "1.5", "x"]),
        (["play", "--level", "0"], "--level"),
        (["play", "--level", "nan"], "--level"),
        (["play", "--engine", ""], "--engine"),
        (["play", "--engine", "   "], "--engine"),
        (["play", "--engine", "engine 'unclosed"], "--engine"),
        *((["analyze", "game.hkr", "--budget", v], "--budget") for v in BAD_SECONDS),
        (["analyze", "game.hkr", "--seed", "-5"], "--seed"),
        (["analyze", "game.hkr", "--lang", "de"], "--lang"),
        *((["engine", "--budget", v], "--budget") for v in BAD_SECONDS),
        (["engine", "--seed", "-1"], "--seed"),
        (["engine", "--level", "9"], "--level"),
        *((["arena", "a", "b", "--budget", v], "--budget") for v in BAD_SECONDS),
        *((["arena", "a", "b", "--games", v], "--games") for v in ["0", "-2", "10000001", "n"]),
        *((["arena", "a", "b", "--jobs", v], "--jobs") for v in ["0", "-1", "100000"]),
        (["arena", "a", "b", "--seed", "-1"], "--seed"),
        (["arena", "a", "b", "--engine", "a=x 'y"], "--engine"),
        (["replay", "game.hkr", "--lang", "xx"], "--lang"),
        (["bots", "--lang", "xx"], "--lang"),
        (["variants", "--lang", "xx"], "--lang"),
    ],
)
def test_a_bad_number_or_value_is_one_argparse_error(argv: list[str], option: str) -> None:
    status, out, err = run(argv)
    assert status == EXIT_USAGE
    assert out == ""
    assert "Traceback" not in err
    last = err.splitlines()[-1]
    assert re.fullmatch(rf"hanamikoji {argv[0]}: error: argument {option}.*", last), err
    assert err.startswith("usage: ")


@pytest.mark.parametrize("opponent", [["--level", "2"], ["--bot", "random"], ["--hotseat"], []])
def test_play_budget_is_only_for_an_engine(opponent: list[str]) -> None:
    status, out, err = run(["play", *opponent, "--budget", "2"], "1\n")
    assert status == EXIT_USAGE
    assert out == ""  # refused before the game
    assert err.splitlines()[-1] == (
        "hanamikoji play: error: argument --budget: only with --engine (a --level or --bot"
        " has its own time per decision)"
    )


def test_the_last_seed_of_an_arena_must_be_a_seed() -> None:
    status, _, err = run(["arena", "random", "random", "--games", "4", "--seed", str(MAX_SEED)])
    assert status == EXIT_USAGE
    assert f"the last seed is at most {MAX_SEED}" in err.splitlines()[-1]
    assert "Traceback" not in err


def test_the_largest_seed_is_still_a_seed(tmp_path: Path) -> None:
    status, out, _ = run(["play", "--bot", "random", "--seed", str(MAX_SEED)], "1\n")
    assert status == EXIT_INPUT_ENDED
    assert f"seed {MAX_SEED}" in " ".join(out.split())


# -- bot specs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("ismcts:iterations=-1", "option 'iterations' of 'ismcts:iterations=-1' is from 1 to"),
        ("ismcts:iterations=0", "is from 1 to 1000000000, not '0'"),
        ("ismcts:iterations=nan", "takes a whole number or none, not 'nan'"),
        ("ismcts:budget=0", "option 'budget' of 'ismcts:budget=0' is above 0 and at most 3600"),
        ("ismcts:budget=-0.5", "is above 0 and at most 3600, not '-0.5'"),
        ("ismcts:budget=nan", "option 'budget' of 'ismcts:budget=nan' takes a finite number"),
        ("greedy:budget=inf", "takes a finite number, not 'inf'"),
        ("random:budget=1e9", "is above 0 and at most 3600, not '1e9'"),
        ("ismcts:candidates=0", "option 'candidates'"),
        ("ismcts:replies=-3", "option 'replies'"),
        ("expert:root_candidates=0", "option 'root_candidates'"),
        ("ismcts:exploration=-1", "option 'exploration' of 'ismcts:exploration=-1' is from 0"),
        ("ismcts:temperature=0", "option 'temperature'"),
        ("ismcts:surprise=nan", "option 'surprise' of 'ismcts:surprise=nan' takes a finite number"),
        ("expert:random_prior=-inf", "takes a finite number"),
    ],
)
def test_a_bot_spec_option_out_of_its_range_is_refused(spec: str, problem: str) -> None:
    with pytest.raises(BotSpecError) as raised:
        parse_bot_spec(spec)
    assert problem in str(raised.value)


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=1,exploration=0",
        "ismcts:budget=none,iterations=none",
        "ismcts:budget=3600,network_candidates=0",
        "expert:temperature=0.5,surprise=0.2",
    ],
)
def test_options_in_range_are_taken(spec: str) -> None:
    parse_bot_spec(spec)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--bot", "ismcts:iterations=-1"],
        ["engine", "--bot", "ismcts:budget=nan"],
        ["arena", "random", "ismcts:iterations=0", "--no-records"],
    ],
)
def test_every_subcommand_refuses_a_spec_out_of_range(argv: list[str]) -> None:
    status, out, err = run(argv, "1\n")
    assert status == EXIT_USAGE
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("error: option ")


@pytest.mark.parametrize(
    ("budget", "grace", "startup"),
    [
        (math.nan, 1, 10),
        (math.inf, 1, 10),
        (0, 1, 10),
        (1, math.nan, 10),
        (1, math.inf, 10),
        (1, 1, math.inf),
    ],
)
def test_an_engine_bot_refuses_times_that_are_no_deadline(
    budget: float, grace: float, startup: float
) -> None:
    with pytest.raises(ValueError, match="all finite"):
        ExternalEngineBot("true", budget, grace_seconds=grace, startup_seconds=startup)


# -- engines --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("no-such-engine-here --level 2", "No such file or directory"),
        (f"{MISBEHAVING} exit", "exited with code 1 while hmpok was awaited"),
    ],
)
def test_an_engine_that_does_not_start_stops_play_before_the_game(command: str, said: str) -> None:
    status, out, err = run(["play", "--engine", command, "--seed", "1"], "1\n" * 50)
    assert status == EXIT_ENGINE
    assert out == ""  # no board, no prompt: the person never played
    assert len(err.splitlines()) == 1
    assert err.startswith(f"error: the engine '{command}' did not start: ")
    assert said in err


def test_an_engine_that_fails_during_the_game_forfeits_it_with_a_result() -> None:
    status, out, err = run(
        ["play", "--engine", f"{MISBEHAVING} crash", "--first", "bot", "--seed", "2"], ""
    )
    assert status == EXIT_ENGINE
    assert err == ""
    flat = " ".join(out.split())
    assert "first-legal (Player 2) forfeits the game: crash:" in flat
    assert "Player 1 wins by forfeit · 1-0" in flat


def test_a_working_engine_plays_to_the_end() -> None:
    argv = ["play", "--engine", FIRST_LEGAL, "--first", "you", "--seed", "4", "--budget", "5"]
    status, out, err = run(argv, "moves\n1\n" * 3000)
    assert status == EXIT_OK, err
    assert "Game over" in out


# -- exit statuses -------------------------------------------------------------------------


def test_play_help_and_docs_list_every_exit_status() -> None:
    status, out, _ = run(["play", "--help"])
    assert status == EXIT_OK
    epilog = out[out.index("exit status:") :]
    docs = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for code in EXIT_STATUSES:
        assert re.search(rf"^  {code} +\S", epilog, re.MULTILINE), code
        assert f"| {code} |" in docs, code
    assert "docs/cli.md" in epilog


def test_quit_and_a_finished_game_exit_0_end_of_input_4() -> None:
    assert run(["play", "--bot", "random", "--seed", "5"], "quit\nn\n")[0] == EXIT_OK
    assert run(["play", "--bot", "random", "--seed", "5"], "moves\n1\n" * 3000)[0] == EXIT_OK
    assert run(["play", "--bot", "random", "--seed", "5"], "1\n")[0] == EXIT_INPUT_ENDED
    assert run(["play", "--hotseat", "--seed", "5"], "")[0] == EXIT_INPUT_ENDED


# -- record files -----------------------------------------------------------------------------


def _files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Broken record files by kind, with what their error says after the file name."""
    good = finished_record().to_text()
    broken = good.replace("1. ", "1. X:Q ", 1)
    line = broken.splitlines().index(next(t for t in broken.splitlines() if "X:Q" in t)) + 1
    files = {
        "missing": (tmp_path / "missing.hkr", "No such file or directory"),
        "directory": (tmp_path / "folder.hkr", "Is a directory"),
        "binary": (tmp_path / "binary.hkr", "not a text file in UTF-8 (byte 3)"),
        "latin-1": (tmp_path / "latin.hkr", "not a text file in UTF-8 (byte 32)"),
        "huge": (tmp_path / "huge.hkr", "larger than 16 MB, not a game record"),
        "empty": (
            tmp_path / "empty.hkr",
            "line 1, column 1: neither a text record nor a JSON record",
        ),
        "text": (tmp_path / "broken.hkr", f"line {line}, column 4:"),
        "json": (tmp_path / "broken.json", "line 1, column 2: not JSON"),
        "json path": (tmp_path / "bad.json", "$.rounds[0].moves[0]: 'S:Q' is not a move"),
    }
    files["directory"][0].mkdir()
    files["binary"][0].write_bytes(b"[V\x00ariant]\n")
    files["latin-1"][0].write_bytes('[Variant "classic"]\n[Event "Café"]\n'.encode("latin-1"))
    with files["huge"][0].open("wb") as huge:
        huge.truncate(cli.RECORD_FILE_LIMIT + 1)  # sparse: takes no room on the disk
    files["empty"][0].write_text("", encoding="utf-8")
    files["text"][0].write_text(broken, encoding="utf-8")
    files["json"][0].write_text("{,}", encoding="utf-8")
    files["json path"][0].write_text(
        finished_record().to_json().replace('"moves": ["', '"moves": ["S:Q", "', 1),
        encoding="utf-8",
    )
    return files


@pytest.mark.parametrize(
    "kind",
    ["missing", "directory", "binary", "latin-1", "huge", "empty", "text", "json", "json path"],
)
def test_replay_and_analyze_report_a_bad_file_alike(kind: str, tmp_path: Path) -> None:
    path, reason = _files(tmp_path)[kind]
    errors = []
    for command in ("replay", "analyze"):
        status, out, err = run([command, str(path)])
        assert status == EXIT_ERROR, (command, err)
        assert out == ""
        assert len(err.splitlines()) == 1, err
        assert err.startswith(f"error: {path}: {reason}"), err
        errors.append(err)
    assert errors[0] == errors[1]


def test_analyze_refuses_an_unfinished_game(tmp_path: Path) -> None:
    from hanamikoji import Game

    game = Game(seed=3, first_player=0)
    game.push(game.legal_moves[0])
    path = tmp_path / "unfinished.hkr"
    path.write_text(GameRecord.from_game(game).to_text(), encoding="utf-8")
    assert run(["analyze", str(path)]) == (
        EXIT_ERROR,
        "",
        f"error: {path}: the game is not finished\n",
    )


def test_a_good_record_file_reads_whatever_its_form(tmp_path: Path) -> None:
    record = finished_record()
    (tmp_path / "game.hkr").write_text("\ufeff" + record.to_text(), encoding="utf-8")
    (tmp_path / "game.JSON").write_text(record.to_json(), encoding="utf-8")
    assert cli.load_record(tmp_path / "game.hkr") == record
    assert cli.load_record(str(tmp_path / "game.JSON")) == record


# -- the version ------------------------------------------------------------------------------


def test_hanamikoji_version() -> None:
    status, out, err = run(["--version"])
    assert (status, err) == (EXIT_OK, "")
    assert out == f"hanamikoji {importlib.metadata.version('hanamikoji')}\n"


def test_the_version_falls_back_on_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert cli.version() == hanamikoji.__version__


# -- scripts/setup-venv -----------------------------------------------------------------------


def _fake_project(tmp_path: Path) -> Path:
    """A project with scripts/setup-venv and a .venv whose pip only logs what it is asked."""
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    script = (ROOT / "scripts" / "setup-venv").read_text(encoding="utf-8")
    (project / "scripts" / "setup-venv").write_text(script, encoding="utf-8")
    (project / "scripts" / "setup-venv").chmod(0o755)
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    bin_dir = project / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(
        "#!/usr/bin/env bash\n"
        'if [ "$1 $2" = "-m pip" ]; then\n'
        '    echo "${*:3}" >> "$(dirname "$0")/../../pip.log"\n'
        '    exit "${FAKE_PIP_STATUS:-0}"\n'
        "fi\n"
        f'exec {shlex.quote(sys.executable)} "$@"\n',
        encoding="utf-8",
    )
    python.chmod(0o755)
    (bin_dir / "hanamikoji").write_text("#!/bin/sh\n", encoding="utf-8")
    (bin_dir / "hanamikoji").chmod(0o755)
    return project


def _setup(project: Path, extras: str, pip_status: int = 0) -> tuple[int, list[str]]:
    """Run the project's setup-venv; returns its status and the pip commands it ran."""
    log = project / "pip.log"
    before = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    env = {**os.environ, "FAKE_PIP_STATUS": str(pip_status)}
    done = subprocess.run(
        [str(project / "scripts" / "setup-venv"), *([extras] if extras else [])],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    after = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return done.returncode, after[len(before) :]


def test_setup_venv_installs_only_what_is_missing(tmp_path: Path) -> None:
    project = _fake_project(tmp_path)
    upgrade = "install --quiet --upgrade pip"
    # No stamp yet: the environment is installed, with the extras asked for.
    assert _setup(project, "dev") == (0, [upgrade, "install --quiet -e .[dev]"])
    stamp = (project / ".venv" / "setup-stamp").read_text(encoding="utf-8")
    assert stamp.splitlines()[1] == "extras dev"
    # Installed: nothing to do, with or without those extras.
    assert _setup(project, "dev") == (0, [])
    assert _setup(project, "") == (0, [])
    # A new extra: installed with those already there.
    assert _setup(project, "web, dev") == (0, [upgrade, "install --quiet -e .[dev,web]"])
    assert _setup(project, "web") == (0, [])
    # pyproject.toml changed: every installed extra again.
    with (project / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
        pyproject.write("# changed\n")
    assert _setup(project, "") == (0, [upgrade, "install --quiet -e .[dev,web]"])
    assert _setup(project, "dev,web") == (0, [])


def test_setup_venv_tries_again_after_a_failed_install(tmp_path: Path) -> None:
    project = _fake_project(tmp_path)
    assert _setup(project, "dev")[0] == 0
    status, ran = _setup(project, "ray", pip_status=1)
    assert status != 0 and ran
    stamp = (project / ".venv" / "setup-stamp").read_text(encoding="utf-8")
    assert stamp == "extras dev,ray\n"  # no hash: not installed
    assert _setup(project, "ray") == (
        0,
        ["install --quiet --upgrade pip", "install --quiet -e .[dev,ray]"],
    )


OFFLINE = {
    **os.environ,
    "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
    "PIP_EXTRA_INDEX_URL": " ",
    "PIP_FIND_LINKS": " ",
    "PATH": "/usr/bin:/bin",
}


def extras_asked(script: str) -> set[str]:
    """The extras ``scripts/<script>`` asks scripts/setup-venv for."""
    text = (ROOT / "scripts" / script).read_text(encoding="utf-8")
    found = re.search(r'setup-venv"? +([\w,-]+)', text)
    return set(found.group(1).split(",")) if found else set()


def _real_venv_is_set_up() -> bool:
    """Whether this checkout's .venv is installed with every extra scripts/test and
    scripts/play ask for (as after scripts/test), so that running them changes nothing."""
    stamp = ROOT / ".venv" / "setup-stamp"
    if not stamp.exists():
        return False
    import hashlib

    lines = stamp.read_text(encoding="utf-8").splitlines()
    fields = {key: value for key, _, value in (line.partition(" ") for line in lines)}
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    installed = set(fields.get("extras", "").split(","))
    wanted = extras_asked("test") | extras_asked("play")
    return fields.get("pyproject-sha256") == digest and wanted <= installed


needs_set_up_venv = pytest.mark.skipif(
    not _real_venv_is_set_up(), reason=".venv is not installed by scripts/setup-venv"
)


def run_script(name: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """One of ``scripts/`` without a package index, as on a machine offline."""
    return subprocess.run(
        [str(ROOT / "scripts" / name), *args],
        env={**OFFLINE, "NO_COLOR": "1"},
        cwd=cwd,
        input="",
        capture_output=True,
        text=True,
        check=False,
    )


@needs_set_up_venv
def test_the_scripts_work_offline_once_installed() -> None:
    started = time.monotonic()
    setup = run_script("setup-venv", ",".join(sorted(extras_asked("test"))))
    assert setup.returncode == 0, setup.stderr
    assert setup.stderr == ""
    assert time.monotonic() - started < 2
    played = run_script("play", "--help")
    assert played.returncode == 0, played.stderr
    assert "exit status:" in played.stdout
    assert time.monotonic() - started < 10


@needs_set_up_venv
def test_scripts_play_finds_hanamikoji_on_path_and_keeps_the_directory(tmp_path: Path) -> None:
    # The form `play --help` shows; the engine (level 1) starts, makes the first decision,
    # then the person's input ends.
    engine = ("--engine", "hanamikoji engine --level 1", "--first", "bot", "--seed", "1")
    played = run_script("play", *engine, "--save", "game.hkr", cwd=tmp_path)
    assert played.returncode == EXIT_INPUT_ENDED, played.stderr
    assert "did not start" not in played.stderr
    assert (tmp_path / "game.hkr").exists()
