"""Friends and challenges in Chromium (issue 49): an account challenges another from
the other's page, the other is told live on whatever page it has open and accepts, and
both land on their seats of the same game; the friends list shows who is online."""

from __future__ import annotations

from typing import Any

from browser_support import (
    DESKTOP,
    Page,
    browser,
    pytestmark,
    server,
    sign_up,
)
from serving import Server

__all__ = ["browser", "pytestmark", "server"]


def new_page(browser: Any, errors: list[str]) -> Page:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    opened = context.new_page()
    opened.on("pageerror", lambda error: errors.append(str(error)))
    return opened


def test_a_challenge_from_a_players_page_is_accepted_live_into_one_game(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    ann, bob = new_page(browser, errors), new_page(browser, errors)
    sign_up(ann, server, "Annie")
    sign_up(bob, server, "Bobby")
    bob.goto(server.url + "/lobby")  # any page of the site: its site socket is open
    bob.wait_for_selector("[data-testid=lobby]")

    ann.goto(server.url + "/@/Bobby")
    ann.wait_for_selector("[data-testid=player-actions] [data-online=yes]")
    ann.click("#follow-button")
    ann.wait_for_selector("#follow-button:has-text('Unfollow')")
    ann.click("#challenge-button")
    ann.select_option(".challenge-dialog select[name=variant]", "french")
    ann.select_option(".challenge-dialog select[name=first]", "me")
    ann.click("#challenge-send")
    ann.wait_for_url("**/challenge/*")
    ann.wait_for_selector("#cancel-challenge")

    box = bob.wait_for_selector("#challenges .challenge")
    assert "Annie" in box.inner_text() and "Annie starts." in box.inner_text()
    bob.click(".accept-challenge")
    for page in (ann, bob):
        page.wait_for_url("**/g/*", timeout=15_000)
        page.wait_for_selector(".game")
    game = ann.url.split("/g/")[1].split("#")[0]
    assert game == bob.url.split("/g/")[1].split("#")[0]
    facts = {page.inner_text(".status .facts") for page in (ann, bob)}
    assert any("Player 1" in text for text in facts) and any("Player 2" in text for text in facts)

    ann.goto(server.url + "/friends")
    friend = ann.wait_for_selector("[data-friend=Bobby]")
    assert friend.query_selector("[data-online=yes]") is not None
    assert not errors, errors
