"""A learned policy and value: which decision the search would make, and what it is worth.

A small multilayer perceptron (two hidden ReLU layers) reads one player's view and one
of their legal decisions and gives two numbers: a policy logit (a softmax over a view's
decisions is the network's guess of the search's decision distribution) and a value
logit (a sigmoid of it is the player's chance of winning the match once the round is
over, as the search values the decision). It is trained by expert iteration (Anthony,
Tian and Barber, "Thinking Fast and Slow with Deep Learning and Tree Search", NeurIPS
2017): self-play games whose decisions are made by the search of
:mod:`hanamikoji.bots.ismcts`, guided by the previous network, give the targets
(:mod:`hanamikoji.training` builds it).

The input is the view's state features followed by the decision's features and the
greedy judge's opinion of it, all small counts (raw, scaled by :data:`SCALE`). The
first layer is linear, so its state part is computed once per view and its decision
part once per distinct decision (remembered), and scoring all of a view's legal
decisions costs one batch through the two upper layers.

The trained weights are ``data/value_network.npz``; ``data/value_network.json`` records
their SHA-256, the command that made them and every generation's training log.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeAlias

from hanamikoji.bots.base import Bot, register
from hanamikoji.bots.greedy import GreedyBot
from hanamikoji.core.cards import ITEM_COUNT
from hanamikoji.core.moves import ACTIONS, Move, MoveKind
from hanamikoji.core.view import Phase, View
from hanamikoji.extras import require

# The network computes with NumPy (the learned extra), imported when a network is made:
# without it this module imports (the features are plain Python), and a network asked
# for says what to install.
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ACTION_SIZE",
    "INPUT_SIZE",
    "STATE_SIZE",
    "LearnedBot",
    "ValueNetwork",
    "action_features",
    "judge_features",
    "load_network",
    "state_features",
]

if TYPE_CHECKING:
    Array: TypeAlias = npt.NDArray[np.float32]

WEIGHTS_FILE = "value_network.npz"
MANIFEST_FILE = "value_network.json"

_PER_GEISHA = (
    # name, scale
    ("hand", 5.0),
    ("placed_mine", 5.0),
    ("placed_theirs", 5.0),
    ("my_secret", 1.0),
    ("my_tradeoff", 2.0),
    ("unseen", 5.0),
    ("favor_mine", 1.0),
    ("favor_theirs", 1.0),
    ("offer", 4.0),
    ("offer_first_pair", 2.0),
    ("offer_second_pair", 2.0),
)
_GLOBAL = (
    ("deck_size", 8.0),
    ("my_hand_size", 10.0),
    ("their_hand_size", 10.0),
    *((f"used_mine_{kind.name.lower()}", 1.0) for kind in ACTIONS),
    *((f"used_theirs_{kind.name.lower()}", 1.0) for kind in ACTIONS),
    ("round", 3.0),
    ("last_round", 1.0),
    ("i_started", 1.0),
    ("answering_gift", 1.0),
    ("answering_competition", 1.0),
)
_ACTION_ROLES = (
    MoveKind.SECRET,
    MoveKind.TRADE_OFF,
    MoveKind.GIFT,
    "first_pair",
    "second_pair",
    MoveKind.GIFT_RESPONSE,
    MoveKind.COMPETITION_RESPONSE,
)
_KINDS = tuple(MoveKind)
_RANKED = 4
"""The judge's first this many ranks each have an input; later ranks share one."""
_JUDGE = (
    # name, scale: the greedy judge's opinion of the decision, which the network corrects
    ("judge_score", 0.2),
    ("judge_gap", 0.05),
    *((f"judge_rank_{rank}", 1.0) for rank in range(1, _RANKED + 1)),
    ("judge_rank_later", 1.0),
)

STATE_SIZE = len(_PER_GEISHA) * ITEM_COUNT + len(_GLOBAL)
ACTION_SIZE = len(_ACTION_ROLES) * ITEM_COUNT + len(_KINDS)
JUDGE_SIZE = len(_JUDGE)
INPUT_SIZE = STATE_SIZE + ACTION_SIZE + JUDGE_SIZE

SCALE_VALUES: tuple[float, ...] = (
    *(scale for _, scale in _PER_GEISHA for _ in range(ITEM_COUNT)),
    *(scale for _, scale in _GLOBAL),
    *(
        2.0 if role in ("first_pair", "second_pair") else 3.0
        for role in _ACTION_ROLES
        for _ in range(ITEM_COUNT)
    ),
    *([1.0] * len(_KINDS)),
    *(scale for _, scale in _JUDGE),
)
"""Divides the raw features: every input lies in [0, 1] or a little above."""

if TYPE_CHECKING:
    SCALE: Array
    """:data:`SCALE_VALUES` as the network reads them (a NumPy array, made when asked
    for)."""


def __getattr__(name: str) -> object:
    if name == "SCALE":
        return _scale()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _scale() -> Array:
    _numpy()
    import numpy as np

    return np.array(SCALE_VALUES, dtype=np.float32)


def _numpy() -> None:
    """Raise :class:`~hanamikoji.extras.MissingExtraError` without NumPy."""
    require("numpy", "learned", "the learned evaluation (the learned and expert bots)")


OUTPUTS = 2
"""The last layer's outputs: the policy logit, then the value logit."""
POLICY, VALUE = 0, 1

_PIECE = {name: index * ITEM_COUNT for index, (name, _) in enumerate(_PER_GEISHA)}
_GLOBAL_AT = {name: len(_PER_GEISHA) * ITEM_COUNT + i for i, (name, _) in enumerate(_GLOBAL)}


def state_features(view: View) -> list[int]:
    """The view's state part of the input, from the deciding player's side (raw counts).

    Only what the view's player may know: their own hand, Secret and Trade-off, the
    placed cards, the markers, the pending offer and counts of unseen cards.
    """
    out = [0] * STATE_SIZE
    me, them = view.player, view.opponent
    for card in view.hand:
        out[_PIECE["hand"] + card] += 1
    mine, theirs = view.placed[me], view.placed[them]
    unseen = view.unseen()
    for geisha in range(ITEM_COUNT):
        out[_PIECE["placed_mine"] + geisha] = mine[geisha]
        out[_PIECE["placed_theirs"] + geisha] = theirs[geisha]
        out[_PIECE["unseen"] + geisha] = unseen[geisha]
        holder = view.favor[geisha]
        if holder == me:
            out[_PIECE["favor_mine"] + geisha] = 1
        elif holder == them:
            out[_PIECE["favor_theirs"] + geisha] = 1
    if view.secret is not None:
        out[_PIECE["my_secret"] + view.secret] = 1
    for card in view.tradeoff:
        out[_PIECE["my_tradeoff"] + card] += 1
    pending = view.pending
    if pending is not None:
        for card in pending.cards:
            out[_PIECE["offer"] + card] += 1
        if pending.kind == MoveKind.COMPETITION:
            first, second = pending.pairs  # type: ignore[misc]
            for card in first:
                out[_PIECE["offer_first_pair"] + card] += 1
            for card in second:
                out[_PIECE["offer_second_pair"] + card] += 1
    out[_GLOBAL_AT["deck_size"]] = view.deck_size
    out[_GLOBAL_AT["my_hand_size"]] = view.hand_sizes[me]
    out[_GLOBAL_AT["their_hand_size"]] = view.hand_sizes[them]
    for kind in view.used[me]:
        out[_GLOBAL_AT[f"used_mine_{kind.name.lower()}"]] = 1
    for kind in view.used[them]:
        out[_GLOBAL_AT[f"used_theirs_{kind.name.lower()}"]] = 1
    out[_GLOBAL_AT["round"]] = view.round
    limit = view.variant.max_rounds
    out[_GLOBAL_AT["last_round"]] = int(limit is not None and view.round >= limit)
    out[_GLOBAL_AT["i_started"]] = int(view.round_starter == me)
    out[_GLOBAL_AT["answering_gift"]] = int(view.phase == Phase.GIFT_RESPONSE)
    out[_GLOBAL_AT["answering_competition"]] = int(view.phase == Phase.COMPETITION_RESPONSE)
    return out


@cache
def action_features(move: Move) -> tuple[int, ...]:
    """The decision's part of the input: its cards by role, and its kind (raw counts)."""
    out = [0] * ACTION_SIZE
    if move.kind == MoveKind.COMPETITION:
        first, second = move.pairs  # type: ignore[misc]
        for role, pair in (("first_pair", first), ("second_pair", second)):
            for card in pair:
                out[_ACTION_ROLES.index(role) * ITEM_COUNT + card] += 1
    else:
        offset = _ACTION_ROLES.index(move.kind) * ITEM_COUNT
        for card in move.cards:
            out[offset + card] += 1
    out[len(_ACTION_ROLES) * ITEM_COUNT + _KINDS.index(move.kind)] = 1
    return tuple(out)


def judge_features(scores: Sequence[float]) -> list[list[float]]:
    """For decisions with these judge scores (in order), the judge's part of the input:
    the score, how far below the best it is, and its rank."""
    best = max(scores)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    rank = [0] * len(scores)
    for place, index in enumerate(order):
        rank[index] = min(place, _RANKED)
    rows = []
    for score, place in zip(scores, rank, strict=True):
        row = [0.0] * JUDGE_SIZE
        row[0], row[1] = score, best - score
        row[2 + place] = 1.0
        rows.append(row)
    return rows


class ValueNetwork:
    """The perceptron's weights, and its estimates for a view's decisions."""

    def __init__(self, weights: dict[str, Array]) -> None:
        _numpy()
        import numpy as np

        self.weights = {
            name: np.asarray(value, dtype=np.float32) for name, value in weights.items()
        }
        w1 = self.weights["w1"]
        if w1.shape[0] != INPUT_SIZE:
            raise ValueError(
                f"the network reads {w1.shape[0]} inputs, the features are {INPUT_SIZE}"
            )
        outputs = self.weights["w3"].shape[1]
        if outputs != OUTPUTS:
            raise ValueError(f"the network gives {outputs} outputs, not a policy and a value")
        scaled = w1 / _scale()[:, None]
        self._state_layer = scaled[:STATE_SIZE]
        self._action_layer = scaled[STATE_SIZE : STATE_SIZE + ACTION_SIZE]
        self._judge_layer = scaled[STATE_SIZE + ACTION_SIZE :]
        self._judge = GreedyBot()
        self._bias1 = self.weights["b1"]
        self._w2, self._b2 = self.weights["w2"], self.weights["b2"]
        self._w3, self._b3 = self.weights["w3"], self.weights["b3"]
        self._projected: dict[Move, Array] = {}

    @classmethod
    def from_bytes(cls, data: bytes) -> ValueNetwork:
        _numpy()
        import numpy as np

        with np.load(io.BytesIO(data)) as archive:
            return cls({name: archive[name] for name in archive.files})

    def to_bytes(self) -> bytes:
        import numpy as np

        buffer = io.BytesIO()
        np.savez(buffer, **self.weights)  # type: ignore[arg-type]
        return buffer.getvalue()

    def fingerprint(self) -> str:
        """SHA-256 over the weights' names, shapes and values (not the file's bytes)."""
        import numpy as np

        digest = hashlib.sha256()
        for name in sorted(self.weights):
            value = self.weights[name]
            digest.update(f"{name}{value.shape}".encode())
            digest.update(np.ascontiguousarray(value).tobytes())
        return digest.hexdigest()

    def _projection(self, move: Move) -> Array:
        import numpy as np

        known = self._projected.get(move)
        if known is None:
            known = np.asarray(action_features(move), dtype=np.float32) @ self._action_layer
            self._projected[move] = known
        return known

    def evaluate(
        self, view: View, legal: Sequence[Move], scores: dict[Move, float] | None = None
    ) -> tuple[Array, Array]:
        """For each of ``legal`` (in order): its policy logit, and the view's player's
        estimated chance to win the match after it. ``scores`` are the greedy judge's,
        if already known."""
        import numpy as np

        if scores is None:
            scores = self._judge.scores(view, legal)
        state = np.asarray(state_features(view), dtype=np.float32) @ self._state_layer
        judged = np.asarray(judge_features([scores[m] for m in legal]), dtype=np.float32)
        first = np.stack([self._projection(move) for move in legal])
        first += state + self._bias1
        first += judged @ self._judge_layer
        np.maximum(first, 0.0, out=first)
        second = first @ self._w2
        second += self._b2
        np.maximum(second, 0.0, out=second)
        out = second @ self._w3 + self._b3
        chances: Array = (1.0 / (1.0 + np.exp(-out[:, VALUE]))).astype(np.float32)
        return out[:, POLICY].astype(np.float32), chances

    def logits(
        self, view: View, legal: Sequence[Move], scores: dict[Move, float] | None = None
    ) -> Array:
        """The policy logit of each of ``legal`` (higher: the search prefers it)."""
        return self.evaluate(view, legal, scores)[0]

    def values(
        self, view: View, legal: Sequence[Move], scores: dict[Move, float] | None = None
    ) -> Array:
        """For each of ``legal`` (in order), the view's player's estimated chance to win
        the match after it."""
        return self.evaluate(view, legal, scores)[1]

    def best(self, view: View, legal: Sequence[Move]) -> Move:
        """The decision the policy prefers (the first of equals)."""
        import numpy as np

        return legal[int(np.argmax(self.logits(view, legal)))]


def manifest() -> dict[str, Any]:
    """What ``data/value_network.json`` records about the committed weights."""
    text = resources.files("hanamikoji.bots").joinpath("data", MANIFEST_FILE).read_text("utf-8")
    result: dict[str, Any] = json.loads(text)
    return result


@cache
def load_network() -> ValueNetwork:
    """The committed, trained network (loaded once per process). Raises
    :class:`~hanamikoji.extras.MissingExtraError` without NumPy (the learned extra)."""
    _numpy()
    data = resources.files("hanamikoji.bots").joinpath("data", WEIGHTS_FILE).read_bytes()
    return ValueNetwork.from_bytes(data)


class LearnedBot(Bot):
    """Plays the decision the learned policy prefers: no search, about half a millisecond
    per decision (the judge's opinion included)."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | None = None,
        network: ValueNetwork | None = None,
    ) -> None:
        super().__init__(seed, budget)
        self.network = network if network is not None else load_network()

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return self.network.best(view, legal)


register("learned", LearnedBot)
