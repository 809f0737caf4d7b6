"""The game browser in Chromium: search a player's finished games, page to the next ones,
open the player's page with its statistics and its rating chart per variant."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_games import Games
from serving import Server, free_port

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.ratings.store import RatingStore

from browser_support import (  # isort: skip
    browser,  # noqa: F401  (a fixture)
    page,  # noqa: F401  (a fixture)
    pytestmark,  # noqa: F401  (e2e, and skipped without Chromium)
    sync_api,
)

expect = sync_api.expect

Page = Any
GAMES = 23
"""Rated games between Kaede and Ren: more than a page of 20."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on a database of finished rated games (and one private, never shown)."""
    path = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    store = Store(f"sqlite:///{path}")
    try:
        games = Games(store)
        kaede, ren = games.account("Kaede"), games.account("Ren")
        ratings = RatingStore(store)
        for index in range(GAMES):
            seats = (kaede, ren) if index % 2 else (ren, kaede)
            result = "1-0" if index % 3 else "0-1"
            ratings.rate(games.game(seats, result=result, rated=True))
        games.game((kaede, ren), result="1-0", private=True)
        games.game((kaede, None), bot_level=4, result="0-1")
    finally:
        store.close()
    with Server(path, free_port()) as running:
        yield running


def test_search_a_players_games_page_on_and_open_their_chart(
    page: Page,  # noqa: F811  (the fixture imported above)
    server: Server,
) -> None:
    page.goto(f"{server.url}/games")
    page.get_by_test_id("browser").wait_for()
    page.fill("#browser-player", "kaede")
    page.get_by_test_id("browser-search").click()
    entries = page.locator("[data-testid=browser-list] li")
    more = page.get_by_test_id("browser-more")
    more.wait_for(state="visible")
    assert entries.count() == 20
    assert "player=kaede" in page.url
    more.click()
    expect(entries).to_have_count(24)
    expect(more).to_be_hidden()  # 23 rated games and the bot game; never the private one
    ids = [entries.nth(index).get_attribute("data-game") for index in range(24)]
    assert len(set(ids)) == 24
    assert "Bot (level 4)" in entries.first.inner_text()  # the newest

    page.select_option("#browser-rated", "true")
    page.get_by_test_id("browser-search").click()
    expect(entries).to_have_count(20)

    page.locator("a.player-link", has_text="Ren").first.click()
    page.get_by_test_id("player-page").wait_for()
    assert "/@/Ren" in page.url
    chart = page.locator("[data-testid=rating-chart][data-variant=classic]")
    chart.wait_for()
    assert chart.locator("circle").count() == GAMES
    table = page.get_by_test_id("stats-table")
    table.wait_for()
    text = table.inner_text()
    assert "All games" in text and "As first player" in text and str(GAMES) in text
    page.get_by_test_id("player-all-games").click()
    page.get_by_test_id("browser").wait_for()
    assert page.input_value("#browser-player") == "Ren"
