"""A seat's core :class:`~hanamikoji.core.view.View` rebuilt from the server's
``SeatState`` JSON, the one schema the page and the bot API share
(``web/wire/outgoing.py``).

Every field a view needs is in the state: the bridge asks its bot from this view, so
the bot (and an external engine behind it) is told only what the seat knows, as the
server sent it. A game that a clock, a resignation or an abort ended has an outcome on
the wire but none under the rules: its view has ``outcome`` ``None`` and no reveal
(:func:`ended` says whether the state is final either way).

>>> from hanamikoji.core import Game
>>> from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state
>>> game = Game(seed=7)
>>> state = seat_state(game.view(1), PublicGame("g1", ("bot", "bot"), (None, None), 0))
>>> view_from_state(state) == game.view(1)
True
"""

from __future__ import annotations

from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.core.outcome import Outcome, RoundSummary, Termination
from hanamikoji.core.rng import Deal
from hanamikoji.core.variants import Variant
from hanamikoji.core.view import LogEntry, Phase, Reveal, RoundReveal, View
from hanamikoji.interfaces.web.games.payload import KIND_NAMES
from hanamikoji.interfaces.web.wire.outgoing import GameOutcome, SeatState
from hanamikoji.interfaces.web.wire.outgoing import Reveal as WireReveal

__all__ = ["KINDS", "ended", "view_from_state"]

KINDS: dict[str, MoveKind] = {name: kind for kind, name in KIND_NAMES.items()}
"""A decision's kind by the name the wire gives it (``payload.KIND_NAMES`` reversed)."""

_TERMINATIONS = {termination.value: termination for termination in Termination}


def ended(state: SeatState) -> bool:
    """Whether the game is over: under the rules, or by a clock, a resignation or an
    abort (``state.outcome`` set either way)."""
    return state.outcome is not None


def view_from_state(state: SeatState) -> View:
    """The seat's view the state describes. Raises ``ValueError`` (an unknown variant,
    a decision that is not one, a deal that is not one) for a state no server sends."""
    outcome = _outcome(state.outcome)
    log = tuple(
        LogEntry(line.round, line.turn, line.seat, Move.from_text(line.text)) for line in state.log
    )
    return View(
        player=state.seat,
        variant=Variant.by_name(state.variant),
        round=state.round,
        round_starter=state.round_starter,
        to_move=state.to_move,
        phase=Phase(state.phase),
        favor=tuple(state.favor),
        hand=tuple(state.hand),
        drawn=state.drawn,
        secret=state.secret,
        tradeoff=tuple(state.tradeoff),
        placed=(tuple(state.placed[0]), tuple(state.placed[1])),
        used=(_kinds(state.used[0]), _kinds(state.used[1])),
        hand_sizes=(state.hand_sizes[0], state.hand_sizes[1]),
        deck_size=state.deck,
        pending=None if state.pending is None else Move.from_text(state.pending.text),
        log=log,
        rounds=tuple(
            RoundSummary(
                round=scored.round,
                starter=scored.starter,
                secrets=(scored.secrets[0], scored.secrets[1]),
                sides=(tuple(scored.sides[0]), tuple(scored.sides[1])),
                favor=tuple(scored.favor),
                charm=(scored.charm[0], scored.charm[1]),
                geishas=(scored.geishas[0], scored.geishas[1]),
            )
            for scored in state.rounds
        ),
        outcome=outcome,
        reveal=None if outcome is None or state.reveal is None else _reveal(state.reveal, log),
    )


def _kinds(names: tuple[str, ...]) -> frozenset[MoveKind]:
    try:
        return frozenset(KINDS[name] for name in names)
    except KeyError as error:
        raise ValueError(f"{error.args[0]!r} is not a kind of decision") from None


def _outcome(outcome: GameOutcome | None) -> Outcome | None:
    """The outcome under the rules; ``None`` for a game a clock, a resignation or an
    abort ended (its termination is none of the rules')."""
    if outcome is None or outcome.termination not in _TERMINATIONS:
        return None
    return Outcome(
        winner=outcome.winner,
        termination=_TERMINATIONS[outcome.termination],
        charm=(outcome.charm[0], outcome.charm[1]),
        geishas=(outcome.geishas[0], outcome.geishas[1]),
        rounds=outcome.rounds,
    )


def _reveal(reveal: WireReveal, log: tuple[LogEntry, ...]) -> Reveal:
    """The end reveal: every round's deal, Secrets and Trade-offs; a finished game's log
    already names every decision in full."""
    return Reveal(
        rounds=tuple(
            RoundReveal(
                round=revealed.round,
                deal=Deal(revealed.removed, revealed.hands, revealed.deck),
                secrets=(revealed.secrets[0], revealed.secrets[1]),
                tradeoffs=(tuple(revealed.tradeoffs[0]), tuple(revealed.tradeoffs[1])),
            )
            for revealed in reveal.rounds
        ),
        moves=log,
    )
