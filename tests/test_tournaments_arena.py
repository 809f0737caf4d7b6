"""Arena tournaments: pairing of waiting players and the streak points (hypothesis)."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanamikoji.tournaments import RESULTS, Arena, Entrant, TournamentError, streak_points


def _brute_points(results: list[float]) -> int:
    """Lichess's rule as its help page says it, game by game."""
    points, streak = 0, 0
    for result in results:
        on_fire = streak >= 2
        worth = {1.0: 2, 0.5: 1, 0.0: 0}[result]
        points += 2 * worth if on_fire else worth
        streak = streak + 1 if result == 1.0 else 0
    return points


def _check_pairing(before: Arena, after: Arena) -> None:
    """No two waiting players left unpaired who may play; no immediate rematch; no one
    in two games at once."""
    new = after.games[len(before.games) :]
    assert {p for game in new for p in game.players} <= set(before.waiting())
    left = after.waiting()
    for index, a in enumerate(left):
        for b in left[index + 1 :]:
            assert after.last_opponent(a) == b or after.last_opponent(b) == a
    for game in new:
        assert before.last_opponent(game.first) != game.second
        assert before.last_opponent(game.second) != game.first
    on = [p for game in after.games if game.result is None for p in game.players]
    assert len(on) == len(set(on))


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 9), st.data())
def test_waiting_players_are_paired_at_once_and_never_twice_in_a_row(
    players: int, data: st.DataObject
) -> None:
    arena = Arena()
    ratings = data.draw(st.lists(st.integers(1000, 2000), min_size=players, max_size=players))
    joined = data.draw(st.integers(2, players))
    for index in range(joined):
        arena = arena.join(Entrant(f"p{index}", f"P{index}", ratings[index]))
    for _ in range(data.draw(st.integers(1, 40))):
        paired = arena.pair_waiting()
        _check_pairing(arena, paired)
        arena = paired
        action = data.draw(st.integers(0, 9))
        running = [i for i, game in enumerate(arena.games) if game.result is None]
        if action == 0 and joined < players:
            arena = arena.join(Entrant(f"p{joined}", f"P{joined}", ratings[joined]))
            joined += 1
        elif action == 1:
            arena = arena.withdraw(data.draw(st.sampled_from([e.id for e in arena.entrants])))
        elif action == 2:
            inactive = [e.id for e in arena.entrants if not e.active]
            if inactive:
                arena = arena.join(Entrant(data.draw(st.sampled_from(inactive)), "back"))
        elif running:
            index = data.draw(st.sampled_from(running))
            arena = arena.record(index, data.draw(st.sampled_from(RESULTS)))
    for entrant in arena.entrants:
        opponents = [game.opponent_of(entrant.id) for game in arena.history(entrant.id)]
        assert all(a != b for a, b in itertools.pairwise(opponents))
    assert Arena.from_json(json.loads(json.dumps(arena.to_json()))) == arena
    ended = arena.end()
    assert ended.waiting() == [] and ended.pair_waiting() == ended
    for line in ended.standings():
        results = [g.points_of(line.player) for g in arena.history(line.player) if g.result]
        assert line.points == _brute_points(results)
        assert line.games == len(results) == line.wins + line.draws + line.losses


@given(st.lists(st.sampled_from([1.0, 0.5, 0.0]), max_size=30))
def test_streak_points_are_lichess_s(results: list[float]) -> None:
    points, fire = streak_points(results)
    assert points == _brute_points(results)
    assert fire == (results[-2:] == [1.0, 1.0])


def test_a_game_that_ends_after_the_arena_counts_nothing() -> None:
    arena = Arena((Entrant("a", "A"), Entrant("b", "B"))).pair_waiting()
    ended = arena.end()
    with pytest.raises(TournamentError, match="counts nothing"):
        ended.record(0, "1-0")
    assert [line.games for line in ended.standings()] == [0, 0]
    with pytest.raises(TournamentError, match="over"):
        ended.join(Entrant("c", "C"))


def test_the_strongest_waiting_players_meet_first() -> None:
    entrants = tuple(Entrant(f"p{i}", f"P{i}", 2000 - 100 * i) for i in range(5))
    arena = Arena(entrants).pair_waiting()
    assert [set(game.players) for game in arena.games] == [{"p0", "p1"}, {"p2", "p3"}]
    assert arena.waiting() == ["p4"]
