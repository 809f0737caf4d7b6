"""The line interface's game: one game at one terminal, bots moving by themselves and
people typing their decisions at a prompt, driving the :class:`~hanamikoji.interfaces.table.Table`.

What a person types is a decision in the notation (``G:DDG``), the cards of an answer
(``D``, ``FG``), a number from a listed set, or a command (``help``, ``moves``, ``log``,
``board``, ``rules``, ``quit``, ``resign``), in any of the interface's languages.
``resign`` (after a confirm) gives the game up: the other side wins and the record says
``resigned``, as the web's Resign does. After a game, the session offers to play again
(the same seats, the other player starting), as the full-screen app's R does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from hanamikoji.bots import Bot
from hanamikoji.core import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    LogEntry,
    Move,
    MoveKind,
    RoundSummary,
    View,
)
from hanamikoji.core.cards import ITEM_LETTERS
from hanamikoji.interfaces.exits import (
    EXIT_ENGINE,
    EXIT_ERROR,
    EXIT_INPUT_ENDED,
    EXIT_INTERRUPTED,
    EXIT_OK,
)
from hanamikoji.interfaces.line.console import Terminal
from hanamikoji.interfaces.line.render import (
    render_board,
    render_help,
    render_log,
    render_moves,
    render_reveal,
    render_round_summary,
    render_rules,
)
from hanamikoji.interfaces.messages import command_for, illegality, is_yes, localized
from hanamikoji.interfaces.preparing import PreparingBot
from hanamikoji.interfaces.styled import Text
from hanamikoji.interfaces.table import (
    Player,
    Seating,
    Table,
    TableSettings,
    default_record_name,
)
from hanamikoji.interfaces.words import (
    describe_decision,
    forfeit_lines,
    outcome_text,
    variant_description,
)
from hanamikoji.notation.names import Deck, Lang
from hanamikoji.notation.records import RESIGNED, Forfeit
from hanamikoji.protocol import EngineError

__all__ = ["PROGRESS_SECONDS", "PlaySession", "listed_place"]


class _Forfeited(Exception):
    """A seat lost outside the rules: its engine failed (timeout, crash, illegal answer)
    or resigned, or its person resigned."""

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
        seating: Seating | None = None,
    ) -> None:
        settings = TableSettings(
            game.variant,
            terminal.lang,
            seating,
            hotseat=hotseat,
            save_path=save_path,
            deck=terminal.deck,
        )
        self.table = Table(settings, game, players)
        """The game, its seats, who faces the terminal, the record."""
        self.terminal = terminal
        self._seen_log = [0, 0]
        self._seen_rounds = [0, 0]
        self._numbered = False
        """Whether the decisions of this prompt were listed with numbers (by 'moves', or
        the answers to an offer, which the board lists): only then does a number pick one."""

    @property
    def game(self) -> Game:
        """The game played (the table's)."""
        return self.table.game

    @property
    def labels(self) -> tuple[str, str]:
        """How the two seats are shown (the table's)."""
        return self.table.labels

    @property
    def lang(self) -> Lang:
        return self.terminal.lang

    @property
    def deck(self) -> Deck:
        return self.terminal.deck

    def t(self, key: str, **fields: object) -> str:
        return self.terminal.t(key, **fields)

    def run(self) -> int:
        """Play to the end (and again, while the person wants a rematch) or until the
        person stops; returns the exit status of the last game."""
        try:
            while True:
                path = self.table.settings.save_path
                if path is not None and not self._save(path):
                    return EXIT_ERROR
                self._introduce()
                try:
                    while not self.table.over:
                        self._decide()
                    status = self._finish()
                except _Forfeited as forfeited:
                    status = self._forfeit(forfeited.forfeit)
                if not self._play_again():
                    return status
                self.table = self.table.rematch()
                self._seen_log, self._seen_rounds = [0, 0], [0, 0]
        except _Stop:
            return self._stop(_QUIT)
        except EOFError:
            return self._stop(_EOF)
        except KeyboardInterrupt:
            return self._stop(_INTERRUPT)
        finally:
            self.table.release()

    def _forfeit(self, forfeit: Forfeit) -> int:
        for line, style in forfeit_lines(forfeit, self.labels, self.lang):
            self.terminal.show(Text(line, style=style))
        self._save_at_the_end()
        # A resignation (a person's, or an engine's 'resign') is a game's end, not a failure.
        return EXIT_OK if forfeit.kind == RESIGNED else EXIT_ENGINE

    def _play_again(self) -> bool:
        """Whether the person wants a rematch (offered when the seats can be made again;
        no answer, the input closed or interrupted: no)."""
        if self.table.settings.seating is None:
            return False
        try:
            return is_yes(self.terminal.ask(self.t("play_again_question")))
        except (EOFError, KeyboardInterrupt):
            return False

    def _resign(self, seat: int) -> None:
        """``resign`` typed: after a confirm, ``seat`` gives the game up."""
        if is_yes(self.terminal.ask(self.t("resign_question", player=self.labels[seat]))):
            raise _Forfeited(self.table.resign(seat))
        self.terminal.show(Text(self.t("resign_kept"), style="dim"))

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
        table = self.table
        seat = table.to_move
        # A seeded game deals every round by itself, so someone is always to move.
        assert seat is not None
        bot = table.bot_to_move()
        if bot is not None:
            self._await_bot(seat, bot)
            try:
                move = table.ask_bot(seat)()
            except EngineError as error:
                raise _Forfeited(table.engine_failed(seat, error)) from error
            table.play(move)
        else:
            move = self._ask_person(seat)
            table.play(move)
            entry = self.game.view(seat).log[-1]
            described = describe_decision(entry, self.labels, seat, self.lang, deck=self.deck)
            self.terminal.show(Text(described))
            self._seen_log[seat] = len(self.game.move_stack)
        failed = table.autosave()
        if failed is not None:
            path = table.settings.save_path
            assert path is not None
            self._tell_save_failed(path, failed)

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
        if self.table.needs_pass():
            self._pass_terminal(seat)
        self.table.face(seat)
        view = self.game.view(seat)
        self._show_news(seat, view.log, view.rounds)
        self.terminal.show(render_board(view, self.labels, self.lang, deck=self.deck))
        legal = view.generate_legal_moves()
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
        if command == "resign":
            self._resign(view.player)
            return None
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
        viewer = self.table.viewer()
        # The last decisions are told as they were played, the hidden ones face down;
        # the reveal below then shows everything.
        self._show_news(viewer, game.log(viewer), game.summaries())
        self.terminal.show(Text(self.t("game_over"), style="bold underline"))
        self.terminal.show(Text(outcome_text(outcome, self.labels, self.lang), style="bold green"))
        reveal = game.reveal()
        summaries = game.summaries()
        self.terminal.show(render_reveal(reveal, summaries, self.labels, self.lang, deck=self.deck))
        self._save_at_the_end()
        return EXIT_OK

    def _stop(self, reason: str) -> int:
        self.terminal.show(Text(self.t(f"stopped_{reason}"), style="bold"))
        path = self.table.settings.save_path
        if path is not None:
            self._save_to(path)
        elif reason == _EOF:
            # The input is closed: there is nobody left to ask.
            if self.game.move_stack:
                self.terminal.show(Text(self.t("not_saved")))
        elif self.game.move_stack:
            self._offer_save()
        return {_INTERRUPT: EXIT_INTERRUPTED, _EOF: EXIT_INPUT_ENDED}.get(reason, EXIT_OK)

    def _save_at_the_end(self) -> None:
        """The record written to the record file, or offered to be saved without one."""
        path = self.table.settings.save_path
        if path is None:
            self._offer_save()
        else:
            self._save_to(path)

    def _save_to(self, path: Path) -> None:
        if self._save(path):
            self.terminal.show(Text(self.t("saved", path=str(path))))

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

    def _save(self, path: Path) -> bool:
        """Whether the record is written to ``path``; a failure is told."""
        try:
            self.table.save(path)
        except OSError as error:
            self._tell_save_failed(path, error)
            return False
        return True

    def _tell_save_failed(self, path: Path, error: OSError) -> None:
        reason = error.strerror or str(error)
        self.terminal.show(Text(self.t("save_failed", path=str(path), error=reason), style="red"))
