"""The bot API on the page, in Chromium (issue 50): an account makes, sees once, copies
and revokes its API tokens on My games, and upgrades itself to a bot account after a
confirm; a bot account's BOT badge shows at the table's seats and clocks, on the
spectator page, in the lobby's games to watch, on its page, in the game browser, in
friends' lists and in the challenges to and from it (the dialog, the challenge's page,
the challenges received)."""

from __future__ import annotations

from typing import Any

import httpx2 as httpx
from browser_support import (
    Page,
    browser,
    page,
    pytestmark,
    server,
    sign_up,
)
from serving import Server
from web_support import PASSWORD

__all__ = ["browser", "page", "pytestmark", "server"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def api_bot(http: httpx.Client, name: str) -> str:
    """A bot account made through the API, and its token."""
    http.cookies.clear()
    made = http.post("/api/me/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    csrf = made.json()["csrf"]
    token = http.post(
        "/api/tokens",
        json={"name": "engine", "scopes": ["bot:play"]},
        headers={"X-CSRF-Token": csrf},
    ).json()["token"]
    http.cookies.clear()
    assert http.post("/api/bot/account/upgrade", headers=bearer(token)).status_code == 200
    return str(token)


def test_tokens_are_made_shown_once_and_revoked_then_the_account_becomes_a_bot(
    page: Page, server: Server
) -> None:
    sign_up(page, server, "Tokenna")
    page.goto(server.url + "/me")
    page.wait_for_selector("[data-testid=api-tokens] #token-list li")
    assert page.text_content("#token-list") == "No tokens."
    page.fill("#token-name", "my engine")
    page.check("input[name=token-scope][value=read]")
    page.click("#token-create")
    token = page.wait_for_selector("#token-text").text_content() or ""
    assert token.startswith("hmk_") and len(token) == 47
    page.wait_for_selector("#token-list li.token")
    listed = page.text_content("#token-list li.token") or ""
    assert "my engine" in listed and "bot:play, read" in listed and "Never used" in listed
    assert token not in listed
    page.click("#token-copy")  # the clipboard, or the text selected where there is none
    page.click("#token-list .token-revoke")
    page.wait_for_selector("#token-list li:not(.token)")
    with httpx.Client(base_url=server.url) as http:
        refused = http.get("/api/account", headers=bearer(token))
        assert refused.status_code == 401 and refused.json()["error"] == "err_token"
    # The upgrade: a confirm that says it is irreversible; dismissed, nothing changes.
    said: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        said.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.click("#bot-upgrade")
    page.wait_for_function("document.querySelector('#bot-upgrade') !== null")
    assert "irreversible" in said[0] and "Tokenna" in said[0]
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.click("#bot-upgrade")
    page.wait_for_selector("#bot-is [data-testid=bot-badge]")
    page.goto(server.url + "/@/Tokenna")
    assert page.wait_for_selector("h1 [data-testid=bot-badge]").text_content() == "BOT"


def test_bot_badges_show_wherever_the_bots_names_show(page: Page, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        ann, bob = api_bot(http, "BadgeAnn"), api_bot(http, "BadgeBob")
        made = http.post(
            "/api/challenge/BadgeBob",
            json={"variant": "classic", "clock": "10+0", "rated": False, "first": "challenger"},
            headers=bearer(ann),
        )
        assert made.status_code == 200, made.text
        challenge = made.json()["challenge"]["id"]
        accepted = http.post(f"/api/challenge/{challenge}/accept", headers=bearer(bob))
        assert accepted.status_code == 200, accepted.text
        with http.stream("GET", "/api/stream/event", headers=bearer(ann)) as events:
            game_id = (
                next(line for line in events.iter_lines() if '"gameStart"' in line)
                .split('"id":"')[1]
                .split('"')[0]
            )
    sign_up(page, server, "Watcher")
    # The lobby's games to watch, then the spectator page: seats and clocks.
    page.goto(server.url + "/lobby")
    page.wait_for_selector("[data-testid=watch-players] [data-testid=bot-badge]")
    assert page.locator("[data-testid=watch-players] [data-testid=bot-badge]").count() == 2
    page.goto(f"{server.url}/w/{game_id}")
    page.wait_for_selector("[data-testid=seat-names] [data-testid=bot-badge]")
    assert page.locator("[data-testid=seat-names] [data-testid=bot-badge]").count() == 2
    assert page.locator("[data-testid=clocks] [data-testid=bot-badge]").count() == 2
    # A friend's list and the bot's page.
    page.goto(server.url + "/@/BadgeAnn")
    page.wait_for_selector("h1 [data-testid=bot-badge]")
    page.click("#follow-button")
    page.goto(server.url + "/friends")
    page.wait_for_selector("[data-friend=BadgeAnn] [data-testid=bot-badge]")
    # The challenges: one sent to a bot (its dialog, its page), one a bot sent.
    page.goto(server.url + "/@/BadgeAnn")
    page.click("#challenge-button")
    page.wait_for_selector("#challenge-dialog-title [data-testid=bot-badge]")
    page.click("#challenge-send")
    page.wait_for_selector(".challenge-page h1 [data-testid=bot-badge]")
    with httpx.Client(base_url=server.url, timeout=30) as http:
        sent = http.post(
            "/api/challenge/Watcher",
            json={"variant": "classic", "clock": None, "rated": False, "first": "random"},
            headers=bearer(bob),
        )
        assert sent.status_code == 200, sent.text
        received = sent.json()["challenge"]["id"]
    page.wait_for_selector(f"[data-challenge='{received}'] [data-testid=bot-badge]")
    page.goto(f"{server.url}/challenge/{received}")
    page.wait_for_selector(".challenge-page h1 [data-testid=bot-badge]")
    # The end sentence: the bot resigns, the spectator reads it with both badges.
    page.goto(f"{server.url}/w/{game_id}")
    page.wait_for_selector("[data-testid=seat-names] [data-testid=bot-badge]")
    with httpx.Client(base_url=server.url, timeout=30) as http:
        resigned = http.post(f"/api/bot/game/{game_id}/resign", headers=bearer(ann))
        assert resigned.status_code == 200, resigned.text
    title = page.wait_for_selector("#end-title [data-testid=bot-badge]")
    assert title is not None
    assert "BadgeBob" in (page.text_content("#end-title") or "")
    # The game browser (finished games).
    page.goto(server.url + "/games")
    page.wait_for_selector(f"[data-game='{game_id}'] [data-testid=bot-badge]")
