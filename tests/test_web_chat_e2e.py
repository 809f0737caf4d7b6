"""The chat in headless Chromium (issue 49): two accounts at a friend game exchange a
preset phrase and a free text line with HTML in it (shown as the characters typed), a
third page watching has its own spectators' chat which the players never see, and a
muted chat stays muted after a reload."""

from __future__ import annotations

from typing import Any

from browser_support import (
    DESKTOP,
    Page,
    browser,
    close_summaries,
    play_both_until_over,
    pytestmark,
    server,
    start_game,
)
from serving import Server
from web_support import PASSWORD

__all__ = ["browser", "pytestmark", "server"]

HTML = '<img src=x onerror="window.hacked=1"><b>gg</b>'


def sign_up(context: Any, server: Server, name: str) -> None:
    """An account for the context's browser (its session cookie)."""
    answer = context.request.post(
        server.url + "/api/me/register", data={"name": name, "password": PASSWORD}
    )
    assert answer.status == 201, answer.text()


def chat_words(page: Page) -> list[str]:
    words: list[str] = page.locator("[data-testid=chat] .chat-line").all_inner_texts()
    return words


def test_players_and_a_spectator_chat_in_their_own_rooms(browser: Any, server: Server) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(3)]
    ann, bob, carol = (context.new_page() for context in contexts)
    try:
        sign_up(contexts[0], server, "AnnChat")
        sign_up(contexts[1], server, "BobChat")
        guest = contexts[2].request.post(server.url + "/api/me/guest", data={"nickname": "Carol"})
        assert guest.status == 201
        start_game(ann, server, opponent="friend")
        link = ann.locator("#invite-link").input_value()
        bob.goto(link)
        bob.wait_for_selector("[data-testid=chat] h2")
        ann.wait_for_selector("[data-testid=chat] h2")
        assert ann.locator("[data-testid=chat] h2").inner_text() == "Chat"
        # A preset phrase, by keyboard: focus its button and press Enter.
        ann.locator(".chat-preset[data-preset=chat_good_luck]").focus()
        ann.keyboard.press("Enter")
        bob.wait_for_function(
            "() => [...document.querySelectorAll('.chat-words')]"
            ".some((el) => el.textContent === 'Good luck!')"
        )
        # Free text with HTML in it: shown as the characters typed, never as markup.
        bob.locator("[data-testid=chat-text]").fill(HTML)
        bob.locator("[data-testid=chat-text]").press("Enter")
        ann.wait_for_function(
            "(html) => [...document.querySelectorAll('.chat-words')]"
            ".some((el) => el.textContent === html)",
            arg=HTML,
        )
        for one in (ann, bob):
            assert one.locator("[data-testid=chat] img, [data-testid=chat] b").count() == 0
            assert one.evaluate("() => window.hacked") is None
        assert chat_words(ann)[0].startswith("AnnChat: Good luck!")
        assert any(line.startswith(f"BobChat: {HTML}") for line in chat_words(ann))
        # The spectator: its own room, where the players' lines are not.
        game_path = ann.url.split("#")[0].replace("/g/", "/w/")
        carol.goto(game_path)
        carol.wait_for_selector("[data-testid=chat] h2")
        assert carol.locator("[data-testid=chat] h2").inner_text() == "Spectators' chat"
        assert carol.locator(".chat-line").count() == 0
        assert carol.locator("[data-testid=chat-text]").count() == 0  # a guest: presets only
        carol.locator(".chat-preset[data-preset=chat_have_fun]").click()
        carol.wait_for_function(
            "() => [...document.querySelectorAll('.chat-words')]"
            ".some((el) => el.textContent === 'Have fun!')"
        )
        ann.locator(".chat-preset[data-preset=chat_thanks]").click()
        bob.wait_for_function(
            "() => [...document.querySelectorAll('.chat-words')]"
            ".some((el) => el.textContent === 'Thanks!')"
        )
        assert not any("Have fun!" in line for line in chat_words(ann) + chat_words(bob))
        assert not any("Thanks!" in line for line in chat_words(carol))
        # Muted, and still muted after a reload (the browser remembers).
        bob.locator("[data-testid=chat-mute]").check()
        assert bob.locator(".chat-line").count() == 0
        bob.reload()
        bob.wait_for_selector("[data-testid=chat] h2")
        assert bob.locator("[data-testid=chat-mute]").is_checked()
        assert bob.locator(".chat-line").count() == 0
        # The game played out: the replay shows the players their chat (up to each
        # position), never the spectators'.
        bob.locator("[data-testid=chat-mute]").uncheck()
        play_both_until_over([ann, bob], seconds=90)
        close_summaries(ann)
        ann.click("#replay")
        ann.click("#replay-last")
        replay_chat = ann.locator("dialog.replay [data-testid=replay-chat]")
        replay_chat.wait_for()
        words = replay_chat.locator(".chat-words").all_inner_texts()
        assert words == ["Good luck!", HTML, "Thanks!"]
        ann.click("#replay-first")
        assert replay_chat.locator(".chat-words").all_inner_texts() == words
    finally:
        for context in contexts:
            context.close()
