"""Puzzles at the prompt (``hanamikoji puzzle --plain``): each puzzle drawn from the
solver's view, its legal decisions numbered, an answer typed, then the reveal and the
rating.

Before the answer everything shown comes from :meth:`PuzzleRun.view` (the solver's seat's
view); the reveal (:func:`render_answered`) is the only thing that shows cards the
solver could not see, and only after the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hanamikoji.core import Move, MoveKind, View
from hanamikoji.core.cards import ITEM_LETTERS
from hanamikoji.interfaces.exits import EXIT_INPUT_ENDED, EXIT_OK
from hanamikoji.interfaces.line.console import Terminal
from hanamikoji.interfaces.line.render import render_board, render_help, render_log, render_rules
from hanamikoji.interfaces.line.session import listed_place
from hanamikoji.interfaces.messages import command_for, message
from hanamikoji.interfaces.puzzling import Answered, Mode, PuzzleRun
from hanamikoji.interfaces.styled import Group, RenderableType, Text
from hanamikoji.interfaces.words import move_words, player_label
from hanamikoji.notation.names import Deck, Lang, action_name, join_list
from hanamikoji.puzzles import Method
from hanamikoji.puzzles.answers import AnswerError, RevealWorld

__all__ = [
    "percent",
    "puzzle_labels",
    "rating_text",
    "render_answered",
    "render_choices",
    "solve_puzzles",
    "theme_name",
]

_NUMBER = re.compile(r"[+-]?\d+")


def percent(value: float) -> str:
    """A chance as a whole percentage: ``0.3201`` is ``32``."""
    return f"{round(value * 100)}"


def rating_text(rating: float) -> str:
    return f"{round(rating)}"


def puzzle_labels(lang: Lang) -> tuple[str, str]:
    """The seats' labels in a puzzle: ``Player 1`` and ``Player 2`` (the solver's said
    as theirs where it is shown)."""
    return (player_label("Player 1", 0, lang), player_label("Player 2", 1, lang))


def render_choices(view: View, lang: Lang, *, deck: Deck = "boxed") -> RenderableType:
    """The legal decisions, numbered in the core's order (never by value: that would
    tell the solution)."""
    lines: list[RenderableType] = [Text(message("moves_title", lang), style="bold")]
    for number, move in enumerate(view.generate_legal_moves(), start=1):
        words = move_words(move, lang, deck, view.player)
        lines.append(Text(f"  {number:>3}. {move!s:<9} {words}"))
    return Group(*lines)


_THEME_ACTIONS = {
    "gift-answer": MoveKind.GIFT,
    "gift-offer": MoveKind.GIFT,
    "competition-answer": MoveKind.COMPETITION,
    "competition-split": MoveKind.COMPETITION,
    "secret": MoveKind.SECRET,
    "last-secret": MoveKind.SECRET,
}
"""The action a theme's name says (in the language's edition terms)."""


def theme_name(theme: str, lang: Lang) -> str:
    """A theme's name (``puzzles/themes.py``) in ``lang``: ``gift-answer`` is "Answering
    a Gift", "Répondre à une Offre" in French."""
    kind = _THEME_ACTIONS.get(theme)
    fields = {} if kind is None else {"action": action_name(kind, lang)}
    return message(f"cli_puzzle_theme_{theme.replace('-', '_')}", lang, **fields)


def _decision(text: str, seat: int, lang: Lang, deck: Deck) -> str:
    return f"{text} ({move_words(Move.from_text(text), lang, deck, seat)})"


def _world(world: RevealWorld, lang: Lang) -> str:
    return message(
        "cli_puzzle_world",
        lang,
        chance=percent(world.chance),
        hand=world.opponent_hand or "-",
        secret_term=action_name(MoveKind.SECRET, lang),
        secret=world.opponent_secret or "-",
        tradeoff_term=action_name(MoveKind.TRADE_OFF, lang),
        tradeoff=world.opponent_tradeoff or "-",
        removed=world.removed or "-",
        deck=world.deck or "-",
        answer=percent(world.answer_value),
        best=percent(world.solution_value),
    )


def render_answered(
    run: PuzzleRun, answered: Answered, lang: Lang, *, deck: Deck = "boxed"
) -> RenderableType:
    """The reveal after an answer: right or wrong, every decision's value, how they were
    found, the worlds where a wrong answer does worse, the themes, the rating."""
    puzzle = run.current
    assert puzzle is not None
    shown, seat = answered.reveal, puzzle.seat
    graded = shown.graded
    parts: list[RenderableType] = []
    said = _decision(graded.answer, seat, lang, deck)
    if graded.correct:
        parts.append(Text(message("cli_puzzle_right", lang, decision=said), style="bold green"))
    else:
        solution = _decision(shown.solution, seat, lang, deck)
        line = message("cli_puzzle_wrong", lang, decision=said, solution=solution)
        parts.append(Text(line, style="bold red"))
    parts.append(Text(message("cli_puzzle_values_title", lang), style="bold"))
    for text, value in shown.values:
        decision = _decision(text, seat, lang, deck)
        mark = "▸ " if text == graded.answer else "  "
        parts.append(
            Text(mark + message("cli_puzzle_value", lang, decision=decision, chance=percent(value)))
        )
    key = "cli_puzzle_proved" if shown.method is Method.PROVED else "cli_puzzle_searched"
    parts.append(Text(message(key, lang, n=puzzle.worlds), style="dim"))
    if shown.worlds:
        parts.append(Text(message("cli_puzzle_worlds_title", lang), style="bold"))
        parts.extend(Text("  " + _world(world, lang)) for world in shown.worlds)
    parts.append(Text(message("cli_puzzle_themes", lang, themes=_themes(puzzle.themes, lang))))
    parts.append(Text(_rating_line(answered, lang), style="bold"))
    error = answered.not_saved
    if error is not None:
        reason = error.strerror or str(error)
        failed = message("cli_puzzle_record_failed", lang, path=str(run.record_path), error=reason)
        parts.append(Text(failed, style="bold red"))
    return Group(*parts)


def _themes(themes: Sequence[str], lang: Lang) -> str:
    return join_list([theme_name(theme, lang) for theme in themes], lang)


def _rating_line(answered: Answered, lang: Lang) -> str:
    streak = answered.streak
    if streak is not None:
        if not streak.over:
            return message("cli_puzzle_streak", lang, n=streak.solved)
        if streak.solved == len(streak.puzzles):
            return message("cli_puzzle_streak_done", lang, n=streak.solved)
        return message("cli_puzzle_streak_over", lang, n=streak.solved)
    if not answered.counted:
        return message("cli_puzzle_not_counted", lang, rating=rating_text(answered.after.rating))
    change = round(answered.after.rating) - round(answered.before.rating)
    return message(
        "cli_puzzle_rating_change",
        lang,
        before=rating_text(answered.before.rating),
        after=rating_text(answered.after.rating),
        change=f"{change:+d}",
    )


class _Stop(Exception):
    """The solver typed ``quit``."""


class PuzzlePrompt:
    """A run of puzzles at one terminal."""

    def __init__(self, run: PuzzleRun, terminal: Terminal) -> None:
        self.run = run
        self.terminal = terminal
        self.lang: Lang = terminal.lang
        self.deck: Deck = terminal.deck

    def t(self, key: str, **fields: object) -> str:
        return self.terminal.t(key, **fields)

    def play(self) -> int:
        """Every puzzle of the run, until the solver stops; the exit status."""
        try:
            while self.run.current is not None:
                self._puzzle()
                if not self.run.has_next:
                    if self.run.mode is Mode.RATED:
                        self.terminal.show(Text(self.t("cli_puzzle_none_left")))
                    return EXIT_OK
                try:
                    typed = self.terminal.ask(self.t("cli_puzzle_next_prompt"))
                except EOFError:
                    return EXIT_OK
                if command_for(typed.strip()) == "quit":
                    raise _Stop
                self.run.advance()
            return EXIT_OK
        except _Stop:
            self.terminal.show(Text(self.t("cli_puzzle_stopped")))
            return EXIT_OK
        except EOFError:
            self.terminal.show(Text(self.t("cli_puzzle_eof")))
            return EXIT_INPUT_ENDED

    def _puzzle(self) -> None:
        run = self.run
        puzzle = run.current
        assert puzzle is not None
        view = run.view()
        labels = puzzle_labels(self.lang)
        title = self.t(
            "cli_puzzle_title",
            id=puzzle.id,
            variant=puzzle.variant,
            rating=rating_text(run.puzzle_rating()),
        )
        self.terminal.show(Text(title, style="bold reverse"))
        if run.rated:
            rating = rating_text(run.record.rating.rating)
            self.terminal.show(Text(self.t("cli_puzzle_solver_rating", rating=rating)))
        self.terminal.show(render_board(view, labels, self.lang, deck=self.deck))
        if view.pending is None:
            self.terminal.show(render_choices(view, self.lang, deck=self.deck))
        player = labels[view.player]
        self.terminal.show(Text(self.t("cli_puzzle_find", player=player), style="bold"))
        self.terminal.show(Text(self.t("cli_puzzle_help"), style="dim"))
        legal = view.generate_legal_moves()
        prompt = self.t("prompt", player=player)
        while True:
            text = self.terminal.ask(prompt)
            answer = self._interpret(text, view, labels, legal)
            if answer is None:
                continue
            try:
                answered = run.answer(answer)
            except AnswerError as error:
                key = "cli_puzzle_illegal" if error.reason == "illegal" else "cli_puzzle_malformed"
                self._refuse(self.t(key, text=" ".join(text.split())))
                continue
            self.terminal.show(render_answered(run, answered, self.lang, deck=self.deck))
            return

    def _interpret(
        self, text: str, view: View, labels: tuple[str, str], legal: Sequence[Move]
    ) -> str | None:
        """The answer ``text`` gives (a decision's text), or ``None`` after a command."""
        words = " ".join(text.split())
        if not words:
            self._refuse(self.t("cli_puzzle_help"))
            return None
        command = command_for(words)
        if command == "help":
            self.terminal.show(render_help(view, self.lang, deck=self.deck))
            return None
        if command == "moves":
            self.terminal.show(render_choices(view, self.lang, deck=self.deck))
            return None
        if command == "log":
            self.terminal.show(render_log(view, labels, self.lang, deck=self.deck))
            return None
        if command == "board":
            self.terminal.show(render_board(view, labels, self.lang, deck=self.deck))
            return None
        if command == "rules":
            self.terminal.show_document(render_rules(view.variant, self.lang))
            return None
        if command == "quit":
            raise _Stop
        if _NUMBER.fullmatch(words):
            place = listed_place(words, len(legal))
            if place is None:
                key = "no_such_answer" if view.pending is not None else "no_such_number"
                self._refuse(self.t(key, number=words, count=len(legal)))
                return None
            return legal[place].text()
        compact = "".join(words.split())
        letters = compact.isalpha() and all(ch.upper() in ITEM_LETTERS for ch in compact)
        if view.pending is not None and letters:
            prefix = "G>" if view.pending.kind == MoveKind.GIFT else "C>"
            return prefix + compact
        return words

    def _refuse(self, sentence: str) -> None:
        self.terminal.show(Text(sentence, style="red"))


def solve_puzzles(run: PuzzleRun, terminal: Terminal) -> int:
    """Solve the run's puzzles at ``terminal``; the exit status (0, or 4 when the input
    ends before an answer)."""
    return PuzzlePrompt(run, terminal).play()
