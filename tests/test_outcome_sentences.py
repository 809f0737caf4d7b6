"""The sentence that ends a game says why: when 11 charm beats 4 geishas reached in the
same scoring, every interface says so (``messages.outcome_key`` chooses the sentence for
the terminal, the page and the server alike; ``describe_outcome`` says it in English),
and the page shows it on the end screen."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import play, scripted_round

from hanamikoji.core import Game, Termination
from hanamikoji.core.outcome import Outcome
from hanamikoji.interfaces.messages import message, outcome_key
from hanamikoji.interfaces.web.catalog.lookup import client_catalog, text
from hanamikoji.interfaces.web.games.payload import PublicGame, outcome_json, seat_state
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.interfaces.words import outcome_text
from hanamikoji.notation.names import LANGUAGES, Lang, term
from hanamikoji.notation.outcomes import describe_outcome

try:
    from browser_support import (  # noqa: F401  (fixtures)
        CHROMIUM,
        Page,
        browser,
        choose_preference,
        page,
    )

    BROWSER = CHROMIUM.exists()
except pytest.skip.Exception:  # no Playwright: the browser test is skipped
    BROWSER = False


def charm_beats_geishas() -> Game:
    """docs/rules.md's example (a): Player 1 wins 4 geishas (9 charm), Player 2 three
    that make 12 charm, in the same scoring."""
    deal, script = scripted_round("AABBCCDD", "EEFFFGGG", "DE", "FG", "G")
    game = Game(deals=[deal])
    play(game, script)
    return game


def both_goals() -> Game:
    """Player 1 reaches 4 geishas and 15 charm at once: charm, and nothing beaten."""
    deal, script = scripted_round("DDEEFFGG", "AABBCCDE", "FF", "GG", "G")
    game = Game(deals=[deal])
    play(game, script)
    return game


def finished(game: Game) -> Outcome:
    outcome = game.outcome
    assert outcome is not None
    return outcome


def test_the_outcome_says_that_11_charm_beat_4_geishas() -> None:
    outcome = finished(charm_beats_geishas())
    assert (outcome.winner, outcome.termination) == (1, Termination.CHARM)
    assert outcome.geishas == (4, 3) and outcome.charm == (9, 12)
    assert outcome.charm_over_geishas
    assert outcome_key(outcome) == "outcome_charm_over_geishas"
    assert outcome_json(outcome).reason == "outcome_charm_over_geishas"
    assert "which beats the other player's 4 geishas" in describe_outcome(outcome)
    plain = finished(both_goals())
    assert (plain.winner, plain.termination, plain.geishas) == (0, Termination.CHARM, (4, 3))
    assert not plain.charm_over_geishas
    assert outcome_key(plain) == outcome_json(plain).reason == "outcome_charm"
    assert "beats" not in describe_outcome(plain)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_interface_says_why_in_every_language(lang: Lang) -> None:
    outcome = finished(charm_beats_geishas())
    labels = ("Ann", "Bob")
    fields = {"winner": "Bob", "charm_term": term("charm", lang)}
    why = message("outcome_charm_over_geishas", lang, **fields)
    assert why != message("outcome_charm", lang, **fields)
    if lang not in ("en", "en-2018"):
        assert why != message("outcome_charm_over_geishas", "en", **fields)
    # The terminal's end line, and the page's catalog under the key the state names.
    assert outcome_text(outcome, labels, lang).startswith(why)
    assert text(outcome_json(outcome).reason, lang, **fields) == why
    assert "outcome_charm_over_geishas" in client_catalog(lang)["ui"]


def test_every_outcome_of_the_rules_has_its_sentence() -> None:
    for termination in Termination:
        key = outcome_key(Outcome(0, termination, (11, 10), (3, 3), 1))
        assert key in client_catalog("en")["ui"], key


# -- the page --------------------------------------------------------------------------------

GAME_ID = "charm1"


@pytest.mark.e2e
@pytest.mark.skipif(not BROWSER, reason="needs Playwright and Debian's chromium")
def test_the_end_screen_says_that_charm_beat_geishas(page: Page, tmp_path: Any) -> None:
    """A game against a bot that the bot won with 12 charm over the player's 4 geishas:
    the state the server sends (``seat_state``) given to the page through its socket."""
    from serving import Server, free_port

    game = charm_beats_geishas()
    public = PublicGame(GAME_ID, ("human", "bot"), (None, 1), len(game.move_stack))
    state = to_plain(seat_state(game.view(0), public))

    def socket(ws: Any) -> None:
        ws.on_message(lambda _: ws.send(json.dumps(state)))

    with Server(tmp_path / "games.sqlite3", free_port()) as server:
        page.route_web_socket(f"**/ws/{GAME_ID}", socket)
        page.route(f"**/api/games/{GAME_ID}/ratings", lambda route: route.fulfill(json={}))
        page.goto(f"{server.url}/g/{GAME_ID}#t=token")
        why = page.locator("[data-testid=end] .why")
        why.wait_for()
        assert why.inner_text() == (
            "Bot (level 1) wins with 11 or more charm, which beats the other player's 4 geishas."
        )
        choose_preference(page, "#lang-select", "ja")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=end] .why').textContent.includes('芸者4人')"
        )
        # The cards of the reveal listed as Japanese lists them.
        reveal = page.locator(".reveal").inner_text()
        assert "、" in reveal and ", " not in reveal
