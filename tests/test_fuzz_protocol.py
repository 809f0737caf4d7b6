"""Fuzzing the engine protocol on both sides.

- The lines: ``parse_event``, ``parse_go`` and ``parse_new_game`` read a line or raise
  ``ProtocolError`` with a message; an event read writes back to itself.
- The engine's knowledge: a ``KnowledgeTracker`` in a reachable state either takes an
  event or refuses it with ``ProtocolError`` and stays as it was.
- Our engine (``serve``): a session of a real game with garbage lines put in, or lines
  deleted, repeated or edited, never raises; it answers every ``go`` with one
  ``bestmove`` and writes only engine lines; a line it does not know changes nothing it
  decides; and the next game, after ``newgame``, is played legally.
- The GUI side (``ExternalEngineBot``): an external engine that writes arbitrary bytes
  during the handshake or in answer to ``go`` makes ``choose`` return a legal decision or
  raise ``EngineError`` (``malformed`` or ``illegal``), and the next decision, with a
  fresh engine process, works.
"""

from __future__ import annotations

import io
import random
import re
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from fuzz_strategies import (
    NUMBER_TEXTS,
    VARIANT_NAMES,
    WELL_FORMED,
    fuzz_settings,
    fuzz_text,
    long_text,
    mutated,
)
from hypothesis import event, example, given
from hypothesis import strategies as st

from hanamikoji.bots import make_bot
from hanamikoji.core import Game, Move
from hanamikoji.protocol import (
    EngineError,
    EngineFailure,
    ExternalEngineBot,
    KnowledgeTracker,
    Narrator,
    ProtocolError,
    serve,
)
from hanamikoji.protocol.messages import (
    EVENT_WORDS,
    format_event,
    parse_event,
    parse_go,
    parse_new_game,
)

# -- sessions of real games -------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    """The lines a GUI sends to the engine of ``seat`` over one random game, and the
    decisions legal at each ``go``."""

    lines: tuple[str, ...]
    legal: tuple[tuple[Move, ...], ...]
    seat: int


def session(variant: str, seed: int, first: int, seat: int, play_seed: int) -> Session:
    game = Game(variant, seed=seed, first_player=first)
    rng = random.Random(play_seed)
    narrator: Narrator | None = None
    lines: list[str] = []
    legal: list[tuple[Move, ...]] = []
    while not game.is_over():
        moves = game.legal_moves
        if game.to_move == seat:
            view = game.view(seat)
            if narrator is None:
                narrator = Narrator(view)
                lines += [narrator.new_game().line(), "isready"]
            lines += [format_event(e) for e in narrator.narrate(view)]
            lines.append("go movetime 40")
            legal.append(moves)
        game.push(moves[rng.randrange(len(moves))])
    assert narrator is not None
    lines += [format_event(e) for e in narrator.narrate(game.view(seat))]
    return Session(tuple(lines), tuple(legal), seat)


SESSIONS = st.builds(
    session,
    st.sampled_from(VARIANT_NAMES),
    st.integers(0, 2**64 - 1),
    st.integers(0, 1),
    st.integers(0, 1),
    st.integers(0, 2**32),
)

_WORDS = [
    "hmp",
    "isready",
    "quit",
    "setoption",
    "newgame",
    "go",
    "deal",
    "draw",
    "move",
    "score",
    "gameover",
    "bestmove",
    "info",
    "round",
    "starter",
    "hand",
    "secrets",
    "favor",
    "movetime",
    "variant",
    "seat",
    "first",
    "name",
    "value",
    "1",
    "2",
]

PROTOCOL_LINES = st.one_of(
    fuzz_text(max_size=60).filter(lambda line: "\n" not in line),
    st.lists(
        st.one_of(
            st.sampled_from(_WORDS),
            WELL_FORMED,
            st.sampled_from(
                ["²", "١", "0", "-1", "9" * 400, "9" * 5000, "1/2-1/2", "1-0", "..12.21", ""]
            ),
        ),
        max_size=8,
    ).map(" ".join),
    long_text("hmp go 1 ").map(lambda line: line.replace("\n", " ")),
)
"""Lines of the protocol's words, decisions and numbers (some huge or in other scripts'
digits), and arbitrary text on one line."""

_SEAT = st.sampled_from("12")
_CARD = st.sampled_from("ABCDEFG")
_ROUND = st.integers(1, 4).map(str)
EVENT_LINES = st.one_of(
    st.builds(
        "deal round {} starter {} hand {}".format,
        _ROUND,
        _SEAT,
        st.text(alphabet="ABCDEFG", min_size=5, max_size=7),
    ),
    st.builds("draw {}".format, _CARD),
    st.builds("move {} {}".format, _SEAT, WELL_FORMED),
    st.builds(
        "score round {} secrets {} {} favor {}".format,
        _ROUND,
        _CARD,
        _CARD,
        st.text(alphabet="12.", min_size=7, max_size=7),
    ),
    st.builds(
        "gameover {} {}".format,
        st.sampled_from(["1-0", "0-1", "1/2-1/2"]),
        st.sampled_from(["charm", "forfeit"]),
    ),
)
"""Events that read, whether or not they fit the game."""

COMMAND_LINES = st.one_of(
    st.builds("go movetime {}".format, NUMBER_TEXTS),
    st.builds("deal round {} starter 1 hand AABBCC".format, NUMBER_TEXTS),
    st.builds("score round {} secrets A B favor 1.2..21".format, NUMBER_TEXTS),
    st.builds(
        "newgame variant {} seat {} first {}".format,
        st.one_of(st.sampled_from(VARIANT_NAMES), NUMBER_TEXTS.map("classic/cap={}".format)),
        _SEAT,
        _SEAT,
    ),
)
"""Lines with a number in them, any number."""


# -- the lines --------------------------------------------------------------------------------

_Parser = Callable[[str], object]


@fuzz_settings(800)
@given(
    st.sampled_from([parse_event, parse_go, parse_new_game]),
    st.one_of(
        PROTOCOL_LINES,
        EVENT_LINES,
        COMMAND_LINES,
        mutated(
            st.sampled_from(
                [
                    "go movetime 50",
                    "deal round 1 starter 2 hand ABDEFG",
                    "score round 2 secrets G A favor 1.2..21",
                    "newgame variant classic/cap=3 seat 1 first 2",
                    "move 2 C:AB/FG",
                    "gameover 1-0 charm",
                    "draw G",
                ]
            )
        ),
    ),
)
@example(parse_go, "go movetime ²")
@example(parse_go, "go movetime " + "9" * 5000)
@example(parse_event, "deal round ١ starter 1 hand AABBCC")
def test_lines_read_or_are_refused(parse: _Parser, line: str) -> None:
    try:
        value = parse(line)
    except ProtocolError as error:
        event("refused")
        assert str(error).strip()
        return
    event("read")
    assert value is not None
    if parse is parse_event:
        read = parse_event(line)
        assert parse_event(format_event(read)) == read


# -- the engine's knowledge -------------------------------------------------------------------


@st.composite
def trackers_and_lines(draw: st.DrawFn) -> tuple[KnowledgeTracker, str]:
    """A tracker that took the first events of a session, and a line in place of the
    next one: another event of the game, any event, an edit of an event, a decision of
    the seat that decides next, or a garbage line."""
    game = draw(SESSIONS)
    events = [line for line in game.lines if line.split()[0] in EVENT_WORDS]
    start = parse_new_game(game.lines[0])
    tracker = KnowledgeTracker(start.variant, start.seat, start.first)
    taken = draw(st.integers(0, len(events)))
    for line in events[:taken]:
        tracker.apply(parse_event(line))
    nearby = events[max(0, taken - 3) : taken + 4] or ["draw A"]
    seat = str(1 + (tracker.view().to_move or 0))
    line = draw(
        st.one_of(
            st.sampled_from(nearby),
            st.builds(f"move {seat} {{}}".format, WELL_FORMED),
            EVENT_LINES,
            mutated(st.sampled_from(nearby)),
            COMMAND_LINES,
            PROTOCOL_LINES,
        )
    )
    return tracker, line


def tracker_state(tracker: KnowledgeTracker) -> tuple[object, ...]:
    return (tracker.view(), tracker.phase, tracker.must_decide(), tracker.awaiting_draw)


@fuzz_settings(800)
@given(trackers_and_lines())
def test_a_tracker_takes_an_event_or_refuses_it_unchanged(
    case: tuple[KnowledgeTracker, str],
) -> None:
    tracker, line = case
    try:
        message = parse_event(line)
    except ProtocolError:
        event("not an event")
        return
    before = tracker_state(tracker)
    try:
        tracker.apply(message)
    except ProtocolError as error:
        event("refused")
        assert str(error).strip()
        assert tracker_state(tracker) == before
        return
    event("taken")
    tracker.view()  # a view can still be built


# -- our engine -------------------------------------------------------------------------------

_ENGINE_LINE = re.compile(
    r"id (name|author) .*|hmpok|readyok|bestmove (none|\S+)|info( .*)?", re.DOTALL
)
_KNOWN_WORDS = {"quit", "hmp", "isready", "setoption", "newgame", "go", *EVENT_WORDS}


def served(lines: list[str]) -> list[str]:
    out = io.StringIO()
    serve(make_bot("greedy", seed=1), io.StringIO("".join(f"{line}\n" for line in lines)), out)
    return out.getvalue().split("\n")[:-1]


def bestmoves(answers: list[str]) -> list[str]:
    return [line.split(" ", 1)[1] for line in answers if line.startswith("bestmove ")]


def answered_gos(lines: list[str]) -> int:
    """How many ``go`` lines ``serve`` must answer: those that read, up to ``quit``."""
    count = 0
    for line in lines:
        words = line.split()
        if words[:1] == ["quit"]:
            break
        if words[:1] == ["go"]:
            try:
                parse_go(line.strip())
            except ProtocolError:
                continue
            count += 1
    return count


@st.composite
def garbled_sessions(draw: st.DrawFn) -> tuple[list[str], Session, int | None]:
    """The lines of two sessions, the first with one line put in, deleted, repeated or
    edited; the second session; where a line was put in (else ``None``)."""
    first, second = draw(SESSIONS), draw(SESSIONS)
    lines = ["hmp 1", *first.lines]
    at = draw(st.integers(1, len(lines)))
    action = draw(st.sampled_from(["insert", "insert", "replace", "delete", "repeat"]))
    if action in ("insert", "replace"):
        near = st.sampled_from(lines[max(1, at - 2) : at + 2])
        line = draw(
            st.one_of(PROTOCOL_LINES, EVENT_LINES, COMMAND_LINES, mutated(near)).filter(
                lambda s: "\n" not in s
            )
        )
        lines[at : at + (action == "replace")] = [line]
    elif action == "delete":
        del lines[at : at + 1]
    else:
        lines[at:at] = lines[at - 1 : at]
    return [*lines, *second.lines, "quit"], second, at if action == "insert" else None


@fuzz_settings(300)
@given(garbled_sessions())
def test_our_engine_answers_every_go_and_recovers(
    case: tuple[list[str], Session, int | None],
) -> None:
    lines, second, inserted = case
    answers = served(lines)
    for answer in answers:
        assert _ENGINE_LINE.fullmatch(answer), answer
    for text in bestmoves(answers):
        if text != "none":
            Move.from_text(text)
    assert len(bestmoves(answers)) == answered_gos(lines)
    if any(line.split()[:1] == ["quit"] for line in lines[:-1]):
        return
    # The second game, after its newgame, is played legally whatever came before.
    tail = bestmoves(answers)[-len(second.legal) :]
    for text, legal in zip(tail, second.legal, strict=True):
        assert Move.from_text(text) in legal, (text, legal)
    words = [] if inserted is None else lines[inserted].split()
    if inserted is not None and (not words or words[0] not in _KNOWN_WORDS):
        # A blank line or an unknown command changes nothing the engine decides.
        event("blank line or unknown command put in")
        clean = served(lines[:inserted] + lines[inserted + 1 :])
        assert bestmoves(answers) == bestmoves(clean)
        if words:
            assert f"info string unknown command: {lines[inserted].strip()}" in answers


# -- the GUI side -----------------------------------------------------------------------------

SCRIPTED_ENGINE = textwrap.dedent(
    """
    import pathlib, sys
    folder, answer = pathlib.Path(sys.argv[1]), sys.argv[2].encode()
    fresh = not (folder / "started").exists()
    (folder / "started").touch()
    handshake = (folder / "handshake").read_bytes() if fresh else b""
    reply = (folder / "reply").read_bytes() if fresh else b""
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        head = (line.split() or [b""])[0]
        if head == b"hmp":
            out.write(handshake + b"\\nid name scripted\\nhmpok\\n")
        elif head == b"isready":
            out.write(b"readyok\\n")
        elif head == b"go":
            out.write(reply + b"\\nbestmove " + answer + b"\\n")
        elif head == b"quit":
            break
        out.flush()
    """
)
"""An engine (``python -c SCRIPTED_ENGINE FOLDER ANSWER``) that plays ``ANSWER`` at
every ``go``; its first process writes the bytes of ``FOLDER/handshake`` before
``hmpok`` and those of ``FOLDER/reply`` before each ``bestmove``, later processes
(after the first one was killed) do not."""


def gui_lines(data: bytes) -> list[str]:
    """The non-empty lines the GUI reads from these bytes of engine output."""
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    return [text for line in stream if (text := line.rstrip("\r\n").strip())]


ENGINE_BYTES = st.one_of(
    st.binary(max_size=40),
    PROTOCOL_LINES.map(lambda line: line.encode("utf-8", "surrogatepass")),
    st.lists(
        st.one_of(
            st.sampled_from(["info", "info string x", "bestmove", "bestmove none", "hmpok", ""]),
            WELL_FORMED.map("bestmove {}".format),
            st.builds("bestmove {} {}".format, WELL_FORMED, WELL_FORMED),
        ),
        max_size=3,
    ).map(lambda lines: "\n".join(lines).encode()),
)


@st.composite
def positions(draw: st.DrawFn) -> Game:
    """A game at a seat's first decision: the first turn, or an answer to the first Gift
    or Competition."""
    game = Game(draw(st.sampled_from(VARIANT_NAMES)), seed=draw(st.integers(0, 2**64 - 1)))
    if draw(st.booleans()):
        offers = [m for m in game.legal_moves if m.kind.name in ("GIFT", "COMPETITION")]
        game.push(draw(st.sampled_from(offers)))
    return game


@fuzz_settings(120)
@given(positions(), ENGINE_BYTES, ENGINE_BYTES)
@example(game=Game(seed=1), handshake=b"\xff\n", reply=b"\xff\xfe bestmove S:A")
def test_the_gui_survives_what_an_engine_writes(
    tmp_path_factory: pytest.TempPathFactory, game: Game, handshake: bytes, reply: bytes
) -> None:
    if any(line.split() == ["hmpok"] or line == "readyok" for line in gui_lines(handshake)):
        handshake = b""  # it would end the handshake early
    seat = game.to_move
    assert seat is not None
    view, legal = game.view(seat), game.legal_moves
    folder = Path(tmp_path_factory.mktemp("engine"))
    (folder / "handshake").write_bytes(handshake)
    (folder / "reply").write_bytes(reply)
    command = [sys.executable, "-c", SCRIPTED_ENGINE, str(folder), legal[0].text()]
    with ExternalEngineBot(command, 0.2, grace_seconds=10, startup_seconds=30) as engine:
        try:
            move = engine.choose(view, legal)
        except EngineError as error:
            event(f"engine lost: {error.reason}")
            assert error.failure in (EngineFailure.MALFORMED, EngineFailure.ILLEGAL), error
            assert error.detail.strip()
            meaningful = [line for line in gui_lines(reply) if line.split()[0] != "info"]
            assert meaningful, f"only info lines, yet {error}"
            # The next decision gets a fresh engine, which plays.
            assert engine.choose(view, legal) == legal[0]
            return
        event("engine played")
        assert move in legal


def test_regressions_of_our_engine() -> None:
    """Lines that raised out of ``serve``: numbers ``int()`` refuses (``'²'``, more than
    4300 digits) were ValueErrors, not ProtocolErrors, and a movetime past a float's
    range an OverflowError."""
    game = session("classic", 1, 0, 0, 1)
    before_go = list(game.lines[: game.lines.index("go movetime 40")])
    answers = served(
        [
            "hmp 1",
            *before_go,
            "go movetime " + "9" * 400,  # a long time to think, and greedy is quick
            "go movetime ²",
            "go movetime " + "9" * 5000,
            "newgame variant classic/cap=² seat 1 first 1",
            "newgame variant classic seat 1 first 1",
            "deal round ² starter 1 hand AABBCC",
            "quit",
        ]
    )
    assert Move.from_text(bestmoves(answers)[0]) in game.legal[0]
    errors = [line for line in answers if line.startswith("info string error: ")]
    assert len(errors) == 4 and len(bestmoves(answers)) == 1, answers


def test_a_refused_offer_leaves_the_tracker_as_it_was() -> None:
    """The tracker counted the opponent's cards and marked its Gift used before refusing
    the Gift, then refused the real one as a second Gift."""
    tracker = KnowledgeTracker("classic", seat=0, first=1)
    tracker.apply(parse_event("deal round 1 starter 2 hand AABBCC"))
    before = tracker_state(tracker)
    with pytest.raises(ProtocolError, match="knows are elsewhere"):
        tracker.apply(parse_event("move 2 G:AAD"))
    assert tracker_state(tracker) == before
    tracker.apply(parse_event("move 2 G:DDE"))
    assert tracker.view().pending == Move.from_text("G:DDE")
