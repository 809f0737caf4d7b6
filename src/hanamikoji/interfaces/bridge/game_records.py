"""The record of a bridged game, from the seat's side: only what its view held.

A game the rules ended comes with the end reveal (every round's deal, Secret and
Trade-off, and every decision in full), so its record is a whole one in our notation
(``docs/records.md``), replayed before it is written: ``<game id>.hkr``. A game a clock,
a resignation or an abort ended has no reveal: the seat never saw the opponent's hidden
cards, and a record must name them, so what is written is the seat's transcript,
``<game id>.seat.txt``: the same tags, then the decisions as the seat saw them (the
opponent's Secret and Trade-off as ``S`` and ``T``), which the record reader refuses on
purpose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby
from pathlib import Path

from hanamikoji.core.game import Game
from hanamikoji.core.seats import seat_number
from hanamikoji.core.view import View
from hanamikoji.notation.records import GameRecord, write_record

__all__ = ["EVENT", "file_stem", "finished_record", "seat_transcript", "write_game"]

EVENT = "hanamikoji bridge"
"""The Event tag of the bridge's records."""


def file_stem(game_id: str) -> str:
    """A game's id as a file name: letters, digits, ``-`` and ``_`` kept, the rest ``_``.

    >>> file_stem("ab/../c d")
    'ab____c_d'
    """
    return re.sub(r"[^A-Za-z0-9_-]", "_", game_id)[:100] or "game"


def finished_record(
    view: View, players: tuple[str, str], date: str, extra_tags: Sequence[tuple[str, str]] = ()
) -> GameRecord | None:
    """The whole record of a game the rules ended, from the seat's final view and its
    reveal; ``None`` when the view has no reveal (the game ended otherwise)."""
    reveal = view.reveal
    if reveal is None or view.outcome is None:
        return None
    first = view.rounds[0].starter if view.rounds else view.round_starter
    game = Game(view.variant, None, first, deals=tuple(rnd.deal for rnd in reveal.rounds))
    for entry in reveal.moves:
        game.push(entry.move)
    record = GameRecord.from_game(
        game, players=players, date=date, event=EVENT, extra_tags=extra_tags
    )
    record.replay()  # checks the result and termination against the decisions
    return record


def seat_transcript(view: View, tags: Sequence[tuple[str, str]]) -> str:
    """The tags, then the decisions as ``view``'s seat saw them, round by round."""
    lines = [f'[{name} "{value}"]' for name, value in tags]
    lines.append(f'[Seat "{seat_number(view.player)}"]')
    for number, entries in groupby(view.log, key=lambda entry: entry.round):
        lines.extend(["", f"Round {number}"])
        for turn, decisions in groupby(entries, key=lambda entry: entry.turn):
            lines.append(f"{turn}. " + " ".join(entry.move.text() for entry in decisions))
    return "\n".join(lines) + "\n"


def write_game(
    folder: Path,
    game_id: str,
    view: View,
    players: tuple[str, str],
    date: str,
    result: str,
    extra_tags: Sequence[tuple[str, str]] = (),
) -> Path:
    """Write the game's record (or the seat's transcript) into ``folder``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    record = finished_record(view, players, date, extra_tags)
    if record is not None:
        path = folder / f"{file_stem(game_id)}.hkr"
        write_record(path, record)
        return path
    tags = [
        ("Event", EVENT),
        ("Date", date),
        ("Variant", view.variant.name),
        ("Player1", players[0]),
        ("Player2", players[1]),
        ("Result", result),
        *extra_tags,
    ]
    path = folder / f"{file_stem(game_id)}.seat.txt"
    path.write_text(seat_transcript(view, tags), encoding="utf-8")
    return path
