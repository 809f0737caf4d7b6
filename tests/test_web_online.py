"""Online play for people, end to end in headless Chromium (issue 26's whole path): two
accounts meet in the lobby, play a rated 3+2 game to the end on the server's clocks and
see their new ratings; a third browser watches the game from the lobby's list and sees
only what is public until the end.

Each step has its own tests (tests/test_web_players.py, test_web_lobby.py,
test_web_clocks.py, test_web_ratings.py, test_web_spectators.py); this one checks that
they meet.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import DESKTOP, Page, browser, play_both_until_over, pytestmark, sign_up
from serving import Server, free_port

__all__ = ["browser", "pytestmark"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    options = ("--bot-processes", "0", "--login-rate", "off", "--message-rate", "off")
    with Server(tmp_path / "games.sqlite3", free_port(), *options) as running:
        yield running


def meet_in_the_lobby(ann: Page, bob: Page, server: Server) -> str:
    """Ann posts a rated 3+2 seek, Bob accepts it: both land on the game; its id."""
    for one in (ann, bob):
        one.goto(server.url + "/lobby")
        one.wait_for_selector("[data-testid=lobby-you]")
    ann.select_option("select[name=time_control]", "3+2")
    ann.check("input[name=rated]")
    ann.click("#post-seek")
    bob.wait_for_selector(".accept-seek")
    assert "Ann" in bob.inner_text("[data-testid=seeks]")
    bob.click(".accept-seek")
    for one in (ann, bob):
        one.wait_for_url("**/g/*", timeout=15_000)
        one.wait_for_selector(".game")
    game: str = ann.url.split("/g/")[1].split("#")[0]
    assert game == bob.url.split("/g/")[1].split("#")[0]
    return game


def watch(watcher: Page, server: Server, game: str) -> None:
    watcher.goto(server.url + "/lobby")
    watcher.wait_for_selector(f"[data-watch='{game}']")
    watcher.click(f"[data-watch='{game}']")
    watcher.wait_for_url(f"**/w/{game}")
    watcher.wait_for_selector(".game")
    assert watcher.locator(".composer").count() == 0
    assert watcher.locator("[data-testid=my-side] .hand button").count() == 0


def clock_ms(page: Page, seat: int) -> int:
    """What a clock shows, in milliseconds (m:ss or m:ss.d)."""
    shown = page.inner_text(f"[data-testid=clock-{seat}] .time").strip()
    minutes, seconds = shown.split(":")
    return int((int(minutes) * 60 + float(seconds)) * 1000)


def test_two_accounts_meet_in_the_lobby_play_rated_3_2_and_a_third_watches(
    browser: Any, server: Server
) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(3)]
    ann, bob, watcher = (context.new_page() for context in contexts)
    errors: list[str] = []
    for one in (ann, bob, watcher):
        one.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_up(ann, server, "Ann")
        sign_up(bob, server, "Bob")
        game = meet_in_the_lobby(ann, bob, server)
        watch(watcher, server, game)
        for one in (ann, bob, watcher):
            one.wait_for_selector("[data-testid=clocks][data-control='3+2']")
        assert 0 < clock_ms(ann, 0) <= 180_000 and 0 < clock_ms(ann, 1) <= 180_000
        play_both_until_over([ann, bob], seconds=150, by_mouse=ann)
        for one in (ann, bob):
            one.wait_for_selector("[data-testid=end-ratings]:not([hidden])")
            deltas = one.locator("[data-testid=rating-delta]").all_inner_texts()
            assert len(deltas) == 2 and all(d.strip()[0] in "+\u2212\u00b1" for d in deltas)
        watcher.wait_for_selector("[data-testid=end]")
        ann.goto(server.url + "/leaderboard")
        ann.wait_for_selector("[data-testid=leaderboard-provisional] td")
        board = ann.locator("[data-testid=leaderboard-provisional]").inner_text()
        assert "Ann" in board and "Bob" in board
        assert errors == []
    finally:
        for context in contexts:
            context.close()
