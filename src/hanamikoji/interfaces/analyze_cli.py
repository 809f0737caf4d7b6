"""``hanamikoji analyze FILE``: every decision of a finished game judged from its
player's view of the cards (:mod:`hanamikoji.bots.analysis`)."""

from __future__ import annotations

import argparse
import json
import os

from hanamikoji.bots.analysis import (
    DEFAULT_WORLDS,
    THRESHOLDS,
    AnalysisSettings,
    DecisionAnalysis,
    GameAnalysis,
    MoveValue,
    analyze_record,
    player_label,
)
from hanamikoji.interfaces.arena_cli import report_console
from hanamikoji.interfaces.cli import (
    Command,
    RecordFileError,
    Streams,
    add_lang,
    fail,
    load_record,
    register_command,
    version,
)
from hanamikoji.interfaces.exits import EXIT_ERROR, EXIT_OK
from hanamikoji.interfaces.options import jobs, positive_int, positive_seconds, seed
from hanamikoji.interfaces.styled import (
    BarColumn,
    Console,
    JustifyMethod,
    MofNCompleteColumn,
    Progress,
    Table,
    TextColumn,
    TimeRemainingColumn,
    box,
)
from hanamikoji.notation.names import Lang, check_lang, describe_move
from hanamikoji.notation.records import GameRecord

DEFAULT_JOBS = min(2, os.cpu_count() or 1)
"""Decisions analysed at once, in as many processes: the machine's two cores."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="FILE", help="a game record (.hkr text or .json)")
    parser.add_argument(
        "--worlds",
        type=positive_int,
        default=DEFAULT_WORLDS,
        metavar="N",
        help=f"sampled worlds per searched decision (default {DEFAULT_WORLDS})",
    )
    parser.add_argument(
        "--budget",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="stop each decision's search after this long (default: no limit, so that "
        "the verdict does not depend on the machine)",
    )
    parser.add_argument("--seed", type=seed, default=0, help="seed of the search (default 0)")
    parser.add_argument(
        "--jobs",
        type=jobs,
        default=DEFAULT_JOBS,
        metavar="N",
        help=f"decisions analysed at once, in processes (default {DEFAULT_JOBS})",
    )
    add_lang(parser)
    parser.add_argument("--json", action="store_true", help="print JSON for machines")


def run(args: argparse.Namespace, streams: Streams) -> int:
    lang = check_lang(args.lang)
    try:
        record = load_record(args.record)
    except RecordFileError as error:
        return fail(streams, str(error), EXIT_ERROR, lang)
    if not record.replay().is_over():
        return fail(streams, f"{args.record}: the game is not finished", EXIT_ERROR, lang)
    settings = AnalysisSettings(worlds=args.worlds, seconds=args.budget, seed=args.seed)
    analysis = _analyse(record, settings, args.jobs, streams)
    if args.json:
        data = {**analysis.to_json(), "version": version()}
        streams.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        _print_report(report_console(streams.stdout), analysis, lang)
    return EXIT_OK


def _analyse(
    record: GameRecord, settings: AnalysisSettings, processes: int, streams: Streams
) -> GameAnalysis:
    """The analysis, with a progress bar on standard error if it is a terminal (nothing
    written to a file or a pipe)."""
    errors = Console(file=streams.stderr, highlight=False, markup=False, emoji=False)
    # Refreshed by hand: no thread in this process when the workers are forked.
    progress = Progress(
        TextColumn("analysing decisions"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=errors,
        auto_refresh=False,
        transient=True,
        disable=not errors.is_terminal,
    )
    with progress:
        task = progress.add_task("decisions", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)
            progress.refresh()

        return analyze_record(record, settings, advance, processes)


# -- the report ----------------------------------------------------------------------------


def _print_report(console: Console, analysis: GameAnalysis, lang: Lang) -> None:
    for line in _reading(analysis):
        console.print(line)
    console.print(_table(analysis))
    for d in analysis.decisions:
        note = _note(d, lang)
        if note:
            console.print(f"{d.ply}. {note}")
    console.print()
    for seat in (0, 1):
        summary = analysis.summary(seat)
        console.print(
            f"{player_label(analysis.players, seat)}: {summary.labels_text()} "
            f"in {summary.decisions} decision{'' if summary.decisions == 1 else 's'} "
            f"with a choice, mean cost {summary.mean_cost:.1%}"
        )


def _reading(analysis: GameAnalysis) -> list[str]:
    """How to read the table."""
    labels = ", ".join(f"{label} from {threshold:.0%}" for threshold, label in THRESHOLDS[::-1])
    players = analysis.players
    return [
        f"P1: {player_label(players, 0)}, P2: {player_label(players, 1)}.",
        "win: the chance that the player who decided wins the match, estimated from that "
        "player's view of the cards.",
        "how: exact = over every world that fits what they saw (the last two turns of a "
        f"round); search = over {analysis.settings.worlds} sampled worlds.",
        f"cost: best win - played win; {labels}.",
    ]


def _table(analysis: GameAnalysis) -> Table:
    # No rules between columns: the table fits 80 columns.
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("ply", "right"),
        ("round", "left"),
        ("by", "left"),
        ("played", "left"),
        ("win", "right"),
        ("best", "left"),
        ("win", "right"),
        ("cost", "right"),
        ("verdict", "left"),
        ("how", "left"),
    )
    for header, justify in columns:
        table.add_column(header, justify=justify, no_wrap=True)
    for d in analysis.decisions:
        table.add_row(*_row(d))
    return table


def _row(d: DecisionAnalysis) -> list[str]:
    head = [str(d.ply), f"R{d.round} T{d.turn}", f"P{d.seat + 1}", str(d.played)]
    if d.forced:
        return [*head, "", "", "", "", "", "forced"]
    other = d.best != d.played
    return [
        *head,
        _percent(d.played_value),
        str(d.best) if other else "=",
        _percent(d.best_value) if other else "",
        f"{d.cost:.1%}" if other else "",
        d.label,
        d.method.value,
    ]


def _percent(value: float | None) -> str:
    return "" if value is None else f"{value:.1%}"


def _note(d: DecisionAnalysis, lang: Lang) -> str:
    """What the decision played and the best one do to the game at this round's
    scoring, and the better decision in words if the one played earned a label."""
    parts = [
        f"{entry.move} {text}"
        for entry in (d.played_entry, d.best_entry if d.best != d.played else None)
        if entry is not None
        for text in [_at_once(entry)]
        if text
    ]
    if d.label:
        parts.append(f"Better: {describe_move(d.best, lang)}")
    return ". ".join(parts) + "." if parts else ""


def _at_once(entry: MoveValue) -> str:
    """``wins the game at once with chance 75%`` and the like, or ``""``."""
    texts = []
    for chance, verb in ((entry.wins_at_once, "wins"), (entry.loses_at_once, "loses")):
        if chance is not None and chance >= 0.0005:
            odds = "" if chance > 0.9995 else f" with chance {chance:.1%}"
            texts.append(f"{verb} the game at once{odds}")
    return " and ".join(texts)


register_command(
    Command(
        "analyze",
        "judge every decision of a finished game from its player's view of the cards",
        configure,
        run,
    )
)
