"""The rules engine. Imports nothing outside the standard library and this package."""

from hanamikoji.core.cards import GEISHAS, ITEM_LETTERS, Card, Cards, Geisha
from hanamikoji.core.errors import (
    DealError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    UnknownVariantError,
)
from hanamikoji.core.game import Game
from hanamikoji.core.moves import (
    ACTIONS,
    LegalMoves,
    Move,
    MoveKind,
    response_moves,
    turn_moves,
)
from hanamikoji.core.outcome import Outcome, RoundSummary, Termination
from hanamikoji.core.rng import Deal, deal_for_round
from hanamikoji.core.seats import SEATS, seat_from_number, seat_number
from hanamikoji.core.variants import CLASSIC, FRENCH, THREE_ROUNDS, VARIANTS, Tiebreak, Variant
from hanamikoji.core.view import LogEntry, Phase, Reveal, RoundReveal, View

__all__ = [
    "ACTIONS",
    "CLASSIC",
    "FRENCH",
    "GEISHAS",
    "ITEM_LETTERS",
    "SEATS",
    "THREE_ROUNDS",
    "VARIANTS",
    "Card",
    "Cards",
    "Deal",
    "DealError",
    "Game",
    "GameOverError",
    "Geisha",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "LogEntry",
    "Move",
    "MoveKind",
    "Outcome",
    "Phase",
    "Reveal",
    "RoundReveal",
    "RoundSummary",
    "Termination",
    "Tiebreak",
    "UnknownVariantError",
    "Variant",
    "View",
    "deal_for_round",
    "response_moves",
    "seat_from_number",
    "seat_number",
    "turn_moves",
]
