"""The screens shown over the table: help and rules, a round's scoring, passing the
terminal (hotseat), saving the record, stopping a game, and resigning it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Markdown, Static

from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.rules import rules_markdown
from hanamikoji.interfaces.tui.keys import binding
from hanamikoji.notation.names import Lang

__all__ = ["HelpScreen", "PassScreen", "QuitScreen", "ResignScreen", "SaveScreen", "ShowScreen"]


class HelpScreen(ModalScreen[None]):
    """The keys, then the rules in the game's language (docs/rules.md or its translation)
    as Markdown; Esc, q or ? closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("escape,q,question_mark", "close"),
    ]

    def __init__(self, keys: str, lang: Lang) -> None:
        super().__init__()
        self._keys = keys
        self._lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Static(Text(message("tui_help_title", self._lang), "bold underline"))
            yield Static(self._keys, id="help-keys")
            yield Static(Text(message("tui_help_close", self._lang), "dim"))
            yield Markdown(rules_markdown(self._lang), id="rules")

    def action_close(self) -> None:
        self.dismiss(None)


class ShowScreen(ModalScreen[None]):
    """Something to read (a round's scoring) and a line saying how to go on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("enter,escape,space", "close"),
    ]

    def __init__(self, content: RenderableType, hint: str) -> None:
        super().__init__()
        self._content = content
        self._hint = hint

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Static(self._content)
            yield Static(Text(self._hint, "bold reverse"))

    def action_close(self) -> None:
        self.dismiss(None)


class PassScreen(Screen[None]):
    """Hotseat: the whole screen hidden until the next person presses Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [binding("enter", "ready")]

    def __init__(self, player: str, lang: Lang) -> None:
        super().__init__()
        self._text = message("pass_terminal", lang, player=player).strip()

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Static(Text(self._text, "bold"), id="pass-text")

    def action_ready(self) -> None:
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class SaveScreen(ModalScreen[Path | None]):
    """A file name for the record (a default offered); Enter saves, Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [binding("escape", "cancel")]

    def __init__(self, save: Callable[[Path], None], default: str, lang: Lang) -> None:
        super().__init__()
        self._save = save
        self._default = default
        self._lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog small"):
            yield Static(Text(message("tui_save_title", self._lang), "bold"))
            yield Input(self._default, id="save-name")
            yield Static(Text(message("tui_save_hint", self._lang), "dim"), id="save-status")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip() or self._default
        path = Path(name).expanduser()
        try:
            self._save(path)
        except OSError as error:
            reason = error.strerror or str(error)
            text = message("save_failed", self._lang, path=name, error=reason)
            self.query_one("#save-status", Static).update(Text(text, "bold red"))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[str | None]):
    """Stop the game? Enter stops, s saves the record first, Esc goes back to it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("enter,y", "answer('stop')"),
        binding("s", "answer('save')"),
        binding("escape,n", "answer('')"),
    ]

    def __init__(self, lang: Lang, saving: bool) -> None:
        super().__init__()
        self._lang = lang
        self._saving = saving

    def compose(self) -> ComposeResult:
        key = "tui_quit_saved" if self._saving else "tui_quit_question"
        with Vertical(classes="dialog small"):
            yield Static(Text(message(key, self._lang), "bold"))

    def action_answer(self, answer: str) -> None:
        if answer == "save" and self._saving:
            answer = "stop"
        self.dismiss(answer or None)


class ResignScreen(ModalScreen[bool]):
    """Resign this game? Enter (or y) resigns, Esc (or n) goes back to it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("enter,y", "answer(True)"),
        binding("escape,n", "answer(False)"),
    ]

    def __init__(self, player: str, lang: Lang) -> None:
        super().__init__()
        self._text = message("tui_resign_question", lang, player=player)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog small"):
            yield Static(Text(self._text, "bold"), id="resign-question")

    def action_answer(self, resign: bool) -> None:
        self.dismiss(resign)
