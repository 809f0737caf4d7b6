"""Hints in games against a bot (``POST /api/games/{id}/hint``): refused in friend games,
without a seat's token and from another site; the suggestion is a legal decision of the
seat, worked out from its view alone. In Chromium: the Rules panel opened from the table
(the variant's end marked and in sight, Esc closes it) and a hint with hints turned on."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx2 as httpx
import pytest
from serving import Server, app_client, served
from starlette.testclient import TestClient
from web_support import bearer, create, csrf, legal_texts, register

from hanamikoji.core.game import Game
from hanamikoji.core.view import View
from hanamikoji.interfaces.web.games.hints import Hints
from hanamikoji.interfaces.web.games.hub import GameHub
from hanamikoji.interfaces.web.games.thinkers import BotRunner
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.interfaces.web.wire.refused import Refused

e2e: ModuleType | None = None
try:
    import browser_support
except pytest.skip.Exception:  # Playwright is not installed: the browser test is skipped
    pass
else:
    e2e = browser_support
    browser, page, server = browser_support.browser, browser_support.page, browser_support.server

Page = Any


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with app_client(analysis_worlds=40) as test_client:
        yield test_client


def hint(client: TestClient, game_id: str, headers: dict[str, str]) -> Any:
    return client.post(f"/api/games/{game_id}/hint", headers=headers)


def test_no_hint_without_a_seat_token_from_another_site_or_in_a_friend_game(
    client: TestClient,
) -> None:
    game = create(client, opponent="bot", level=1, first="me")
    for headers in ({}, bearer("x" * 43), {"Authorization": "Basic abc"}):
        refused = hint(client, game["id"], headers)
        assert refused.status_code == 404 and refused.json()["code"] == "err_bad_token"
    cross_site = {**bearer(game["token"]), "Origin": "http://evil.example"}
    refused = hint(client, game["id"], cross_site)
    assert refused.status_code == 403 and refused.json()["code"] == "err_origin"
    friends = create(client, opponent="friend", first="me")
    for token in (friends["token"], friends["friend_token"]):
        refused = hint(client, friends["id"], {**bearer(token), "X-Hanamikoji-Lang": "fr"})
        assert refused.status_code == 409
        assert refused.json() == {
            "type": "error",
            "code": "err_hint_friend",
            "message": "Les conseils ne sont donnés que dans les parties contre un bot.",
        }


def test_no_hint_in_a_rated_game_by_token_or_by_session(client: TestClient) -> None:
    """A rated game, against a bot or a person, gets no hint however its seat is opened;
    its state says it is rated (so the page offers none), an unrated one's says not."""
    ann = register(client, "HintAnn")
    games = [
        client.post("/api/games", json=settings, headers=csrf(ann)).json()
        for settings in (
            {"opponent": "bot", "level": 1, "rated": True, "first": "me"},
            {"opponent": "friend", "rated": True, "first": "me"},
            {"opponent": "bot", "level": 1, "first": "me"},
        )
    ]
    rated, rated_friend, unrated = games
    assert [game["rated"] for game in games] == [True, True, False]
    by_token = {**bearer(rated["token"]), "X-Hanamikoji-Lang": "fr"}
    by_session = csrf(ann)  # no token: the seat the session's player holds
    for game, headers in ((rated, by_token), (rated, by_session), (rated_friend, by_session)):
        refused = hint(client, game["id"], headers)
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "err_hint_rated"
    assert refused.json()["message"] == "Hints are not given in rated games."
    assert hint(client, rated["id"], by_token).json()["message"] == (
        "Les conseils ne sont pas donnés dans les parties classées."
    )
    assert hint(client, unrated["id"], by_session).status_code == 200
    for game in games:
        state = client.get(f"/api/games/{game['id']}", headers=bearer(game["token"])).json()
        assert state["rated"] is game["rated"]
    client.cookies.clear()


def test_no_hint_for_the_other_seats_decision(client: TestClient) -> None:
    game = create(client, opponent="bot", level=1, first="me")
    hub: GameHub = served(client).hub
    hints: Hints = served(client).hints

    async def for_the_bots_seat() -> str:
        live = await hub.get(game["id"])
        assert live is not None and live.game.to_move == 0
        try:
            await hints.suggest(live, 1)
        except Refused as refusal:
            return refusal.key
        return "given"

    assert client.portal.call(for_the_bots_seat) == "err_not_your_turn"  # type: ignore[union-attr]


def test_a_hint_is_a_legal_decision_of_the_seat_given_once(client: TestClient) -> None:
    game = create(client, opponent="bot", level=1, first="me")
    state = client.get(f"/api/games/{game['id']}", headers=bearer(game["token"])).json()
    given = hint(client, game["id"], bearer(game["token"]))
    assert given.status_code == 200, given.text
    suggestion = given.json()
    assert suggestion["ply"] == state["ply"] == 0
    assert suggestion["move"]["text"] in legal_texts(state)
    assert suggestion["method"] == "search" and suggestion["worlds"] > 0
    assert suggestion["next"]["text"] in legal_texts(state)
    assert 0 <= suggestion["next_value"] <= suggestion["value"] <= 1
    assert suggestion["next"]["text"] != suggestion["move"]["text"]
    # Asked again (another page, a click more): the same hint, not a new analysis.
    assert hint(client, game["id"], bearer(game["token"])).json() == suggestion


def test_a_hint_comes_from_the_seats_view_only() -> None:
    """Two deals that Player 1 cannot tell apart (the same view, other cards in the
    opponent's hand and the deck) get the same hint."""
    first: dict[View, Game] = {}
    pair: tuple[Game, Game] | None = None
    for seed in range(500):
        game = Game("classic", seed=seed, first_player=0)
        known = first.setdefault(game.view(0), game)
        if known.hand(1) != game.hand(1):
            pair = (known, game)
            break
    assert pair is not None and pair[0].deck() != pair[1].deck()
    bots = BotRunner(processes=0)
    hints = Hints(bots, worlds=30, seconds=None)  # no time cap: the same work both times

    async def both() -> list[dict[str, Any]]:
        return [to_plain(await hints.compute("same-id", game.copy(), 0)) for game in pair]

    try:
        given = asyncio.run(both())
    finally:
        bots.close()
    assert given[0] == given[1]
    assert given[0]["move"]["text"] in [move.text() for move in pair[0].legal_moves]


# -- in the browser -------------------------------------------------------------------------


def in_view(page: Page, inner: str, outer: str) -> bool:
    """Whether the element ``inner`` is shown inside ``outer``'s visible box."""
    result: bool = page.evaluate(
        """([inner, outer]) => {
            const a = document.querySelector(inner).getBoundingClientRect();
            const b = document.querySelector(outer).getBoundingClientRect();
            return a.top >= b.top && a.bottom <= b.bottom && a.height > 0;
        }""",
        [inner, outer],
    )
    return result


def shoot_both_schemes(page: Page, size: str) -> None:
    """rules-SIZE-light.png and rules-SIZE-dark.png (the theme follows the system)."""
    assert e2e is not None
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_function("s => document.documentElement.dataset.scheme === s", arg=scheme)
        e2e.shoot(page, f"rules-{size}-{scheme}")
    page.emulate_media(color_scheme="light")


@pytest.mark.e2e
@pytest.mark.skipif(
    e2e is None or not Path("/usr/bin/chromium").exists(), reason="needs Playwright and chromium"
)
def test_the_rules_panel_and_a_hint_at_the_table(page: Page, server: Server) -> None:
    assert e2e is not None
    e2e.start_game(page, server, opponent="bot", level="1", variant="french", first="me")
    e2e.wait_for_my_decision(page)
    e2e.open_rules(page)
    panel = page.locator("dialog.rules-panel[open]")
    panel.wait_for()
    end = panel.locator("#rules-end")
    assert end.inner_text().startswith("French") and end.get_attribute("aria-current") == "true"
    # The panel opens at how to play; the note at its top leads to the variant's end.
    assert in_view(page, "dialog.rules-panel h1", "dialog.rules-panel .rules-body")
    assert not in_view(page, "#rules-end", "dialog.rules-panel .rules-body")
    assert page.evaluate("document.activeElement.id") == "rules-close"
    shoot_both_schemes(page, "desktop")
    page.set_viewport_size(e2e.PHONE)
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= e2e.PHONE["width"]
    end.evaluate("row => row.scrollIntoView({block: 'center'})")
    shoot_both_schemes(page, "phone")
    # The keyboard goes round the panel's controls and links, never behind it.
    for key in ("Shift+Tab", "Shift+Tab", "Tab", "Tab", "Tab"):
        page.keyboard.press(key)
        assert page.evaluate(
            "document.querySelector('dialog.rules-panel').contains(document.activeElement)"
        )
    page.set_viewport_size(e2e.DESKTOP)
    page.keyboard.press("Escape")
    panel.wait_for(state="detached")
    # Hints: off until asked for, then the strongest level's suggestion, a legal decision.
    assert page.locator("#hint-button").count() == 0
    page.check("#hint-toggle")
    page.click("#hint-button")
    suggestion = page.locator(".hint-move")
    suggestion.wait_for(timeout=60_000)
    game_id = page.url.split("/g/")[1].split("#")[0]
    token = page.url.split("#t=")[1]
    state = httpx.get(f"{server.url}/api/games/{game_id}", headers=bearer(token)).json()
    assert suggestion.get_attribute("data-move") in legal_texts(state)
    assert "%" in page.locator(".hint-why").inner_text()
    page.reload()
    page.wait_for_selector("#hint-toggle:checked")  # remembered for this game


@pytest.mark.e2e
@pytest.mark.skipif(
    e2e is None or not Path("/usr/bin/chromium").exists(), reason="needs Playwright and chromium"
)
def test_the_page_offers_hints_in_an_unrated_bot_game_only(page: Page, server: Server) -> None:
    """Signed in with an account: an unrated game against a bot has the Show hints box
    and its Hint button; a rated one has neither."""
    assert e2e is not None
    e2e.sign_up(page, server, "HintPlayer")
    for rated in (False, True):
        page.goto(server.url + "/")
        page.select_option("#level", "1")
        page.check("input[name=first][value=me]")
        page.set_checked("#rated", rated)
        page.click("#start-button")
        page.wait_for_selector(".game")
        e2e.wait_for_my_decision(page)
        if rated:
            assert page.locator("#hint-toggle").count() == 0
            assert page.locator("#hint-button").count() == 0
        else:
            page.check("#hint-toggle")
            page.wait_for_selector("#hint-button")
