"""Terminal play: what one player sees, the prompt loop, and replays.

During a game everything shown to a person comes from ``game.view(seat)`` for the seat
of that person; the hidden state (the other hand, the removed card, the other Secret and
Trade-off) is shown only once the game is over. Input and output are streams, so tests
drive the loop with scripted text; colour comes from ``rich`` and disappears by itself
when the output is not a terminal or ``NO_COLOR`` is set.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from hanamikoji.bots import Bot
from hanamikoji.core import (
    ACTIONS,
    GEISHAS,
    Deal,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    LogEntry,
    Move,
    MoveKind,
    Outcome,
    Phase,
    Reveal,
    RoundSummary,
    Variant,
    View,
)
from hanamikoji.core.cards import ITEM_LETTERS, letters
from hanamikoji.interfaces.messages import (
    command_for,
    illegality,
    is_yes,
    localized,
    message,
    outcome_key,
)
from hanamikoji.interfaces.preparing import PreparingBot
from hanamikoji.interfaces.rules import rules_document
from hanamikoji.interfaces.styled import Console, Group, RenderableType, Table, Text, box
from hanamikoji.notation.names import (
    Deck,
    Lang,
    action_name,
    card_table_action,
    card_table_geisha,
    card_table_item,
    card_table_text,
    describe_cards,
    describe_move,
    item_name,
    join_list,
    term,
)
from hanamikoji.notation.outcomes import level_of_bot_name, seat_name
from hanamikoji.notation.records import Forfeit, GameRecord
from hanamikoji.protocol import EngineError, GameObserver, forfeit_of

__all__ = [
    "EXIT_ENGINE",
    "EXIT_ERROR",
    "EXIT_INPUT_ENDED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "LineSource",
    "PlaySession",
    "Player",
    "Terminal",
    "action_label",
    "card_name",
    "cards_inline",
    "forfeit_lines",
    "move_words",
    "outcome_text",
    "player_label",
    "release_bots",
    "render_board",
    "render_reveal",
    "render_round_summary",
    "replay_game",
    "save_game",
    "summary_line",
    "with_face",
]

# The exit statuses of every ``hanamikoji`` subcommand (docs/cli.md lists them).
EXIT_OK = 0
"""Done: the game was played to the end or stopped with ``quit``, the listing shown."""
EXIT_ERROR = 1
"""A file cannot be read or written, or a record is broken or unfit for the command."""
EXIT_USAGE = 2
"""An option or its value is wrong, or options do not go together (argparse's status)."""
EXIT_ENGINE = 3
"""An external engine did not start, or failed during the game and forfeited it."""
EXIT_INPUT_ENDED = 4
"""The input ended in the middle of a game: nobody is left to answer."""
EXIT_INTERRUPTED = 130
"""The shell's convention for a program stopped by Ctrl-C (128 + SIGINT)."""

GEISHA_STYLES = ("magenta", "red", "yellow", "blue", "dark_orange", "green", "hot_pink")
"""Each geisha's colour (purple, red, yellow, blue, orange, green, pink) as a rich style."""

_CLEAR_SCREEN_AND_SCROLLBACK = "\033[H\033[2J\033[3J"


class LineSource(Protocol):
    """Where typed lines come from: a text stream such as ``sys.stdin``, or a script."""

    def readline(self) -> str:
        """The next line with its line end; ``""`` at the end of input."""
        ...

    def isatty(self) -> bool: ...


class Terminal:
    """One person-facing terminal: a rich console on ``stdout`` and lines from ``stdin``.

    ``lang`` chooses both the interface sentences and the edition's game terms, ``deck``
    the faces shown beside the cards' and actions' names (docs/rules.md, "The card-table
    deck").
    """

    def __init__(
        self,
        stdin: LineSource,
        stdout: TextIO,
        lang: Lang = "en",
        *,
        deck: Deck = "boxed",
        color: bool | None = None,
        width: int | None = None,
    ) -> None:
        self.stdin = stdin
        self.lang: Lang = lang
        self.deck: Deck = deck
        self.console = Console(
            file=stdout,
            highlight=False,
            markup=False,
            emoji=False,
            no_color=None if color is None else not color,
            width=width,
        )
        # A transcript (a file, a pipe) keeps each sentence on one line, for grep and diff.
        self.console.soft_wrap = not self.console.is_terminal
        # Piped input is not echoed by any terminal; echoing it keeps transcripts readable.
        self._echo = not _isatty(stdin)

    def t(self, key: str, **fields: object) -> str:
        """An interface sentence in this terminal's language."""
        return message(key, self.lang, **fields)

    def show(self, *items: RenderableType, style: str | None = None) -> None:
        self.console.print(*items, style=style)

    def show_document(self, *items: RenderableType) -> None:
        """A document (the rules), wrapped at word boundaries to the width even in a
        transcript: there :meth:`show` keeps lines whole, which a list item or a table,
        drawn at the width, would instead cut at the width."""
        self.console.print(*items, soft_wrap=False)

    def ask(self, prompt: str) -> str:
        """One line of input without its line end. Raises ``EOFError`` at the end of input
        and lets ``KeyboardInterrupt`` through."""
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        if self.stdin is sys.stdin and _isatty(sys.stdin):
            # input() brings line editing on a real terminal.
            try:
                return input()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                raise
        line = self.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        line = line.rstrip("\r\n")
        if self._echo:
            self.console.print(line)
        return line

    def clear(self) -> None:
        """Clear the screen and the scrollback, so a passed terminal hides the last hand."""
        if self.console.is_terminal:
            self.console.file.write(_CLEAR_SCREEN_AND_SCROLLBACK)
            self.console.file.flush()


def _isatty(stream: LineSource) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# -- rendering ------------------------------------------------------------------------


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


def card_text(card: int, lang: Lang, suffix: str = "", *, deck: Deck = "boxed") -> Text:
    """A card with its letter, geisha and item, in the geisha's colour: ``D Yoko parasol``."""
    return Text(card_name(card, lang, deck) + suffix, style=GEISHA_STYLES[card])


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


def _grouped(cards: Iterable[int]) -> list[tuple[int, int]]:
    tally = Counter(cards)
    return sorted(tally.items())


def cards_inline(cards: Iterable[int], lang: Lang, *, deck: Deck = "boxed") -> str:
    """Cards grouped by kind on one line: ``A Ayane flute, D Yoko parasol x2``."""
    parts = []
    for card, count in _grouped(cards):
        times = f" x{count}" if count > 1 else ""
        parts.append(card_name(card, lang, deck) + times)
    return join_list(parts, lang)


def _seat_label(labels: tuple[str, str], seat: int, viewer: int | None, lang: Lang) -> str:
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
    player = _seat_label(labels, entry.seat, viewer, lang)
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


def _marker(favor: int | None, left: int, left_name: str, right_name: str, lang: Lang) -> Text:
    if favor is None:
        return Text(message("marker_neutral", lang), style="dim")
    if favor == left:
        return Text(f"◀ {left_name}", style="bold")
    return Text(f"{right_name} ▶", style="bold")


def _count_cell(count: int, card: int) -> Text:
    if count == 0:
        return Text("-", style="dim")
    return Text(GEISHAS[card].letter * count, style=GEISHA_STYLES[card])


def _geisha_table(
    left: tuple[str, tuple[int, ...]],
    right: tuple[str, tuple[int, ...]],
    favor: tuple[int | None, ...],
    left_seat: int,
    marker_names: tuple[str, str],
    lang: Lang,
    deck: Deck,
) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(message("col_geisha", lang))
    table.add_column(message("col_charm", lang), justify="right")
    table.add_column(message("col_item", lang))
    table.add_column(left[0], justify="right")
    table.add_column(message("col_marker", lang), justify="center")
    table.add_column(right[0])
    for geisha in GEISHAS:
        k = geisha.index
        table.add_row(
            Text(
                with_face(card_table_geisha(k), f"{geisha.letter} {geisha.name}", deck),
                style=GEISHA_STYLES[k],
            ),
            str(geisha.charm),
            with_face(card_table_item(k), item_name(k, lang), deck),
            _count_cell(left[1][k], k),
            _marker(favor[k], left_seat, marker_names[0], marker_names[1], lang),
            _count_cell(right[1][k], k),
        )
    return table


def _used_actions(view: View, seat: int, label: str, lang: Lang, deck: Deck) -> str:
    used = [action_label(kind, lang, deck) for kind in ACTIONS if kind in view.used[seat]]
    listed = join_list(used, lang) if used else message("none", lang)
    return message("used_actions", lang, player=label, actions=listed)


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
        player = _seat_label(labels, seat, viewer, lang)
        secrets.append(message("labelled", lang, label=player, value=shown))
    return message(
        "last_round",
        lang,
        round=summary.round,
        secrets="; ".join(secrets),
        tally=_tally(summary.charm, summary.geishas, labels, viewer, lang),
    )


def _tally(
    charm: tuple[int, int],
    geishas: tuple[int, int],
    labels: tuple[str, str],
    viewer: int | None,
    lang: Lang,
) -> str:
    return " · ".join(
        message(
            "tally",
            lang,
            player=_seat_label(labels, seat, viewer, lang),
            charm_term=term("charm", lang),
            charm=charm[seat],
            geishas=message("n_geishas", lang, n=geishas[seat]),
        )
        for seat in (0, 1)
    )


def response_options(view: View, lang: Lang, *, deck: Deck = "boxed") -> list[Text]:
    """The numbered answers to the pending Gift or Competition."""
    lines = []
    for number, move in enumerate(view.legal_moves(), start=1):
        words = move_words(move, lang, deck, view.player)
        lines.append(Text(f"  {number}) {move}   {words}"))
    return lines


def render_board(
    view: View, labels: tuple[str, str], lang: Lang, *, deck: Deck = "boxed"
) -> RenderableType:
    """The table as the player of ``view`` sees it: the geisha row with markers, both
    sides' cards, the deck and hands, used actions, this player's Secret, Trade-off and
    hand, the last round's summary, this round's public log and any offer to answer."""
    me, opp = view.player, view.opponent
    me_label = _seat_label(labels, me, me, lang)
    opp_label = labels[opp]
    parts: list[RenderableType] = []
    parts.append(
        Text(
            message("board_title", lang, round=view.round, variant=view.variant.name),
            style="bold underline",
        )
    )
    if view.rounds:
        last = summary_line(view.rounds[-1], labels, me, lang, deck=deck)
        parts.append(Text(last, style="dim"))
    this_round = [entry for entry in view.log if entry.round == view.round]
    if this_round:
        parts.append(Text(message("this_round", lang), style="bold"))
        for entry in this_round:
            parts.append(Text(f"  {describe_decision(entry, labels, me, lang, deck=deck)}"))
    parts.append(
        _geisha_table(
            (opp_label, view.placed[opp]),
            (me_label, view.placed[me]),
            view.favor,
            opp,
            (message("marker_them", lang), message("marker_you", lang)),
            lang,
            deck,
        )
    )
    parts.append(
        Text(
            message(
                "deck_and_hands",
                lang,
                deck=message("deck_cards", lang, n=view.deck_size),
                me=me_label,
                mine=view.hand_sizes[me],
                them=opp_label,
                theirs=view.hand_sizes[opp],
            )
        )
    )
    parts.append(Text(_used_actions(view, me, me_label, lang, deck)))
    parts.append(Text(_used_actions(view, opp, opp_label, lang, deck)))
    if view.secret is not None:
        action = action_label(MoveKind.SECRET, lang, deck)
        line = Text(message("your_action", lang, action=action) + " ")
        line.append_text(card_text(view.secret, lang, deck=deck))
        parts.append(line)
    if view.tradeoff:
        action = action_label(MoveKind.TRADE_OFF, lang, deck)
        parts.append(
            Text(
                message("your_action", lang, action=action)
                + " "
                + cards_inline(view.tradeoff, lang, deck=deck)
            )
        )
    parts.append(
        Text(
            message(
                "hand_cards",
                lang,
                letters=letters(view.hand, sort=True) or "-",
                n=len(view.hand),
            ),
            style="bold",
        )
    )
    drawn_marked = False
    for card, count in _grouped(view.hand):
        suffix = f" x{count}"
        if card == view.drawn and not drawn_marked:
            suffix += f"  ({message('drawn', lang)})"
            drawn_marked = True
        line = Text("  ")
        line.append_text(card_text(card, lang, suffix, deck=deck))
        parts.append(line)
    if view.my_turn and view.pending is not None:
        key = "answer_gift" if view.phase == Phase.GIFT_RESPONSE else "answer_competition"
        parts.append(
            Text(
                message(
                    key, lang, player=opp_label, offer=move_words(view.pending, lang, deck, opp)
                ),
                style="bold",
            )
        )
        parts.extend(response_options(view, lang, deck=deck))
    elif view.my_turn:
        left = [action_label(kind, lang, deck) for kind in ACTIONS if kind not in view.used[me]]
        parts.append(Text(message("your_turn", lang, actions=join_list(left, lang)), style="bold"))
    return Group(*parts)


def render_round_summary(
    summary: RoundSummary,
    labels: tuple[str, str],
    lang: Lang,
    viewer: int | None = None,
    *,
    deck: Deck = "boxed",
) -> RenderableType:
    """A scored round: both sides' cards (Secrets included), the markers, the totals.

    From a player's point of view the opponent is on the left, as on the board.
    """
    left = 1 - viewer if viewer is not None else 0
    right = 1 - left
    left_label = _seat_label(labels, left, viewer, lang)
    right_label = _seat_label(labels, right, viewer, lang)
    table = _geisha_table(
        (left_label, summary.sides[left]),
        (right_label, summary.sides[right]),
        summary.favor,
        left,
        (
            labels[left] if viewer is None else message("marker_them", lang),
            labels[right] if viewer is None else message("marker_you", lang),
        ),
        lang,
        deck,
    )
    secrets = []
    for seat in (0, 1):
        card = summary.secrets[seat]
        shown = cards_inline((card,), lang, deck=deck) if card >= 0 else message("none", lang)
        player = _seat_label(labels, seat, viewer, lang)
        secrets.append(message("labelled", lang, label=player, value=shown))
    return Group(
        Text(message("round_scored", lang, round=summary.round), style="bold underline"),
        Text(message("secrets_revealed", lang, secrets=" · ".join(secrets))),
        table,
        Text(_tally(summary.charm, summary.geishas, labels, viewer, lang)),
    )


def outcome_text(outcome: Outcome, labels: tuple[str, str], lang: Lang) -> str:
    """Who won and why, with both players' totals, in the language's edition terms."""
    winner = labels[outcome.winner] if outcome.winner is not None else ""
    reason = message(outcome_key(outcome), lang, winner=winner, charm_term=term("charm", lang))
    tally = _tally(outcome.charm, outcome.geishas, labels, None, lang)
    rounds = message("rounds_played", lang, rounds=outcome.rounds)
    return f"{reason} {tally} · {rounds} · {outcome.result()}"


def _draws(deck: Sequence[int], starter: int, seat: int) -> tuple[int, ...]:
    # The starter draws the deck's 1st, 3rd, ... cards; the other player the 2nd, 4th, ...
    first = 0 if seat == starter else 1
    return tuple(deck[first::2])


def render_reveal(
    reveal: Reveal,
    summaries: Sequence[RoundSummary],
    labels: tuple[str, str],
    lang: Lang,
    *,
    deck: Deck = "boxed",
) -> RenderableType:
    """Everything that was hidden, round by round: the removed card, the dealt hands, the
    draws, both Secrets and both Trade-offs."""
    starters = {s.round: s.starter for s in summaries}
    for entry in reveal.moves:
        starters.setdefault(entry.round, entry.seat)
    parts: list[RenderableType] = [Text(message("reveal_title", lang), style="bold underline")]
    secret_name = action_label(MoveKind.SECRET, lang, deck)
    tradeoff_name = action_label(MoveKind.TRADE_OFF, lang, deck)
    for rnd in reveal.rounds:
        starter = starters.get(rnd.round, 0)
        removed = cards_inline((rnd.deal.removed,), lang, deck=deck)
        parts.append(Text(message("reveal_round", lang, round=rnd.round, removed=removed)))
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column(labels[0])
        table.add_column(labels[1])
        table.add_row(
            message("reveal_dealt", lang),
            cards_inline(rnd.deal.hands[0], lang, deck=deck),
            cards_inline(rnd.deal.hands[1], lang, deck=deck),
        )
        table.add_row(
            message("reveal_drawn", lang),
            cards_inline(_draws(rnd.deal.deck, starter, 0), lang, deck=deck),
            cards_inline(_draws(rnd.deal.deck, starter, 1), lang, deck=deck),
        )
        table.add_row(
            secret_name,
            *(
                cards_inline((card,), lang, deck=deck)
                if card is not None
                else message("none", lang)
                for card in rnd.secrets
            ),
        )
        table.add_row(
            tradeoff_name,
            *(
                cards_inline(cards, lang, deck=deck) if cards else message("none", lang)
                for cards in rnd.tradeoffs
            ),
        )
        parts.append(table)
    return Group(*parts)


def render_help(view: View, lang: Lang, *, deck: Deck = "boxed") -> RenderableType:
    """The notation, the commands, and examples taken from this player's legal decisions."""
    legal = view.legal_moves()
    examples: dict[MoveKind, Move] = {}
    for move in legal:
        examples.setdefault(move.kind, move)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(message("help_decision", lang))
    table.add_column(message("help_write", lang))
    table.add_column(message("help_example_now", lang))
    rows: list[tuple[str, str, MoveKind]] = [
        (action_label(MoveKind.SECRET, lang, deck), "S:D", MoveKind.SECRET),
        (action_label(MoveKind.TRADE_OFF, lang, deck), "T:AG", MoveKind.TRADE_OFF),
        (action_label(MoveKind.GIFT, lang, deck), "G:DDG", MoveKind.GIFT),
        (action_label(MoveKind.COMPETITION, lang, deck), "C:AB/FG", MoveKind.COMPETITION),
        (term("take_gift", lang), "G>D", MoveKind.GIFT_RESPONSE),
        (term("take_competition", lang), "C>FG", MoveKind.COMPETITION_RESPONSE),
    ]
    for name, pattern, kind in rows:
        example = examples.get(kind)
        table.add_row(name, pattern, str(example) if example is not None else "")
    return Group(
        Text(message("help_title", lang), style="bold underline"),
        Text(message("help_letters", lang)),
        table,
        Text(message("help_answer", lang)),
        Text(message("help_commands", lang)),
    )


def render_rules(variant: Variant, lang: Lang) -> RenderableType:
    """The rules in ``lang`` (docs/rules.md or its translation, the one source of their
    text), after a line saying which variant is played and how it ends."""
    description = variant_description(variant.name, variant.description, lang)
    return Group(
        Text(message("rules_variant", lang, variant=variant.name, description=description)),
        rules_document(lang),
    )


def render_moves(view: View, lang: Lang, *, deck: Deck = "boxed") -> RenderableType:
    """This player's legal decisions, numbered; a number at the prompt picks one."""
    lines: list[RenderableType] = [Text(message("moves_title", lang), style="bold")]
    for number, move in enumerate(view.legal_moves(), start=1):
        words = move_words(move, lang, deck, view.player)
        lines.append(Text(f"  {number:>3}. {move!s:<9} {words}"))
    return Group(*lines)


def render_log(
    view: View, labels: tuple[str, str], lang: Lang, *, deck: Deck = "boxed"
) -> RenderableType:
    """Every decision this player may know of, round by round, with the scored rounds."""
    viewer = view.player if view.reveal is None else None
    lines: list[RenderableType] = [Text(message("log_title", lang), style="bold underline")]
    summaries = {s.round: s for s in view.rounds}
    current = 0
    for entry in view.log:
        if entry.round != current:
            if current in summaries:
                lines.append(
                    Text(
                        summary_line(summaries[current], labels, viewer, lang, deck=deck),
                        style="dim",
                    )
                )
            current = entry.round
            lines.append(Text(message("round_heading", lang, round=current), style="bold"))
        described = describe_decision(entry, labels, viewer, lang, deck=deck)
        lines.append(Text(f"  {entry.turn}. {entry.move!s:<9} {described}"))
    if current in summaries:
        last = summary_line(summaries[current], labels, viewer, lang, deck=deck)
        lines.append(Text(last, style="dim"))
    if not view.log:
        lines.append(Text(message("log_empty", lang)))
    return Group(*lines)


# -- playing --------------------------------------------------------------------------


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


@dataclass(frozen=True, slots=True)
class Player:
    """One seat: its name in the game record, its label on screen, and its bot if any."""

    name: str
    label: str
    bot: Bot | None = None

    @classmethod
    def seated(cls, name: str, seat: int, lang: Lang, bot: Bot | None = None) -> Player:
        """The player of ``seat`` named ``name``, labelled by :func:`player_label`."""
        return cls(name, player_label(name, seat, lang), bot)


class _Forfeited(Exception):
    """An engine failed (timeout, crash, illegal answer): its seat loses the game."""

    def __init__(self, forfeit: Forfeit) -> None:
        super().__init__(forfeit.reason)
        self.forfeit = forfeit


_NUMBER = re.compile(r"[+-]?\d+")
"""What a person types to pick a listed decision by its number (or a wrong number)."""


def listed_place(typed: str, count: int) -> int | None:
    """The index in a numbered list of ``count`` entries (numbered from 1) that the number
    ``typed`` picks, or ``None`` when it picks none.

    >>> listed_place("2", 3), listed_place("０３", 3), listed_place("0", 3), listed_place("-1", 3)
    (1, 2, None, None)
    >>> listed_place("9" * 5000, 3) is None   # no int() of 5,000 digits
    True
    """
    if len(typed.lstrip("+-").lstrip("0０")) > len(str(count)):
        return None
    number = int(typed)
    return number - 1 if 1 <= number <= count else None


class _Stop(Exception):
    """The person asked to stop (``quit``)."""


PROGRESS_SECONDS = 10.0
"""How often a transcript says a bot is still being prepared."""

_EOF = "eof"
_INTERRUPT = "interrupt"
_QUIT = "quit"


class PlaySession:
    """One game at one terminal: bots move by themselves, people are prompted.

    With ``hotseat`` both seats are people: the screen is cleared and the terminal is
    passed between their decisions, so neither sees the other's hand. With ``save_path``
    the game record is written after every decision and at the end.
    """

    def __init__(
        self,
        game: Game,
        players: tuple[Player, Player],
        terminal: Terminal,
        *,
        save_path: Path | None = None,
        hotseat: bool = False,
    ) -> None:
        self.game = game
        self.players = players
        self.terminal = terminal
        self.save_path = save_path
        self.hotseat = hotseat
        self.labels = (players[0].label, players[1].label)
        people = [seat for seat in (0, 1) if players[seat].bot is None]
        # Without a hotseat the one person faces the screen from the start.
        self._facing: int | None = None if hotseat or len(people) != 1 else people[0]
        self._seen_log = [0, 0]
        self._seen_rounds = [0, 0]
        self._save_failed = False
        self._forfeited: Forfeit | None = None
        self._numbered = False
        """Whether the decisions of this prompt were listed with numbers (by 'moves', or
        the answers to an offer, which the board lists): only then does a number pick one."""

    @property
    def lang(self) -> Lang:
        return self.terminal.lang

    @property
    def deck(self) -> Deck:
        return self.terminal.deck

    def t(self, key: str, **fields: object) -> str:
        return self.terminal.t(key, **fields)

    def run(self) -> int:
        """Play to the end or until the person stops; returns the exit status."""
        try:
            if self.save_path is not None and not self._save(self.save_path):
                return EXIT_ERROR
            self._introduce()
            while not self.game.is_over():
                self._decide()
            return self._finish()
        except _Forfeited as forfeited:
            return self._forfeit(forfeited.forfeit)
        except _Stop:
            return self._stop(_QUIT)
        except EOFError:
            return self._stop(_EOF)
        except KeyboardInterrupt:
            return self._stop(_INTERRUPT)
        finally:
            self._release_bots()

    def _release_bots(self) -> None:
        release_bots(self.players, self.game)

    def _forfeit(self, forfeit: Forfeit) -> int:
        self._forfeited = forfeit
        for line, style in forfeit_lines(forfeit, self.labels, self.lang):
            self.terminal.show(Text(line, style=style))
        bot = self.players[forfeit.seat].bot
        if isinstance(bot, GameObserver):
            bot.game_over(self.game.view(forfeit.seat), result=forfeit.result, reason=forfeit.kind)
        if self.save_path is None:
            self._offer_save()
        elif self._save(self.save_path):
            self.terminal.show(Text(self.t("saved", path=str(self.save_path))))
        return EXIT_ENGINE

    def _introduce(self) -> None:
        game = self.game
        self.terminal.show(
            Text(
                self.t(
                    "intro",
                    variant=game.variant.name,
                    description=variant_description(
                        game.variant.name, game.variant.description, self.lang
                    ),
                    seed=game.seed,
                ),
                style="bold",
            )
        )
        for seat in (0, 1):
            self.terminal.show(Text(f"  {self.labels[seat]}"))
        self.terminal.show(Text(self.t("starts", player=self.labels[game.first_player])))
        self.terminal.show(Text(self.t("intro_help"), style="dim"))

    def _decide(self) -> None:
        seat = self.game.to_move
        # A seeded game deals every round by itself, so someone is always to move.
        assert seat is not None
        player = self.players[seat]
        if player.bot is not None:
            self._await_bot(seat, player.bot)
            try:
                move = player.bot.choose(self.game.view(seat), self.game.legal_moves())
            except EngineError as error:
                raise _Forfeited(forfeit_of(seat, error)) from error
            self.game.push(move)
        else:
            move = self._ask_person(seat)
            self.game.push(move)
            entry = self.game.view(seat).log[-1]
            described = describe_decision(entry, self.labels, seat, self.lang, deck=self.deck)
            self.terminal.show(Text(described))
            self._seen_log[seat] = len(self.game.move_stack)
        if self.save_path is not None:
            self._autosave(self.save_path)

    def _await_bot(self, seat: int, bot: Bot) -> None:
        """A bot still being prepared (numba compiling the expert's judge): say so, and
        the seconds elapsed (a spinner on a terminal, a line every
        :data:`PROGRESS_SECONDS` in a transcript), until it is ready."""
        if not isinstance(bot, PreparingBot) or bot.ready():
            return
        label = self.labels[seat]
        self.terminal.show(Text(self.t("bot_preparing", player=label), style="bold"))
        console = self.terminal.console

        def progress() -> str:
            return self.t("bot_preparing_progress", player=label, seconds=f"{bot.seconds():.0f}")

        if console.is_terminal:
            with console.status(progress()) as status:
                while not bot.wait(1):
                    status.update(progress())
        else:
            while not bot.wait(PROGRESS_SECONDS):
                self.terminal.show(Text(progress(), style="dim"))
        ready = self.t("bot_prepared", player=label, seconds=f"{bot.seconds():.0f}")
        self.terminal.show(Text(ready))

    def _ask_person(self, seat: int) -> Move:
        if self.hotseat and self._facing != seat:
            self._pass_terminal(seat)
        self._facing = seat
        view = self.game.view(seat)
        self._show_news(seat, view.log, view.rounds)
        self.terminal.show(render_board(view, self.labels, self.lang, deck=self.deck))
        legal = view.legal_moves()
        # The board lists the answers to an offer with their numbers; a turn's decisions
        # are numbered only once 'moves' lists them.
        self._numbered = view.pending is not None
        prompt = self.t("prompt", player=self.labels[seat])
        while True:
            text = self.terminal.ask(prompt)
            move = self._interpret(text, view, legal)
            if move is not None:
                return move

    def _pass_terminal(self, seat: int) -> None:
        self.terminal.clear()
        self.terminal.ask(self.t("pass_terminal", player=self.labels[seat]))
        self.terminal.clear()

    def _show_news(
        self, seat: int, log: Sequence[LogEntry], rounds: Sequence[RoundSummary]
    ) -> None:
        """What happened since this seat last looked: the other player's decisions (as
        ``log`` shows them to this seat) and the rounds scored meanwhile, in order."""
        shown_rounds = self._seen_rounds[seat]
        for entry in log[self._seen_log[seat] :]:
            while shown_rounds < len(rounds) and rounds[shown_rounds].round < entry.round:
                self.terminal.show(
                    render_round_summary(
                        rounds[shown_rounds], self.labels, self.lang, seat, deck=self.deck
                    )
                )
                shown_rounds += 1
            if entry.seat != seat:
                self.terminal.show(
                    Text(
                        describe_decision(entry, self.labels, seat, self.lang, deck=self.deck),
                        style="bold",
                    )
                )
        while shown_rounds < len(rounds):
            self.terminal.show(
                render_round_summary(
                    rounds[shown_rounds], self.labels, self.lang, seat, deck=self.deck
                )
            )
            shown_rounds += 1
        self._seen_log[seat] = len(log)
        self._seen_rounds[seat] = shown_rounds

    def _interpret(self, text: str, view: View, legal: Sequence[Move]) -> Move | None:
        """The decision ``text`` names, or ``None`` after answering a command or showing
        why the text is not a legal decision."""
        words = text.strip()
        if not words:
            self.terminal.show(Text(self.t("empty_input"), style="dim"))
            return None
        command = command_for(words)
        if command == "help":
            self.terminal.show(render_help(view, self.lang, deck=self.deck))
            return None
        if command == "moves":
            self.terminal.show(render_moves(view, self.lang, deck=self.deck))
            self._numbered = True
            return None
        if command == "log":
            self.terminal.show(render_log(view, self.labels, self.lang, deck=self.deck))
            return None
        if command == "board":
            self.terminal.show(render_board(view, self.labels, self.lang, deck=self.deck))
            return None
        if command == "rules":
            self.terminal.show_document(render_rules(self.game.variant, self.lang))
            return None
        if command == "quit":
            raise _Stop
        if _NUMBER.fullmatch(words):
            return self._by_number(words, view, legal)
        compact = "".join(words.split())
        if view.pending is not None and compact.isalpha():
            return self._by_cards(compact, view.pending)
        return self._parsed(compact)

    def _by_number(self, typed: str, view: View, legal: Sequence[Move]) -> Move | None:
        """The listed decision numbered ``typed``, or ``None`` after saying which numbers
        there are (none, before 'moves' lists a turn's decisions)."""
        if not self._numbered:
            self._refuse(self.t("number_not_listed", number=typed))
            return None
        place = listed_place(typed, len(legal))
        if place is not None:
            return legal[place]
        key = "no_such_answer" if view.pending is not None else "no_such_number"
        self._refuse(self.t(key, number=typed, count=len(legal)))
        return None

    def _by_cards(self, typed: str, offer: Move) -> Move | None:
        """The answer to ``offer`` taking the cards whose letters are ``typed`` (``D`` for
        ``G>D``, ``FG`` for ``C>FG``), or ``None`` after saying why there is none."""
        if any(letter.upper() not in ITEM_LETTERS for letter in typed):
            self._refuse(self.t("not_an_answer", text=typed))
            return None
        taken = 1 if offer.kind == MoveKind.GIFT else 2
        if len(typed) != taken:
            self._refuse(self.t("answer_card_count", text=typed, n=taken, count=len(typed)))
            return None
        prefix = "G>" if offer.kind == MoveKind.GIFT else "C>"
        return self._parsed(prefix + typed)

    def _parsed(self, text: str) -> Move | None:
        """The legal decision ``text`` is in the notation, or ``None`` after saying why
        it is not one."""
        try:
            return self.game.parse_move(text)
        except InvalidMoveError as error:
            self._refuse(self.t("not_a_move", error=str(error)))
        except IllegalMoveError as error:
            key, fields = illegality(error)
            self._refuse(self.t(key, **localized(fields, self.lang)))
        return None

    def _refuse(self, sentence: str) -> None:
        self.terminal.show(Text(sentence, style="red"))

    # -- endings --------------------------------------------------------------------

    def _finish(self) -> int:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        # The game is over: every view now holds the full reveal, and showing it is allowed.
        viewer = self._facing if self._facing is not None else 0
        # The last decisions are told as they were played, the hidden ones face down;
        # the reveal below then shows everything.
        self._show_news(viewer, game.log(viewer), game.summaries())
        self.terminal.show(Text(self.t("game_over"), style="bold underline"))
        self.terminal.show(Text(outcome_text(outcome, self.labels, self.lang), style="bold green"))
        reveal = game.reveal()
        summaries = game.summaries()
        self.terminal.show(render_reveal(reveal, summaries, self.labels, self.lang, deck=self.deck))
        if self.save_path is not None:
            if self._save(self.save_path):
                self.terminal.show(Text(self.t("saved", path=str(self.save_path))))
        else:
            self._offer_save()
        return EXIT_OK

    def _stop(self, reason: str) -> int:
        self.terminal.show(Text(self.t(f"stopped_{reason}"), style="bold"))
        if self.save_path is not None:
            if self._save(self.save_path):
                self.terminal.show(Text(self.t("saved", path=str(self.save_path))))
        elif reason == _EOF:
            # The input is closed: there is nobody left to ask.
            if self.game.move_stack:
                self.terminal.show(Text(self.t("not_saved")))
        elif self.game.move_stack:
            self._offer_save()
        return {_INTERRUPT: EXIT_INTERRUPTED, _EOF: EXIT_INPUT_ENDED}.get(reason, EXIT_OK)

    def _offer_save(self) -> None:
        try:
            if not is_yes(self.terminal.ask(self.t("save_question"))):
                return
            default = default_record_name()
            for _ in range(3):
                name = self.terminal.ask(self.t("save_file", default=default)).strip() or default
                if self._save(Path(name)):
                    self.terminal.show(Text(self.t("saved", path=name)))
                    return
        except (EOFError, KeyboardInterrupt):
            self.terminal.show(Text(self.t("not_saved")))

    def _autosave(self, path: Path) -> None:
        if self._save(path, quiet=self._save_failed):
            self._save_failed = False
        else:
            self._save_failed = True

    def _save(self, path: Path, *, quiet: bool = False) -> bool:
        try:
            names = (self.players[0].name, self.players[1].name)
            save_game(self.game, names, path, forfeit=self._forfeited)
        except OSError as error:
            if not quiet:
                reason = error.strerror or str(error)
                self.terminal.show(
                    Text(self.t("save_failed", path=str(path), error=reason), style="red")
                )
            return False
        return True


def forfeit_lines(forfeit: Forfeit, labels: tuple[str, str], lang: Lang) -> list[tuple[str, str]]:
    """What a forfeit is told as, each line with its style: who forfeits and why, then
    who wins."""
    loser, winner = labels[forfeit.seat], labels[1 - forfeit.seat]
    reason = f"{forfeit.kind}: {forfeit.reason}"
    return [
        (message("engine_forfeit", lang, player=loser, reason=reason), "bold red"),
        (message("forfeit_win", lang, player=winner, result=forfeit.result), "bold"),
    ]


def release_bots(players: Sequence[Player], game: Game) -> None:
    """Tell the seats' bots the game is over (an engine hears it; over only if it is) and
    let them go (an engine's process ends)."""
    for seat, player in enumerate(players):
        bot = player.bot
        if bot is None:
            continue
        if isinstance(bot, GameObserver) and game.is_over():
            bot.game_over(game.view(seat))
        close = getattr(bot, "close", None)
        if callable(close):
            close()


def save_game(
    game: Game, names: tuple[str, str], path: Path, *, forfeit: Forfeit | None = None
) -> None:
    """Write the record of ``game`` so far to ``path`` (JSON when its name ends in
    ``.json``, else the text form), dated today; a game lost by ``forfeit`` says so in
    the record's tags, as the arena's do. Raises ``OSError``."""
    today = datetime.date.today().isoformat()
    record = GameRecord.from_game(game, players=names, date=today, forfeit=forfeit)
    text = record.to_json() if path.suffix.lower() == ".json" else record.to_text()
    # Written beside the file, then renamed over it: a Ctrl-C in the middle of a write
    # never leaves half a record where the last whole one was.
    partial = path.with_name(path.name + ".tmp")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise


def default_record_name() -> str:
    """A file name for a record saved without one: ``hanamikoji-20240131-1502.hkr``."""
    return datetime.datetime.now().strftime("hanamikoji-%Y%m%d-%H%M%S.hkr")


def variant_description(name: str, fallback: str, lang: Lang) -> str:
    """A variant's description in the language, or the core's English one."""
    key = f"variant_{name.replace('-', '_')}"
    try:
        return message(key, lang)
    except KeyError:
        return fallback


# -- replaying ------------------------------------------------------------------------


def replay_game(
    game: Game,
    labels: tuple[str, str],
    terminal: Terminal,
    *,
    step: bool = False,
    header: Sequence[str] = (),
) -> int:
    """Show a recorded game decision by decision, in full: each round's deal, every
    decision, the scored rounds and the outcome. With ``step``, wait for Enter between
    decisions (``q`` stops). Returns the exit status."""
    lang, deck = terminal.lang, terminal.deck
    for line in header:
        terminal.show(Text(line, style="bold"))
    deals = game.deals()
    summaries = {s.round: s for s in game.summaries()}
    entries = game.log()
    waiting = step
    current = 0
    try:
        for entry in entries:
            if entry.round != current:
                if current in summaries:
                    terminal.show(render_round_summary(summaries[current], labels, lang, deck=deck))
                current = entry.round
                _show_deal(terminal, current, deals, entry.seat, labels)
            described = describe_decision(entry, labels, None, lang, deck=deck)
            terminal.show(Text(f"  {entry.turn}. {entry.move!s:<9} {described}"))
            if waiting:
                try:
                    answer = terminal.ask(terminal.t("step_prompt"))
                except EOFError:
                    waiting = False
                    continue
                if command_for(answer.strip()) == "quit":
                    return EXIT_OK
        if current in summaries:
            terminal.show(render_round_summary(summaries[current], labels, lang, deck=deck))
    except KeyboardInterrupt:
        terminal.show(Text(terminal.t("stopped_interrupt"), style="bold"))
        return EXIT_INTERRUPTED
    outcome = game.outcome
    if outcome is None:
        terminal.show(Text(terminal.t("unfinished", moves=len(entries)), style="bold"))
    else:
        terminal.show(Text(terminal.t("game_over"), style="bold underline"))
        terminal.show(Text(outcome_text(outcome, labels, lang), style="bold green"))
    return EXIT_OK


def _show_deal(
    terminal: Terminal, number: int, deals: Sequence[Deal], starter: int, labels: tuple[str, str]
) -> None:
    lang, deck = terminal.lang, terminal.deck
    terminal.show(
        Text(
            message("round_start", lang, round=number, player=labels[starter]),
            style="bold underline",
        )
    )
    if number > len(deals):
        return
    deal = deals[number - 1]
    removed = cards_inline((deal.removed,), lang, deck=deck)
    terminal.show(Text(message("removed_card", lang, card=removed)))
    for seat in (0, 1):
        terminal.show(
            Text(
                message(
                    "dealt_hand",
                    lang,
                    player=labels[seat],
                    cards=cards_inline(deal.hands[seat], lang, deck=deck),
                )
            )
        )
    faces = [with_face(card_table_item(card), GEISHAS[card].letter, deck) for card in deal.deck]
    order = join_list(faces, lang) if deck == "card-table" else " ".join(faces)
    terminal.show(Text(message("deck_order", lang, cards=order)))
