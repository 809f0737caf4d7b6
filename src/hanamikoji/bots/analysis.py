"""Game analysis: every decision of a game judged from its player's view of the cards.

For each decision with a choice, :func:`analyze_record` values the decision played and
its alternatives by the chance they leave the player who decided to win the match, given
only what that player knew then (their view: the opponent's cards are one of the worlds
consistent with it). All the values of a decision come from one computation over the
same worlds, and the best decision is the one of highest value, so the cost of the
decision played (best minus played) is never negative. Two ways to compute them:

- **exact**, on the last two turns of a round (:mod:`hanamikoji.bots.exact`): every
  world of the player's information set, weighed as the search weighs it, with the rest
  of the round played out (the last turn) or solved (the seventh); a decision that wins
  or loses the game at this round's scoring says in what share of the worlds;
- **search** before that: ``ismcts`` (:mod:`hanamikoji.bots.ismcts`, with the compiled
  judge) compares the judge's best decisions and the one played on a fixed number of
  sampled worlds, every world played under each of them, so the same record and seed
  give the same verdict on any machine.

A decision's cost labels it (:data:`THRESHOLDS`). The result is typed
(:class:`GameAnalysis`) and has a JSON form (:meth:`GameAnalysis.to_json`); decisions can
be analysed in parallel processes (``jobs``), with a progress callback.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from functools import cache

from hanamikoji import __version__
from hanamikoji.bots.exact import ExactValue, Opponent, exact_values, judge_model
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.ismcts import DEFAULT_CONFIG, ISMCTSBot
from hanamikoji.bots.judge import best_first
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move
from hanamikoji.core.seats import seat_number
from hanamikoji.core.view import LogEntry, View
from hanamikoji.notation.outcomes import seat_name
from hanamikoji.notation.records import GameRecord

__all__ = [
    "THRESHOLDS",
    "AnalysisSettings",
    "DecisionAnalysis",
    "GameAnalysis",
    "Method",
    "MoveValue",
    "PlayerSummary",
    "analyze_game",
    "analyze_record",
    "forced_decisions",
    "label_for",
    "player_label",
]

THRESHOLDS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
"""The cost (lost chance to win the match) from which a decision gets each label."""
DEFAULT_WORLDS = 1000
"""Sampled worlds per searched decision by default. Measured (docs/benchmarks.md, "Game
analysis"): against ten times as many, the best decision agreed on 59% of searched
decisions at 200, 80% at 1,000 and 84% at 2,000, the label on 73%, 89% and 89%; a game
of 36 decisions took about 6 s at 1,000 and 11 s at 2,000 on two cores."""
EXACT_TURNS = 2
"""Decisions on the last this many turns of a round (answers included) are valued exactly."""
EXACT_LIMIT = 5_000
"""...if their player's information set holds at most this many worlds (the seventh
turn's hold up to about 2,000)."""
ROOT_CANDIDATES = 3
"""How many of the judge's best decisions the search compares with the one played."""
SEARCH_EXACT_TURNS = 1
"""The search solves each sampled world from the last turn on, and there compares every
decision (as ``ismcts`` does)."""
UNCAPPED = 1e9
"""The search's time budget when it is stopped by its number of worlds alone."""
FEW_WORLDS = 4
"""Searched without a time cap when the cap fits not one world: every decision a value."""
TIE = 1e-9
"""Values closer than this are equal: the decision played is then the best one."""
VIEWPOINT = "estimated from {player}'s view of the cards"
"""How each value is to be read (the JSON form's ``viewpoint``)."""


def label_for(cost: float) -> str:
    """``blunder``, ``mistake``, ``inaccuracy`` or ``""`` for a cost in win chance."""
    for threshold, label in THRESHOLDS:
        if cost >= threshold:
            return label
    return ""


class Method(enum.Enum):
    """How a decision's values were found."""

    FORCED = "forced"
    """Only one decision was legal: nothing to judge."""
    EXACT = "exact"
    """Over every world of the player's information set (:mod:`hanamikoji.bots.exact`)."""
    SEARCH = "search"
    """By the search, over sampled worlds."""


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """How much work each decision gets.

    Args:
        worlds: sampled worlds per searched decision (each played under every decision
            compared).
        seconds: stop a decision's search after this long even if fewer worlds were
            played (``None``: no cap, the verdict reproducible).
        seed: the search's seed (each decision's is this plus its ply).
        exact_turns: value exactly the decisions on the last this many turns of a round.
        exact_limit: ...whose player's information set holds at most this many worlds.
        root_candidates: how many of the judge's best decisions are compared with the
            one played.
        inference: weigh worlds by the opponent's decisions, as the search does (else
            every world as likely as the shuffle makes it).
    """

    worlds: int = DEFAULT_WORLDS
    seconds: float | None = None
    seed: int = 0
    exact_turns: int = EXACT_TURNS
    exact_limit: int = EXACT_LIMIT
    root_candidates: int = ROOT_CANDIDATES
    inference: bool = True

    def __post_init__(self) -> None:
        if self.worlds < 1 or self.root_candidates < 1 or self.exact_limit < 0:
            raise ValueError("worlds and root_candidates are at least 1, exact_limit at least 0")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ValueError(f"seconds is a positive number, not {self.seconds}")
        if not 0 <= self.exact_turns <= 2:
            raise ValueError(f"exact_turns is 0, 1 or 2, not {self.exact_turns}")


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One decision compared: its mover's chance to win the match after it and, where the
    value is exact on the last turn, the chance that the game ends at this round's
    scoring with the mover's win or their loss."""

    move: Move
    value: float
    wins_at_once: float | None = None
    loses_at_once: float | None = None


@dataclass(frozen=True, slots=True)
class DecisionAnalysis:
    """One decision: what was played, every decision compared with it (highest value
    first), and how the values were found.

    ``ply`` is the decision's number in the game, from 1 (answers count); ``worlds`` the
    number of worlds the values are over (listed or sampled; 0 when forced)."""

    ply: int
    round: int
    turn: int
    seat: int
    played: Move
    method: Method
    worlds: int
    values: tuple[MoveValue, ...]

    @property
    def forced(self) -> bool:
        return self.method is Method.FORCED

    @property
    def exact(self) -> bool:
        return self.method is Method.EXACT

    @property
    def played_entry(self) -> MoveValue | None:
        return next((entry for entry in self.values if entry.move == self.played), None)

    @property
    def best_entry(self) -> MoveValue | None:
        """The decision of highest value; the one played when it is as high."""
        played = self.played_entry
        if played is None or not self.values:
            return None
        top = self.values[0]
        return played if played.value >= top.value - TIE else top

    @property
    def best(self) -> Move:
        best = self.best_entry
        return self.played if best is None else best.move

    @property
    def played_value(self) -> float | None:
        played = self.played_entry
        return None if played is None else played.value

    @property
    def best_value(self) -> float | None:
        best = self.best_entry
        return None if best is None else best.value

    @property
    def cost(self) -> float:
        """The chance to win given away: the best value less the one played (never
        negative: the best is the highest value)."""
        played, best = self.played_value, self.best_value
        return 0.0 if played is None or best is None else best - played

    @property
    def label(self) -> str:
        return label_for(self.cost)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's decisions that had a choice: how many, their mean cost, each label's count."""

    seat: int
    decisions: int
    mean_cost: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def labels_text(self) -> str:
        """``1 inaccuracy, 2 blunders``, or ``no inaccuracy, mistake or blunder``."""
        parts = [
            f"{count} {word if count == 1 else plural}"
            for count, word, plural in (
                (self.inaccuracies, "inaccuracy", "inaccuracies"),
                (self.mistakes, "mistake", "mistakes"),
                (self.blunders, "blunder", "blunders"),
            )
            if count
        ]
        return ", ".join(parts) if parts else "no inaccuracy, mistake or blunder"


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """Every decision of a game, analysed with ``settings`` by version ``version`` of
    this package, for the players named ``players`` (seat 0 first)."""

    players: tuple[str, str]
    settings: AnalysisSettings
    version: str
    decisions: tuple[DecisionAnalysis, ...]

    def summary(self, seat: int) -> PlayerSummary:
        """Per-player totals over the decisions that had a choice."""
        own = [d for d in self.decisions if d.seat == seat and not d.forced]
        labels = [d.label for d in own]
        return PlayerSummary(
            seat,
            len(own),
            sum(d.cost for d in own) / len(own) if own else 0.0,
            labels.count("inaccuracy"),
            labels.count("mistake"),
            labels.count("blunder"),
        )

    def to_json(self) -> dict[str, object]:
        """The analysis as JSON-ready data (values rounded to 4 decimals)."""
        settings = self.settings
        return {
            "version": self.version,
            "players": list(self.players),
            "budget": {
                "worlds": settings.worlds,
                "seconds": settings.seconds,
                "seed": settings.seed,
                "exact_turns": settings.exact_turns,
                "exact_limit": settings.exact_limit,
                "root_candidates": settings.root_candidates,
                "inference": settings.inference,
            },
            "reading": "each value is the chance that the player who decided wins the "
            "match, " + VIEWPOINT.format(player="that player"),
            "decisions": [_decision_json(d, self.players) for d in self.decisions],
            "summary": [
                {"player": self.players[seat], **_summary_json(self.summary(seat))}
                for seat in (0, 1)
            ],
        }


def player_label(players: tuple[str, str], seat: int) -> str:
    """A player's name from a record, with their seat if the name is not the seat's own
    (``Player 1``, ``Alice (Player 1)``)."""
    name, seat_text = players[seat], seat_name(seat)
    return name if name == seat_text else f"{name} ({seat_text})"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _decision_json(d: DecisionAnalysis, players: tuple[str, str]) -> dict[str, object]:
    return {
        "ply": d.ply,
        "round": d.round,
        "turn": d.turn,
        "seat": seat_number(d.seat),
        "player": players[d.seat],
        "viewpoint": VIEWPOINT.format(player=seat_name(d.seat)),
        "played": str(d.played),
        "played_value": _rounded(d.played_value),
        "best": str(d.best),
        "best_value": _rounded(d.best_value),
        "cost": round(d.cost, 4),
        "label": d.label,
        "forced": d.forced,
        "exact": d.exact,
        "method": d.method.value,
        "worlds": d.worlds,
        "values": [
            {
                "move": str(entry.move),
                "value": round(entry.value, 4),
                "wins_at_once": _rounded(entry.wins_at_once),
                "loses_at_once": _rounded(entry.loses_at_once),
            }
            for entry in d.values
        ],
    }


def _summary_json(s: PlayerSummary) -> dict[str, object]:
    return {
        "seat": seat_number(s.seat),
        "decisions": s.decisions,
        "mean_cost": round(s.mean_cost, 4),
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
    }


# -- analysing ----------------------------------------------------------------------------


Progress = Callable[[int, int], None]
"""``(decisions done, decisions in all)``, called as decisions are finished."""


def analyze_game(
    game: Game,
    settings: AnalysisSettings | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    players: tuple[str, str] = (seat_name(0), seat_name(1)),
) -> GameAnalysis:
    """:func:`analyze_record` of ``game``'s record (finished or not)."""
    record = GameRecord.from_game(game, players)
    return analyze_record(record, settings, progress, jobs)


def analyze_record(
    record: GameRecord,
    settings: AnalysisSettings | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
) -> GameAnalysis:
    """Analyse every decision of ``record`` (see the module's docstring), in ``jobs``
    processes. The result depends on the record and ``settings`` alone, not on ``jobs``,
    unless ``settings.seconds`` caps the searches. Raises
    :class:`~hanamikoji.notation.records.RecordError` if the record does not replay."""
    settings = settings or AnalysisSettings()
    if jobs < 1:
        raise ValueError(f"jobs is at least 1, not {jobs}")
    forced = forced_decisions(record)
    results = {index: found for index, found in enumerate(forced) if found is not None}
    work = [index for index, found in enumerate(forced) if found is None]
    total = len(forced)
    done = len(results)
    if progress is not None:
        progress(done, total)
    for index, result in _run(record, settings, work, jobs):
        results[index] = result
        done += 1
        if progress is not None:
            progress(done, total)
    return GameAnalysis(
        record.players,
        settings,
        __version__,
        tuple(results[index] for index in range(total)),
    )


def _run(
    record: GameRecord, settings: AnalysisSettings, work: Sequence[int], jobs: int
) -> Iterator[tuple[int, DecisionAnalysis]]:
    """Each decision of ``work`` analysed (by its index), as they are finished."""
    if jobs == 1 or len(work) < 2:
        for index in work:
            yield index, analyse_decision(record, index, settings)
        return
    # Forked workers inherit the compiled judge instead of each loading it again.
    GreedyBot(compiled=True)
    with ProcessPoolExecutor(max_workers=min(jobs, len(work))) as executor:
        futures = {
            executor.submit(analyse_decision, record, index, settings): index for index in work
        }
        for future in as_completed(futures):
            yield futures[future], future.result()


def analyse_decision(
    record: GameRecord, index: int, settings: AnalysisSettings
) -> DecisionAnalysis:
    """The analysis of the decision of ``record`` at ``index`` (from 0)."""
    for at, (game, entry) in enumerate(record.decisions()):
        if at == index:
            return _analysed(game, entry, index, settings)
    raise IndexError(f"the record has no decision {index}")


def forced_decisions(record: GameRecord) -> list[DecisionAnalysis | None]:
    """Per decision of ``record``: its analysis if only one decision was legal (nothing to
    judge), else ``None`` (to be analysed, by :func:`analyse_decision`)."""
    return [
        _forced(index, entry) if len(game.generate_legal_moves()) == 1 else None
        for index, (game, entry) in enumerate(record.decisions())
    ]


def _forced(index: int, entry: LogEntry) -> DecisionAnalysis:
    return DecisionAnalysis(
        index + 1, entry.round, entry.turn, entry.seat, entry.move, Method.FORCED, 0, ()
    )


def _analysed(
    game: Game, entry: LogEntry, index: int, settings: AnalysisSettings
) -> DecisionAnalysis:
    """The decision ``entry`` in ``game``, which has a choice."""
    view = game.view(entry.seat)
    legal = game.generate_legal_moves()
    if view.deck_size < settings.exact_turns:
        solution = exact_values(view, legal, _opponent(settings.inference), settings.exact_limit)
        if solution is not None:
            values = [_from_exact(move, value) for move, value in solution.values.items()]
            return _decision(index, entry, Method.EXACT, solution.worlds, values)
    seed = settings.seed + index + 1
    searched, worlds = _searched(view, legal, entry.move, seed, settings)
    values = [MoveValue(move, value) for move, value in searched.items()]
    return _decision(index, entry, Method.SEARCH, worlds, values)


def _decision(
    index: int, entry: LogEntry, method: Method, worlds: int, values: list[MoveValue]
) -> DecisionAnalysis:
    ordered = tuple(sorted(values, key=lambda entry: -entry.value))
    return DecisionAnalysis(
        index + 1, entry.round, entry.turn, entry.seat, entry.move, method, worlds, ordered
    )


def _from_exact(move: Move, value: ExactValue) -> MoveValue:
    return MoveValue(move, value.value, value.wins_at_once, value.loses_at_once)


def _searched(
    view: View, legal: Sequence[Move], played: Move, seed: int, settings: AnalysisSettings
) -> tuple[dict[Move, float], int]:
    """The search's value of each decision it compared (the judge's best and ``played``)
    and the number of worlds they were played in (each world under all of them)."""
    compared = _compared(view, legal, played, settings.root_candidates)
    seconds = settings.seconds if settings.seconds is not None else UNCAPPED
    values = _search(view, legal, played, seed, settings, seconds, settings.worlds * compared)
    if played not in values:
        # The time cap fitted not one world: a few, however long they take.
        values = _search(view, legal, played, seed, settings, UNCAPPED, FEW_WORLDS * compared)
    worlds = min(visits for visits, _ in values.values())
    return {move: value for move, (_, value) in values.items()}, worlds


def _compared(view: View, legal: Sequence[Move], played: Move, candidates: int) -> int:
    """How many decisions the search compares: all of them on the last turn, else the
    judge's best ``candidates`` and ``played``."""
    if view.deck_size < SEARCH_EXACT_TURNS:
        return len(legal)
    ranked = best_first(legal, _judge().scores(view, legal))[:candidates]
    return len(ranked) + (played not in ranked)


def _search(
    view: View,
    legal: Sequence[Move],
    played: Move,
    seed: int,
    settings: AnalysisSettings,
    seconds: float,
    playouts: int,
) -> dict[Move, tuple[int, float]]:
    """``ismcts``'s visits and value of each decision it compared, after ``playouts``
    playouts or ``seconds``."""
    config = replace(
        DEFAULT_CONFIG,
        compiled=True,
        root_candidates=settings.root_candidates,
        exact_turns=SEARCH_EXACT_TURNS,
        inference=settings.inference,
    )
    bot = ISMCTSBot(seed, budget=seconds, iterations=playouts, config=config)
    return bot.evaluate(view, legal, (played,))


@cache
def _judge() -> GreedyBot:
    return GreedyBot(compiled=True)


@cache
def _opponent(inference: bool) -> Opponent:
    """The model that weighs worlds in exact values, as the search's inference does."""
    return judge_model() if inference else None
