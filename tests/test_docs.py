"""The documentation says what the code does.

- Every ``hanamikoji SUBCOMMAND --option`` quoted in README.md and docs/*.md (in code
  spans and code blocks) names a subcommand and options of the real argument parser,
  built in-process.
- Every quoted ``python -m hanamikoji...`` module exists.
- Every quoted ``scripts/...``, ``benchmarks/...`` (and ``tests/``, ``examples/``,
  ``src/``, ``docs/``, ``deploy/``) path exists, and every relative Markdown link
  resolves to a file and, with ``#anchor``, to a heading of it.
- The levels table of docs/bots.md is :data:`hanamikoji.bots.levels.LEVELS`, and its
  row of their ratings in ``classic`` is the data file's (``bots/data/ratings.json``).
- The example session of docs/protocol.md is what ``hanamikoji engine`` answers, line by
  line.
- Each table of modules (docs/architecture.md, one a layer's folder; docs/web.md's for
  the web server, and one for each of its subfolders; docs/terminal.md's for the
  full-screen app) names every module of its
  folder and no module that is not there.
- Every ``--lang a|b|...`` quoted in the docs, and ``--lang``'s help, name every language.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from hanamikoji.bots.levels import LEVELS
from hanamikoji.bots.ratings import bot_rating
from hanamikoji.interfaces.cli import Streams, build_parser, run_command
from hanamikoji.notation.names import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGE = ROOT / "src" / "hanamikoji"


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


# -- reading Markdown ---------------------------------------------------------------------

FENCE = re.compile(r"^[ \t]*```([^\n`]*)\n(.*?)^[ \t]*```[ \t]*$", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`]+)`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class Markdown:
    """A Markdown text split into code (fenced blocks, inline spans) and prose."""

    blocks: tuple[str, ...]
    spans: tuple[str, ...]
    prose: str

    @classmethod
    def parse(cls, text: str) -> Markdown:
        blocks = tuple(match.group(2) for match in FENCE.finditer(text))
        outside = FENCE.sub("\n", text)
        spans = tuple(match.group(1) for match in SPAN.finditer(outside))
        return cls(blocks, spans, SPAN.sub("``", outside))

    def snippets(self) -> list[str]:
        """Each piece of code a reader might copy: a span, or a logical line of a block
        (lines ending in a backslash are joined). Lines of a protocol transcript (``> ``
        sent, ``< `` received) are not commands."""
        pieces = [" ".join(span.split()) for span in self.spans]
        for block in self.blocks:
            for line in block.replace("\\\n", " ").splitlines():
                if not line.startswith(("> ", "< ")):
                    pieces.append(line)
        return pieces


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a Markdown text: its headings (outside code blocks), numbered as
    GitHub numbers repeated ones, and explicit ``<a name/id>`` anchors."""
    found: set[str] = set(HTML_ANCHOR.findall(text))
    counts: dict[str, int] = {}
    for match in HEADING.finditer(FENCE.sub("\n", text)):
        base = slug(match.group(1))
        number = counts.get(base, 0)
        counts[base] = number + 1
        found.add(base if number == 0 else f"{base}-{number}")
    return found


# -- the command line ---------------------------------------------------------------------

COMMAND = re.compile(r"(?:^|(?<=[\s\"'(/]))(?<!from )hanamikoji[ \t]+(?!import\b)([a-z][\w-]*)")
END_OF_COMMAND = re.compile(r"(?<!\\)\||;|&&|\s#")
QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
OPTION = re.compile(r"(?<![\w-])--[a-zA-Z][\w-]*")


@cache
def cli_options() -> dict[str, frozenset[str]]:
    """Every subcommand of ``hanamikoji`` and the option strings it accepts."""
    parser = build_parser()
    subcommands: dict[str, frozenset[str]] = {}
    # argparse has no public way to list subcommands and their options.
    for action in parser._actions:  # noqa: SLF001
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for name, sub in action.choices.items():
                strings = {s for sub_action in sub._actions for s in sub_action.option_strings}  # noqa: SLF001
                subcommands[name] = frozenset(strings)
    return subcommands


def command_problems(snippet: str) -> list[str]:
    """What is wrong with the ``hanamikoji`` commands quoted in one snippet of code."""
    problems: list[str] = []
    for quoted in QUOTED.findall(snippet):
        problems.extend(command_problems(quoted[1:-1]))
    unquoted = QUOTED.sub('""', snippet)
    known = cli_options()
    for match in COMMAND.finditer(unquoted):
        name = match.group(1)
        rest = END_OF_COMMAND.split(unquoted[match.end() :], maxsplit=1)[0]
        shown = f"hanamikoji {name}{rest}".strip()
        if name not in known:
            problems.append(f"no subcommand {name!r}: `{shown}`")
            continue
        for option in OPTION.findall(rest):
            if option not in known[name]:
                problems.append(f"hanamikoji {name} has no option {option}: `{shown}`")
    return problems


MODULE = re.compile(r"-m[ \t]+(hanamikoji(?:\.\w+)*)")


def module_problems(snippet: str) -> list[str]:
    """``python -m hanamikoji...`` names a module that exists."""
    problems = []
    for name in MODULE.findall(snippet):
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            problems.append(f"no module {name}: `{snippet.strip()}`")
    return problems


# -- paths and links ----------------------------------------------------------------------

PATH = re.compile(r"(?<![\w./-])((?:scripts|benchmarks|tests|examples|src|docs|deploy)/[\w./@-]*)")


def path_problems(snippet: str) -> list[str]:
    problems = []
    for path in PATH.findall(snippet):
        if not (ROOT / path.rstrip(".")).exists():
            problems.append(f"no file {path}: `{snippet.strip()}`")
    return problems


def link_problems(text: str, prose: str, where: Path) -> list[str]:
    problems = []
    for target in (match.group(1) for match in LINK.finditer(prose)):
        if SCHEME.match(target):
            continue  # a web address, mailto:, ...
        path_part, _, anchor = target.partition("#")
        if not path_part:
            destination_text = text  # this very page
        else:
            destination = (where.parent / path_part).resolve()
            if not destination.exists():
                problems.append(f"broken link {target}: no file {destination}")
                continue
            if destination.suffix != ".md":
                continue
            destination_text = destination.read_text(encoding="utf-8")
        if anchor and anchor not in anchors(destination_text):
            problems.append(f"broken link {target}: no heading #{anchor} there")
    return problems


def doc_problems(text: str, where: Path) -> list[str]:
    """Everything the docs check finds wrong in the Markdown ``text`` of the file
    ``where`` (links are resolved from its folder)."""
    markdown = Markdown.parse(text)
    problems: list[str] = []
    for snippet in markdown.snippets():
        problems.extend(command_problems(snippet))
        problems.extend(module_problems(snippet))
        problems.extend(path_problems(snippet))
    problems.extend(link_problems(text, markdown.prose, where))
    return problems


@pytest.mark.parametrize("path", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_commands_paths_and_links_in_the_docs_exist(path: Path) -> None:
    assert doc_problems(path.read_text(encoding="utf-8"), path) == []


def test_the_docs_check_finds_a_missing_subcommand_option_file_or_link() -> None:
    text = """
See `hanamikoji arena A B --games 2 --no-such-option` and `hanamikoji frobnicate`,
`.venv/bin/python benchmarks/no_such_benchmark.py`, `python -m hanamikoji.bots.no_such`,
`python -m hanamikoji.no_such.module`, [a page](no-such-page.md) and
[a section](api.md#no-such-section), [here](#nowhere).

```sh
scripts/no-such-script
hanamikoji play --engine "hanamikoji engine --levle 3"
```
"""
    assert doc_problems(text, DOCS / "synthetic.md") == [
        "hanamikoji arena has no option --no-such-option:"
        " `hanamikoji arena A B --games 2 --no-such-option`",
        "no subcommand 'frobnicate': `hanamikoji frobnicate`",
        "no file benchmarks/no_such_benchmark.py:"
        " `.venv/bin/python benchmarks/no_such_benchmark.py`",
        "no module hanamikoji.bots.no_such: `python -m hanamikoji.bots.no_such`",
        "no module hanamikoji.no_such.module: `python -m hanamikoji.no_such.module`",
        "no file scripts/no-such-script: `scripts/no-such-script`",
        "hanamikoji engine has no option --levle: `hanamikoji engine --levle 3`",
        f"broken link no-such-page.md: no file {DOCS / 'no-such-page.md'}",
        "broken link api.md#no-such-section: no heading #no-such-section there",
        "broken link #nowhere: no heading #nowhere there",
    ]


def test_the_docs_check_accepts_what_exists() -> None:
    text = """
# A page

`hanamikoji arena A B --games 2 --jobs 1` \\| `hanamikoji play [--level N \\| --hotseat]`,
`hanamikoji arena mine greedy --engine "mine=./my-engine --strength 3"` (the engine's own
options are not the arena's), `benchmarks/engine.py`, `python -m hanamikoji.interfaces.cli`,
[the API](api.md#variants),
[above](#a-page), [the web](https://example.org/x.md).

```
> hmp 1
< id name hanamikoji greedy level 2
hanamikoji serve --port 8000   # --not-an-option in a comment
```
"""
    assert doc_problems(text, DOCS / "synthetic.md") == []


def test_the_readme_lists_every_subcommand() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = {m.group(1) for m in re.finditer(r"^\| `hanamikoji ([a-z-]+)", readme, re.MULTILINE)}
    assert rows == set(cli_options())


# -- difficulty levels --------------------------------------------------------------------

LEVELS_MARKER = "<!-- levels:"


def marked_table(text: str, marker: str) -> list[list[str]]:
    """The cells of each line of the Markdown table that follows ``marker``'s line (up
    to the first blank line): header, rule and rows."""
    table = text[text.index(marker) :].split("\n\n", 1)[0]
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in table.splitlines()[1:]
    ]


def documented_levels(text: str) -> list[tuple[int, str, float | None]]:
    """The rows of the table after the levels marker: (level, bot spec, seconds or None)."""
    rows: list[tuple[int, str, float | None]] = []
    for cells in marked_table(text, LEVELS_MARKER):
        if not cells[0].isdigit():
            continue  # the header and its rule
        level, bot, budget = cells
        seconds = None if budget == "none" else float(budget.removesuffix(" s"))
        rows.append((int(level), bot.strip("`"), seconds))
    return rows


def test_the_levels_table_is_the_levels_of_the_code() -> None:
    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    code = [(n, level.spec(), level.budget) for n, level in sorted(LEVELS.items())]
    assert documented_levels(text) == code


def test_the_levels_table_is_read_cell_by_cell() -> None:
    text = f"{LEVELS_MARKER} -->\n| level | bot | budget |\n|---|---|---|\n"
    text += "| 1 | `random` | none |\n| 4 | `ismcts` | 0.5 s |\n\nLevel 5 is not in the table."
    assert documented_levels(text) == [(1, "random", None), (4, "ismcts", 0.5)]


RATINGS_MARKER = "<!-- level ratings:"


def documented_ratings(text: str) -> dict[int, tuple[int, int]]:
    """The table after the level ratings marker: each level's (rating, deviation), the
    deviation 0 where the cell has none (the anchor)."""
    header, _, row = marked_table(text, RATINGS_MARKER)[:3]
    ratings: dict[int, tuple[int, int]] = {}
    for level, cell in zip(header[1:], row[1:], strict=True):
        rating, _, deviation = cell.partition("+-")
        ratings[int(level)] = (int(rating), int(deviation or 0))
    return ratings


def test_the_documented_ratings_of_the_levels_are_those_of_the_data_file() -> None:
    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    # bot_rating refuses an entry rated for another table of levels than LEVELS
    fitted = {number: bot_rating(number, "classic") for number in LEVELS}
    data = {n: (round(r.rating), round(r.deviation)) for n, r in fitted.items()}
    assert documented_ratings(text) == data


def test_the_ratings_row_is_read_cell_by_cell() -> None:
    text = f"{RATINGS_MARKER} -->\n| level | 1 | 2 |\n|---|---:|---:|\n"
    text += "| rating +- deviation | 1200 | 1324 +- 16 |\n\nLevel 3 is not rated."
    assert documented_ratings(text) == {1: (1200, 0), 2: (1324, 16)}


# -- the protocol's example session -------------------------------------------------------

SESSION_MARKER = "<!-- example-session:"


class ScriptedGui(io.StringIO):
    """A GUI that writes its lines one at a time: each time the engine reads, what the
    engine wrote since its last read is recorded as the answer to the line before."""

    def __init__(self, lines: list[str], engine_output: io.StringIO) -> None:
        super().__init__()
        self.lines = list(lines)
        self.engine_output = engine_output
        self.transcript: list[str] = []
        self._heard = 0

    def hear(self) -> None:
        written = self.engine_output.getvalue()
        self.transcript.extend("< " + line for line in written[self._heard :].splitlines())
        self._heard = len(written)

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed
        self.hear()
        if not self.lines:
            return ""
        line = self.lines.pop(0)
        self.transcript.append("> " + line)
        return line + "\n"


def documented_session() -> tuple[list[str], list[str]]:
    """The command line (after ``hanamikoji``) of docs/protocol.md's example session and
    the session's lines."""
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    marker = text.index(SESSION_MARKER)
    command = text[marker + len(SESSION_MARKER) : text.index("-->", marker)].split()
    assert command[0] == "hanamikoji"
    block = FENCE.search(text, marker)
    assert block is not None
    return command[1:], block.group(2).splitlines()


def test_the_example_session_is_what_the_engine_answers() -> None:
    argv, session = documented_session()
    sent = [line[2:] for line in session if line.startswith("> ")]
    assert len(sent) > 10 and all(line.startswith(("> ", "< ")) for line in session)
    output = io.StringIO()
    gui = ScriptedGui(sent, output)
    assert run_command(argv, Streams(gui, output, io.StringIO())) == 0
    gui.hear()
    assert gui.transcript == session


# -- tables of modules --------------------------------------------------------------------

MODULES_SECTION = "## Modules, layer by layer"
"""docs/architecture.md's section with one table a layer's folder, each under a heading
that names the folder (``### `hanamikoji/core/```)."""

FOLDER_HEADING = re.compile(r"^### `hanamikoji/([\w/]*)`$", re.MULTILINE)

SUBFOLDER_HEADING = re.compile(r"^### `([\w/]+)/`$", re.MULTILINE)
"""docs/web.md's heading of a table of one subfolder's modules (``### `db/```)."""


def section(text: str, heading: str, deepest: int = 6) -> str:
    """The text under the line ``heading`` (code blocks left out) up to the next heading
    of at most ``deepest`` ``#`` (by default, any heading); empty without that heading."""
    prose = FENCE.sub("\n", text)
    at = prose.find(f"\n{heading}\n")
    if at < 0:
        return ""
    start = at + len(heading) + 2
    stop = re.compile(rf"^#{{1,{deepest}}} ", re.MULTILINE).search(prose, start)
    return prose[start : stop.start() if stop else len(prose)]


def listed_modules(text: str) -> list[str]:
    """The names in code spans in the first cell of each row of the tables in ``text``."""
    names: list[str] = []
    for line in text.splitlines():
        if line.startswith("|"):
            names.extend(SPAN.findall(line.strip("|").split("|")[0]))
    return names


def tree_modules(folder: Path) -> set[str]:
    """The modules of a package folder: its ``.py`` files but ``__init__.py``, and its
    subpackages as ``name/``."""
    files = {path.name for path in folder.glob("*.py") if path.name != "__init__.py"}
    packages = {path.parent.name + "/" for path in folder.glob("*/__init__.py")}
    return files | packages


def module_table_problems(
    page: str, text: str, folder: Path, sources: Path = ROOT / "src"
) -> list[str]:
    """What a table of modules (``text``, from ``page``) gets wrong about ``folder`` (named
    from ``sources``)."""
    where = folder.relative_to(sources).as_posix()
    listed = listed_modules(text)
    problems = [
        f"{page}'s table lists {name}, which is not in {where}/"
        for name in listed
        if not (folder / name).exists()
    ]
    problems.extend(
        f"module {name} of {where}/ is not in {page}'s table"
        for name in sorted(tree_modules(folder) - set(listed))
    )
    return problems


def architecture_tables() -> dict[str, str]:
    """docs/architecture.md's tables of modules by folder (relative to the package)."""
    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    text = section(page, MODULES_SECTION, deepest=2)
    return {
        match.group(1).rstrip("/"): section(text, match.group(0))
        for match in FOLDER_HEADING.finditer(text)
    }


WEB_BUILT = "## How the server is built"


def subfolder_tables(text: str) -> dict[str, str]:
    """The tables of modules under ``### `folder/``` headings in ``text`` (one section of a
    page, its sub-sections included), by sub-folder name."""
    return {
        match.group(1): section(text, match.group(0)) for match in SUBFOLDER_HEADING.finditer(text)
    }


def sub_packages(folder: Path) -> set[str]:
    """The sub-folders of ``folder`` that are Python packages."""
    return {path.parent.name for path in folder.glob("*/__init__.py")}


def folder_tables(page: str, text: str, folder: Path) -> list[tuple[str, str, Path]]:
    """A folder's table (``text`` up to its first sub-heading) and the table of each of
    its sub-folders (a ``### `sub/``` section of ``text``, names relative to ``sub/``)."""
    first_heading = re.compile(r"^#{1,6} ", re.MULTILINE).search(text)
    tables = [(page, text[: first_heading.start() if first_heading else len(text)], folder)]
    tables.extend(
        (page, table, folder / name) for name, table in sorted(subfolder_tables(text).items())
    )
    return tables


def missing_subfolder_tables(
    page: str, text: str, folder: Path, sources: Path = ROOT / "src"
) -> list[str]:
    """The sub-packages of ``folder`` with no ``### `sub/``` section in ``text``."""
    where = folder.relative_to(sources).as_posix()
    return [
        f"sub-folder {name}/ of {where}/ has no `### `{name}/`` section in {page}"
        for name in sorted(sub_packages(folder) - set(subfolder_tables(text)))
    ]


def module_tables() -> list[tuple[str, str, Path]]:
    """Every table of modules in the docs: (page, its text, the folder it describes)."""
    web = (DOCS / "web.md").read_text(encoding="utf-8")
    terminal = (DOCS / "terminal.md").read_text(encoding="utf-8")
    tables = [
        ("docs/architecture.md", text, PACKAGE / folder)
        for folder, text in architecture_tables().items()
    ]
    built = section(web, WEB_BUILT, deepest=2)
    tables.extend(folder_tables("docs/web.md", built, PACKAGE / "interfaces/web"))
    tables.append(
        ("docs/terminal.md", section(terminal, "## How it is built"), PACKAGE / "interfaces/tui")
    )
    return tables


@pytest.mark.parametrize(
    ("page", "text", "folder"),
    [
        pytest.param(page, text, folder, id=f"{page}:{folder.relative_to(PACKAGE.parent)}")
        for page, text, folder in module_tables()
    ],
)
def test_each_table_of_modules_lists_every_module_of_its_folder(
    page: str, text: str, folder: Path
) -> None:
    assert module_table_problems(page, text, folder) == []


def test_each_package_of_the_web_folder_has_its_table() -> None:
    built = section((DOCS / "web.md").read_text(encoding="utf-8"), WEB_BUILT, deepest=2)
    assert missing_subfolder_tables("docs/web.md", built, PACKAGE / "interfaces/web") == []


def test_the_architecture_has_a_table_for_each_layer_folder() -> None:
    """A table for the package and each layer, and the others each for a subpackage of
    a layer (``bots/judge``)."""
    layers = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    tables = set(architecture_tables())
    assert {"", *layers} <= tables
    for folder in tables - {"", *layers}:
        assert folder.split("/")[0] in layers and (PACKAGE / folder / "__init__.py").exists()


def test_a_table_of_modules_that_drifted_from_its_folder_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "src" / "synthetic"
    for name in ("__init__.py", "kept.py", "new.py", "styles.css", "sub/__init__.py"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("", encoding="utf-8")
    text = """
| module | holds |
|---|---|
| `kept.py` | a module still there, `new.py` named outside the first cell |
| `gone.py`, `kept.py` | one that was removed |
| `styles.css` | a file that is not a module, listed all the same |
"""
    assert module_table_problems("docs/x.md", text, folder, tmp_path / "src") == [
        "docs/x.md's table lists gone.py, which is not in synthetic/",
        "module new.py of synthetic/ is not in docs/x.md's table",
        "module sub/ of synthetic/ is not in docs/x.md's table",
    ]


def test_a_sub_folder_without_its_table_or_with_a_drifted_one_is_reported(
    tmp_path: Path,
) -> None:
    sources = tmp_path / "src"
    folder = sources / "synthetic"
    for name in ("__init__.py", "app.py", "http/__init__.py", "http/kept.py", "http/new.py"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("", encoding="utf-8")
    (folder / "pages").mkdir()
    (folder / "pages" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "static").mkdir()  # not a package: no section needed
    text = """
| module | holds |
|---|---|
| `app.py` | the assembly |
| `http/`, `pages/`, `static/` | the folders |

### `http/`

| module | holds |
|---|---|
| `kept.py` | still there |
| `gone.py` | moved away |

### Storage

Prose, and no table.
"""
    tables = folder_tables("docs/x.md", text, folder)
    assert [table_folder.name for _, _, table_folder in tables] == ["synthetic", "http"]
    problems = [problem for args in tables for problem in module_table_problems(*args, sources)]
    assert problems == [
        "docs/x.md's table lists gone.py, which is not in synthetic/http/",
        "module new.py of synthetic/http/ is not in docs/x.md's table",
    ]
    assert missing_subfolder_tables("docs/x.md", text, folder, sources) == [
        "sub-folder pages/ of synthetic/ has no `### `pages/`` section in docs/x.md"
    ]


# -- languages ----------------------------------------------------------------------------

LANG_LIST = re.compile(r"--lang[ =]([\w-]+(?:\|[\w-]+)+)")


def test_every_list_of_languages_quoted_with_lang_is_every_language() -> None:
    pages = set()
    for path in documents():
        for snippet in Markdown.parse(path.read_text(encoding="utf-8")).snippets():
            for languages in LANG_LIST.findall(snippet):
                assert tuple(languages.split("|")) == LANGUAGES, f"{path.name}: {snippet}"
                pages.add(path.name)
    assert {"README.md", "terminal.md"} <= pages


def test_the_help_of_lang_names_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "replay", "rules", "variants", "bots", "analyze"):
        assert run_command([command, "--help"], Streams.system()) == 0
        helped = capsys.readouterr().out
        # The option's own help, after its line of choices, up to the next option.
        after = helped.split("\n  --lang {", 1)[1].split("\n", 1)[1]
        words = " ".join(after.split("\n  -", 1)[0].split())
        missing = [lang for lang in LANGUAGES if not re.search(rf"(?<![\w-]){lang}\b", words)]
        assert missing == [], f"{command} --help: {words}"
