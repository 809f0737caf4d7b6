"""The rules in every language: each translation of docs/rules.md has its structure, the
terminal shows the game's language, and the web serves them as a page and as the Rules
panel's fragment (the variant's end marked, raw HTML never passed through)."""

from __future__ import annotations

import io
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from serving import app_client
from starlette.testclient import TestClient
from test_rules_doc import EXAMPLE_A, EXAMPLE_D, play_example

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.exits import EXIT_INPUT_ENDED
from hanamikoji.interfaces.messages import message, outcome_key
from hanamikoji.interfaces.rules import DOCS, rules_markdown, rules_page
from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.pages.rules import END_ID, rules_html, slug
from hanamikoji.notation.names import LANGUAGES, Lang, term

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = sorted({rules_page(lang) for lang in LANGUAGES} - {"rules.md"})
PARSER = MarkdownIt("commonmark").enable("table")

Shape = tuple[object, ...]


def skeleton(source: str) -> list[tuple[str, Shape]]:
    """What a translation keeps of the page, in order, each with the heading it comes
    under: headings (their level), tables (columns and rows) and code blocks (their text)."""
    tokens = PARSER.parse(source)
    found: list[tuple[str, Shape]] = []
    heading = "(top)"
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = tokens[index + 1].content
            found.append((heading, ("heading", token.tag)))
        elif token.type == "table_open":
            found.append((heading, ("table", *_table_shape(tokens, index))))
        elif token.type in ("fence", "code_block"):
            found.append((heading, ("code", token.info, token.content)))
    return found


def _table_shape(tokens: list[Token], start: int) -> tuple[int, int]:
    """(columns, body rows) of the table opening at ``start``."""
    columns = rows = 0
    for token in tokens[start:]:
        if token.type == "th_open":
            columns += 1
        elif token.type == "tr_open" and columns:
            rows += 1
        elif token.type == "table_close":
            break
    return columns, rows - 1


ENGLISH = skeleton(rules_markdown("en"))


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_every_translation_has_the_structure_of_the_english_page(name: str) -> None:
    path = DOCS / name
    assert path.is_file(), f"{path} is missing: every language's rules are a translation"
    source = path.read_text(encoding="utf-8")
    assert source != rules_markdown("en"), f"{name} is the English page, not a translation"
    found = skeleton(source)
    for at, ((english_heading, expected), (heading, shape)) in enumerate(
        zip(ENGLISH, found, strict=False)
    ):
        assert shape == expected, (
            f"{name}, element {at + 1} (under {heading!r}; in English under"
            f" {english_heading!r}): {shape} where docs/rules.md has {expected}"
        )
    assert len(found) == len(ENGLISH), (
        f"{name} has {len(found)} headings, tables and code blocks; docs/rules.md {len(ENGLISH)}"
    )


def test_the_structure_check_sees_a_missing_table_and_a_changed_heading_level() -> None:
    english = rules_markdown("en")
    without_table = re.sub(r"\n\| variant \| rounds .*?\n\n", "\n\n", english, flags=re.S)
    assert skeleton(without_table) != ENGLISH
    assert skeleton(english.replace("### The deal", "## The deal")) != ENGLISH
    assert skeleton(english.replace("`C:AB/FG`", "`C:AB/GF`")) == ENGLISH  # inline, not a block


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en-2018"])
def test_every_link_to_a_heading_leads_to_one(lang: Lang) -> None:
    html, _ = rules_html(rules_markdown(lang))
    ids = set(re.findall(r' id="([^"]+)"', html))
    links = re.findall(r'href="#([^"]+)"', html)
    assert links, lang
    assert [link for link in links if link not in ids] == [], lang


def test_each_language_reads_its_own_page() -> None:
    assert (
        rules_markdown("en")
        == rules_markdown("en-2018")
        == (DOCS / "rules.md").read_text(encoding="utf-8")
    )
    for lang in LANGUAGES:
        assert rules_markdown(lang) == (DOCS / rules_page(lang)).read_text(encoding="utf-8")
    assert rules_markdown("es").startswith("# Las reglas de Hanamikoji")


def test_the_wheel_carries_every_page() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    for lang in LANGUAGES:
        name = rules_page(lang)
        assert included.get(f"docs/{name}") == f"hanamikoji/interfaces/{name}", name


def test_slugs_are_githubs() -> None:
    assert slug("Points the rulebooks leave open, and how this engine settles each") == (
        "points-the-rulebooks-leave-open-and-how-this-engine-settles-each"
    )
    assert slug("Ejemplo (a): 11 de carisma") == "ejemplo-a-11-de-carisma"
    assert slug("例 (a)：11 魅力") == "例-a11-魅力"


# -- the terminal ---------------------------------------------------------------------------


def run(argv: list[str], lines: tuple[str, ...] = ()) -> tuple[int, str]:
    stdout = io.StringIO()
    streams = Streams(io.StringIO("".join(f"{line}\n" for line in lines)), stdout, io.StringIO())
    return run_command(argv, streams), " ".join(stdout.getvalue().split())


def title(lang: Lang) -> str:
    return rules_markdown(lang).splitlines()[0].removeprefix("# ")


def test_the_rules_command_speaks_the_chosen_language() -> None:
    status, output = run(["rules", "--lang", "es", "--variant", "french"])
    assert status == 0
    assert output.startswith("Variante de esta partida, french: ")
    assert title("es") in output and title("en") not in output
    assert "Competición" in output
    status, output = run(["rules", "--lang", "ja"])
    assert status == 0 and title("ja") in output


def test_rules_at_the_prompt_are_in_the_games_language() -> None:
    status, output = run(
        ["play", "--bot", "random", "--seed", "4", "--first", "you", "--lang", "fr"], ("règles",)
    )
    assert status == EXIT_INPUT_ENDED
    assert title("fr") in output and title("en") not in output


# -- the web ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with app_client() as test_client:
        yield test_client


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_of_each_language(client: TestClient, lang: Lang) -> None:
    response = client.get(f"/rules/{lang}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert page.startswith("<!doctype html>")
    assert f'<html lang="{"en" if lang == "en-2018" else lang}">' in page
    assert f"<title>{title(lang)} · Hanamikoji</title>" in page
    assert '<link rel="stylesheet" href="/static/style.css">' in page
    assert '<header class="topbar">' in page and f'href="/rules/{lang}" hreflang' in page
    assert END_ID not in page
    fragment = client.get(f"/api/rules/{lang}").text
    assert fragment.startswith('<div class="rules"') and "<html" not in fragment
    assert f">{title(lang)}</h1>" in fragment


def variant_name(variant: str, lang: Lang) -> str:
    """The name a player reads for ``variant`` in ``lang`` (the page's start form's)."""
    return text(f"variant_name_{variant.replace('-', '_')}", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_variants_end_is_marked(client: TestClient, lang: Lang) -> None:
    for variant in VARIANTS:
        name = variant_name(variant, lang)
        for route in (f"/rules/{lang}", f"/api/rules/{lang}"):
            html = client.get(route, params={"variant": variant}).text
            assert html.count(f'id="{END_ID}"') == 1, (lang, variant)
            row = html.split(f'id="{END_ID}"')[1].split("</tr>")[0]
            assert row.startswith(' class="rules-end" aria-current="true">')
            assert f"<td>{name}</td>" in row, (lang, variant, row)
            note = html.split('<p class="rules-note">')[1].split("</p>")[0]
            assert note.startswith(f'<a href="#{END_ID}">') and name in note
            assert f">{variant}<" not in note or name == variant


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_variants_are_named_as_players_read_them(lang: Lang) -> None:
    """The Variants table (and example (d)'s) name each variant as the page's start form
    does in that language, never by its name in the code; the first table's rows are in
    the order of VARIANTS, which the web page marks them by."""
    source = rules_markdown(lang)
    tables = [t for t in markdown_tables(source) if len(t) == 1 + len(VARIANTS)]
    variants, verdicts = tables[0], tables[-1]
    assert [row[0] for row in variants[1:]] == [variant_name(v, lang) for v in VARIANTS]
    assert {row[0] for row in verdicts[1:]} == {variant_name(v, lang) for v in VARIANTS}
    for variant in ("three-rounds", "french"):
        assert f"`{variant}`" not in source, (lang, variant)


def markdown_tables(source: str) -> list[list[list[str]]]:
    """Every table of ``source``: rows of cells (the header first)."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for token in PARSER.parse(source):
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows and token.level > 0:
            rows[-1].append(token.content)
        elif token.type == "table_close":
            found.append(rows)
            rows = []
    return found


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en-2018"])
def test_the_examples_verdicts_are_the_apps_sentences(lang: Lang) -> None:
    """Each worked example that ends a game quotes the sentence the apps show at its end,
    in the page's language (en-2018 reads the English page)."""
    games = [play_example(EXAMPLE_A), *(play_example(EXAMPLE_D, v) for v in VARIANTS)]
    flat = " ".join(rules_markdown(lang).split())
    for game in games:
        outcome = game.outcome
        if outcome is None:
            continue
        seat = outcome.winner
        winner = "" if seat is None else message("player", lang, number=seat + 1)
        said = message(outcome_key(outcome), lang, winner=winner, charm_term=term("charm", lang))
        assert said in flat, (lang, said)


DEVELOPER = re.compile(r"src/|tests/|\.py\b|cap=")
"""What only developers need: source and test paths, Python files, round caps."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_players_read_hold_no_developer_notes(client: TestClient, lang: Lang) -> None:
    served = [
        rules_markdown(lang),
        client.get(f"/rules/{lang}").text,
        client.get(f"/api/rules/{lang}", params={"variant": "classic"}).text,
        run(["rules", "--lang", lang])[1],
    ]
    for page in served:
        assert DEVELOPER.findall(page) == [], lang
    assert DEVELOPER.findall("see `src/hanamikoji/core/` and `classic/cap=10`") != []


def test_unknown_languages_and_variants_are_refused(client: TestClient) -> None:
    assert client.get("/rules/de").status_code == 404
    assert client.get("/api/rules/xx").json()["code"] == "err_bad_lang"
    refused = client.get("/api/rules/fr", params={"variant": "<b>"})
    assert refused.status_code == 400 and refused.json()["code"] == "err_bad_field"


def test_raw_html_in_the_markdown_is_shown_as_text() -> None:
    source = (
        "# Rules <script>alert(1)</script>\n\n"
        '<img src="x" onerror="alert(2)">\n\n'
        "A <b onclick=alert(3)>word</b>, [a link](javascript:alert(4)),"
        " [another file](records.md) and [a heading](#rules).\n\n"
        "| `classic` | <iframe src=x> |\n|---|---|\n| a | b |\n"
    )
    html, _ = rules_html(source)
    for raw in ("<script", "<img", "<b ", "<iframe", 'href="javascript', 'href="records.md"'):
        assert raw not in html, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=&quot;x&quot; onerror=&quot;alert(2)&quot;&gt;" in html
    assert "another file and" in html  # a link to a file the server does not serve: text
    assert '<h1 id="rules-rules-scriptalert1script">' in html
    assert '<a href="#rules-rules">a heading</a>' in html
