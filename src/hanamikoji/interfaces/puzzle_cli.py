"""``hanamikoji puzzle``: the puzzles (docs/puzzles.md) in the terminal, full screen where
Textual is installed and both streams are a terminal, else in the line interface.

Without a mode the puzzles come one after another near the solver's puzzle rating
(kept in ``$XDG_STATE_HOME/hanamikoji/puzzles.json``, or ``--record FILE``);
``--daily`` is the puzzle of the day, ``--streak`` a streak, ``--id`` one puzzle.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from hanamikoji.core import VARIANTS
from hanamikoji.interfaces.cli import (
    Command,
    Streams,
    add_deck,
    add_lang,
    add_plain,
    fail,
    full_screen,
    register_command,
    terminal_for,
)
from hanamikoji.interfaces.exits import EXIT_ERROR
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.options import UsageError, seed
from hanamikoji.interfaces.puzzling import (
    Mode,
    PuzzleRun,
    SolverRecord,
    SolverRecordError,
    default_record_path,
    read_solver,
)
from hanamikoji.notation.names import check_lang
from hanamikoji.puzzles import Puzzle, PuzzleError, read_puzzles, shipped_puzzles
from hanamikoji.puzzles.themes import THEMES

__all__ = ["PUZZLE_EPILOG"]

PUZZLE_EPILOG = """\
examples:
  hanamikoji puzzle                        puzzles near your puzzle rating, one after another
  hanamikoji puzzle --theme gift-answer    only puzzles of one theme
  hanamikoji puzzle --daily                the puzzle of the day (UTC), the same for everyone
  hanamikoji puzzle --streak               puzzles of rising difficulty until the first miss
  hanamikoji puzzle --id french-52000002-9 one puzzle

Answer with the decision in the notation (C:AB/CD, G>A) or its number in the list. A
puzzle counts once for your rating: answering it again changes nothing. A streak is not
rated. Your rating and the puzzles you answered are kept in
$XDG_STATE_HOME/hanamikoji/puzzles.json (~/.local/state/... without it) or --record FILE.
"""


def _configure(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--daily", action="store_true", help="the puzzle of the day (a UTC date)")
    mode.add_argument(
        "--streak",
        action="store_true",
        help="puzzles of rising difficulty until the first miss (not rated)",
    )
    mode.add_argument("--id", metavar="ID", help="the puzzle with this id")
    parser.add_argument(
        "--theme",
        choices=sorted(THEMES),
        metavar="THEME",
        help=f"only puzzles of this theme: {', '.join(sorted(THEMES))} (docs/puzzles.md)",
    )
    parser.add_argument(
        "--variant",
        choices=tuple(VARIANTS),
        metavar="NAME",
        help=f"only puzzles of this variant: {', '.join(VARIANTS)}",
    )
    parser.add_argument(
        "--file",
        type=Path,
        metavar="FILE",
        help="a puzzle file (JSON lines, .gz too) instead of the shipped set",
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="where your puzzle rating and answered puzzles are kept (default:"
        " $XDG_STATE_HOME/hanamikoji/puzzles.json)",
    )
    parser.add_argument(
        "--seed", type=seed, help="which of the puzzles about as near, and a streak's, from it"
    )
    add_lang(parser)
    add_deck(parser)
    add_plain(parser)


def _puzzles(path: Path | None) -> tuple[Puzzle, ...]:
    if path is None:
        return shipped_puzzles()
    return tuple(read_puzzles(path))


def _mode(args: argparse.Namespace) -> Mode:
    if args.daily:
        return Mode.DAILY
    if args.streak:
        return Mode.STREAK
    if args.id is not None:
        return Mode.ONE
    return Mode.RATED


def _run(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    if args.daily and (args.theme is not None or args.variant is not None):
        raise UsageError("--daily is one puzzle for everyone: it takes no --theme or --variant")
    try:
        puzzles = _puzzles(args.file)
    except (OSError, PuzzleError) as error:
        text = f"{args.file}: {error.strerror}" if isinstance(error, OSError) else str(error)
        return fail(streams, text, EXIT_ERROR, lang)
    mode = _mode(args)
    path: Path = default_record_path() if args.record is None else args.record
    record = SolverRecord()
    if mode is not Mode.STREAK:
        try:
            record = read_solver(path)
        except SolverRecordError as error:
            return fail(streams, str(error), EXIT_ERROR, lang)
    try:
        run = PuzzleRun(
            puzzles,
            mode,
            record,
            puzzle_id=args.id,
            theme=args.theme,
            variant=args.variant,
            seed=args.seed,
            record_path=None if mode is Mode.STREAK else path,
        )
    except ValueError as error:
        return fail(
            streams, message("cli_puzzle_not_found", lang, what=str(error)), EXIT_ERROR, lang
        )
    if run.current is None:
        streams.stdout.write(message("cli_puzzle_none_left", lang) + "\n")
        return 0
    if full_screen(args, streams):
        from hanamikoji.interfaces.tui import puzzles_in_app

        return puzzles_in_app(run, lang, deck=args.deck)
    from hanamikoji.interfaces.line.puzzle import solve_puzzles

    return solve_puzzles(run, terminal_for(streams, lang, args.deck))


register_command(
    Command("puzzle", "solve puzzles: find the one best decision", _configure, _run, PUZZLE_EPILOG)
)
