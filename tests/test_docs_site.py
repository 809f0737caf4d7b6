"""The documentation site (``mkdocs.yml``, served by ``scripts/docs``).

- It builds in strict mode: a broken link or anchor, a page left out of the nav, a
  reference the API reference cannot resolve, a docstring griffe cannot read, any
  warning fails. The build needs the ``docs`` extra (``scripts/test`` installs it); where
  MkDocs is missing the test is skipped and says so.
- Every page of ``docs/`` is in the nav, and every page of the nav is there: no page can
  be unreachable from the site's menu. This check needs nothing installed.
- The docstrings are rewritten as Markdown for the site (scripts/griffe_docstrings.py):
  doctests as code blocks, Sphinx roles as links to the API reference or code spans.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"

# Pages the site draws from files at the top of the repository (scripts/mkdocs_hooks.py).
TOP_PAGES = {"index.md": "README.md", "changelog.md": "CHANGELOG.md"}

NAV_PAGE = re.compile(r"^\s*-\s+(?:[^:\n]+:\s+)?(\S+\.md)\s*$", re.MULTILINE)


def nav_pages(config: str) -> list[str]:
    """The pages named in the ``nav:`` section of an ``mkdocs.yml`` text (``- page.md`` or
    ``- Title: page.md``), in order."""
    match = re.search(r"^nav:\s*$(.*?)(?=^\S|\Z)", config, re.MULTILINE | re.DOTALL)
    return NAV_PAGE.findall(match.group(1)) if match else []


def nav_problems(config: str, docs: Path, root: Path) -> list[str]:
    """The pages of ``docs`` (and those drawn from files at the top of ``root``) missing
    from the nav of ``config``, and the pages of the nav that are not in ``docs`` (nor
    drawn from a file at the top of ``root``)."""
    named = nav_pages(config)
    pages = {path.relative_to(docs).as_posix() for path in docs.rglob("*.md")}
    problems = [f"docs/{page} is not in mkdocs.yml's nav" for page in sorted(pages - set(named))]
    for page, top in TOP_PAGES.items():
        if (root / top).exists() and page not in named:
            problems.append(f"{top} is there but its page {page} is not in mkdocs.yml's nav")
    drawn = {page for page, top in TOP_PAGES.items() if (root / top).exists()}
    for page in named:
        if page not in pages and page not in drawn:
            problems.append(f"mkdocs.yml's nav names {page}, which is not in docs/")
    return problems


def test_every_page_of_the_docs_is_in_the_nav_and_every_page_of_the_nav_exists() -> None:
    assert nav_problems(CONFIG.read_text(encoding="utf-8"), DOCS, ROOT) == []


def test_a_page_missing_from_the_nav_or_a_nav_entry_without_a_page_is_reported(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    (docs / "reference").mkdir(parents=True)
    for page in ("kept.md", "left-out.md", "reference/core.md", "reference/new.md"):
        (docs / page).write_text("# A page\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# Home\n", encoding="utf-8")
    config = """site_name: x
nav:
  - Home: index.md
  - kept.md
  - Gone: gone.md
  - Reference:
      - reference/core.md
  - changelog.md
plugins:
  - search
"""
    assert nav_pages(config) == [
        "index.md",
        "kept.md",
        "gone.md",
        "reference/core.md",
        "changelog.md",
    ]
    assert nav_problems(config, docs, tmp_path) == [
        "docs/left-out.md is not in mkdocs.yml's nav",
        "docs/reference/new.md is not in mkdocs.yml's nav",
        "mkdocs.yml's nav names gone.md, which is not in docs/",
        "mkdocs.yml's nav names changelog.md, which is not in docs/",
    ]
    (tmp_path / "CHANGELOG.md").write_text("# Changelog\n", encoding="utf-8")
    without_changelog = config.replace("  - changelog.md\n", "")
    assert nav_problems(without_changelog, docs, tmp_path)[2:] == [
        "CHANGELOG.md is there but its page changelog.md is not in mkdocs.yml's nav",
        "mkdocs.yml's nav names gone.md, which is not in docs/",
    ]


@pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None,
    reason="MkDocs is not installed: the docs extra (pip install -e '.[docs]';"
    " scripts/test installs it)",
)
def test_the_site_builds_with_no_warning(tmp_path: Path) -> None:
    site = tmp_path / "site"
    # Not --quiet: it silences the warnings that --strict counts, and the build passes.
    command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    command += ["--config-file", str(CONFIG), "--site-dir", str(site)]
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, check=False
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert (site / "index.html").exists()
    assert (site / "reference" / "core" / "index.html").exists()


def site_docstrings() -> ModuleType:
    """scripts/griffe_docstrings.py, loaded from its path (scripts/ is not a package)."""
    pytest.importorskip("griffe", reason="griffe is not installed: the docs extra")
    path = ROOT / "scripts" / "griffe_docstrings.py"
    spec = importlib.util.spec_from_file_location("griffe_docstrings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_doctests_in_docstrings_become_code_blocks_for_the_site() -> None:
    text = "The game.\n\n    >>> game.turn\n    0\n\nAfter.\n>>> 1 + 1\n2"
    assert site_docstrings().fence_doctests(text) == (
        "The game.\n\n    ```pycon\n    >>> game.turn\n    0\n    ```\n\n"
        "After.\n```pycon\n>>> 1 + 1\n2\n```"
    )


def test_sphinx_roles_in_docstrings_become_links_or_code_spans_for_the_site() -> None:
    griffe = pytest.importorskip("griffe", reason="griffe is not installed: the docs extra")
    module = site_docstrings()
    scope = griffe.temporary_visited_module("class Game:\n    def push(self): ...\n")
    with scope as game_module:
        text = ":class:`Game`, :meth:`~hanamikoji.core.Game.push` and :func:`nowhere`"
        rewritten = module.ROLE.sub(lambda m: module.reference(m, game_module), text)
    assert rewritten == (
        '<autoref identifier="module.Game" optional><code>Game</code></autoref>, '
        '<autoref identifier="hanamikoji.core.Game.push" optional><code>push</code></autoref>'
        " and `nowhere`"
    )
