"""Every sentence the interfaces say, in every language: gettext catalogs managed with
Babel (docs/i18n.md).

The English sentences are declared in the code that says them, with :func:`sentence`
and :func:`plural` (``interfaces/messages.py`` for the terminal, ``interfaces/web/
catalog.py`` for the server and the page); ``pybabel extract`` collects them (the key
is the message context) into ``locale/hanamikoji.pot``, each language's translations
live in ``locale/<language>/LC_MESSAGES/hanamikoji.po``, and ``scripts/i18n`` compiles
them to the ``.mo`` files read here and to the JSON catalogs the page reads.

>>> PLAYER = sentence("player", "Player {number}")
>>> say(PLAYER, "fr", number=2)
'Joueur 2'
>>> DECK = plural("deck_cards", "Deck: {n} card", "Deck: {n} cards")
>>> [say(DECK, "en", n=n) for n in (1, 2)], [say(DECK, "fr", n=n) for n in (0, 1, 2)]
(['Deck: 1 card', 'Deck: 2 cards'], ['Pioche : 0 carte', 'Pioche : 1 carte', 'Pioche : 2 cartes'])
"""

from __future__ import annotations

import gettext
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from hanamikoji.notation.names import Lang

__all__ = [
    "DECLARED",
    "DOMAIN",
    "LOCALE_DIR",
    "PLURAL_RULES",
    "UI_LANGUAGES",
    "Sentence",
    "UiLang",
    "gettext_name",
    "page_sentences",
    "plural",
    "say",
    "sentence",
    "sentences",
    "ui_lang",
]

UiLang = Literal["en", "es", "fr", "ja", "zh-Hant"]
UI_LANGUAGES: tuple[UiLang, ...] = ("en", "es", "fr", "ja", "zh-Hant")
"""The languages of the interfaces' sentences (``en-2018`` speaks English)."""

DOMAIN = "hanamikoji"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

PLURAL_RULES: dict[str, str] = {
    "en": "(n != 1)",
    "es": "(n != 1)",
    "fr": "(n > 1)",
    "ja": "0",
    "zh-Hant": "0",
}
"""Each language's gettext plural rule (the ``Plural-Forms`` of its catalog): English and
Spanish use the first form for 1 only, French for 0 and 1, Japanese and Chinese one form."""


@dataclass(frozen=True)
class Sentence:
    """A sentence in English with ``{field}`` holes; a counted one has a plural form and
    chooses its form by the field ``n``."""

    key: str
    english: str
    english_plural: str | None = None


def sentence(key: str, english: str) -> Sentence:
    """Declare a sentence (``pybabel extract`` reads these calls: key as context)."""
    return Sentence(key, english)


def plural(key: str, singular: str, plural_form: str) -> Sentence:
    """Declare a counted sentence: ``singular`` and ``plural_form`` in English, the form
    chosen by the field ``n`` and each language's plural rule."""
    return Sentence(key, singular, plural_form)


DECLARED: dict[str, Sentence] = {}
"""Every sentence declared so far by any module, by key: the catalog's source."""


def sentences(*declared: Sentence) -> dict[str, Sentence]:
    """A module's declared sentences by key, also recorded in :data:`DECLARED`; raises
    ``ValueError`` on a key declared twice (here or in another module)."""
    table: dict[str, Sentence] = {}
    for entry in declared:
        if entry.key in table or DECLARED.get(entry.key, entry) != entry:
            raise ValueError(f"sentence {entry.key!r} is declared twice")
        table[entry.key] = entry
    DECLARED.update(table)
    return table


def ui_lang(lang: Lang) -> UiLang:
    """The sentence language of an edition language (``en-2018`` speaks English)."""
    return "en" if lang == "en-2018" else lang


def gettext_name(lang: UiLang) -> str:
    """The catalog folder of a language: gettext's locale name (``zh-Hant`` -> ``zh_Hant``)."""
    return lang.replace("-", "_")


@cache
def _translations(lang: UiLang) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[gettext_name(lang)])


def say(entry: Sentence, lang: Lang, **fields: object) -> str:
    """``entry`` in ``lang`` with its fields filled in (a counted sentence needs ``n``)."""
    catalog = _translations(ui_lang(lang))
    if entry.english_plural is None:
        template = catalog.pgettext(entry.key, entry.english)
    else:
        count = fields["n"]
        if not isinstance(count, int):
            raise TypeError(f"sentence {entry.key!r} counts an int n, not {count!r}")
        template = catalog.npgettext(entry.key, entry.english, entry.english_plural, count)
    return template.format(**fields)


@cache
def page_sentences(lang: UiLang) -> dict[str, Any]:
    """The page's catalog of ``lang`` as ``scripts/i18n`` compiled it: every sentence by
    key (a list of forms for a counted one) and the plural rule that picks a form."""
    path = LOCALE_DIR / gettext_name(lang) / f"{DOMAIN}.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded
