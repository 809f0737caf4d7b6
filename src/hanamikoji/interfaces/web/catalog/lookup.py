"""The web interface's sentences by key (declared in English in ``site.py`` and
``table.py``; their translations are in the gettext catalogs:
:mod:`hanamikoji.interfaces.i18n`, docs/i18n.md), a sentence in a language, and the
catalog a page loads for its language.

Game terms (actions, items, charm, markers) are not here: they come from
:mod:`hanamikoji.notation.names` in the edition's words, and the sentences the terminal
interface already has (outcomes, reveal, variants) come from
:mod:`hanamikoji.interfaces.messages`. ``en-2018`` reads the English sentences with the
2018 edition's terms.

>>> text("err_used", "fr", action="Dépôt")
'Vous avez déjà joué Dépôt dans cette manche.'
>>> client_catalog("es")["actions"]
['Secreto', 'Renuncia', 'Regalo', 'Competición']
"""

from __future__ import annotations

from typing import Any

from hanamikoji.bots.levels import LEVELS
from hanamikoji.core.cards import GEISHAS
from hanamikoji.core.moves import ACTIONS
from hanamikoji.interfaces.i18n import PLURAL_RULES, page_sentences, say, ui_lang
from hanamikoji.interfaces.messages import MESSAGES
from hanamikoji.interfaces.web.catalog.site import SITE
from hanamikoji.interfaces.web.catalog.table import TABLE
from hanamikoji.interfaces.web.wire.incoming import DEFAULT_LEVEL
from hanamikoji.notation.names import (
    LANGUAGES,
    Lang,
    action_name,
    card_table_faces,
    item_name,
    term,
)

__all__ = ["LANGUAGE_NAMES", "UI", "client_catalog", "text"]

LANGUAGE_NAMES: dict[Lang, str] = {
    "en": "English (2016 edition)",
    "en-2018": "English (2018 edition)",
    "es": "Español",
    "fr": "Français",
    "ja": "日本語",
    "zh-Hant": "繁體中文",
}

UI = {**SITE, **TABLE}
"""Each sentence of the server and the page by key, in English; fields in braces."""

_REUSED_MESSAGES = (
    "player",
    "deck_cards",
    "n_geishas",
    "col_geisha",
    "log_title",
    "log_empty",
    "round_scored",
    "secrets_revealed",
    "outcome_charm",
    "outcome_charm_over_geishas",
    "outcome_geishas",
    "outcome_most_geishas",
    "outcome_most_charm",
    "outcome_shared_win",
    "outcome_no_winner",
    "outcome_round_cap",
    "game_over",
    "reveal_title",
    "reveal_round",
    "reveal_dealt",
    "reveal_drawn",
    "removed_card",
    "deck_order",
    "rounds_played",
    "variant_classic",
    "variant_three_rounds",
    "variant_french",
)
"""Sentences of the terminal interface the page uses as they are."""


def text(key: str, lang: Lang, **fields: object) -> str:
    """The sentence ``key`` in ``lang`` with its fields filled in (a counted sentence
    chooses its form by ``n``)."""
    return say(UI.get(key) or MESSAGES[key], lang, **fields)


def client_catalog(lang: Lang) -> dict[str, Any]:
    """Everything a page needs to speak ``lang``: sentences (with ``{field}`` holes; a
    counted one as the list of its forms, with the rule that picks a form), the
    edition's terms, the card-table deck's faces (the same in every language) and the
    difficulty levels (each named by its sentence ``level_N``) with the start page's
    default."""
    compiled = page_sentences(ui_lang(lang))
    return {
        "lang": lang,
        "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
        "ui": {key: compiled[key] for key in (*UI, *_REUSED_MESSAGES)},
        "plural": PLURAL_RULES[ui_lang(lang)],
        "levels": sorted(LEVELS),
        "default_level": DEFAULT_LEVEL,
        "actions": [action_name(kind, lang) for kind in ACTIONS],
        "items": [item_name(geisha.index, lang) for geisha in GEISHAS],
        "geishas": [geisha.name for geisha in GEISHAS],
        "charms": [geisha.charm for geisha in GEISHAS],
        "colours": [geisha.colour for geisha in GEISHAS],
        "letters": [geisha.letter for geisha in GEISHAS],
        "deck": card_table_faces(),
        "terms": {
            key: term(key, lang)
            for key in (
                "charm",
                "marker",
                "take_gift",
                "take_competition",
                "hidden",
                "colon",
                "list",
            )
        },
    }
