"""The JSON the game's HTTP routes answer, as typed Structs (``docs/web.md``, Routes).

Routes answer them through :class:`WireResponse` (``outgoing``'s one encoder); the
players' routes' answers are in ``player_answers.py``.
"""

from __future__ import annotations

from typing import Any, Literal

from starlette.responses import Response

from hanamikoji.interfaces.web.wire.outgoing import (
    MoveInfo,
    Replay,
    SeatPlayer,
    SeatState,
    WireStruct,
    encode_bytes,
)

__all__ = [
    "ANSWERS",
    "AnalysisDone",
    "AnalysisNone",
    "AnalysisRunning",
    "AnalysisState",
    "AnalysisSummaryLine",
    "ForcedHint",
    "GameCreated",
    "GameRatings",
    "Health",
    "Hint",
    "Leaderboard",
    "LeaderboardRow",
    "Options",
    "RatingChange",
    "RatingPoint",
    "Rematch",
    "TutorialLabels",
    "TutorialStep",
    "VariantOption",
    "VariantRating",
    "WatchList",
    "WatchableGame",
    "WireResponse",
]


class GameCreated(WireStruct, frozen=True, kw_only=True, gc=False):
    """``POST /api/games``: the new game, seat 0's token, and the other seat's for a
    friend (``None`` against a bot)."""

    id: str
    seat: int
    token: str
    friend_token: str | None
    rated: bool


class WatchableGame(WireStruct, frozen=True, kw_only=True, gc=False):
    """An ongoing game anyone may watch; ``created`` in ISO 8601; who sits at each seat
    (names and ratings, nothing of the cards)."""

    id: str
    variant: str
    created: str
    players: tuple[SeatPlayer, SeatPlayer]


class WatchList(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/games?watch=1``: the newest games anyone may watch."""

    games: tuple[WatchableGame, ...]


class Rematch(WireStruct, frozen=True, kw_only=True, gc=False):
    """``POST /api/games/{id}/rematch``: the next game's id."""

    id: str


class Health(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /healthz``: whether the database answers."""

    ok: bool
    database: Literal["ok", "unreachable"]


class VariantOption(WireStruct, frozen=True, kw_only=True, gc=False):
    """A variant a game may be played in (``max_rounds`` ``None``: until someone wins)."""

    name: str
    max_rounds: int | None


class Options(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/options``: the variants, bot levels and languages there are."""

    variants: tuple[VariantOption, ...]
    levels: tuple[int, ...]
    languages: tuple[str, ...]


class ForcedHint(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/games/{id}/hint`` when only one decision is legal: that one."""

    ply: int
    method: Literal["forced"] = "forced"
    move: MoveInfo


class Hint(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/games/{id}/hint``: the best decision and its value (the chance to win
    the match after it), the next best one's, how the values were found and over how
    many worlds."""

    ply: int
    method: str
    worlds: int
    move: MoveInfo
    value: float
    next: MoveInfo | None
    next_value: float | None


class AnalysisRunning(WireStruct, tag_field="status", tag="running", frozen=True, kw_only=True):
    """An analysis under way: decisions done of all of them."""

    done: int
    total: int


class AnalysisNone(WireStruct, tag_field="status", tag="none", frozen=True, kw_only=True):
    """No analysis of the game, stored or under way."""

    done: int = 0
    total: int = 0


class AnalysisSummaryLine(WireStruct, frozen=True, kw_only=True, gc=False):
    """One player's line of an analysis's summary (``seat`` from 1, as in records)."""

    player: str
    seat: int
    decisions: int
    mean_cost: float
    inaccuracies: int
    mistakes: int
    blunders: int


class AnalysisDone(WireStruct, tag_field="status", tag="done", frozen=True, kw_only=True):
    """A finished game's analysis: each decision's (``bots/analysis.py``'s JSON form,
    with its played and best decisions as moves), the budget and the summary."""

    done: int
    total: int
    version: str
    budget: dict[str, Any]
    decisions: tuple[dict[str, Any], ...]
    summary: tuple[AnalysisSummaryLine, ...]


AnalysisState = AnalysisRunning | AnalysisNone | AnalysisDone
"""``/api/games/{id}/analysis``'s answer."""


class VariantRating(WireStruct, frozen=True, kw_only=True, gc=False):
    """A player's rating in one variant, rounded, and their rated games in it."""

    variant: str
    rating: int
    deviation: int
    provisional: bool
    games: int


class LeaderboardRow(VariantRating, frozen=True, kw_only=True, gc=False):
    """A leaderboard's line: the account's name and rating."""

    name: str


class Leaderboard(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/leaderboard``: established ratings, then provisional ones (deviation
    above ``bound``)."""

    variant: str
    bound: float
    players: tuple[LeaderboardRow, ...]
    provisional: tuple[LeaderboardRow, ...]


class RatingChange(WireStruct, frozen=True, kw_only=True, gc=False):
    """One side of a rated game: its rating before and after (a bot's: the same)."""

    seat: int
    bot: bool
    before: int
    after: int
    delta: int
    provisional: bool


class GameRatings(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/games/{id}/ratings``: whether rated and, once rated, each side's change."""

    rated: bool
    changes: tuple[RatingChange, ...] | None


class RatingPoint(WireStruct, frozen=True, kw_only=True, gc=False):
    """A player's rating after one rated game (their page's history)."""

    variant: str
    at: str
    rating: int
    deviation: int
    provisional: bool
    delta: int
    score: float
    opponent: int


class TutorialLabels(WireStruct, frozen=True, kw_only=True, gc=False):
    """The lesson page's buttons, in the learner's language."""

    next: str
    restart: str
    leave: str
    play: str


class TutorialStep(WireStruct, frozen=True, kw_only=True, gc=False):
    """``GET /api/tutorial?step=N``: one step of the lesson. ``frames``: the learner's
    states since the step before, oldest first; ``state``: the step's own; ``move``:
    the decision expected (``None`` for a step that is only read); then the step's
    sentences and the page's labels in the learner's language."""

    step: int
    steps: int
    last: bool
    frames: tuple[SeatState, ...]
    state: SeatState
    move: MoveInfo | None
    title: str
    do: str
    why: str
    hint: str
    progress: str
    labels: TutorialLabels


ANSWERS: tuple[Any, ...] = (
    GameCreated,
    WatchList,
    Rematch,
    Health,
    Options,
    Hint,
    ForcedHint,
    AnalysisState,
    Leaderboard,
    GameRatings,
    RatingPoint,
    Replay,
    TutorialStep,
)
"""Every answer here, for ``typescript.py``."""


class WireResponse(Response):
    """An HTTP answer whose body is a Struct (or JSON-ready data), encoded by the one
    encoder: the same content ``JSONResponse`` would send."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return encode_bytes(content)
