"""Tournaments in Chromium (issue 51): an account creates a Swiss from the list's form,
two accounts join on its page and its creator enters a bot level; at its start the
round is paired live on every open page, the standings and the pairings show, a
player is shown their own game, and a spectator opens a game from the page."""

from __future__ import annotations

from typing import Any

from browser_support import DESKTOP, Page, browser, pytestmark, server, sign_up, start_now
from serving import Server

__all__ = ["browser", "pytestmark", "server"]


def new_page(browser: Any, errors: list[str]) -> Page:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    opened = context.new_page()
    opened.on("pageerror", lambda error: errors.append(str(error)))
    return opened


def test_a_swiss_is_created_joined_paired_and_watched_from_its_pages(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    ann, bob, watcher = (new_page(browser, errors) for _ in range(3))
    sign_up(ann, server, "Tourann")
    sign_up(bob, server, "Tourbob")

    ann.goto(server.url + "/tournaments")
    ann.fill("#tour-name", "Friday Swiss")
    ann.fill("#tour-rounds", "3")
    ann.fill("#tour-starts-in", "1")
    ann.select_option("#tour-time_control", "none")
    ann.click("#tour-submit")
    ann.wait_for_url("**/tournament/*")
    tournament_id = ann.url.rsplit("/", 1)[1]
    ann.wait_for_selector("#tour-join")
    assert "Starts in" in ann.inner_text("[data-testid=tour-countdown]")
    ann.click("#tour-join")
    ann.wait_for_selector("#tour-withdraw")
    ann.select_option("#tour-level", "1")
    ann.click("#tour-add-level")
    ann.wait_for_selector("[data-testid=tour-standings] tr[data-player='Bot 1']")

    bob.goto(server.url + "/tournaments")
    bob.click(f"[data-tournament='{tournament_id}'] a")
    bob.wait_for_selector("#tour-join")
    bob.click("#tour-join")
    # Ann's page hears of Bob live.
    ann.wait_for_selector("[data-testid=tour-standings] tr[data-player=Tourbob]")

    start_now(server, tournament_id)
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=tournament][data-status=started]", timeout=15_000)
        page.wait_for_selector("[data-testid=tour-pairings] [data-round='1']")
    assert "Round 1 of 3" in ann.inner_text("[data-testid=tour-countdown]")
    rows = ann.query_selector_all("[data-testid=tour-standings] tbody tr")
    assert len(rows) == 3
    assert "Buchholz" in ann.inner_text("[data-testid=tour-standings] thead")
    # Three players: one game and a bye; the two paired are told of their game.
    paired = [p for p in (ann, bob) if p.query_selector("[data-testid=tour-mine] a")]
    assert paired, "a paired player sees their game"
    assert "Bye: " in ann.inner_text("[data-testid=tour-pairings]")

    watcher.goto(server.url + f"/tournament/{tournament_id}")
    watcher.wait_for_selector("[data-testid=tour-pairings] a")
    watcher.click("[data-testid=tour-pairings] a")
    watcher.wait_for_url("**/w/*")
    watcher.wait_for_selector(".game")
    assert not errors, errors
