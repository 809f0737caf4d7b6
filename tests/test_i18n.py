"""The gettext catalogs (docs/i18n.md): every sentence declared in the code is in the
template, every language translates every one with the same fields and its plural
forms, and the compiled files (.mo for the interfaces, JSON for the page) are those of
the .po files as they are now."""

from __future__ import annotations

import importlib
import importlib.util
import io
import pkgutil
import re
import string
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from hanamikoji import interfaces
from hanamikoji.interfaces.i18n import (
    DECLARED,
    DOMAIN,
    LOCALE_DIR,
    PLURAL_RULES,
    UI_LANGUAGES,
    Sentence,
    UiLang,
    gettext_name,
    page_sentences,
    say,
)
from hanamikoji.interfaces.messages import MESSAGES, message
from hanamikoji.interfaces.web.catalog.lookup import UI, client_catalog
from hanamikoji.notation.names import LANGUAGES, Lang

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED: list[UiLang] = [lang for lang in UI_LANGUAGES if lang != "en"]


def declared() -> dict[str, Sentence]:
    """Every sentence any interface module declares (imports them all)."""
    for module in pkgutil.walk_packages(interfaces.__path__, "hanamikoji.interfaces."):
        importlib.import_module(module.name)
    return dict(DECLARED)


ALL = declared()


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source)


def po_path(lang: UiLang) -> Path:
    return LOCALE_DIR / gettext_name(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"


def entries(catalog: Catalog) -> dict[str, Message]:
    return {message.context: message for message in catalog if message.id and message.context}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def forms(message: Message) -> list[str]:
    string = message.string
    return [string] if isinstance(string, str) else list(string or ())


def test_no_key_is_declared_in_two_places() -> None:
    assert not set(MESSAGES) & set(UI)


def test_the_template_holds_every_declared_sentence_and_no_other() -> None:
    template = entries(read(LOCALE_DIR / f"{DOMAIN}.pot"))
    assert set(template) == set(ALL), "run scripts/i18n"
    for key, entry in ALL.items():
        found = template[key]
        english = (entry.english, entry.english_plural) if entry.english_plural else entry.english
        assert found.id == english, f"{key}: run scripts/i18n"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_language_translates_every_sentence_with_the_same_fields(lang: UiLang) -> None:
    catalog = read(po_path(lang))
    assert catalog.plural_expr == PLURAL_RULES[lang]
    translated = entries(catalog)
    assert set(translated) == set(ALL), f"{lang}: run scripts/i18n"
    missing = [key for key, found in translated.items() if not all(forms(found)) or found.fuzzy]
    assert not missing, f"{lang} lacks {len(missing)} sentences: {missing[:20]}"
    for key, found in translated.items():
        english = ALL[key]
        wanted = fields(english.english_plural or english.english)
        assert len(forms(found)) == catalog.num_plurals or not found.pluralizable, key
        for form in forms(found):
            assert fields(form) == wanted, f"{lang} {key}: {form!r} has not the fields {wanted}"


def compiled_content(data: bytes) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """What a compiled catalog says: its messages and its headers, without the Babel
    version that wrote it (a header that changes with every release of Babel)."""
    catalog = read_mo(io.BytesIO(data))
    said = sorted((repr(m.context), repr(m.id), repr(m.string)) for m in catalog)
    return said, [(k, v) for k, v in catalog.mime_headers if k != "Generated-By"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_files_are_those_of_the_po_files(lang: UiLang) -> None:
    catalog = read(po_path(lang))
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    committed = po_path(lang).with_suffix(".mo").read_bytes()
    assert compiled_content(committed) == compiled_content(compiled.getvalue()), "run scripts/i18n"


def test_the_page_catalogs_are_those_of_the_po_files() -> None:
    pages = load_script("page_catalogs")
    for lang in UI_LANGUAGES:
        path = LOCALE_DIR / gettext_name(lang) / f"{DOMAIN}.json"
        assert path.read_text(encoding="utf-8") == pages.page_catalog_json(lang), lang


def test_the_page_knows_every_plural_rule() -> None:
    script = (ROOT / "src/hanamikoji/interfaces/web/static/js/i18n.js").read_text("utf-8")
    known = set(re.findall(r'^  "([^"]+)": ', script, flags=re.MULTILINE))
    assert set(PLURAL_RULES.values()) <= known


@pytest.mark.parametrize("lang", LANGUAGES)
def test_counted_sentences_choose_their_form_by_the_language_rule(lang: Lang) -> None:
    said = {n: message("deck_cards", lang, n=n) for n in (0, 1, 2, 21)}
    assert all(str(n) in sentence for n, sentence in said.items())
    one_form = lang in ("ja", "zh-Hant")
    assert (said[1] == said[2].replace("2", "1")) is one_form
    assert (said[0] == said[1].replace("1", "0")) is (lang == "fr" or one_form)
    page = client_catalog(lang)
    assert (
        page["ui"]["n_decisions"]
        == page_sentences(page["lang"].replace("en-2018", "en"))["n_decisions"]
    )


def test_a_counted_sentence_needs_its_number() -> None:
    with pytest.raises(TypeError, match="counts an int n"):
        say(MESSAGES["deck_cards"], "en", n="3")
    with pytest.raises(KeyError):
        say(MESSAGES["deck_cards"], "en")


def test_scripts_i18n_extracts_with_pybabel(tmp_path: Path) -> None:
    """The template is what `pybabel extract` makes of the code (the command scripts/i18n
    runs), not a hand-kept list."""
    template = tmp_path / "extracted.pot"
    subprocess.run(
        [
            sys.executable, "-m", "babel.messages.frontend", "--quiet", "extract",
            "--no-default-keywords", "-k", "sentence:1c,2", "-k", "plural:1c,2,3",
            "--no-location", "-o", str(template), "src/hanamikoji/interfaces",
        ],
        cwd=ROOT, check=True,
    )  # fmt: skip
    assert set(entries(read(template))) == set(ALL)
