"""The page's layout in headless Chromium, at a laptop's 1280x800 and a phone's 390x844
(light theme): the decision bar (what to do, the choices, Confirm and Clear) stays in view
wherever the page is scrolled, without hiding what it cannot be scrolled past; the top
bar is one row, its links and preferences behind a menu where they do not fit; every
control is at least 44 px each way on a narrow or touch screen.

The positions come from a scripted game socket (test_web_table.py) and from the lesson
at /learn.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser_support import (
    ME,
    THEM,
    Page,
    ScriptedTable,
    browser,
    make_decision,
    play,
    pytestmark,
    server,
    start_game,
    take_the_lesson,
    wait_for_step,
)
from serving import Server

from hanamikoji.core import Game
from hanamikoji.core.moves import MoveKind
from hanamikoji.interfaces.web.pages.tutorial import SCRIPT, tutorial_step

__all__ = ["browser", "pytestmark", "server"]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES: dict[str, dict[str, Any]] = {
    "laptop": {"viewport": LAPTOP},
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True},
}
TOUCH = 44  # px: the least width and height of a control on a touch or narrow screen


@contextmanager
def opened(browser: Any, size: str) -> Iterator[Page]:
    context = browser.new_context(locale="en-GB", color_scheme="light", **SIZES[size])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def box(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def in_viewport(page: Page, selector: str) -> bool:
    """Whether the whole element is inside the window as the page is scrolled now."""
    where = box(page, selector)
    size = page.viewport_size
    return (
        where["y"] >= 0
        and where["y"] + where["height"] <= size["height"]
        and where["x"] >= 0
        and where["x"] + where["width"] <= size["width"]
    )


def scroll_to(page: Page, where: str) -> None:
    page.evaluate(
        "where => window.scrollTo(0, where === 'top' ? 0 : document.documentElement.scrollHeight)",
        where,
    )


# What lies under the decision bar once the page is scrolled to its end: nothing of the
# table may stay hidden there (the bar is then in its own place, below everything).
HIDDEN_AT_THE_END = """() => {
  const bar = document.querySelector('.composer').getBoundingClientRect();
  const parts = document.querySelectorAll(
    '.game .status, .game .side, .game .row, .game .hints, .game .panel > section, .lesson');
  return [...parts].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.bottom > bar.top + 1 && r.top < bar.bottom - 1;
  }).map((el) => el.className);
}"""


def check_the_bar(page: Page) -> None:
    """Confirm is in the window as the page is now, at its top and at its end, where the
    bar hides nothing."""
    assert in_viewport(page, "#confirm")
    for where in ("top", "end"):
        scroll_to(page, where)
        assert in_viewport(page, "#confirm"), where
        assert in_viewport(page, "#prompt"), where
    assert page.evaluate(HIDDEN_AT_THE_END) == []


@pytest.mark.parametrize("size", SIZES)
def test_confirm_stays_in_view_after_choosing_a_secret(
    browser: Any, server: Server, size: str
) -> None:
    with opened(browser, size) as page:
        table = ScriptedTable(page, server)
        table.show(Game("classic", seed=5, first_player=ME))
        page.click(".side.me button.action-marker[data-kind=secret]")
        page.locator(".hand button.card").last.click()
        check_the_bar(page)
        page.click("#confirm")
        page.wait_for_function("() => document.querySelector('.game').dataset.busy === 'yes'")
        assert len(table.moves_sent()) == 1


@pytest.mark.parametrize("size", SIZES)
def test_confirm_is_in_view_when_answering_a_gift(browser: Any, server: Server, size: str) -> None:
    with opened(browser, size) as page:
        table = ScriptedTable(page, server)
        table.show(play(Game("classic", seed=11, first_player=THEM), MoveKind.GIFT))
        assert in_viewport(page, "#confirm")
        page.locator(".offer button.option").first.click()
        check_the_bar(page)


@pytest.mark.parametrize("size", SIZES)
def test_the_bar_in_a_game_against_a_bot(browser: Any, server: Server, size: str) -> None:
    with opened(browser, size) as page:
        start_game(page, server, opponent="bot", level="1", variant="classic", first="me")
        page.wait_for_selector(".game[data-mine=yes]")
        page.click(".side.me button.action-marker[data-kind=secret]")
        page.locator(".hand button.card").first.click()
        check_the_bar(page)


@pytest.mark.parametrize("size", SIZES)
def test_the_lesson_keeps_its_step_and_confirm_in_view(
    browser: Any, server: Server, size: str
) -> None:
    with opened(browser, size) as page:
        page.goto(server.url + "/learn")
        take_the_lesson(page, until=1)
        # The bar says what the step asks for, beside Confirm.
        assert page.inner_text("[data-testid=guide]") == tutorial_step(1, "en").hint
        assert in_viewport(page, "[data-testid=guide]")
        page.click("button.action-marker[data-kind=secret]")
        page.locator(".hand button.card[data-card=G]").first.click()
        check_the_bar(page)
        # At the top, the lesson's panel is whole and the bar covers none of it.
        scroll_to(page, "top")
        assert in_viewport(page, "[data-testid=lesson]")
        page.click("#confirm")
        # Answering a Gift (step 3), the same.
        take_the_lesson(page, 2, until=3)
        assert SCRIPT[3].decision is not None and ">" in SCRIPT[3].decision
        assert in_viewport(page, "#confirm") and in_viewport(page, "[data-testid=guide]")
        page.locator(".offer button.option").first.click()
        check_the_bar(page)
        make_decision(page, SCRIPT[3].decision)
        wait_for_step(page, 4)


# -- the top bar and the size of controls ------------------------------------------------------

# Every control the player can see, each with the size it can be touched by: a radio
# button or a check box by its label, which chooses it too.
SMALL_CONTROLS = """least => {
  const small = [];
  const seen = new Set();
  const controls = document.querySelectorAll(
    'a[href], button, select, input, textarea, [role=button], [role=radio], [role=tab]');
  for (const el of controls) {
    const choice = el.matches('input[type=radio], input[type=checkbox]');
    const target = (choice && el.closest('label')) || el;
    if (seen.has(target)) continue;
    seen.add(target);
    const r = target.getBoundingClientRect();
    const shown = r.width > 0 && r.height > 0 && getComputedStyle(target).visibility !== 'hidden';
    if (shown && (r.width < least || r.height < least)) {
      const name = target.id || target.className || target.tagName;
      small.push(`${name}: ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""


def small_controls(page: Page) -> list[str]:
    found: list[str] = page.evaluate(SMALL_CONTROLS, TOUCH)
    return found


# The top bar's visible parts: each one's top and bottom.
BAR_PARTS = """() => [
  ...document.querySelectorAll('#topbar > *, #topbar-menu > *, #topbar .prefs > *')]
  .map((el) => el.getBoundingClientRect())
  .filter((r) => r.width > 0 && r.height > 0)
  .map((r) => [r.top, r.bottom])"""


def one_row(page: Page) -> bool:
    """Whether every visible part of the top bar lies on one line."""
    parts: list[list[float]] = page.evaluate(BAR_PARTS)
    return max(top for top, _ in parts) < min(bottom for _, bottom in parts)


PHONES: dict[str, dict[str, Any]] = {
    "touch": {"viewport": PHONE, "has_touch": True, "is_mobile": True},
    "narrow": {"viewport": PHONE},
}


@pytest.mark.parametrize("device", PHONES)
def test_a_phone_has_one_compact_bar_and_big_enough_controls(
    browser: Any, server: Server, device: str
) -> None:
    context = browser.new_context(locale="en-GB", color_scheme="light", **PHONES[device])
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#account-button")
        assert box(page, "#topbar")["height"] <= 64
        assert one_row(page)
        assert page.locator("#lang-select").is_hidden()
        assert small_controls(page) == []
        # The menu holds the links, the rules and the preferences, each big enough.
        page.click("#menu-button")
        assert page.get_attribute("#menu-button", "aria-expanded") == "true"
        for control in ("#lobby-link", "#leaderboard-link", "#rules-button", "#lang-select"):
            assert page.locator(control).is_visible(), control
        assert in_viewport(page, "#topbar-menu")
        assert small_controls(page) == []
        # Its preferences work, and it stays open while they are changed.
        page.select_option("#theme-select", "dark")
        page.wait_for_function("() => document.documentElement.dataset.scheme === 'dark'")
        page.select_option("#lang-select", "fr")
        page.wait_for_selector("#lobby-link >> text=Salon")
        assert page.get_attribute("#menu-button", "aria-label") == "Menu"
        page.select_option("#deck-select", "card-table")
        page.wait_for_function("() => document.documentElement.dataset.deck === 'card-table'")
        assert page.locator("#topbar-menu").is_visible()
        # Esc, or a tap elsewhere, closes it; the rules open from it.
        page.keyboard.press("Escape")
        assert page.locator("#lang-select").is_hidden()
        assert page.get_attribute("#menu-button", "aria-expanded") == "false"
        page.click("#menu-button")
        page.mouse.click(10, PHONE["height"] - 10)
        assert page.locator("#lang-select").is_hidden()
        page.click("#menu-button")
        page.click("#rules-button")
        page.wait_for_selector("dialog.rules-panel[open]")
        assert page.locator("#lang-select").is_hidden()
        page.keyboard.press("Escape")
        # Back to English and the boxed game's faces for the table below.
        page.click("#menu-button")
        page.select_option("#lang-select", "en")
        page.select_option("#deck-select", "boxed")
        page.click("#menu-button")
        # The table: the actions, the hand, an offer, a split; and the lesson.
        start_game(page, server, opponent="bot", level="1", variant="classic", first="me")
        page.wait_for_selector(".game[data-mine=yes]")
        assert box(page, "#topbar")["height"] <= 64 and one_row(page)
        assert small_controls(page) == []
        page.click(".side.me button.action-marker[data-kind=competition]")
        for index in range(4):
            page.locator(".hand button.card").nth(index).click()
        assert page.locator("button.pairing").count() >= 1
        assert small_controls(page) == []
        page.goto(server.url + "/learn")
        take_the_lesson(page, until=3)
        assert page.locator(".offer button.option").count() == 3
        assert small_controls(page) == []
    finally:
        context.close()


def test_a_wide_window_keeps_the_whole_bar_in_one_row(browser: Any, server: Server) -> None:
    with opened(browser, "laptop") as page:
        page.goto(server.url + "/")
        page.wait_for_selector("#account-button")
        for control in ("#lobby-link", "#rules-button", "#lang-select", "#deck-select"):
            assert page.locator(control).is_visible(), control
        assert page.locator("#menu-button").is_hidden()
        assert one_row(page)
        # Narrower, the same bar goes behind the menu, and back.
        page.set_viewport_size({"width": 700, "height": 800})
        page.wait_for_selector("#menu-button", state="visible")
        assert page.locator("#lang-select").is_hidden() and one_row(page)
        page.set_viewport_size(LAPTOP)
        page.wait_for_selector("#lang-select", state="visible")
        assert page.locator("#menu-button").is_hidden() and one_row(page)
