"""The engine protocol: its lines, the knowledge an engine rebuilds from them, what it
may never be told, and external engines run as separate processes."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import io
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.bots import Bot, make_bot
from hanamikoji.bots.levels import LEVELS
from hanamikoji.core import GEISHAS, Game, Move, Phase, View
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.engine_cli import engine_bot
from hanamikoji.notation.records import RESIGNED
from hanamikoji.protocol import (
    EngineError,
    EngineFailure,
    ExternalEngineBot,
    GameObserver,
    KnowledgeTracker,
    NarrationError,
    Narrator,
    ProtocolError,
    forfeit_of,
    serve,
)
from hanamikoji.protocol.messages import (
    DealEvent,
    DrawEvent,
    Event,
    GameOverEvent,
    MoveEvent,
    NewGame,
    ScoreEvent,
    format_event,
    parse_event,
    parse_go,
    parse_new_game,
)

ROOT = Path(__file__).resolve().parent.parent
ENGINES = Path(__file__).resolve().parent / "engines"
FIRST_LEGAL = [sys.executable, str(ENGINES / "first_legal_engine.py")]
OUR_ENGINE = [sys.executable, "-m", "hanamikoji.interfaces.engine_cli"]
VARIANTS = ["classic", "three-rounds", "french", "classic/cap=2"]
LETTERS = "ABCDEFG"
# Generous: a loaded machine must not turn a slow start into a failed test.
STARTUP = 30.0
GRACE = 5.0


def misbehaving(mode: str, after: int = 0) -> list[str]:
    return [sys.executable, str(ENGINES / "misbehaving_engine.py"), mode, str(after)]


def random_game(seed: int) -> Game:
    rng = random.Random(seed)
    return Game(rng.choice(VARIANTS), seed=seed, first_player=rng.randrange(2))


def random_line(game: Game, rng: random.Random) -> Iterator[Game]:
    """The game before every decision and once it is over, random decisions between."""
    while True:
        yield game
        if game.is_over():
            return
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])


def tracker_for(narrator: Narrator) -> KnowledgeTracker:
    start = parse_new_game(narrator.new_game().line())
    return KnowledgeTracker(start.variant, start.seat, start.first)


def comparable(real: View) -> View:
    """The real view as a tracker can know it: a finished game's view shows everything
    (the opponent's hidden decisions in the log, and the reveal), which the protocol
    never sends."""
    if real.phase != Phase.OVER:
        return real
    log = tuple(
        entry if entry.seat == real.player else dataclasses.replace(entry, move=entry.move.public())
        for entry in real.log
    )
    return dataclasses.replace(real, log=log, reveal=None)


def play(game: Game, bots: Sequence[Bot]) -> None:
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat), game.legal_moves))
    for seat, bot in enumerate(bots):
        if isinstance(bot, GameObserver):
            bot.game_over(game.view(seat))


def group_is_gone(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


# -- lines ----------------------------------------------------------------------------------


EVENTS: list[Event] = [
    DealEvent(1, 0, (0, 0, 3, 4, 5, 6)),
    DealEvent(12, 1, (5, 6, 6, 6, 6, 6)),
    DrawEvent(6),
    MoveEvent(0, Move.from_text("S:D")),
    MoveEvent(1, Move.from_text("S")),
    MoveEvent(1, Move.from_text("T")),
    MoveEvent(0, Move.from_text("C:AB/FG")),
    MoveEvent(1, Move.from_text("C>FG")),
    MoveEvent(1, Move.from_text("G>D")),
    ScoreEvent(3, (6, 0), (None, 0, 1, None, 1, 1, 0)),
    GameOverEvent("1/2-1/2", "shared-win"),
    GameOverEvent("0-1", "forfeit"),
]


@pytest.mark.parametrize("event", EVENTS, ids=format_event)
def test_event_lines_read_back(event: Event) -> None:
    assert parse_event(format_event(event)) == event
    assert parse_event("  " + format_event(event) + " \r\n") == event


def test_commands_read_back() -> None:
    start = NewGame("three-rounds/cap=2", 1, 0)
    assert start.line() == "newgame variant three-rounds/cap=2 seat 2 first 1"
    assert parse_new_game(start.line()) == start
    assert parse_go("go").movetime_ms is None
    assert parse_go("go movetime 250").movetime_ms == 250


@pytest.mark.parametrize(
    "line",
    [
        "",
        "deal round 1 starter 3 hand AABBCC",
        "deal round 0 starter 1 hand AABBCC",
        "deal round 1 hand AABBCC",
        "deal round 1 starter 1 hand AXBBCC",
        "draw",
        "draw AB",
        "move 1",
        "move 0 S:A",
        "move 1 Q:AB",
        "move 1 G:AB",
        "score round 1 secrets A B favor 1..2..",
        "score round 1 secrets A B favor 1..2..3",
        "score round 1 secret A B favor 1..2...",
        "gameover 2-0 charm",
        "gameover 1-0",
        "bestmove S:A",
    ],
)
def test_malformed_lines_are_refused(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_event(line)


@pytest.mark.parametrize(
    ("line", "parse"),
    [
        ("newgame variant classic seat 1", parse_new_game),
        ("newgame variant classic first 1 seat 2", parse_new_game),
        ("go movetime", parse_go),
        ("go movetime 0", parse_go),
        ("go depth 3", parse_go),
    ],
)
def test_malformed_commands_are_refused(line: str, parse: Callable[[str], object]) -> None:
    with pytest.raises(ProtocolError):
        parse(line)


# -- the knowledge an engine rebuilds ---------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_tracker_view_equals_the_real_view_after_every_decision(seed: int) -> None:
    """Narrated after every decision of either seat, through the text of the lines, each
    seat's tracker holds exactly the view ``Game.view`` gives that seat."""
    rng = random.Random(seed)
    game = random_game(seed)
    narrators = [Narrator(game.view(seat)) for seat in (0, 1)]
    trackers = [tracker_for(narrator) for narrator in narrators]
    for position in random_line(game, rng):
        for seat in (0, 1):
            real = position.view(seat)
            for event in narrators[seat].narrate(real):
                trackers[seat].apply(parse_event(format_event(event)))
            tracked = trackers[seat].view()
            assert tracked == comparable(real)
            if real.my_turn:
                assert trackers[seat].must_decide()
                assert tracked.legal_moves == position.legal_moves
            else:
                assert not trackers[seat].must_decide()


@pytest.mark.parametrize("seed", range(40))
def test_tracker_view_equals_the_real_view_at_the_seats_own_decisions(seed: int) -> None:
    """A bot is only asked at its own decisions, and so only then narrates: that is
    enough for the tracker to be exact, draws and the next round's hand included."""
    rng = random.Random(seed)
    game = random_game(seed)
    narrators = [Narrator(game.view(seat)) for seat in (0, 1)]
    trackers = [tracker_for(narrator) for narrator in narrators]
    for position in random_line(game, rng):
        for seat in (0, 1):
            real = position.view(seat)
            if not (real.my_turn or position.is_over()):
                continue
            for event in narrators[seat].narrate(real):
                trackers[seat].apply(parse_event(format_event(event)))
            tracked = trackers[seat].view()
            assert tracked == comparable(real)
    for seat in (0, 1):
        outcome = trackers[seat].view().outcome
        assert outcome == game.outcome


def test_a_narrator_refuses_a_view_of_another_game_or_seat() -> None:
    game = Game(seed=5, first_player=0)
    narrator = Narrator(game.view(0))
    narrator.narrate(game.view(0))
    game.push(game.legal_moves[0])
    narrator.narrate(game.view(0))
    assert narrator.follows(game.view(0))
    assert not narrator.follows(game.view(1))
    assert not narrator.follows(Game(seed=6).view(0))
    with pytest.raises(NarrationError):
        narrator.narrate(Game(seed=6, first_player=0).view(0))


def test_a_narrator_needs_every_decision_of_its_seat() -> None:
    game = Game(seed=5, first_player=0)
    narrator = Narrator(game.view(0))
    rng = random.Random(1)
    for _ in range(4):
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])
    with pytest.raises(NarrationError, match="acted in round 1"):
        narrator.narrate(game.view(0))


def started_tracker(lines: Sequence[str], seat: int = 0, first: int = 0) -> KnowledgeTracker:
    tracker = KnowledgeTracker("classic", seat, first)
    for line in lines:
        tracker.apply(parse_event(line))
    return tracker


@pytest.mark.parametrize(
    ("lines", "bad", "why"),
    [
        ([], "draw A", "start of this seat's turn"),
        ([], "deal round 2 starter 2 hand AABBCC", "round 1"),
        ([], "deal round 1 starter 2 hand AABBCC", "started by seat 1"),
        ([], "deal round 1 starter 1 hand AAABCC", "more copies"),
        (["deal round 1 starter 1 hand AABBCC"], "move 1 S:A", "draw must come"),
        (["deal round 1 starter 1 hand AABBCC"], "draw A", "cannot still be in the deck"),
        (["deal round 1 starter 1 hand AABBCC", "draw G"], "move 2 S", "decides now"),
        (["deal round 1 starter 1 hand AABBCC", "draw G"], "move 1 S:D", "not a legal"),
        (["deal round 1 starter 1 hand AABBCC", "draw G"], "move 1 G>A", "nothing is on offer"),
        (
            ["deal round 1 starter 1 hand AABBCC", "draw G", "move 1 S:G"],
            "move 2 G:AAG",
            "knows are elsewhere",
        ),
        (
            ["deal round 1 starter 1 hand AABBCC", "draw G", "move 1 G:ABC"],
            "move 2 G>D",
            "does not answer",
        ),
        (
            ["deal round 1 starter 1 hand AABBCC", "draw G", "move 1 S:G", "move 2 S"],
            "score round 1 secrets G A favor .......",
            "after a round's eighth turn",
        ),
    ],
)
def test_tracker_refuses_events_that_do_not_fit(lines: list[str], bad: str, why: str) -> None:
    tracker = started_tracker(lines)
    with pytest.raises(ProtocolError, match=why):
        tracker.apply(parse_event(bad))


def test_tracker_checks_the_score_against_the_round() -> None:
    game = Game(seed=11, first_player=0)
    narrator = Narrator(game.view(0))
    tracker = tracker_for(narrator)
    rng = random.Random(2)
    while game.round == 1:
        for event in narrator.narrate(game.view(0)):
            tracker.apply(event)
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])
    events = narrator.narrate(game.view(0))
    score = next(event for event in events if isinstance(event, ScoreEvent))
    for event in events[: events.index(score)]:
        tracker.apply(event)
    wrong = list(score.favor)
    wrong[0] = 1 if wrong[0] == 0 else 0
    with pytest.raises(ProtocolError, match="favor"):
        tracker.apply(dataclasses.replace(score, favor=tuple(wrong)))
    other = next(card for card in range(7) if card != score.secrets[0])
    with pytest.raises(ProtocolError, match="Secret"):
        tracker.apply(dataclasses.replace(score, secrets=(other, score.secrets[1])))
    tracker.apply(score)


def test_a_game_ended_outside_the_rules_has_no_outcome() -> None:
    tracker = started_tracker(["deal round 1 starter 1 hand AABBCC", "draw G"])
    tracker.apply(parse_event("gameover 0-1 forfeit"))
    view = tracker.view()
    assert view.phase == Phase.OVER
    assert view.outcome is None
    assert not tracker.must_decide()
    with pytest.raises(ProtocolError, match="over"):
        tracker.apply(parse_event("move 1 S:A"))


# -- what an engine may never be told ---------------------------------------------------------


def check_information(lines: Sequence[str], game: Game, seat: int) -> None:
    """The lines sent to ``seat`` in a finished ``game`` tell it, round by round, exactly
    the cards it may see: its dealt hand and draws, the opponent's Gifts and
    Competitions, and the opponent's Secret once scored; never the removed card or the
    opponent's Trade-off (which the other 21 - 3 cards leave out, as multisets)."""
    them = str(2 - seat)
    reveal = game.reveal()
    seen: dict[int, Counter[str]] = {}
    number = 0
    for line in lines:
        words = line.split()
        if words[0] == "deal":
            number = int(words[2])
            seen[number] = Counter(words[6])
        elif words[0] == "draw":
            seen[number][words[1]] += 1
        elif words[0] == "move" and words[1] == them:
            decision = words[2]
            if decision[0] in "ST" and ">" not in decision:
                assert decision in ("S", "T"), f"the opponent's hidden action shown: {line}"
            elif ":" in decision:
                seen[number].update(decision[2:].replace("/", ""))
        elif words[0] == "score":
            assert int(words[2]) == number
            seen[number][words[4 + (1 - seat)]] += 1
    assert sorted(seen) == list(range(1, len(reveal.rounds) + 1))
    for hidden in reveal.rounds:
        everything = Counter({g.letter: g.charm for g in GEISHAS})
        everything[LETTERS[hidden.deal.removed]] -= 1
        everything.subtract(LETTERS[card] for card in hidden.tradeoffs[1 - seat])
        assert seen[hidden.round] == +everything, f"round {hidden.round}"


@pytest.mark.parametrize("seed", range(60))
def test_narration_tells_each_seat_only_what_it_may_know(seed: int) -> None:
    rng = random.Random(seed)
    game = random_game(seed)
    narrators = [Narrator(game.view(seat)) for seat in (0, 1)]
    sent: list[list[str]] = [[], []]
    for position in random_line(game, rng):
        for seat in (0, 1):
            sent[seat].extend(format_event(e) for e in narrators[seat].narrate(position.view(seat)))
    outcome = game.outcome
    assert outcome is not None
    for seat in (0, 1):
        check_information(sent[seat], game, seat)
        assert sent[seat][-1] == f"gameover {outcome.result()} {outcome.termination.value}"


# -- our engine side, in process ---------------------------------------------------------------


def served(lines: Sequence[str], bot: Bot | None = None) -> list[str]:
    out = io.StringIO()
    serve(bot or make_bot("random", seed=1), io.StringIO("\n".join(lines) + "\n"), out, "t")
    return out.getvalue().splitlines()


def test_engine_handshake_and_readiness() -> None:
    assert served(["hmp 1", "isready", "quit", "isready"]) == [
        "id name t",
        "id author the hanamikoji project",
        "hmpok",
        "readyok",
    ]


def test_engine_explains_what_it_cannot_do() -> None:
    answers = served(
        [
            "go",
            "newgame variant classic seat 2 first 1",
            "deal round 1 starter 1 hand AABBCC",
            "go movetime 50",
            "frobnicate",
            "setoption name Hash value 1",
            "move 2 S:A",
            "go",
        ]
    )
    assert answers[:2] == ["info string cannot decide: no game has begun", "bestmove none"]
    assert answers[2:4] == [
        "info string cannot decide: it is not this engine's decision",
        "bestmove none",
    ]
    assert answers[4] == "info string unknown command: frobnicate"
    assert answers[5].startswith("info string no such option")
    assert answers[6].startswith("info string error: 'move 2 S:A'")
    assert answers[7].startswith("info string cannot decide: 'move 2 S:A'")
    assert answers[8] == "bestmove none"


class BudgetRecorder(Bot):
    """Plays its first legal decision and notes the budget it was given for it."""

    name = "recorder"

    def __init__(self, budget: float | None) -> None:
        super().__init__(budget=budget)
        self.budgets: list[float | None] = []

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        self.budgets.append(self.budget)
        return legal[0]


@pytest.mark.parametrize(
    ("own", "go", "expected"),
    [(5.0, "go movetime 1000", 0.8), (0.5, "go movetime 1000", 0.5), (None, "go", None)],
)
def test_engine_budget_follows_movetime(own: float | None, go: str, expected: float | None) -> None:
    bot = BudgetRecorder(own)
    lines = ["newgame variant classic seat 1 first 1", "deal round 1 starter 1 hand AABBCC"]
    assert served([*lines, "draw G", go], bot) == ["bestmove S:A"]
    assert bot.budgets == [pytest.approx(expected) if expected else None]
    assert bot.budget == own


def example_session() -> list[str]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    marker = text.index("<!-- example-session")
    block = re.search(r"```\n(.*?)```", text[marker:], re.DOTALL)
    assert block is not None
    return block.group(1).splitlines()


def test_documented_example_session_is_a_legal_game() -> None:
    session = example_session()
    tracker: KnowledgeTracker | None = None
    asked = False
    for line in session:
        direction, text = line[:2], line[2:]
        word = text.split()[0]
        if direction == "> " and word == "newgame":
            start = parse_new_game(text)
            tracker = KnowledgeTracker(start.variant, start.seat, start.first)
        elif direction == "> " and word == "go":
            assert tracker is not None and tracker.must_decide()
            asked = True
        elif direction == "> " and tracker is not None and word not in ("isready", "quit"):
            tracker.apply(parse_event(text))
        elif direction == "< " and word == "bestmove":
            assert tracker is not None and asked
            assert Move.from_text(text.split()[1]) in tracker.view().legal_moves
            asked = False
    assert tracker is not None
    assert tracker.view().outcome is not None
    handshake = served([s[2:] for s in session[:1]], make_bot("greedy", seed=1))
    assert handshake[1:] == [s[2:] for s in session[2:4]]


# -- external engines as separate processes ---------------------------------------------------


@pytest.mark.parametrize("engine_seat", [0, 1])
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_games_against_an_engine_not_written_with_this_package(
    engine_seat: int, opponent: str
) -> None:
    with ExternalEngineBot(FIRST_LEGAL, 1.0, grace_seconds=GRACE, startup_seconds=STARTUP) as ext:
        pids = set()
        for seed in range(4):
            game = Game(VARIANTS[seed], seed=seed, first_player=seed % 2)
            bots: list[Bot] = [make_bot(opponent, seed=seed)] * 2
            bots[engine_seat] = ext
            play(game, bots)
            assert game.is_over()
            assert ext.engine_name == "first-legal"
            assert ext.name == "first-legal"
            check_information(
                [line[2:] for line in ext.transcript if line.startswith("> ")], game, engine_seat
            )
            assert ext.pid is not None
            pids.add(ext.pid)
        assert len(pids) == 1, "one engine process serves game after game"
    assert group_is_gone(pids.pop())


def test_our_engine_plays_through_the_protocol() -> None:
    """``hanamikoji engine`` run as a process against itself: full games."""
    greedy, search = (
        ExternalEngineBot(
            [*OUR_ENGINE, "--level", str(level), "--seed", str(level)],
            0.1,
            grace_seconds=GRACE,
            startup_seconds=STARTUP,
        )
        for level in (6, 7)
    )
    with greedy, search:
        for seed in range(3):
            game = Game(VARIANTS[seed], seed=seed, first_player=seed % 2)
            bots = [greedy, search] if seed % 2 else [search, greedy]
            play(game, bots)
            assert game.is_over()
        assert greedy.engine_name == "hanamikoji greedy level 6"
        assert search.engine_name == "hanamikoji ismcts level 7"
        pids = (greedy.pid, search.pid)
    assert all(pid is not None and group_is_gone(pid) for pid in pids)


@pytest.mark.parametrize(
    ("mode", "after", "failure", "detail"),
    [
        ("sleep", 2, EngineFailure.TIMEOUT, "no bestmove within 200 ms and 0.5 s of grace"),
        ("crash", 3, EngineFailure.CRASH, "exited with code 3"),
        ("illegal", 1, EngineFailure.ILLEGAL, "is not a legal decision"),
        ("garbage", 0, EngineFailure.MALFORMED, "hello, I am not an engine"),
        ("badmove", 2, EngineFailure.MALFORMED, "'X:YZ'"),
        ("mute", 0, EngineFailure.TIMEOUT, "no hmpok within 1 s"),
        ("exit", 0, EngineFailure.CRASH, "exited with code 1"),
    ],
)
def test_a_misbehaving_engine_loses_with_the_reason(
    mode: str, after: int, failure: EngineFailure, detail: str
) -> None:
    startup = 1.0 if mode == "mute" else STARTUP
    grace = 0.5 if mode == "sleep" else GRACE
    ext = ExternalEngineBot(
        misbehaving(mode, after), 0.2, grace_seconds=grace, startup_seconds=startup
    )
    game = Game(seed=9, first_player=0)
    with pytest.raises(EngineError) as caught:
        play(game, [ext, make_bot("random", seed=1)])
    error = caught.value
    assert isinstance(error, RuntimeError)
    assert error.failure == failure
    assert error.reason == failure.value
    assert detail in str(error)
    if mode in ("crash", "exit"):
        assert "misbehaving engine:" in " ".join(error.stderr)
    assert not ext.running
    assert ext.pid is not None and group_is_gone(ext.pid)
    ext.close()


def test_an_engine_may_resign_and_lives_on_to_hear_the_end() -> None:
    """``resign`` answering a ``go``: the seat loses by resignation (the forfeit a
    person's resignation is), and the engine is not killed: it hears ``gameover``."""
    with ExternalEngineBot(
        misbehaving("resign", 2), 0.5, grace_seconds=GRACE, startup_seconds=STARTUP
    ) as ext:
        game = Game(seed=9, first_player=0)
        with pytest.raises(EngineError) as caught:
            play(game, [ext, make_bot("random", seed=1)])
        assert caught.value.failure is EngineFailure.RESIGNED
        assert ext.running
        forfeit = forfeit_of(0, caught.value)
        assert (forfeit.kind, forfeit.reason, forfeit.result) == (RESIGNED, "", "0-1")
        ext.game_over(game.view(0), result=forfeit.result, reason=forfeit.kind)
        assert ext.transcript[-1] == "> gameover 0-1 resigned"


def test_after_a_failure_the_next_game_gets_a_fresh_engine() -> None:
    with ExternalEngineBot(
        misbehaving("crash", 2), 0.5, grace_seconds=GRACE, startup_seconds=STARTUP
    ) as ext:
        first_pid = None
        for seed in (1, 2):
            game = Game(seed=seed, first_player=0)
            with pytest.raises(EngineError, match="crash"):
                play(game, [ext, make_bot("random", seed=seed)])
            # The engine answered two decisions of this game before crashing.
            assert sum(1 for line in ext.transcript if line.startswith("< bestmove")) == 2
            if first_pid is None:
                first_pid = ext.pid
        assert ext.pid != first_pid


def test_close_kills_an_engine_that_ignores_quit() -> None:
    ext = ExternalEngineBot(misbehaving("stubborn"), 0.5, startup_seconds=STARTUP)
    ext.start()
    assert ext.running and ext.pid is not None
    pid = ext.pid
    ext.close()
    ext.close()
    assert group_is_gone(pid)


def test_the_same_decision_may_be_asked_twice() -> None:
    game = Game(seed=4, first_player=1)
    game.push(game.legal_moves[0])
    with ExternalEngineBot(FIRST_LEGAL, 1.0, grace_seconds=GRACE, startup_seconds=STARTUP) as ext:
        first = ext.choose(game.view(0), game.legal_moves)
        again = ext.choose(game.view(0), game.legal_moves)
        assert first == again
        assert sum(1 for line in ext.transcript if line.startswith("> newgame")) == 1
        assert sum(1 for line in ext.transcript if line.startswith("> deal")) == 1


def test_a_forfeit_is_told_as_such() -> None:
    game = Game(seed=4, first_player=0)
    with ExternalEngineBot(FIRST_LEGAL, 1.0, grace_seconds=GRACE, startup_seconds=STARTUP) as ext:
        game.push(ext.choose(game.view(0), game.legal_moves))
        with pytest.raises(ValueError, match="result"):
            ext.game_over(game.view(0))
        ext.game_over(game.view(0), result="1-0", reason="forfeit")
        assert ext.transcript[-2:] == [f"> move 1 {game.move_stack[0]}", "> gameover 1-0 forfeit"]
        # The next decision is a new game.
        fresh = Game(seed=5, first_player=0)
        ext.choose(fresh.view(0), fresh.legal_moves)
        assert ext.transcript[0].startswith("> newgame")


def test_a_missing_program_is_a_crash() -> None:
    ext = ExternalEngineBot([str(ENGINES / "no-such-engine")], 0.5)
    game = Game(seed=1)
    with pytest.raises(EngineError, match="cannot start") as caught:
        ext.choose(game.view(game.round_starter), game.legal_moves)
    assert caught.value.failure == EngineFailure.CRASH


def test_engine_bot_arguments_are_checked() -> None:
    with pytest.raises(ValueError):
        ExternalEngineBot("", 1.0)
    with pytest.raises(ValueError):
        ExternalEngineBot("engine", 0)
    assert ExternalEngineBot("my-engine --fast 'a b'", 1.0).args == ["my-engine", "--fast", "a b"]


# -- the command ------------------------------------------------------------------------------


def run_engine_command(argv: list[str], stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_command(["engine", *argv], Streams(io.StringIO(stdin), out, err))
    return code, out.getvalue(), err.getvalue()


def test_engine_command_is_registered_and_serves() -> None:
    code, out, _ = run_engine_command(["--level", "1", "--seed", "3"], "hmp 1\nquit\n")
    assert code == 0
    assert out.splitlines()[0] == "id name hanamikoji random level 1"
    code, out, _ = run_engine_command(["--bot", "greedy", "--name", "mine"], "hmp 1\n")
    assert out.splitlines()[0] == "id name mine"


def test_engine_command_refuses_unknown_bots() -> None:
    code, out, err = run_engine_command(["--bot", "nobody"], "")
    assert code == 2
    assert out == ""
    assert "unknown bot 'nobody'" in err


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_the_engine_plays_each_difficulty_level(level: int) -> None:
    bot = engine_bot(argparse.Namespace(level=level, bot=None, seed=1, budget=None))
    assert bot.name == LEVELS[level].resolved_bot()
    if LEVELS[level].budget is not None:
        assert bot.budget == LEVELS[level].budget
    faster = engine_bot(argparse.Namespace(level=level, bot=None, seed=1, budget=0.05))
    assert faster.budget == 0.05


def test_a_forgotten_engine_is_killed_when_its_bot_is_collected() -> None:
    ext = ExternalEngineBot(FIRST_LEGAL, 0.5, startup_seconds=STARTUP)
    ext.start()
    pid = ext.pid
    assert pid is not None and not group_is_gone(pid)
    del ext
    gc.collect()
    assert group_is_gone(pid)
