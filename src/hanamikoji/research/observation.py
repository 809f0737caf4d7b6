"""Observation and information-state tensors and strings, built from a :class:`View` only.

Everything here is a function of one player's :class:`~hanamikoji.core.view.View`, so
nothing hidden from that player can leak into what a learner sees. Tensors are flat
``float32`` vectors from the viewing player's perspective ("mine" is the view's player,
"theirs" the opponent). Counts are raw card counts (0 to 5), not normalised.

The layouts (name, offset, size) are :data:`OBSERVATION_LAYOUT` and
:data:`INFORMATION_STATE_LAYOUT`; ``docs/research.md`` shows them as tables generated
from these definitions (``scripts/make-action-table`` rewrites them, a test checks them).

>>> from hanamikoji import Game
>>> view = Game(seed=7).view(0)
>>> tensor = observation_tensor(view)
>>> tensor.shape == (OBSERVATION_SIZE,)
True
>>> [int(x) for x in OBSERVATION_LAYOUT.slice(tensor, "hand")]
[1, 0, 0, 1, 1, 2, 2]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hanamikoji.core.cards import ITEM_COUNT, ITEM_LETTERS, letters
from hanamikoji.core.moves import ACTIONS, MoveKind
from hanamikoji.core.rng import DECK_SIZE
from hanamikoji.core.view import LogEntry, Phase, View

__all__ = [
    "HISTORY_TURN_LAYOUT",
    "INFORMATION_STATE_LAYOUT",
    "INFORMATION_STATE_SIZE",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "Layout",
    "Piece",
    "information_state_string",
    "information_state_tensor",
    "observation_string",
    "observation_tensor",
]

Tensor = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Piece:
    """A named, contiguous part of a flat tensor; every value in it is from 0 to ``high``."""

    name: str
    offset: int
    size: int
    high: float
    meaning: str


class Layout:
    """An ordered list of named pieces making up a flat tensor."""

    def __init__(self, pieces: list[tuple[str, int, float, str]]) -> None:
        built: list[Piece] = []
        offset = 0
        for name, size, high, meaning in pieces:
            built.append(Piece(name, offset, size, high, meaning))
            offset += size
        self.pieces: tuple[Piece, ...] = tuple(built)
        self.size = offset
        self._by_name = {piece.name: piece for piece in built}

    def __getitem__(self, name: str) -> Piece:
        return self._by_name[name]

    def offset(self, name: str) -> int:
        return self._by_name[name].offset

    def slice(self, tensor: Tensor, name: str) -> Tensor:
        """The part of ``tensor`` that holds the piece ``name`` (a view, not a copy)."""
        piece = self._by_name[name]
        return tensor[piece.offset : piece.offset + piece.size]

    def high(self) -> Tensor:
        """Each value's upper bound (``inf`` for the round number, which the variant bounds)."""
        bounds = np.zeros(self.size, dtype=np.float32)
        for piece in self.pieces:
            bounds[piece.offset : piece.offset + piece.size] = piece.high
        return bounds

    def markdown(self) -> str:
        """The layout as a Markdown table (for ``docs/research.md``)."""
        lines = ["| offset | size | name | values | meaning |", "|---:|---:|---|---|---|"]
        for p in self.pieces:
            if p.high != p.high:  # _MIXED: a piece made of others
                values = "see its table"
            elif p.high == _UNBOUNDED:
                values = "1 and up"
            else:
                values = f"0-{p.high:g}"
            lines.append(f"| {p.offset} | {p.size} | `{p.name}` | {values} | {p.meaning} |")
        lines.append(f"| {self.size} | | | | total size |")
        return "\n".join(lines)


_UNBOUNDED = float("inf")
_MIXED = float("nan")
_MOST_COPIES = 5
_MOST_IN_HAND = 10
_ROW = "one per geisha, A (Ayane) .. G (Ruri)"
_ACTIONS_ROW = "Secret, Trade-off, Gift, Competition"
_PHASES = (
    Phase.TURN,
    Phase.GIFT_RESPONSE,
    Phase.COMPETITION_RESPONSE,
    Phase.AWAITING_DEAL,
    Phase.OVER,
)

OBSERVATION_LAYOUT = Layout(
    [
        ("hand", ITEM_COUNT, _MOST_COPIES, f"my hand: count of each item, {_ROW}"),
        ("drawn", ITEM_COUNT, 1, "the card I drew for this turn (one-hot; zero unless I act now)"),
        ("my_secret", ITEM_COUNT, 1, "my Secret card this round (one-hot; zero before my Secret)"),
        ("my_tradeoff", ITEM_COUNT, 2, "my two Trade-off cards this round (counts)"),
        ("placed_mine", ITEM_COUNT, _MOST_COPIES, "cards on my side this round, Secret excluded"),
        ("placed_theirs", ITEM_COUNT, _MOST_COPIES, "cards on the opponent's side this round"),
        (
            "favor",
            3 * ITEM_COUNT,
            1,
            "favor markers: for geisha k, offsets 3k, 3k+1, 3k+2 are one-hot mine, neutral, theirs",
        ),
        ("used_mine", len(ACTIONS), 1, f"my action markers used this round ({_ACTIONS_ROW})"),
        ("used_theirs", len(ACTIONS), 1, f"the opponent's used action markers ({_ACTIONS_ROW})"),
        ("offer_cards", ITEM_COUNT, 4, "cards of the Gift or Competition awaiting its answer"),
        ("offer_first_pair", ITEM_COUNT, 2, "first pair of that Competition (canonical order)"),
        ("offer_second_pair", ITEM_COUNT, 2, "second pair of that Competition"),
        (
            "phase",
            len(_PHASES),
            1,
            "one-hot: turn, gift-response, competition-response, awaiting-deal, over",
        ),
        ("to_move", 3, 1, "who decides now, one-hot: me, the opponent, nobody"),
        ("starter", 2, 1, "who started this round, one-hot: me, the opponent"),
        ("round", 1, _UNBOUNDED, "the round number (1, 2, ... up to the variant's limit)"),
        ("last_round", 1, 1, "1 if the variant (or its cap) ends the game after this round"),
        ("deck_size", 1, DECK_SIZE - 1, "cards left in the deck"),
        ("hand_sizes", 2, _MOST_IN_HAND, "cards in my hand, in the opponent's hand"),
        ("unseen", ITEM_COUNT, _MOST_COPIES, "cards I have not seen this round, wherever they are"),
    ]
)
OBSERVATION_SIZE = OBSERVATION_LAYOUT.size

HISTORY_TURN_LAYOUT = Layout(
    [
        ("actor", 2, 1, "who took the turn, one-hot: me, the opponent (zero: not yet played)"),
        ("action", len(ACTIONS), 1, f"the action marker used, one-hot ({_ACTIONS_ROW})"),
        (
            "cards",
            ITEM_COUNT,
            4,
            "its cards as I know them: mine always, the opponent's Gift and Competition; "
            "zero for the opponent's Secret and Trade-off",
        ),
        ("first_pair", ITEM_COUNT, 2, "a Competition's first pair (canonical order)"),
        (
            "taken",
            ITEM_COUNT,
            2,
            "the card or pair the other player took from a Gift or Competition",
        ),
    ]
)

INFORMATION_STATE_LAYOUT = Layout(
    [
        ("observation", OBSERVATION_SIZE, _MIXED, "the observation tensor above"),
        (
            "history",
            DECK_SIZE * HISTORY_TURN_LAYOUT.size,
            _MIXED,
            f"this round's turns 1-{DECK_SIZE}, {HISTORY_TURN_LAYOUT.size} values each: turn t "
            f"at offset {OBSERVATION_SIZE} + (t - 1) x {HISTORY_TURN_LAYOUT.size}, laid out as "
            "the next table",
        ),
    ]
)
INFORMATION_STATE_SIZE = INFORMATION_STATE_LAYOUT.size

_O = {piece.name: piece.offset for piece in OBSERVATION_LAYOUT.pieces}
_H = {piece.name: piece.offset for piece in HISTORY_TURN_LAYOUT.pieces}
_TURN = HISTORY_TURN_LAYOUT.size
_HISTORY = INFORMATION_STATE_LAYOUT.offset("history")


def _add_cards(tensor: Tensor, offset: int, cards: tuple[int, ...]) -> None:
    for card in cards:
        tensor[offset + card] += 1.0


def _add_counts(tensor: Tensor, offset: int, per_kind: tuple[int, ...]) -> None:
    tensor[offset : offset + ITEM_COUNT] = per_kind


def _fill_observation(tensor: Tensor, view: View) -> None:
    me, them = view.player, view.opponent
    _add_cards(tensor, _O["hand"], view.hand)
    if view.drawn is not None:
        tensor[_O["drawn"] + view.drawn] = 1.0
    if view.secret is not None:
        tensor[_O["my_secret"] + view.secret] = 1.0
    _add_cards(tensor, _O["my_tradeoff"], view.tradeoff)
    _add_counts(tensor, _O["placed_mine"], view.placed[me])
    _add_counts(tensor, _O["placed_theirs"], view.placed[them])
    for geisha, holder in enumerate(view.favor):
        slot = 1 if holder is None else (0 if holder == me else 2)
        tensor[_O["favor"] + 3 * geisha + slot] = 1.0
    for kind in view.used[me]:
        tensor[_O["used_mine"] + kind] = 1.0
    for kind in view.used[them]:
        tensor[_O["used_theirs"] + kind] = 1.0
    pending = view.pending
    if pending is not None:
        _add_cards(tensor, _O["offer_cards"], pending.cards)
        if pending.kind == MoveKind.COMPETITION:
            first, second = pending.pairs  # type: ignore[misc]
            _add_cards(tensor, _O["offer_first_pair"], first)
            _add_cards(tensor, _O["offer_second_pair"], second)
    tensor[_O["phase"] + _PHASES.index(view.phase)] = 1.0
    to_move = 2 if view.to_move is None else (0 if view.to_move == me else 1)
    tensor[_O["to_move"] + to_move] = 1.0
    tensor[_O["starter"] + (0 if view.round_starter == me else 1)] = 1.0
    tensor[_O["round"]] = view.round
    limit = view.variant.max_rounds
    tensor[_O["last_round"]] = 1.0 if limit is not None and view.round >= limit else 0.0
    tensor[_O["deck_size"]] = view.deck_size
    tensor[_O["hand_sizes"]] = view.hand_sizes[me]
    tensor[_O["hand_sizes"] + 1] = view.hand_sizes[them]
    _add_counts(tensor, _O["unseen"], view.unseen())


def _target(size: int, out: Tensor | None) -> Tensor:
    if out is None:
        return np.zeros(size, dtype=np.float32)
    if out.shape != (size,):
        raise ValueError(f"expected a vector of {size} values, got shape {out.shape}")
    out.fill(0.0)
    return out


def observation_tensor(view: View, out: Tensor | None = None) -> Tensor:
    """What the view's player sees now, as a flat vector laid out by
    :data:`OBSERVATION_LAYOUT` (written into ``out`` if given, which is returned)."""
    tensor = _target(OBSERVATION_SIZE, out)
    _fill_observation(tensor, view)
    return tensor


def _current_round(view: View) -> list[LogEntry]:
    return [entry for entry in view.log if entry.round == view.round]


def _fill_history(tensor: Tensor, view: View) -> None:
    me = view.player
    for entry in _current_round(view):
        base = _HISTORY + (entry.turn - 1) * _TURN
        move = entry.move
        if move.is_response:
            _add_cards(tensor, base + _H["taken"], move.cards)
            continue
        tensor[base + _H["actor"] + (0 if entry.seat == me else 1)] = 1.0
        tensor[base + _H["action"] + move.kind] = 1.0
        _add_cards(tensor, base + _H["cards"], move.cards)
        if move.kind == MoveKind.COMPETITION:
            first, _ = move.pairs  # type: ignore[misc]
            _add_cards(tensor, base + _H["first_pair"], first)


def information_state_tensor(view: View, out: Tensor | None = None) -> Tensor:
    """The observation followed by this round's turns as the view's player saw them,
    laid out by :data:`INFORMATION_STATE_LAYOUT` and :data:`HISTORY_TURN_LAYOUT`.

    Earlier rounds are left out: every round is dealt afresh, and what carries over
    (the favor markers, the round number) is in the observation. The string form,
    :func:`information_state_string`, keeps the whole game.
    """
    tensor = _target(INFORMATION_STATE_SIZE, out)
    _fill_observation(tensor, view)
    _fill_history(tensor, view)
    return tensor


# -- strings ------------------------------------------------------------------------------


def _count_letters(per_kind: tuple[int, ...]) -> str:
    return letters(k for k, n in enumerate(per_kind) for _ in range(n)) or "-"


def _seat(seat: int | None) -> str:
    return "-" if seat is None else f"P{seat + 1}"


def _used(kinds: frozenset[MoveKind]) -> str:
    return "".join("STGC"[kind] for kind in sorted(kinds)) or "-"


def observation_string(view: View) -> str:
    """What the view's player sees now, on one line (cards by letter, ``P1``/``P2`` for seats).

    >>> from hanamikoji import Game
    >>> print(observation_string(Game(seed=7).view(0)))
    P1 classic round 1 starter P1 turn to-move P1 | hand ADEFFGG drew G secret - trade-off -
    | sides P1 - P2 - | favor ------- | used P1 - P2 - | offer - | deck 7 hands 7/6
    """
    me = view.player
    limit = view.variant.name
    parts = [
        f"{_seat(me)} {limit} round {view.round} starter {_seat(view.round_starter)}"
        f" {view.phase.value} to-move {_seat(view.to_move)}",
        f"hand {letters(view.hand) or '-'}"
        f" drew {letters(() if view.drawn is None else (view.drawn,)) or '-'}"
        f" secret {letters(() if view.secret is None else (view.secret,)) or '-'}"
        f" trade-off {letters(view.tradeoff) or '-'}",
        f"sides P1 {_count_letters(view.placed[0])} P2 {_count_letters(view.placed[1])}",
        "favor " + "".join("-" if f is None else str(f + 1) for f in view.favor),
        f"used P1 {_used(view.used[0])} P2 {_used(view.used[1])}",
        f"offer {view.pending if view.pending is not None else '-'}",
        f"deck {view.deck_size} hands {view.hand_sizes[0]}/{view.hand_sizes[1]}",
    ]
    return " | ".join(parts)


def _entry(entry: LogEntry) -> str:
    return f"{entry.round}.{entry.turn} {_seat(entry.seat)} {entry.move}"


def information_state_string(view: View) -> str:
    """Everything the view's player knows: the observation, then every decision of the
    game as they saw it (the opponent's Secret and Trade-off hidden) and each scored
    round's revealed Secrets."""
    history: list[str] = []
    summaries = {summary.round: summary for summary in view.rounds}
    current = 1
    for entry in view.log:
        while entry.round > current:
            history.append(_scored(summaries[current].secrets))
            current += 1
        history.append(_entry(entry))
    while current in summaries:
        history.append(_scored(summaries[current].secrets))
        current += 1
    return observation_string(view) + " || " + ", ".join(history)


def _scored(secrets: tuple[int, int]) -> str:
    shown = "/".join(ITEM_LETTERS[s] if s >= 0 else "-" for s in secrets)
    return f"scored secrets {shown}"
