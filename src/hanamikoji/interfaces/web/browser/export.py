"""A player's games as one record file, streamed: the text form, JSON, or NDJSON (one
record per line), as lichess exports a player's games (``/api/games/user/{name}``).

The file is written as the records come (``GameBrowser.records`` reads the games a batch
at a time), so an export of 100,000 games holds one batch in memory, and an NDJSON
reader gets each game as soon as it is written. The formats are those of
``notation/record_files.py``, which reads them back.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Literal

from starlette.responses import StreamingResponse

from hanamikoji.interfaces.web.browser.filters import Filters
from hanamikoji.interfaces.web.browser.service import GameBrowser
from hanamikoji.interfaces.web.browser.store import Account
from hanamikoji.interfaces.web.wire.refused import Refused
from hanamikoji.notation.record_files import (
    JSON_CLOSE,
    JSON_OPEN,
    json_entry,
    ndjson_line,
    text_entry,
)

__all__ = ["NDJSON", "ExportFormat", "export_format", "export_response"]

ExportFormat = Literal["text", "json", "ndjson"]
NDJSON = "application/x-ndjson"

_MEDIA: dict[ExportFormat, str] = {
    "text": "text/plain; charset=utf-8",
    "json": "application/json",
    "ndjson": NDJSON,
}
_SUFFIX: dict[ExportFormat, str] = {"text": "hkr", "json": "json", "ndjson": "ndjson"}


def export_format(asked: str | None, accept: str) -> ExportFormat:
    """The format ``?format=`` asks for, else NDJSON when the ``Accept`` header names it,
    else text. Raises :class:`Refused` (``err_bad_field``) for another format."""
    if asked is None:
        wanted = [part.split(";")[0].strip().lower() for part in accept.split(",")]
        return "ndjson" if NDJSON in wanted else "text"
    for known in ("text", "json", "ndjson"):
        if asked == known:
            return known
    raise Refused("err_bad_field", field="format")


def export_response(
    browser: GameBrowser,
    filters: Filters,
    player: Account,
    fmt: ExportFormat,
    most: int | None,
) -> StreamingResponse:
    """The streamed file of the player's games ``filters`` wants (at most ``most``)."""
    headers = {"Cache-Control": "no-store"}
    if fmt != "ndjson":
        name = f"hanamikoji-{player.name}.{_SUFFIX[fmt]}"
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return StreamingResponse(
        _chunks(browser, filters, player, fmt, most), media_type=_MEDIA[fmt], headers=headers
    )


async def _chunks(
    browser: GameBrowser, filters: Filters, player: Account, fmt: ExportFormat, most: int | None
) -> AsyncIterator[str]:
    if fmt == "json":
        yield JSON_OPEN
    first = True
    async for record in browser.records(filters, player, most):
        if fmt == "ndjson":
            yield ndjson_line(record)
        elif fmt == "json":
            yield json_entry(record, first)
        else:
            yield text_entry(record, first)
        first = False
    if fmt == "json":
        yield JSON_CLOSE
