"""The bot interface: a bot sees one player's view and the legal decisions, and picks one.

>>> from hanamikoji import Game
>>> game = Game(seed=3)
>>> bot = make_bot("random", seed=1)
>>> move = bot.choose(game.view(0), game.legal_moves)
>>> move in game.legal_moves
True

A bot's constructor options, and the fields of a configuration it takes (such as
``ismcts``'s ``SearchConfig``), can be set by name after a colon (a *bot spec*), for
matches between settings of one bot:

>>> make_bot("ismcts:iterations=50,exploration=0.5", seed=1).iterations
50
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import math
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from hanamikoji.core.moves import Move
from hanamikoji.core.view import View

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "BOTS",
    "MAX_BUDGET",
    "OPTION_MEANINGS",
    "SPEC_ALIASES",
    "Bot",
    "BotSpecError",
    "NumberRange",
    "Option",
    "RandomBot",
    "SpecAlias",
    "bot_option_defaults",
    "bot_options",
    "make_bot",
    "parse_bot_spec",
    "register",
    "register_alias",
]


class Bot(ABC):
    """A player that decides from a :class:`View` only.

    A bot is reproducible given its seed: it draws all its randomness from ``self.rng``.
    ``budget`` is the time allowed per decision in seconds (``None``: the bot's default).
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None, budget: float | None = None) -> None:
        self.seed = seed
        self.budget = budget
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        """Return one of ``legal`` (never empty) for the player of ``view``."""

    def memory(self) -> object:
        """What this bot has inferred during the match so far that its later decisions
        use (``None``: nothing), for a caller that builds a new bot for every decision
        (the web app): give it to the next one's :meth:`recall`. It is drawn from this
        bot's own views only, and it is picklable."""
        return None

    def recall(self, memory: object) -> None:
        """Carry on from ``memory``, what :meth:`memory` returned after an earlier
        decision of this match (``None``: nothing is known)."""
        del memory  # this bot infers nothing

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} budget={self.budget}>"


class RandomBot(Bot):
    """Uniform among the distinct legal decisions."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return legal[self.rng.randrange(len(legal))]


BotFactory = Callable[[int | None, float | None], Bot]
BOTS: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available to :func:`make_bot` and the command line under ``name``."""
    BOTS[name] = factory


@dataclass(frozen=True, slots=True)
class SpecAlias:
    """A spec ``NAME:ARGUMENT`` that stands for another spec, such as ``level:3`` for the
    bot of difficulty level 3: ``expand`` turns the argument into that spec (raising
    :class:`BotSpecError` naming the arguments it takes), and ``accepted`` says which
    specs the alias takes, for error messages (``level:1`` to ``level:8``)."""

    expand: Callable[[str], str]
    accepted: str


SPEC_ALIASES: dict[str, SpecAlias] = {}
"""The aliases :func:`parse_bot_spec` and :func:`make_bot` read, by name
(:mod:`hanamikoji.bots.levels` registers ``level``)."""


def register_alias(name: str, alias: SpecAlias) -> None:
    """Make ``NAME:ARGUMENT`` stand for the spec ``alias.expand(ARGUMENT)``."""
    SPEC_ALIASES[name] = alias


def _expanded(spec: str) -> str:
    """``spec`` with an alias replaced by the spec it stands for."""
    name, _, argument = spec.partition(":")
    alias = SPEC_ALIASES.get(name.strip())
    return spec if alias is None else alias.expand(argument.strip())


def _unknown(name: str) -> BotSpecError:
    """The error for a spec naming no bot: every name a spec may start with, and the
    alias meant when ``name`` is one run into its argument (``level3``)."""
    meant = [
        f"{alias}:{name[len(alias) :].lstrip(' -_=')}"
        for alias in SPEC_ALIASES
        if name.startswith(alias) and name != alias
    ]
    aliases = [alias.accepted for alias in SPEC_ALIASES.values()]
    hint = f" ({meant[0]}?)" if meant else ""
    return BotSpecError(
        f"unknown bot {name!r}{hint}; known: {', '.join([*sorted(BOTS), *aliases])}"
    )


Option = int | float | bool | None
"""The value of a bot option given in a spec."""


class BotSpecError(ValueError):
    """A bot spec names no known bot, is malformed, sets an option its bot lacks, or sets
    one out of its range."""


MAX_BUDGET = 3600.0
"""The most seconds per decision a spec or the command line gives a bot: an hour."""


@dataclass(frozen=True, slots=True)
class NumberRange:
    """The values a numeric option takes: from ``low`` (or above it, with ``above``) to
    ``high``; ``nan`` is in none.

    >>> str(NumberRange(0, 3600.0, above=True)), 0 in NumberRange(0, 1)
    ('above 0 and at most 3600', True)
    """

    low: float
    high: float
    above: bool = False

    def __contains__(self, value: float) -> bool:
        return (value > self.low if self.above else value >= self.low) and value <= self.high

    def __str__(self) -> str:
        low, high = _plain(self.low), _plain(self.high)
        return f"above {low} and at most {high}" if self.above else f"from {low} to {high}"


def _plain(number: float) -> str:
    """A bound as people write it: ``3600``, ``0.5``, ``1000000000``."""
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    return str(number)


_COUNT = NumberRange(1, 1_000_000)
_RANGES: dict[str, NumberRange] = {
    "budget": NumberRange(0, MAX_BUDGET, above=True),
    "iterations": NumberRange(1, 1_000_000_000),
    "candidates": _COUNT,
    "replies": _COUNT,
    "root_candidates": _COUNT,
    "network_candidates": NumberRange(0, 1_000_000),
    "exploration": NumberRange(0, 1000),
    "temperature": NumberRange(0, 1000, above=True),
    "play_temperature": NumberRange(0, 1000, above=True),
    "blunders": NumberRange(0, 1),
}
"""The range of the options whose bots do not check it themselves (a bot's constructor or
configuration refuses the others, e.g. ``exact_turns`` past a round's turns), by option
name: they mean the same in every bot that has them."""


OPTION_MEANINGS: dict[str, str] = {
    "budget": "the time per decision, in seconds",
    "iterations": "the most playouts per decision: with a generous budget, a reproducible bot",
    "exploration": "the UCB constant",
    "candidates": "how many of the judge's best decisions the bot's own nodes search",
    "root_candidates": "how many of the judge's best decisions the root searches",
    "replies": "how many of the judge's best replies the opponent's nodes search",
    "exact_turns": "how many turns before a round's end play is solved exactly in each world",
    "endgame_turns": "how many turns before a round's end play is solved per information set",
    "inference": "worlds weighed by the opponent's decisions; false: dealt uniformly",
    "temperature": "the softmax temperature of inference's model of the opponent",
    "surprise": "the share of uniform choice in that model",
    "random_prior": "the prior chance that the opponent plays at random",
    "network_candidates": "how many of the learned evaluation's best decisions the root adds",
    "play_temperature": "the softmax temperature of the bot's own choice over the judge's scores",
    "blunders": "the share of the bot's own decisions made uniformly at random",
    "compiled": "judge with the compiled kernel (the same scores, faster)",
    # openspiel-ismcts (hanamikoji.research.openspiel: OpenSpiel's own search)
    "simulations": "OpenSpiel's searches per decision",
    "uct_c": "OpenSpiel's UCT exploration constant",
    "rollouts": "OpenSpiel's random rollouts per searched world",
}
"""What each option a spec can set means, in one line (``hanamikoji bots`` shows it): an
option means the same in every bot that has it."""


_SCALARS: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float, int),
    "bool": (bool,),
    "None": (type(None),),
}


def _settable(factory: BotFactory) -> dict[str, tuple[type, ...]]:
    """The constructor options a spec can set (those of plain number, flag or ``None``
    types, not the seed, and the plain fields of a configuration parameter) with the
    value types each takes."""
    configs = _configs(factory)
    settable: dict[str, tuple[type, ...]] = {}
    for name, parameter in inspect.signature(factory).parameters.items():
        if name in configs:
            for field in dataclasses.fields(configs[name]):
                _add_plain(settable, field.name, field.type)
        elif name != "seed":
            _add_plain(settable, name, parameter.annotation)
    return settable


def _add_plain(settable: dict[str, tuple[type, ...]], name: str, annotation: object) -> None:
    """Add option ``name`` to ``settable`` if ``annotation`` allows plain values only."""
    kinds = _type_names(annotation)
    if kinds and all(kind in _SCALARS for kind in kinds):
        settable[name] = tuple(t for kind in kinds for t in _SCALARS[kind])


def _configs(factory: BotFactory) -> dict[str, DataclassInstance]:
    """The constructor parameters whose default is a dataclass value (a configuration,
    such as ``ismcts``'s :class:`~hanamikoji.bots.ismcts.SearchConfig`), by name: a
    spec sets its plain fields by their names, and the bot is given the default with
    them replaced."""
    return {
        name: parameter.default
        for name, parameter in inspect.signature(factory).parameters.items()
        if dataclasses.is_dataclass(parameter.default) and not isinstance(parameter.default, type)
    }


def _arguments(factory: BotFactory, options: dict[str, Option]) -> dict[str, object]:
    """The constructor's keyword arguments for ``options``: those that are fields of a
    configuration become that configuration (its default with them replaced)."""
    arguments: dict[str, object] = dict(options)
    for name, default in _configs(factory).items():
        fields = {field.name for field in dataclasses.fields(default)}
        changes = {key: arguments.pop(key) for key in list(arguments) if key in fields}
        if changes:
            arguments[name] = dataclasses.replace(default, **changes)
    return arguments


def _type_names(annotation: object) -> list[str]:
    """The names of the types an annotation allows, whether a module postpones its
    annotations (``"int | None"``) or not (``int | None``)."""
    if annotation is inspect.Parameter.empty:
        return []
    if isinstance(annotation, str):
        return [kind.strip() for kind in annotation.split("|")]
    members = typing.get_args(annotation) or (annotation,)
    return [
        "None" if member is type(None) else getattr(member, "__name__", "") for member in members
    ]


def _wanted(types: tuple[type, ...]) -> str:
    words = {float: "a number", int: "a whole number", bool: "true or false"}
    if float in types:
        del words[int]
    wanted = [word for kind, word in words.items() if kind in types]
    if type(None) in types:
        wanted.append("none")
    return " or ".join(wanted)


def bot_options(name: str) -> list[str]:
    """The options a spec can set for the registered bot ``name``."""
    return list(_settable(BOTS[name]))


def bot_option_defaults(name: str) -> dict[str, Option]:
    """The value each option of the registered bot ``name`` has when a spec does not set
    it (``budget``: the bot's own time per decision, ``None`` for a bot that does not
    search).

    >>> bot_option_defaults("greedy")
    {'budget': None, 'compiled': False}
    >>> bot_option_defaults("expert")["budget"], bot_option_defaults("ismcts")["candidates"]
    (1.0, 3)
    """
    factory = BOTS[name]
    values: dict[str, object] = {
        key: parameter.default for key, parameter in inspect.signature(factory).parameters.items()
    }
    for config in _configs(factory).values():
        values.update(
            (field.name, getattr(config, field.name)) for field in dataclasses.fields(config)
        )
    # A bot whose extra is not installed keeps its signature's default.
    with contextlib.suppress(ImportError):
        values["budget"] = factory(None, None).budget
    return {option: _as_option(values[option]) for option in _settable(factory)}


def _as_option(value: object) -> Option:
    if value is None or isinstance(value, bool | int | float):
        return value
    raise TypeError(f"not a spec option's value: {value!r}")  # pragma: no cover


def _option_value(text: str) -> Option:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise BotSpecError(f"{text!r} is not a number, true, false or none") from None


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Option]]:
    """Split ``NAME[:OPTION=VALUE,...]`` into the bot's name and its options (numbers,
    ``true``, ``false``, ``none``), checking that the bot exists and takes them.

    >>> parse_bot_spec("ismcts:iterations=800,inference=false")
    ('ismcts', {'iterations': 800, 'inference': False})
    >>> parse_bot_spec("greedy:depth=2")
    Traceback (most recent call last):
    ...
    hanamikoji.bots.base.BotSpecError: greedy has no option 'depth' (its options: budget, compiled)
    >>> parse_bot_spec("ismcts:iterations=0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hanamikoji.bots.base.BotSpecError: option 'iterations' of ... is from 1 to 1000000000, not '0'
    """
    name, colon, rest = _expanded(spec).partition(":")
    name = name.strip()
    factory = BOTS.get(name)
    if factory is None:
        raise _unknown(name)
    options: dict[str, Option] = {}
    if not colon:
        return name, options
    settable = _settable(factory)
    for position, item in enumerate(rest.split(","), start=1):
        key, equals, text = (part.strip() for part in item.partition("="))
        if not equals or not key or not text:
            raise BotSpecError(f"option {position} of {spec!r} is {item!r}, not OPTION=VALUE")
        types = settable.get(key)
        if types is None:
            raise BotSpecError(f"{name} has no option {key!r} (its options: {', '.join(settable)})")
        if key in options:
            raise BotSpecError(f"{spec!r} sets {key!r} twice")
        try:
            value = _option_value(text)
        except BotSpecError as error:
            raise BotSpecError(f"option {key!r} of {spec!r}: {error}") from None
        # bool is an int to isinstance, but not a count or a budget.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise BotSpecError(f"option {key!r} of {spec!r} takes {_wanted(types)}, not {text!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise BotSpecError(f"option {key!r} of {spec!r} takes a finite number, not {text!r}")
        allowed = _RANGES.get(key)
        if allowed is not None and isinstance(value, int | float) and value not in allowed:
            raise BotSpecError(f"option {key!r} of {spec!r} is {allowed}, not {text!r}")
        options[key] = value
    return name, options


def make_bot(spec: str, seed: int | None = None, budget: float | None = None) -> Bot:
    """A bot by name (``random``, ``greedy``, ``weakened``, ``ismcts``, ``learned``,
    ``expert``), by a spec ``NAME:OPTION=VALUE,...`` that also sets options of its
    constructor (:func:`parse_bot_spec`), or by difficulty level, ``level:1`` (random
    play) to ``level:8`` (the expert), the bot, options and budget of
    :data:`hanamikoji.bots.levels.LEVELS`. A ``budget`` option (seconds), and a level's
    own budget, take precedence over ``budget``. Raises :class:`BotSpecError` (a
    ``ValueError``) naming what is wrong, and the names it knows for an unknown one.

    >>> make_bot("level:3", seed=1)
    <WeakenedBot seed=1 play_temperature=0.2 blunders=0>
    >>> make_bot("level3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hanamikoji.bots.base.BotSpecError: unknown bot 'level3' (level:3?); known: ..., level:1 to ...
    """
    name, options = parse_bot_spec(spec)
    options.setdefault("budget", budget)
    factory = BOTS[name]
    try:
        # A configuration's __post_init__ checks its fields too: ValueError.
        return cast(Callable[..., Bot], factory)(seed, **_arguments(factory, options))
    except ValueError as error:
        raise BotSpecError(f"{spec!r}: {error}") from error


register("random", RandomBot)
