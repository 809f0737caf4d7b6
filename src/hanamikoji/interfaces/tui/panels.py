"""The side panel: the public log.

>>> from hanamikoji.core import Game
>>> game = Game(seed=7, first_player=0)
>>> _ = game.push_text("S:D")
>>> print(render_log(game.log(1), (), ("P1", "P2"), 1, "en").plain)
Round 1
 1. P1 plays Secret (face down)
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from hanamikoji.core import LogEntry, RoundSummary
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.words import describe_decision, summary_line
from hanamikoji.notation.names import Deck, Lang

__all__ = ["render_log"]


def render_log(
    entries: Sequence[LogEntry],
    summaries: Sequence[RoundSummary],
    labels: tuple[str, str],
    viewer: int | None,
    lang: Lang,
    current: int | None = None,
    *,
    deck: Deck = "boxed",
) -> Text:
    """Every decision ``entries`` holds (as ``viewer`` saw them; all of them for
    ``None``), round by round, each scored round's summary after it; the decision at
    index ``current`` marked (a replay's)."""
    scored = {
        summary.round: summary_line(summary, labels, viewer, lang, deck=deck)
        for summary in summaries
    }
    lines: list[Text] = []
    shown_round = 0
    for index, entry in enumerate(entries):
        if entry.round != shown_round:
            if shown_round in scored:
                lines.append(Text(scored[shown_round], "dim"))
            shown_round = entry.round
            lines.append(Text(message("round_heading", lang, round=shown_round), "bold"))
        mark = "▸" if index == current else " "
        described = describe_decision(entry, labels, viewer, lang, deck=deck)
        line = Text(f"{mark}{entry.turn}. {described}")
        if index == current:
            line.stylize("bold reverse")
        lines.append(line)
    if shown_round in scored:
        lines.append(Text(scored[shown_round], "dim"))
    if not lines:
        lines.append(Text(message("log_empty", lang), "dim"))
    return Text("\n").join(lines)
