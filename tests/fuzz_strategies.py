"""Strategies and settings shared by the fuzz tests (``tests/test_fuzz_*.py``).

The fuzz tests feed text from outside (move notation, game records, engine-protocol
lines, bot specs) to the readers and check that every input either reads or is refused
with the documented error, with a message, and that nothing read before is changed.

Every fuzz test is bounded (:func:`fuzz_settings`) and derandomized, so that the suite
tries the same inputs on every run. A longer, random campaign::

    HANAMIKOJI_FUZZ=20 .venv/bin/pytest tests/test_fuzz_*.py --hypothesis-show-statistics

multiplies every test's number of examples by 20 and draws new inputs on each run.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from hanamikoji.core import Game, deal_for_round

__all__ = [
    "HUGE_NUMBER",
    "NOTATION_CHARS",
    "NUMBER_TEXTS",
    "TRICKY_CHARS",
    "VARIANT_NAMES",
    "WELL_FORMED",
    "dealt_games",
    "fuzz_settings",
    "fuzz_text",
    "game_state",
    "long_text",
    "mutated",
    "play_randomly",
    "reachable_games",
]

_SCALE = os.environ.get("HANAMIKOJI_FUZZ", "")


def fuzz_settings(examples: int) -> settings:
    """At most ``examples`` inputs (times ``$HANAMIKOJI_FUZZ`` in a campaign), no deadline
    (a loaded machine must not fail a test), derandomized unless in a campaign."""
    scale = float(_SCALE) if _SCALE else 1.0
    return settings(
        max_examples=max(1, round(examples * scale)),
        deadline=None,
        derandomize=not _SCALE,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )


VARIANT_NAMES = ("classic", "three-rounds", "french", "classic/cap=2", "french/cap=1")

NOTATION_CHARS = "STGCstgc:>/ABCDEFGabcdefg"
"""The alphabet of the move notation, in both cases."""

TRICKY_CHARS = (
    # look like notation characters to str.upper / str.isdigit / int()
    "ſßıİKﬀﬃ²³¹١٢۳߁०０１９ＳＧａｇ"
    # whitespace Python splits on, line breaks that str.splitlines knows, format chars
    "\u00a0\u2000\u3000\u2028\u2029\x85\x1c\x1d\x1e\x1f\x0b\x0c\t\r\u200b\u200d\ufeff"
    # control characters, a combining mark, lone surrogates, a non-BMP character
    "\x00\x01\x1b\x7f\u0301\ud800\udfff\U0001f338"
    # near misses of the notation
    'HXZ0-9_.;#[]"\\=,+e '
)

_NEAR_CHARS = NOTATION_CHARS + TRICKY_CHARS

HUGE_NUMBER = "9" * 5000
"""More digits than ``int()`` reads (``sys.get_int_max_str_digits()`` is 4300)."""

NUMBER_TEXTS = st.one_of(
    st.integers(0, 12).map(str),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(
        ["0", "00", "01", "²", "١", "１", "١٢", "1_0", "+1", "1.0", "1e3", "9" * 400, HUGE_NUMBER]
    ),
)
"""Texts in place of a number: small, negative, past a float's range, more digits than
``int()`` reads, in other scripts' digits, in Python's other forms."""


def fuzz_text(alphabet: str = "", max_size: int = 40) -> st.SearchStrategy[str]:
    """Any text: full unicode, the notation alphabet with look-alikes, and ``alphabet``."""
    return st.one_of(
        st.text(max_size=max_size),
        st.text(alphabet=_NEAR_CHARS + alphabet, max_size=max_size),
    )


def long_text(alphabet: str = NOTATION_CHARS) -> st.SearchStrategy[str]:
    """A short piece of ``alphabet`` (and look-alikes) repeated into a long string."""
    return st.builds(
        lambda piece, times: piece * times,
        st.text(alphabet=alphabet + TRICKY_CHARS, min_size=1, max_size=5),
        st.integers(200, 20_000),
    )


_Edit = Callable[[str, int, st.DrawFn], str]


def _insert(text: str, at: int, draw: st.DrawFn) -> str:
    return text[:at] + draw(st.text(alphabet=_NEAR_CHARS, min_size=1, max_size=3)) + text[at:]


def _delete(text: str, at: int, draw: st.DrawFn) -> str:
    return text[:at] + text[at + draw(st.integers(1, 3)) :]


def _replace(text: str, at: int, draw: st.DrawFn) -> str:
    return text[:at] + draw(st.sampled_from(_NEAR_CHARS)) + text[at + 1 :]


def _swap_case(text: str, at: int, draw: st.DrawFn) -> str:
    return text[:at] + text[at : at + 1].swapcase() + text[at + 1 :]


def _duplicate(text: str, at: int, draw: st.DrawFn) -> str:
    return text[:at] + text[at : at + draw(st.integers(1, 4))] + text[at:]


def _swap(text: str, at: int, draw: st.DrawFn) -> str:
    return text[:at] + text[at + 1 : at + 2] + text[at : at + 1] + text[at + 2 :]


def _truncate(text: str, at: int, draw: st.DrawFn) -> str:
    return text[:at]


_EDITS: tuple[_Edit, ...] = (_insert, _delete, _replace, _swap_case, _duplicate, _swap, _truncate)


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str], edits: int = 3) -> str:
    """A text of ``base`` with 1 to ``edits`` character edits: insertions and
    replacements (notation characters and look-alikes), deletions, case swaps,
    duplicated or swapped characters, truncation."""
    text = draw(base)
    for _ in range(draw(st.integers(1, edits))):
        edit = draw(st.sampled_from(_EDITS))
        text = edit(text, draw(st.integers(0, len(text))), draw)
    return text


def _cards(count: int) -> st.SearchStrategy[str]:
    return st.text(alphabet="ABCDEFG", min_size=count, max_size=count)


WELL_FORMED = st.one_of(
    st.builds("S:{}".format, _cards(1)),
    st.builds("T:{}".format, _cards(2)),
    st.builds("G:{}".format, _cards(3)),
    st.builds("C:{}/{}".format, _cards(2), _cards(2)),
    st.builds("G>{}".format, _cards(1)),
    st.builds("C>{}".format, _cards(2)),
    st.sampled_from(("S", "T")),
)
"""Every decision the notation can write, legal or not."""


# -- games ----------------------------------------------------------------------------------


def play_randomly(game: Game, decisions: int, rng: random.Random, deal_seed: int = 0) -> Game:
    """Push up to ``decisions`` random legal decisions (fewer if the game ends); a game
    with external deals gets the deals of ``deal_seed``."""
    for _ in range(decisions):
        if game.needs_deal:
            game.deal(deal_for_round(deal_seed, len(game.deals()) + 1))
        if game.is_over():
            break
        moves = game.legal_moves
        game.push(moves[rng.randrange(len(moves))])
    return game


_DECISIONS = st.one_of(st.integers(0, 30), st.integers(0, 400))


@st.composite
def reachable_games(draw: st.DrawFn) -> Game:
    """A seeded game of any variant after some random legal decisions (over, often)."""
    game = Game(
        draw(st.sampled_from(VARIANT_NAMES)),
        seed=draw(st.integers(0, 2**64 - 1)),
        first_player=draw(st.integers(0, 1)),
    )
    return play_randomly(game, draw(_DECISIONS), random.Random(draw(st.integers(0, 2**32))))


@st.composite
def dealt_games(draw: st.DrawFn) -> Game:
    """A game without a seed, dealt round by round (its record has a Deal per round), or
    a seeded game whose first rounds were dealt explicitly."""
    variant = draw(st.sampled_from(VARIANT_NAMES))
    first = draw(st.integers(0, 1))
    deal_seed = draw(st.integers(0, 2**64 - 1))
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.booleans()):
        game = Game(variant, first_player=first, external_deals=True)
        game.deal(deal_for_round(deal_seed, 1))
    else:
        explicit = [deal_for_round(deal_seed, n) for n in range(1, draw(st.integers(1, 3)) + 1)]
        seed = draw(st.integers(0, 2**64 - 1))
        game = Game(variant, seed=seed, first_player=first, deals=explicit)
    return play_randomly(game, draw(_DECISIONS), rng, deal_seed)


def game_state(game: Game) -> tuple[object, ...]:
    """Everything a refused decision must leave as it was: the move stack, both seats'
    views, both hands, the position and the legal decisions."""
    return (
        tuple(game.move_stack),
        game.view(0),
        game.view(1),
        game.hand(0),
        game.hand(1),
        game.position_key(),
        game.legal_moves,
        game.needs_deal,
        game.log(),
        game.deals(),
    )
