"""End-to-end tests of the page in headless Chromium (Debian's ``chromium``, driven by
Playwright): a whole game against a bot, two browsers playing through the friend link,
a reload mid-game, and the server killed and restarted mid-game.

The server runs as a real process on loopback. Select these tests with ``-m e2e``; they
are skipped only where ``/usr/bin/chromium`` or Playwright is missing. With
``HANAMIKOJI_SCREENSHOTS=DIR`` they also save screenshots of the main screens in DIR.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from serving import Server, free_port

from hanamikoji.core.moves import Move
from hanamikoji.notation.names import describe_move, item_name
from hanamikoji.notation.records import GameRecord

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = os.environ.get("HANAMIKOJI_SCREENSHOTS")
DESKTOP = {"width": 1200, "height": 860}
PHONE = {"width": 390, "height": 844}

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium"),
]

Page = Any


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite3", free_port()) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True, locale="en-GB")
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # Console errors too (a Content-Security-Policy violation is one), except the
    # failed reconnection attempts while a server is down, which are expected.
    opened.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and "WebSocket" not in message.text
            else None
        ),
    )
    yield opened
    context.close()
    assert not errors, errors


# A whole page has no bottom of the window to keep the decision bar at: it is drawn in
# its own place, as the page scrolled to its end shows it.
BAR_IN_PLACE = """place => document.querySelectorAll('.composer')
  .forEach((bar) => { bar.style.position = place ? 'static' : ''; })"""


def shoot(page: Page, name: str, *, full: bool = False) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.mouse.move(0, 0)  # no tooltip of whatever the mouse last pointed at
        page.evaluate(BAR_IN_PLACE, full)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=full)
        page.evaluate(BAR_IN_PLACE, False)


# -- driving the page as a person would ------------------------------------------------------

CARDS_PER_ACTION = {"secret": 1, "trade-off": 2, "gift": 3, "competition": 4}
ACTION_KEYS = {"secret": "1", "trade-off": "2", "gift": "3", "competition": "4"}


def game_data(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.eval_on_selector(".game", "el => ({...el.dataset})")
    return data


def wait_for_my_decision(page: Page, timeout: float = 20_000) -> None:
    """Until it is this page's decision (or the game ended, or a round summary shows)."""
    page.wait_for_function(
        """() => {
            const game = document.querySelector('.game');
            return document.querySelector('[data-testid=end]')
              || document.querySelector('dialog[open]')
              || (game && game.dataset.mine === 'yes' && game.dataset.busy === 'no');
        }""",
        timeout=timeout,
    )


def close_summaries(page: Page, shot: str | None = None) -> bool:
    dialog = page.query_selector("dialog[open]")
    if dialog is None:
        return False
    if shot:
        shoot(page, shot)
    page.click("dialog[open] .buttons button")
    return True


def decide(page: Page, *, by_mouse: bool, pairing: int = 0) -> None:
    """Play one decision of this page's seat: the first free action with the first cards
    of the hand, or the first option of an offer. Made again once if it has not landed
    in 10 s: a state arriving in the middle of the keys or clicks (a reconnection's)
    starts the table afresh, as a player would then choose again."""
    before = game_data(page)["ply"]
    for attempt in (1, 2):
        _choose(page, by_mouse=by_mouse, pairing=pairing)
        try:
            page.wait_for_function(
                """ply => !document.querySelector('.game')
                      || document.querySelector('.game').dataset.ply !== ply""",
                arg=before,
                timeout=10_000,
            )
            return
        except Exception:
            if attempt == 2 or game_data(page)["ply"] != before:
                raise


def _choose(page: Page, *, by_mouse: bool, pairing: int) -> None:
    if not by_mouse:
        page.keyboard.press("Escape")  # a half-made choice (an earlier attempt's) is cleared
    if game_data(page)["phase"] == "turn":
        kind = page.eval_on_selector_all(
            "button.action-marker:not([disabled])", "els => els.map(e => e.dataset.kind)"
        )[0]
        count = CARDS_PER_ACTION[kind]
        if by_mouse:
            page.click(f"button.action-marker[data-kind={kind}]")
            for index in range(count):
                page.locator(".hand button.card").nth(index).click()
            if kind == "competition":
                # Repeated cards have fewer different pairings than three.
                pairings = page.locator("button.pairing")
                pairings.nth(pairing % pairings.count()).click()
            page.click("#confirm")
        else:
            page.keyboard.press(ACTION_KEYS[kind])
            for index in range(count):
                page.keyboard.press(str(index + 1))
            for _ in range(pairing if kind == "competition" else 0):
                page.keyboard.press("p")
            page.keyboard.press("Enter")
    elif by_mouse:
        page.locator(".offer button.option").first.click()
        page.click("#confirm")
    else:
        page.keyboard.press("1")
        page.keyboard.press("Enter")


def play_until_over(page: Page, *, by_mouse: bool, limit: int = 400) -> None:
    for _ in range(limit):
        wait_for_my_decision(page)
        if close_summaries(page):
            continue
        if page.query_selector("[data-testid=end]"):
            return
        decide(page, by_mouse=by_mouse)
    raise AssertionError("the game did not end")


def play_both_until_over(
    pages: list[Page], *, seconds: float, by_mouse: Page | None = None
) -> None:
    """Two pages of one game decide in turn (``by_mouse`` with the mouse, the other with
    keys) until both show the end; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not all(one.query_selector("[data-testid=end]") for one in pages):
        assert time.monotonic() < deadline, "the game did not end"
        for one in pages:
            close_summaries(one)
        movers = [
            one
            for one in pages
            if not one.query_selector("[data-testid=end]")
            and game_data(one)["mine"] == "yes"
            and game_data(one)["busy"] == "no"
        ]
        if movers:
            decide(movers[0], by_mouse=movers[0] is by_mouse)
        else:
            pages[0].wait_for_timeout(30)


def choose_preference(page: Page, select: str, value: str) -> None:
    """Choose ``value`` in one of the top bar's preferences (``#lang-select``,
    ``#theme-select``, ``#deck-select``), through the menu where the bar keeps them behind
    its menu button (a narrow window, long words), closing the menu again after. Under an
    open dialog (a round's summary) the preference is set as the page's own code would."""
    behind = page.get_attribute("#topbar", "data-compact") == "yes"
    through_menu = behind and page.query_selector("dialog[open]") is None
    if through_menu:
        page.click("#menu-button")
    page.select_option(select, value, force=behind and not through_menu)
    if select == "#lang-select":
        # The catalog arrives, then the bar is translated and measured again.
        lang = "en" if value == "en-2018" else value
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    if page.get_attribute("#topbar", "data-menu") == "open":
        page.click("#menu-button")


def open_rules(page: Page) -> None:
    """Press Rules in the top bar, through its menu where the bar keeps it there."""
    if page.get_attribute("#topbar", "data-compact") == "yes":
        page.click("#menu-button")
    page.click("#rules-button")


def start_game(page: Page, server: Server, **choices: str) -> str:
    page.goto(server.url + "/")
    for name, value in choices.items():
        if name == "level":
            page.select_option("#level", value)
        else:
            page.check(f"input[name={name}][value={value}]")
    page.click("#start-button")
    page.wait_for_selector(".game")
    return str(page.url)


def table_seen(page: Page) -> tuple[str, list[str], str]:
    """What a reload or a restart must not change: the ply, the hand and the log."""
    return (
        game_data(page)["ply"],
        hand_letters(page),
        page.locator("[data-testid=log]").inner_text(),
    )


def play_some_decisions(page: Page, count: int) -> tuple[str, list[str], str]:
    """Make ``count`` decisions by keyboard, wait for the next one and return the table."""
    for _ in range(count):
        wait_for_my_decision(page)
        close_summaries(page)
        decide(page, by_mouse=False)
    wait_for_my_decision(page)
    close_summaries(page)
    return table_seen(page)


def hand_letters(page: Page) -> list[str]:
    letters: list[str] = page.eval_on_selector_all(
        ".hand button.card", "els => els.map(e => e.dataset.card)"
    )
    return letters


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
