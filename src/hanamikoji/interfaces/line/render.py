"""What the line interface shows: the table as one player sees it, a scored round,
everything revealed at the end, the help, the rules, the legal decisions and the log.

During a game everything comes from ``game.view(seat)`` for the seat of the person
looking; the hidden state (the other hand, the removed card, the other Secret and
Trade-off) is shown only once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence

from hanamikoji.core import (
    ACTIONS,
    GEISHAS,
    Move,
    MoveKind,
    Phase,
    Reveal,
    RoundSummary,
    Variant,
    View,
)
from hanamikoji.core.cards import letters
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.rules import rules_document
from hanamikoji.interfaces.styled import Group, RenderableType, Table, Text, box
from hanamikoji.interfaces.words import (
    GEISHA_STYLES,
    action_label,
    card_name,
    cards_inline,
    describe_decision,
    grouped_cards,
    move_words,
    seat_label,
    summary_line,
    tally_line,
    variant_description,
    with_face,
)
from hanamikoji.notation.names import (
    Deck,
    Lang,
    card_table_geisha,
    card_table_item,
    item_name,
    join_list,
    term,
)

__all__ = [
    "card_text",
    "render_board",
    "render_help",
    "render_log",
    "render_moves",
    "render_reveal",
    "render_round_summary",
    "render_rules",
    "response_options",
]


def card_text(card: int, lang: Lang, suffix: str = "", *, deck: Deck = "boxed") -> Text:
    """A card with its letter, geisha and item, in the geisha's colour: ``D Yoko parasol``."""
    return Text(card_name(card, lang, deck) + suffix, style=GEISHA_STYLES[card])


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


def response_options(view: View, lang: Lang, *, deck: Deck = "boxed") -> list[Text]:
    """The numbered answers to the pending Gift or Competition."""
    lines = []
    for number, move in enumerate(view.generate_legal_moves(), start=1):
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
    me_label = seat_label(labels, me, me, lang)
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
    for card, count in grouped_cards(view.hand):
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
    left_label = seat_label(labels, left, viewer, lang)
    right_label = seat_label(labels, right, viewer, lang)
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
        player = seat_label(labels, seat, viewer, lang)
        secrets.append(message("labelled", lang, label=player, value=shown))
    return Group(
        Text(message("round_scored", lang, round=summary.round), style="bold underline"),
        Text(message("secrets_revealed", lang, secrets=" · ".join(secrets))),
        table,
        Text(tally_line(summary.charm, summary.geishas, labels, viewer, lang)),
    )


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
    legal = view.generate_legal_moves()
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
        Text(message("help_resign", lang)),
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
    for number, move in enumerate(view.generate_legal_moves(), start=1):
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
