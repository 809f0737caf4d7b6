"""The arena: statistics, duplicate seat-swapped matches, forfeits, backends and the CLI."""

from __future__ import annotations

import importlib.util
import io
import json
import math
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hanamikoji.arena import (
    MatchConfig,
    Plan,
    PlayerSpec,
    ProcessBackend,
    make_backend,
    players_from_names,
    run_plan,
)
from hanamikoji.arena.games import (
    DEFAULT_CONFIG,
    FORFEIT,
    Batch,
    GameResult,
    overtime_limit,
    play_batch,
)
from hanamikoji.arena.players import bot_seed, file_safe
from hanamikoji.arena.runner import RecordWriter
from hanamikoji.arena.stats import (
    PAIR_OUTCOMES,
    elo_difference,
    elo_interval,
    mean_interval,
    pair_distribution,
    pair_outcome,
    paired_comparison,
    score,
    wilson_interval,
)
from hanamikoji.arena.summary import TournamentSummary
from hanamikoji.bots import BOTS, Bot, RandomBot
from hanamikoji.core import Move, View
from hanamikoji.interfaces import arena_cli  # registers the subcommand
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.notation.records import GameRecord, read_record

# -- statistics against hand-computed values ------------------------------------------


def test_score_counts_draws_as_half_a_point() -> None:
    assert score(7, 2) == 8.0
    assert score(0, 3) == 1.5
    with pytest.raises(ValueError):
        score(-1, 0)


@pytest.mark.parametrize(
    ("points", "games", "low", "high"),
    [
        # centre (p + z²/2n) / (1 + z²/n), half-width z / (1 + z²/n) sqrt(p(1-p)/n + z²/4n²)
        (50, 100, 0.403832, 0.596168),
        (10, 20, 0.299298, 0.700702),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (15, 20, 0.531299, 0.888138),
        (7.5, 10, 0.442181, 0.919052),
    ],
)
def test_wilson_interval_matches_hand_computed_values(
    points: float, games: int, low: float, high: float
) -> None:
    got = wilson_interval(points, games)
    assert got[0] == pytest.approx(low, abs=1e-6)
    assert got[1] == pytest.approx(high, abs=1e-6)


def test_wilson_interval_refuses_impossible_scores() -> None:
    with pytest.raises(ValueError):
        wilson_interval(1, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


@given(st.integers(1, 2000), st.data())
def test_wilson_interval_solves_its_defining_quadratic(games: int, data: st.DataObject) -> None:
    points = data.draw(st.integers(0, 2 * games)) / 2
    rate, z = points / games, 1.959963984540054
    # The ends are the rates p with (rate - p)² = z² p (1 - p) / games.
    a, b = 1 + z * z / games, -(2 * rate + z * z / games)
    root = math.sqrt(b * b - 4 * a * rate * rate)
    low, high = wilson_interval(points, games)
    assert low == pytest.approx(max(0.0, (-b - root) / (2 * a)), abs=1e-9)
    assert high == pytest.approx(min(1.0, (-b + root) / (2 * a)), abs=1e-9)
    assert 0 <= low <= rate <= high <= 1
    # The same rate over four times the games is more certain.
    more = wilson_interval(4 * points, 4 * games)
    assert more[1] - more[0] < high - low


@pytest.mark.parametrize(
    ("rate", "elo"),
    # 400 log10(p / (1 - p)); 0.64 / 0.36 = 16 / 9 and 4 log10 2 - 2 log10 3 = 0.2498775.
    [(0.5, 0.0), (0.75, 190.848502), (0.25, -190.848502), (10 / 11, 400.0), (0.64, 99.9510)],
)
def test_elo_difference_matches_hand_computed_values(rate: float, elo: float) -> None:
    assert elo_difference(rate) == pytest.approx(elo, abs=1e-4)


@given(st.floats(-1500, 1500))
def test_elo_difference_inverts_the_expected_score(elo: float) -> None:
    expected = 1 / (1 + 10 ** (-elo / 400))
    assert elo_difference(expected) == pytest.approx(elo, abs=1e-6)


def test_a_clean_sweep_is_clamped_half_a_game_from_the_end() -> None:
    # 20-0 is taken as a rate of 1 - 1/(2 * 20) = 39/40: 400 log10(39/1).
    assert elo_difference(1.0, games=20) == pytest.approx(400 * math.log10(39))
    assert elo_difference(0.0, games=20) == pytest.approx(-400 * math.log10(39))
    assert elo_difference(0.6, games=20) == pytest.approx(elo_difference(0.6))
    with pytest.raises(ValueError):
        elo_difference(1.0)


def test_elo_interval_maps_the_ends_of_the_wilson_interval() -> None:
    low, high = elo_interval(15, 20)
    assert low == pytest.approx(400 * math.log10(0.531299 / 0.468701), abs=1e-3)
    assert high == pytest.approx(400 * math.log10(0.888138 / 0.111862), abs=1e-3)
    sweep_low, sweep_high = elo_interval(20, 20)
    assert sweep_high == pytest.approx(400 * math.log10(39))
    assert sweep_low < sweep_high


def test_a_paired_comparison_counts_the_games_where_the_results_differ() -> None:
    games = [(1.0, 1.0)] * 50 + [(1.0, 0.0)] * 12 + [(0.0, 1.0)] * 4 + [(0.0, 0.0)] * 34
    compared = paired_comparison(games)
    assert (compared.games, compared.first, compared.second) == (100, 62.0, 54.0)
    assert (compared.first_better, compared.second_better) == (12, 4)
    assert compared.difference == pytest.approx(0.08)
    # Per-game differences: 12 of +1, 4 of -1, 84 of 0: variance (16 - 100 * 0.08²) / 99.
    margin = 1.959963984540054 * math.sqrt((16 - 100 * 0.08**2) / 99 / 100)
    assert compared.interval == pytest.approx((0.08 - margin, 0.08 + margin))
    # Sign test: 2 P(X <= 4), X ~ Binomial(16, 1/2).
    assert compared.p_value == pytest.approx(2 * (1 + 16 + 120 + 560 + 1820) / 2**16)
    # Draws count half, and a half-point difference still counts as better.
    drawn = paired_comparison([(0.5, 0.0), (0.5, 0.5), (1.0, 0.5)])
    assert (drawn.first, drawn.second, drawn.first_better, drawn.second_better) == (2, 1, 2, 0)
    assert paired_comparison([(1.0, 1.0), (0.0, 0.0)]).p_value == 1.0
    with pytest.raises(ValueError, match="at least two games"):
        paired_comparison([(1.0, 0.0)])
    with pytest.raises(ValueError, match="not 2"):
        paired_comparison([(1.0, 0.0), (2.0, 0.0)])


@given(st.lists(st.floats(-1.0, 1.0), min_size=2, max_size=200))
def test_the_interval_of_a_mean_is_z_standard_errors_either_side(values: list[float]) -> None:
    mean, (low, high) = mean_interval(values)
    margin = 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))
    assert mean == pytest.approx(statistics.fmean(values), abs=1e-12)
    assert (low, high) == pytest.approx((mean - margin, mean + margin), abs=1e-9)


def test_the_interval_of_a_mean_needs_two_values() -> None:
    with pytest.raises(ValueError, match="at least two values"):
        mean_interval([0.5])


@given(st.lists(st.tuples(*[st.sampled_from([0.0, 0.5, 1.0])] * 2), min_size=2, max_size=300))
def test_a_paired_comparison_is_antisymmetric(games: list[tuple[float, float]]) -> None:
    compared = paired_comparison(games)
    swapped = paired_comparison([(second, first) for first, second in games])
    assert (swapped.first, swapped.second) == (compared.second, compared.first)
    assert (swapped.first_better, swapped.second_better) == (
        compared.second_better,
        compared.first_better,
    )
    assert swapped.difference == pytest.approx(-compared.difference)
    assert swapped.p_value == pytest.approx(compared.p_value)
    low, high = compared.interval
    assert low <= compared.difference <= high and 0.0 < compared.p_value <= 1.0
    assert compared.difference == pytest.approx((compared.first - compared.second) / len(games))


def test_pair_outcomes_of_a_seed_played_twice() -> None:
    assert pair_outcome(1, 1) == "2-0"
    assert pair_outcome(0.5, 1) == "1.5-0.5"
    assert pair_outcome(1, 0) == pair_outcome(0.5, 0.5) == "1-1"
    assert pair_outcome(0, 0) == "0-2"
    counts = pair_distribution([(1, 0), (0, 0), (0.5, 0)])
    assert list(counts) == list(PAIR_OUTCOMES)
    assert counts == {"2-0": 0, "1.5-0.5": 0, "1-1": 1, "0.5-1.5": 1, "0-2": 1}


# -- duplicate matches ------------------------------------------------------------------


def _pair(a: str, b: str) -> tuple[PlayerSpec, PlayerSpec]:
    first, second = players_from_names([a, b])
    return first, second


def _keys(games: Sequence[GameResult]) -> list[tuple[object, ...]]:
    return [game.outcome_key() for game in games]


@pytest.fixture(scope="module")
def random_vs_greedy() -> TournamentSummary:
    plan = Plan.match(*_pair("random", "greedy"), games=20, first_seed=40)
    return run_plan(plan, ProcessBackend(jobs=2))


def test_every_seed_is_played_twice_with_the_seats_swapped_on_the_same_deals(
    random_vs_greedy: TournamentSummary,
) -> None:
    match = random_vs_greedy.matches[0]
    assert len(match.games) == 20
    by_seed: dict[int, list[GameResult]] = {}
    for game in match.games:
        by_seed.setdefault(game.seed, []).append(game)
    assert sorted(by_seed) == list(range(40, 50))
    for seed, (first, second) in by_seed.items():
        assert (first.swapped, second.swapped) == (False, True)
        assert first.players == ("random", "greedy")
        assert second.players == ("greedy", "random")
        records = [GameRecord.from_text(game.record) for game in (first, second)]
        assert [record.seed for record in records] == [seed, seed]
        assert [record.players for record in records] == [first.players, second.players]
        replays = [record.replay() for record in records]
        assert replays[0].first_player == replays[1].first_player == seed % 2
        # Same seed, same first player: every round both games share is dealt alike.
        shared = min(len(replays[0].deals()), len(replays[1].deals()))
        assert replays[0].deals()[:shared] == replays[1].deals()[:shared]
        for game, replay in zip((first, second), replays, strict=True):
            assert replay.outcome is not None
            assert replay.outcome.winner == game.winner
            assert replay.outcome.termination.value == game.termination
            assert game.moves == tuple(str(move) for move in replay.move_stack)


def test_the_match_summary_counts_from_the_first_players_side(
    random_vs_greedy: TournamentSummary,
) -> None:
    match = random_vs_greedy.matches[0]
    assert match.wins + match.draws + match.losses == 20
    assert match.score == sum(game.points_of_a for game in match.games)
    assert match.interval == wilson_interval(match.score, 20)
    assert sum(match.pairs().values()) == 10
    assert match.timing("greedy").decisions == sum(
        game.timing[game.players.index("greedy")].decisions for game in match.games
    )


def test_a_match_is_reproducible_and_the_same_for_any_number_of_jobs(
    random_vs_greedy: TournamentSummary,
) -> None:
    plan = Plan.match(*_pair("random", "greedy"), games=20, first_seed=40)
    again = run_plan(plan, ProcessBackend(jobs=1))
    assert _keys(again.games()) == _keys(random_vs_greedy.games())


def test_batches_do_not_change_the_games() -> None:
    pair = _pair("random", "greedy")
    config = MatchConfig("three-rounds")
    whole = play_batch(Batch(config, 0, pair, (3, 4, 5)))
    parts = [game for seeds in ((3,), (4, 5)) for game in play_batch(Batch(config, 0, pair, seeds))]
    assert _keys(whole) == _keys(parts)


def test_one_deterministic_bot_against_itself_scores_one_game_of_each_pair() -> None:
    plan = Plan.match(*_pair("random", "random"), games=8)
    match = run_plan(plan, ProcessBackend(jobs=1)).matches[0]
    assert match.b == "random#2"
    # The bot in a seat has that seat's seed whoever it is: both games of a seed are the
    # very same game with the names swapped.
    assert match.pairs()["1-1"] == 4
    assert match.rate == 0.5
    for first, second in zip(match.games[::2], match.games[1::2], strict=True):
        assert first.moves == second.moves


def test_bot_seeds_depend_on_the_game_seed_and_the_seat() -> None:
    seeds = {bot_seed(game_seed, seat) for game_seed in range(50) for seat in (0, 1)}
    assert len(seeds) == 100


def test_a_round_robin_meets_every_pair_on_the_same_seeds() -> None:
    plan = Plan.round_robin(
        players_from_names(["random", "greedy", "random"]),
        games=4,
        first_seed=7,
        config=MatchConfig("french"),
    )
    summary = run_plan(plan, ProcessBackend(jobs=2))
    assert [(m.a, m.b) for m in summary.matches] == [
        ("random", "greedy"),
        ("random", "random#2"),
        ("greedy", "random#2"),
    ]
    for match in summary.matches:
        assert sorted({game.seed for game in match.games}) == [7, 8]
    standings = summary.standings()
    assert sorted(s.label for s in standings) == ["greedy", "random", "random#2"]
    assert sum(s.score for s in standings) == 12
    assert [s.rate for s in standings] == sorted((s.rate for s in standings), reverse=True)
    cell = summary.match("greedy", "random")
    versus = summary.match("random", "greedy")
    assert cell is not None and versus is not None
    assert cell[0] == pytest.approx(1 - versus[0])
    assert (cell[1], cell[2]) == pytest.approx((1 - versus[2], 1 - versus[1]))
    assert summary.match("greedy", "greedy") is None


def test_two_settings_of_one_bot_play_a_match_under_their_specs() -> None:
    code, out, err = _run(
        [
            *("arena", "ismcts:iterations=2", "ismcts:iterations=4,candidates=1"),
            *("--games", "2", "--jobs", "1", "--json", "--no-records", "--quiet"),
        ]
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["players"] == [
        {"label": "ismcts:iterations=2", "bot": "ismcts:iterations=2"},
        {"label": "ismcts:iterations=4,candidates=1", "bot": "ismcts:iterations=4,candidates=1"},
    ]
    assert data["matches"][0]["games"] == 2


def test_plans_check_their_games_and_labels() -> None:
    random_spec = PlayerSpec.bot_named("random")
    with pytest.raises(ValueError, match="even"):
        Plan.match(random_spec, PlayerSpec("other", "random"), games=3)
    with pytest.raises(ValueError, match="label"):
        Plan.match(random_spec, random_spec, games=2)
    with pytest.raises(ValueError, match="unknown bot"):
        PlayerSpec.bot_named("no-such-bot")
    with pytest.raises(ValueError, match="backend"):
        make_backend("threads")


# -- forfeits ---------------------------------------------------------------------------


class RaisingBot(Bot):
    name = "raises"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        raise RuntimeError("out of ideas")


class IllegalBot(Bot):
    """Answers a Gift when there is none to answer."""

    name = "illegal"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return Move.from_text("G>A")


class NotAMoveBot(Bot):
    name = "not-a-move"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return str(legal[0])  # type: ignore[return-value]


class TimeoutBot(Bot):
    name = "times-out"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        raise TimeoutError("no answer within 10 ms")


class LateRandomBot(RandomBot):
    """Random, but always slower than a 1 ms budget."""

    name = "late"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        time.sleep(0.01)
        return super().choose(view, legal)


def _failing_start(seed: int | None, budget: float | None) -> Bot:
    raise OSError("engine not found")


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, factory in (
        ("raises", RaisingBot),
        ("illegal", IllegalBot),
        ("not-a-move", NotAMoveBot),
        ("times-out", TimeoutBot),
        ("late", LateRandomBot),
        ("cannot-start", _failing_start),
    ):
        monkeypatch.setitem(BOTS, name, factory)


def _one_pair(bad: str, config: MatchConfig = DEFAULT_CONFIG) -> list[GameResult]:
    return play_batch(Batch(config, 0, _pair(bad, "random"), (5,)))


@pytest.mark.usefixtures("test_bots")
@pytest.mark.parametrize(
    ("bad", "kind", "reason"),
    [
        ("raises", "error", "RuntimeError: out of ideas"),
        ("illegal", "illegal", "illegal move G>A: there is no Gift or Competition to answer"),
        ("not-a-move", "illegal", "which is not a legal decision"),
        ("times-out", "timeout", "TimeoutError: no answer within 10 ms"),
        ("cannot-start", "error", "could not start: OSError: engine not found"),
    ],
)
def test_a_player_that_fails_loses_the_game_with_the_reason(
    bad: str, kind: str, reason: str
) -> None:
    for game in _one_pair(bad):
        bad_seat = game.players.index(bad)
        assert game.forfeit is not None
        assert game.forfeit.seat == bad_seat
        assert game.forfeit.kind == kind
        assert reason in game.forfeit.reason
        assert game.winner == 1 - bad_seat
        assert game.termination == FORFEIT
        assert game.points_of(bad_seat) == 0
        record = GameRecord.from_text(game.record)  # the record still replays
        assert record.result == "*"
        assert record.tag("ForfeitResult") == game.result
        forfeit_tag = record.tag("Forfeit")
        assert forfeit_tag is not None and kind in forfeit_tag and bad in forfeit_tag


@pytest.mark.usefixtures("test_bots")
def test_forfeits_count_as_losses_and_are_reported(tmp_path: Path) -> None:
    plan = Plan.match(*_pair("raises", "random"), games=4)
    summary = run_plan(plan, ProcessBackend(jobs=1))
    match = summary.matches[0]
    assert (match.wins, match.losses) == (0, 4)
    data = match.to_json()
    forfeits = data["forfeits"]
    assert isinstance(forfeits, list) and len(forfeits) == 4
    assert all(entry["player"] == "raises" for entry in forfeits)


@pytest.mark.usefixtures("test_bots")
def test_decisions_over_budget_are_counted_as_overtime_and_not_stopped() -> None:
    config = MatchConfig("classic/cap=1", budget=0.001)
    assert overtime_limit(0.001) < 0.01
    for game in _one_pair("late", config):
        late = game.timing[game.players.index("late")]
        assert game.forfeit is None
        assert late.decisions > 0
        assert late.overtime == late.decisions
        assert late.max >= 0.01
        fast = game.timing[1 - game.players.index("late")]
        assert fast.iterations is None


def test_search_bots_report_their_iterations() -> None:
    config = MatchConfig("classic/cap=1", budget=0.002)
    game = play_batch(Batch(config, 0, _pair("ismcts", "random"), (2,)))[0]
    iterations = game.timing[0].iterations
    assert iterations is not None and iterations > 0


# -- external engines -------------------------------------------------------------------

ENGINES = Path(__file__).resolve().parent / "engines"


def _engine_command(script: str, *arguments: str) -> str:
    return shlex.join([sys.executable, str(ENGINES / script), *arguments])


def test_an_external_engine_plays_a_match_from_its_command_line() -> None:
    engine = PlayerSpec.engine_command("first-legal", _engine_command("first_legal_engine.py"))
    plan = Plan.match(engine, PlayerSpec.bot_named("random"), games=4, first_seed=3)
    match = run_plan(plan, ProcessBackend(jobs=1)).matches[0]
    assert match.forfeits() == []
    for game in match.games:
        replay = GameRecord.from_text(game.record).replay()
        assert replay.outcome is not None and replay.outcome.winner == game.winner
    assert match.timing("first-legal").decisions > 0


@pytest.mark.parametrize(
    ("mode", "kind"), [("crash", "crash"), ("illegal", "illegal"), ("sleep", "timeout")]
)
def test_an_engine_that_fails_loses_with_its_failure(mode: str, kind: str) -> None:
    command = _engine_command("misbehaving_engine.py", mode, "2")
    engine = PlayerSpec.engine_command("bad", command)
    config = MatchConfig(budget=0.02)
    games = play_batch(Batch(config, 0, (engine, PlayerSpec.bot_named("random")), (1,)))
    for game in games:
        assert game.forfeit is not None
        assert game.forfeit.kind == kind
        assert game.players[game.forfeit.seat] == "bad"
        assert game.winner == 1 - game.forfeit.seat
    timing = games[0].timing[0]
    assert timing.decisions == 3  # two answers, then the failure


def test_an_engine_that_resigns_loses_by_resignation_in_the_record() -> None:
    command = _engine_command("misbehaving_engine.py", "resign", "2")
    engine = PlayerSpec.engine_command("quitter", command)
    games = play_batch(
        Batch(MatchConfig(budget=0.02), 0, (engine, PlayerSpec.bot_named("random")), (1,))
    )
    for game in games:
        assert game.forfeit is not None and game.forfeit.kind == "resigned"
        assert game.players[game.forfeit.seat] == "quitter"
        assert game.winner == 1 - game.forfeit.seat
        record = GameRecord.from_text(game.record)
        loser = f"Player {game.forfeit.seat + 1} (quitter)"
        assert record.tag("Forfeit") == f"{loser} resigned"
        assert record.forfeit is not None and record.forfeit.kind == "resigned"


def test_an_engine_that_cannot_start_loses_every_game() -> None:
    engine = PlayerSpec.engine_command("missing", str(ENGINES / "no-such-engine"))
    games = play_batch(Batch(DEFAULT_CONFIG, 0, (PlayerSpec.bot_named("random"), engine), (4,)))
    for game in games:
        assert game.forfeit is not None
        assert game.forfeit.kind == "crash"
        assert game.forfeit.reason.startswith("could not start")
        assert game.moves == ()


def test_a_player_is_either_a_bot_or_an_engine() -> None:
    with pytest.raises(ValueError):
        PlayerSpec("both", bot="random", engine="engine")
    with pytest.raises(ValueError):
        PlayerSpec("neither")
    with pytest.raises(ValueError, match="empty command"):
        PlayerSpec.engine_command("blank", "  ")
    assert PlayerSpec.engine_command("e", "run it").describe() == {"label": "e", "engine": "run it"}


# -- records and the command line -------------------------------------------------------


def test_record_files_name_the_seed_and_the_seat_order(tmp_path: Path) -> None:
    games = play_batch(Batch(MatchConfig("french"), 0, _pair("random", "greedy"), (12,)))
    writer = RecordWriter(tmp_path / "records")
    writer.write(games)
    assert sorted(p.name for p in writer.directory.iterdir()) == [
        "12-greedy-vs-random.hkr",
        "12-random-vs-greedy.hkr",
    ]
    record = read_record(writer.path_of(games[1]))
    assert record.players == ("greedy", "random")
    assert file_safe("a b/c#2") == "a_b_c_2"


def _run(argv: list[str]) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    code = run_command(argv, Streams(io.StringIO(), stdout, stderr))
    return code, stdout.getvalue(), stderr.getvalue()


def test_the_arena_command_prints_the_match_and_saves_every_record(tmp_path: Path) -> None:
    assert arena_cli.configure_arena is not None
    records = tmp_path / "match"
    code, out, err = _run(
        ["arena", "random", "greedy", "--games", "6", "--jobs", "1", "--records", str(records)]
    )
    assert code == 0, err
    assert "random vs greedy" in out
    assert "score rate [95%]" in out and "Elo [95%]" in out
    assert "Wilson" in out
    assert "Thinking time" in out
    assert f"Records: {records}" in out
    names = sorted(p.name for p in records.iterdir())
    assert len([n for n in names if n.endswith(".hkr")]) == 6
    assert "summary.json" in names
    summary = json.loads((records / "summary.json").read_text(encoding="utf-8"))
    assert summary["matches"][0]["games"] == 6


def test_the_paired_benchmark_compares_two_runs_on_the_same_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The greedy bot under a second name, then the random one, against greedy.
    for first, folder in (("greedy:budget=5", "a"), ("random", "b")):
        code, _, err = _run(
            [
                *("arena", first, "greedy", "--games", "8", "--seed", "40"),
                *("--jobs", "1", "--quiet", "--records", str(tmp_path / folder / "c0")),
            ]
        )
        assert code == 0, err
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "paired.py"
    spec = importlib.util.spec_from_file_location("paired_benchmark", script)
    assert spec is not None and spec.loader is not None
    paired = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(paired)
    paired.main([str(tmp_path / "a"), str(tmp_path / "b"), "--opponent", "greedy"])
    out = capsys.readouterr().out
    assert out.startswith("8 games paired (of 8 and 8) against greedy")
    assert "first  greedy:budget=5: " in out and "second random: " in out
    assert "sign test p = " in out
    with pytest.raises(SystemExit, match="'nobody' did not play"):
        paired.main([str(tmp_path / "a"), str(tmp_path / "b"), "--opponent", "nobody"])
    with pytest.raises(SystemExit, match=r"no \.hkr records"):
        paired.main([str(tmp_path / "empty"), str(tmp_path / "a"), "--opponent", "random"])


def test_the_arena_command_prints_json_for_machines(tmp_path: Path) -> None:
    code, out, err = _run(
        ["arena", "random", "greedy", "--games", "5", "--jobs", "2", "--json", "--no-records"]
    )
    assert code == 0, err
    assert "rounded up to 6" in err
    data = json.loads(out)
    assert data["kind"] == "match"
    assert data["games_per_pairing"] == 6
    assert data["records"] is None
    match = data["matches"][0]
    assert match["players"] == ["random", "greedy"]
    assert match["wins"] + match["draws"] + match["losses"] == 6
    low, high = match["interval"]
    assert low <= match["rate"] <= high
    assert set(match["timing"]) == {"random", "greedy"}


def test_the_arena_round_robin_prints_a_table_and_a_ranking() -> None:
    argv = ["arena", "--round-robin", "random", "greedy", "random", "--games", "2"]
    code, out, err = _run([*argv, "--jobs", "2", "--no-records", "--variant", "french"])
    assert code == 0, err
    assert "Round-robin" in out
    for label in ("vs random", "vs greedy", "vs random#2"):
        assert label in out
    code, out, err = _run([*argv, "--jobs", "1", "--no-records", "--json", "--quiet"])
    assert code == 0, err
    assert err == ""
    data = json.loads(out)
    assert data["kind"] == "round-robin"
    assert len(data["matches"]) == 3
    assert [s["player"] for s in data["standings"]] != []
    assert sum(s["score"] for s in data["standings"]) == 6


def test_the_arena_command_takes_engines_by_name() -> None:
    engine = "first=" + _engine_command("first_legal_engine.py")
    argv = ["arena", "first", "random", "--engine", engine, "--games", "2", "--json"]
    code, out, err = _run([*argv, "--no-records", "--jobs", "1"])
    assert code == 0, err
    data = json.loads(out)
    assert data["players"][0] == {"label": "first", "engine": engine.removeprefix("first=")}
    assert data["matches"][0]["forfeits"] == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "random", "greedy", "--engine", "e=cmd"], "the engine 'e' is not among"),
        (["arena", "e", "greedy", "--engine", "e=a", "--engine", "e=b"], "given twice"),
        (["arena", "random"], "two players"),
        (["arena", "random", "greedy", "ismcts"], "two players"),
        (["arena", "--round-robin", "random"], "at least two"),
        (["arena", "random", "nobody"], "unknown bot 'nobody'"),
        (["arena", "random", "ismcts:iterationz=3"], "ismcts has no option 'iterationz'"),
        (["arena", "random", "greedy", "--variant", "chess"], "unknown variant"),
    ],
)
def test_the_arena_command_refuses_bad_requests(argv: list[str], message: str) -> None:
    code, out, err = _run([*argv, "--no-records"])
    assert code == 2
    assert message in err
    assert out == ""


# -- sessions and single games -----------------------------------------------------------


def test_a_batch_that_is_not_duplicate_plays_each_seed_once() -> None:
    games = play_batch(Batch(MatchConfig("french"), 3, _pair("random", "greedy"), (4, 5), False))
    assert [(game.seed, game.swapped, game.players) for game in games] == [
        (4, False, ("random", "greedy")),
        (5, False, ("random", "greedy")),
    ]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_session_takes_batches_while_others_run(jobs: int) -> None:
    config = MatchConfig("french")
    backend = ProcessBackend(jobs)
    seen: dict[int, GameResult] = {}
    with backend.session() as session:
        session.submit(Batch(config, 0, _pair("random", "greedy"), (1,), False))
        session.submit(Batch(config, 1, _pair("greedy", "random"), (2,), False))
        while session.pending:
            (game,) = session.next_done()
            seen[game.pairing] = game
            if game.pairing == 0:  # a result decides the next batch
                session.submit(Batch(config, 2, _pair("random", "random"), (3,), False))
    assert sorted(seen) == [0, 1, 2]
    (alone,) = play_batch(Batch(config, 2, _pair("random", "random"), (3,), False))
    assert seen[2].outcome_key() == alone.outcome_key()  # the same game wherever it runs
