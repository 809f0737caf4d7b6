"""The game in words, as every terminal interface says it: cards, actions, decisions,
seats, scored rounds, outcomes and forfeits, in the player's language and with the
card-table deck's faces when it is chosen (docs/rules.md, "The card-table deck").

Plain strings only: the line interface (``line/``) and the full-screen app (``tui/``)
style them, the other subcommands print them. Each geisha's colour is here too, as a
style name, so that both interfaces colour her cards alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from hanamikoji.core import GEISHAS, LogEntry, Move, MoveKind, Outcome, RoundSummary
from hanamikoji.interfaces.messages import message, outcome_key
from hanamikoji.notation.names import (
    Deck,
    Lang,
    action_name,
    card_table_action,
    card_table_item,
    card_table_text,
    describe_cards,
    describe_move,
    item_name,
    join_list,
    term,
)
from hanamikoji.notation.outcomes import level_of_bot_name, seat_name
from hanamikoji.notation.records import RESIGNED, Forfeit

__all__ = [
    "GEISHA_STYLES",
    "action_label",
    "card_name",
    "cards_inline",
    "describe_decision",
    "forfeit_lines",
    "grouped_cards",
    "move_words",
    "outcome_text",
    "player_label",
    "seat_label",
    "summary_line",
    "tally_line",
    "variant_description",
    "with_face",
]

GEISHA_STYLES = ("magenta", "red", "yellow", "blue", "dark_orange", "green", "hot_pink")
"""Each geisha's colour (purple, red, yellow, blue, orange, green, pink) as a rich style."""


def with_face(face: str, words: str, deck: Deck) -> str:
    """``words`` after their ``face`` in the card-table deck, or alone for the boxed game.

    >>> with_face("J", "Secret", "card-table"), with_face("J", "Secret", "boxed")
    ('J Secret', 'Secret')
    """
    return f"{face} {words}" if deck == "card-table" else words


def card_name(card: int, lang: Lang, deck: Deck = "boxed") -> str:
    """A card's letter, geisha and item, after its suit with the card-table deck.

    >>> card_name(3, "en"), card_name(3, "en", "card-table")
    ('D Yoko parasol', '♦ D Yoko parasol')
    """
    geisha = GEISHAS[card]
    return with_face(
        card_table_item(card), f"{geisha.letter} {geisha.name} {item_name(card, lang)}", deck
    )


def action_label(kind: MoveKind, lang: Lang, deck: Deck = "boxed") -> str:
    """An action marker's name, after its card's rank with the card-table deck.

    >>> action_label(MoveKind.TRADE_OFF, "fr", "card-table")
    'X Dépôt'
    """
    return with_face(card_table_action(kind), action_name(kind, lang), deck)


def move_words(move: Move, lang: Lang, deck: Deck = "boxed", seat: int | None = None) -> str:
    """A decision in words; with the card-table deck its cards' faces follow (the action
    card with its suit when the ``seat`` that decides is given).

    >>> move_words(Move.from_text("G:DDG"), "en", "card-table", 0)
    'Gift: parasol (Yoko), parasol (Yoko), flower (Ruri) [Q♣:♦♦☾]'
    """
    words = describe_move(move, lang)
    return f"{words} [{card_table_text(move, seat)}]" if deck == "card-table" else words


def grouped_cards(cards: Iterable[int]) -> list[tuple[int, int]]:
    """Each kind of card among ``cards`` with its count, in row order.

    >>> grouped_cards([3, 0, 3])
    [(0, 1), (3, 2)]
    """
    tally = Counter(cards)
    return sorted(tally.items())


def cards_inline(cards: Iterable[int], lang: Lang, *, deck: Deck = "boxed") -> str:
    """Cards grouped by kind on one line: ``A Ayane flute, D Yoko parasol x2``."""
    parts = []
    for card, count in grouped_cards(cards):
        times = f" x{count}" if count > 1 else ""
        parts.append(card_name(card, lang, deck) + times)
    return join_list(parts, lang)


def seat_label(labels: tuple[str, str], seat: int, viewer: int | None, lang: Lang) -> str:
    """The label of ``seat``, said as the viewer's own when ``seat`` is the ``viewer``.

    >>> seat_label(("Ann", "Bo"), 0, 0, "en"), seat_label(("Ann", "Bo"), 1, 0, "en")
    ('Ann (you)', 'Bo')
    """
    label = labels[seat]
    return message("you_label", lang, player=label) if seat == viewer else label


def describe_decision(
    entry: LogEntry,
    labels: tuple[str, str],
    viewer: int | None,
    lang: Lang,
    *,
    deck: Deck = "boxed",
) -> str:
    """One logged decision in words, for the log and the announcements: ``Ann plays
    Gift: ...``, ``Bo takes from the Gift: ...``."""
    player = seat_label(labels, entry.seat, viewer, lang)
    move = entry.move
    if not move.is_response:
        words = move_words(move, lang, deck, entry.seat)
        return message("announce_action", lang, player=player, move=words)
    gift = move.kind == MoveKind.GIFT_RESPONSE
    said = message(
        "announce_take_gift" if gift else "announce_take_competition",
        lang,
        player=player,
        action=action_name(MoveKind.GIFT if gift else MoveKind.COMPETITION, lang),
        cards=describe_cards(move, lang),
    )
    return f"{said} [{card_table_text(move, entry.seat)}]" if deck == "card-table" else said


def summary_line(
    summary: RoundSummary,
    labels: tuple[str, str],
    viewer: int | None,
    lang: Lang,
    *,
    deck: Deck = "boxed",
) -> str:
    """A scored round on one line: both Secrets and each player's totals."""
    secrets = []
    for seat in (0, 1):
        card = summary.secrets[seat]
        shown = cards_inline((card,), lang, deck=deck) if card >= 0 else message("none", lang)
        player = seat_label(labels, seat, viewer, lang)
        secrets.append(message("labelled", lang, label=player, value=shown))
    return message(
        "last_round",
        lang,
        round=summary.round,
        secrets="; ".join(secrets),
        tally=tally_line(summary.charm, summary.geishas, labels, viewer, lang),
    )


def tally_line(
    charm: tuple[int, int],
    geishas: tuple[int, int],
    labels: tuple[str, str],
    viewer: int | None,
    lang: Lang,
) -> str:
    """Each seat's charm and geishas on one line, the ``viewer``'s said as theirs."""
    return " · ".join(
        message(
            "tally",
            lang,
            player=seat_label(labels, seat, viewer, lang),
            charm_term=term("charm", lang),
            charm=charm[seat],
            geishas=message("n_geishas", lang, n=geishas[seat]),
        )
        for seat in (0, 1)
    )


def outcome_text(outcome: Outcome, labels: tuple[str, str], lang: Lang) -> str:
    """Who won and why, with both players' totals, in the language's edition terms."""
    winner = labels[outcome.winner] if outcome.winner is not None else ""
    reason = message(outcome_key(outcome), lang, winner=winner, charm_term=term("charm", lang))
    tally = tally_line(outcome.charm, outcome.geishas, labels, None, lang)
    rounds = message("rounds_played", lang, rounds=outcome.rounds)
    return f"{reason} {tally} · {rounds} · {outcome.result()}"


def player_label(name: str, seat: int, lang: Lang) -> str:
    """How the player of ``seat`` named ``name`` (in the record) is shown: at the table,
    in the line interface and in replays alike. A seat without a name of its own is
    ``Player 2``; any other name comes with its seat, and a level's bot is named in the
    language.

    >>> player_label("Player 1", 0, "fr"), player_label("Ann", 0, "en")
    ('Joueur 1', 'Ann (Player 1)')
    >>> player_label("Bot level 3", 1, "es"), player_label("first-legal", 1, "en")
    ('Bot nivel 3 (Jugador 2)', 'first-legal (Player 2)')
    """
    number = seat + 1
    if name == seat_name(seat):
        return message("player", lang, number=number)
    level = level_of_bot_name(name)
    if level is not None:
        name = message("bot_level_name", lang, level=level)
    return message("named_player", lang, name=name, number=number)


def forfeit_lines(forfeit: Forfeit, labels: tuple[str, str], lang: Lang) -> list[tuple[str, str]]:
    """What a forfeit is told as, each line with its style: who forfeits and why, then
    who wins."""
    loser, winner = labels[forfeit.seat], labels[1 - forfeit.seat]
    if forfeit.kind == RESIGNED:  # a person, or an engine that answered 'resign'
        return [(message("replay_resigned", lang, player=loser, winner=winner), "bold red")]
    reason = f"{forfeit.kind}: {forfeit.reason}"
    return [
        (message("engine_forfeit", lang, player=loser, reason=reason), "bold red"),
        (message("forfeit_win", lang, player=winner, result=forfeit.result), "bold"),
    ]


def variant_description(name: str, fallback: str, lang: Lang) -> str:
    """A variant's description in the language, or the core's English one."""
    key = f"variant_{name.replace('-', '_')}"
    try:
        return message(key, lang)
    except KeyError:
        return fallback
