"""The page's JSON catalogs, compiled from the same gettext catalogs as the .mo files
(run by scripts/i18n): for each language, every sentence by key (its message context),
a counted sentence as the list of its forms in the order of the language's plural rule.

English comes from the template (.pot): its sentences are the English source.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from hanamikoji.interfaces.i18n import DOMAIN, LOCALE_DIR, PLURAL_RULES, UI_LANGUAGES, gettext_name

Compiled = dict[str, str | list[str]]


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source)


def source_catalog(lang: str) -> Catalog:
    """The .po of ``lang``, or the template for English."""
    if lang == "en":
        return read_catalog(LOCALE_DIR / f"{DOMAIN}.pot")
    return read_catalog(LOCALE_DIR / gettext_name(lang) / "LC_MESSAGES" / f"{DOMAIN}.po")


def page_catalog(catalog: Catalog, english: bool) -> Compiled:
    """Every sentence of ``catalog`` by key; English reads the msgids."""
    compiled: Compiled = {}
    for message in catalog:
        if not message.id or message.context is None:
            continue
        if english:
            compiled[message.context] = list(message.id) if message.pluralizable else message.id
        else:
            compiled[message.context] = (
                list(message.string) if message.pluralizable else message.string
            )
    return compiled


def plural_rule(catalog: Catalog) -> str:
    """The catalog's plural expression, e.g. ``(n != 1)``."""
    return catalog.plural_expr


def page_catalog_json(lang: str) -> str:
    """The JSON text of ``lang``'s page catalog; raises ``ValueError`` when its plural rule
    is not the one the page knows."""
    catalog = source_catalog(lang)
    if lang != "en" and plural_rule(catalog) != PLURAL_RULES[lang]:
        raise ValueError(
            f"{lang}: the catalog's plural rule {plural_rule(catalog)!r} is not"
            f" {PLURAL_RULES[lang]!r}, the one the page knows"
        )
    compiled = page_catalog(catalog, english=lang == "en")
    return json.dumps(compiled, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def main() -> int:
    for lang in UI_LANGUAGES:
        path = LOCALE_DIR / gettext_name(lang) / f"{DOMAIN}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page_catalog_json(lang), encoding="utf-8")
        print(f"{path}: {len(json.loads(path.read_text(encoding='utf-8')))} sentences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
