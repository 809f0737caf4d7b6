"""The puzzle page in Chromium (issue 52): a guest solves a puzzle by clicking on the
table and keeps its rating in the browser; an account is rated once; the daily puzzle
and a streak open; "Make this a puzzle" from an analysed game; and before the answer the
page holds nothing of the hidden cards; an account's streak follows it to another
browser."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2 as httpx
import msgspec
from browser_support import (
    DESKTOP,
    Page,
    browser,
    close_summaries,
    make_decision,
    page,
    play_until_over,
    pytestmark,
    server,
    sign_up,
    start_game,
)
from serving import Server, free_port
from web_support import COOKIE, PASSWORD

from hanamikoji.core.game import Game
from hanamikoji.interfaces.web.games.payload import move_json
from hanamikoji.notation.records import GameRecord
from hanamikoji.puzzles import Puzzle, shipped_puzzles
from hanamikoji.puzzles.making import make_puzzle

__all__ = ["browser", "page", "pytestmark", "server"]

PUZZLES = shipped_puzzles()
GIFT_ANSWER = next(p for p in PUZZLES if p.solution.startswith("G>") and p.variant == "classic")
SPLIT = next(p for p in PUZZLES if p.solution.startswith("C:") and p.variant == "classic")
HIDDEN_FIELDS = ("opponent_hand", "solution", "values", "seed", "moves", "removed")


def rating_kept(page: Page) -> Any:
    kept = page.evaluate("() => localStorage.getItem('hanamikoji.puzzles.rating')")
    return None if kept is None else json.loads(kept)


def open_puzzle(page: Page, server: Server, puzzle: Puzzle) -> None:
    page.goto(f"{server.url}/puzzles/{puzzle.id}")
    page.wait_for_selector(f".puzzle-question[data-puzzle='{puzzle.id}'][data-answered=no]")
    page.wait_for_selector(".game")


def test_a_guest_solves_a_puzzle_by_clicking_and_keeps_its_rating(
    page: Page,
    server: Server,
) -> None:
    received: list[str] = []
    page.on(
        "response",
        lambda response: (
            received.append(response.text())
            if "/api/puzzles/" in response.url and "/answer" not in response.url
            else None
        ),
    )
    open_puzzle(page, server, GIFT_ANSWER)
    # Before the answer: nothing hidden came to the page, nothing of the reveal is drawn.
    assert received and all(
        f'"{field}"' not in body for body in received for field in HIDDEN_FIELDS
    )
    html = page.content()
    for marker in ("puzzle-reveal", "puzzle-world", "data-best", "puzzle-solution"):
        assert marker not in html
    assert rating_kept(page) is None
    make_decision(page, GIFT_ANSWER.solution)
    reveal = page.wait_for_selector("[data-testid=puzzle-reveal]")
    assert reveal.get_attribute("data-correct") == "yes"
    assert page.locator(".puzzle-values li").count() == len(GIFT_ANSWER.values)
    assert page.locator(".puzzle-values li[data-best=yes]").get_attribute("data-move") == (
        GIFT_ANSWER.solution
    )
    assert "%" in page.locator(".puzzle-values li").first.inner_text()
    kept = rating_kept(page)
    assert kept["rating"] > 1500 and kept["attempts"] == 1
    assert "→" in page.locator("[data-testid=puzzle-rating]").inner_text()
    # the table takes no other decision now
    assert page.locator(".game").get_attribute("data-mine") == "no"
    # a wrong answer from the list shows the worlds where it fails, as cards
    open_puzzle(page, server, SPLIT)
    wrong = SPLIT.values[-1][0]
    page.click(f".puzzle-choice[data-move='{wrong}']")
    page.wait_for_selector("[data-testid=puzzle-reveal][data-correct=no]")
    if SPLIT.method.value == "proved":
        assert page.locator("[data-testid=puzzle-world]").count() >= 1
        assert page.locator("[data-testid=puzzle-world] .tile").count() >= 1
    assert rating_kept(page)["rating"] < kept["rating"]


def test_an_account_is_rated_once(page: Page, server: Server) -> None:
    sign_up(page, server, "solver")
    puzzle = PUZZLES[7]
    open_puzzle(page, server, puzzle)

    def mine() -> Any:
        return page.evaluate(
            "async (id) => (await (await fetch(`/api/puzzles/${id}`)).json()).mine", puzzle.id
        )

    assert mine()["attempts"] == 0
    page.click(f".puzzle-choice[data-move='{puzzle.solution}']")
    page.wait_for_selector("[data-testid=puzzle-reveal][data-correct=yes]")
    rated = mine()
    assert rated["attempts"] == 1 and rated["rating"] > 1500
    assert page.locator("[data-testid=puzzle-rating]").count() == 1
    assert rating_kept(page) is None  # an account's rating is the server's
    # reloaded: the page takes no other answer, and the server refuses one
    open_puzzle(page, server, puzzle)
    assert page.locator(".puzzle-question .hint").count() == 1
    assert page.locator(f".puzzle-choice[data-move='{puzzle.solution}']").is_disabled()
    make_decision(page, puzzle.solution)
    page.wait_for_selector("#toast:not([hidden])")
    assert "already" in page.locator("#toast").inner_text()
    me = page.request.get(f"{server.url}/api/me").json()
    again = page.request.post(
        f"{server.url}/api/puzzles/{puzzle.id}/answer",
        data={"answer": puzzle.values[-1][0]},
        headers={"X-CSRF-Token": me["csrf"], "Origin": server.url},
    )
    assert again.status == 409 and again.json()["code"] == "err_puzzle_answered"
    assert page.locator("[data-testid=puzzle-reveal]").count() == 0
    assert mine() == rated


def test_the_daily_puzzle_and_a_streak_open(page: Page, server: Server) -> None:
    page.goto(server.url + "/puzzles")
    page.wait_for_selector(".puzzle-question")
    page.click("#puzzle-daily-link")
    daily = httpx.get(f"{server.url}/api/puzzles/themes").json()["daily"]
    page.wait_for_selector(f".puzzle-question[data-puzzle='{daily}']")
    assert page.url.endswith("/puzzles/daily")
    page.click("#puzzle-streak-link")
    streak = page.wait_for_selector("[data-testid=puzzle-streak][data-solved='0'][data-over=no]")
    assert streak is not None
    page.wait_for_selector(".puzzle-question[data-answered=no]")
    first = page.get_attribute(".puzzle-question", "data-puzzle")
    # a wrong answer ends the streak
    choices = page.locator(".puzzle-choice")
    question = httpx.get(f"{server.url}/api/puzzles/{first}").json()
    wrong = _a_wrong_answer(server, str(first), question["decisions"])
    choices.filter(has=page.locator(f"xpath=self::*[@data-move='{wrong}']")).click()
    page.wait_for_selector("[data-testid=puzzle-streak][data-over=yes]")
    page.click("#puzzle-streak-new")
    page.wait_for_selector("[data-testid=puzzle-streak][data-over=no]")
    # the theme filter
    page.goto(server.url + "/puzzles")
    page.wait_for_selector("#puzzle-theme option[value=gift-answer]", state="attached")
    page.select_option("#puzzle-theme", "gift-answer")
    page.wait_for_function(
        "() => document.querySelector('.puzzle-themes')"
        " && document.querySelector('.puzzle-choice[data-move^=\"G>\"]')"
    )


def _a_wrong_answer(server: Server, puzzle_id: str, decisions: list[str]) -> str:
    by_id = {p.id: p for p in PUZZLES}
    solution = by_id[puzzle_id].solution
    return next(d for d in decisions if d != solution)


def _own_puzzle_ply(record: GameRecord) -> int | None:
    """A decision of seat 0 (the page's) that is a puzzle, by its ply from 1."""
    assert record.seed is not None
    moves = [entry.move.text() for entry in record.replay().log()]
    game = Game(record.variant, seed=record.seed, first_player=record.first_player)
    for ply, text in enumerate(moves, start=1):
        if game.to_move == 0:
            made = make_puzzle(
                record.variant, record.seed, record.first_player, moves[: ply - 1], "x"
            )
            if isinstance(made, Puzzle):
                return ply
        game.push_text(text)
    return None


def _analysis_of(record: GameRecord) -> dict[str, Any]:
    decisions = [
        {
            "ply": ply,
            "round": entry.round,
            "turn": entry.turn,
            "seat": entry.seat + 1,
            "forced": False,
            "label": None,
            "cost": 0.0,
            "played": entry.move.text(),
            "best": entry.move.text(),
            "played_value": 0.5,
            "best_value": 0.5,
            "played_move": msgspec.to_builtins(move_json(entry.move)),
            "best_move": msgspec.to_builtins(move_json(entry.move)),
        }
        for ply, entry in enumerate(record.replay().log(), start=1)
    ]
    return {
        "status": "done",
        "done": len(decisions),
        "total": len(decisions),
        "version": "test",
        "budget": {},
        "decisions": decisions,
        "summary": [],
    }


def test_make_a_puzzle_from_an_analysed_game(page: Page, tmp_path: Path) -> None:
    own = Server(
        tmp_path / "games.sqlite3",
        free_port(),
        *("--bot-delay", "0", "--bot-processes", "1", "--message-rate", "off"),
    )
    own.start()
    try:
        sign_up(page, own, "maker")
        ply = None
        for _ in range(6):
            start_game(page, own, opponent="bot", level="1", variant="classic", first="me")
            play_until_over(page, by_mouse=False)
            while close_summaries(page):
                pass
            game_id = page.url.split("/g/")[1].split("#")[0]
            text = page.evaluate(
                "async (id) => (await fetch(`/api/games/${id}/record`)).text()", game_id
            )
            ply = _own_puzzle_ply(GameRecord.from_text(text))
            if ply is not None:
                break
        assert ply is not None, "no puzzle of the page's seat in six games"
        end = page.locator("[data-testid=end]")
        # The analysis itself is tested elsewhere (test_web_e2e.py) and takes minutes on
        # a busy machine: here the server's answer is an analysis of every decision
        # made up at once, so the page draws its rows and buttons as for a real one.
        analysed = _analysis_of(GameRecord.from_text(text))
        page.route("**/api/games/*/analysis", lambda route: route.fulfill(json=analysed), times=1)
        end.locator("button.analyse").click()
        page.wait_for_selector("[data-testid=end] [data-testid=analysis-list]")
        end.locator(f"[data-testid=analysis-list] button[data-ply='{ply}']").click()
        end.locator(f"button.make-puzzle[data-puzzle-ply='{ply}']").click()
        page.wait_for_url(f"**/puzzles/own-{game_id}-{ply}")
        page.wait_for_selector(f".puzzle-question[data-puzzle='own-{game_id}-{ply}']")
        page.wait_for_selector(".game")
    finally:
        own.stop()


def test_an_accounts_streak_follows_it_to_another_browser(
    page: Page, browser: Any, server: Server
) -> None:
    sign_up(page, server, "StreakE2E")
    page.goto(server.url + "/puzzles/streak")
    page.wait_for_selector("[data-testid=puzzle-streak][data-kept=yes][data-solved='0']")
    page.wait_for_selector(".puzzle-question[data-answered=no]")
    first = str(page.get_attribute(".puzzle-question", "data-puzzle"))
    solution = next(p for p in PUZZLES if p.id == first).solution
    page.locator(f".puzzle-choice[data-move='{solution}']").click()
    page.wait_for_selector("[data-testid=puzzle-streak][data-solved='1'][data-best='1']")
    # another browser, signed in anew: the streak is the server's, at its second puzzle
    signed = httpx.post(
        f"{server.url}/api/me/login",
        json={"name": "StreakE2E", "password": PASSWORD},
        headers={"Origin": server.url},
    )
    assert signed.status_code == 200, signed.text
    other = browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        cookie = signed.cookies[COOKIE]
        other.add_cookies([{"name": COOKIE, "value": cookie, "url": server.url}])
        there = other.new_page()
        there.goto(server.url + "/puzzles/streak")
        there.wait_for_selector("[data-testid=puzzle-streak][data-kept=yes][data-solved='1']")
        second = there.get_attribute(".puzzle-question[data-answered=no]", "data-puzzle")
        assert second is not None and second != first
    finally:
        other.close()
