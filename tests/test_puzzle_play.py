"""Playing puzzles (the library layer the web page and the terminal share): answers in
any of their forms, errors for the others, the reveal's worlds, ratings, the next
puzzle, the daily puzzle and streaks."""

from __future__ import annotations

import datetime
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanamikoji.arena.glicko2 import Rating
from hanamikoji.bots.exact import world_values
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.puzzles import Puzzle, shipped_puzzles
from hanamikoji.puzzles.answers import AnswerError, grade, read_answer, reveal
from hanamikoji.puzzles.choosing import (
    Streak,
    daily_puzzle,
    next_puzzle,
    rating_of,
    streak,
)
from hanamikoji.puzzles.rating import rate_attempt, starting_rating

PUZZLES = shipped_puzzles()
SAMPLE = random.Random(52).sample(list(PUZZLES), 40)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def other_forms(text: str, rng: random.Random) -> str:
    """The same decision written another way: cards shuffled, pairs swapped, case and
    spaces changed."""
    move = Move.from_text(text)
    letters = "ABCDEFG"
    if move.kind == MoveKind.COMPETITION:
        pairs = [[letters[card] for card in pair] for pair in move.pairs]
        for pair in pairs:
            rng.shuffle(pair)
        rng.shuffle(pairs)
        written = "C:" + "/".join("".join(pair) for pair in pairs)
    elif move.is_response:
        cards = [letters[card] for card in move.cards]
        rng.shuffle(cards)
        written = text[:2] + "".join(cards)
    else:
        cards = [letters[card] for card in move.cards]
        rng.shuffle(cards)
        written = text[:2] + "".join(cards)
    written = "".join(ch.lower() if rng.random() < 0.5 else ch for ch in written)
    return " ".join(written) if rng.random() < 0.3 else written


@FAST
@given(st.sampled_from(SAMPLE), st.integers(0, 2**32))
def test_every_form_of_a_decision_is_graded_as_that_decision(puzzle: Puzzle, seed: int) -> None:
    rng = random.Random(seed)
    for text, value in puzzle.values:
        graded = grade(puzzle, other_forms(text, rng))
        assert graded.answer == text
        assert graded.value == value
        assert graded.correct == (text == puzzle.solution)


@FAST
@given(st.sampled_from(SAMPLE), st.text(max_size=60))
def test_any_text_is_a_decision_or_an_error_naming_why(puzzle: Puzzle, text: str) -> None:
    try:
        move = read_answer(puzzle, text)
    except AnswerError as error:
        assert error.reason in ("malformed", "illegal")
        assert str(error)
    else:
        assert move.text() in dict(puzzle.values)


def test_illegal_and_malformed_answers_say_which() -> None:
    puzzle = next(p for p in PUZZLES if p.id == "french-52000002-9")
    with pytest.raises(AnswerError) as illegal:
        grade(puzzle, "C>AA")
    assert illegal.value.reason == "illegal" and "C>BC, C>DG" in str(illegal.value)
    for text in ("", "   ", "X:AB", "C>A", "C>BC\x00", "C>BC" * 20, "S"):
        with pytest.raises(AnswerError) as malformed:
            grade(puzzle, text)
        assert malformed.value.reason in ("malformed", "illegal"), text
    with pytest.raises(AnswerError) as hidden:
        grade(puzzle, "S")  # a hidden Secret is no decision of the solver's
    assert hidden.value.reason == "illegal"


@pytest.mark.parametrize("puzzle", SAMPLE[:12], ids=lambda p: p.id)
def test_a_wrong_answers_reveal_shows_worlds_where_it_does_worse(puzzle: Puzzle) -> None:
    for wrong, _ in puzzle.alternatives:
        shown = reveal(puzzle, wrong)
        assert not shown.graded.correct and shown.solution == puzzle.solution
        assert shown.values == puzzle.values
        assert 1 <= len(shown.worlds) <= 3
        assert all(w.answer_value < w.solution_value for w in shown.worlds)
        losses = [w.solution_value - w.answer_value for w in shown.worlds]
        assert losses == sorted(losses, reverse=True)
        assert reveal(puzzle, wrong) == shown  # deterministic
    assert reveal(puzzle, puzzle.solution).worlds == ()


@pytest.mark.parametrize("puzzle", SAMPLE[:6], ids=lambda p: p.id)
def test_the_worlds_values_average_to_the_puzzles_values(puzzle: Puzzle) -> None:
    view = puzzle.view()
    moves = [Move.from_text(text) for text, _ in puzzle.values]
    found = world_values(view, moves)
    assert found is not None and len(found) == puzzle.worlds
    for move, (_, value) in zip(moves, puzzle.values, strict=True):
        mean = sum(weighed.chance * values[move] for weighed, values in found)
        assert mean == pytest.approx(value, abs=1e-4)
    for weighed, _ in found:  # every world is one the solver's view allows
        assert len(weighed.world.opponent_hand) == view.hand_sizes[1 - puzzle.seat]
        assert len(weighed.world.deck) == view.deck_size


@given(
    st.floats(800, 2600),
    st.floats(40, 350),
    st.integers(1, 5),
    st.booleans(),
)
def test_solving_raises_the_solver_and_lowers_the_puzzle(
    solver: float, deviation: float, level: int, solved: bool
) -> None:
    before = Rating(solver, deviation)
    puzzle = starting_rating(level)
    after, puzzle_after = rate_attempt(before, puzzle, solved=solved)
    assert (after.rating > before.rating) == solved
    assert (puzzle_after.rating < puzzle.rating) == solved
    assert after.deviation <= before.deviation + 2


@FAST
@given(
    st.floats(900, 2200),
    st.sets(st.sampled_from([p.id for p in SAMPLE]), max_size=20),
    st.sampled_from([None, "gift-answer", "competition-split", "win-now"]),
    st.text(max_size=8),
)
def test_the_next_puzzle_is_near_unseen_and_of_the_theme(
    rating: float, seen: set[str], theme: str | None, seed: str
) -> None:
    chosen = next_puzzle(SAMPLE, rating, ratings={}, seen=seen, theme=theme, seed=seed)
    pool = [p for p in SAMPLE if p.id not in seen and (theme is None or theme in p.themes)]
    if not pool:
        assert chosen is None
        return
    assert chosen is not None and chosen in pool
    nearest = min(abs(rating_of(p, {}) - rating) for p in pool)
    assert abs(rating_of(chosen, {}) - rating) <= nearest + 150
    assert chosen == next_puzzle(SAMPLE, rating, ratings={}, seen=seen, theme=theme, seed=seed)


def test_ratings_move_the_next_puzzle() -> None:
    target = SAMPLE[0]
    ratings = {target.id: 3000.0}
    assert next_puzzle(SAMPLE, 3000.0, ratings=ratings) == target


def test_the_daily_puzzle_is_one_per_date() -> None:
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=n) for n in range(30)]
    chosen = [daily_puzzle(PUZZLES, day) for day in days]
    assert chosen == [daily_puzzle(list(reversed(PUZZLES)), day) for day in days]
    assert len({p.id for p in chosen}) > 20


@given(st.integers(0, 2**31), st.integers(1, 40))
@settings(max_examples=20, deadline=None)
def test_a_streak_rises_and_ends_at_the_first_miss(seed: int, length: int) -> None:
    run = streak(SAMPLE, seed=seed, length=length)
    assert len(run) == min(length, len(SAMPLE)) and len(set(run)) == len(run)
    ratings = [rating_of(p, {}) for p in run]
    assert ratings == sorted(ratings)
    assert run == streak(SAMPLE, seed=seed, length=length)
    state = Streak(tuple(run))
    for _ in run[:-1]:
        state = state.answered(True)
    assert not state.over and state.current == run[-1]
    assert state.answered(False).over and state.answered(False).solved == len(run) - 1
    assert state.answered(True).over and state.answered(True).current is None
