"""benchmarks/tournament_arena.py's measures: a pairing delay runs from a player's game
ending (the first its bot learns of it) to its next game's start; a double wait is two
players without a game for longer than the director's interval, pairable when neither
just played the other (players by their names, as their bots know them); nothing
counts outside the arena's time."""

from __future__ import annotations

from types import ModuleType

import pytest
from conftest import load_benchmark

from hanamikoji.tournaments import Arena, Entrant, Pairing


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("tournament_arena")


def test_a_pairing_delay_runs_from_the_first_news_of_the_end_to_the_next_start(
    bench: ModuleType,
) -> None:
    waits = bench.Waits(start=0.0, end=100.0)
    waits.started("ann", "g1", 1.0)  # a first game: no delay
    waits.finished("ann", "g1", 10.0)  # the game's stream ends
    waits.finished("ann", "g1", 11.5)  # gameFinish comes later: not the end
    waits.started("ann", "g2", 10.75)
    waits.started("ann", "g2", 12.0)  # replayed on a reconnection: counted once
    assert waits.delays == [0.75] and waits.ends == 1


def test_nothing_counts_outside_the_arenas_time(bench: ModuleType) -> None:
    waits = bench.Waits(start=10.0, end=20.0)
    waits.started("ann", "g1", 1.0)
    waits.finished("ann", "g1", 5.0)
    waits.started("ann", "g2", 12.0)
    waits.finished("ann", "g2", 21.0)
    waits.sample(["ann", "bob"], {}, 25.0)
    assert waits.delays == [] and waits.ends == 0 and waits.samples == 0


def test_a_double_wait_is_two_players_waiting_past_the_interval(bench: ModuleType) -> None:
    waits = bench.Waits(start=0.0, end=100.0, interval=1.0)
    for player, game, end in (("ann", "g1", 10.0), ("bob", "g1", 10.0), ("cy", "g2", 11.0)):
        waits.started(player, game, 1.0)
        waits.finished(player, game, end)
    last = {"ann": "bob", "bob": "ann", "cy": "dan"}
    waits.sample(["ann", "bob", "cy"], last, 11.5)  # cy waited 0.5 s: only ann and bob
    assert (waits.samples, waits.doubles, waits.pairable) == (1, 1, 0)
    assert waits.longest_double == pytest.approx(1.5)
    waits.sample(["ann", "bob", "cy"], last, 13.0)  # cy 2 s: cy may play ann or bob
    assert (waits.doubles, waits.pairable, waits.left_pairable) == (2, 1, 0)
    assert waits.longest_pairable == pytest.approx(2.0)
    waits.sample(["ann", "bob", "cy"], last, 13.5, frozenset({"ann", "bob"}))  # a rematch
    assert (waits.pairable, waits.left_pairable) == (2, 0)
    waits.sample(["ann", "bob", "cy"], last, 14.0, frozenset({"ann", "cy"}))
    assert (waits.pairable, waits.left_pairable) == (3, 1)
    waits.sample(["cy"], last, 14.5)
    assert waits.doubles == 4 and waits.unpaired() == 3


def test_the_waiting_players_include_those_of_ended_games_not_yet_recorded(
    bench: ModuleType,
) -> None:
    names = ("ann", "bob", "cy", "dan", "eve")
    entrants = tuple(Entrant(f"id-{name}", name, 1500) for name in names)
    games = (
        Pairing("id-ann", "id-bob", "1-0", "x"),  # recorded: both wait
        Pairing("id-cy", "id-dan", None, "y"),  # on, or ended and not recorded yet
    )
    arena = Arena(entrants, games)
    waiting, left, last = bench.waiting_of(arena, set())
    assert waiting == left == {"ann", "bob", "eve"}
    assert last == {"ann": "bob", "bob": "ann", "cy": "dan", "dan": "cy"}
    waiting, left, _ = bench.waiting_of(arena, {"y"})
    assert waiting == {"ann", "bob", "cy", "dan", "eve"} and left == {"ann", "bob", "eve"}
