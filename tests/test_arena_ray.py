"""The Ray backend on a local Ray instance gives the very games of the process backend.

Skipped only when Ray is not installed (``pip install 'hanamikoji[ray]'``).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

ray = pytest.importorskip("ray")

from hanamikoji.arena import (  # noqa: E402
    MatchConfig,
    Plan,
    ProcessBackend,
    RayBackend,
    make_backend,
    players_from_names,
    run_plan,
)
from hanamikoji.interfaces import arena_cli  # noqa: E402, F401  (registers the subcommand)
from hanamikoji.interfaces.cli import Streams, run_command  # noqa: E402


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_and_processes_play_the_same_games() -> None:
    assert not ray.is_initialized()
    plan = Plan.round_robin(
        players_from_names(["random", "greedy", "random"]),
        games=6,
        first_seed=20,
        config=MatchConfig("three-rounds"),
    )
    backend = make_backend("ray", jobs=2)
    assert isinstance(backend, RayBackend)
    assert backend.workers == 2
    on_ray = run_plan(plan, backend)
    assert not ray.is_initialized()  # the instance the backend started is shut down
    on_processes = run_plan(plan, ProcessBackend(jobs=2))
    assert len(on_ray.games()) == 18
    assert [g.outcome_key() for g in on_ray.games()] == [
        g.outcome_key() for g in on_processes.games()
    ]


@pytest.mark.usefixtures("local_ray")
def test_the_arena_command_runs_on_ray() -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["arena", "random", "greedy", "--games", "4", "--backend", "ray", "--json"]
    code = run_command([*argv, "--no-records"], Streams(io.StringIO(), stdout, stderr))
    assert code == 0, stderr.getvalue()
    assert ray.is_initialized()  # an instance the backend did not start is left running
    data = json.loads(stdout.getvalue())
    assert data["backend"] == "ray"
    assert data["matches"][0]["games"] == 4
