"""Workers map a task in order, wherever it runs, and refuse what they cannot run."""

from __future__ import annotations

import pytest

from hanamikoji.bots.parallel import Workers


def test_a_map_keeps_the_arguments_order_in_this_process_and_in_processes() -> None:
    numbers = list(range(12))
    assert Workers().map(pow, numbers, [2] * 12) == [n**2 for n in numbers]
    assert Workers(2).map(pow, numbers, [2] * 12) == [n**2 for n in numbers]
    assert Workers(2).map(pow, [], []) == []


@pytest.mark.parametrize(
    ("jobs", "backend", "message"),
    [(0, "processes", "jobs is at least 1"), (1, "threads", "unknown backend 'threads'")],
)
def test_workers_refuse_what_they_cannot_run(jobs: int, backend: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Workers(jobs, backend)


def test_ray_workers_need_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # an import of it fails
    with pytest.raises(ImportError, match=r"pip install 'hanamikoji\[ray\]'"):
        Workers(1, "ray")
