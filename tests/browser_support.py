"""Helpers for the tests of the page in headless Chromium (Debian's ``chromium``, driven by
Playwright): the ``server``, ``browser`` and ``page`` fixtures, the ``e2e`` marks
(``pytestmark``), and driving the page as a person would. Importing this module skips the
importing test module where Playwright is missing.

Not a test module: the browser tests import from here. With
``HANAMIKOJI_SCREENSHOTS=DIR``, :func:`shoot` saves screenshots in DIR.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serving import Server, free_port
from sqlalchemy import create_engine, update
from web_support import PASSWORD, frames

from hanamikoji.core import Game
from hanamikoji.core.cards import ITEM_LETTERS
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.interfaces.web.db.tables import tournaments
from hanamikoji.interfaces.web.games.payload import KIND_NAMES, PublicGame, seat_state
from hanamikoji.interfaces.web.pages.tutorial import SCRIPT
from hanamikoji.interfaces.web.wire.outgoing import SeatState, encode

JSON = dict[str, Any]
"""A message as the page decodes it."""

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
    open dialog (a round's summary) the preference is set as the page's own code would.

    The bar measures itself again whenever its words change (the connection's state, the
    account button appearing), so it may turn compact between a look and the choice: the
    choice is tried for a second at a time, opening the menu again each time it is needed."""
    for _ in range(30):
        behind = page.get_attribute("#topbar", "data-compact") == "yes"
        if behind and page.query_selector("dialog[open]") is not None:
            page.select_option(select, value, force=True)
            break
        if behind and page.get_attribute("#topbar", "data-menu") != "open":
            page.click("#menu-button")
        try:
            page.select_option(select, value, timeout=1_000)
            break
        except sync_api.TimeoutError:
            continue
    else:
        raise AssertionError(f"{select} never became visible to choose {value!r}")
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


def sign_up(page: Page, server: Server, name: str) -> None:
    page.goto(server.url + "/")
    page.click("#account-button")
    page.click("#account-tab-register")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-button[data-kind=account]")


def start_now(server: Server, tournament_id: str) -> None:
    """Bring a tournament's start to now (the director starts it at its next look),
    rather than wait the minute its form asked for."""
    engine = create_engine(server.db_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                update(tournaments).where(tournaments.c.id == tournament_id).values(starts_ms=0)
            )
    finally:
        engine.dispose()


# -- a scripted game socket -------------------------------------------------------------------

GAME_ID = "scripted"
ME, THEM = 0, 1


class ScriptedTable:
    """A page whose game socket the test answers: it shows seat 0 of the game given to
    :meth:`show` against a level-2 bot, and keeps every message the page sends."""

    def __init__(self, page: Page, server: Server) -> None:
        self.page = page
        self.url = f"{server.url}/g/{GAME_ID}#t=token"
        self.sent: list[JSON] = []
        self.state: SeatState | None = None
        self.socket: Any = None
        page.route_web_socket(f"**/ws/{GAME_ID}", self.accept)

    def accept(self, socket: Any) -> None:
        self.socket = socket
        socket.on_message(self.receive)

    def receive(self, text: str | bytes) -> None:
        message: JSON = json.loads(text)
        self.sent.append(message)
        if message["type"] == "hello" and self.state is not None:
            self.socket.send(encode(self.state))

    def show(self, game: Game) -> None:
        """Send seat 0's state of ``game`` (opening the page the first time)."""
        public = PublicGame(
            GAME_ID, ("human", "bot"), (None, 2), len(game.move_stack), (True, True)
        )
        self.state = seat_state(game.view(ME), public)
        if self.socket is None:
            self.page.goto(self.url)
        else:
            self.socket.send(encode(self.state))
        self.page.wait_for_selector(f".game[data-ply='{len(game.move_stack)}']")

    def moves_sent(self) -> list[str]:
        return [message["move"] for message in self.sent if message["type"] == "move"]


@contextmanager
def scripted(browser: Any, server: Server, **options: Any) -> Iterator[ScriptedTable]:
    """A scripted table in a new browser context (``options``: viewport, touch, scheme)."""
    settings: dict[str, Any] = {"viewport": DESKTOP, "locale": "en-GB"}
    settings.update(options)
    context = browser.new_context(**settings)
    try:
        yield ScriptedTable(context.new_page(), server)
    finally:
        context.close()


def first_of(game: Game, kind: MoveKind) -> Move:
    return next(move for move in game.legal_moves if move.kind == kind)


def play(game: Game, *kinds: MoveKind) -> Game:
    """Play the first legal decision of each kind in turn."""
    for kind in kinds:
        game.push(first_of(game, kind))
    return game


def my_turn(game: Game) -> bool:
    return not game.is_over() and game.to_move == ME and game.pending is None


# -- the lesson ---------------------------------------------------------------------------------


def wait_for_step(page: Page, index: int) -> None:
    page.wait_for_selector(f"[data-testid=lesson][data-step='{index}'][data-moving=no]")


def make_decision(page: Page, text: str) -> None:
    """Choose ``text`` on the table by mouse: the action and its cards (a Competition's
    in pair order, so the first split offered is the one meant), or the answer; confirm."""
    move = Move.from_text(text)
    if move.is_response:
        page.click(f".offer button.option[data-move='{move.text()}']")
    else:
        page.click(f"button.action-marker[data-kind={KIND_NAMES[move.kind]}]")
        order = [card for pair in move.pairs for card in pair] if move.pairs else move.cards
        for card in order:
            letter = ITEM_LETTERS[card]
            page.locator(f".hand button.card[data-card={letter}]:not(.selected)").first.click()
    page.click("#confirm")


def take_the_lesson(page: Page, start: int = 0, *, until: int | None = None) -> None:
    """Play the lesson from step ``start`` to step ``until`` (the last by default)."""
    end = len(SCRIPT) - 1 if until is None else until
    for index in range(start, end):
        wait_for_step(page, index)
        decision = SCRIPT[index].decision
        if decision is None:
            page.click("#lesson-next")
        else:
            make_decision(page, decision)
        if index + 1 == scoring_step():
            page.wait_for_selector("dialog[open]")  # the round's scoring
            close_summaries(page)
    wait_for_step(page, end)


def scoring_step() -> int:
    """The step whose states include the round's scoring (the page shows its summary)."""
    return next(i for i in range(len(SCRIPT)) if any(f["rounds"] for f in frames(i)))
