"""Choosing a decision at the table, in headless Chromium (the game socket scripted, as in
test_web_table.py): the action chosen is marked on the page's own side only.
"""

from __future__ import annotations

from typing import Any

from serving import Server
from test_web_e2e import ACTION_KEYS, Page, browser, pytestmark, server
from test_web_table import ME, scripted

from hanamikoji.core import Game

__all__ = ["browser", "pytestmark", "server"]


def selected_markers(page: Page) -> dict[str, list[str]]:
    """The action markers marked as chosen, on each side."""
    return {
        side: page.eval_on_selector_all(
            f".side.{side} .action-marker.selected", "els => els.map((el) => el.dataset.kind)"
        )
        for side in ("me", "them")
    }


def test_choosing_an_action_marks_only_the_own_marker(browser: Any, server: Server) -> None:
    with scripted(browser, server) as table:
        table.show(Game("classic", seed=5, first_player=ME))
        page = table.page
        for kind, key in ACTION_KEYS.items():
            page.click(f".side.me button.action-marker[data-kind={kind}]")
            assert selected_markers(page) == {"me": [kind], "them": []}
            assert page.locator(".side.them .action-marker[aria-pressed=true]").count() == 0
            page.keyboard.press("Escape")
            page.keyboard.press(key)
            assert selected_markers(page) == {"me": [kind], "them": []}
            page.keyboard.press("Escape")
            assert selected_markers(page) == {"me": [], "them": []}
