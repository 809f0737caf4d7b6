"""Display names of the game's terms in each edition's language.

``en`` uses the 2016 English terms (Trade-off, Victory Marker), ``en-2018`` the 2018
Deep Water Games terms (Discard, Favor Marker), ``es`` the Spanish and ``fr`` the
French edition's terms (docs/rules.md, "Names in each edition").

>>> action_name(MoveKind.TRADE_OFF, "en-2018")
'Discard'
>>> describe_move(Move.from_text("C:AB/FG"), "fr")
'Échange : Flûte (Ayane) + Éventail (Iroha) / Service à thé (Anju) + Fleur (Ruri)'
>>> describe_move(Move.from_text("G>D"), "es")
'Toma del Regalo: Sombrilla (Yoko)'
"""

from __future__ import annotations

from typing import Literal, get_args

from hanamikoji.core.cards import GEISHAS
from hanamikoji.core.moves import Move, MoveKind

__all__ = [
    "LANGUAGES",
    "Lang",
    "action_name",
    "card_label",
    "check_lang",
    "describe_move",
    "item_name",
    "term",
]

Lang = Literal["en", "en-2018", "es", "fr"]
LANGUAGES: tuple[Lang, ...] = get_args(Lang)

_ACTIONS: dict[Lang, tuple[str, str, str, str]] = {
    "en": ("Secret", "Trade-off", "Gift", "Competition"),
    "en-2018": ("Secret", "Discard", "Gift", "Competition"),
    "es": ("Secreto", "Renuncia", "Regalo", "Competición"),
    "fr": ("Secret", "Dépôt", "Offre", "Échange"),
}

_ITEMS: dict[Lang, tuple[str, ...]] = {
    "en": ("flute", "fan", "scroll", "parasol", "shamisen", "tea set", "flower"),
    "en-2018": ("flute", "fan", "scroll", "parasol", "shamisen", "tea set", "flower"),
    "es": ("Flauta", "Abanico", "Pergamino", "Sombrilla", "Shamisen", "Juego de té", "Flor"),
    "fr": ("Flûte", "Éventail", "Papier", "Ombrelle", "Luth", "Service à thé", "Fleur"),
}

_TERMS: dict[Lang, dict[str, str]] = {
    "en": {
        "charm": "charm",
        "marker": "Victory Marker",
        "take_gift": "Takes from the Gift",
        "take_competition": "Takes from the Competition",
        "hidden": "face down",
        "colon": ":",
    },
    "en-2018": {
        "charm": "Charm Points",
        "marker": "Favor Marker",
        "take_gift": "Takes from the Gift",
        "take_competition": "Takes from the Competition",
        "hidden": "face down",
        "colon": ":",
    },
    "es": {
        "charm": "Puntos de Carisma",
        "marker": "Marcador de Victoria",
        "take_gift": "Toma del Regalo",
        "take_competition": "Toma de la Competición",
        "hidden": "boca abajo",
        "colon": ":",
    },
    "fr": {
        "charm": "points Art",
        "marker": "jeton Art",
        "take_gift": "Prend dans l’Offre",
        "take_competition": "Prend dans l’Échange",
        "hidden": "face cachée",
        "colon": " :",
    },
}


def check_lang(lang: str) -> Lang:
    """``lang`` as a :data:`Lang`; raises ``ValueError`` naming the known languages."""
    for known in LANGUAGES:
        if lang == known:
            return known
    raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")


def action_name(kind: MoveKind, lang: Lang = "en") -> str:
    """The edition's name of an action marker."""
    if not kind.is_action:
        raise ValueError(f"{kind.name} is a response, not an action")
    return _ACTIONS[lang][kind]


def item_name(card: int, lang: Lang = "en") -> str:
    """The item of a card (flute, fan, ...)."""
    return _ITEMS[lang][card]


def term(key: str, lang: Lang = "en") -> str:
    """Another term of the game: ``charm``, ``marker``, ``take_gift``, ``take_competition``,
    ``hidden``."""
    return _TERMS[lang][key]


def card_label(card: int, lang: Lang = "en") -> str:
    """A card as a person reads it: item and geisha, e.g. ``parasol (Yoko)``."""
    return f"{item_name(card, lang)} ({GEISHAS[card].name})"


def _cards(cards: tuple[int, ...], lang: Lang) -> str:
    return ", ".join(card_label(c, lang) for c in cards)


def describe_move(move: Move, lang: Lang = "en") -> str:
    """A decision in words, in the given language's edition terms."""
    colon = _TERMS[lang]["colon"]
    kind = move.kind
    if kind == MoveKind.GIFT_RESPONSE:
        return f"{term('take_gift', lang)}{colon} {_cards(move.cards, lang)}"
    if kind == MoveKind.COMPETITION_RESPONSE:
        return f"{term('take_competition', lang)}{colon} " + " + ".join(
            card_label(c, lang) for c in move.cards
        )
    name = action_name(kind, lang)
    if move.hidden:
        return f"{name} ({term('hidden', lang)})"
    if kind == MoveKind.COMPETITION and move.pairs:
        first, second = move.pairs
        halves = [" + ".join(card_label(c, lang) for c in pair) for pair in (first, second)]
        return f"{name}{colon} {halves[0]} / {halves[1]}"
    return f"{name}{colon} {_cards(move.cards, lang)}"
