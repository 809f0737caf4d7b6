"""The training log: each generation of the checkpoint's manifest as a row of a Markdown
table, rewritten between its markers (``docs/strength.md``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["LOG_END", "LOG_START", "log_table", "write_log"]

LOG_START = "<!-- training log: start -->"
LOG_END = "<!-- training log: end -->"


def log_table(generations: Sequence[dict[str, Any]]) -> str:
    """The training log as a Markdown table, a generation a row."""

    def rate(match: dict[str, Any]) -> str:
        low, high = match["interval"]
        return f"{100 * match['score']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"

    def trained_on(entry: dict[str, Any]) -> str:
        window = entry.get("window", [entry["generation"]])
        names = str(window[0]) if len(window) == 1 else f"{window[0]}-{window[-1]}"
        return f"{names}: {entry.get('training_rows', entry['rows']):,}"

    lines = [
        "| generation | date | kept | games (seeds) | decisions / rows"
        " | trained on (generations: rows)"
        " | self-play / training / matches | held-out policy / value loss, agreement"
        " | against the previous | against greedy |",
        "|---:|---|---|---|---|---|---|---|---|---|",
    ]
    for entry in generations:
        first, last = entry["games"]
        seconds = entry["seconds"]
        held = entry["held_out"]
        lines.append(
            f"| {entry['generation']} | {entry['date']} | {'yes' if entry['kept'] else 'no'} "
            f"| {last - first + 1:,} ({first}-{last}) "
            f"| {entry['decisions']:,} / {entry['rows']:,} | {trained_on(entry)} "
            f"| {seconds['self_play']:,} / {seconds['training']:,} / {seconds['matches']:,} s "
            f"| {held['policy']:.3f} / {held['value']:.4f}, {100 * held['agree']:.1f}% "
            f"| {rate(entry['against_previous'])} vs {entry['against_previous']['opponent']} "
            f"| {rate(entry['against_greedy'])} |"
        )
    return "\n".join(lines)


def write_log(path: Path, generations: Sequence[dict[str, Any]]) -> None:
    """Replace the table between the training log's markers in ``path``."""
    text = path.read_text("utf-8")
    pattern = re.compile(re.escape(LOG_START) + ".*?" + re.escape(LOG_END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{path}: no {LOG_START} ... {LOG_END} block for the training log")
    block = f"{LOG_START}\n{log_table(generations)}\n{LOG_END}"
    path.write_text(pattern.sub(lambda _: block, text), "utf-8")
