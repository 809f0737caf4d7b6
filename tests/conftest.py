"""Helpers shared by the rules, property and perft tests, and a line in the test summary
for each reason PostgreSQL (or deployment) tests were skipped, with how many.

The brute-force generator here is deliberately written without the engine's move
generator: it walks card *positions* in the hand with itertools and builds the text
forms itself, so a bug in ``turn_moves`` / ``response_moves`` cannot hide in both.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from pathlib import Path
from types import ModuleType

import pytest

from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.bots.judge import Tuning
from hanamikoji.core import (
    GEISHAS,
    Deal,
    Game,
    LogEntry,
    Move,
    MoveKind,
    Outcome,
    Phase,
    Reveal,
    RoundSummary,
    View,
)

LETTERS = "ABCDEFG"
FULL_DECK: Counter[int] = Counter({g.index: g.charm for g in GEISHAS})


def cards_of(letters: str) -> tuple[int, ...]:
    """Item indices of a string of geisha letters (``"AAG"`` -> ``(0, 0, 6)``)."""
    return tuple(LETTERS.index(ch) for ch in letters)


def letters_of(cards: Iterable[int]) -> str:
    return "".join(LETTERS[c] for c in sorted(cards))


# -- brute force ------------------------------------------------------------------------


def brute_force_moves(game: Game) -> set[str]:
    """Every legal decision's text, enumerated over individual cards of the hand."""
    seat = game.to_move
    if seat is None:
        return set()
    pending = game.pending
    if pending is not None:
        if pending.kind == MoveKind.GIFT:
            return {"G>" + LETTERS[card] for card in pending.cards}
        first, second = pending.pairs  # type: ignore[misc]
        return {"C>" + letters_of(pair) for pair in (first, second)}
    hand = game.hand(seat)
    used = game.view(seat).used[seat]
    positions = range(len(hand))
    texts: set[str] = set()
    if MoveKind.SECRET not in used:
        texts.update("S:" + LETTERS[hand[i]] for i in positions)
    if MoveKind.TRADE_OFF not in used:
        texts.update("T:" + letters_of(hand[i] for i in two) for two in combinations(positions, 2))
    if MoveKind.GIFT not in used:
        texts.update(
            "G:" + letters_of(hand[i] for i in three) for three in combinations(positions, 3)
        )
    if MoveKind.COMPETITION not in used:
        for a, b, c, d in permutations(positions, 4):
            pairs = sorted((letters_of((hand[a], hand[b])), letters_of((hand[c], hand[d]))))
            texts.add(f"C:{pairs[0]}/{pairs[1]}")
    return texts


def perft(game: Game, depth: int) -> int:
    """Distinct decision sequences of exactly ``depth`` decisions (engine generator)."""
    moves = game.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


def brute_force_perft(game: Game, depth: int) -> int:
    """Like :func:`perft`, but every level enumerated by :func:`brute_force_moves`
    and played through the text parser."""
    texts = brute_force_moves(game)
    if depth == 1:
        return len(texts)
    total = 0
    for text in texts:
        game.push_text(text)
        total += brute_force_perft(game, depth - 1)
        game.pop()
    return total


# -- snapshots ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """Everything observable about a game through its public API, for equality checks."""

    views: tuple[View, View]
    legal: tuple[Move, ...]
    outcome: Outcome | None
    round: int
    round_starter: int
    to_move: int | None
    turn: int
    phase: Phase
    pending: Move | None
    favor: tuple[int | None, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    deck: tuple[int, ...]
    removed: int | None
    summaries: tuple[RoundSummary, ...]
    deals: tuple[Deal, ...]
    move_stack: tuple[Move, ...]
    logs: tuple[tuple[LogEntry, ...], tuple[LogEntry, ...], tuple[LogEntry, ...]]
    needs_deal: bool
    reveal: Reveal | None


def snapshot(game: Game) -> Snapshot:
    return Snapshot(
        views=(game.view(0), game.view(1)),
        legal=game.legal_moves,
        outcome=game.outcome,
        round=game.round,
        round_starter=game.round_starter,
        to_move=game.to_move,
        turn=game.turn,
        phase=game.phase,
        pending=game.pending,
        favor=game.favor(),
        hands=(game.hand(0), game.hand(1)),
        deck=game.deck(),
        removed=game.removed(),
        summaries=game.summaries(),
        deals=game.deals(),
        move_stack=tuple(game.move_stack),
        logs=(game.log(), game.log(0), game.log(1)),
        needs_deal=game.needs_deal,
        reveal=game.reveal() if game.is_over() else None,
    )


# -- scripted rounds ---------------------------------------------------------------------

ACTION_ORDER = "CGTS"


def scripted_round(
    side0: str,
    side1: str,
    tradeoff0: str,
    tradeoff1: str,
    removed: str,
    starter: int = 0,
    orders: tuple[str, str] = (ACTION_ORDER, ACTION_ORDER),
) -> tuple[Deal, list[str]]:
    """A deal and the 8 turns (with responses) after which seat ``s`` has exactly the
    8 cards ``side{s}`` on its side at scoring (Secret included).

    Seat 0's Secret is ``side0[0]``; its Gift offers ``side0[1:3]`` plus ``side1[0]``,
    which seat 1 takes; its Competition offers ``side0[3:5]`` against ``side1[1:3]``,
    and seat 1 takes the latter. Seat 1 mirrors this with ``side1[3:8]`` and
    ``side0[5:8]``. Each seat plays its actions in the order given by ``orders``
    (letters S, T, G, C). Each seat's 10 cards are dealt in the order the actions use
    them: the first 6 in hand, the rest drawn; any order of the four actions is then
    playable, since after ``k`` actions at most ``6 + k`` cards have been needed.
    """
    if len(side0) != 8 or len(side1) != 8:
        raise ValueError("each side gets exactly 8 cards in a round")
    # Per seat: (own Secret, own Gift cards, card the opponent takes from it, own
    # Competition pair, pair the opponent takes from it).
    shares = (
        (side0[0], side0[1:3], side1[0], side0[3:5], side1[1:3]),
        (side1[3], side1[4:6], side0[5], side1[6:8], side0[6:8]),
    )
    plans: list[dict[str, tuple[str, str | None]]] = []
    for seat, (secret, kept, given, pair, given_pair) in enumerate(shares):
        plans.append(
            {
                "S": ("S:" + secret, None),
                "T": ("T:" + (tradeoff0, tradeoff1)[seat], None),
                "G": ("G:" + kept + given, "G>" + given),
                "C": (f"C:{pair}/{given_pair}", "C>" + given_pair),
            }
        )
    sequences: list[str] = []
    for seat in (0, 1):
        cards = ""
        for action in orders[seat]:
            text = plans[seat][action][0]
            cards += text[2:].replace("/", "")
        sequences.append(cards)
    draws = (sequences[0][6:], sequences[1][6:])
    deck: list[int] = []
    for turn in range(8):
        seat = starter if turn % 2 == 0 else 1 - starter
        deck.append(cards_of(draws[seat][turn // 2])[0])
    deal = Deal(
        cards_of(removed)[0],
        (cards_of(sequences[0][:6]), cards_of(sequences[1][:6])),
        tuple(deck),
    )
    script: list[str] = []
    for turn in range(8):
        seat = starter if turn % 2 == 0 else 1 - starter
        action, response = plans[seat][orders[seat][turn // 2]]
        script.append(action)
        if response is not None:
            script.append(response)
    return deal, script


def play(game: Game, texts: Sequence[str]) -> None:
    for text in texts:
        game.push_text(text)


# -- random lines ------------------------------------------------------------------------


def card_multiset(game: Game) -> Counter[int]:
    """Every card of the current round, wherever it is, as read through the public API.

    While a round is being played: both hands, both Secrets and Trade-offs (each seen by
    its owner's view), the cards placed on both sides, a pending offer, the deck and the
    removed card. Once the game is over: the last round's sides, Trade-offs and removed
    card from the reveal.
    """
    total: Counter[int] = Counter()
    if game.is_over():
        last = game.reveal().rounds[-1]
        sides = game.summaries()[-1].sides
        for seat in (0, 1):
            total.update({k: n for k, n in enumerate(sides[seat]) if n})
            total.update(last.tradeoffs[seat])
        total[last.deal.removed] += 1
        return total
    for seat in (0, 1):
        view = game.view(seat)
        total.update(game.hand(seat))
        total.update(view.tradeoff)
        if view.secret is not None:
            total[view.secret] += 1
        total.update({k: n for k, n in enumerate(view.placed[seat]) if n})
    pending = game.pending
    if pending is not None:
        total.update(pending.cards)
    total.update(game.deck())
    removed = game.removed()
    assert removed is not None
    total[removed] += 1
    return total


def random_position(variant: str, seed: int, plies: int) -> Game:
    """A game of ``variant`` after ``plies`` uniformly random decisions (fewer if it ends)."""
    game = Game(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over():
            break
        legal = game.legal_moves
        game.push(legal[rng.randrange(len(legal))])
    return game


def greedy_game(
    variant: str,
    seed: int,
    bot_seeds: tuple[int, int],
    compiled: bool = False,
    tunings: tuple[Tuning | None, Tuning | None] = (None, None),
) -> Game:
    """The game of ``seed`` (its first player the seed's parity, as the compiled engine's
    batches are dealt) played to its end by ``GreedyBot(seed=bot_seeds[s],
    tuning=tunings[s])`` in seat ``s``."""
    game = Game(variant, seed=seed, first_player=seed % 2)
    bots = [
        GreedyBot(seed=s, tuning=t, compiled=compiled)
        for s, t in zip(bot_seeds, tunings, strict=True)
    ]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat), game.legal_moves))
    return game


BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/NAME.py`` as a module (benchmarks are not a package; a
    script imports its sibling modules by name, as when it is run)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.append(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # A dataclass of the script looks its module up by name.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# -- the test summary --------------------------------------------------------------------

POSTGRES_NOT_RUN = "PostgreSQL tests not run: "
"""How the reason of every skip for want of PostgreSQL starts (``tests/postgres_db.py``)."""

DEPLOYMENT_NOT_RUN = "deployment tests not run: "
"""How the reason of every skip for want of nginx starts (``tests/test_web_deploy.py``)."""


def not_run_lines(reasons: Iterable[str]) -> list[str]:
    """The summary's lines for the skip ``reasons`` of a run: one a reason of
    :data:`POSTGRES_NOT_RUN` or :data:`DEPLOYMENT_NOT_RUN`, with how many tests it
    skipped; other skips are left to pytest's own count."""
    counts = Counter(r for r in reasons if r.startswith((POSTGRES_NOT_RUN, DEPLOYMENT_NOT_RUN)))
    lines = []
    for reason, count in counts.items():
        what, why = reason.split(": ", 1)
        lines.append(f"{what} ({count} skipped): {why}")
    return lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say plainly which PostgreSQL (and deployment) tests did not run, and why: without
    a database they skip, and a count of skipped tests among others would hide it."""
    reasons = []
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons.append(reason.removeprefix("Skipped: "))
    for line in not_run_lines(reasons):
        terminalreporter.write_line(line, yellow=True, bold=True)


@pytest.fixture
def schema() -> Iterator[str]:
    """The URL of a fresh PostgreSQL schema for one test, dropped after it (for tests
    marked ``needs_postgres``: ``postgres_db.postgres_schemas``)."""
    from postgres_db import postgres_schemas

    with postgres_schemas() as new_schema:
        yield new_schema()
