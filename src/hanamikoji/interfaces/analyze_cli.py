"""``hanamikoji analyze RECORD``: the strongest bot's verdict on each decision of a game."""

from __future__ import annotations

import argparse
import json

from hanamikoji.bots.analysis import GameAnalysis, analyze_record
from hanamikoji.core.outcome import seat_name
from hanamikoji.interfaces.cli import (
    Command,
    RecordFileError,
    Streams,
    add_lang,
    fail,
    load_record,
    register_command,
)
from hanamikoji.interfaces.options import positive_seconds, seed
from hanamikoji.interfaces.terminal import EXIT_ERROR, EXIT_OK
from hanamikoji.notation.names import check_lang, describe_move


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="FILE", help="a game record (.hkr text or .json)")
    parser.add_argument(
        "--budget",
        type=positive_seconds,
        default=1.0,
        metavar="SECONDS",
        help="seconds of search per decision (default 1)",
    )
    parser.add_argument("--seed", type=seed, default=0, help="seed of the searching bot")
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

    def progress(done: int, total: int) -> None:
        if not args.json:
            streams.stderr.write(f"\ranalysing decision {done}/{total}")
            if done == total:
                streams.stderr.write("\n")
            streams.stderr.flush()

    analysis = analyze_record(record, budget=args.budget, seed=args.seed, progress=progress)
    if args.json:
        streams.stdout.write(json.dumps(_as_json(analysis, record.players), indent=2) + "\n")
        return EXIT_OK
    names = record.players
    out = streams.stdout
    for d in analysis.decisions:
        who = names[d.seat]
        head = f"R{d.round} T{d.turn} {who:<12} {d.played!s:<9}"
        if d.forced:
            out.write(f"{head} (forced)\n")
            continue
        line = f"{head} win {d.played_value:6.1%}"
        if d.best != d.played:
            line += f"  best {d.best} {d.best_value:6.1%}  cost {d.cost:5.1%}"
        if d.label:
            line += f"  {d.label.upper()}: {describe_move(d.best, lang)}"
        out.write(line + "\n")
    out.write("\n")
    for seat in (0, 1):
        s = analysis.summary(seat)
        out.write(
            f"{names[seat]} ({seat_name(seat)}): {s.decisions} decisions with a choice, "
            f"mean cost {s.mean_cost:.1%}, {s.inaccuracies} inaccuracies, "
            f"{s.mistakes} mistakes, {s.blunders} blunders\n"
        )
    return EXIT_OK


def _as_json(analysis: GameAnalysis, players: tuple[str, str]) -> dict[str, object]:
    return {
        "players": list(players),
        "decisions": [
            {
                "round": d.round,
                "turn": d.turn,
                "seat": d.seat + 1,
                "played": str(d.played),
                "played_value": round(d.played_value, 4),
                "best": str(d.best),
                "best_value": round(d.best_value, 4),
                "cost": round(d.cost, 4),
                "label": d.label,
                "forced": d.forced,
            }
            for d in analysis.decisions
        ],
        "summary": [
            {
                "seat": seat + 1,
                "decisions": s.decisions,
                "mean_cost": round(s.mean_cost, 4),
                "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes,
                "blunders": s.blunders,
            }
            for seat in (0, 1)
            for s in [analysis.summary(seat)]
        ],
    }


register_command(
    Command(
        "analyze", "judge every decision of a finished game with the search bot", configure, run
    )
)
