"""A whole Swiss in Chromium (issue 51): four accounts, each in a browser of its own, and
two bot accounts (joined through the bot API, played by ``hanamikoji bridge`` with a
built-in level) play a 3-round Swiss with clocks to its end. Each person opens their
game from the tournament's page, plays it by clicking (the first legal decision), and
goes back for the next round. Checked: three rounds, everyone paired once a round (six
players: no bye), no rematch, the standings on the page with Buchholz and
Sonneborn-Berger equal to the library's scoring of the finished games' results, and a
spectator who opened a game from the tournament's page saw its table move, never sent
a card it may not know (``test_web_spectators.spectator_audit``). And a game between two
of our levels is watched from its link on the tournament's page as any game is."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
from bridged import BridgeProcess, bearer, bot_account, wait_for
from browser_support import (
    DESKTOP,
    Page,
    browser,
    close_summaries,
    decide,
    game_data,
    pytestmark,
    server,
    sign_up,
    start_now,
)
from serving import Server
from sqlalchemy import create_engine, select
from test_web_spectators import spectator_audit

from hanamikoji.interfaces.web.db.tables import decisions, games
from hanamikoji.tournaments import Entrant, Pairing, Round, Swiss, standings

__all__ = ["browser", "pytestmark", "server"]

PEOPLE = ("Swissann", "Swissbob", "Swisscat", "Swissdan")
BOTS = ("Swissbotone", "Swissbottwo")
ROUNDS = 3
CLOCK = "3+2"
"""The shortest clock the form offers."""
EVENT_SECONDS = 480.0
"""The whole event, three rounds, at most: a bound, not a measure (the event takes about
two and a half minutes on a busy machine of two cores)."""


@dataclass
class Person:
    """A person's browser, the games they opened, whether they are at one now, and
    whether their tournament page showed the tournament over at the last look."""

    page: Page
    name: str
    games: list[str] = field(default_factory=list)
    playing: bool = False
    finished: bool = False


def new_page(browser: Any, errors: list[str]) -> Page:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    opened = context.new_page()
    opened.on("pageerror", lambda error: errors.append(str(error)))
    return opened


SEEN = """() => {
  const game = document.querySelector('.game');
  const link = document.querySelector('[data-testid=tour-mine] a');
  return {
    end: document.querySelector('[data-testid=end]') !== null,
    summary: document.querySelector('dialog[open]') !== null,
    turn: game !== null && game.dataset.mine === 'yes' && game.dataset.busy === 'no',
    link: link === null ? null : link.getAttribute('href'),
    finished: document.querySelector('[data-testid=tournament][data-status=finished]') !== null,
  };
}"""
"""What a look at a person's page sees (one call to the page, not five)."""


def look(person: Person, tournament_url: str) -> bool:
    """One look at a person's page, as the person would: open their new game from the
    tournament's page, make their decision, close a round's summary, or go back to the
    tournament once the game is over. Whether anything was done."""
    page = person.page
    seen = page.evaluate(SEEN)
    person.finished = seen["finished"]
    if person.playing:
        if seen["end"]:
            person.playing = False
            page.goto(tournament_url)
            page.wait_for_selector("[data-testid=tournament]")
            return True
        if seen["summary"]:
            return close_summaries(page)
        if seen["turn"]:
            decide(page, by_mouse=True)
            return True
        return False
    # The page is drawn again at each change: click the link by its href.
    href = seen["link"]
    if href is None or href.rsplit("/", 1)[1] in person.games:
        return False
    page.click(f"[data-testid=tour-mine] a[href='{href}']")
    page.wait_for_selector(".game")
    person.games.append(href.rsplit("/", 1)[1])
    person.playing = True
    return True


def over(people: list[Person]) -> bool:
    """Whether every person is back on the tournament's page, and it is over."""
    return all(not person.playing and person.finished for person in people)


def create_swiss(page: Page, server: Server) -> str:
    page.goto(server.url + "/tournaments")
    page.fill("#tour-name", "Clocked Swiss")
    page.fill("#tour-rounds", str(ROUNDS))
    page.fill("#tour-starts-in", "1")
    page.select_option("#tour-time_control", CLOCK)
    page.click("#tour-submit")
    page.wait_for_url("**/tournament/*")
    return str(page.url.rsplit("/", 1)[1])


def join_on_the_page(page: Page, url: str) -> None:
    page.goto(url)
    page.click("#tour-join")
    page.wait_for_selector("#tour-withdraw")


def game_rows(server: Server, game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """Each game's row (variant, seed, first player, result, clock) and decisions."""
    engine = create_engine(server.db_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(select(games).where(games.c.id.in_(game_ids))).all()
            found = {str(row.id): dict(row._mapping) for row in rows}
            for game_id, row in found.items():
                texts = connection.execute(
                    select(decisions.c.text)
                    .where(decisions.c.game_id == game_id)
                    .order_by(decisions.c.ply)
                ).all()
                row["decisions"] = tuple(str(text) for (text,) in texts)
    finally:
        engine.dispose()
    return found


def recomputed(
    view: dict[str, Any], rows: dict[str, dict[str, Any]]
) -> dict[str, tuple[float, ...]]:
    """Each player's score, Buchholz and Sonneborn-Berger by the library's scoring, from
    the results of the games themselves (every game's first player sits at seat 0: no
    level is entered; a game without a winner is a draw)."""
    played = []
    for number in range(1, ROUNDS + 1):
        pairings = []
        for board in view["boards"]:
            if board["round"] == number:
                seat_result = rows[board["game"]]["result"]
                result = seat_result if seat_result in ("1-0", "0-1") else "1/2-1/2"
                pairings.append(Pairing(board["first"], board["second"], result))
        played.append(Round(number, tuple(pairings)))
    names = [line["name"] for line in view["standings"]]
    event = Swiss(ROUNDS, tuple(Entrant(name, name) for name in names), tuple(played))
    return {
        line.player: (line.score, line.buchholz, line.sonneborn_berger) for line in standings(event)
    }


def shown_standings(page: Page) -> dict[str, tuple[float, ...]]:
    """The standings table as the page shows it: each player's score, Buchholz and
    Sonneborn-Berger, in the order shown."""
    rows = page.eval_on_selector_all(
        "[data-testid=tour-standings] tbody tr",
        "rows => rows.map(r => [r.dataset.player, [...r.cells].map(c => c.textContent)])",
    )
    return {name: tuple(float(cell) for cell in cells[3:6]) for name, cells in rows}


def test_four_people_and_two_bots_play_a_clocked_swiss_to_its_end(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    errors: list[str] = []
    people = [Person(new_page(browser, errors), name) for name in PEOPLE]
    for person in people:
        sign_up(person.page, server, person.name)
    tournament_id = create_swiss(people[0].page, server)
    url = f"{server.url}/tournament/{tournament_id}"
    for person in people:
        join_on_the_page(person.page, url)

    tokens = [bot_account(server.url, name) for name in BOTS]
    for token in tokens:
        joined = httpx.post(
            f"{server.url}/api/tournament/{tournament_id}/join", headers=bearer(token), timeout=30
        )
        assert joined.status_code == 200, joined.text
        assert joined.json()["entered"] is True
    bridges = [
        BridgeProcess(server.url, token, tmp_path / f"bot{i}", ["--level", "1"])
        for i, token in enumerate(tokens)
    ]
    try:
        wait_for(lambda: all("listening" in b.log for b in bridges), 60, "the bridges connect")
        page = people[0].page
        page.wait_for_selector(f"[data-testid=tour-standings] tr[data-player={BOTS[1]}]")
        assert page.locator("[data-testid=tour-standings] tbody tr").count() == 6

        start_now(server, tournament_id)
        # A spectator opens a game between two people from the tournament's page.
        spectator = new_page(browser, errors)
        frames: list[str] = []

        def heard(frame: str) -> None:
            frames.append(frame)

        def opened(socket: Any) -> None:
            if "/watch" in socket.url:
                socket.on("framereceived", heard)

        spectator.on("websocket", opened)
        spectator.goto(url)
        spectator.wait_for_selector("[data-testid=tour-pairings] [data-round='1'] a")
        boards = spectator.locator("[data-testid=tour-pairings] [data-round='1'] li")
        between_people = [
            index
            for index in range(boards.count())
            if sum(name in boards.nth(index).inner_text() for name in PEOPLE) == 2
        ]
        assert between_people, "round 1 pairs two people"
        boards.nth(between_people[0]).locator("a").click()
        spectator.wait_for_url("**/w/*")
        watched = spectator.url.rsplit("/", 1)[1]
        spectator.wait_for_selector(".game")
        first_ply = int(game_data(spectator)["ply"])

        deadline = time.monotonic() + EVENT_SECONDS
        while not over(people):
            assert time.monotonic() < deadline, [p.games for p in people]
            acted = [look(person, url) for person in people]
            if not any(acted):
                people[0].page.wait_for_timeout(50)
    finally:
        logs = [bridge.stop() for bridge in bridges]

    view = httpx.get(f"{server.url}/api/tournaments/{tournament_id}", timeout=30).json()
    assert view["card"]["status"] == "finished"
    everyone = sorted(PEOPLE + BOTS)
    # Three rounds; each pairs every player once (six: no bye); no two players twice.
    assert sorted({board["round"] for board in view["boards"]}) == [1, 2, 3]
    met: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        boards_of = [board for board in view["boards"] if board["round"] == number]
        seated = sorted(name for board in boards_of for name in (board["first"], board["second"]))
        assert seated == everyone, (number, seated)
        for board in boards_of:
            pair = frozenset((board["first"], board["second"]))
            assert pair not in met, ("a rematch", pair)
            met.add(pair)
            assert board["result"] is not None and board["game"] is not None
    assert view["byes"] == [] and all(line["byes"] == 0 for line in view["standings"])
    # Each person played their three games through the page.
    for person in people:
        assert len(person.games) == ROUNDS, (person.name, person.games)

    # Every game was clocked, and ended; the standings shown are the library's scoring of
    # the games' own results.
    rows = game_rows(server, [board["game"] for board in view["boards"]])
    assert len(rows) == 9
    for row in rows.values():
        assert row["status"] == "finished"
        assert (row["clock_initial_ms"], row["clock_increment_ms"]) == (180_000, 2_000)
    final = people[0].page
    final.wait_for_selector("[data-testid=tour-standings] thead")
    head = final.inner_text("[data-testid=tour-standings] thead")
    assert "Buchholz" in head and "Sonneborn-Berger" in head, head
    shown = shown_standings(final)
    expected = recomputed(view, rows)
    assert shown == expected
    keys = list(shown.values())
    assert keys == sorted(keys, reverse=True), "the standings order by score, BH, SB"

    # The spectator saw the game move to its end, and never a card it may not know.
    spectator.wait_for_selector("[data-testid=end]")
    watched_row = rows[watched]
    assert int(game_data(spectator)["ply"]) == len(watched_row["decisions"]) > first_ply
    settings = {key: watched_row[key] for key in ("id", "variant", "seed", "first_player")}
    messages = [json.loads(frame) for frame in frames]
    states = [message for message in messages if message["type"] == "state"]
    assert len({state["ply"] for state in states}) > 2, "the table moved live"
    for message in messages:
        spectator_audit(message, settings, watched_row["decisions"])
    for log in logs:
        assert "was refused" not in log, log
    assert not errors, errors


def test_a_game_between_two_levels_is_watched_from_the_tournaments_page(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    creator, spectator = new_page(browser, errors), new_page(browser, errors)
    sign_up(creator, server, "Levelsann")
    tournament_id = create_swiss(creator, server)
    for level in ("1", "2"):
        creator.select_option("#tour-level", level)
        creator.click("#tour-add-level")
        creator.wait_for_selector(f"[data-testid=tour-standings] tr[data-player='Bot {level}']")
    start_now(server, tournament_id)
    spectator.goto(f"{server.url}/tournament/{tournament_id}")
    # The board of Bot 1 and Bot 2 has its link to watch, as every board has.
    spectator.click("[data-testid=tour-pairings] [data-round='1'] a")
    spectator.wait_for_url("**/w/*")
    spectator.wait_for_selector("[data-testid=end]")
    table = spectator.inner_text(".game")
    assert "Bot (level 1)" in table and "Bot (level 2)" in table, table
    assert not errors, errors
