"""What the page says, in Chromium, to whoever reads it: a spectator's page speaks to a
spectator (the card tracker, whose favor a marker is, whose decision a mark is); the
Rules panel a player opens from a game starts at how to play.

The game socket is scripted (Playwright's ``route_web_socket``): the page gets the very
states the server would send (``payload.spectator_state`` of a real game's view)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    DESKTOP,
    PHONE,
    Page,
    browser,
    choose_preference,
    open_rules,
    page,
    pytestmark,
    shoot,
    start_game,
)
from serving import Server, free_port

from hanamikoji.core import Game
from hanamikoji.core.moves import MoveKind
from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.games.payload import PublicGame, spectator_state
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.notation.names import action_name

JSON = dict[str, Any]
"""A message as the page decodes it."""

__all__ = ["browser", "page", "pytestmark"]

GAME_ID = "watched1"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite3", free_port()) as running:
        yield running


def watched_game() -> Game:
    """A game between two people in round 2, Player 1 holding a geisha's favor and
    Player 2 another, Player 2 to decide after Player 1's decision."""
    for seed in range(200):
        game = Game("classic", seed=seed, first_player=0)
        draws = random.Random(seed)
        while not game.is_over() and game.round <= 2:
            if game.round == 2 and game.turn >= 3 and game.to_move == 1:
                favor = game.favor()
                if 0 in favor and 1 in favor:
                    return game
            game.push(draws.choice(game.legal_moves))
    raise AssertionError("no game reached the position")


def watch(page: Page, server: Server, game: Game) -> JSON:
    """Open the spectator's page of ``game``, its socket answered with the public state."""
    public = PublicGame(
        GAME_ID, ("human", "human"), (None, None), len(game.move_stack), (True, True)
    )
    state: JSON = to_plain(spectator_state(game.view(0), public))

    def socket(ws: Any) -> None:
        ws.on_message(lambda _: ws.send(json.dumps(state)))

    page.route_web_socket(f"**/ws/{GAME_ID}/watch", socket)
    page.goto(f"{server.url}/w/{GAME_ID}")
    page.wait_for_selector(f".game[data-ply='{len(game.move_stack)}']")
    return state


def tip_of(page: Page, selector: str) -> str:
    found: str = page.eval_on_selector(
        selector, "el => document.getElementById(el.dataset.tip).textContent"
    )
    return found


def test_the_spectators_tracker_speaks_to_a_spectator(page: Page, server: Server) -> None:
    game = watched_game()
    watch(page, server, game)
    hint = page.locator("[data-testid=tracker-hint]")
    fields = {"secret": "Secret", "tradeoff": "Trade-off"}
    assert hint.inner_text() == text("tracker_hint_watch", "en", **fields)
    assert "your" not in hint.inner_text().lower()
    # In every language, with that edition's names of the actions.
    for lang in ("fr", "ja", "en-2018"):
        choose_preference(page, "#lang-select", lang)
        wanted = text(
            "tracker_hint_watch",
            lang,
            secret=action_name(MoveKind.SECRET, lang),
            tradeoff=action_name(MoveKind.TRADE_OFF, lang),
        )
        page.wait_for_function(
            "wanted => document.querySelector('[data-testid=tracker-hint]').textContent === wanted",
            arg=wanted,
        )
    shoot(page, "watch-tracker")


def test_a_spectators_markers_name_who_holds_them(page: Page, server: Server) -> None:
    game = watched_game()
    watch(page, server, game)
    favor = game.favor()
    for card, holder in enumerate(favor):
        if holder is None:
            continue
        said = tip_of(page, f".column[data-card='{'ABCDEFG'[card]}'] .marker")
        assert said.startswith(f"Her Victory Marker is on Player {holder + 1}'s side."), said
        assert f"moves only if Player {2 - holder} has more" in said and "you" not in said
    # The marks of the last decisions name the player who made them, not "your opponent".
    marks = page.eval_on_selector_all(
        ".action-marker.last",
        "els => els.map(el => [el.dataset.fkey,"
        " document.getElementById(el.dataset.tip).textContent])",
    )
    assert marks
    for fkey, said in marks:
        seat = int(fkey.split("-")[1])
        assert f"Part of Player {seat + 1}'s last decision." in said, (fkey, said)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rules_panel_opens_at_how_to_play(browser: Any, server: Server, viewport: Any) -> None:
    """From a game: at the top of the rules, with the note that links to how a game of
    its variant ends (named as the player reads it), not scrolled to that row."""
    context = browser.new_context(viewport=viewport, locale="en-GB")
    try:
        game = context.new_page()
        start_game(game, server, opponent="bot", level="1", variant="french", first="me")
        open_rules(game)
        body = game.locator("dialog.rules-panel .rules-body")
        body.locator("h1").wait_for()
        assert body.evaluate("el => el.scrollTop") == 0
        assert body.evaluate("el => el.scrollHeight > el.clientHeight")  # it could scroll
        note = body.locator(".rules-note a")
        assert note.inner_text() == "How a game of French ends is marked ▶."
        assert body.locator("h1").is_visible()
        top = body.evaluate("el => el.getBoundingClientRect().top")
        assert body.locator("h1").evaluate("el => el.getBoundingClientRect().top") >= top
        shoot(game, f"rules-panel-{viewport['width']}")
        # The note still leads to the row of the game's variant.
        note.click()
        assert body.evaluate("el => el.scrollTop") > 0
        assert body.locator("#rules-end").inner_text().startswith("French")
    finally:
        context.close()
