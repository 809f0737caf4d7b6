"""The game browser (issue 49): finished public games searched by player, variant, result,
rated and date, paged by a keyset cursor; an account's statistics; a player's games
exported as one record file (text, JSON) and streamed as NDJSON; the refusals of bad
filters; never a private game or one in play."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from browser_games import START, Games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import app_client, served
from starlette.testclient import TestClient
from web_support import sign_in

from hanamikoji.interfaces.web.browser import service
from hanamikoji.interfaces.web.browser.filters import Cursor, Filters
from hanamikoji.interfaces.web.browser.service import GameBrowser
from hanamikoji.interfaces.web.browser.store import BrowserStore
from hanamikoji.interfaces.web.catalog.lookup import UI
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore
from hanamikoji.notation.record_files import (
    records_from_json,
    records_from_ndjson,
    records_from_text,
)
from hanamikoji.notation.records import GameRecord, RecordError

JSONDict = dict[str, Any]
CODES = frozenset(key for key in UI if key.startswith("err_"))


@pytest.fixture
def client() -> Iterator[TestClient]:
    with app_client() as made:
        yield made


@pytest.fixture
def world(client: TestClient) -> JSONDict:
    """Three accounts, a guest, and games of every kind between them."""
    games = Games(served(client).store)
    ann, bob, cy = games.account("Ann"), games.account("Bob"), games.account("Cy")
    guest = games.account("Visitor", kind="guest")
    made = {
        "ann_bob_won": games.game((ann, bob), play=True, rated=True),
        "bob_ann_french": games.game((bob, ann), variant="french", result="0-1"),
        "ann_bot_aborted": games.game((ann, None), bot_level=3),
        "bot_ann_played": games.game((None, ann), bot_level=6, play=True, first=1),
        "ann_private": games.game((ann, bob), play=True, private=True),
        "ann_playing": games.game((ann, bob), play=True, finished=False),
        "cy_guest_draw": games.game((cy, guest), result="1/2-1/2", variant="three-rounds"),
        "nobody": games.game((None, None), result="1-0"),
    }
    return {"ids": made, "games": games}


def search(client: TestClient, **params: Any) -> JSONDict:
    answer = client.get("/api/games/search", params=params)
    assert answer.status_code == 200, answer.text
    body: JSONDict = answer.json()
    return body


def ids(body: JSONDict) -> list[str]:
    return [game["id"] for game in body["games"]]


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code and body["message"]


# -- search ---------------------------------------------------------------------------------


def test_the_search_finds_finished_public_games_newest_first(
    client: TestClient, world: JSONDict
) -> None:
    made = world["ids"]
    everything = ids(search(client))
    hidden = {made["ann_private"], made["ann_playing"]}
    assert set(everything) == set(made.values()) - hidden
    # Newest first: the games were made a minute apart in this order.
    order = [game_id for game_id in made.values() if game_id not in hidden]
    assert everything == order[::-1]
    ann = search(client, player="ann")  # whatever the case
    assert set(ids(ann)) == {
        made["ann_bob_won"],
        made["bob_ann_french"],
        made["ann_bot_aborted"],
        made["bot_ann_played"],
    }


def test_each_filter_narrows_the_search(client: TestClient, world: JSONDict) -> None:
    made = world["ids"]
    assert ids(search(client, variant="french")) == [made["bob_ann_french"]]
    assert ids(search(client, rated="true")) == [made["ann_bob_won"]]
    assert made["ann_bob_won"] not in ids(search(client, rated="false"))
    assert set(ids(search(client, result="aborted"))) == {made["ann_bot_aborted"]}
    assert ids(search(client, result="draw")) == [made["cy_guest_draw"]]
    assert made["nobody"] in ids(search(client, result="1-0"))
    assert made["bob_ann_french"] in ids(search(client, result="0-1"))
    won = set(ids(search(client, player="Ann", result="won")))
    lost = set(ids(search(client, player="Ann", result="lost")))
    assert made["bob_ann_french"] in won and not won & lost
    outcomes = {game["id"]: game["outcome"] for game in search(client, player="Ann")["games"]}
    assert all(outcomes[game_id] == "won" for game_id in won)
    assert all(outcomes[game_id] == "lost" for game_id in lost)
    day = START.date()
    assert len(ids(search(client, since=day.isoformat(), until=day.isoformat()))) == 6
    tomorrow = (day + timedelta(days=1)).isoformat()
    assert ids(search(client, since=tomorrow)) == []
    assert ids(search(client, until=(day - timedelta(days=1)).isoformat())) == []


def test_a_listed_game_names_its_seats_and_holds_no_card_or_token(
    client: TestClient, world: JSONDict
) -> None:
    made = world["ids"]
    body = search(client)
    games = {game["id"]: game for game in body["games"]}
    assert games[made["ann_bob_won"]]["players"] == [
        {"kind": "account", "name": "Ann"},
        {"kind": "account", "name": "Bob"},
    ]
    assert games[made["ann_bot_aborted"]]["players"][1] == {"kind": "bot", "level": 3}
    assert games[made["cy_guest_draw"]]["players"][1] == {"kind": "guest", "name": "Visitor"}
    assert games[made["nobody"]]["players"] == [{"kind": "anonymous"}] * 2
    assert games[made["ann_bob_won"]]["rated"] is True
    assert games[made["ann_bot_aborted"]]["result"] == "*"
    for word in ('"seed"', '"hand"', '"secret"', '"token"', '"decisions"'):
        assert word not in json.dumps(body)


def test_paging_by_cursor_gives_every_game_once(client: TestClient, world: JSONDict) -> None:
    whole = ids(search(client, limit=100))
    seen: list[str] = []
    cursor = None
    while True:
        page = search(client, limit=2, **({} if cursor is None else {"cursor": cursor}))
        seen += ids(page)
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == whole


# Each example: games at a few minutes (so that several start at the same time and only
# their ids order them), some private, some in play, between a few players.
game_specs = st.lists(
    st.tuples(
        st.integers(0, 5),  # minute
        st.sampled_from(["classic", "french"]),
        st.sampled_from(["1-0", "0-1", "1/2-1/2", None]),
        st.integers(0, 3),  # seat 0's player (3: a bot)
        st.integers(0, 2),  # seat 1's player
        st.booleans(),  # private
        st.booleans(),  # finished
    ),
    max_size=25,
)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    specs=game_specs,
    limit=st.integers(1, 7),
    player=st.sampled_from([None, "P0", "p1"]),
    variant=st.sampled_from([None, "classic"]),
    result=st.sampled_from([None, "won", "lost", "draw", "aborted", "1-0"]),
)
def test_paging_through_any_search_gives_every_matching_game_once_in_order(
    specs: list[tuple[Any, ...]],
    limit: int,
    player: str | None,
    variant: str | None,
    result: Any,
) -> None:
    if result in ("won", "lost") and player is None:
        result = None
    store = Store("sqlite://")
    try:
        games = Games(store)
        people = [games.account(f"P{index}") for index in range(3)]
        expected: list[tuple[Any, str]] = []
        for minute, kind, outcome, first, second, private, finished in specs:
            seats = (None if first == 3 else people[first], people[second])
            if seats[0] == seats[1]:
                continue
            game_id = games.game(
                seats,
                variant=kind,
                bot_level=1 if first == 3 else None,
                result=outcome,
                private=private,
                finished=finished,
                created=START + timedelta(minutes=minute),
            )
            if private or not finished or (variant is not None and kind != variant):
                continue
            seat = None
            if player is not None:
                wanted = people[int(player[1])]
                if wanted not in seats:
                    continue
                seat = seats.index(wanted)
            if not _matches(result, outcome, seat):
                continue
            expected.append(((minute, game_id), game_id))
        expected.sort(reverse=True)
        browser = GameBrowser(BrowserStore(store), GameStore(store), _no_record)
        filters = Filters(player=player, variant=variant, result=result)
        seen: list[str] = []
        cursor = None
        for _ in range(len(expected) + 2):
            page = asyncio.run(browser.search(filters, cursor, limit))
            assert len(page.games) <= limit
            seen += [game.id for game in page.games]
            if page.next is None:
                break
            cursor = Cursor.parse(page.next)
        assert seen == [game_id for _, game_id in expected]
    finally:
        store.close()


def _matches(result: str | None, outcome: str | None, seat: int | None) -> bool:
    if result is None:
        return True
    if result == "draw":
        return outcome == "1/2-1/2"
    if result == "aborted":
        return outcome is None
    if result in ("won", "lost"):
        winner = {"1-0": 0, "0-1": 1}.get(outcome or "")
        return winner is not None and (winner == seat) == (result == "won")
    return outcome == result


def _no_record(live: Any) -> GameRecord:
    raise AssertionError("a search reads no record")


# -- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"variant": "chess"}, "variant"),
        ({"result": "won"}, "result"),  # won from whose side?
        ({"result": "1-1"}, "result"),
        ({"rated": "yes"}, "rated"),
        ({"since": "2026-13-01"}, "since"),
        ({"since": "20260101"}, "since"),
        ({"until": "9999-12-31"}, "until"),
        ({"since": "2026-03-02", "until": "2026-03-01"}, "until"),
        ({"cursor": "nonsense"}, "cursor"),
        ({"cursor": "12.a/b"}, "cursor"),
        ({"limit": "0"}, "limit"),
        ({"limit": "101"}, "limit"),
        ({"limit": "-1"}, "limit"),
        ({"player": "<script>"}, "player"),
        ({"player": "a" * 41}, "player"),
        ({"player": "Ann\x00"}, "player"),
    ],
)
def test_bad_filters_are_refused_with_the_field_named(
    client: TestClient, params: JSONDict, field: str
) -> None:
    answer = client.get("/api/games/search", params=params)
    refused(answer, 400, "err_bad_field")
    assert field in answer.json()["message"]


def test_a_name_no_account_has_is_not_found(client: TestClient, world: JSONDict) -> None:
    refused(client.get("/api/games/search", params={"player": "Nobody"}), 404, "err_no_player")
    refused(client.get("/api/games/search", params={"player": "Visitor"}), 404, "err_no_player")
    refused(client.get("/api/games/export/Nobody"), 404, "err_no_player")
    refused(client.get("/api/players/Nobody/statistics"), 404, "err_no_player")
    refused(client.get("/api/games/export/Ann?format=pdf"), 400, "err_bad_field")
    refused(client.get("/api/games/export/Ann?max=0"), 400, "err_bad_field")
    refused(client.get("/api/games/export/Ann?player=Bob"), 400, "err_bad_field")


query_values = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["classic", "french", "won", "draw", "true", "false", "2026-03-01", "Ann"]),
    st.from_regex(r"[0-9]{1,20}\.[A-Za-z0-9_-]{0,40}", fullmatch=True),
)
query_names = st.sampled_from(
    ["player", "variant", "result", "rated", "since", "until", "cursor", "limit", "max", "format"]
)


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=st.dictionaries(query_names | st.text(max_size=6), query_values, max_size=5))
def test_fuzzed_queries_get_a_page_or_a_documented_refusal(
    client: TestClient, world: JSONDict, query: dict[str, str]
) -> None:
    for path in ("/api/games/search", "/api/games/export/Ann"):
        answer = client.get(path, params=query)
        if answer.status_code == 200:
            continue
        assert answer.status_code in (400, 404), answer.text
        assert answer.json()["code"] in CODES


# -- statistics -----------------------------------------------------------------------------


def test_statistics_count_results_by_variant_seat_and_bot_level(
    client: TestClient, world: JSONDict
) -> None:
    answer = client.get("/api/players/ANN/statistics")
    assert answer.status_code == 200
    stats = answer.json()
    assert stats["name"] == "Ann"
    total = stats["total"]
    # Four public finished games (the private one and the one in play are not counted).
    assert sum(total.values()) == 4
    variants = {tally["variant"]: tally for tally in stats["variants"]}
    assert set(variants) == {"classic", "french"}
    assert variants["french"]["won"] == 1
    assert variants["classic"]["aborted"] == 1
    levels = {tally["level"]: tally for tally in stats["bots"]}
    assert set(levels) == {3, 6} and levels[3]["aborted"] == 1
    assert sum(stats["first"].values()) + sum(stats["second"].values()) == 4
    # Ann started three: seat 0 of two games whose first player is seat 0, and seat 1 of
    # the game against level 6 whose first player is seat 1; Bob started the French one.
    assert sum(stats["first"].values()) == 3
    assert stats["second"] == {"won": 1, "lost": 0, "drawn": 0, "aborted": 0}


def test_a_private_game_counts_and_is_listed_for_its_own_players_only(
    client: TestClient,
) -> None:
    """One rule for the player page's statistics and its recent games: a private game
    counts, and is listed, for its own players (Dee and Eve, on either one's page); for
    anyone else (another account, or nobody signed in) it neither counts nor shows."""
    dee, eve = sign_in(client, account="Dee"), sign_in(client, account="Eve")
    other = sign_in(client, account="Fay")
    games = Games(served(client).store)
    ids = {}
    for name in ("Dee", "Eve"):
        found = games.players.account(name)
        assert found is not None
        ids[name] = found[0].id
    seats = (ids["Dee"], ids["Eve"])
    public = games.game(seats, result="1-0")
    private = games.game(seats, result="0-1", private=True)
    del public, private
    views = {"Dee": dee, "Eve": eve, "Fay": other, "nobody": {}}
    for viewer, headers in views.items():
        own = viewer in ("Dee", "Eve")
        for name in ("Dee", "Eve"):
            stats = client.get(f"/api/players/{name}/statistics", headers=headers).json()
            page = client.get(f"/api/players/{name}", headers=headers).json()
            counted = sum(stats["total"].values())
            listed = len(page["games"])
            assert (counted, listed) == ((2, 2) if own else (1, 1)), (viewer, name)


# -- export ---------------------------------------------------------------------------------


def test_exports_read_back_as_every_finished_public_game_of_the_player(
    client: TestClient, world: JSONDict
) -> None:
    made = world["ids"]
    listed = ids(search(client, player="Ann"))
    text = client.get("/api/games/export/Ann?format=text")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert "attachment" in text.headers["content-disposition"]
    as_text = records_from_text(text.text)
    as_json = records_from_json(client.get("/api/games/export/Ann?format=json").text)
    as_ndjson = records_from_ndjson(client.get("/api/games/export/Ann?format=ndjson").text)
    assert as_text == as_json == as_ndjson and len(as_text) == len(listed)
    # The played games replay to their end with their stored result.
    stored = GameStore(served(client).store)
    for record in as_text:
        game = record.replay()
        if game.is_over():
            assert record.result == game.outcome.result()  # type: ignore[union-attr]
    seeds = {str(stored.get(game_id).seed) for game_id in listed}  # type: ignore[union-attr]
    assert {record.tag("Seed") for record in as_text} == seeds
    for hidden in ("ann_private", "ann_playing"):
        seed = str(stored.get(made[hidden]).seed)  # type: ignore[union-attr]
        assert seed not in seeds
    # The same filters as the search.
    french = records_from_text(client.get("/api/games/export/Ann?variant=french").text)
    assert [record.variant for record in french] == ["french"]
    assert len(records_from_text(client.get("/api/games/export/Ann?max=1").text)) == 1
    assert (
        records_from_json(client.get("/api/games/export/Cy?variant=french&format=json").text) == []
    )


def test_ndjson_is_streamed_a_batch_at_a_time(
    client: TestClient, world: JSONDict, monkeypatch: pytest.MonkeyPatch
) -> None:
    games: Games = world["games"]
    ann = served(client).browser.store.account("Ann")
    assert ann is not None
    for _ in range(7):
        games.game((ann.id, None), bot_level=2, result="1-0")
    monkeypatch.setattr(service, "EXPORT_BATCH", 3)
    reads: list[int] = []
    store = served(client).browser.store
    original = store.search

    def counted(*args: Any) -> Any:
        found = original(*args)
        reads.append(len(found))
        return found

    monkeypatch.setattr(store, "search", counted)
    lines = []
    headers = {"Accept": "application/x-ndjson"}
    with client.stream("GET", "/api/games/export/Ann", headers=headers) as answer:
        assert answer.headers["content-type"].startswith("application/x-ndjson")
        for line in answer.iter_lines():
            if line:
                lines.append(GameRecord.from_json(line))
    assert len(lines) == 11
    assert max(reads) <= 3 and len(reads) >= 4


def test_a_broken_file_of_records_names_the_game() -> None:
    good = {
        "format": "hanamikoji-record",
        "version": 1,
        "tags": {"Variant": "classic", "Seed": "7", "FirstPlayer": "1", "Result": "*"},
        "rounds": [{"round": 1, "deal": None, "moves": []}],
    }
    assert len(records_from_json(json.dumps([good, good]))) == 2
    with pytest.raises(RecordError, match="game 2"):
        records_from_json(json.dumps([good, {}]))


# -- the page's address ---------------------------------------------------------------------


def test_the_browser_page_is_served(client: TestClient) -> None:
    assert client.get("/games").status_code == 200
