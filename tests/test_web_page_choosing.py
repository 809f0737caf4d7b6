"""Choosing a decision at the table, in headless Chromium (the game socket scripted, as in
test_web_table.py): the action chosen is marked on the page's own side only, and a
Competition offers each different pairing of its cards once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from browser_support import (
    ACTION_KEYS,
    ME,
    THEM,
    Page,
    browser,
    my_turn,
    pytestmark,
    scripted,
    server,
)
from serving import Server

from hanamikoji.core import Game
from hanamikoji.core.cards import ITEM_LETTERS
from hanamikoji.core.moves import Move, MoveKind, response_moves

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


# -- the pairings of a Competition -------------------------------------------------------------


def distinct_splits(cards: tuple[int, ...]) -> set[Move]:
    """Every different Competition of four cards (the engine's own moves are canonical)."""
    a, b, c, d = cards
    return {
        Move.competition(*split) for split in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
    }


def with_hand(shape: list[int]) -> tuple[Game, tuple[int, ...]]:
    """A game at the page's turn, Competition free, whose hand holds four cards in the
    shape given (the counts of each item, [2, 2] for two pairs), and those four cards."""
    for seed in range(400):
        game = Game("classic", seed=seed, first_player=ME)
        counts = Counter(game.view(ME).hand)
        chosen: list[int] = []
        for count in shape:
            item = next(
                (i for i, n in sorted(counts.items()) if n >= count and i not in chosen), None
            )
            if item is None:
                break
            chosen.extend([item] * count)
        else:
            return game, tuple(chosen)
    raise AssertionError(f"no deal has a hand of shape {shape}")


def offered_pairings(page: Page) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        "button.pairing", "els => els.map((el) => el.dataset.move)"
    )
    return texts


@pytest.mark.parametrize(
    ("shape", "count"), [([2, 2], 2), ([2, 1, 1], 2), ([3, 1], 1), ([1, 1, 1, 1], 3)]
)
def test_a_competition_offers_each_different_pairing_once(
    browser: Any, server: Server, shape: list[int], count: int
) -> None:
    game, cards = with_hand(shape)
    assert my_turn(game)
    with scripted(browser, server) as table:
        table.show(game)
        page = table.page
        page.click(".side.me button.action-marker[data-kind=competition]")
        for card in cards:
            letter = ITEM_LETTERS[card]
            page.locator(f".hand button.card[data-card={letter}]:not(.selected)").first.click()
        offered = offered_pairings(page)
        assert len(offered) == count == len(distinct_splits(cards)), offered
        assert {Move.from_text(text) for text in offered} == distinct_splits(cards)
        # P goes round the different pairings only, and each one plays as shown.
        chosen = []
        for _ in range(count):
            chosen.append(page.get_attribute("button.pairing[aria-checked=true]", "data-move"))
            page.keyboard.press("p")
        assert chosen == offered
        assert page.get_attribute("button.pairing[aria-checked=true]", "data-move") == offered[0]
        page.locator("button.pairing").last.click()
        page.click("#confirm")
        page.wait_for_function("() => document.querySelector('.game').dataset.busy === 'yes'")
        assert table.moves_sent() == [offered[-1]]


def offer_of(wanted: Callable[[Move], bool]) -> Game:
    """A game where the opponent (who starts) has offered a Competition ``wanted`` holds for."""
    for seed in range(400):
        game = Game("classic", seed=seed, first_player=THEM)
        offer = next(
            (m for m in game.legal_moves if m.kind == MoveKind.COMPETITION and wanted(m)), None
        )
        if offer is not None:
            game.push(offer)
            return game
    raise AssertionError("no deal allows the offer")


@pytest.mark.parametrize(
    "same",
    [
        lambda m: m.pairs[0] == m.pairs[1],
        lambda m: len(set(m.cards)) == 2 and m.pairs[0][0] == m.pairs[0][1],
    ],
    ids=["AB/AB", "AA/BB"],
)
def test_answering_a_competition_offers_each_different_pair_once(
    browser: Any, server: Server, same: Callable[[Move], bool]
) -> None:
    game = offer_of(same)
    offer = game.pending
    assert offer is not None
    with scripted(browser, server) as table:
        table.show(game)
        page = table.page
        options = page.eval_on_selector_all(
            ".offer button.option", "els => els.map((el) => el.dataset.move)"
        )
        assert options == [move.text() for move in response_moves(offer)]
        assert len(options) == len(set(offer.pairs))
