"""Your turn, wherever you are (issue 49), in headless Chromium: a seat's page in a hidden
tab gets the your-turn title, the marked favicon and a notification saying the
opponent's decision (its hidden card as "face down") as the opponent decides; all go back
once it has decided; a page in view is not notified. The tab is hidden by emulating
``document.visibilityState``, and the browser's ``Notification`` is a recorder whose
permission is granted, so that what the page asks of it is what the test reads; a second
test uses Chromium's own ``Notification``, its permission granted through Playwright."""

from __future__ import annotations

from typing import Any

from browser_support import (
    DESKTOP,
    browser,
    choose_preference,
    decide,
    game_data,
    pytestmark,
    server,
    start_game,
)
from serving import Server

__all__ = ["browser", "pytestmark", "server"]

HIDDEN_TAB = """
window.__hidden = false;
window.__notes = [];
window.__asked = 0;
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get: () => (window.__hidden ? "hidden" : "visible") });
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get: () => window.__hidden });
class RecordedNotification {
  constructor(title, options) {
    window.__notes.push({ title, body: options.body, tag: options.tag });
  }
  close() {}
}
// The browser keeps a permission granted across the site's pages, as this does.
RecordedNotification.permission = localStorage.getItem("test.granted") ? "granted" : "default";
RecordedNotification.requestPermission = () => {
  window.__asked += 1;
  RecordedNotification.permission = "granted";
  localStorage.setItem("test.granted", "yes");
  return Promise.resolve("granted");
};
window.Notification = RecordedNotification;
"""

TURN_TITLE = "(1) Your turn · Hanamikoji"


def hide(page: Any, hidden: bool) -> None:
    page.evaluate(
        "hidden => { window.__hidden = hidden;"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def icon(page: Any) -> str:
    href: str = page.get_attribute("link[rel=icon]", "href")
    return href


def test_a_hidden_seat_page_is_told_its_turn_came(browser: Any, server: Server) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(2)]
    host, guest = (context.new_page() for context in contexts)
    errors: list[str] = []
    for one in (host, guest):
        one.on("pageerror", lambda error: errors.append(str(error)))
    host.add_init_script(HIDDEN_TAB)
    try:
        host.goto(server.url + "/")
        host.wait_for_selector("#account-button")
        assert host.evaluate("window.__asked") == 0  # never asked on load
        choose_preference(host, "#turn-select", "notify")
        host.wait_for_function("() => window.__asked === 1")
        assert host.evaluate("localStorage.getItem('hanamikoji.turn')") == "notify"
        start_game(host, server, opponent="friend", first="opponent")
        game_id = host.url.split("/g/")[1].split("#")[0]
        assert host.title() == f"Hanamikoji · {game_id}"
        assert icon(host) == "/static/favicon.svg"
        guest.goto(host.locator("#invite-link").input_value())
        guest.wait_for_selector(".game[data-mine=yes]")
        # On load, the guest's page (its turn) says so at once, without a notification.
        guest.wait_for_function("title => document.title === title", arg=TURN_TITLE)
        assert icon(guest) == "/static/favicon-turn.svg"
        # The host's tab is hidden; the guest plays its Secret.
        hide(host, True)
        guest.keyboard.press("1")
        guest.keyboard.press("1")
        guest.keyboard.press("Enter")
        host.wait_for_function("title => document.title === title", arg=TURN_TITLE)
        assert icon(host) == "/static/favicon-turn.svg"
        guest.wait_for_function("id => document.title === `Hanamikoji · ${id}`", arg=game_id)
        assert icon(guest) == "/static/favicon.svg"
        notes = host.evaluate("window.__notes")
        assert notes == [
            {
                "title": "Your turn · Hanamikoji",
                "body": "Player 2: Secret (face down)",
                "tag": f"hanamikoji-{game_id}",
            }
        ]
        # Back in view, the host decides: its title and favicon are the game's again.
        hide(host, False)
        decide(host, by_mouse=False)
        host.wait_for_function("id => document.title === `Hanamikoji · ${id}`", arg=game_id)
        assert icon(host) == "/static/favicon.svg"
        # The guest decides again while the host's page is in view: the title, no notice.
        guest.wait_for_selector(".game[data-mine=yes][data-busy=no]")
        decide(guest, by_mouse=False)
        host.wait_for_function("title => document.title === title", arg=TURN_TITLE)
        assert len(host.evaluate("window.__notes")) == 1
        assert game_data(host)["mine"] == "yes"
    finally:
        for context in contexts:
            context.close()
    assert errors == []


VISIBILITY_ONLY = HIDDEN_TAB.split("class RecordedNotification", 1)[0]

REAL_NOTIFICATIONS = """
window.__made = [];
window.__shown = 0;
const RealNotification = window.Notification;
// The browser's own Notification, called through: an entry is kept only once the real
// constructor returned (a refused notification throws, and the page swallows it).
class Recording extends RealNotification {
  constructor(title, options) {
    super(title, options);
    window.__made.push({ title, body: options.body, tag: options.tag });
    this.addEventListener("show", () => { window.__shown += 1; });
  }
}
window.Notification = Recording;
"""


def test_the_browsers_own_notification_is_made_while_the_tab_is_hidden(
    browser: Any, server: Server
) -> None:
    """The real ``Notification`` of Chromium, its permission granted the way a player
    grants it (Playwright's ``grant_permissions``): the page makes one when its tab is
    hidden and the opponent decides, and none while the tab is in view."""
    host_context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    host_context.grant_permissions(["notifications"], origin=server.url)
    guest_context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    host, guest = host_context.new_page(), guest_context.new_page()
    errors: list[str] = []
    for one in (host, guest):
        one.on("pageerror", lambda error: errors.append(str(error)))
    host.add_init_script(VISIBILITY_ONLY + REAL_NOTIFICATIONS)
    try:
        host.goto(server.url + "/")
        host.wait_for_selector("#account-button")
        assert host.evaluate("Notification.permission") == "granted"
        choose_preference(host, "#turn-select", "notify")
        start_game(host, server, opponent="friend", first="opponent")
        game_id = host.url.split("/g/")[1].split("#")[0]
        guest.goto(host.locator("#invite-link").input_value())
        guest.wait_for_selector(".game[data-mine=yes]")
        hide(host, True)
        guest.keyboard.press("1")
        guest.keyboard.press("1")
        guest.keyboard.press("Enter")
        host.wait_for_function("title => document.title === title", arg=TURN_TITLE)
        host.wait_for_function("() => window.__made.length === 1")
        assert host.evaluate("window.__made") == [
            {
                "title": "Your turn · Hanamikoji",
                "body": "Player 2: Secret (face down)",
                "tag": f"hanamikoji-{game_id}",
            }
        ]
        # In view, the host decides; the guest's next decision makes no notification.
        hide(host, False)
        decide(host, by_mouse=False)
        guest.wait_for_selector(".game[data-mine=yes][data-busy=no]")
        decide(guest, by_mouse=False)
        host.wait_for_function("title => document.title === title", arg=TURN_TITLE)
        assert len(host.evaluate("window.__made")) == 1
    finally:
        host_context.close()
        guest_context.close()
    assert errors == []
