"""Whose turn it is and what to do, in words: the panel under the hand.

The panel says what the decision being built still needs, lists the answers to an
offer or the pairings of a Competition (each line clickable), shows why a step was
refused, and, while a bot thinks, a spinner with the seconds elapsed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from hanamikoji.core import Move, MoveKind, Phase
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.tui.cards import action_words, letters_with_glyphs
from hanamikoji.interfaces.tui.decision import Draft, Refusal
from hanamikoji.interfaces.words import move_words
from hanamikoji.notation.names import Deck, Lang, action_name, card_label, join_list

__all__ = [
    "SPINNER",
    "Prompt",
    "PromptPanel",
    "preparing_text",
    "refusal_text",
    "render_prompt",
    "thinking_text",
]

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


@dataclass(frozen=True, slots=True)
class Prompt:
    """The panel's lines; ``choices`` is the line of the first choice and how many
    follow, ``confirm`` the line that plays the decision when clicked (``-1``: none)."""

    lines: tuple[Text, ...] = ()
    choices: tuple[int, int] = (0, 0)
    confirm: int = -1

    def text(self) -> Text:
        return Text("\n").join(self.lines)


def refusal_text(refusal: Refusal, lang: Lang) -> str:
    """The sentence for a refused step, in ``lang``."""
    fields: dict[str, object] = {}
    if refusal.action is not None:
        fields["action"] = action_name(refusal.action, lang)
    if refusal.n is not None:
        fields["n"] = refusal.n
    return message(refusal.key, lang, **fields)


def _pair_line(move: Move, deck: Deck) -> Text:
    line = Text("  /  ").join(letters_with_glyphs(pair, deck) for pair in move.pairs)
    return line


def _label(lang: Lang) -> Callable[[int], str]:
    return lambda card: card_label(card, lang)


def _choice_lines(lines: list[Text], choices: list[Text], current: int) -> tuple[int, int]:
    start = len(lines)
    for index, choice in enumerate(choices):
        line = Text("▸ " if index == current else "  ", style="bold")
        line.append(f"{index + 1}) ")
        line.append_text(choice)
        if index == current:
            line.stylize("bold")
        lines.append(line)
    return start, len(choices)


def _answer(
    draft: Draft, opponent: str, lang: Lang, lines: list[Text], deck: Deck
) -> tuple[int, int]:
    pending = draft.view.pending
    assert pending is not None
    key = "answer_gift" if draft.view.phase == Phase.GIFT_RESPONSE else "answer_competition"
    offer = move_words(pending, lang, deck, draft.view.opponent)
    lines.append(Text(message(key, lang, player=opponent, offer=offer), style="bold"))
    options = [
        letters_with_glyphs(move.cards, deck).append(
            "  " + " + ".join(card_label(c, lang) for c in move.cards)
        )
        for move in draft.options()
    ]
    return _choice_lines(lines, options, draft.cursor)


def _turn(draft: Draft, lang: Lang, lines: list[Text], deck: Deck) -> tuple[int, int]:
    kind = draft.kind
    if kind is None:
        seat = draft.view.player
        left = join_list((action_words(k, seat, lang, deck) for k in draft.actions_left()), lang)
        lines.append(Text(message("your_turn", lang, actions=left), style="bold"))
        lines.append(Text(message("tui_how_to_act", lang), style="dim"))
        return 0, 0
    name = action_words(kind, draft.view.player, lang, deck)
    move = draft.move()
    if move is None:
        chosen = letters_with_glyphs(draft.cards(), deck)
        line = Text(message("tui_choose_cards", lang, action=name, n=draft.needed()) + " ")
        line.stylize("bold", 0, len(name))
        lines.append(line.append_text(chosen))
        lines.append(Text(message("tui_how_to_choose", lang), style="dim"))
        return 0, 0
    if kind == MoveKind.COMPETITION:
        lines.append(Text(message("tui_pairs", lang, action=name), style="bold"))
        pairings = [_pair_line(m, deck) for m in draft.pairings()]
        return _choice_lines(lines, pairings, draft.pairing)
    lines.append(Text(move_words(move, lang, deck, draft.view.player), style="bold"))
    return 0, 0


def render_prompt(
    draft: Draft | None,
    opponent: str,
    lang: Lang,
    refusal: Refusal | None = None,
    head: Sequence[Text] = (),
    *,
    deck: Deck = "boxed",
) -> Prompt:
    """What the person deciding (``draft``) is asked, after the lines of ``head`` (news,
    or the spinner); ``opponent`` names the other player."""
    lines: list[Text] = list(head)
    choices = (0, 0)
    confirm = -1
    if draft is not None:
        if draft.answering:
            choices = _answer(draft, opponent, lang, lines, deck)
        else:
            choices = _turn(draft, lang, lines, deck)
        if draft.move() is not None:
            confirm = len(lines)
            key = "tui_answer_keys" if draft.answering else "tui_enter_plays"
            count = len(draft.options())
            lines.append(Text(message(key, lang, count=count), style="bold reverse"))
    if refusal is not None:
        lines.append(Text("! " + refusal_text(refusal, lang), style="bold red"))
    return Prompt(tuple(lines), choices, confirm)


def thinking_text(player: str, seconds: float, lang: Lang) -> Text:
    """The spinner line while a bot thinks."""
    frame = SPINNER[int(seconds * 10) % len(SPINNER)]
    return Text(
        f"{frame} " + message("tui_thinking", lang, player=player, seconds=f"{seconds:.1f}")
    )


def preparing_text(player: str, seconds: float, lang: Lang) -> Text:
    """The spinner line while a bot is being prepared (:mod:`interfaces.preparing`)."""
    frame = SPINNER[int(seconds * 10) % len(SPINNER)]
    said = message("bot_preparing_progress", lang, player=player, seconds=f"{seconds:.0f}")
    return Text(f"{frame} {said}", "bold")


class PromptPanel(Static):
    """The prompt; a click on a choice chooses it, on the last line plays."""

    class Chosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Confirmed(Message):
        pass

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self._prompt = Prompt()

    def show_prompt(self, prompt: Prompt) -> None:
        self._prompt = prompt
        self.update(prompt.text())

    def _line_at(self, y: int) -> int | None:
        """The prompt line drawn at row ``y`` (a long line wraps over several rows)."""
        width = max(1, self.content_size.width)
        top = 0
        for index, line in enumerate(self._prompt.lines):
            top += len(line.wrap(self.app.console, width))
            if y < top:
                return index
        return None

    def on_click(self, event: events.Click) -> None:
        at = event.get_content_offset(self)
        index = None if at is None else self._line_at(at.y)
        if index is None:
            return
        start, count = self._prompt.choices
        if start <= index < start + count:
            self.post_message(self.Chosen(index - start))
        elif index == self._prompt.confirm:
            self.post_message(self.Confirmed())
