"""Decisions, their context-free text form, and the generation of legal ones.

A decision is a :class:`Move`. There are six kinds: the four actions a player takes
on a turn, and the two responses the opponent makes to a Gift or a Competition.
Moves are values: two moves with the same kind and cards are equal, and the
generator returns one shared object per distinct move.

The text form names cards by the letter of their geisha in the row (``A`` = Ayane
.. ``G`` = Ruri), like files on a chessboard:

=====================  ==========  ====================================
decision               text        meaning
=====================  ==========  ====================================
Secret                 ``S:D``     keep one parasol (Yoko) face down
Trade-off              ``T:AG``    set a flute and a flower aside
Gift                   ``G:DDG``   offer three cards
Competition            ``C:AB/FG`` offer two pairs
Gift response          ``G>D``     take one card of the offered three
Competition response   ``C>FG``    take one of the offered pairs
=====================  ==========  ====================================

Secret and Trade-off as the opponent sees them are written ``S`` and ``T``.

>>> Move.from_text("c:gf/ba")
Move.from_text('C:AB/FG')
>>> Move.from_text("G:DGD").cards
(3, 3, 6)
"""

from __future__ import annotations

import enum
import warnings
from functools import cache
from itertools import combinations

from hanamikoji.core.cards import ITEM_LETTERS, counts, letters, pack
from hanamikoji.core.errors import InvalidMoveError

__all__ = [
    "ACTIONS",
    "Action",
    "LegalMoves",
    "Move",
    "MoveKind",
    "require_move",
    "response_moves",
    "turn_moves",
]


class MoveKind(enum.IntEnum):
    """What a decision does."""

    SECRET = 0
    TRADE_OFF = 1
    GIFT = 2
    COMPETITION = 3
    GIFT_RESPONSE = 4
    COMPETITION_RESPONSE = 5

    @property
    def label(self) -> str:
        """The English (2016) name: ``Secret``, ``Trade-off``, ``Gift response``, ..."""
        return self.name.capitalize().replace("_", "-" if self <= MoveKind.COMPETITION else " ")

    @property
    def is_action(self) -> bool:
        """Whether this kind is one of the four action markers (a turn)."""
        return self <= MoveKind.COMPETITION


Action = MoveKind
"""The four action markers are the first four move kinds."""

ACTIONS: tuple[MoveKind, ...] = (
    MoveKind.SECRET,
    MoveKind.TRADE_OFF,
    MoveKind.GIFT,
    MoveKind.COMPETITION,
)

CARDS_PER_ACTION: dict[MoveKind, int] = {
    MoveKind.SECRET: 1,
    MoveKind.TRADE_OFF: 2,
    MoveKind.GIFT: 3,
    MoveKind.COMPETITION: 4,
}

_KIND_LETTER = {
    MoveKind.SECRET: "S",
    MoveKind.TRADE_OFF: "T",
    MoveKind.GIFT: "G",
    MoveKind.COMPETITION: "C",
}
_LETTER_KIND = {v: k for k, v in _KIND_LETTER.items()}

Pair = tuple[int, int]


class Move:
    """One decision. Build moves with the class methods; do not mutate them.

    Attributes:
        kind: what the decision does.
        cards: the cards it involves, sorted: those the actor puts down for an
            action, the cards taken for a response; empty for a hidden action
            as an opponent sees it.
        pairs: the two pairs of a Competition, else ``()``.
        packed: ``cards`` as a packed multiset.
        hidden: whether this is a Secret or Trade-off with its cards hidden.
    """

    __slots__ = ("_hash", "_key", "cards", "hidden", "kind", "packed", "pairs")

    kind: MoveKind
    cards: tuple[int, ...]
    pairs: tuple[Pair, Pair] | tuple[()]
    packed: int
    hidden: bool

    def __init__(
        self,
        kind: MoveKind,
        cards: tuple[int, ...],
        pairs: tuple[Pair, Pair] | tuple[()] = (),
        hidden: bool = False,
    ) -> None:
        self.kind = kind
        self.cards = cards
        self.pairs = pairs
        self.packed = pack(cards)
        self.hidden = hidden
        self._key = (kind, cards, pairs, hidden)
        self._hash = hash(self._key)

    # -- construction -------------------------------------------------------------

    @classmethod
    def secret(cls, card: int) -> Move:
        """Keep ``card`` face down until scoring."""
        return _intern(cls(MoveKind.SECRET, (card,)))

    @classmethod
    def trade_off(cls, a: int, b: int) -> Move:
        """Set two cards aside for the round."""
        return _intern(cls(MoveKind.TRADE_OFF, tuple(sorted((a, b)))))

    @classmethod
    def gift(cls, a: int, b: int, c: int) -> Move:
        """Offer three cards; the opponent takes one."""
        return _intern(cls(MoveKind.GIFT, tuple(sorted((a, b, c)))))

    @classmethod
    def competition(cls, first: Pair, second: Pair) -> Move:
        """Offer two pairs; the opponent takes one."""
        pairs = _canonical_pairs(first, second)
        return _intern(cls(MoveKind.COMPETITION, tuple(sorted(pairs[0] + pairs[1])), pairs))

    @classmethod
    def gift_response(cls, card: int) -> Move:
        """Take ``card`` from the Gift on offer."""
        return _intern(cls(MoveKind.GIFT_RESPONSE, (card,)))

    @classmethod
    def competition_response(cls, pair: Pair) -> Move:
        """Take ``pair`` from the Competition on offer."""
        return _intern(cls(MoveKind.COMPETITION_RESPONSE, tuple(sorted(pair))))

    @classmethod
    def hidden_action(cls, kind: MoveKind) -> Move:
        """A Secret or Trade-off as the opponent sees it: which action, not which cards."""
        if kind not in (MoveKind.SECRET, MoveKind.TRADE_OFF):
            raise ValueError(f"only Secret and Trade-off are hidden, not {kind.name}")
        return _intern(cls(kind, (), hidden=True))

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse the context-free text form. Raises :class:`InvalidMoveError`."""
        return _parse(text)

    # -- value semantics ----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Move) and self._key == other._key)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Move.from_text({self.text()!r})"

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """The context-free text form (see the module documentation)."""
        kind = self.kind
        if kind == MoveKind.GIFT_RESPONSE:
            return "G>" + letters(self.cards)
        if kind == MoveKind.COMPETITION_RESPONSE:
            return "C>" + letters(self.cards)
        letter = _KIND_LETTER[kind]
        if self.hidden:
            return letter
        if kind == MoveKind.COMPETITION:
            first, second = self.pairs  # type: ignore[misc]
            return f"C:{letters(first)}/{letters(second)}"
        return f"{letter}:{letters(self.cards)}"

    @property
    def is_response(self) -> bool:
        """Whether this answers an opponent's Gift or Competition."""
        return self.kind >= MoveKind.GIFT_RESPONSE

    def public(self) -> Move:
        """This move as the opponent sees it (Secret and Trade-off cards hidden)."""
        if self.kind in (MoveKind.SECRET, MoveKind.TRADE_OFF) and not self.hidden:
            return Move.hidden_action(self.kind)
        return self


def require_move(value: object, caller: str, reader: str = "Move.from_text") -> Move:
    """``value`` if it is a :class:`Move`; else a ``TypeError`` naming ``caller`` and, for
    text, the ``reader`` that takes text instead.

    >>> require_move("S:D", "Game.push", reader="Game.push_text")
    Traceback (most recent call last):
    ...
    TypeError: Game.push takes a Move, not the text 'S:D': use Game.push_text('S:D')
    """
    if isinstance(value, Move):
        return value
    if isinstance(value, str):
        raise TypeError(f"{caller} takes a Move, not the text {value!r}: use {reader}({value!r})")
    raise TypeError(
        f"{caller} takes a Move, not {type(value).__name__}: build one with Move.from_text"
        " or a Move class method"
    )


def _canonical_pairs(first: Pair, second: Pair) -> tuple[Pair, Pair]:
    a = (min(first), max(first))
    b = (min(second), max(second))
    return (a, b) if a <= b else (b, a)


_INTERNED: dict[Move, Move] = {}


def _intern(move: Move) -> Move:
    return _INTERNED.setdefault(move, move)


# -- parsing --------------------------------------------------------------------------


def _parse_cards(text: str, whole: str) -> tuple[int, ...]:
    cards = []
    for ch in text:
        index = ITEM_LETTERS.find(ch.upper())
        if index < 0 or not ch.strip():
            raise InvalidMoveError(
                f"{whole!r}: {ch!r} is not a card (cards are the letters A-G, Ayane to Ruri)"
            )
        cards.append(index)
    return tuple(sorted(cards))


def _expect_count(cards: tuple[int, ...], wanted: int, what: str, whole: str) -> None:
    if len(cards) != wanted:
        raise InvalidMoveError(
            f"{whole!r}: {what} takes {wanted} card{'s' if wanted > 1 else ''}, not {len(cards)}"
        )


def _parse(text: str) -> Move:
    if not isinstance(text, str):
        raise InvalidMoveError(f"expected text, got {type(text).__name__}")
    whole = text
    compact = "".join(text.split())
    if len(compact) < 1:
        raise InvalidMoveError("empty move")
    letter = compact[0].upper()
    kind = _LETTER_KIND.get(letter)
    if kind is None:
        raise InvalidMoveError(
            f"{whole!r}: a move starts with S, T, G or C (Secret, Trade-off, Gift, Competition)"
        )
    rest = compact[1:]
    if rest == "":
        if kind in (MoveKind.SECRET, MoveKind.TRADE_OFF):
            return Move.hidden_action(kind)
        raise InvalidMoveError(f"{whole!r}: a {kind.label} shows its cards")
    separator, body = rest[0], rest[1:]
    if separator == ">":
        if kind == MoveKind.GIFT:
            cards = _parse_cards(body, whole)
            _expect_count(cards, 1, "taking from a Gift", whole)
            return Move.gift_response(cards[0])
        if kind == MoveKind.COMPETITION:
            cards = _parse_cards(body, whole)
            _expect_count(cards, 2, "taking from a Competition", whole)
            return Move.competition_response((cards[0], cards[1]))
        raise InvalidMoveError(f"{whole!r}: only a Gift (G>) or Competition (C>) is answered")
    if separator != ":":
        raise InvalidMoveError(f"{whole!r}: expected ':' or '>' after the action letter")
    if kind == MoveKind.COMPETITION:
        halves = body.split("/")
        if len(halves) != 2:
            raise InvalidMoveError(f"{whole!r}: a Competition is two pairs split by '/'")
        first = _parse_cards(halves[0], whole)
        second = _parse_cards(halves[1], whole)
        _expect_count(first, 2, "each Competition pair", whole)
        _expect_count(second, 2, "each Competition pair", whole)
        return Move.competition((first[0], first[1]), (second[0], second[1]))
    cards = _parse_cards(body, whole)
    _expect_count(cards, CARDS_PER_ACTION[kind], kind.label, whole)
    if kind == MoveKind.SECRET:
        return Move.secret(cards[0])
    if kind == MoveKind.TRADE_OFF:
        return Move.trade_off(*cards)
    return Move.gift(*cards)


# -- generation -----------------------------------------------------------------------


def _sub_multisets(hand: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """Distinct sub-multisets of ``size`` cards, each sorted, in lexicographic order."""
    return sorted(set(combinations(hand, size)))


def _competition_splits(four: tuple[int, ...]) -> list[tuple[Pair, Pair]]:
    a, b, c, d = four
    splits = {
        _canonical_pairs((a, b), (c, d)),
        _canonical_pairs((a, c), (b, d)),
        _canonical_pairs((a, d), (b, c)),
    }
    return sorted(splits)


@cache
def _action_moves(hand: int, kind: MoveKind) -> tuple[Move, ...]:
    cards = tuple(k for k, c in enumerate(counts(hand)) for _ in range(c))
    if kind == MoveKind.SECRET:
        return tuple(Move.secret(s[0]) for s in _sub_multisets(cards, 1))
    if kind == MoveKind.TRADE_OFF:
        return tuple(Move.trade_off(*s) for s in _sub_multisets(cards, 2))
    if kind == MoveKind.GIFT:
        return tuple(Move.gift(*s) for s in _sub_multisets(cards, 3))
    return tuple(
        Move.competition(*split)
        for four in _sub_multisets(cards, 4)
        for split in _competition_splits(four)
    )


_TURN_CACHE: dict[int, tuple[Move, ...]] = {}


def turn_moves(hand: int, used: int) -> tuple[Move, ...]:
    """Every distinct action a player with ``hand`` can take, given the bitmask of
    actions already ``used`` (bit ``k`` for :class:`MoveKind` ``k``).

    >>> from hanamikoji.core.cards import from_counts
    >>> len(turn_moves(from_counts((1, 1, 1, 1, 1, 1, 1)), 0b0111))  # only Competition left
    105
    """
    key = (hand << 4) | used
    moves = _TURN_CACHE.get(key)
    if moves is None:
        moves = tuple(
            move for kind in ACTIONS if not used >> kind & 1 for move in _action_moves(hand, kind)
        )
        _TURN_CACHE[key] = moves
    return moves


@cache
def response_moves(offer: Move) -> tuple[Move, ...]:
    """The distinct responses to a Gift or Competition ``offer``.

    >>> [str(m) for m in response_moves(Move.from_text("G:DDG"))]
    ['G>D', 'G>G']
    >>> [str(m) for m in response_moves(Move.from_text("C:AB/AB"))]
    ['C>AB']
    """
    require_move(offer, "response_moves")
    if offer.kind == MoveKind.GIFT and not offer.hidden:
        return tuple(Move.gift_response(card) for card in sorted(set(offer.cards)))
    if offer.kind == MoveKind.COMPETITION and not offer.hidden:
        return tuple(Move.competition_response(pair) for pair in sorted(set(offer.pairs)))
    raise ValueError(f"{offer} is not a Gift or Competition")


class LegalMoves(tuple[Move, ...]):
    """The legal decisions of a position, as ``game.legal_moves`` and ``view.legal_moves``
    give them: a tuple of :class:`Move`, so sized, iterable, indexable and
    containment-testing, as python-chess's ``board.legal_moves``.

    >>> from hanamikoji import Game
    >>> game = Game(seed=7)
    >>> game.push_text("G:FGG")
    Move.from_text('G:FGG')
    >>> moves = game.legal_moves
    >>> len(moves), Move.from_text("G>F") in moves, [str(move) for move in moves]
    (2, True, ['G>F', 'G>G'])
    >>> moves
    <LegalMoves (2): G>F, G>G>

    ``legal_moves`` used to be a method: calling the collection, ``game.legal_moves()``,
    still returns the plain tuple, with a ``DeprecationWarning``.
    """

    __slots__ = ()

    def __call__(self) -> tuple[Move, ...]:
        """The decisions as a plain tuple, for code written when ``legal_moves`` was a
        method. Deprecated: use the collection itself, or ``generate_legal_moves()``."""
        warnings.warn(
            "legal_moves is a collection now: use game.legal_moves (or view.legal_moves) "
            "without the call, or generate_legal_moves() for a plain tuple",
            DeprecationWarning,
            stacklevel=2,
        )
        return tuple(self)

    def __repr__(self) -> str:
        return f"<LegalMoves ({len(self)}): {', '.join(move.text() for move in self)}>"
