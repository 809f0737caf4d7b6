"""Variants are configuration: how many rounds, and who wins when they run out.

>>> Variant.by_name("three-rounds").max_rounds
3
>>> Variant.by_name("classic").capped(10).name
'classic/cap=10'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from hanamikoji.core.errors import UnknownVariantError

__all__ = ["CLASSIC", "FRENCH", "THREE_ROUNDS", "VARIANTS", "Tiebreak", "Variant"]


class Tiebreak(enum.Enum):
    """How a game that reaches its last round without a winner is decided."""

    DRAW = "draw"
    """No winner (a round cap on ``classic``)."""
    GEISHAS_THEN_CHARM = "geishas-then-charm"
    """Most geishas; then most charm; then a shared win (2018 English optional rule)."""
    CHARM = "charm"
    """Most charm; a tie means no winner (French edition)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule set. ``max_rounds`` is ``None`` for a game that lasts until someone wins."""

    name: str
    max_rounds: int | None
    tiebreak: Tiebreak
    description: str
    base: str = ""

    @classmethod
    def by_name(cls, name: str) -> Variant:
        """Find a variant by name; ``NAME/cap=N`` adds a round cap.

        Raises :class:`UnknownVariantError`.
        """
        base, slash, option = name.partition("/")
        variant = VARIANTS.get(base)
        if variant is None:
            raise UnknownVariantError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
        if not slash:
            return variant
        key, _, value = option.partition("=")
        rounds = _whole_number(value) if key == "cap" else None
        if rounds is None or rounds < 1:
            raise UnknownVariantError(f"{name!r}: the only option is '/cap=N' with N >= 1")
        return variant.capped(rounds)

    def capped(self, rounds: int) -> Variant:
        """This variant ending after at most ``rounds`` rounds, for tools that need bounded games.

        Where the variant already has a round limit, its own tiebreak still decides;
        a capped ``classic`` game that reaches the cap is a draw.
        """
        if rounds < 1:
            raise ValueError("a round cap is at least 1")
        base = self.base or self.name
        own_limit = VARIANTS[base].max_rounds if base in VARIANTS else self.max_rounds
        limit = rounds if own_limit is None else min(rounds, own_limit)
        return replace(self, name=f"{base}/cap={rounds}", max_rounds=limit, base=base)

    @property
    def family(self) -> str:
        """The name of the variant without a round cap."""
        return self.base or self.name


def _whole_number(text: str) -> int | None:
    """The number ASCII digits write, or ``None`` for other text (``str.isdigit`` also
    takes digits ``int`` refuses, such as ``²``) and for more digits than ``int`` reads."""
    if not (text.isascii() and text.isdigit()):
        return None
    try:
        return int(text)
    except ValueError:  # past sys.get_int_max_str_digits()
        return None


# The descriptions are for players (the interfaces translate them: ``variant_<name>`` in
# interfaces/messages.py). Which rulebook each variant follows is in docs/rules.md#variants:
# classic is the 2016 English, Spanish and card-table rules and the 2018 English main rule.
CLASSIC = Variant(
    "classic",
    None,
    Tiebreak.DRAW,
    "Rounds until someone has 11 charm or 4 geishas.",
)
THREE_ROUNDS = Variant(
    "three-rounds",
    3,
    Tiebreak.GEISHAS_THEN_CHARM,
    "At most 3 rounds; then most geishas, then most charm, then a shared win"
    " (2018 English optional rule).",
)
FRENCH = Variant(
    "french",
    3,
    Tiebreak.CHARM,
    "At most 3 rounds; then most charm; a tie has no winner (French edition).",
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, THREE_ROUNDS, FRENCH)}
