"""The full-screen app (interfaces/tui), driven by keys and clicks through Textual's
Pilot: whole games against a bot, a Competition arranged by keys, hotseat hiding, a
replay stepped back and forth, the layout at 80x24, and the command line's choice
between the app and the line interface.

``HANAMIKOJI_SCREENSHOTS=1`` writes the screenshots of docs/terminal.md
(docs/screenshots/terminal-*.svg) instead of checking that they are there.
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import re
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static

from hanamikoji.bots import Bot, make_bot
from hanamikoji.bots.levels import make_level_bot
from hanamikoji.core import Game, Move, MoveKind, Variant, View
from hanamikoji.interfaces.cli import Streams, run_command
from hanamikoji.interfaces.exits import EXIT_ENGINE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from hanamikoji.interfaces.messages import message
from hanamikoji.interfaces.rules import CHECKOUT, rules_markdown
from hanamikoji.interfaces.table import Player, Table, TableSettings
from hanamikoji.interfaces.tui.app import TableApp, play_app, replay_app
from hanamikoji.interfaces.tui.board import render_markers, side_of
from hanamikoji.interfaces.tui.decision import Draft
from hanamikoji.interfaces.tui.end import EndScreen
from hanamikoji.interfaces.tui.modals import (
    HelpScreen,
    PassScreen,
    QuitScreen,
    ResignScreen,
    SaveScreen,
    ShowScreen,
)
from hanamikoji.interfaces.tui.play import PlayScreen
from hanamikoji.interfaces.tui.replay import ReplayScreen
from hanamikoji.notation.names import LANGUAGES, Deck, Lang
from hanamikoji.notation.outcomes import level_bot_name
from hanamikoji.notation.records import GameRecord, write_record
from hanamikoji.protocol import EngineError, EngineFailure, ExternalEngineBot

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "docs" / "screenshots"
SIZE = (80, 24)
SHORT = "classic/cap=1"
"""One round at most: for the tests that need a game's end, not a whole game."""


def screen_text(app: TableApp) -> str:
    """The screen as plain text, as a person reading it without colour sees it."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        color_system=None,
        record=True,
        legacy_windows=False,
    )
    screen = app.screen
    # Textual has no public way to render the screen to text.
    console.print(screen._compositor.render_update(full=True, screen_stack=app._background_screens))  # noqa: SLF001
    return console.export_text()


def plain(widget: Widget) -> str:
    """What a Static shows, as plain text."""
    assert isinstance(widget, Static)
    content = widget.content
    console = Console(width=120, file=io.StringIO(), color_system=None, record=True)
    console.print(content)
    return console.export_text().rstrip("\n")


def run(
    app: TableApp, script: Callable[[TableApp, Pilot[int]], Awaitable[None]], size: tuple[int, int]
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await script(app, pilot)

    asyncio.run(main())


def bot_seating(level: int) -> Callable[[random.Random], tuple[Player, Player]]:
    def seating(draws: random.Random) -> tuple[Player, Player]:
        bot = make_level_bot(level, seed=draws.getrandbits(64))
        return (Player.seated("Ann", 0, "en"), Player.seated(level_bot_name(level), 1, "en", bot))

    return seating


def hotseat_seating(draws: random.Random) -> tuple[Player, Player]:
    del draws
    return (Player("Ann", "Ann (Player 1)"), Player("Ben", "Ben (Player 2)"))


def make_table(
    seating: Callable[[random.Random], tuple[Player, Player]],
    *,
    seed: int = 7,
    first: int = 0,
    lang: Lang = "en",
    hotseat: bool = False,
    save: Path | None = None,
    variant: str = "classic",
    deck: Deck = "boxed",
) -> Table:
    settings = TableSettings(Variant.by_name(variant), lang, seating, hotseat, save, deck)
    game = Game(settings.variant, seed=seed, first_player=first)
    return Table(settings, game, seating(random.Random(seed)))


def keys_for(move: Move, view: View) -> list[str]:
    """The keys that play ``move`` from ``view``: the answer's number, or the action's
    letter and its cards' numbers (a Competition's first pair first), then Enter."""
    if move.is_response:
        return [str(view.legal_moves.index(move) + 1), "enter"]
    letter = {
        MoveKind.SECRET: "s",
        MoveKind.TRADE_OFF: "t",
        MoveKind.GIFT: "g",
        MoveKind.COMPETITION: "c",
    }[move.kind]
    cards = move.pairs[0] + move.pairs[1] if move.pairs else move.cards
    slots: list[int] = []
    for card in cards:
        slot = next(i for i, c in enumerate(view.hand) if c == card and i not in slots)
        slots.append(slot)
    return [letter, *(str(slot + 1) for slot in slots), "enter"]


async def wait_for(pilot: Pilot[int], done: Callable[[], bool], seconds: float = 20.0) -> None:
    """Let the app run (a bot think) until ``done``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not done():
        assert loop.time() < deadline, "the app did not get there in time"
        await pilot.pause(0.02)


async def play_to_the_end(
    app: TableApp,
    pilot: Pilot[int],
    table: Table,
    rng: random.Random,
    until: Callable[[Draft], bool] = lambda draft: False,
) -> list[str]:
    """Play every decision of the person by keys (a random legal one), answering the
    round summaries and passing the screen, until the end screen (or a decision where
    ``until`` holds); returns the text of each screen where the person decided."""
    seen: list[str] = []
    while not isinstance(app.screen, EndScreen):
        screen = app.screen
        if isinstance(screen, (ShowScreen, PassScreen)):
            await pilot.press("enter")
            continue
        assert isinstance(screen, PlayScreen)
        draft = screen.draft
        if draft is None:
            await pilot.pause(0.02)
            continue
        if until(draft):
            break
        seen.append(screen_text(app))
        view = draft.view
        move = rng.choice(view.legal_moves)
        before = len(table.game.move_stack)
        await pilot.press(*keys_for(move, view))
        assert table.game.move_stack[before] == move
    return seen


# -- whole games ------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "seed", "lang"), [(1, 11, "en"), (2, 12, "fr")])
def test_a_whole_game_against_a_bot_by_keys(level: int, seed: int, lang: Lang) -> None:
    table = make_table(bot_seating(level), seed=seed, lang=lang)
    secrets: list[int] = []

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screens = await play_to_the_end(app, pilot, table, random.Random(seed))
        assert len(screens) >= 8
        assert table.game.is_over()
        text = screen_text(app)
        assert message_of("game_over", lang) in text
        await pilot.press("q")
        secrets.extend(s.secrets[1] for s in table.game.summaries())

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_OK
    assert secrets


def message_of(key: str, lang: Lang) -> str:
    from hanamikoji.interfaces.messages import message

    return message(key, lang)


def test_a_whole_game_against_an_external_engine_by_keys() -> None:
    engine = [sys.executable, str(ROOT / "tests" / "engines" / "first_legal_engine.py")]

    def seating(draws: random.Random) -> tuple[Player, Player]:
        bot = ExternalEngineBot(engine, 1.0, grace_seconds=5, startup_seconds=30)
        return (Player("Ann", "Ann (Player 1)"), Player("engine", "Player 2 (engine)", bot))

    table = make_table(seating, seed=41, variant=SHORT)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await play_to_the_end(app, pilot, table, random.Random(41))
        assert table.game.is_over() and table.forfeit is None
        await pilot.press("q")

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_OK
    bot = table.players[1].bot
    assert isinstance(bot, ExternalEngineBot) and not bot.running


def test_the_opponent_s_hidden_cards_never_reach_the_screen_before_the_end() -> None:
    table = make_table(bot_seating(1), seed=21)
    leaks: list[str] = []

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        rng = random.Random(3)
        while not table.game.is_over():
            screen = app.screen
            if isinstance(screen, ShowScreen):
                await pilot.press("enter")
                continue
            assert isinstance(screen, PlayScreen)
            if screen.draft is None:
                await pilot.pause(0.02)
                continue
            view = screen.draft.view
            opponent = side_of(view, view.opponent, "")
            assert opponent.hand == () and opponent.secret is None and opponent.tradeoff == ()
            top = plain(screen.query_one("#top-markers"))
            if MoveKind.SECRET in view.used[view.opponent] and "▒" not in top:
                leaks.append(top)
            move = rng.choice(view.legal_moves)
            await pilot.press(*keys_for(move, view))

    run(play_app(table), script, SIZE)
    assert leaks == []


def test_a_bot_thinks_off_the_ui_thread_with_a_spinner() -> None:
    release = threading.Event()

    class Slow(type(make_bot("random"))):  # type: ignore[misc]
        def choose(self, view: View, legal: Sequence[Move]) -> Move:
            release.wait(300)  # thinks until the test has looked (however loaded the machine)
            return legal[0]

    def seating(draws: random.Random) -> tuple[Player, Player]:
        return (Player("Ann", "Ann (Player 1)"), Player("slow", "Player 2 (slow)", Slow(seed=1)))

    table = make_table(seating, first=1)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await wait_for(pilot, lambda: getattr(app.screen, "thinking", None) is not None)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await wait_for(pilot, lambda: "Player 2 (slow) is thinking" in screen_text(app))
        assert " s" in screen_text(app)
        # The screen answers keys while the bot thinks: help opens and closes.
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert screen.thinking is not None and not table.game.move_stack
        release.set()
        await wait_for(pilot, lambda: screen.draft is not None)
        assert len(table.game.move_stack) == 1

    run(play_app(table), script, SIZE)


def test_an_engine_that_fails_forfeits_and_the_status_is_3(tmp_path: Path) -> None:
    class Broken(type(make_bot("random"))):  # type: ignore[misc]
        def choose(self, view: View, legal: Sequence[Move]) -> Move:
            raise EngineError(EngineFailure.CRASH, "the engine crashed")

    def seating(draws: random.Random) -> tuple[Player, Player]:
        return (Player("Ann", "Ann (Player 1)"), Player("eng", "Player 2 (engine)", Broken()))

    path = tmp_path / "forfeit.hkr"
    table = make_table(seating, first=1, save=path)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, EndScreen))
        text = screen_text(app)
        assert "forfeits the game: crash: the engine crashed" in text
        assert "wins by forfeit · 1-0" in text
        await pilot.press("q")

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_ENGINE
    # The record says who forfeited, how and why, in the arena's tags.
    record = GameRecord.from_text(path.read_text(encoding="utf-8"))
    assert record.result == "*"
    assert record.tag("ForfeitResult") == "1-0"
    assert record.tag("Forfeit") == "Player 2 (eng) crash: the engine crashed"


def test_rematch_the_other_player_starts_and_the_record_goes_to_a_new_file(
    tmp_path: Path,
) -> None:
    save = tmp_path / "game.hkr"
    table = make_table(bot_seating(1), seed=5, first=0, save=save, variant=SHORT)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await play_to_the_end(app, pilot, table, random.Random(1))
        assert save.read_text(encoding="utf-8").count("Result") == 1
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.table.game.first_player == 1
        assert screen.table.settings.save_path == tmp_path / "game-2.hkr"
        await wait_for(pilot, lambda: screen.draft is not None)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("enter")

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_OK
    assert "Result" in (tmp_path / "game-2.hkr").read_text(encoding="utf-8")


def test_r_resigns_after_a_dialog_and_the_record_says_resigned(tmp_path: Path) -> None:
    save = tmp_path / "resigned.hkr"
    table = make_table(bot_seating(1), seed=5, first=0, save=save)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await wait_for(pilot, lambda: screen.draft is not None)
        await pilot.press("r")
        dialog = app.screen
        assert isinstance(dialog, ResignScreen)
        await pilot.press("escape")  # back to the game
        assert app.screen is screen and not table.over
        await pilot.press("r")
        assert "Resign this game? Ann (Player 1) loses it." in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EndScreen))
        assert "Ann (Player 1) resigned: Bot level 1 (Player 2) wins." in screen_text(app)
        await pilot.press("q")

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_OK
    record = GameRecord.from_text(save.read_text(encoding="utf-8"))
    assert record.tag("Forfeit") == "Player 1 (Ann) resigned"


def test_the_end_screen_saves_the_record_where_asked(tmp_path: Path) -> None:
    table = make_table(bot_seating(2), seed=31, variant=SHORT)
    target = tmp_path / "kept.json"

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await play_to_the_end(app, pilot, table, random.Random(4))
        end = app.screen.query_one("#end", VerticalScroll)
        await pilot.press("pagedown")
        assert end.scroll_y > 0, "the reveal scrolls by keys"
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        name = app.screen.query_one("#save-name", Input)
        assert name.value.startswith("hanamikoji-") and name.value.endswith(".hkr")
        name.value = str(tmp_path / "missing" / "x.hkr")
        await pilot.press("enter")
        assert isinstance(app.screen, SaveScreen)
        assert "Could not save the record" in screen_text(app)
        name.value = str(target)
        await pilot.press("enter")
        assert isinstance(app.screen, EndScreen)
        assert "The game record is saved in" in screen_text(app)
        await pilot.press("q")

    run(play_app(table), script, SIZE)
    saved = GameRecord.from_json(target.read_text(encoding="utf-8"))
    assert saved.replay().move_stack == table.game.move_stack


def test_ctrl_c_saves_and_exits_with_130(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    table = make_table(bot_seating(1), seed=9, save=save)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.draft is not None
        await pilot.press(*keys_for(Move.secret(screen.draft.view.hand[0]), screen.draft.view))
        await pilot.press("ctrl+c")

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_INTERRUPTED
    assert '"S:' in save.read_text(encoding="utf-8")


# -- building a decision ------------------------------------------------------------------


def test_a_competition_arranged_by_keys() -> None:
    table = make_table(bot_seating(1), seed=7, first=0)
    # Seed 7 deals Player 1 A D E F F G and draws G: (0, 3, 4, 5, 5, 6, 6).

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.draft is not None
        draft = screen.draft
        assert draft.view.hand == (0, 3, 4, 5, 5, 6, 6)
        await pilot.press("c", "1", "6", "2", "4")
        assert [str(m) for m in draft.pairings()] == ["C:AG/DF", "C:AD/FG", "C:AF/DG"]
        assert str(draft.move()) == "C:AG/DF"
        text = screen_text(app)
        assert "▸ 1) A♪ G✿  /  D☂ F♨" in text
        await pilot.press("p")
        assert str(draft.move()) == "C:AD/FG"
        assert "▸ 2) A♪ D☂  /  F♨ G✿" in screen_text(app)
        # Undo takes the last card back; choosing another rearranges the pairs.
        await pilot.press("backspace", "5")
        assert str(draft.move()) == "C:AG/DF"
        await pilot.press("p", "p", "enter")
        assert str(table.game.move_stack[0]) == "C:AF/DG"

    run(play_app(table), script, SIZE)


def test_cards_and_actions_by_arrows_space_and_clicks() -> None:
    table = make_table(bot_seating(1), seed=7, first=0)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.draft is not None
        draft = screen.draft
        # A full Trade-off refuses a third card, saying why.
        await pilot.press("t", "right", "space", "right", "space", "right", "space")
        assert draft.cards() == (3, 4)
        assert "! Trade-off takes 2 cards." in screen_text(app)
        await pilot.press("escape")
        assert draft.kind is None and draft.chosen == []
        # Clicks: the Gift marker, then three cards (5 columns each), then "play".
        markers = screen.query_one("#bottom-markers")
        text = plain(markers)
        await pilot.click(markers, offset=(text.index("Gift") + 1, 0))
        assert draft.kind == MoveKind.GIFT
        hand = screen.query_one("#hand")
        for slot in (0, 1, 6):
            await pilot.click(hand, offset=(1 + 5 * slot + 2, 1))
        assert str(draft.move()) == "G:ADG"
        prompt = screen.query_one("#prompt")
        lines = plain(prompt).split("\n")
        await pilot.click(prompt, offset=(3, len(lines) - 1))
        assert str(table.game.move_stack[0]) == "G:ADG"

    run(play_app(table), script, SIZE)


def test_capital_letters_do_what_their_small_letters_do() -> None:
    # Shift+S or Caps Lock sends "S"; some terminals report "shift+s".
    table = make_table(bot_seating(1), seed=7, first=0)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.draft is not None
        draft = screen.draft
        await pilot.press("C", "1", "6", "2", "4")
        assert draft.kind == MoveKind.COMPETITION and str(draft.move()) == "C:AG/DF"
        await pilot.press("P")
        assert str(draft.move()) == "C:AD/FG"
        await pilot.press("escape", "shift+t")
        assert draft.needed() == 2, "a Trade-off, chosen"
        await pilot.press("K")
        assert not screen.tracker
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("Q")
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("Q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("N")
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("escape", "S", "2", "enter")
        assert str(table.game.move_stack[0]) == "S:D"
        await pilot.press("Q", "Y")

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_OK

    async def replay(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("L", "L", "H")
        assert screen.stepper.step == 1
        await pilot.press("Q")

    app = replay_app(finished_game(), ("Ann (Player 1)", "Ben (Player 2)"), "en")
    run(app, replay, SIZE)
    assert app.return_value == EXIT_OK


RANK_ALONE = re.compile(r"\b[JXQK]\b(?![♣♠])")
"""An action card's rank without its suit: it would read as a key (Q quits, K hides the
tracker)."""


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_card_table_faces_never_read_as_keys_and_markers_stay_whole(lang: Lang) -> None:
    table = make_table(bot_seating(1), seed=7, first=0, lang=lang, deck="card-table")
    checked: list[str] = []

    def check(screen: PlayScreen) -> None:
        view = table.game.view(0)
        for place, seat in (("#top-markers", 1), ("#bottom-markers", 0)):
            shown = plain(screen.query_one(place))
            assert not RANK_ALONE.search(shown), shown
            side = side_of(view, seat, table.labels[seat])
            for marker in render_markers(side, lang, seat == 0, "card-table"):
                assert any(marker.plain in line for line in shown.splitlines()), marker.plain
            checked.append(shown)
        prompt = plain(screen.query_one("#prompt"))
        assert not RANK_ALONE.search(prompt), prompt

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        for kind in (MoveKind.SECRET, MoveKind.TRADE_OFF, MoveKind.GIFT):
            await wait_for(pilot, lambda: screen.draft is not None)
            draft = screen.draft
            assert draft is not None
            while draft.answering:
                await pilot.press("1", "enter")
                await wait_for(pilot, lambda: screen.draft is not None)
                draft = screen.draft
                assert draft is not None
            check(screen)
            move = next(m for m in draft.view.legal_moves if m.kind == kind)
            action, *cards = keys_for(move, draft.view)
            await pilot.press(action)
            check(screen)
            await pilot.press(*cards)
        await wait_for(pilot, lambda: screen.draft is not None)
        check(screen)

    run(play_app(table), script, SIZE)
    assert any("×" in shown and "♣" in shown for shown in checked)


def test_draft_refuses_a_used_action_and_answers_only_an_offer() -> None:
    game = Game(seed=7, first_player=0)
    game.push_text("S:D")
    game.push_text("G:BCF")
    draft = Draft(game.view(0))
    assert draft.answering and [str(m) for m in draft.options()] == ["G>B", "G>C", "G>F"]
    refusal = draft.choose(MoveKind.GIFT)
    assert refusal is not None and refusal.key == "err_answer_first"
    assert draft.pick(5) is not None and draft.pick(2) is None
    assert str(draft.move()) == "G>F"
    game.push_text("G>F")
    view = game.view(0)
    draft = Draft(view)
    refusal = draft.choose(MoveKind.SECRET)
    assert refusal is not None and refusal.key == "err_used"
    assert draft.toggle(9) is not None
    assert draft.move() is None and draft.missing().key == "tui_choose_action"


# -- hotseat ------------------------------------------------------------------------------


def test_hotseat_hides_the_hand_between_turns() -> None:
    table = make_table(hotseat_seating, seed=7, first=0, hotseat=True)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        assert "Pass the terminal to Ann (Player 1)" in screen_text(app)
        await pilot.press("enter")
        play = app.screen
        assert isinstance(play, PlayScreen) and play.draft is not None
        assert play.draft.view.player == 0
        hand = plain(play.query_one("#hand"))
        assert "A♪" in hand and "G✿" in hand
        await pilot.press("s", "2", "enter")  # Secret: D
        # Ben's turn: the screen is passed, and Ann's hand and Secret are gone from it.
        assert isinstance(app.screen, PassScreen)
        text = screen_text(app)
        assert "Pass the terminal to Ben (Player 2)" in text
        assert "D☂" not in text and "A♪" not in text
        assert plain(play.query_one("#hand")) == ""
        assert "D☂" not in plain(play.query_one("#bottom-markers"))
        assert "unseen" not in plain(play.query_one("#row"))
        await pilot.press("enter")
        assert play.draft is not None and play.draft.view.player == 1
        # Ben sees Ann's Secret face down, never its card.
        assert "×Secret ▒" in plain(play.query_one("#top-markers"))
        assert "Secret (face down)" in plain(play.query_one("#log"))

    run(play_app(table), script, SIZE)


# -- replay -------------------------------------------------------------------------------


def finished_game(seed: int = 3) -> Game:
    game = Game(seed=seed, first_player=0)
    bots = (make_bot("random", seed=1), make_bot("random", seed=2))
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat), game.legal_moves))
    return game


def test_a_replay_stepped_back_and_forth() -> None:
    game = finished_game()
    labels = ("Ann (Player 1)", "Ben (Player 2)")
    total = len(game.move_stack)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        stepper = screen.stepper
        assert stepper.step == 0 and "Round 1 · Ann (Player 1) starts" in screen_text(app)
        # Both hands are shown: the first round's deal and draw, in full.
        deal = game.deals()[0]
        assert stepper.game.view(1).hand == tuple(sorted(deal.hands[1]))
        await pilot.press("right", "right", "right")
        assert stepper.step == 3
        entry = game.log()[2]
        assert f"{entry.turn}. {entry.move}" in screen_text(app)
        await pilot.press("left")
        assert stepper.step == 2 and stepper.game.move_stack == game.move_stack[:2]
        await pilot.press("pagedown")
        assert stepper.scored_here() == 1
        assert "End of round 1: scoring" in screen_text(app)
        await pilot.press("end")
        assert stepper.step == total
        assert game.outcome is not None and game.outcome.result() in screen_text(app)
        await pilot.press("home")
        assert stepper.step == 0
        await pilot.press("left")
        assert stepper.step == 0
        await pilot.press("q")

    app = replay_app(game, labels, "en", ["Ann vs Ben"])
    run(app, script, SIZE)
    assert app.return_value == EXIT_OK
    assert len(game.move_stack) == total, "the replay leaves the game it was given alone"


# -- layout -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es"])
def test_resize_to_80x24_keeps_the_whole_table_on_screen(lang: Lang) -> None:
    table = make_table(bot_seating(1), seed=7, first=0, lang=lang)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.press("c", "1", "2", "3", "4")
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert app.size == (80, 24)
        for name in ("#status", "#row", "#hand", "#prompt", "#keys", "#bottom-markers"):
            region = screen.query_one(name).region
            assert region.bottom <= 24 and region.height > 0, name
        assert screen.query_one("#table").max_scroll_y == 0
        text = screen_text(app)
        assert "Ayane" in text and "Ruri" in text and "3) " in text

    run(play_app(table), script, (120, 40))


def visible_lines(app: TableApp, name: str) -> list[str]:
    """The lines of the widget ``name`` as drawn on the screen (inside it, on screen)."""
    region = app.screen.query_one(name).region
    assert region.bottom <= app.size.height and region.right <= app.size.width, name
    rows = screen_text(app).splitlines()[region.y : region.bottom]
    return [row[region.x : region.right] for row in rows]


def whole_in(piece: str, lines: list[str]) -> bool:
    return any(piece in line for line in lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_replay_at_80x24_shows_its_header_names_and_keys_whole(
    lang: Lang, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import hanamikoji.interfaces.tui as tui

    record = tmp_path / "game.hkr"
    players = ("Player 1", "level 1 bot")
    saved = GameRecord.from_game(finished_game(), players=players, date="2026-11-28")
    write_record(record, saved)
    opened: list[tuple[Game, tuple[str, str], Sequence[str]]] = []

    def capture(game: Game, labels: tuple[str, str], lang: Lang, header: Sequence[str]) -> int:
        opened.append((game, labels, header))
        return EXIT_OK

    monkeypatch.setattr(tui, "replay_in_app", lambda *args, **kwargs: capture(*args))
    assert run_command(["replay", str(record), "--lang", lang], Streams(Tty(), Tty(), Tty())) == 0
    ((game, labels, header),) = opened
    step = message("tui_replay_step", lang, step=2, total=len(game.move_stack))

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.press("right", "right")
        await pilot.pause()
        status = visible_lines(app, "#status")
        for part in header:
            assert whole_in(part, status), (part, status)
        assert whole_in(step, status), (step, status)
        sides = visible_lines(app, "#top-side") + visible_lines(app, "#bottom-side")
        row = visible_lines(app, "#row")
        for seat, label in enumerate(labels):
            assert whole_in(label, sides), (label, sides)
            # Above the row's cards, the seat: "Player 2 (l..." was cut there.
            assert whole_in(message("player", lang, number=seat + 1), row), row
            assert "…" not in "".join(row)
        keys = visible_lines(app, "#keys")
        for piece in message_of("tui_replay_keys", lang).split(" · "):
            assert whole_in(piece, keys), (piece, keys)

    run(replay_app(game, labels, lang, header), script, SIZE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_and_the_end_at_80x24_show_every_key_and_the_status_whole(
    lang: Lang,
) -> None:
    table = make_table(bot_seating(1), seed=7, first=0, lang=lang, variant=SHORT)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        keys = visible_lines(app, "#keys")
        for piece in message_of("tui_keys", lang).split(" · "):
            assert whole_in(piece, keys), (piece, keys)
        assert whole_in(message_of("tui_help_key", lang), visible_lines(app, "#status"))
        await pilot.press("c", "1", "2", "3", "4")
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.query_one("#table").max_scroll_y == 0
        assert whole_in("3) ", visible_lines(app, "#prompt"))
        await pilot.press("escape")
        await play_to_the_end(app, pilot, table, random.Random(7))
        keys = visible_lines(app, "#keys")
        for piece in message_of("tui_end_keys", lang).split(" · "):
            assert whole_in(piece, keys), (piece, keys)
        await pilot.press("q")

    run(play_app(table), script, SIZE)


def test_below_80x24_the_app_says_so_and_recovers_when_resized() -> None:
    table = make_table(bot_seating(1), seed=7, first=0)

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.draft is not None
        text = " ".join(screen_text(app).split())
        assert "This terminal is 60×20: the table needs at least 80×24." in text
        assert "Ayane" not in text and "Enter play" not in text
        # Keys do nothing meanwhile but stop: the person cannot see what they choose.
        await pilot.press("s", "1", "enter")
        assert screen.draft.kind is None and not table.game.move_stack
        await pilot.resize_terminal(79, 24)
        await pilot.pause()
        assert "79×24" in " ".join(screen_text(app).split())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = screen_text(app)
        assert "This terminal is" not in text
        assert "Ayane" in text and "Ruri" in text and "Q quit" in text
        assert screen.query_one("#table").max_scroll_y == 0
        await pilot.press("s", "1", "enter")
        assert str(table.game.move_stack[0]) == "S:A"
        await pilot.resize_terminal(70, 30)
        await pilot.pause()
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen), "q still stops"
        await pilot.press("enter")

    app = play_app(table)
    run(app, script, (60, 20))
    assert app.return_value == EXIT_OK

    async def replay(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        assert "la table demande au moins 80×24" in " ".join(screen_text(app).split())
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert "Manche 1" in screen_text(app)
        await pilot.press("q")

    app = replay_app(finished_game(), ("Ann (Player 1)", "Ben (Player 2)"), "fr")
    run(app, replay, (50, 24))
    assert app.return_value == EXIT_OK


def test_the_help_shows_the_keys_and_the_rules_from_docs() -> None:
    assert rules_markdown() == CHECKOUT.read_text(encoding="utf-8")
    assert CHECKOUT == ROOT / "docs" / "rules.md"
    table = make_table(bot_seating(1))

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "Keys" in text and "Backspace" in text
        # The keys scroll down to the rules.
        scroll = app.screen.query_one("#help", VerticalScroll)
        await pilot.press("pagedown", "pagedown")
        assert scroll.scroll_y > 0
        await pilot.press("escape")
        assert isinstance(app.screen, PlayScreen)

    run(play_app(table), script, SIZE)


# -- the command line ---------------------------------------------------------------------


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_play_and_replay_open_the_app_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import hanamikoji.interfaces.tui as tui

    opened: list[object] = []

    def fake_play(table: Table) -> int:
        opened.append(table)
        table.release()
        return 0

    def fake_replay(
        game: Game, labels: tuple[str, str], lang: Lang, header: object, deck: object = None
    ) -> int:
        opened.append((len(game.move_stack), labels, lang))
        return 0

    monkeypatch.setattr(tui, "play_in_app", fake_play)
    monkeypatch.setattr(tui, "replay_in_app", fake_replay)
    terminal = Streams(Tty(), Tty(), io.StringIO())
    assert run_command(["play", "--level", "1", "--seed", "4", "--lang", "fr"], terminal) == 0
    (table,) = opened
    assert isinstance(table, Table)
    assert table.settings.lang == "fr" and table.game.seed == 4
    # One naming: the table's, the record's (Player2 tag) and the replay's.
    assert table.labels == ("Joueur 1", "Bot niveau 1 (Joueur 2)")
    assert (table.players[0].name, table.players[1].name) == ("Player 1", "Bot level 1")
    named = tmp_path / "bot.hkr"
    table.save(named)
    assert run_command(["replay", str(named), "--lang", "fr"], terminal) == 0
    assert opened[-1] == (0, table.labels, "fr")
    del opened[-1]
    # --plain, or a pipe on either side, keeps the line interface.
    piped = Streams(io.StringIO("quit\n"), Tty(), io.StringIO())
    assert run_command(["play", "--seed", "4"], piped) == 0
    plain = Streams(Tty("quit\n"), Tty(), io.StringIO())
    assert run_command(["play", "--seed", "4", "--plain"], plain) == 0
    assert len(opened) == 1
    record = tmp_path / "game.hkr"
    write_record(record, GameRecord.from_game(finished_game()))
    assert run_command(["replay", str(record)], terminal) == 0
    assert opened[-1] == (len(finished_game().move_stack), ("Player 1", "Player 2"), "en")
    out = Tty()
    assert run_command(["replay", str(record), "--plain"], Streams(Tty(), out, Tty())) == 0
    assert len(opened) == 2 and "Game over" in out.getvalue()


def test_the_app_opens_while_the_bot_is_prepared_and_keeps_the_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The expert (level 8) compiles its judge for about a minute the first time: the
    # test's level bot takes as long as the test wants instead.
    import hanamikoji.interfaces.play_cli as play_cli
    import hanamikoji.interfaces.tui as tui

    release = threading.Event()

    def slow_level(number: int, seed: int | None = None) -> Bot:
        assert release.wait(60), "the test never released the bot"
        return make_bot("random", seed=seed)

    opened: list[Table] = []

    def open_app(table: Table) -> int:
        opened.append(table)
        return EXIT_OK

    monkeypatch.setattr(play_cli, "make_level_bot", slow_level)
    monkeypatch.setattr(tui, "play_in_app", open_app)
    argv = ["play", "--level", "8", "--seed", "7", "--first", "you"]
    thread = threading.Thread(target=run_command, args=(argv, Streams(Tty(), Tty(), Tty())))
    thread.start()
    try:
        # The app opens at once, not after the bot is made.
        thread.join(10)
        assert opened, "the app did not open while the bot was being prepared"
    finally:
        if not opened:
            release.set()
            thread.join(60)
    (table,) = opened
    preparing = "Preparing Bot level 8 (Player 2): the first time only… "

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.draft is not None
        assert preparing in screen_text(app)
        # Keys typed meanwhile are the person's: a Secret played, the tracker hidden.
        # (Enter typed while the app starts comes as a line feed: ctrl+j.)
        await pilot.press("s", "2", "ctrl+j", "k")
        assert str(table.game.move_stack[0]) == "S:D" and not screen.tracker
        await wait_for(pilot, lambda: screen.thinking is not None)
        text = screen_text(app)
        assert preparing in text and "is thinking" not in text
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        release.set()
        await wait_for(pilot, lambda: screen.draft is not None)
        assert len(table.game.move_stack) >= 2
        assert "Preparing" not in screen_text(app)
        await pilot.press("q", "enter")

    app = play_app(table)
    run(app, script, SIZE)
    assert app.return_value == EXIT_OK


def test_play_on_a_terminal_with_an_unwritable_save_file_exits_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import hanamikoji.interfaces.tui as tui

    monkeypatch.setattr(tui, "play_in_app", lambda table: pytest.fail("the app opened"))
    errors = io.StringIO()
    streams = Streams(Tty(), Tty(), errors)
    bad = tmp_path / "missing" / "game.hkr"
    assert run_command(["play", "--save", str(bad)], streams) == EXIT_ERROR
    assert "Could not save the record" in errors.getvalue()


# -- screenshots ----------------------------------------------------------------------------

SHOTS = ("terminal-table", "terminal-competition", "terminal-answer", "terminal-end")


def test_screenshots_of_the_main_screens() -> None:
    """docs/terminal.md shows them; HANAMIKOJI_SCREENSHOTS=1 makes them again."""
    if not os.environ.get("HANAMIKOJI_SCREENSHOTS"):
        for name in (*SHOTS, "terminal-replay"):
            text = (SCREENSHOTS / f"{name}.svg").read_text(encoding="utf-8")
            assert text.startswith("<svg") and "Hanamikoji" in text
        return
    table = make_table(bot_seating(1), seed=7, first=0)

    def shoot(app: TableApp, name: str) -> None:
        app.save_screenshot(f"{name}.svg", path=str(SCREENSHOTS))

    async def script(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.pause()
        shoot(app, "terminal-table")
        await pilot.press("c", "1", "6", "2", "4", "p")
        shoot(app, "terminal-competition")
        await pilot.press("enter")
        rng = random.Random(2)
        await play_to_the_end(app, pilot, table, rng, until=lambda draft: draft.answering)
        shoot(app, "terminal-answer")
        await play_to_the_end(app, pilot, table, random.Random(2))
        shoot(app, "terminal-end")

    run(play_app(table), script, SIZE)

    async def replay(app: TableApp, pilot: Pilot[int]) -> None:
        await pilot.press("right", "right", "right", "right", "right")
        shoot(app, "terminal-replay")

    run(replay_app(finished_game(), ("Ann (Player 1)", "Ben (Player 2)"), "en"), replay, SIZE)
