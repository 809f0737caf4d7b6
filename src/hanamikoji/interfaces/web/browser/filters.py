"""What the game browser is asked: the filters of a search or an export, read from a
request's query, and the keyset cursor that says where the next page starts.

Every value is read strictly, and anything else is refused with ``err_bad_field`` (the
field named) before a query runs: a variant the server does not know, a result that is
none of :data:`RESULT_FILTERS` (``won`` and ``lost`` only with a player, from whose side
they are seen), ``rated`` other than ``true`` or ``false``, a date not written
``YYYY-MM-DD``, a cursor this module did not write, a limit that is no whole number from
1 to :data:`MAX_LIMIT`. A parameter the browser does not know is ignored, as lichess does.

>>> filters = read_filters({"variant": "classic", "result": "draw", "rated": "true"})
>>> filters.variant, filters.result, filters.rated
('classic', 'draw', True)
>>> cursor = Cursor(datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC), "abc_-9")
>>> Cursor.parse(cursor.text()) == cursor
True
>>> read_filters({"result": "won"})
Traceback (most recent call last):
...
hanamikoji.interfaces.web.wire.refused.Refused: err_bad_field
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.web.wire.refused import Refused, whole_number

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "RESULT_FILTERS",
    "Cursor",
    "Filters",
    "ResultFilter",
    "read_filters",
    "read_limit",
]

ResultFilter = Literal["1-0", "0-1", "draw", "aborted", "won", "lost"]
RESULT_FILTERS: tuple[ResultFilter, ...] = ("1-0", "0-1", "draw", "aborted", "won", "lost")
"""Player 1 won, Player 2 won, a draw, no result (``*``: aborted, or ended unstarted);
won and lost from the named player's side."""

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
"""The games a page of the search holds: 20 unless asked, at most 100."""

_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What may name an account (``players/names.py`` holds the rules; the page's ``/@/``)."""
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
MAX_YEAR = 9998
"""The last year a date may name (the day after it is still a date)."""
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Filters:
    """Which finished public games a search or an export wants (``None``: any)."""

    player: str | None = None
    """An account's name, whatever its case."""
    variant: str | None = None
    result: ResultFilter | None = None
    rated: bool | None = None
    since: date | None = None
    """The first day (UTC) the games were started on."""
    until: date | None = None
    """The last day (UTC), included."""

    @property
    def after(self) -> datetime | None:
        """The first moment a game may have started (``since``'s midnight, UTC)."""
        return None if self.since is None else datetime(*self.since.timetuple()[:3], tzinfo=UTC)

    @property
    def before(self) -> datetime | None:
        """The moment games must have started before (the day after ``until``)."""
        if self.until is None:
            return None
        return datetime(*self.until.timetuple()[:3], tzinfo=UTC) + timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where a page of the search starts: after the game ``game_id`` started at
    ``created`` (the games come newest first, then by id downwards)."""

    created: datetime
    game_id: str

    def text(self) -> str:
        """The cursor as the answer's ``next`` carries it: microseconds since the epoch,
        a dot, the game's id."""
        delta = self.created - _EPOCH
        micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
        return f"{micros}.{self.game_id}"

    @classmethod
    def parse(cls, text: str) -> Cursor:
        """The cursor :meth:`text` wrote. Raises :class:`Refused` for anything else."""
        micros_text, dot, game_id = text.partition(".")
        micros = whole_number(micros_text, 10**17) if len(micros_text) <= 17 else None
        if not dot or micros is None or _GAME_ID.fullmatch(game_id) is None:
            raise Refused("err_bad_field", field="cursor")
        return cls(_EPOCH + timedelta(microseconds=micros), game_id)


def read_filters(params: Mapping[str, str], *, player: str | None = None) -> Filters:
    """The filters of a request's query. ``player`` is the name its path gives (an
    export's), which the query cannot change. Raises :class:`Refused` (``err_bad_field``)."""
    name = player if player is not None else (params.get("player") or None)
    if name is not None and _NAME.fullmatch(name) is None:
        raise Refused("err_bad_field", field="player")
    variant = params.get("variant") or None
    if variant is not None and variant not in VARIANTS:
        raise Refused("err_bad_field", field="variant")
    filters = Filters(
        player=name,
        variant=variant,
        result=_result(params.get("result") or None, name is not None),
        rated=_rated(params.get("rated") or None),
        since=_day(params.get("since") or None, "since"),
        until=_day(params.get("until") or None, "until"),
    )
    if filters.since is not None and filters.until is not None and filters.since > filters.until:
        raise Refused("err_bad_field", field="until")
    return filters


def read_limit(value: str | None, default: int = DEFAULT_LIMIT) -> int:
    """A page's size: a whole number from 1 to :data:`MAX_LIMIT`."""
    if value is None:
        return default
    limit = whole_number(value, MAX_LIMIT + 1)
    if limit is None or not 1 <= limit <= MAX_LIMIT:
        raise Refused("err_bad_field", field="limit")
    return limit


def _result(value: str | None, with_player: bool) -> ResultFilter | None:
    if value is None:
        return None
    for known in RESULT_FILTERS:
        if value == known and (with_player or known not in ("won", "lost")):
            return known
    raise Refused("err_bad_field", field="result")


def _rated(value: str | None) -> bool | None:
    if value is None:
        return None
    if value in ("true", "false"):
        return value == "true"
    raise Refused("err_bad_field", field="rated")


def _day(value: str | None, field: str) -> date | None:
    if value is None:
        return None
    if _DAY.fullmatch(value) is None:
        raise Refused("err_bad_field", field=field)
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise Refused("err_bad_field", field=field) from None
    if day.year > MAX_YEAR:
        raise Refused("err_bad_field", field=field)
    return day
