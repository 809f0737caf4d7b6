"""The page's JavaScript holds what the server and the engine hold, read from its files:

- the rules' numbers of ``static/js/game_rules.js`` are the engine's (the actions in
  order, each one's letter in the notation and number of cards, the row of geishas);
- the page's languages (``LANGS`` of ``static/js/i18n.js``) are the server's;
- docs/web.md's table of the page's modules names every file of ``static/js`` and no
  other.

TypeScript checks the modules themselves (``npx --no-install tsc -p .``, in
scripts/test).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hanamikoji.core.cards import GEISHAS
from hanamikoji.core.moves import ACTIONS, CARDS_PER_ACTION, Move, MoveKind
from hanamikoji.interfaces.web.games.payload import KIND_NAMES
from hanamikoji.notation.names import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "src/hanamikoji/interfaces/web/static/js"
CONSTANT = re.compile(r"^export const (\w+) = (.+);$", re.MULTILINE)
SPAN = re.compile(r"`([^`]+)`")
MODULES_HEADING = "### How the page is built"

# One decision of each action, to read the notation's letter of each from its text.
SAMPLES = {
    MoveKind.SECRET: Move.secret(0),
    MoveKind.TRADE_OFF: Move.trade_off(0, 1),
    MoveKind.GIFT: Move.gift(0, 1, 2),
    MoveKind.COMPETITION: Move.competition((0, 1), (2, 3)),
}


def constants(name: str) -> dict[str, object]:
    """The ``export const NAME = VALUE;`` lines of a module whose value is JSON."""
    text = (SCRIPTS / name).read_text(encoding="utf-8")
    return {match.group(1): json.loads(match.group(2)) for match in CONSTANT.finditer(text)}


def test_the_pages_rules_are_the_engines() -> None:
    rules = constants("game_rules.js")
    assert rules["KINDS"] == [KIND_NAMES[kind] for kind in ACTIONS]
    assert rules["CARDS_PER_ACTION"] == {
        KIND_NAMES[kind]: CARDS_PER_ACTION[kind] for kind in ACTIONS
    }
    assert rules["KIND_LETTERS"] == {KIND_NAMES[kind]: SAMPLES[kind].text()[0] for kind in ACTIONS}
    assert rules["ROW"] == [geisha.index for geisha in GEISHAS]


def test_the_pages_languages_are_the_servers() -> None:
    assert constants("i18n.js")["LANGS"] == list(LANGUAGES)


def page_modules_table() -> list[str]:
    """The files docs/web.md's table of the page's modules names (first cells)."""
    text = (ROOT / "docs/web.md").read_text(encoding="utf-8")
    start = text.index(f"\n{MODULES_HEADING}\n") + len(MODULES_HEADING) + 2
    stop = re.compile(r"^#{1,3} ", re.MULTILINE).search(text, start)
    names: list[str] = []
    for line in text[start : stop.start() if stop else len(text)].splitlines():
        if line.startswith("|"):
            names.extend(SPAN.findall(line.strip("|").split("|")[0]))
    return names


def test_the_docs_table_of_the_page_names_every_module() -> None:
    listed = page_modules_table()
    files = sorted(path.name for path in SCRIPTS.iterdir() if path.is_file())
    assert sorted(listed) == files
