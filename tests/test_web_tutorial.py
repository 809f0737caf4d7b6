"""Learn to play (``/learn``, ``web/tutorial.py``): the script against the engine, what the
learner's states may hold, the route, and the lesson in Chromium, from the start page to
the end of a real game against level 1.

With ``HANAMIKOJI_SCREENSHOTS=DIR`` the browser tests save ``tutorial-desktop-light``,
``tutorial-phone-light``, ``tutorial-desktop-dark`` and ``tutorial-phone-dark`` in DIR.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from serving import Server, app_client, free_port
from web_support import frames

from hanamikoji.core.cards import FULL_SET, counts, from_counts, pack
from hanamikoji.core.game import Game
from hanamikoji.core.moves import Move, MoveKind
from hanamikoji.interfaces.web.pages.tutorial import (
    LEARNER,
    SCRIPT,
    SENTENCES,
    learner_views,
    step_plies,
    tutorial_game,
)
from hanamikoji.interfaces.web.pages.tutorial import tutorial_step as served_step
from hanamikoji.interfaces.web.wire.outgoing import to_plain
from hanamikoji.notation.names import LANGUAGES, Lang

try:
    from browser_support import (
        CHROMIUM,
        DESKTOP,
        PHONE,
        Page,
        browser,  # noqa: F401  (a fixture)
        choose_preference,
        page,  # noqa: F401  (a fixture)
        play_until_over,
        shoot,
        take_the_lesson,
        wait_for_step,
    )

    BROWSER = CHROMIUM.exists()
except pytest.skip.Exception:  # no Playwright: the browser tests are skipped
    BROWSER = False

OPPONENT = 1 - LEARNER
ACTIONS = (MoveKind.SECRET, MoveKind.TRADE_OFF, MoveKind.GIFT, MoveKind.COMPETITION)
JSONDict = dict[str, Any]

e2e = pytest.mark.skipif(not BROWSER, reason="needs Playwright and Debian's chromium")


# -- the script against the engine ------------------------------------------------------------


def tutorial_step(index: int, lang: Lang) -> Any:
    """A step of the lesson as the page gets it (JSON-ready)."""
    return to_plain(served_step(index, lang))


def played_script() -> Iterator[tuple[int, Game, str, int]]:
    """Each decision of the script in a fresh game: the step, the game before it, the
    decision and the seat that must make it (the learner's first in each step)."""
    game = tutorial_game()
    for index, step in enumerate(SCRIPT):
        for n, text in enumerate(step.decisions()):
            yield index, game, text, LEARNER if n == 0 and step.decision else OPPONENT
            game.push_text(text)


def test_every_decision_of_the_script_is_legal_for_its_seat() -> None:
    seen = 0
    for _, game, text, seat in played_script():
        assert game.to_move == seat, text
        assert Move.from_text(text) in game.legal_moves, text
        seen += 1
    assert seen == sum(len(step.decisions()) for step in SCRIPT) == 12


def test_the_learner_plays_each_action_once_and_answers_a_gift_and_a_competition() -> None:
    each_once = sorted((*ACTIONS, MoveKind.GIFT_RESPONSE, MoveKind.COMPETITION_RESPONSE))
    learner = [Move.from_text(step.decision) for step in SCRIPT if step.decision]
    assert sorted(move.kind for move in learner) == each_once
    replies = [Move.from_text(text) for step in SCRIPT for text in step.replies]
    assert sorted(move.kind for move in replies) == each_once


def test_the_round_ends_as_the_sentences_say() -> None:
    """The scoring and winning steps name who won which geisha, the ties, the opponent's
    Secret, who starts round 2 and the learner's totals: the engine agrees."""
    game = tutorial_game()
    for step in SCRIPT:
        for text in step.decisions():
            game.push_text(text)
    (summary,) = game.summaries()
    ruri, yoko, iroha, ayane, chiharu, anju, tomoyo = 6, 3, 1, 0, 4, 5, 2
    assert summary.sides[LEARNER][ruri] == 3 and summary.sides[OPPONENT][ruri] == 1
    assert summary.sides[LEARNER][yoko] == 2 and summary.sides[OPPONENT][yoko] == 1
    assert summary.sides[LEARNER][iroha] == 1 and summary.sides[OPPONENT][iroha] == 0
    assert summary.sides[LEARNER][anju] == summary.sides[OPPONENT][anju] == 2
    assert summary.sides[LEARNER][tomoyo] == summary.sides[OPPONENT][tomoyo] == 0
    assert summary.secrets[OPPONENT] == anju
    assert [summary.favor[g] for g in (ruri, yoko, iroha)] == [LEARNER] * 3
    assert [summary.favor[g] for g in (ayane, chiharu)] == [OPPONENT] * 2
    assert summary.favor[anju] is summary.favor[tomoyo] is None
    view = game.view(LEARNER)
    assert not game.is_over() and view.round == 2 and view.to_move == OPPONENT
    assert view.favor == summary.favor  # the markers stayed
    assert (view.geishas(LEARNER), view.charm(LEARNER)) == (3, 10)
    # Three geishas: one more is four, which wins.
    last = tutorial_step(len(SCRIPT) - 1, "en")
    assert "3 geishas and 10 charm" in last["why"]


def test_each_step_shows_the_states_since_the_step_before_once_each() -> None:
    plies = [frame["ply"] for index in range(len(SCRIPT)) for frame in frames(index)]
    assert plies == list(range(len(learner_views())))
    for index, ply in enumerate(step_plies()):
        shown = [frame["ply"] for i in range(index + 1) for frame in frames(i)]
        assert shown[-1] == ply
        step = SCRIPT[index]
        if step.decision is not None:
            assert learner_views()[ply].to_move == LEARNER


def test_each_step_carries_its_own_state_for_a_page_that_resumes_there() -> None:
    seen: list[JSONDict] = []
    for index, ply in enumerate(step_plies()):
        step = tutorial_step(index, "en")
        seen += step["frames"]
        assert step["state"]["ply"] == ply
        assert step["state"] == seen[-1]


# -- hidden information -------------------------------------------------------------------------


HIDDEN_TEXT = re.compile(r"[ST]:[A-G]{1,2}")


def test_the_learner_never_receives_a_card_hidden_from_their_seat() -> None:
    """Each frame is the learner's View at its ply, checked field by field against a
    game replayed here; nothing names the opponent's hand, deck or removed card, the
    opponent's Secret and Trade-off carry no cards, and only the learner's own hidden
    decisions appear in the notation. The steps' other fields hold no cards but the
    decision expected of the learner."""
    texts = [text for step in SCRIPT for text in step.decisions()]
    for index in range(len(SCRIPT)):
        step = tutorial_step(index, "en")
        for frame in [*step["frames"], step["state"]]:
            replayed = tutorial_game()
            for text in texts[: frame["ply"]]:
                replayed.push_text(text)
            audit_frame(frame, replayed)
        rest = {key: value for key, value in step.items() if key not in ("frames", "state", "move")}
        assert not HIDDEN_TEXT.search(json.dumps(rest)), rest
        if step["move"] is not None:
            assert step["move"]["text"] == Move.from_text(SCRIPT[index].decision or "").text()


def audit_frame(frame: JSONDict, truth: Game) -> None:
    view = truth.view(LEARNER)
    assert frame["hand"] == list(truth.hand(LEARNER)) == list(view.hand)
    assert frame["secret"] == view.secret and frame["tradeoff"] == list(view.tradeoff)
    assert frame["placed"] == [list(view.placed[0]), list(view.placed[1])]
    assert frame["hand_sizes"] == [len(truth.hand(0)), len(truth.hand(1))]
    assert frame["reveal"] is None and frame["outcome"] is None
    keys = keys_of({key: value for key, value in frame.items() if key != "rounds"})
    assert not {"hands", "removed", "deck_cards", "secrets", "tradeoffs"} & keys
    for entry in frame["log"]:
        if entry["seat"] == OPPONENT and entry["kind"] in ("secret", "trade-off"):
            assert entry["hidden"] and entry["cards"] == [] and entry["text"] in ("S", "T")
    own = {entry.move.text() for entry in truth.log(LEARNER) if entry.seat == LEARNER}
    for found in HIDDEN_TEXT.finditer(json.dumps(frame)):
        assert found.group(0) in own, found.group(0)
    seen = pack(frame["hand"]) + pack(frame["tradeoff"])
    if frame["secret"] is not None:
        seen += pack([frame["secret"]])
    seen += from_counts(frame["placed"][0]) + from_counts(frame["placed"][1])
    if frame["pending"] is not None:
        seen += Move.from_text(frame["pending"]["text"]).packed
    assert frame["unseen"] == list(counts(FULL_SET - seen))


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(keys_of(inner) for inner in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_of(inner) for inner in value))
    return set()


# -- sentences -------------------------------------------------------------------------------


def test_every_step_has_its_sentences_and_every_sentence_is_used() -> None:
    used = {f"tutorial_{name}" for name in ("progress", "next", "restart", "leave", "play")}
    used.add("tutorial_read_hint")
    for index, step in enumerate(SCRIPT):
        used |= {f"tutorial_{step.name}_{part}" for part in ("title", "do", "why")}
        if step.decision is not None or index == len(SCRIPT) - 1:
            used.add(f"tutorial_{step.name}_hint")
    assert used == set(SENTENCES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_reads_in_every_language(lang: Lang) -> None:
    english = [tutorial_step(index, "en") for index in range(len(SCRIPT))]
    for index in range(len(SCRIPT)):
        step = tutorial_step(index, lang)
        texts = [step[part] for part in ("title", "do", "why", "hint", "progress")]
        texts += list(step["labels"].values())
        for text in texts:
            assert text and "{" not in text and "}" not in text, (lang, index, text)
        assert step["frames"] == english[index]["frames"]
        if lang not in ("en", "en-2018"):
            assert step["do"] != english[index]["do"], (lang, index)


def test_the_edition_names_the_actions() -> None:
    assert tutorial_step(2, "en")["title"].startswith("Trade-off")
    assert tutorial_step(2, "en-2018")["title"].startswith("Discard")
    assert tutorial_step(2, "es")["title"].startswith("Renuncia")


# -- the route ---------------------------------------------------------------------------------


def test_the_route_serves_each_step_in_the_asked_language_and_the_page_at_learn() -> None:
    with app_client() as client:
        page_html = client.get("/learn")
        assert page_html.status_code == 200 and "text/html" in page_html.headers["content-type"]
        assert client.get("/api/tutorial").json() == tutorial_step(0, "en")
        assert client.get("/api/tutorial?step=4&lang=es").json() == tutorial_step(4, "es")
        asked = client.get("/api/tutorial?step=9", headers={"X-Hanamikoji-Lang": "fr"})
        assert asked.json() == tutorial_step(9, "fr")
        for wrong in ("10", "-1", "x", "1.5", "٣"):
            refused = client.get(f"/api/tutorial?step={wrong}&lang=es")
            assert refused.status_code == 400
            assert refused.json()["code"] == "err_bad_field"


def test_a_step_of_any_length_is_a_step_or_a_bad_field() -> None:
    """However many digits (Python's ``int()`` refuses over 4,300), and in no other
    script: leading zeros still name a step."""
    with app_client() as client:
        for wrong in ("9" * 4301, "1" + "0" * 10_000, "²", "1\u0663", " 1", ""):
            refused = client.get("/api/tutorial", params={"step": wrong, "lang": "fr"})
            assert refused.status_code == 400, wrong[:10]
            assert refused.json()["code"] == "err_bad_field"
        padded = client.get("/api/tutorial", params={"step": "0" * 5000 + "4"})
        assert padded.json() == tutorial_step(4, "en")


# -- in the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server, its bots at once and no limit on messages: the real game is played by
    keyboard as fast as the bot answers, faster than ten decisions a second."""
    options = ("--bot-delay", "0", "--bot-processes", "0", "--message-rate", "off")
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite3", free_port(), *options) as running:
        yield running


def lesson_step(page: Page) -> int:
    return int(page.get_attribute("[data-testid=lesson]", "data-step") or "-1")


def shoot_both_sizes(page: Page, scheme: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, f"tutorial-desktop-{scheme}", full=True)
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, f"tutorial-phone-{scheme}")
    page.set_viewport_size(DESKTOP)


@e2e
@pytest.mark.e2e
def test_learning_to_play_then_a_real_game_against_level_1(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.click("#learn-button")
    wait_for_step(page, 0)
    assert page.url == server.url + "/learn"
    assert page.inner_text("#lesson-title") == "Your first round"
    page.click("#lesson-next")
    wait_for_step(page, 1)
    # A decision that is not the step's is refused with its hint, and nothing is played.
    page.click("button.action-marker[data-kind=secret]")
    page.locator(".hand button.card[data-card=A]").click()
    page.click("#confirm")
    hint = page.wait_for_selector("[data-testid=lesson-hint]")
    assert hint is not None and hint.inner_text() == "Choose Secret with one flower (Ruri)."
    assert page.get_attribute(".game", "data-ply") == "0"
    page.wait_for_selector(".game[data-busy=no]")
    page.click("#clear")
    take_the_lesson(page, 1, until=3)
    assert page.locator(".offer button.option").count() == 3
    shoot_both_sizes(page, "light")
    take_the_lesson(page, 3)
    assert page.inner_text("#lesson-title") == "What wins"
    # The markers stayed: round 2, the learner's three geishas still theirs.
    assert page.locator(".geisha[data-favor=you]").count() == 3
    page.click("#lesson-play")
    page.wait_for_url(re.compile(r"/g/[\w-]+#t="))
    page.wait_for_selector("[data-testid=lesson]", state="detached")
    play_until_over(page, by_mouse=False)
    assert page.locator("[data-testid=end] h2").inner_text() in ("You win!", "You lose.")


@e2e
@pytest.mark.e2e
def test_the_lesson_restarts_and_reads_in_spanish(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark", locale="en-GB")
    dark = context.new_page()
    errors: list[str] = []
    dark.on("pageerror", lambda error: errors.append(str(error)))
    try:
        dark.goto(server.url + "/learn")
        take_the_lesson(dark, until=3)
        shoot_both_sizes(dark, "dark")
        dark.click("#lesson-restart")
        wait_for_step(dark, 0)
        assert dark.get_attribute(".game", "data-ply") == "0"
        assert dark.locator("dialog[open]").count() == 0
        choose_preference(dark, "#lang-select", "es")
        spanish = tutorial_step(0, "es")
        dark.wait_for_selector(f"#lesson-title >> text={spanish['title']}")
        take_the_lesson(dark)
        last = tutorial_step(len(SCRIPT) - 1, "es")
        assert dark.inner_text("#lesson-title") == last["title"]
        assert dark.inner_text("#lesson-play") == last["labels"]["play"]
        dark.click("#lesson-leave")
        dark.wait_for_selector("#learn-button")
        assert dark.url == server.url + "/"
    finally:
        context.close()
    assert not errors, errors


@e2e
@pytest.mark.e2e
def test_a_reload_resumes_the_lesson_at_its_step(page: Page, server: Server) -> None:
    page.goto(server.url + "/learn")
    take_the_lesson(page, until=2)
    assert page.url == server.url + "/learn?step=3"
    assert page.inner_text(".lesson-progress") == "Step 3 of 10"
    before = table_now(page)
    page.reload()
    wait_for_step(page, 2)
    assert page.url == server.url + "/learn?step=3"
    assert page.inner_text("#lesson-title") == tutorial_step(2, "en")["title"]
    assert table_now(page) == before
    # The lesson goes on from there, and a reload after the scoring comes back to it too.
    take_the_lesson(page, 2, until=8)
    before = table_now(page)
    page.reload()
    wait_for_step(page, 8)
    assert table_now(page) == before and page.locator("dialog[open]").count() == 0
    take_the_lesson(page, 8)
    assert page.inner_text("#lesson-title") == "What wins"


@e2e
@pytest.mark.e2e
def test_an_unknown_step_starts_the_lesson_from_the_beginning(browser: Any, server: Server) -> None:
    """An address edited by hand (the server refuses the step: the console says so)."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(server.url + "/learn?step=99")
        wait_for_step(page, 0)
        assert page.url == server.url + "/learn"
        assert page.locator("#toast:visible").count() == 0
    finally:
        context.close()


def table_now(page: Page) -> tuple[str | None, list[str], str]:
    """The ply, the hand and the log the table shows."""
    hand: list[str] = page.eval_on_selector_all(
        ".hand button.card", "els => els.map(e => e.dataset.card)"
    )
    return page.get_attribute(".game", "data-ply"), hand, page.inner_text("[data-testid=log]")


@e2e
@pytest.mark.e2e
def test_the_status_line_says_what_the_lesson_says(page: Page, server: Server) -> None:
    page.goto(server.url + "/learn")
    wait_for_step(page, 0)
    status = page.locator("#status-text")
    # A step that is only read: press Next, no action on offer, the number keys do nothing.
    assert (
        status.inner_text()
        == tutorial_step(0, "en")["hint"]
        == ("Read this first, then press Next.")
    )
    assert "action" not in status.inner_text()
    assert page.locator("button.action-marker").count() == 0
    assert page.locator("#confirm").count() == 0
    page.keyboard.press("1")
    assert page.locator(".action-marker.selected").count() == 0
    page.click("#lesson-next")
    wait_for_step(page, 1)
    assert status.inner_text() == "Your turn: choose an action, then its cards."
    assert page.locator("button.action-marker").count() == 4
    take_the_lesson(page, 1)
    assert status.inner_text() == tutorial_step(len(SCRIPT) - 1, "en")["hint"]
    assert page.locator("#confirm").count() == 0
