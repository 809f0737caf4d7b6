"""Which challenges the bridge accepts, as ``lichess-bot``'s ``challenge`` settings do:
variants, clocks (real time with its base and increment, correspondence with its days,
untimed), rated or casual, bots, people or both, names blocked or allowed, and how many
games at once.

The settings come from the defaults, then an optional TOML file's ``[challenge]`` table,
then the command's options (each overrides the one before)::

    [challenge]
    concurrency = 2
    variants = ["classic", "three-rounds"]
    clocks = ["realtime", "correspondence"]   # and/or "untimed"
    min_base = 60          # seconds of a real-time clock's initial time
    max_base = 900
    min_increment = 0      # seconds added per decision
    max_increment = 10
    min_days = 1           # a correspondence decision's days
    max_days = 7
    modes = ["rated", "casual"]
    opponents = "both"     # "bots", "people" or "both"
    block = ["somebody"]
    allow = []             # when not empty: only these names

>>> from hanamikoji.interfaces.bridge.events import Challenge, Player
>>> policy = Policy(variants=("classic",), max_base=300)
>>> ann, me = Player(name="Ann"), Player(name="me", bot=True)
>>> policy.verdict(Challenge(id="c", challenger=ann, dest=me, variant="classic", clock="3+2"), 0)
Verdict(accept=True, reason='')
>>> policy.verdict(Challenge(id="c", challenger=ann, dest=me, variant="classic", clock="10+0"), 0)
Verdict(accept=False, reason='tooSlow')
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Literal, get_args

from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.bridge.events import Challenge
from hanamikoji.interfaces.clocks import TimeControl

__all__ = ["CLOCK_KINDS", "MODES", "OPPONENTS", "Policy", "PolicyError", "Verdict", "load_policy"]

ClockKind = Literal["realtime", "correspondence", "untimed"]
Mode = Literal["rated", "casual"]
Opponents = Literal["bots", "people", "both"]
CLOCK_KINDS: tuple[str, ...] = get_args(ClockKind)
MODES: tuple[str, ...] = get_args(Mode)
OPPONENTS: tuple[str, ...] = get_args(Opponents)


class PolicyError(ValueError):
    """A setting of the policy that is not one (a file's or an option's)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether to accept a challenge and, when not, why (lichess's decline reasons:
    ``variant``, ``timeControl``, ``tooFast``, ``tooSlow``, ``rated``, ``casual``,
    ``noBot``, ``onlyBot``, ``later``, ``generic``)."""

    accept: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Policy:
    """The challenge acceptance settings (see the module's documentation); times are
    whole seconds, ``None`` no bound."""

    concurrency: int = 1
    variants: tuple[str, ...] = tuple(VARIANTS)
    clocks: tuple[str, ...] = CLOCK_KINDS
    min_base: int | None = None
    max_base: int | None = None
    min_increment: int | None = None
    max_increment: int | None = None
    min_days: int | None = None
    max_days: int | None = None
    modes: tuple[str, ...] = MODES
    opponents: str = "both"
    block: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if type(self.concurrency) is not int or self.concurrency < 1:
            raise PolicyError(f"concurrency is a whole number from 1, not {self.concurrency!r}")
        _subset("variants", self.variants, tuple(VARIANTS))
        _subset("clocks", self.clocks, CLOCK_KINDS)
        _subset("modes", self.modes, MODES)
        if self.opponents not in OPPONENTS:
            raise PolicyError(f"opponents is one of {', '.join(OPPONENTS)}, not {self.opponents!r}")
        for name in ("min_base", "max_base", "min_increment", "max_increment"):
            _bound(name, getattr(self, name))
        for name in ("min_days", "max_days"):
            _bound(name, getattr(self, name))
        for name in ("block", "allow"):
            names = getattr(self, name)
            if not isinstance(names, tuple) or not all(isinstance(n, str) for n in names):
                raise PolicyError(f"{name} is a list of names")

    def updated(self, settings: Mapping[str, object]) -> Policy:
        """This policy with ``settings`` (a TOML table's or the options') over it; lists
        become tuples. Raises :class:`PolicyError` naming an unknown or wrong setting."""
        known = {field.name for field in fields(self)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise PolicyError(
                f"unknown challenge setting {unknown[0]!r}; known: {', '.join(sorted(known))}"
            )
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in settings.items()}
        try:
            return replace(self, **values)  # type: ignore[arg-type]
        except TypeError as error:  # pragma: no cover - the names are checked above
            raise PolicyError(str(error)) from None

    def verdict(self, challenge: Challenge, playing: int) -> Verdict:
        """Whether to accept ``challenge`` while ``playing`` games go on (counting
        those accepted and not yet started)."""
        challenger = challenge.challenger
        name = (challenger.name or "").casefold()
        if name in {n.casefold() for n in self.block}:
            return Verdict(False, "generic")
        if self.allow and name not in {n.casefold() for n in self.allow}:
            return Verdict(False, "generic")
        if challenge.variant not in self.variants:
            return Verdict(False, "variant")
        clock = self._clock_verdict(challenge.clock)
        if clock is not None:
            return clock
        mode = "rated" if challenge.rated else "casual"
        if mode not in self.modes:
            return Verdict(False, "casual" if mode == "rated" else "rated")
        if challenger.bot and self.opponents == "people":
            return Verdict(False, "noBot")
        if not challenger.bot and self.opponents == "bots":
            return Verdict(False, "onlyBot")
        if playing >= self.concurrency:
            return Verdict(False, "later")
        return Verdict(True)

    def _clock_verdict(self, name: str | None) -> Verdict | None:
        try:
            control = TimeControl.parse("none" if name is None else name)
        except ValueError:
            return Verdict(False, "timeControl")
        if control.kind == "none":
            return None if "untimed" in self.clocks else Verdict(False, "timeControl")
        if control.kind not in self.clocks:
            return Verdict(False, "timeControl")
        if control.kind == "correspondence":
            return _within(control.days, self.min_days, self.max_days)
        base = _within(control.initial_ms // 1000, self.min_base, self.max_base)
        return base or _within(control.increment_ms // 1000, self.min_increment, self.max_increment)


def _within(value: int, low: int | None, high: int | None) -> Verdict | None:
    if low is not None and value < low:
        return Verdict(False, "tooFast")
    if high is not None and value > high:
        return Verdict(False, "tooSlow")
    return None


def _subset(name: str, values: object, known: tuple[str, ...]) -> None:
    if not isinstance(values, tuple) or not all(isinstance(v, str) for v in values):
        raise PolicyError(f"{name} is a list of names")
    wrong = [value for value in values if value not in known]
    if wrong:
        raise PolicyError(f"{name}: {wrong[0]!r} is none of {', '.join(known)}")


def _bound(name: str, value: object) -> None:
    if value is not None and (type(value) is not int or value < 0):
        raise PolicyError(f"{name} is a whole number from 0, not {value!r}")


def load_policy(path: str | Path, base: Policy = Policy()) -> Policy:
    """``base`` with a TOML file's ``[challenge]`` table over it. Raises
    :class:`PolicyError` for a file that cannot be read or a wrong setting, naming it."""
    try:
        document = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise PolicyError(f"{path}: {error}") from None
    unknown = sorted(set(document) - {"challenge"})
    if unknown:
        raise PolicyError(f"{path}: unknown table {unknown[0]!r}; the file has [challenge]")
    table = document.get("challenge", {})
    if not isinstance(table, dict):
        raise PolicyError(f"{path}: challenge is a table")
    try:
        return base.updated(table)
    except PolicyError as error:
        raise PolicyError(f"{path}: {error}") from None
