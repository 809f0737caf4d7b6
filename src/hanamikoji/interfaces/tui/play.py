"""The table during a game: what the person facing the screen sees and does.

Everything drawn comes from the :class:`View` of the seat facing the screen
(:meth:`Table.view`); in a hotseat game the screen is hidden and passed between people.
A bot thinks in a worker thread while a spinner counts the seconds, and the screen
keeps answering keys (help, tracker, quit) meanwhile.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from hanamikoji.core import IllegalMoveError, LogEntry, Move, View
from hanamikoji.interfaces.exits import EXIT_ENGINE, EXIT_OK
from hanamikoji.interfaces.messages import illegality, localized, message
from hanamikoji.interfaces.preparing import PreparingBot
from hanamikoji.interfaces.table import Table, default_record_name
from hanamikoji.interfaces.tui.board import (
    ACTION_KEYS,
    render_row,
    render_scoring,
    render_side,
    side_of,
)
from hanamikoji.interfaces.tui.decision import Draft, Refusal
from hanamikoji.interfaces.tui.end import EndScreen
from hanamikoji.interfaces.tui.flow import FlowBar, pieces
from hanamikoji.interfaces.tui.hand import ActionBar, HandBar, render_hand
from hanamikoji.interfaces.tui.keys import binding
from hanamikoji.interfaces.tui.modals import (
    HelpScreen,
    PassScreen,
    QuitScreen,
    ResignScreen,
    SaveScreen,
    ShowScreen,
)
from hanamikoji.interfaces.tui.panels import render_log
from hanamikoji.interfaces.tui.prompt import (
    PromptPanel,
    preparing_text,
    render_prompt,
    thinking_text,
)
from hanamikoji.interfaces.tui.size import SizeNotice, allowed, fit
from hanamikoji.interfaces.words import describe_decision
from hanamikoji.notation.records import RESIGNED
from hanamikoji.protocol import EngineError

__all__ = ["PlayScreen"]

_KINDS = {key: kind for kind, key in ACTION_KEYS.items()}
_STOPS = frozenset({"quit_game"})
"""The actions a key still does while the terminal is too small for the table."""


class PlayScreen(Screen[None]):
    """One game at the table; a rematch replaces it with the next game's screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(binding(key, f"choose('{key}')") for key in _KINDS),
        *(binding(str(n), f"card({n - 1})") for n in range(1, 8)),
        binding("left", "cursor(-1)"),
        binding("right", "cursor(1)"),
        binding("up", "cursor(-1)"),
        binding("down", "cursor(1)"),
        binding("space", "toggle_card"),
        binding("p", "pairing"),
        binding("enter", "play"),
        binding("backspace", "undo"),
        binding("escape", "clear"),
        binding("question_mark,f1", "help"),
        binding("k", "tracker"),
        binding("q", "quit_game"),
        binding("r", "resign"),
    ]

    KEYS = "tui_keys"
    """The sentence of the bottom line's keys."""

    RESIGN_KEY: str | None = "tui_resign_key"
    """The sentence of the resign key, on the bottom line after :attr:`KEYS` (``None``:
    a screen where nothing can be given up)."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.lang = table.settings.lang
        self.deck = table.settings.deck
        self.draft: Draft | None = None
        self.refusal: Refusal | None = None
        self.hidden = table.settings.hotseat
        self.thinking: tuple[int, float] | None = None
        self.shown_rounds = 0
        self.tracker = True
        """Whether the row shows the card tracker's column (K toggles it)."""
        self.ended = False
        self._worker: Worker[Move] | None = None

    def compose(self) -> ComposeResult:
        yield SizeNotice(self.lang)
        yield FlowBar(style="bold reverse", id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="table", can_focus=False):
                yield Static(id="top-side")
                yield ActionBar(id="top-markers")
                yield Static(id="row")
                yield Static(id="bottom-side")
                yield ActionBar(id="bottom-markers")
            with VerticalScroll(id="log-scroll", can_focus=False):
                yield Static(id="log")
        yield HandBar(id="hand")
        yield PromptPanel(id="prompt")
        keys = pieces(message(self.KEYS, self.lang))
        if self.RESIGN_KEY is not None:
            keys = [*keys, *pieces(message(self.RESIGN_KEY, self.lang))]
        yield FlowBar(keys, style="bold reverse", id="keys")

    def on_mount(self) -> None:
        self.on_resize()
        self.set_interval(0.1, self._tick)
        self.advance()

    def on_resize(self) -> None:
        fit(self, self.query_one(SizeNotice))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool:
        return allowed(self, action, _STOPS)

    def on_unmount(self) -> None:
        self.table.release()

    # -- the flow of the game ---------------------------------------------------------

    def advance(self) -> None:
        """Go on to whatever comes next: the end, a round's scoring, a bot's decision,
        passing the screen, or a person's decision."""
        table = self.table
        self.draft, self.refusal = None, None
        if table.over:
            self._end()
            return
        summaries = table.game.summaries()
        if len(summaries) > self.shown_rounds:
            summary = summaries[self.shown_rounds]
            self.shown_rounds += 1
            self.redraw()
            shown = render_scoring(summary, table.labels, table.facing, self.lang, deck=self.deck)
            hint = message("tui_continue", self.lang)
            self.app.push_screen(ShowScreen(shown, hint), lambda _: self.advance())
            return
        if table.bot_to_move() is not None:
            self._think()
        elif table.needs_pass():
            self._pass()
            return
        else:
            view = table.view()
            assert view is not None
            self.draft = Draft(view)
        self.redraw()

    def _end(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.hidden = False
        self.redraw()
        self.app.push_screen(EndScreen(self.table), self._after_end)

    def _after_end(self, what: str | None) -> None:
        if what == "rematch":
            self.app.switch_screen(PlayScreen(self.table.rematch()))
        else:
            self.app.exit(self.app_status())

    def app_status(self) -> int:
        """The exit status if the app stopped now: an engine's failure, else done (a
        resignation too)."""
        forfeit = self.table.forfeit
        return EXIT_ENGINE if forfeit is not None and forfeit.kind != RESIGNED else EXIT_OK

    def _pass(self) -> None:
        seat = self.table.to_move
        assert seat is not None
        self.hidden = True
        self.redraw()

        def ready(_: None) -> None:
            self.table.face(seat)
            self.hidden = False
            self.advance()

        self.app.push_screen(PassScreen(self.table.labels[seat], self.lang), ready)

    def _think(self) -> None:
        seat = self.table.to_move
        assert seat is not None
        self.thinking = (seat, time.monotonic())
        choose = self.table.ask_bot(seat)
        self._worker = self.run_worker(choose, name="bot", thread=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker is not self._worker or self.thinking is None:
            return
        seat = self.thinking[0]
        if event.state == WorkerState.SUCCESS:
            self.thinking = None
            move = worker.result
            assert isinstance(move, Move)
            self.decided(move)
        elif event.state == WorkerState.ERROR:
            self.thinking = None
            error = worker.error
            if not isinstance(error, EngineError):
                raise RuntimeError(f"the bot failed: {error}") from error
            self.table.engine_failed(seat, error)
            self.save_now()
            self.advance()

    def decided(self, move: Move) -> None:
        """The person's or the bot's decision: play it, write the record, go on (a
        puzzle's screen grades it instead)."""
        self.table.play(move)
        self.save_now()
        self.advance()

    def save_now(self) -> None:
        """With ``--save``, write the record as it is now (a failure is told once)."""
        error = self.table.autosave()
        if error is not None:
            reason = error.strerror or str(error)
            path = str(self.table.settings.save_path)
            text = message("save_failed", self.lang, path=path, error=reason)
            self.app.notify(text, severity="error")

    def _tick(self) -> None:
        if self.thinking is not None or self._preparing():
            self._show_prompt()

    def _preparing(self) -> list[tuple[str, PreparingBot]]:
        """The bots still being prepared, with their seats' labels."""
        table = self.table
        return [
            (table.labels[seat], player.bot)
            for seat, player in enumerate(table.players)
            if isinstance(player.bot, PreparingBot) and not player.bot.ready()
        ]

    # -- drawing ----------------------------------------------------------------------

    def _view(self) -> View:
        """The view of the seat at the bottom of the screen."""
        return self.table.game.view(self.table.viewer())

    def redraw(self) -> None:
        table, lang, deck = self.table, self.lang, self.deck
        view = self._view()
        me = view.player
        them = view.opponent
        private = not self.hidden
        mine = side_of(view, me, table.labels[me], private=private)
        theirs = side_of(view, them, table.labels[them])
        self.query_one("#status", FlowBar).show_parts(self.status_parts(view))
        self.query_one("#top-side", Static).update(render_side(theirs, lang))
        self.query_one("#top-markers", ActionBar).show_side(theirs, lang, False, deck)
        headers = (message("marker_them", lang), message("marker_you", lang))
        unseen = (message("tui_unseen", lang), view.unseen()) if private and self.tracker else None
        row = render_row(view.favor, theirs, mine, headers, unseen, deck=deck)
        self.query_one("#row", Static).update(row)
        self.query_one("#bottom-side", Static).update(render_side(mine, lang))
        deciding = self.draft is not None and not self.draft.answering
        self.query_one("#bottom-markers", ActionBar).show_side(mine, lang, deciding, deck)
        hand = render_hand(view, self.draft, lang, deck) if private else Text("")
        self.query_one("#hand", HandBar).update(hand)
        entries = view.log if private else _public(view.log)
        shown_log = render_log(entries, view.rounds, table.labels, me, lang, deck=deck)
        self.query_one("#log", Static).update(shown_log)
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False)
        self._show_prompt()

    def status_parts(self, view: View) -> list[Text]:
        """The parts of the top line."""
        lang = self.lang
        parts = [
            message("board_title", lang, round=view.round, variant=view.variant.name),
            message(
                "deck_and_hands",
                lang,
                deck=message("deck_cards", lang, n=view.deck_size),
                me=message("marker_you", lang),
                mine=view.hand_sizes[view.player],
                them=message("marker_them", lang),
                theirs=view.hand_sizes[view.opponent],
            ),
            message("tui_help_key", lang),
        ]
        return [Text(part) for part in parts]

    def _show_prompt(self) -> None:
        panel = self.query_one("#prompt", PromptPanel)
        table = self.table
        lang = self.lang
        preparing = [preparing_text(label, bot.seconds(), lang) for label, bot in self._preparing()]
        if self.thinking is not None:
            seat, since = self.thinking
            bot = table.players[seat].bot
            if isinstance(bot, PreparingBot) and bot.ready_at is not None:
                since = max(since, bot.ready_at)  # the thinking, not the preparing
            label = table.labels[seat]
            lines = preparing or [thinking_text(label, time.monotonic() - since, self.lang)]
            panel.show_prompt(render_prompt(None, "", self.lang, head=lines))
            return
        if self.hidden:
            panel.show_prompt(render_prompt(None, "", self.lang, head=preparing))
            return
        news = preparing + self._news()
        opponent = table.labels[1 - table.viewer()]
        prompt = render_prompt(self.draft, opponent, self.lang, self.refusal, news, deck=self.deck)
        panel.show_prompt(prompt)

    def _news(self) -> list[Text]:
        """The other player's decision, when it is the last one played and the person
        has not started answering it."""
        draft = self.draft
        if self.hidden or draft is None or draft.answering:
            return []
        if draft.kind is not None or draft.chosen:
            return []
        log, seat = draft.view.log, draft.view.player
        if not log or log[-1].seat == seat:
            return []
        said = describe_decision(log[-1], self.table.labels, seat, self.lang, deck=self.deck)
        return [Text(said, "italic")]

    # -- keys and clicks --------------------------------------------------------------

    def _step(self, refusal: Refusal | None) -> None:
        self.refusal = refusal
        self.redraw()

    def action_choose(self, key: str) -> None:
        if self.draft is not None:
            self._step(self.draft.choose(_KINDS[key]))

    def action_card(self, slot: int) -> None:
        if self.draft is not None:
            self._step(self.draft.toggle(slot))

    def action_cursor(self, step: int) -> None:
        if self.draft is not None:
            self.draft.move_cursor(step)
            self._step(None)

    def action_toggle_card(self) -> None:
        if self.draft is not None and not self.draft.answering:
            self._step(self.draft.toggle(self.draft.cursor))

    def action_pairing(self) -> None:
        if self.draft is not None:
            self.draft.next_pairing()
            self._step(None)

    def action_undo(self) -> None:
        if self.draft is not None:
            self.draft.undo()
            self._step(None)

    def action_clear(self) -> None:
        if self.draft is not None and not self.draft.answering:
            self.draft.clear()
            self._step(None)

    def action_play(self) -> None:
        draft = self.draft
        if draft is None:
            return
        move = draft.move()
        if move is None:
            self._step(draft.missing())
            return
        try:
            self.decided(move)
        except IllegalMoveError as error:
            key, fields = illegality(error)
            self.refusal = None
            self.app.notify(message(key, self.lang, **localized(fields, self.lang)))

    def on_hand_bar_clicked(self, event: HandBar.Clicked) -> None:
        self.action_card(event.slot)

    def on_action_bar_chosen(self, event: ActionBar.Chosen) -> None:
        if self.draft is not None:
            self._step(self.draft.choose(event.kind))

    def on_prompt_panel_chosen(self, event: PromptPanel.Chosen) -> None:
        draft = self.draft
        if draft is None:
            return
        if draft.answering:
            self._step(draft.pick(event.index))
        else:
            draft.pairing = event.index
            self._step(None)

    def on_prompt_panel_confirmed(self, _: PromptPanel.Confirmed) -> None:
        self.action_play()

    def action_help(self) -> None:
        keys = message("tui_help_keys", self.lang) + "\n" + message("tui_help_resign", self.lang)
        self.app.push_screen(HelpScreen(keys, self.lang))

    def action_tracker(self) -> None:
        self.tracker = not self.tracker
        self.redraw()

    def action_quit_game(self) -> None:
        saving = self.table.settings.save_path is not None

        def answered(answer: str | None) -> None:
            if answer == "stop":
                self.app.exit(self.app_status())
            elif answer == "save":
                self._save_and_quit()

        self.app.push_screen(QuitScreen(self.lang, saving), answered)

    def action_resign(self) -> None:
        """R: the person facing the screen gives the game up, after a dialog (not while
        the screen is hidden or a bot is deciding); the end screen then says so."""
        table = self.table
        if table.over or self.hidden or self.thinking is not None:
            return
        seat = table.viewer()

        def answered(resign: bool | None) -> None:
            if resign and not table.over:
                table.resign(seat)
                self.save_now()
                self.advance()

        self.app.push_screen(ResignScreen(table.labels[seat], self.lang), answered)

    def _save_and_quit(self) -> None:
        def saved(path: object) -> None:
            if path is not None:
                self.app.exit(self.app_status())

        screen = SaveScreen(self.table.save, default_record_name(), self.lang)
        self.app.push_screen(screen, saved)


def _public(entries: tuple[LogEntry, ...]) -> tuple[LogEntry, ...]:
    """The log as anybody may see it: every Secret and Trade-off face down."""
    return tuple(
        LogEntry(entry.round, entry.turn, entry.seat, entry.move.public()) for entry in entries
    )
