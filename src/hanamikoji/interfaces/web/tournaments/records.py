"""A finished tournament's games as one record file (``notation/record_files.py``): the
text form, or JSON (``?format=json``), in the order they were paired, each record's
``Event`` tag naming the tournament and the game's round and board (an arena's game
number), as ``hanamikoji tournament --records`` writes them (those between two of our
levels too: the hub's bots play them)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING

from starlette.responses import Response

from hanamikoji.interfaces.web.tournaments.model import FINISHED, Tournament
from hanamikoji.interfaces.web.tournaments.store import GameLink
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.record_files import records_to_json, records_to_text
from hanamikoji.notation.records import GameRecord

if TYPE_CHECKING:
    from hanamikoji.interfaces.web.services import Services

__all__ = ["event_name", "records_response"]


def event_name(tournament: Tournament, number: int, board: int) -> str:
    name = tournament.settings.name
    if number == 0:
        return f"{name}: arena, game {board + 1}"
    return f"{name}: Swiss, round {number}, board {board + 1}"


async def records_response(services: Services, tournament: Tournament, fmt: str) -> Response:
    """The records; :class:`Refused`: ``err_not_over`` before the end, ``err_bad_field``
    for a format other than ``text`` or ``json``."""
    if fmt not in ("text", "json"):
        raise Refused("err_bad_field", field="format")
    if tournament.status != FINISHED:
        raise Refused("err_not_over")
    records: list[GameRecord] = []
    for link in await _links(services, tournament.id):
        live = await services.hub.get(link.game)
        if live is None or not live.ended:
            continue
        record = services.hub.finishing.game_record(live)
        event = event_name(tournament, link.round, link.board)
        tags = tuple((n, event if n == "Event" else v) for n, v in record.tags)
        records.append(replace(record, tags=tags))
    text = records_to_json(records) if fmt == "json" else records_to_text(records)
    media = "application/json" if fmt == "json" else "text/plain; charset=utf-8"
    suffix = "json" if fmt == "json" else "hkr"
    disposition = f'attachment; filename="tournament-{tournament.id}.{suffix}"'
    return Response(text, media_type=media, headers={"Content-Disposition": disposition})


async def _links(services: Services, tournament_id: str) -> list[GameLink]:
    return await asyncio.to_thread(services.tournaments.db.links, tournament_id)
