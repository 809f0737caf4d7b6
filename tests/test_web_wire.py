"""The outgoing messages' types hold what the server sends, and the page's declarations
are generated from them.

- For a few hundred seeded random positions (every variant, timed and untimed, games a
  clock ended, seats and spectators), the state sent decodes into its Struct
  (``SeatState``, ``SpectatorState``) and back to exactly the same JSON (no field lost,
  none unknown); and the states' content is the content the server sent before the
  states were typed (one digest over all of them, recorded from the dict builder the
  Structs replaced: a change to what a state holds changes it, on purpose).
- The types keep hidden cards out: a seat's state has no field for the other seat's
  hand, and a spectator's cannot hold a hand at all.
- ``static/js/wire.d.ts`` is what ``python -m hanamikoji.interfaces.web.wire.typescript``
  generates.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from hanamikoji.core import Game
from hanamikoji.core.variants import VARIANTS
from hanamikoji.interfaces.clocks import Clocks, TimeControl
from hanamikoji.interfaces.web.games.live import clock_json
from hanamikoji.interfaces.web.games.payload import PublicGame, seat_state, spectator_state
from hanamikoji.interfaces.web.http.refusals import error_message
from hanamikoji.interfaces.web.wire import typescript
from hanamikoji.interfaces.web.wire.outgoing import ErrorMessage, SeatState, SpectatorState, encode
from hanamikoji.interfaces.web.wire.refused import Refused

POSITIONS = 300

STATES_DIGEST = "3c85bf4d6f8d50063569448f6fe094b8b4c0398d125df48c393cb48401160d05"
"""sha256 of every state of :func:`sent_states`, each as JSON with sorted keys, one a
line; recorded from the states' dict builder before they were typed."""


def positions(count: int = POSITIONS) -> Iterator[tuple[Game, PublicGame]]:
    """``count`` seeded random positions, each with random public settings."""
    rng = random.Random(47)
    variants = sorted(VARIANTS)
    controls = ["none", "3+2", "10+0", "1d"]
    for index in range(count):
        game = Game(rng.choice(variants), seed=rng.randrange(2**32), first_player=rng.randrange(2))
        stop = rng.randrange(0, 90)
        while not game.is_over() and len(game.move_stack) < stop:
            game.push(rng.choice(game.legal_moves))
        control = TimeControl.parse(rng.choice(controls))
        clock = None
        if control.timed:
            remaining = (rng.randrange(0, 600_000), rng.randrange(0, 600_000))
            running = None if game.is_over() else game.to_move
            clock = clock_json(control, Clocks(remaining, running, 0, None))
        ended = None
        if not game.is_over() and rng.random() < 0.1:
            ended = rng.choice([("time", "1-0"), ("time", "0-1"), ("aborted", "*")])
        public = PublicGame(
            f"g{index}",
            (rng.choice(["human", "bot"]), "human"),
            (rng.choice([None, 1, 5, 8]), None),
            len(game.move_stack),
            connected=(rng.random() < 0.5, rng.random() < 0.5),
            rematch=rng.choice([None, f"r{index}"]),
            clock=clock,
            ended=ended,
            rated=rng.random() < 0.3,
        )
        yield game, public


def sent_states() -> Iterator[tuple[type[msgspec.Struct], str]]:
    """Each position's three states as the server sends them: seat 0's, seat 1's, a
    spectator's, each with the Struct it must be."""
    for game, public in positions():
        for seat in (0, 1):
            yield SeatState, encode(seat_state(game.view(seat), public))
        yield SpectatorState, encode(spectator_state(game.view(0), public))


def test_every_state_sent_is_its_struct_field_for_field() -> None:
    for struct, text in sent_states():
        typed = msgspec.json.decode(text, type=struct)
        assert json.loads(msgspec.json.encode(typed)) == json.loads(text)


def test_the_states_content_is_what_it_was_before_the_types() -> None:
    # ``people`` (who sits at each seat) came after the types; the rest is unchanged.
    lines = (json.dumps(_without_people(text), sort_keys=True) for _, text in sent_states())
    digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    assert digest == STATES_DIGEST


def _without_people(text: str) -> dict[str, object]:
    state = json.loads(text)
    people = state.pop("people")
    kinds = [("bot" if kind == "bot" else "anonymous") for kind in state["players"]]
    assert [person["kind"] for person in people] == kinds  # named from players, levels
    return dict(state)


def test_a_seat_state_has_no_field_for_the_other_hand() -> None:
    fields = set(SeatState.__struct_fields__)
    assert not fields & {"hands", "opponent_hand", "removed", "deck_cards", "secrets"}
    assert "hand_sizes" in fields  # the other hand is a count


def test_a_spectator_state_cannot_hold_a_hand() -> None:
    game, public = next(positions(1))
    state: dict[str, Any] = json.loads(encode(spectator_state(game.view(0), public)))
    msgspec.convert(state, SpectatorState)
    for field, value in (("hand", [1]), ("drawn", 2), ("secret", 3), ("tradeoff", [4, 5])):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert({**state, field: value}, SpectatorState)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({**state, "seat": 0}, SpectatorState)


def test_an_error_is_its_struct() -> None:
    text = encode(error_message(Refused("err_stale"), "en"))
    typed = msgspec.json.decode(text, type=ErrorMessage)
    assert json.loads(msgspec.json.encode(typed)) == json.loads(text)


def test_the_committed_declarations_are_generated() -> None:
    """Run ``python -m hanamikoji.interfaces.web.wire.typescript`` after changing a Struct."""
    assert typescript.TARGET.read_text(encoding="utf-8") == typescript.generate()
