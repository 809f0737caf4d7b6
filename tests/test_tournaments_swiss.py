"""Swiss tournaments: pairings checked against every possible pairing of small events,
scores and tiebreaks against a recomputation from the games (hypothesis)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanamikoji.tournaments import (
    RESULTS,
    Entrant,
    Pairing,
    Round,
    Swiss,
    TournamentError,
    scores,
    standings,
)
from hanamikoji.tournaments.swiss_pairing import ranked

Vector = tuple[int, ...]


def _matchings(nodes: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect matching of ``nodes`` (an even number)."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for index, other in enumerate(rest):
        for matching in _matchings([*rest[:index], *rest[index + 1 :]]):
            yield [(first, other), *matching]


def _history(event: Swiss) -> tuple[Counter[tuple[str, str]], Counter[str], dict[str, int]]:
    """Meetings (each unordered pair both ways), byes, and first-player balances, read
    straight from the rounds."""
    met: Counter[tuple[str, str]] = Counter()
    byes: Counter[str] = Counter()
    balance = {entrant.id: 0 for entrant in event.entrants}
    for played in event.played:
        if played.bye is not None:
            byes[played.bye] += 1
        for pairing in played.pairings:
            met[(pairing.first, pairing.second)] += 1
            met[(pairing.second, pairing.first)] += 1
            balance[pairing.first] += 1
            balance[pairing.second] -= 1
    return met, byes, balance


def _cost(event: Swiss, games: Sequence[tuple[str, str]], bye: str | None) -> Vector:
    """The summed cost vector of a round (docs/tournaments.md's order): second byes,
    rematches, players pushed past a balance of one, the bye's distance from the bottom,
    squared score differences, the distance from a top-half-against-bottom-half pairing."""
    met, byes, balance = _history(event)
    score = {player: round(2 * points) for player, points in scores(event).items()}
    order = [c.id for c in ranked(event.candidates())]
    groups: dict[int, list[str]] = {}
    for player in order:
        groups.setdefault(score[player], []).append(player)
    second_byes = rematches = overflow = bye_place = difference = shape = 0
    if bye is not None:
        second_byes = int(byes[bye] > 0)
        bye_place = len(order) - 1 - order.index(bye)
    for a, b in games:
        rematches += met[(a, b)]
        low, high = sorted((balance[a], balance[b]))
        overflow += int(abs(low + 1) > 1) + int(abs(high - 1) > 1)
        difference += (score[a] - score[b]) ** 2
        if score[a] == score[b]:
            group = groups[score[a]]
            shape += (abs(group.index(a) - group.index(b)) - len(group) // 2) ** 2
    return (second_byes, rematches, overflow, bye_place, difference, shape)


def _best_cost(event: Swiss) -> Vector:
    players = [c.id for c in event.candidates()]
    nodes = [*players, ""] if len(players) % 2 else players
    best: Vector | None = None
    for matching in _matchings(nodes):
        bye = next((a if b == "" else b for a, b in matching if "" in (a, b)), None)
        games = [(a, b) for a, b in matching if "" not in (a, b)]
        cost = _cost(event, games, bye)
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


@st.composite
def events(draw: st.DrawFn, most: int = 8) -> tuple[Swiss, list[Swiss]]:
    """A Swiss event played to its end with drawn results, late joins and withdrawals;
    and the event just before each round was paired."""
    count = draw(st.integers(2, most))
    ratings = draw(st.lists(st.integers(1000, 2000), min_size=count, max_size=count))
    start = draw(st.integers(2, count))
    event = Swiss(draw(st.integers(1, 5)))
    for index in range(start):
        event = event.join(Entrant(f"p{index}", f"P{index}", ratings[index]))
    waiting = list(range(start, count))
    before: list[Swiss] = []
    while not event.finished:
        if waiting and event.open_to_join and draw(st.booleans()):
            index = waiting.pop()
            event = event.join(Entrant(f"p{index}", f"P{index}", ratings[index]))
        active = [e.id for e in event.active]
        if len(active) > 2 and draw(st.integers(0, 4)) == 0:
            event = event.withdraw(draw(st.sampled_from(active)))
        before.append(event)
        event = event.pair_next_round()
        played = event.played[-1]
        for board in range(len(played.pairings)):
            event = event.record(played.number, board, draw(st.sampled_from(RESULTS)))
    return event, before


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(events())
def test_each_round_is_the_best_pairing_of_all(played: tuple[Swiss, list[Swiss]]) -> None:
    # Among every possible pairing of the round: no rematch while one is avoidable, no
    # second bye while avoidable, the first-player balance kept within one where it can
    # be, the bye to the lowest-ranked player who can take it, then scores near.
    event, before = played
    for state, paired in zip(before, event.played, strict=True):
        games = [(p.first, p.second) for p in paired.pairings]
        assert _cost(state, games, paired.bye) == _best_cost(state)
        assert paired.players() == {c.id for c in state.candidates()}


@SETTINGS
@given(events())
def test_a_bye_each_at_most_while_someone_has_none(played: tuple[Swiss, list[Swiss]]) -> None:
    event, before = played
    for state, paired in zip(before, event.played, strict=True):
        _, byes, _ = _history(state)
        if paired.bye is not None and any(byes[c.id] == 0 for c in state.candidates()):
            assert byes[paired.bye] == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6).map(lambda half: 2 * half), st.data())
def test_first_player_balance_within_one_in_two_rounds(players: int, data: st.DataObject) -> None:
    # With an even number of players, two rounds can always be paired with no rematch
    # and everyone having started once.
    event = Swiss(2, tuple(Entrant(f"p{i}", f"P{i}", 1500 + i) for i in range(players)))
    for _ in range(2):
        event = event.pair_next_round()
        for board in range(len(event.played[-1].pairings)):
            result = data.draw(st.sampled_from(RESULTS))
            event = event.record(len(event.played), board, result)
    met, _, balance = _history(event)
    assert all(value == 0 for value in balance.values())
    assert max(met.values()) == 1


@SETTINGS
@given(events())
def test_scores_and_tiebreaks_are_those_of_the_games(played: tuple[Swiss, list[Swiss]]) -> None:
    event, _ = played
    score: dict[str, float] = {entrant.id: 0.0 for entrant in event.entrants}
    games: list[tuple[str, str, float]] = []  # (player, opponent, what the player scored)
    for played_round in event.played:
        if played_round.bye is not None:
            score[played_round.bye] += 1
        for pairing in played_round.pairings:
            first = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[str(pairing.result)]
            games += [
                (pairing.first, pairing.second, first),
                (pairing.second, pairing.first, 1 - first),
            ]
            score[pairing.first] += first
            score[pairing.second] += 1 - first
    for line in standings(event):
        mine = [(opponent, points) for player, opponent, points in games if player == line.player]
        assert line.score == score[line.player]
        assert line.buchholz == sum(score[opponent] for opponent, _ in mine)
        assert line.sonneborn_berger == sum(points * score[opponent] for opponent, points in mine)
        assert (line.wins, line.draws, line.losses) == tuple(
            sum(1 for _, points in mine if points == value) for value in (1.0, 0.5, 0.0)
        )
    lines = standings(event)
    keys = [(line.score, line.buchholz, line.sonneborn_berger) for line in lines]
    assert keys == sorted(keys, reverse=True)
    for line, key in zip(lines, keys, strict=True):
        assert line.rank == 1 + sum(1 for other in keys if other > key)


@SETTINGS
@given(events())
def test_an_event_goes_to_json_and_back(played: tuple[Swiss, list[Swiss]]) -> None:
    event, before = played
    for state in (event, *before):
        assert Swiss.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_the_first_round_pairs_the_top_half_against_the_bottom_half() -> None:
    event = Swiss(3, tuple(Entrant(f"p{i}", f"P{i}", 2000 - i) for i in range(9)))
    first = event.pair_next_round().played[0]
    assert [(p.first, p.second) for p in first.pairings] == [
        ("p0", "p4"),
        ("p5", "p1"),
        ("p2", "p6"),
        ("p7", "p3"),
    ]
    assert first.bye == "p8"


def test_what_a_tournament_refuses() -> None:
    event = Swiss(2, (Entrant("a", "A"), Entrant("b", "B")))
    with pytest.raises(TournamentError, match="already"):
        event.join(Entrant("a", "A"))
    with pytest.raises(TournamentError, match="one of"):
        Pairing("a", "b", "2-0")
    with pytest.raises(TournamentError, match="themselves"):
        Pairing("a", "a")
    event = event.pair_next_round()
    with pytest.raises(TournamentError, match="still on"):
        event.pair_next_round()
    event = event.record(1, 0, "1-0")
    with pytest.raises(TournamentError, match="has a result"):
        event.record(1, 0, "0-1")
    with pytest.raises(TournamentError, match="no board"):
        event.record(1, 1, "0-1")
    event = event.pair_next_round().record(2, 0, "1/2-1/2")
    assert event.finished
    with pytest.raises(TournamentError, match="over"):
        event.pair_next_round()
    with pytest.raises(TournamentError, match="no more players"):
        event.join(Entrant("c", "C"))


def test_a_late_player_joins_until_half_the_rounds_are_paired() -> None:
    event = Swiss(3, (Entrant("a", "A"), Entrant("b", "B"))).pair_next_round()
    event = event.record(1, 0, "1-0").join(Entrant("c", "C"))
    event = event.pair_next_round()
    assert event.played[1].players() == {"a", "b", "c"}
    assert not event.open_to_join  # two rounds of three are paired
    assert scores(event)["c"] in (0.0, 1.0)  # nothing for the round missed


def test_a_withdrawn_player_is_paired_no_more_and_keeps_their_score() -> None:
    event = Swiss(3, tuple(Entrant(p, p) for p in "abcd")).pair_next_round()
    for board in range(2):
        event = event.record(1, board, "1-0")
    winner = event.played[0].pairings[0].first
    event = event.withdraw(winner).pair_next_round()
    assert winner not in event.played[1].players()
    assert event.played[1].bye is not None
    assert scores(event)[winner] == 1.0
    assert [line.active for line in standings(event) if line.player == winner] == [False]


def test_a_bye_scores_a_point_and_no_tiebreak() -> None:
    event = Swiss(1, (Entrant("a", "A"), Entrant("b", "B"), Entrant("c", "C")))
    event = event.pair_next_round().record(1, 0, "1/2-1/2")
    (bye,) = [line for line in standings(event) if line.byes]
    assert (bye.score, bye.buchholz, bye.sonneborn_berger, bye.games) == (1.0, 0.0, 0.0, 0)
    assert Round.from_json(event.played[0].to_json()) == event.played[0]
