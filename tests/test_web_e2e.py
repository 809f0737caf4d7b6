"""End-to-end tests of the page in headless Chromium (Debian's ``chromium``, driven by
Playwright): a whole game against a bot, two browsers playing through the friend link,
a reload mid-game, and the server killed and restarted mid-game.

The server runs as a real process on loopback. Select these tests with ``-m e2e``; they
are skipped only where ``/usr/bin/chromium`` or Playwright is missing. With
``HANAMIKOJI_SCREENSHOTS=DIR`` they also save screenshots of the main screens in DIR.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx2 as httpx
from browser_support import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    Page,
    browser,
    choose_preference,
    close_summaries,
    decide,
    game_data,
    page,
    play_both_until_over,
    play_some_decisions,
    play_until_over,
    pytestmark,
    server,
    shoot,
    start_game,
    table_seen,
    wait_for_my_decision,
)
from serving import Server, free_port

from hanamikoji.core.moves import Move
from hanamikoji.notation.names import describe_move, item_name
from hanamikoji.notation.records import GameRecord

__all__ = ["browser", "page", "pytestmark", "server"]

# -- the tests ---------------------------------------------------------------------------------


def test_a_whole_game_against_a_bot_through_the_page(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#start-button")
    shoot(page, "start")
    start_game(page, server, opponent="bot", level="1", variant="classic", first="me")
    wait_for_my_decision(page)
    assert game_data(page)["mine"] == "yes"
    shoot(page, "table-start")
    # Keyboard: 1 (Secret), a card, Esc clears; then the mouse and the keyboard take turns.
    page.keyboard.press("1")
    page.keyboard.press("1")
    assert page.locator(".hand button.card.selected").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".hand button.card.selected").count() == 0
    # The language switches mid-game, edition terms included.
    choose_preference(page, "#lang-select", "fr")
    page.wait_for_selector("button.action-marker[data-kind=trade-off] >> text=Dépôt")
    choose_preference(page, "#lang-select", "en")
    page.wait_for_selector("button.action-marker[data-kind=trade-off] >> text=Trade-off")
    moves = 0
    while not page.query_selector("[data-testid=end]"):
        wait_for_my_decision(page)
        # The end first: the last scoring opens with it (one render), and stays open for
        # the checks below; an earlier round's scoring is closed to play on.
        if page.query_selector("[data-testid=end]"):
            break
        if close_summaries(page):
            continue
        decide(page, by_mouse=moves % 2 == 0, pairing=moves % 3)
        moves += 1
        if moves == 5:
            shoot(page, "table-mid-game", full=True)
    # The last scoring shows first, over the end of the game.
    page.wait_for_selector("dialog[open]")
    close_summaries(page, "round-summary")
    end = page.locator("[data-testid=end]")
    assert end.locator("h2").inner_text() in ("You win!", "You lose.", "No winner.")
    assert "Round 1" in page.locator(".reveal").inner_text()
    shoot(page, "end-of-game", full=True)
    # The record downloads, and it is the game that was played.
    with page.expect_download() as download:
        page.click("#download-text")
    record = GameRecord.from_text(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record.replay().is_over()
    assert len(record.replay().move_stack) == len(
        page.locator("[data-testid=log] li:not(.round-heading)").all()
    )
    # The replay steps through every decision, removed cards included.
    page.click("#replay")
    page.wait_for_selector("dialog.replay [data-testid=replay-removed]")
    first_removed = page.locator("[data-testid=replay-removed]").inner_text()
    assert first_removed.strip() == item_name(record.replay().deals()[0].removed, "en")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert "Decision 2 of" in page.locator("#replay-position").inner_text()
    shoot(page, "replay")
    page.keyboard.press("End")
    assert page.locator("#replay-position").inner_text().startswith("Decision")
    page.click("dialog.replay .buttons button")
    # Rematch: a new game, same seat, the other player starts.
    page.click("#rematch")
    page.wait_for_function(
        "() => document.querySelector('.game') && !document.querySelector('[data-testid=end]')"
    )
    assert "/g/" in page.url


def test_two_browsers_play_each_other_through_the_link(browser: Any, server: Server) -> None:
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    host, guest = (context.new_page() for context in contexts)
    try:
        start_game(host, server, opponent="friend", variant="french", first="opponent")
        link = host.locator("#invite-link").input_value()
        assert "#t=" in link and link.startswith(server.url + "/g/")
        shoot(host, "friend-invite")
        guest.goto(link)
        guest.wait_for_selector(".game")
        host.wait_for_selector("#invite-link", state="detached")
        assert (
            guest.locator("#status-text").inner_text()
            == "Your turn: choose an action, then its cards."
        )
        assert host.locator("#status-text").inner_text().startswith("Waiting for Player 2")
        # The guest's link is Player 2's seat: its hand is not the host's.
        assert game_data(guest)["mine"] == "yes" and game_data(host)["mine"] == "no"
        pages = [host, guest]
        play_both_until_over(pages, seconds=55, by_mouse=host)
        headlines = {one.locator("[data-testid=end] h2").inner_text() for one in pages}
        assert headlines in ({"You win!", "You lose."}, {"No winner."})
    finally:
        for context in contexts:
            context.close()


def test_a_reload_mid_game_shows_the_same_table(page: Page, server: Server) -> None:
    start_game(page, server, opponent="bot", level="2", variant="classic", first="me")
    before = play_some_decisions(page, 3)
    page.reload()
    page.wait_for_selector(".game")
    wait_for_my_decision(page)
    assert table_seen(page) == before
    decide(page, by_mouse=True)
    assert int(game_data(page)["ply"]) > int(before[0])


def test_the_server_killed_and_restarted_mid_game_loses_nothing(page: Page, tmp_path: Path) -> None:
    own = Server(tmp_path / "games.sqlite3", free_port())
    own.start()
    try:
        start_game(page, own, opponent="bot", level="1", variant="three-rounds", first="me")
        before = play_some_decisions(page, 4)
        own.kill()
        page.wait_for_selector("#conn[data-online=no]")
        own.start()
        page.wait_for_selector("#conn[data-online=yes]", timeout=30_000)
        wait_for_my_decision(page)
        assert table_seen(page) == before
        play_until_over(page, by_mouse=False)
    finally:
        own.stop()


def test_phone_screen_and_dark_theme(browser: Any, server: Server) -> None:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, color_scheme="dark", has_touch=True
    )
    phone = context.new_page()
    try:
        start_game(phone, server, opponent="bot", level="2", variant="classic", first="me")
        wait_for_my_decision(phone)
        decide(phone, by_mouse=True)
        wait_for_my_decision(phone)
        close_summaries(phone)
        background = phone.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert background == "rgb(22, 24, 29)"  # the dark theme follows the system
        # Nothing sticks out sideways on a phone-sized screen.
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.keyboard.press("3")
        for key in "123":
            phone.keyboard.press(key)
        shoot(phone, "phone-dark", full=True)
        choose_preference(phone, "#theme-select", "light")
        assert (
            phone.evaluate("getComputedStyle(document.documentElement).backgroundColor")
            == "rgb(247, 243, 236)"
        )
        shoot(phone, "phone-light")
        # Back to following the system (dark here), and a fixed dark theme.
        for choice in ("auto", "dark"):
            choose_preference(phone, "#theme-select", choice)
            assert (
                phone.evaluate("getComputedStyle(document.documentElement).backgroundColor")
                == "rgb(22, 24, 29)"
            )
    finally:
        context.close()


def test_the_analysis_of_a_finished_game(page: Page, tmp_path: Path) -> None:
    own = Server(
        tmp_path / "games.sqlite3",
        free_port(),
        *("--bot-delay", "0", "--bot-processes", "1", "--message-rate", "off"),
        *("--analysis-worlds", "40"),
    )
    own.start()
    try:
        start_game(page, own, opponent="bot", level="1", variant="classic", first="me")
        play_until_over(page, by_mouse=False)
        while close_summaries(page):
            pass
        end = page.locator("[data-testid=end]")
        # The first answer is made to say "running" whatever the server says, so the
        # progress bar shows however fast the analysis is; the page then asks again.
        # Only that first request (the POST the click sends) is held: the route then goes
        # by itself, so no poll of the page races an unroute.
        page.route("**/api/games/*/analysis", still_running, times=1)
        end.locator("button.analyse").click()
        progress = end.locator(".analysis-progress")
        progress.wait_for()
        assert progress.inner_text().startswith("Analysing the game: 0 of ")
        page.wait_for_selector("[data-testid=end] [data-testid=analysis-graph]", timeout=120_000)
        assert progress.count() == 0
        game_id = page.url.split("/g/")[1].split("#")[0]
        token = page.url.split("#t=")[1]
        analysis = httpx.get(
            f"{own.url}/api/games/{game_id}/analysis",
            headers={"Authorization": f"Bearer {token}"},
        ).json()
        assert analysis["status"] == "done"
        decisions = analysis["decisions"]
        judged = [d for d in decisions if not d["forced"]]
        # A point per decision with a choice, a row per decision, each with its label.
        points = end.locator("[data-testid=analysis-graph] .point")
        assert points.count() == len(judged) > 0
        shown = points.evaluate_all("els => els.map(e => [Number(e.dataset.ply), e.dataset.label])")
        assert shown == [[d["ply"], d["label"] or "none"] for d in judged]
        for point, decision in zip(points.all(), judged, strict=True):
            name = point.get_attribute("aria-label") or ""
            assert name.startswith(f"R{decision['round']} T{decision['turn']} ")
            assert in_words(decision["played"]) in name and (decision["label"] in name)
            if decision["label"]:
                assert f"best {in_words(decision['best'])}" in name
        rows = end.locator("[data-testid=analysis-list] button")
        assert rows.count() == len(decisions)
        # Each round after the first begins at its marker on the graph, and under its
        # heading in the list.
        rounds = max(d["round"] for d in decisions)
        markers = end.locator("[data-testid=analysis-graph] .round-marker")
        assert markers.evaluate_all("els => els.map(e => Number(e.dataset.round))") == list(
            range(2, rounds + 1)
        )
        headings = end.locator("[data-testid=analysis-list] .round-heading").all_inner_texts()
        assert headings == [f"Round {n}" for n in range(1, rounds + 1)]
        # A decision chosen on the graph: its position from the mover's side, the best
        # decision's cards starred (in the mover's hand, or among the offer's answers).
        chosen = max(judged, key=lambda d: d["cost"])
        end.locator(f"[data-testid=analysis-graph] .point[data-ply='{chosen['ply']}']").click()
        detail = end.locator("[data-testid=analysis-detail]")
        detail.locator(".replay-table").wait_for()
        sides = detail.locator(".replay-side").evaluate_all("els => els.map(e => e.dataset.seat)")
        assert sides[-1] == str(chosen["seat"] - 1)
        better = chosen["best"] != chosen["played"]
        assert detail.locator(".tile.best").count() == (
            len(chosen["best_move"]["cards"]) if better else 0
        )
        assert in_words(chosen["played"]) in detail.locator(".analysis-verdict").inner_text()
        # Words and cards, never the notation, on the end screen and in the analysis.
        assert_no_notation(end.inner_text())
        end.locator("[data-testid=analysis]").scroll_into_view_if_needed()
        shoot_element(page, end.locator("[data-testid=analysis]"), "analysis")
        # In the replay: the stored analysis at once, a decision steps the replay to it.
        page.click("#replay")
        dialog = page.locator("dialog.replay")
        dialog.locator("button.analyse").click()
        dialog.locator("[data-testid=analysis-list] button").nth(2).click()
        assert "Decision 2 of" in page.locator("#replay-position").inner_text()
        for key in ("Home", *["ArrowRight"] * len(decisions)):
            page.keyboard.press(key)
            assert_no_notation(dialog.inner_text())
    finally:
        own.stop()


# A decision in the notation (S:D, C:AB/FG, G>D) or cards as letters (BEFGGG).
NOTATION = re.compile(r"\b[STGC][:>][A-G/]*|\b[A-G]{2,}\b")


def assert_no_notation(text: str) -> None:
    found = NOTATION.findall(text)
    assert not found, found


def in_words(notation: str) -> str:
    """A decision as the page says it in English (the table's words)."""
    return describe_move(Move.from_text(notation), "en")


def still_running(route: Any) -> None:
    """Answer the page's request to start the analysis with the server's progress at 0."""
    assert route.request.method == "POST"
    response = route.fetch()
    total = response.json()["total"]
    route.fulfill(response=response, json={"status": "running", "done": 0, "total": total})


def shoot_element(page: Page, element: Any, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        element.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"))
