"""benchmarks/bot_ladder.py's measure: a decision's latency runs from its POST to the
first state of a later ply on the opponent's stream of the game, never to the mover's
own stream, and a refused decision is no sample."""

from __future__ import annotations

from types import ModuleType

import pytest
from conftest import load_benchmark


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("bot_ladder")


def test_a_decision_is_timed_to_the_opponents_stream_only(bench: ModuleType) -> None:
    recorder = bench.Recorder(measuring=True)
    recorder.seen(0, "g", 4)
    recorder.seen(1, "g", 4)
    entry = recorder.posting(0, "g")  # bot 0 decides at ply 4
    recorder.posted("g", entry, True)
    recorder.seen(0, "g", 5)  # its own stream: not the measure
    assert recorder.latencies == []
    recorder.seen(1, "g", 4)  # the opponent, nothing new yet
    assert recorder.latencies == []
    recorder.seen(1, "g", 5)
    assert len(recorder.latencies) == 1 and recorder.latencies[0] >= 0
    recorder.seen(1, "g", 6)  # counted once
    assert len(recorder.latencies) == 1
    assert recorder.decisions == 1 and recorder.games == {"g"}


def test_a_refused_decision_is_no_sample(bench: ModuleType) -> None:
    recorder = bench.Recorder(measuring=True)
    recorder.seen(0, "g", 2)
    entry = recorder.posting(0, "g")
    recorder.posted("g", entry, False)
    recorder.seen(1, "g", 3)
    assert recorder.latencies == [] and recorder.decisions == 0


def test_nothing_counts_outside_the_measured_window(bench: ModuleType) -> None:
    recorder = bench.Recorder()
    entry = recorder.posting(0, "g")
    recorder.posted("g", entry, True)
    recorder.seen(1, "g", 1)
    assert recorder.latencies == [] and recorder.decisions == 0 and not recorder.games
