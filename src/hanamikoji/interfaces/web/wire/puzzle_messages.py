"""The puzzles' answers (``puzzles/``), as typed Structs, and the body of an answer.

Before the answer a puzzle is a :class:`PuzzleQuestion`: the solver's seat's state (the
table's :class:`~.outgoing.SeatState`, made from
:meth:`~hanamikoji.puzzles.model.Puzzle.view`: no card that seat could not know) and
its legal decisions in alphabetical order (never in the order of their values). Nothing
else of the puzzle (its seed, the decisions before it in full, the solution, the
values) is in it. After the answer, :class:`PuzzleResult` is the reveal: the solution,
every value and the worlds where a wrong answer does worse, with the cards of the
opponent's hand, Secret and Trade-off, the removed card and the deck in those worlds.
"""

from __future__ import annotations

from hanamikoji.interfaces.web.wire.outgoing import SeatState, WireStruct

__all__ = [
    "PUZZLE_ANSWERS",
    "PuzzleDecisionValue",
    "PuzzleMade",
    "PuzzleQuestion",
    "PuzzleRatingInfo",
    "PuzzleResult",
    "PuzzleStreakRun",
    "PuzzleThemes",
    "PuzzleWorld",
]


class PuzzleRatingInfo(WireStruct, frozen=True, kw_only=True, gc=False):
    """A Glicko-2 puzzle rating: the rating, its deviation and volatility, whether it is
    provisional, and (for an account) how many puzzles it tried and solved."""

    rating: float
    deviation: float
    volatility: float
    provisional: bool
    attempts: int
    solved: int


class PuzzleQuestion(WireStruct, frozen=True, kw_only=True, gc=False):
    """A puzzle before its answer: what the solver's seat may know, nothing more."""

    id: str
    variant: str
    themes: tuple[str, ...]
    level: int
    rating: int
    state: SeatState
    decisions: tuple[str, ...]
    """The legal decisions, in alphabetical order."""
    mine: PuzzleRatingInfo | None
    """The account's puzzle rating (``null``: a guest, whose rating the page keeps)."""
    answered: bool
    """Whether the account answered this puzzle already (answering again is refused)."""


class PuzzleDecisionValue(WireStruct, frozen=True, kw_only=True, gc=False):
    """A decision and the solver's chance to win the match after it."""

    decision: str
    value: float


class PuzzleWorld(WireStruct, frozen=True, kw_only=True, gc=False):
    """A world of the solver's information set where the answer does worse than the
    solution: its chance, the hidden cards in it (letters A-G) and both values."""

    chance: float
    opponent_hand: str
    opponent_secret: str
    opponent_tradeoff: str
    removed: str
    deck: str
    answer_value: float
    solution_value: float


class PuzzleStreakRun(WireStruct, frozen=True, kw_only=True, gc=False):
    """A streak: its seed and its puzzles' ids, easiest first. ``kept``: an account's,
    kept on the server (``at`` the puzzle to answer now, ``solved`` how many, ``over``
    after a miss or the last one, ``best`` the account's best streak); a guest's page
    keeps its own (``kept`` false, the rest zero)."""

    seed: int
    ids: tuple[str, ...]
    kept: bool
    at: int
    solved: int
    over: bool
    best: int


class PuzzleResult(WireStruct, frozen=True, kw_only=True, gc=False):
    """The reveal after an answer. ``rated``: the account's first answer to this puzzle
    (``before`` and ``after`` its puzzle rating); a guest's is never rated, and
    ``guest`` is the rating the page sent, moved by this answer, for the page to keep."""

    id: str
    answer: str
    correct: bool
    solution: str
    values: tuple[PuzzleDecisionValue, ...]
    method: str
    worlds: tuple[PuzzleWorld, ...]
    rated: bool
    before: PuzzleRatingInfo | None
    after: PuzzleRatingInfo | None
    guest: PuzzleRatingInfo | None
    puzzle_rating: int
    streak: PuzzleStreakRun | None
    """The account's kept streak when this answer moved it (the first answer to the
    puzzle it was at), else ``None``."""


class PuzzleThemes(WireStruct, frozen=True, kw_only=True, gc=False):
    """The themes the puzzles are filtered by, and the daily puzzle's id today (UTC)."""

    themes: tuple[str, ...]
    daily: str


class PuzzleMade(WireStruct, frozen=True, kw_only=True, gc=False):
    """``POST /api/puzzles/make``: the id of the puzzle made of a decision (or made
    before), for the page to open at ``/puzzles/{id}``."""

    id: str


PUZZLE_ANSWERS = (PuzzleQuestion, PuzzleResult, PuzzleStreakRun, PuzzleThemes, PuzzleMade)
"""The puzzle routes' answers."""
