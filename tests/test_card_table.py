"""The card-table deck as a deck style (docs/rules.md, "The card-table deck"): the mapping
of notation/names.py against the rules page and what the card-table adaptation fixes,
``--deck`` on ``play`` and ``replay`` (the line interface and the full-screen app), and
the web page's Deck preference in Chromium.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    CHROMIUM,
    Page,
    browser,
    choose_preference,
    page,
    server,
    start_game,
    wait_for_my_decision,
)
from serving import Server
from test_tui import bot_seating, finished_game, run, screen_text

from hanamikoji.core import GEISHAS, Game, MoveKind, Variant
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.exits import EXIT_OK, EXIT_USAGE
from hanamikoji.interfaces.table import Table, TableSettings
from hanamikoji.interfaces.tui.app import TableApp, play_app, replay_app
from hanamikoji.interfaces.tui.cards import chip
from hanamikoji.interfaces.tui.hand import CELL
from hanamikoji.interfaces.tui.play import PlayScreen
from hanamikoji.notation.names import (
    ACTION_SUITS,
    SUITS,
    card_table_action,
    card_table_faces,
    card_table_geisha,
    card_table_item,
    card_table_item_ranks,
    suit_of,
)
from hanamikoji.notation.records import GameRecord, write_record

__all__ = ["browser", "page", "server"]  # the e2e fixtures the page's test uses

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
ADAPTATION_SUITS = {
    2: ("clubs", "spades", "hearts"),
    3: ("diamonds", "coins"),
    4: ("crowns",),
    5: ("moons", "stars"),
}
"""What the card-table adaptation's table of cards fixes: the suits that hold 2, 3, 4 and 5
item cards. Which suit goes with which geisha of the same charm, and the moons rather than
the stars, are this project's choices (docs/rules.md, "The card-table deck")."""

ACTION_ROWS = {
    "Trade-off": MoveKind.TRADE_OFF,
    "Secret": MoveKind.SECRET,
    "Gift": MoveKind.GIFT,
    "Competition": MoveKind.COMPETITION,
}


def table_rows(text: str, heading: str) -> list[list[str]]:
    """The body rows of every Markdown table under ``heading`` (up to the next one)."""
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    rows = []
    for line in text[start : end if end >= 0 else len(text)].splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


# -- the mapping --------------------------------------------------------------------------


def test_each_geisha_is_her_suit_s_card_of_her_charm_and_her_items_its_lower_ranks() -> None:
    geisha_rows = [row for row in table_rows(RULES, "## The card-table deck") if len(row) == 4]
    assert geisha_rows[0] == ["geisha", "her card", "her item cards", "item"]
    assert [row[0] for row in geisha_rows[1:]] == [g.name for g in GEISHAS]
    for geisha, (_, card, items, item) in zip(GEISHAS, geisha_rows[1:], strict=True):
        suit = suit_of(geisha.index)
        assert card == f"{card_table_geisha(geisha.index)} ({suit.name})"
        assert card_table_geisha(geisha.index) == f"{geisha.charm}{suit.symbol}"
        ranks = card_table_item_ranks(geisha.index)
        assert ranks == tuple(str(rank) for rank in range(geisha.charm))
        assert items.split() == [rank + card_table_item(geisha.index) for rank in ranks]
        assert item == geisha.item
    assert len({suit.symbol for suit in SUITS}) == len({suit.name for suit in SUITS}) == 7


def test_the_action_cards_and_the_players_suits() -> None:
    action_rows = [row for row in table_rows(RULES, "## The card-table deck") if len(row) == 2]
    assert action_rows[0] == ["action card", "action"]
    for letter, action in action_rows[1:]:
        name = action.split(" (")[0]
        assert card_table_action(ACTION_ROWS[name]) == letter
    assert {row[1].split(" (")[0] for row in action_rows[1:]} == set(ACTION_ROWS)
    assert [suit.name for suit in ACTION_SUITS] == ["clubs", "spades"]
    with pytest.raises(ValueError, match="GIFT_RESPONSE is a response"):
        card_table_action(MoveKind.GIFT_RESPONSE)
    faces = card_table_faces()
    assert faces["actions"] == ["J", "X", "Q", "K"]
    assert faces["geishas"][6] == "5☾" and faces["items"][3] == "♦"


def test_each_geisha_s_suit_holds_as_many_item_cards_as_the_adaptation_says() -> None:
    suits = [suit_of(geisha.index).name for geisha in GEISHAS]
    for geisha, suit in zip(GEISHAS, suits, strict=True):
        assert suit in ADAPTATION_SUITS[geisha.charm], (geisha.name, suit)
    assert len(set(suits)) == len(GEISHAS)  # one suit a geisha: the stars are left out


# -- the command line ---------------------------------------------------------------------


def test_an_unknown_deck_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    streams = Streams(io.StringIO(), io.StringIO(), io.StringIO())
    assert run_command(["play", "--deck", "tarot"], streams) == EXIT_USAGE
    assert "argument --deck: unknown deck 'tarot'; known: boxed, card-table" in (
        capsys.readouterr().err
    )
    assert run_command(["replay", "game.hkr", "--deck", ""], streams) == EXIT_USAGE


def play_lines(*options: str) -> str:
    out = io.StringIO()
    typed = io.StringIO("S:A\nquit\n")
    argv = ["play", "--seed", "4", "--first", "you", "--plain", *options]
    assert run_command(argv, Streams(typed, out, io.StringIO())) == EXIT_OK
    return out.getvalue()


def test_the_line_interface_shows_the_card_table_faces_beside_the_names() -> None:
    shown = play_lines("--deck", "card-table")
    for geisha in GEISHAS:
        k = geisha.index
        assert f"{card_table_geisha(k)} {geisha.letter} {geisha.name}" in shown
        assert f"{card_table_item(k)} {geisha.item}" in shown
    assert "♣ A Ayane flute x2" in shown  # the hand
    assert "J Secret, X Trade-off, Q Gift, K Competition" in shown
    # A decision's action card has its player's suit: clubs for Player 1, spades for 2.
    assert "Secret: flute (Ayane) [J♣:♣]" in shown
    assert re.search(r"\[Q♠:[♣♠♥♦◉♛☾]{3}\]", shown), "the bot's Gift, with its suits"
    boxed = play_lines()
    assert not set("♣♠♥♦◉♛☾") & set(boxed) and "J Secret" not in boxed


def test_a_replay_in_the_line_interface_with_the_card_table_deck(tmp_path: Path) -> None:
    record = tmp_path / "game.hkr"
    write_record(record, GameRecord.from_game(finished_game()))
    out = io.StringIO()
    argv = ["replay", str(record), "--plain", "--deck", "card-table"]
    assert run_command(argv, Streams(io.StringIO(), out, io.StringIO())) == EXIT_OK
    shown = out.getvalue()
    assert "5☾ G Ruri" in shown and re.search(r"\[[JXQK][♣♠][:>\]]", shown)


# -- the full-screen app ------------------------------------------------------------------


def card_table_table() -> Table:
    seating = bot_seating(1)
    settings = TableSettings(Variant.by_name("classic"), "en", seating, deck="card-table")
    game = Game(settings.variant, seed=7, first_player=0)
    return Table(settings, game, seating(random.Random(7)))


def test_the_app_shows_ranks_suits_and_action_letters_at_80x24() -> None:
    table = card_table_table()

    async def script(app: TableApp, pilot: Any) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        text = screen_text(app)
        for geisha in GEISHAS:
            assert re.search(rf"{geisha.name}\s+{card_table_geisha(geisha.index)}", text)
        names = ("Secret", "Trade-off", "Gift", "Competition")
        for letter, name in zip("JXQK", names, strict=True):
            # The action's card after its name, with its suit: "Q Gift" read as a key.
            assert f"{name} {letter}♠" in text and f"{name} {letter}♣" in text
            assert f"{letter} {name}" not in text
        chips = [chip(card, "card-table").plain for card in table.game.view(0).hand]
        assert all(face in text for face in chips)
        # The wider cards keep their columns: a click on the third one chooses it.
        await pilot.press("s")
        await pilot.click("#hand", offset=(2 * CELL + 2, 1))
        assert screen.draft is not None and screen.draft.chosen == [2]
        assert screen.query_one("#table").max_scroll_y == 0

    run(play_app(table), script, (80, 24))


def test_a_replay_in_the_app_with_the_card_table_deck() -> None:
    game = finished_game()

    async def script(app: TableApp, pilot: Any) -> None:
        await pilot.press("end")
        text = screen_text(app)
        assert "Secret J♣" in text and "Secret J♠" in text and "5☾" in text
        await pilot.press("q")

    app = replay_app(game, ("Ann (Player 1)", "Ben (Player 2)"), "en", deck="card-table")
    run(app, script, (100, 30))
    assert app.return_value == EXIT_OK


# -- the web page -------------------------------------------------------------------------


@pytest.mark.e2e
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_the_deck_preference_puts_the_card_table_faces_on_the_table(
    page: Page, server: Server
) -> None:
    start_game(page, server, opponent="bot", level="1", variant="classic", first="me")
    wait_for_my_decision(page)
    assert not page.locator(".row .geisha .face").first.is_visible()
    choose_preference(page, "#deck-select", "card-table")
    shown = page.locator(".row .geisha .face").all_inner_texts()
    assert shown == [card_table_geisha(g.index) for g in GEISHAS]
    markers = page.locator(".side.me .action-marker .face").all_inner_texts()
    assert markers == [card_table_action(kind) for kind in list(MoveKind)[:4]]
    letters = [g.letter for g in GEISHAS]
    hand = page.eval_on_selector_all(".hand button.card", "els => els.map(e => e.dataset.card)")
    suits = page.locator(".hand button.card .face").all_inner_texts()
    assert suits == [card_table_item(letters.index(letter)) for letter in hand]
    # The usual names stay beside the faces.
    assert page.locator(".row .geisha .name").first.inner_text() == "Ayane"
    # Remembered like the theme: a reload keeps the choice.
    page.reload()
    page.wait_for_selector(".game")
    assert page.eval_on_selector("#deck-select", "el => el.value") == "card-table"
    assert page.locator(".row .geisha .face").last.inner_text() == "5☾"
    choose_preference(page, "#deck-select", "boxed")
    assert not page.locator(".row .geisha .face").last.is_visible()
