"""A puzzle on the full screen (``hanamikoji puzzle``): the table of the game screen,
drawn from the solver's view, the decision built with the same keys and clicks; Enter
answers instead of playing, and the reveal follows (the line interface's, over the
table), then the next puzzle.
"""

from __future__ import annotations

from rich.text import Text

from hanamikoji.core import Move, View
from hanamikoji.interfaces.exits import EXIT_OK
from hanamikoji.interfaces.line.puzzle import puzzle_labels, rating_text, render_answered
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.puzzling import Mode, PuzzleRun
from hanamikoji.interfaces.table import Player, Table, TableSettings
from hanamikoji.interfaces.tui.modals import ShowScreen
from hanamikoji.interfaces.tui.play import PlayScreen
from hanamikoji.notation.names import Deck, Lang
from hanamikoji.puzzles.answers import AnswerError

__all__ = ["PuzzleScreen"]


class PuzzleScreen(PlayScreen):
    """The run's current puzzle; answering it shows the reveal, then the next one."""

    KEYS = "tui_puzzle_keys"
    RESIGN_KEY = None

    def action_resign(self) -> None:
        """A puzzle is answered, never given up: R does nothing here."""

    def __init__(self, run: PuzzleRun, lang: Lang, deck: Deck = "boxed") -> None:
        puzzle = run.current
        if puzzle is None:
            raise ValueError("no puzzle left")
        labels = puzzle_labels(lang)
        # Two seats without a bot: nobody moves but the solver, who faces the screen.
        people = (Player("Player 1", labels[0]), Player("Player 2", labels[1]))
        game = puzzle.game()
        table = Table(TableSettings(game.variant, lang, deck=deck), game, people)
        table.face(puzzle.seat)
        super().__init__(table)
        self.run = run
        # The rounds scored before the puzzle are in its log; no scoring to show.
        self.shown_rounds = len(game.summaries())

    def status_parts(self, view: View) -> list[Text]:
        run, lang = self.run, self.lang
        puzzle = run.current
        assert puzzle is not None
        title = message(
            "cli_puzzle_title",
            lang,
            id=puzzle.id,
            variant=puzzle.variant,
            rating=rating_text(run.puzzle_rating()),
        )
        parts = [Text(title)]
        if run.rated:
            solver = rating_text(run.record.rating.rating)
            parts.append(Text(message("cli_puzzle_solver_rating", lang, rating=solver)))
        parts.extend(super().status_parts(view)[:1])
        parts.append(Text(message("tui_help_key", lang)))
        return parts

    def decided(self, move: Move) -> None:
        """Answer with ``move`` (never played): the reveal, then the next puzzle."""
        run = self.run
        try:
            answered = run.answer(move.text())
        except AnswerError as error:
            key = "cli_puzzle_illegal" if error.reason == "illegal" else "cli_puzzle_malformed"
            self.app.notify(message(key, self.lang, text=move.text()), severity="error")
            return
        self.draft = None
        self.redraw()
        shown = render_answered(run, answered, self.lang, deck=self.deck)
        hint = message("tui_continue", self.lang)
        self.app.push_screen(ShowScreen(shown, hint), lambda _: self._next())

    def _next(self) -> None:
        run = self.run
        if not run.has_next:
            rated = run.mode is Mode.RATED
            said = message("cli_puzzle_none_left", self.lang) if rated else None
            self.app.exit(EXIT_OK, message=said)
            return
        run.advance()
        self.app.switch_screen(PuzzleScreen(run, self.lang, self.deck))

    def action_quit_game(self) -> None:
        """Q: stop at once (each counted answer is already written)."""
        self.app.exit(EXIT_OK)
