"""End-to-end tests of the table in headless Chromium: the explanations on everything
(hover, keyboard focus, long press, screen readers), the last decisions marked on the
board, the number keys, and the layout on a phone.

Most tests script the game socket (Playwright's ``route_web_socket``): the page gets the
very states the server would send its seat (``payload.seat_state`` of a real game's view),
so a test can show any position at once. With ``HANAMIKOJI_SCREENSHOTS=DIR`` the marked
last decisions are saved as ``DIR/last-move-{desktop,phone}-{light,dark}.png``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from browser_support import (
    DESKTOP,
    ME,
    PHONE,
    THEM,
    Page,
    browser,
    choose_preference,
    game_data,
    my_turn,
    page,
    play,
    pytestmark,
    scripted,
    server,
    shoot,
    start_game,
)
from serving import Server

from hanamikoji.core import Game
from hanamikoji.core.moves import MoveKind
from hanamikoji.notation.names import card_label

__all__ = ["browser", "page", "pytestmark", "server"]

PHONE_DEVICE: dict[str, Any] = {"viewport": PHONE, "has_touch": True, "is_mobile": True}

# -- positions ---------------------------------------------------------------------------------


def answer_of(kind: MoveKind) -> MoveKind:
    return MoveKind.GIFT_RESPONSE if kind == MoveKind.GIFT else MoveKind.COMPETITION_RESPONSE


def last_moves_position() -> Game:
    """The opponent offered a Gift (answered by the page), the page a Competition (answered
    by the opponent), then the opponent played a Trade-off: the page's turn."""
    game = Game("classic", seed=11, first_player=THEM)
    return play(
        game,
        MoveKind.GIFT,
        MoveKind.GIFT_RESPONSE,
        MoveKind.COMPETITION,
        MoveKind.COMPETITION_RESPONSE,
        MoveKind.TRADE_OFF,
    )


def reach(wanted: Callable[[Game], bool], variant: str = "classic") -> Game:
    """The first game played at random (seeds 0, 1, ...) until ``wanted`` holds."""
    for seed in range(100):
        game = Game(variant, seed=seed, first_player=ME)
        draws = random.Random(seed)
        while not wanted(game) and not game.is_over():
            game.push(draws.choice(game.legal_moves))
        if wanted(game):
            return game
    raise AssertionError("no game reached the position")


# -- what the page shows -----------------------------------------------------------------------

DESCRIBED = ".action-marker, .card, .geisha, .marker, .score, .placed .tile, .hand.backs"

# Every word of every card name, geisha name and marker label that the browser split over
# two lines (a name may wrap between words, never inside one).
BROKEN_WORDS = """() => {
  const broken = [];
  for (const el of document.querySelectorAll('.card .item, .geisha .name, .geisha .item')) {
    const node = el.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    let at = 0;
    for (const word of node.textContent.split(' ')) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + word.length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(word);
      at += word.length + 1;
    }
  }
  return broken;
}"""

# Every item as a full and a small card, and a back for each action, in the hand's place.
ALL_CARDS = """async () => {
  const { cardBack, itemCard } = await import('/static/js/cards.js');
  const { KINDS } = await import('/static/js/game_rules.js');
  const { actionName } = await import('/static/js/i18n.js');
  const box = document.createElement('div');
  box.className = 'hand';
  box.dataset.testid = 'all-cards';
  for (const card of [0, 1, 2, 3, 4, 5, 6]) {
    box.append(itemCard(card), itemCard(card, { small: true }));
  }
  for (const kind of KINDS) box.append(cardBack(actionName(kind)));
  document.querySelector('[data-testid=my-side]').append(box);
}"""


def tooltip_text(page: Page) -> str:
    page.wait_for_selector("#tooltip:not([hidden])")
    text: str = page.locator("#tooltip").inner_text()
    return text


def description(page: Page, selector: str) -> str:
    """The accessible description of the first element matching ``selector``."""
    text: str = page.eval_on_selector(
        selector,
        """el => (el.getAttribute('aria-describedby') || '').split(' ')
                  .map((id) => document.getElementById(id)?.textContent || '').join(' ')""",
    )
    return text


def switch_language(page: Page, lang: str, word: str) -> None:
    choose_preference(page, "#lang-select", lang)
    page.wait_for_selector(f".side.me .action-marker >> text={word}")


# -- the tests ---------------------------------------------------------------------------------


def test_everything_on_the_table_explains_itself(browser: Any, server: Server) -> None:
    with scripted(browser, server) as table:
        game = last_moves_position()
        table.show(game)
        page = table.page
        # Every marker, card, geisha, favor marker, score and pile has its explanation for
        # screen readers, and a keyboard can reach it.
        missing = page.eval_on_selector_all(
            DESCRIBED,
            """els => els.filter((el) => {
                const ids = (el.getAttribute('aria-describedby') || '').split(' ');
                const texts = ids.map((id) => document.getElementById(id)?.textContent || '');
                return !texts.join('').trim() || el.tabIndex < 0;
            }).map((el) => el.className)""",
        )
        assert missing == []
        assert page.locator(DESCRIBED).count() > 20
        # Hovering a marker: what it does to both players' cards, and whether it is used.
        page.hover(".side.them .action-marker[data-kind=gift]")
        assert tooltip_text(page) == description(page, ".side.them .action-marker[data-kind=gift]")
        assert tooltip_text(page).startswith("Gift (3 cards): its player offers three cards")
        assert "Used this round." in tooltip_text(page)
        page.hover(".side.me .action-marker[data-kind=secret]")
        assert "Not used yet this round" in tooltip_text(page)
        # The scores say what wins, with the variant's own rule.
        page.hover(".side.me .score")
        assert "4 geishas or 11 charm wins" in tooltip_text(page)
        assert "Rounds until someone has 11 charm or 4 geishas." in tooltip_text(page)
        # A geisha: her charm, and where her favor marker is (it stays between rounds).
        page.hover(".geisha[data-card=A]")
        assert tooltip_text(page).startswith("Ayane (flute) is worth 2 charm")
        assert "Her Victory Marker is in the middle" in tooltip_text(page)
        # Cards say where they are: in the hand, on a side.
        page.hover(".hand button.card >> nth=0")
        assert "In your hand: only you see it." in tooltip_text(page)
        page.hover(".placed.them .tile >> nth=0")
        assert "On Bot (level 2)'s side" in tooltip_text(page)
        page.mouse.move(0, 0)
        page.wait_for_selector("#tooltip", state="hidden")
        # Keyboard focus shows the focused element's explanation; Escape hides it.
        page.focus(".geisha[data-card=A]")
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.tip")
        assert focused and tooltip_text(page) == page.evaluate(
            "document.getElementById(document.activeElement.dataset.tip).textContent"
        )
        page.keyboard.press("Escape")
        page.wait_for_selector("#tooltip", state="hidden")
        # The page's own offer, waiting for the answer: each card or pair says where it goes.
        table.show(play(game, MoveKind.GIFT))
        page.hover(".offer .option .card >> nth=0")
        assert "On offer: what Bot (level 2) takes goes to their side" in tooltip_text(page)
        options = page.locator(".offer .option")
        assert options.count() >= 2
        assert page.locator(".offer .option[aria-describedby]").count() == options.count()


def test_a_long_press_explains_a_card_without_choosing_it(browser: Any, server: Server) -> None:
    with scripted(browser, server, **PHONE_DEVICE) as table:
        table.show(Game("classic", seed=3, first_player=ME))
        page = table.page
        card = page.locator(".hand button.card").first
        box = card.bounding_box()
        assert box is not None
        point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        touch = page.context.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        text = tooltip_text(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert "In your hand: only you see it." in text
        assert card.get_attribute("aria-pressed") == "false"
        # A short tap still chooses the card, and hides the explanation.
        card.tap()
        assert card.get_attribute("aria-pressed") == "true"
        assert page.locator("#tooltip").is_hidden()


def test_the_last_decisions_are_marked_on_the_board(browser: Any, server: Server) -> None:
    for name, device in (("desktop", {"viewport": DESKTOP}), ("phone", PHONE_DEVICE)):
        for scheme in ("light", "dark"):
            with scripted(browser, server, color_scheme=scheme, **device) as table:
                before = last_moves_position()
                trade_off = before.pop()
                table.show(before)
                table.show(play(before, trade_off.kind))
                check_marks(table.page, before)
                # A full-page shot would drop the phone's touch emulation (and its key hints).
                shoot(table.page, f"last-move-{name}-{scheme}", full=name == "desktop")


def check_marks(page: Page, game: Game) -> None:
    """The opponent's latest decisions (the answer to the page's Competition, then a
    Trade-off) solid, the page's own (the answer to the Gift, the Competition) lighter."""
    them = page.locator(".side.them")
    trade_off = them.locator(".action-marker[data-kind=trade-off]")
    assert "last-theirs" in (trade_off.get_attribute("class") or "")
    backs = them.locator(".facedown .card.back.last-theirs")
    assert backs.count() == 2
    assert "Part of Bot (level 2)'s last decision." in description(
        page, ".side.them .facedown .card.back"
    )
    mine = page.locator(".side.me .action-marker[data-kind=competition]")
    assert "last-mine" in (mine.get_attribute("class") or "")
    assert page.locator("[data-testid=their-last]").inner_text() == (
        "Last decision: Takes from the Competition: "
        + describe_cards(game.move_stack[3].cards, " + ")
        + " · Trade-off (face down)"
    )
    assert (
        page.locator("[data-testid=my-last]")
        .inner_text()
        .startswith("Last decision: Takes from the Gift: ")
    )
    assert marked_tiles(page) == expected_marks(game)


def describe_cards(cards: tuple[int, ...], joiner: str) -> str:
    return joiner.join(card_label(card) for card in cards)


def marked_tiles(page: Page) -> dict[tuple[str, str, str], int]:
    """How many tiles of each pile are marked: (side, geisha letter, whose) -> count."""
    found: list[list[str]] = page.eval_on_selector_all(
        ".placed .tile.last",
        """els => els.map((el) => [
            el.parentElement.classList.contains('me') ? 'me' : 'them',
            el.dataset.card,
            el.classList.contains('last-theirs') ? 'theirs' : 'mine'])""",
    )
    counted: dict[tuple[str, str, str], int] = {}
    for side, card, whose in found:
        counted[side, card, whose] = counted.get((side, card, whose), 0) + 1
    return counted


def expected_marks(game: Game) -> dict[tuple[str, str, str], int]:
    """The piles the Gift and the Competition of :func:`last_moves_position` filled: the
    Competition's answer is the opponent's latest (solid), the Gift's answer the page's."""
    moves = game.move_stack
    marks: dict[tuple[str, str, str], int] = {}

    def add(side: str, cards: list[int], whose: str) -> None:
        for card in cards:
            key = (side, "ABCDEFG"[card], whose)
            marks[key] = marks.get(key, 0) + 1

    for offer, answer, offerer, whose in (
        (moves[0], moves[1], "them", "mine"),
        (moves[2], moves[3], "me", "theirs"),
    ):
        rest = list(offer.cards)
        for card in answer.cards:
            rest.remove(card)
        add(offerer, rest, whose)
        add("them" if offerer == "me" else "me", list(answer.cards), whose)
    return marks


def test_marks_animate_once_and_not_with_reduced_motion(browser: Any, server: Server) -> None:
    for motion, animation in (("no-preference", "hk-arrive"), ("reduce", "none")):
        with scripted(browser, server, reduced_motion=motion) as table:
            game = last_moves_position()
            trade_off = game.pop()
            table.show(game)
            assert table.page.locator(".arrive").count() == 0  # nothing new on opening
            table.show(play(game, trade_off.kind))
            arrived = table.page.locator(".side.them .action-marker.arrive")
            assert arrived.count() == 1
            assert arrived.evaluate("el => getComputedStyle(el).animationName") == animation
            # Drawn again (an action chosen): still marked, no second animation.
            table.page.keyboard.press("1")
            assert table.page.locator(".side.them .action-marker.last-theirs").count() == 1
            assert table.page.locator(".arrive").count() == 0


def test_number_keys_choose_actions_in_every_language(browser: Any, server: Server) -> None:
    with scripted(browser, server) as table:
        game = Game("classic", seed=5, first_player=ME)
        table.show(game)
        page = table.page
        hand = game.view(ME).hand
        for lang, gift in (("es", "Regalo"), ("fr", "Offre"), ("en", "Gift")):
            switch_language(page, lang, gift)
            keys = page.locator(".side.me .action-marker kbd").all_inner_texts()
            assert keys == ["1", "2", "3", "4"]
            page.keyboard.press("3")
            assert page.locator(".side.me .action-marker.selected").inner_text().startswith(gift)
            # Once an action is chosen, the number keys choose cards (shown on the cards).
            assert page.locator(".hand .card kbd").count() == len(hand)
            assert page.locator(".side.me .action-marker kbd").count() == 0
            page.keyboard.press("Escape")
        for key in "3123":
            page.keyboard.press(key)
        page.keyboard.press("Backspace")  # no key of the table: nothing changes
        page.keyboard.press("Enter")
        letters = "".join(sorted("ABCDEFG"[card] for card in hand[:3]))
        page.wait_for_function("() => document.querySelector('.game').dataset.busy === 'yes'")
        assert table.moves_sent() == [f"G:{letters}"]


def test_key_hints_only_where_there_is_a_keyboard(browser: Any, server: Server) -> None:
    for touch, shown in ((False, True), (True, False)):
        with scripted(browser, server, has_touch=touch, is_mobile=touch) as table:
            table.show(Game("classic", seed=5, first_player=ME))
            displays = table.page.eval_on_selector_all(
                ".game kbd, .game .keys", "els => els.map((el) => getComputedStyle(el).display)"
            )
            assert len(displays) >= 6
            assert all((display != "none") == shown for display in displays)


def test_a_tall_pile_keeps_its_geisha_in_the_row(browser: Any, server: Server) -> None:
    game = reach(lambda g: my_turn(g) and max(max(side) for side in g.view(ME).placed) >= 3)
    for viewport in (DESKTOP, PHONE):
        with scripted(browser, server, viewport=viewport) as table:
            table.show(game)
            piles = table.page.eval_on_selector_all(
                ".placed", "els => els.map((el) => el.children.length)"
            )
            assert max(piles) >= 3
            tops = table.page.eval_on_selector_all(
                ".row .geisha", "els => els.map((el) => Math.round(el.getBoundingClientRect().top))"
            )
            assert len(set(tops)) == 1, tops


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_card_names_never_break_inside_a_word(browser: Any, server: Server, viewport: Any) -> None:
    with scripted(browser, server, viewport=viewport) as table:
        table.show(Game("classic", seed=5, first_player=ME))
        page = table.page
        for lang, word in (("en", "Gift"), ("es", "Regalo"), ("fr", "Offre"), ("en-2018", "Gift")):
            switch_language(page, lang, word)
            page.evaluate(ALL_CARDS)
            assert page.locator("[data-testid=all-cards] .card").count() == 18
            assert page.evaluate(BROKEN_WORDS) == [], lang


def test_counts_variants_and_results_in_words(browser: Any, server: Server) -> None:
    late = reach(lambda g: my_turn(g) and g.view(ME).deck_size == 1)
    one_geisha = reach(lambda g: my_turn(g) and g.view(ME).geishas(ME) == 1, "french")
    over = reach(Game.is_over)
    with scripted(browser, server) as table:
        page = table.page
        table.show(late)
        assert page.locator("[data-testid=deck]").inner_text() == "Deck: 1 card"
        assert page.locator(".side.them .hand.backs .count").inner_text().endswith("in hand")
        table.show(one_geisha)
        assert page.locator(".side.me .score").inner_text().endswith("· 1 geisha")
        for lang, name in (("es", "francesa"), ("fr", "française"), ("en", "French")):
            switch_language(page, lang, {"es": "Regalo", "fr": "Offre", "en": "Gift"}[lang])
            assert page.locator("[data-testid=variant]").inner_text() == name
            assert "(s)" not in page.locator(".game").inner_text()
        table.show(over)
        end = page.locator("[data-testid=end]").inner_text()
        assert over.outcome is not None
        for result in ("1-0", "0-1", "1/2"):
            assert result not in end
        assert end.splitlines()[0] == ("You win!" if over.outcome.winner == ME else "You lose.")


def test_the_start_page_names_the_variants_in_its_language(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    for lang, names in (
        ("es", ["clásica", "tres rondas", "francesa"]),
        ("fr", ["classique", "trois manches", "française"]),
    ):
        choose_preference(page, "#lang-select", lang)
        page.wait_for_selector(f".start-form label.variant b >> text={names[0]}")
        assert page.locator(".start-form label.variant b").all_inner_texts() == names


def test_the_table_opens_at_its_top_on_a_phone(browser: Any, server: Server) -> None:
    context = browser.new_context(**PHONE_DEVICE)
    phone = context.new_page()
    try:
        # The start button is below the fold: clicking it scrolls the start page down.
        start_game(phone, server, opponent="bot", level="1", variant="classic", first="opponent")
        assert phone.evaluate("window.scrollY") == 0
        status = phone.locator("#status-text").bounding_box()
        assert status is not None and 0 <= status["y"] < PHONE["height"]
        # The bot started: its decision is marked on the board, and the page's turn is next.
        phone.wait_for_selector("[data-testid=their-last]")
        assert game_data(phone)["mine"] == "yes"
    finally:
        context.close()
