"""Replays in the line interface: a recorded game shown decision by decision, in full
(each round's deal, every decision, the scored rounds and the outcome)."""

from __future__ import annotations

from collections.abc import Sequence

from hanamikoji.core import GEISHAS, Deal, Game
from hanamikoji.interfaces.exits import EXIT_INTERRUPTED, EXIT_OK
from hanamikoji.interfaces.line.console import Terminal
from hanamikoji.interfaces.line.render import render_round_summary
from hanamikoji.interfaces.messages import command_for, message
from hanamikoji.interfaces.styled import Text
from hanamikoji.interfaces.words import cards_inline, describe_decision, outcome_text, with_face
from hanamikoji.notation.names import card_table_item, join_list

__all__ = ["replay_game"]


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
