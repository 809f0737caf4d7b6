"""The bot ladder's page ``/ladder`` (issue 50), end to end in headless Chromium: bots made
and put on the ladder through the API (as tests/test_web_ladder.py does) show in their
variant's tab with a BOT badge, a provisional rating, their games and record; a bot that
joins while the page is open shows without a reload; each name leads to its player page.
"""

from __future__ import annotations

import httpx2 as httpx
from bridged import bearer, bot_account, unique_name
from browser_support import Page, browser, page, pytestmark, server
from serving import Server

__all__ = ["browser", "page", "pytestmark", "server"]


def join(server: Server, token: str, *variants: str) -> None:
    answer = httpx.post(
        f"{server.url}/api/bot/ladder/join",
        json={"variants": list(variants), "concurrency": 1},
        headers=bearer(token),
        timeout=30,
    )
    assert answer.status_code == 200, answer.text


def row(page: Page, name: str) -> str:
    selector = f"[data-testid=ladder-standings] tr[data-name='{name}']"
    page.wait_for_selector(selector, timeout=30_000)
    text: str = page.inner_text(selector)
    return text


def test_the_ladder_page_shows_each_variants_bots_and_follows_the_ladder(
    page: Page, server: Server
) -> None:
    ann, bob, cid = (unique_name(prefix) for prefix in ("Ann", "Bob", "Cid"))
    tokens = {name: bot_account(server.url, name) for name in (ann, bob, cid)}
    join(server, tokens[ann], "classic")
    join(server, tokens[bob], "french")

    page.goto(server.url + "/leaderboard")
    page.click("#ladder-link")
    page.wait_for_url("**/ladder")
    assert "Bot ladder" in page.inner_text("h1")
    line = row(page, ann)
    assert "BOT" in line and "1500?" in line and "0/0/0" in line
    assert page.get_attribute(f"tr[data-name='{ann}'] td[data-online]", "data-online") == "no"
    assert page.query_selector(f"tr[data-name='{bob}']") is None  # Bob plays French only

    # Cid joins while the page is open: the standings are read again by themselves.
    join(server, tokens[cid], "classic")
    assert "BOT" in row(page, cid)

    page.click("[role=tab][data-variant=french]")
    page.wait_for_url("**/ladder?variant=french")
    assert "BOT" in row(page, bob)
    assert page.query_selector(f"tr[data-name='{ann}']") is None
    page.click("[role=tab][data-variant=three-rounds]")
    page.wait_for_selector("[data-testid=ladder-empty]")

    page.goto(f"{server.url}/ladder?variant=french")
    page.click(f"tr[data-name='{bob}'] a")
    page.wait_for_url(f"**/@/{bob}")
