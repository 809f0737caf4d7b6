"""``hanamikoji bridge`` (issue 50): the seat's view rebuilt from the server's state,
the challenge policy, the records, and whole games bridged against an in-process fake
of the bot API (``tests/bridge_fake_server.py``) served by uvicorn on loopback."""

from __future__ import annotations

import asyncio
import random
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import httpx
import msgspec
import pytest
from bridge_fake_server import BOT_NAME, TOKEN, FakeServer, serving

from hanamikoji.core import Game
from hanamikoji.interfaces.bridge.api import ApiError, BotApi
from hanamikoji.interfaces.bridge.bridge import Bridge
from hanamikoji.interfaces.bridge.events import Challenge, Player, decode_line
from hanamikoji.interfaces.bridge.game_records import finished_record, seat_transcript
from hanamikoji.interfaces.bridge.players import Contender
from hanamikoji.interfaces.bridge.policy import Policy, PolicyError, load_policy
from hanamikoji.interfaces.bridge.seat_view import view_from_state
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.exits import EXIT_ERROR, EXIT_USAGE
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
from hanamikoji.interfaces.web.wire.outgoing import SeatState, encode_bytes
from hanamikoji.notation.records import read_record

# -- the view from the state --------------------------------------------------------------


def _wire(game: Game, seat: int, ended: tuple[str, str] | None = None) -> SeatState:
    """The seat's state as the server sends it, decoded as the bridge decodes it."""
    public = PublicGame("g", ("bot", "bot"), (None, None), len(game.move_stack), ended=ended)
    return msgspec.json.decode(encode_bytes(seat_state(game.view(seat), public)), type=SeatState)


@pytest.mark.parametrize("variant", ["classic", "three-rounds", "french"])
def test_the_view_rebuilt_from_the_state_is_the_seats_view(variant: str) -> None:
    for seed in range(4):
        game, rng = Game(variant, seed=seed), random.Random(seed)
        while True:
            for seat in (0, 1):
                assert view_from_state(_wire(game, seat)) == game.view(seat)
            if game.is_over():
                break
            game.push(rng.choice(game.legal_moves))


def test_a_game_ended_by_a_resignation_has_no_outcome_under_the_rules() -> None:
    game = Game(seed=3)
    for _ in range(5):
        game.push(game.legal_moves[0])
    view = view_from_state(_wire(game, 1, ended=("resigned", "1-0")))
    assert view.outcome is None and view.reveal is None
    assert view == game.view(1)


# -- records ------------------------------------------------------------------------------


def test_a_finished_games_record_comes_from_the_reveal_and_replays() -> None:
    game, rng = Game(seed=11), random.Random(11)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves))
    record = finished_record(view_from_state(_wire(game, 0)), ("a", "b"), "2025.01.01")
    assert record is not None
    assert record.replay().move_stack == game.move_stack
    assert record.result == game.outcome.result()  # type: ignore[union-attr]


def test_an_unfinished_games_transcript_hides_the_opponents_cards() -> None:
    game = Game(seed=5)
    while len(game.move_stack) < 12:
        game.push(game.legal_moves[-1])
    view = view_from_state(_wire(game, 0, ended=("resigned", "0-1")))
    assert finished_record(view, ("a", "b"), "2025.01.01") is None
    text = seat_transcript(view, [("Result", "0-1")])
    hidden = [e for e in game.log() if e.seat == 1 and e.move.public() is not e.move]
    for entry in game.log():
        if entry.seat == 1 and entry.move.public() is not entry.move:
            assert entry.move.text() not in text.split()
    assert hidden, "the test needs the opponent to have played a Secret or Trade-off"


# -- the policy ---------------------------------------------------------------------------


def _challenge(**fields: object) -> Challenge:
    values: dict[str, object] = {
        "id": "c",
        "challenger": Player(name="Ann"),
        "dest": Player(name=BOT_NAME, bot=True),
        "variant": "classic",
    }
    values.update(fields)
    return msgspec.convert(values, Challenge, from_attributes=True)


@pytest.mark.parametrize(
    ("policy", "challenge", "reason"),
    [
        (Policy(), {}, ""),
        (Policy(variants=("classic",)), {"variant": "french"}, "variant"),
        (Policy(clocks=("realtime",)), {"clock": None}, "timeControl"),
        (Policy(clocks=("untimed",)), {"clock": "3+2"}, "timeControl"),
        (Policy(min_base=300), {"clock": "3+2"}, "tooFast"),
        (Policy(max_increment=1), {"clock": "3+2"}, "tooSlow"),
        (Policy(max_days=2), {"clock": "3d"}, "tooSlow"),
        (Policy(modes=("casual",)), {"rated": True}, "casual"),
        (Policy(modes=("rated",)), {"rated": False}, "rated"),
        (Policy(opponents="bots"), {}, "onlyBot"),
        (Policy(opponents="people"), {"challenger": Player(name="b", bot=True)}, "noBot"),
        (Policy(block=("ann",)), {}, "generic"),
        (Policy(allow=("bob",)), {}, "generic"),
        (Policy(), {"clock": "soon"}, "timeControl"),
    ],
)
def test_the_policy_accepts_or_says_why_not(
    policy: Policy, challenge: dict[str, object], reason: str
) -> None:
    verdict = policy.verdict(_challenge(**challenge), playing=0)
    assert (verdict.accept, verdict.reason) == (reason == "", reason)


def test_the_policy_counts_the_games_in_progress() -> None:
    policy = Policy(concurrency=2)
    assert policy.verdict(_challenge(), playing=1).accept
    assert policy.verdict(_challenge(), playing=2).reason == "later"


def test_the_policy_file_is_read_and_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('[challenge]\nconcurrency = 3\nvariants = ["classic"]\nmax_base = 600\n')
    policy = load_policy(good).updated({"concurrency": 2})
    assert (policy.concurrency, policy.variants, policy.max_base) == (2, ("classic",), 600)
    for text, wrong in (
        ("[challenge]\nconcurency = 3\n", "concurency"),
        ("[challenge]\nvariants = ['chess']\n", "chess"),
        ("[challenge]\nconcurrency = 0\n", "concurrency"),
        ("[challenge]\nmax_base = -1\n", "max_base"),
        ("[engine]\n", "engine"),
        ("[challenge\n", "good"),
    ):
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(PolicyError, match=wrong if wrong != "good" else "bad.toml"):
            load_policy(bad)


def test_a_line_of_an_unknown_type_is_ignored_and_a_broken_one_refused() -> None:
    assert decode_line(b'{"type":"future","x":1}').type == "future"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="gameStart"):
        decode_line(b'{"type":"gameStart"}')
    with pytest.raises(ValueError, match="not an event line"):
        decode_line(b"[1, 2")


# -- whole games against the fake server ------------------------------------------------


def _challenge_on(url: str, **fields: object) -> None:
    httpx.post(f"{url}/fake/challenge", json=fields).raise_for_status()


async def _bridge_until(
    url: str,
    contender: Contender,
    until: Callable[[Bridge], bool],
    *,
    policy: Policy | None = None,
    records: Path | None = None,
) -> Bridge:
    """Run a bridge until ``until`` holds, then stop it (finishing its games)."""
    async with BotApi(url, TOKEN, stream_timeout=10) as api:
        bridge = Bridge(
            api, contender, policy, records=records, backoff_first=0.01, backoff_most=0.2
        )
        task = asyncio.create_task(bridge.run())

        async def watch() -> None:
            while not until(bridge) and not task.done():
                await asyncio.sleep(0.02)

        await asyncio.wait_for(watch(), 300)  # a guard against a hang, never reached
        bridge.stop()
        await asyncio.wait_for(task, 60)
        return bridge


def _played_once_per_position(server: FakeServer) -> None:
    for game in server.games.values():
        plies = [ply for ply, _ in game.posted]
        assert len(plies) == len(set(plies)), game.posted
        assert game.refused == []


def test_a_whole_game_bridged_with_a_built_in_level(tmp_path: Path) -> None:
    server = FakeServer()
    with serving(server) as url:
        _challenge_on(url, variant="classic", first="dest")
        bridge = asyncio.run(
            _bridge_until(
                url, Contender(spec="level:3"), lambda b: len(b.finished) == 1, records=tmp_path
            )
        )
    game = server.games["c1"]
    assert game.game.is_over()
    _played_once_per_position(server)
    loop = bridge.finished[0]
    assert loop.record is not None and loop.record.suffix == ".hkr"
    record = read_record(loop.record)
    assert record.replay().move_stack == game.game.move_stack
    assert record.players == (BOT_NAME, "ann")


def test_a_whole_game_bridged_with_an_external_engine(tmp_path: Path) -> None:
    server = FakeServer(seed=4)
    engine = (sys.executable, "-m", "hanamikoji", "engine", "--bot", "greedy")
    with serving(server) as url:
        _challenge_on(url, variant="three-rounds", first="challenger")
        bridge = asyncio.run(
            _bridge_until(
                url,
                Contender(engine=engine, movetime=2.0),
                lambda b: len(b.finished) == 1,
                records=tmp_path,
            )
        )
    game = server.games["c1"]
    assert game.game.is_over() and game.seat == 1
    _played_once_per_position(server)
    record = read_record(bridge.finished[0].record)  # type: ignore[arg-type]
    assert record.replay().move_stack == game.game.move_stack


def test_a_stream_dropped_mid_game_is_resumed_without_a_second_post(tmp_path: Path) -> None:
    server = FakeServer(seed=7)
    with serving(server) as url:
        _challenge_on(url, first="dest")
        # The bot's third decision counts, but its answer is a 503 and the game's stream
        # is cut before the next state: the bridge must not post the decision again.
        server.cut_after_moves = 3
        bridge = asyncio.run(
            _bridge_until(url, Contender(spec="random"), lambda b: len(b.finished) == 1)
        )
    game = server.games["c1"]
    assert game.game.is_over()
    assert game.streams_opened >= 2
    assert bridge.finished[0].connections >= 2
    _played_once_per_position(server)


def test_challenges_are_accepted_or_declined_by_the_policy(tmp_path: Path) -> None:
    server = FakeServer(seed=2)
    policy = Policy(variants=("classic",), max_base=300, modes=("casual",))
    with serving(server) as url:
        _challenge_on(url, variant="french")
        _challenge_on(url, clock="10+0")
        _challenge_on(url, rated=True)
        _challenge_on(url, clock="3+2", first="dest")
        asyncio.run(
            _bridge_until(
                url, Contender(spec="random"), lambda b: len(b.finished) == 1, policy=policy
            )
        )
    statuses = {cid: c["status"] for cid, c in server.challenges.items()}
    assert statuses == {"c1": "declined", "c2": "declined", "c3": "declined", "c4": "accepted"}
    assert list(server.games) == ["c4"] and server.games["c4"].game.is_over()


BAD_ENGINE = textwrap.dedent(
    """
    import sys
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "hmp":
            print("id name bad", flush=True)
            print("hmpok", flush=True)
        elif word == "isready":
            print("readyok", flush=True)
        elif word == "go":
            print("bestmove X:YZ", flush=True)
        elif word == "quit":
            break
    """
)


def test_bad_engine_output_resigns_the_game_and_says_why(tmp_path: Path) -> None:
    script = tmp_path / "bad_engine.py"
    script.write_text(BAD_ENGINE)
    server = FakeServer(seed=3)
    records = tmp_path / "records"
    with serving(server) as url:
        _challenge_on(url, first="dest")
        bridge = asyncio.run(
            _bridge_until(
                url,
                Contender(engine=(sys.executable, str(script))),
                lambda b: len(b.finished) == 1,
                records=records,
            )
        )
    game = server.games["c1"]
    assert game.ended == ("resigned", "0-1") and game.posted == []
    loop = bridge.finished[0]
    assert loop.failure is not None and loop.failure.reason == "malformed"
    assert loop.record is not None and loop.record.name == "c1.seat.txt"
    assert "EngineFailure" in loop.record.read_text()


def test_a_refused_token_stops_the_bridge() -> None:
    server = FakeServer()

    async def run(url: str) -> None:
        async with BotApi(url, "hmk_wrong") as api:
            await Bridge(api, Contender(spec="random")).run()

    with serving(server) as url, pytest.raises(ApiError, match="err_token"):
        asyncio.run(run(url))


def test_the_command_checks_its_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    err = io.StringIO()
    streams = Streams(io.StringIO(), io.StringIO(), err)
    token = tmp_path / "token"
    base = ["bridge", "--server", "http://127.0.0.1:9", "--token-file", str(token)]
    assert run_command([*base, "--bot", "nosuchbot"], streams) == EXIT_USAGE
    assert "nosuchbot" in err.getvalue()
    assert run_command([*base, "--level", "2", "--", "engine"], streams) == EXIT_USAGE
    assert run_command([*base, "--variants", "chess"], streams) == EXIT_USAGE
    assert run_command(base, streams) == EXIT_ERROR  # no token file
    token.write_text("\n")
    assert run_command(base, streams) == EXIT_ERROR  # an empty one
