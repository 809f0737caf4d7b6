"""The base install: no third-party package, and what it offers works without them.

``pip install hanamikoji`` installs the rules, notation, records, the bots in pure
Python and the line interface, and nothing else (pyproject.toml's ``dependencies`` is
empty); extras add the rest (:mod:`hanamikoji.extras`). Two checks: the base modules
import and play with NumPy, rich, Textual and numba made unimportable (a meta-path
blocker in a subprocess), and the wheel ``python -m build`` makes installs into a fresh
virtual environment with no package index and runs there.
"""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from hanamikoji import __version__
from hanamikoji.extras import EXTRAS, MissingExtraError, require
from hanamikoji.interfaces import cli
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.exits import EXIT_OK
from hanamikoji.interfaces.messages import message

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

EXTRA_PACKAGES = ("numpy", "rich", "textual", "numba")
"""The extras' packages the base install must do without."""

BLOCKER = f"""
import importlib.abc, sys
BLOCKED = {EXTRA_PACKAGES!r}
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None
sys.meta_path.insert(0, Blocker())
"""
"""Python source that makes the extras' packages unimportable, as in the base install."""

BASE_MODULES = (
    "hanamikoji",
    "hanamikoji.notation.records",
    "hanamikoji.bots",
    "hanamikoji.bots.levels",
    "hanamikoji.protocol",
    "hanamikoji.arena",
)
"""Modules of the base install that import no third-party package even where one is
installed (the interfaces use rich where it is: colour)."""


def _python(
    code: str, *, stdin: str = "", blocked: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter on this checkout's source, the extras' packages
    blocked (``blocked``)."""
    environment = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-c", (BLOCKER if blocked else "") + code],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )


def test_the_base_install_depends_on_no_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["dependencies"] == []
    # dev and docs are for working on the project, not features of it.
    assert set(project["optional-dependencies"]) - {"dev", "docs"} == set(EXTRAS)


def test_the_base_modules_import_no_extra_package() -> None:
    imports = "\n".join(f"import {module}" for module in BASE_MODULES)
    found = _python(
        f"{imports}\nimport sys\nprint(sorted(m for m in {EXTRA_PACKAGES!r} if m in sys.modules))",
        blocked=False,
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "[]"


def test_the_blocker_blocks() -> None:
    # The check below can fail: with the blocker, NumPy is not importable.
    blocked = _python("import numpy")
    assert blocked.returncode != 0
    assert "No module named 'numpy' (blocked)" in blocked.stderr


def test_the_searching_bots_play_without_numpy_or_numba() -> None:
    code = """
from hanamikoji import Game
from hanamikoji.bots import make_bot
from hanamikoji.bots.levels import make_level_bot
game = Game(seed=5)
for bot in (make_bot("ismcts:iterations=30,compiled=true", seed=1), make_level_bot(6, seed=1)):
    view = game.view(game.to_move)
    print(bot.choose(view, game.legal_moves) in game.legal_moves)
"""
    played = _python(code)
    assert played.returncode == 0, played.stderr
    assert played.stdout.split() == ["True", "True"]


def test_a_bot_that_needs_an_extra_names_it() -> None:
    made = _python("from hanamikoji.bots import make_bot\nmake_bot('learned')")
    assert made.returncode != 0
    assert "MissingExtraError" in made.stderr
    assert "pip install 'hanamikoji[learned]'" in made.stderr
    with pytest.raises(MissingExtraError, match=r"hanamikoji\[tui\]"):
        require("hanamikoji_no_such_module", "tui", "a test")


def test_the_line_interface_plays_without_rich_or_textual() -> None:
    script = "moves\n1\n" * 120 + "n\n"
    code = "from hanamikoji.interfaces.cli import main\nraise SystemExit(main())"
    argv = "import sys\nsys.argv = ['hanamikoji', 'play', '--plain', '--seed', '7']\n"
    played = _python(argv + code, stdin=script)
    assert played.returncode == 0, played.stderr
    assert "greedy (Player 2)" in played.stdout
    assert "Game over" in played.stdout
    listing = _python(
        "from hanamikoji.interfaces.cli import main\nfor c in ('bots', 'variants', 'rules'):\n"
        "    assert main([c]) == 0"
    )
    assert listing.returncode == 0, listing.stderr
    assert "weakened:play_temperature=0.6" in listing.stdout
    assert "# The rules of Hanamikoji" in listing.stdout


def _can_build() -> bool:
    return all(importlib.util.find_spec(name) for name in ("build", "hatchling"))


@pytest.mark.skipif(not _can_build(), reason="build and hatchling (the dev extra) are needed")
def test_the_wheel_installs_alone_and_plays(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("hanamikoji-*.whl")
    assert wheel.name.startswith(f"hanamikoji-{__version__}-")
    home = tmp_path / "venv"
    venv.create(home)  # no pip in it: this interpreter's pip installs into it
    bin_dir = home / ("Scripts" if os.name == "nt" else "bin")
    environment = {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")
    }

    def run(*argv: str, stdin: str = "") -> str:
        done = subprocess.run(
            argv,
            input=stdin,
            capture_output=True,
            text=True,
            env=environment,
            cwd=tmp_path,
            check=False,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    python = str(bin_dir / "python")
    install = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet"]
    run(*install, "--no-index", str(wheel))
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip())
    assert sorted(path.name for path in site.glob("*.dist-info")) == [
        f"hanamikoji-{__version__}.dist-info"
    ]
    hanamikoji = str(bin_dir / "hanamikoji")
    assert run(hanamikoji, "--version") == f"hanamikoji {__version__}\n"
    match = run(
        hanamikoji, "arena", "random", "greedy", "--games", "2", "--jobs", "1", "--no-records"
    )
    assert "random vs greedy" in match
    assert run(python, "-c", "import hanamikoji; print(hanamikoji.Game(seed=1).round)") == "1\n"
    played = run(hanamikoji, "play", "--plain", "--seed", "3", stdin="moves\n1\n" * 120 + "n\n")
    assert "Game over" in played


class _Tty(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_play_without_textual_names_the_extra_and_plays_in_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cli, "installed", lambda module: module != "textual")
    stdout, stderr = _Tty(), io.StringIO()
    streams = Streams(_Tty("quit\nn\n"), stdout, stderr)
    assert run_command(["play", "--seed", "1", "--lang", "fr"], streams) == EXIT_OK
    assert stderr.getvalue() == message("full_screen_missing", "fr") + "\n"
    assert "pip install 'hanamikoji[tui]'" in stderr.getvalue()
    assert "Joueur 1>" in stdout.getvalue()
