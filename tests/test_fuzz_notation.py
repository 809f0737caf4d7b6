"""Fuzzing the move notation: ``Move.from_text``, ``Game.parse_move`` and
``Game.push_text`` on arbitrary and near-miss text, in random reachable positions; and
variant names (``Variant.by_name``).

Text either reads as a decision or is refused with ``InvalidMoveError`` (not a move),
``IllegalMoveError`` (not legal now) or ``GameOverError`` (the game is over), each with
a message; a refused decision leaves the game exactly as it was.
"""

from __future__ import annotations

from fuzz_strategies import (
    NOTATION_CHARS,
    TRICKY_CHARS,
    WELL_FORMED,
    fuzz_settings,
    fuzz_text,
    game_state,
    long_text,
    mutated,
    reachable_games,
)
from hypothesis import event, example, given
from hypothesis import strategies as st

from hanamikoji.core import (
    VARIANTS,
    Game,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    UnknownVariantError,
    Variant,
)

_SHAPES = ("S:A", "T:AG", "G:DDG", "C:AB/FG", "G>D", "C>FG", "S", "T", "G", "C", "C:AB/", "G>")


def move_texts(legal: tuple[str, ...] = ()) -> st.SearchStrategy[str]:
    """Arbitrary text, near misses of the notation, long strings, and edits of the
    texts in ``legal`` (the decisions legal in a position) and of every move shape."""
    shapes = st.sampled_from(legal + _SHAPES)
    return st.one_of(
        fuzz_text(),
        st.text(alphabet=NOTATION_CHARS + " ", max_size=12),
        shapes,
        WELL_FORMED,
        mutated(shapes),
        long_text(),
        st.builds(lambda text, pad: pad + text + pad, shapes, st.sampled_from(TRICKY_CHARS)),
    )


@st.composite
def positions_and_texts(draw: st.DrawFn) -> tuple[Game, str]:
    game = draw(reachable_games())
    legal = tuple(move.text() for move in game.legal_moves)
    return game, draw(move_texts(legal))


def _check_refusal(error: ValueError) -> None:
    event(f"refused: {type(error).__name__}")
    assert str(error).strip(), f"{type(error).__name__} without a message"


@fuzz_settings(1500)
@given(move_texts())
@example("ſ:D")  # str.upper() turns the long s into S: it reads as S:D
@example("S:²")
@example("C:AB/CD/EF")
@example("G>\ud800")
@example("\x85S:A\u2028")
def test_move_text_reads_or_is_refused(text: str) -> None:
    try:
        move = Move.from_text(text)
    except InvalidMoveError as error:
        _check_refusal(error)
        return
    event("read")
    written = move.text()
    assert set(written) <= set(NOTATION_CHARS + "/"), written
    assert Move.from_text(written) == move
    assert Move.from_text(written.lower()) == move


@fuzz_settings(800)
@given(positions_and_texts())
def test_parse_move_checks_legality_without_changing_the_game(case: tuple[Game, str]) -> None:
    game, text = case
    before = game_state(game)
    try:
        context_free: Move | None = Move.from_text(text)
    except InvalidMoveError:
        context_free = None
    try:
        move = game.parse_move(text)
    except InvalidMoveError as error:
        _check_refusal(error)
        assert context_free is None, f"{text!r} reads as {context_free} out of context"
    except IllegalMoveError as error:
        _check_refusal(error)
        assert context_free is not None and context_free not in game.legal_moves
        assert isinstance(error, GameOverError) == game.is_over()
    else:
        event("read, legal")
        assert move == context_free
        assert move in game.legal_moves
    assert game_state(game) == before


@fuzz_settings(800)
@given(positions_and_texts())
def test_push_text_pushes_a_legal_decision_or_changes_nothing(case: tuple[Game, str]) -> None:
    game, text = case
    before, stack = game_state(game), tuple(game.move_stack)
    try:
        move = game.push_text(text)
    except (InvalidMoveError, IllegalMoveError) as error:
        _check_refusal(error)
        assert game_state(game) == before
        return
    event("pushed")
    assert game.move_stack == (*stack, move)
    assert game.pop() == move
    assert game_state(game) == before


@fuzz_settings(500)
@given(
    st.one_of(
        fuzz_text(),
        st.builds(
            "{}{}{}".format,
            st.sampled_from([*VARIANTS, "Classic", ""]),
            st.sampled_from(["/cap=", "/cap=", "/cap", "/", "/cap==", "/round="]),
            st.one_of(
                st.integers(0, 2**70).map(str),
                st.sampled_from(["²", "١", "0", "01", "-1", " 1", "9" * 5000]),
                fuzz_text(),
            ),
        ),
    )
)
@example("classic/cap=²")  # crashed: int('²') after '²'.isdigit()
@example("classic/cap=" + "9" * 5000)  # crashed: more digits than int() reads
def test_variant_names_read_or_are_refused(name: str) -> None:
    """Variant names come from records, the engine protocol and the command line."""
    try:
        variant = Variant.by_name(name)
    except UnknownVariantError as error:
        _check_refusal(error)
        return
    event("read")
    assert Variant.by_name(variant.name) == variant
