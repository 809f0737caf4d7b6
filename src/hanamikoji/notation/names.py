"""Display names of the game's terms in each edition's language.

``en`` uses the 2016 English terms (Trade-off, Victory Marker), ``en-2018`` the 2018
Deep Water Games terms (Discard, Favor Marker), ``es`` the Spanish and ``fr`` the
French edition's terms, ``zh-Hant`` those of the Taiwanese first edition and ``ja`` the
Japanese ones (docs/rules.md, "Names in each edition").

>>> action_name(MoveKind.TRADE_OFF, "en-2018")
'Discard'
>>> describe_move(Move.from_text("C:AB/FG"), "fr")
'Échange : Flûte (Ayane) + Éventail (Iroha) / Service à thé (Anju) + Fleur (Ruri)'
>>> describe_move(Move.from_text("G>D"), "es")
'Toma del Regalo: Sombrilla (Yoko)'
>>> describe_move(Move.from_text("G:DDG"), "ja")
'贈呈：和傘 (Yoko)、和傘 (Yoko)、花かんざし (Ruri)'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from hanamikoji.core.cards import GEISHAS
from hanamikoji.core.moves import Move, MoveKind, require_move

__all__ = [
    "LANGUAGES",
    "Lang",
    "action_name",
    "card_label",
    "check_lang",
    "describe_cards",
    "describe_move",
    "item_name",
    "join_list",
    "term",
]

Lang = Literal["en", "en-2018", "es", "fr", "ja", "zh-Hant"]
LANGUAGES: tuple[Lang, ...] = get_args(Lang)

_ACTIONS: dict[Lang, tuple[str, str, str, str]] = {
    "en": ("Secret", "Trade-off", "Gift", "Competition"),
    "en-2018": ("Secret", "Discard", "Gift", "Competition"),
    "es": ("Secreto", "Renuncia", "Regalo", "Competición"),
    "fr": ("Secret", "Dépôt", "Offre", "Échange"),
    "ja": ("密約", "破棄", "贈呈", "競争"),
    "zh-Hant": ("密約", "取捨", "贈予", "競爭"),
}

_ITEMS: dict[Lang, tuple[str, ...]] = {
    "en": ("flute", "fan", "scroll", "parasol", "shamisen", "tea set", "flower"),
    "en-2018": ("flute", "fan", "scroll", "parasol", "shamisen", "tea set", "flower"),
    "es": ("Flauta", "Abanico", "Pergamino", "Sombrilla", "Shamisen", "Juego de té", "Flor"),
    "fr": ("Flûte", "Éventail", "Papier", "Ombrelle", "Luth", "Service à thé", "Fleur"),
    "ja": ("笛", "扇", "巻物", "和傘", "三味線", "茶器", "花かんざし"),
    "zh-Hant": ("笛", "扇", "卷軸", "紙傘", "三味線", "茶具", "花簪"),
}

_TERMS: dict[Lang, dict[str, str]] = {
    "en": {
        "charm": "charm",
        "marker": "Victory Marker",
        "take_gift": "Takes from the Gift",
        "take_competition": "Takes from the Competition",
        "hidden": "face down",
        "colon": ": ",
        "list": ", ",
    },
    "en-2018": {
        "charm": "Charm Points",
        "marker": "Favor Marker",
        "take_gift": "Takes from the Gift",
        "take_competition": "Takes from the Competition",
        "hidden": "face down",
        "colon": ": ",
        "list": ", ",
    },
    "es": {
        "charm": "Puntos de Carisma",
        "marker": "Marcador de Victoria",
        "take_gift": "Toma del Regalo",
        "take_competition": "Toma de la Competición",
        "hidden": "boca abajo",
        "colon": ": ",
        "list": ", ",
    },
    "fr": {
        "charm": "points Art",
        "marker": "jeton Art",
        "take_gift": "Prend dans l’Offre",
        "take_competition": "Prend dans l’Échange",
        "hidden": "face cachée",
        "colon": " : ",
        "list": ", ",
    },
    "ja": {
        "charm": "魅力ポイント",
        "marker": "勝利マーカー",
        "take_gift": "贈呈から取る",
        "take_competition": "競争から取る",
        "hidden": "裏向き",
        "colon": "：",
        "list": "、",
    },
    "zh-Hant": {
        "charm": "魅力值",
        "marker": "勝利標記",
        "take_gift": "從贈予中拿取",
        "take_competition": "從競爭中拿取",
        "hidden": "蓋牌",
        "colon": "：",
        "list": "、",
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
    ``hidden``; and the punctuation that goes with them, ``colon`` and ``list`` (what
    separates the items of a list: ``、`` in Japanese and Chinese)."""
    return _TERMS[lang][key]


def join_list(words: Iterable[str], lang: Lang = "en") -> str:
    """Words listed in the language's way: ``Secret, Gift``, ``密約、贈呈``."""
    return _TERMS[lang]["list"].join(words)


def card_label(card: int, lang: Lang = "en") -> str:
    """A card as a person reads it: item and geisha, e.g. ``parasol (Yoko)``."""
    return f"{item_name(card, lang)} ({GEISHAS[card].name})"


def describe_cards(move: Move, lang: Lang = "en") -> str:
    """The cards of a decision that shows them, in words: a list, a Competition's two
    pairs, or the pair taken from one.

    >>> describe_cards(Move.from_text("C>FG"), "en")
    'tea set (Anju) + flower (Ruri)'
    """
    kind = move.kind
    if kind == MoveKind.COMPETITION_RESPONSE:
        return " + ".join(card_label(c, lang) for c in move.cards)
    if kind == MoveKind.COMPETITION and move.pairs:
        halves = [" + ".join(card_label(c, lang) for c in pair) for pair in move.pairs]
        return f"{halves[0]} / {halves[1]}"
    return join_list((card_label(c, lang) for c in move.cards), lang)


def describe_move(move: Move, lang: Lang = "en") -> str:
    """A decision in words, in the given language's edition terms."""
    colon = _TERMS[lang]["colon"]
    kind = require_move(move, "describe_move").kind
    if kind == MoveKind.GIFT_RESPONSE:
        return f"{term('take_gift', lang)}{colon}{describe_cards(move, lang)}"
    if kind == MoveKind.COMPETITION_RESPONSE:
        return f"{term('take_competition', lang)}{colon}{describe_cards(move, lang)}"
    name = action_name(kind, lang)
    if move.hidden:
        return f"{name} ({term('hidden', lang)})"
    return f"{name}{colon}{describe_cards(move, lang)}"


# -- the card-table deck (docs/rules.md, "The card-table deck") ------------------------------
#
# The card-table adaptation plays the game with an eight-suit deck ranked 0-9, X, J, Q, K, A.
# Geisha g is the card of her suit whose rank is her charm, her item cards are that suit's
# ranks 0 .. charm-1 (only the suit matters for an item), and each player's action markers
# are the X, J, Q and K of one suit. The adaptation's table does not say whether Ruri's suit
# is the moons or the stars: this project takes the moons, because in each of its pairs of
# suits the first column belongs to the first suit named, and the moons/stars pair has one
# column. The stars are not used.

__all__ += [
    "ACTION_SUITS",
    "CARD_TABLE_RANKS",
    "DECKS",
    "SUITS",
    "Deck",
    "Suit",
    "card_table_action",
    "card_table_faces",
    "card_table_geisha",
    "card_table_item",
    "card_table_item_ranks",
    "card_table_text",
    "check_deck",
    "suit_of",
]

Deck = Literal["boxed", "card-table"]
DECKS: tuple[Deck, ...] = get_args(Deck)

CARD_TABLE_RANKS = "0123456789XJQKA"
"""The ranks of a suit of the card-table deck, lowest first."""


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit of the card-table deck: its English name and the symbol the apps show."""

    name: str
    symbol: str


SUITS: tuple[Suit, ...] = (
    Suit("clubs", "♣"),
    Suit("spades", "♠"),
    Suit("hearts", "♥"),
    Suit("diamonds", "♦"),
    Suit("coins", "◉"),
    Suit("crowns", "♛"),
    Suit("moons", "☾"),
)
"""The suit of each geisha and her items, in row order (Ayane's clubs to Ruri's moons)."""

ACTION_SUITS: tuple[Suit, Suit] = (SUITS[0], SUITS[1])
"""The suit of each player's action cards: clubs for Player 1, spades for Player 2."""

_ACTION_RANKS = ("J", "X", "Q", "K")  # by MoveKind: Secret, Trade-off, Gift, Competition


def check_deck(deck: str) -> Deck:
    """``deck`` as a :data:`Deck`; raises ``ValueError`` naming the known decks.

    >>> check_deck("card-table")
    'card-table'
    >>> check_deck("tarot")
    Traceback (most recent call last):
    ValueError: unknown deck 'tarot'; known: boxed, card-table
    """
    for known in DECKS:
        if deck == known:
            return known
    raise ValueError(f"unknown deck {deck!r}; known: {', '.join(DECKS)}")


def suit_of(card: int) -> Suit:
    """The suit of a geisha and her item cards in the card-table deck.

    >>> suit_of(4)
    Suit(name='coins', symbol='◉')
    """
    return SUITS[card]


def card_table_geisha(card: int) -> str:
    """A geisha's card-table card: her charm as rank, then her suit.

    >>> [card_table_geisha(g.index) for g in GEISHAS]
    ['2♣', '2♠', '2♥', '3♦', '3◉', '4♛', '5☾']
    """
    return f"{CARD_TABLE_RANKS[GEISHAS[card].charm]}{suit_of(card).symbol}"


def card_table_item(card: int) -> str:
    """An item card's card-table face: its suit (any of :func:`card_table_item_ranks`,
    which play alike, as copies of an item do).

    >>> card_table_item(6)
    '☾'
    """
    return suit_of(card).symbol


def card_table_item_ranks(card: int) -> tuple[str, ...]:
    """The ranks of a geisha's item cards in the card-table deck: 0 up to her charm - 1.

    >>> card_table_item_ranks(5)
    ('0', '1', '2', '3')
    """
    return tuple(CARD_TABLE_RANKS[: GEISHAS[card].charm])


def card_table_action(kind: MoveKind) -> str:
    """The rank of an action's card in the card-table deck.

    >>> [card_table_action(kind) for kind in list(MoveKind)[:4]]
    ['J', 'X', 'Q', 'K']
    """
    if not kind.is_action:
        raise ValueError(f"{kind.name} is a response, not an action")
    return _ACTION_RANKS[kind]


def _suits(cards: tuple[int, ...]) -> str:
    return "".join(card_table_item(card) for card in cards)


def card_table_text(move: Move, seat: int | None = None) -> str:
    """A decision written with the card-table deck's faces, as :meth:`Move.text` writes
    it with letters: the action card's rank, then the suits of the cards. Given the
    ``seat`` that decided, the action card shows its suit too (that player's, or for an
    answer the offering player's), a card rather than a lone letter.

    >>> texts = ("S", "T:AG", "G:DDG", "C:AB/FG", "G>D", "C>FG")
    >>> [card_table_text(Move.from_text(text)) for text in texts]
    ['J', 'X:♣☾', 'Q:♦♦☾', 'K:♣♠/♛☾', 'Q>♦', 'K>♛☾']
    >>> card_table_text(Move.from_text("G:DDG"), 0), card_table_text(Move.from_text("G>D"), 0)
    ('Q♣:♦♦☾', 'Q♠>♦')
    """
    kind = require_move(move, "card_table_text").kind

    def card(action: MoveKind, owner: int | None) -> str:
        suit = "" if owner is None else ACTION_SUITS[owner].symbol
        return card_table_action(action) + suit

    other = None if seat is None else 1 - seat
    if kind == MoveKind.GIFT_RESPONSE:
        return f"{card(MoveKind.GIFT, other)}>{_suits(move.cards)}"
    if kind == MoveKind.COMPETITION_RESPONSE:
        return f"{card(MoveKind.COMPETITION, other)}>{_suits(move.cards)}"
    rank = card(kind, seat)
    if move.hidden:
        return rank
    if move.pairs:
        first, second = move.pairs
        return f"{rank}:{_suits(first)}/{_suits(second)}"
    return f"{rank}:{_suits(move.cards)}"


def card_table_faces() -> dict[str, list[str]]:
    """What a client needs to draw the card-table deck: each geisha's card, each item
    card's suit symbol and English suit name (row order), each action's rank (Secret,
    Trade-off, Gift, Competition) and each player's action suit.

    >>> card_table_faces()["actions"]
    ['J', 'X', 'Q', 'K']
    """
    cards = range(len(GEISHAS))
    return {
        "geishas": [card_table_geisha(card) for card in cards],
        "items": [card_table_item(card) for card in cards],
        "suits": [suit_of(card).name for card in cards],
        "actions": list(_ACTION_RANKS),
        "action_suits": [suit.symbol for suit in ACTION_SUITS],
    }
