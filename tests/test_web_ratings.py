"""Rated games: Glicko-2 per variant between accounts and against bots' fixed ratings,
rated once whichever server gets there first, aborts and abandonment in untimed rated
games, the leaderboard, the history, who may play rated, and what the ratings' routes
show. The last test plays a rated game between two accounts in Chromium."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from postgres_db import REASON as NO_POSTGRES
from postgres_db import URL as POSTGRES
from postgres_db import postgres_schemas
from serving import Server, app_client, free_port, served
from sqlalchemy import insert, select
from starlette.testclient import TestClient
from web_support import (
    PASSWORD,
    as_guest,
    bearer,
    csrf,
    hello,
    legal_texts,
    receive_state,
    refusal,
    register,
    take_seat,
)
from web_support import receive as lobby_receive
from web_support import sign_in as lobby_sign_in

from hanamikoji.arena.glicko2 import Rating, Result, idle, rate, rate_game
from hanamikoji.bots.ratings import bot_rating
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore, new_game_row
from hanamikoji.interfaces.web.db.tables import games, rating_history, ratings
from hanamikoji.interfaces.web.db.tokens import hash_token
from hanamikoji.interfaces.web.players.store import PlayerStore, new_player
from hanamikoji.interfaces.web.ratings.forfeits import forfeit_due
from hanamikoji.interfaces.web.ratings.model import RATING_PERIODS_PER_DAY
from hanamikoji.interfaces.web.ratings.store import RatingStore

try:
    from browser_support import (
        CHROMIUM,
        DESKTOP,
        browser,  # noqa: F401  (a fixture)
        play_both_until_over,
        sign_up,
    )

    BROWSER = CHROMIUM.exists()
except pytest.skip.Exception:  # no Playwright: the browser test is skipped
    BROWSER = False

JSONDict = dict[str, Any]


# -- the store: rating a finished game ---------------------------------------------------


class Table:
    """A database with accounts, and finished games between them, made directly."""

    def __init__(self, url: str = "sqlite://") -> None:
        self.store = Store(url)
        self.players = PlayerStore(self.store)
        self.ratings = RatingStore(self.store)

    def account(self, name: str, kind: str = "account") -> str:
        player = new_player("account" if kind == "account" else "guest", name)
        return self.players.create_player(player, "$argon2id$x" if kind == "account" else None).id

    def game(
        self,
        seats: tuple[str | None, str | None],
        result: str,
        *,
        rated: bool = True,
        variant: str = "classic",
        bot_level: int | None = None,
    ) -> str:
        bot_seat = None if bot_level is None else seats.index(None)
        row = new_game_row(
            variant, 7, 0, (hash_token("a"), hash_token("b")), bot_seat, bot_level, rated=rated
        )
        GameStore(self.store).create_game(row)
        for seat, player in enumerate(seats):
            if player is not None:
                assert self.players.take_seat(row.id, seat, player) == "taken"
        # Finished with this result.
        GameStore(self.store).end_outside_rules(row.id, 0, result, "time")
        return row.id

    def stored(self, player: str, variant: str = "classic") -> Rating:
        return self.ratings.rating(player, variant).rating

    def history_rows(self) -> list[Any]:
        with self.store.engine.connect() as connection:
            return list(connection.execute(select(rating_history)).all())


@pytest.fixture
def table() -> Iterator[Table]:
    made = Table()
    yield made
    made.store.close()


def test_a_rated_game_between_accounts_rates_both_by_rate_game(table: Table) -> None:
    ann, bob = table.account("Ann"), table.account("Bob")
    first = table.game((ann, bob), "1-0")
    rated = table.ratings.rate(first)
    ann_after, bob_after = rate_game(Rating(), Rating(), 1.0)
    assert rated is not None and [c.after for c in rated.changes] == [ann_after, bob_after]
    assert table.stored(ann) == ann_after and table.stored(bob) == bob_after
    # The next game starts from the stored ratings; seats swapped, a draw.
    second = table.game((bob, ann), "1/2-1/2")
    table.ratings.rate(second)
    bob_next, ann_next = rate_game(bob_after, ann_after, 0.5)
    assert table.stored(ann) == ann_next and table.stored(bob) == bob_next
    assert table.ratings.rating(ann, "classic").games == 2
    # Another variant is another rating.
    assert table.ratings.rating(ann, "french").rating == Rating()


def test_against_a_bot_only_the_person_moves_by_the_bots_fixed_rating(table: Table) -> None:
    ann = table.account("Ann")
    fixed = bot_rating(3, "classic")
    game = table.game((ann, None), "0-1", bot_level=3)
    rated = table.ratings.rate(game)
    expected = rate(Rating(), [Result(Rating(fixed.rating, fixed.deviation), 0.0)])
    assert rated is not None
    person, bot = rated.changes
    assert person.after == expected and table.stored(ann) == expected
    assert bot.bot and bot.before == bot.after == Rating(fixed.rating, fixed.deviation)
    with table.store.engine.connect() as connection:
        assert [row.player_id for row in connection.execute(select(ratings)).all()] == [ann]
    assert bot_rating(3, "classic") == fixed  # never moves


def test_an_unrated_game_or_one_without_a_result_changes_nothing(table: Table) -> None:
    ann, bob = table.account("Ann"), table.account("Bob")
    assert table.ratings.rate(table.game((ann, bob), "1-0", rated=False)) is None
    assert table.ratings.rate(table.game((ann, bob), "*")) is None  # aborted
    guest = table.account("Gus", kind="guest")
    assert table.ratings.rate(table.game((ann, guest), "1-0")) is None  # not two accounts
    assert table.ratings.rate(table.game((ann, None), "1-0")) is None  # a seat unnamed
    assert table.history_rows() == []
    assert table.ratings.ratings_of(ann) == []


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """One database two stores open: an SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    if POSTGRES is None:
        pytest.skip(NO_POSTGRES)
    with postgres_schemas() as new_schema:
        yield new_schema()


def test_a_game_is_rated_once_even_from_two_stores_at_once(shared_url: str) -> None:
    url = shared_url
    one, two = Table(url), Table(url)
    try:
        ann, bob = one.account("Ann"), one.account("Bob")
        game = one.game((ann, bob), "0-1")
        outcomes: list[Any] = []
        start = threading.Barrier(2)

        def rate_from(store: Table) -> None:
            start.wait()
            outcomes.append(store.ratings.rate(game))

        threads = [threading.Thread(target=rate_from, args=(t,)) for t in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        again = two.ratings.rate(game)  # a replayed end
        ann_after, bob_after = rate_game(Rating(), Rating(), 0.0)
        assert len(one.history_rows()) == 2
        assert one.stored(ann) == ann_after and two.stored(bob) == bob_after
        assert one.ratings.rating(ann, "classic").games == 1
        for outcome in [*outcomes, again]:
            assert outcome is not None
            assert [round(c.after.rating, 6) for c in outcome.changes] == [
                round(ann_after.rating, 6),
                round(bob_after.rating, 6),
            ]
    finally:
        one.store.close()
        two.store.close()


def test_two_games_ending_at_once_are_rated_one_after_the_other(shared_url: str) -> None:
    url = shared_url
    one, two = Table(url), Table(url)
    try:
        ann, bob, cy = one.account("Ann"), one.account("Bob"), one.account("Cy")
        first, second = one.game((ann, bob), "1-0"), one.game((ann, cy), "1-0")
        start = threading.Barrier(2)

        def rate_from(store: Table, game: str) -> None:
            start.wait()
            store.ratings.rate(game)

        threads = [
            threading.Thread(target=rate_from, args=(one, first)),
            threading.Thread(target=rate_from, args=(two, second)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert one.ratings.rating(ann, "classic").games == 2
        befores = sorted(row.rating_before for row in one.history_rows() if row.player_id == ann)
        assert befores[0] == 1500.0 and befores[1] > 1500.0  # the second from the first's
    finally:
        one.store.close()
        two.store.close()


def test_the_history_keeps_each_rated_game(table: Table) -> None:
    ann, bob = table.account("Ann"), table.account("Bob")
    table.ratings.rate(table.game((ann, bob), "1-0"))
    table.ratings.rate(table.game((ann, bob), "0-1"))
    points = table.ratings.history(ann)
    assert [point.score for point in points] == [1.0, 0.0]
    assert points[-1].rating == table.stored(ann).rating
    assert points[0].delta == round(points[0].rating) - 1500 and points[1].delta < 0
    rows = table.history_rows()
    assert len(rows) == 4 and {row.variant for row in rows} == {"classic"}
    first_ann = next(row for row in rows if row.player_id == ann and row.score == 1.0)
    assert first_ann.rating_before == 1500.0 and first_ann.opponent_rating == 1500.0


def put_rating(
    table: Table,
    player: str,
    rating: float,
    deviation: float,
    n: int = 5,
    updated: datetime | None = None,
) -> None:
    with table.store.engine.begin() as connection:
        connection.execute(
            insert(ratings).values(
                player_id=player,
                variant="classic",
                rating=rating,
                deviation=deviation,
                volatility=0.06,
                games=n,
                updated=updated or datetime.now(UTC),
            )
        )


def test_the_leaderboard_orders_accounts_and_lists_provisional_ones_apart(table: Table) -> None:
    for name, rating, deviation in [
        ("Low", 1400, 60),
        ("Top", 1900, 80),
        ("Mid", 1650, 110),  # exactly the bound: established
        ("New", 2100, 300),
        ("Fresh", 1500, 110.5),
    ]:
        put_rating(table, table.account(name), rating, deviation)
    put_rating(table, table.account("Gus", kind="guest"), 2500, 50)  # a guest: never listed
    established = table.ratings.leaderboard("classic", provisional=False)
    provisional = table.ratings.leaderboard("classic", provisional=True)
    assert [name for name, _ in established] == ["Top", "Mid", "Low"]
    assert [name for name, _ in provisional] == ["New", "Fresh"]
    assert not any(rating.provisional for _, rating in established)
    assert all(rating.wire().provisional for _, rating in provisional)
    assert table.ratings.leaderboard("french", provisional=False) == []


def test_forfeits_of_an_untimed_rated_game() -> None:
    def due(**changes: Any) -> Any:
        base: dict[str, Any] = {
            "decided": {0, 1},
            "to_move": 0,
            "last_decision": 0,
            "absent_since": (None, None),
            "bot_seat": None,
            "abort_ms": 10,
            "abandon_ms": 100,
        }
        return forfeit_due(**{**base, **changes})

    assert due() is None  # both here
    assert due(decided=set(), last_decision=50).termination == "unstarted"
    assert due(decided={1}, to_move=0, bot_seat=1).at == 10  # the person to start
    assert due(decided=set(), to_move=1, bot_seat=1) is None  # the bot decides by itself
    assert due(absent_since=(None, 40)).seat == 1
    assert due(absent_since=(40, None)).at == 140
    assert due(absent_since=(40, 30)) is None  # both away: nobody loses
    assert due(absent_since=(40, None), bot_seat=1).seat == 0
    assert due(to_move=None, absent_since=(40, None)) is None  # over


# -- the server ------------------------------------------------------------------------------


@pytest.fixture
def client() -> Iterator[TestClient]:
    with app_client("sqlite://", login_rate="off") as test_client:
        yield test_client


def create_game(client: TestClient, session: JSONDict, **options: Any) -> Any:
    return client.post("/api/games", json=options, headers=csrf(session))


def made(response: Any) -> JSONDict:
    assert response.status_code == 201, response.text
    body: JSONDict = response.json()
    return body


def play_both(sockets: tuple[Any, Any], states: list[JSONDict], rng: random.Random) -> None:
    """Random legal decisions for whichever seat is to decide until the end."""
    while states[0]["outcome"] is None:
        seat = states[0]["to_move"]
        move = rng.choice(legal_texts(states[seat]))
        ply = states[seat]["ply"]
        sockets[seat].send_text(json.dumps({"type": "move", "move": move, "ply": ply}))
        for side in (0, 1):
            states[side] = receive_state(sockets[side], ply + 1)


def friend_game(client: TestClient) -> tuple[JSONDict, JSONDict, JSONDict]:
    """A rated friend game made by Ann, its seat 1 claimed by Bob: (game, Ann, Bob)."""
    register(client, "Bob")
    ann = register(client, "Ann")
    game = made(create_game(client, ann, opponent="friend", rated=True, first="me"))
    assert game["rated"] is True
    bob = log_in(client, "Bob")
    claimed = client.post(
        f"/api/games/{game['id']}/claim",
        headers={**csrf(bob), **bearer(game["friend_token"])},
    )
    assert claimed.status_code == 200, claimed.text
    return game, ann, bob


def log_in(client: TestClient, name: str) -> JSONDict:
    client.cookies.clear()
    signed = client.post("/api/me/login", json={"name": name, "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    body: JSONDict = signed.json()
    return body


def test_a_rated_game_between_two_accounts_played_through_the_server(client: TestClient) -> None:
    game, _, _ = friend_game(client)
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
    ):
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        play_both((ws0, ws1), states, random.Random(5))
    result = states[0]["outcome"]["result"]
    body = client.get(f"/api/games/{game['id']}/ratings").json()
    assert body["rated"] is True
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    expected = rate_game(Rating(), Rating(), score)
    assert [change["after"] for change in body["changes"]] == [round(r.rating) for r in expected]
    assert [change["delta"] for change in body["changes"]] == [
        round(r.rating) - 1500 for r in expected
    ]
    board = client.get("/api/leaderboard?variant=classic").json()
    assert {row["name"] for row in board["provisional"]} == {"Ann", "Bob"}
    assert board["players"] == []  # one game: both provisional
    page = client.get("/api/players/Ann").json()
    assert page["ratings"][0]["provisional"] is True and len(page["history"]) == 1
    assert page["games"][0]["opponent"]["rating"]["games"] == 1
    assert "rating_delta" in page["games"][0]
    mine = client.get("/api/me/games").json()  # Bob's
    assert mine["ratings"][0]["games"] == 1 and "rating_delta" in mine["finished"][0]


def test_a_rated_bot_game_moves_only_the_person(client: TestClient) -> None:
    ann = register(client, "Ann")
    game = made(create_game(client, ann, opponent="bot", level=1, rated=True, first="me"))
    rng = random.Random(2)
    with take_seat(client, game) as (ws, state):
        while state["outcome"] is None:
            if state["to_move"] == state["seat"]:
                move = rng.choice(legal_texts(state))
                ws.send_text(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
            state = receive_state(ws, state["ply"] + 1)
    body = client.get(f"/api/games/{game['id']}/ratings").json()
    person, bot = body["changes"]
    fixed = bot_rating(1, "classic")
    assert bot["bot"] and bot["before"] == bot["after"] == round(fixed.rating)
    score = 1.0 if state["outcome"]["winner"] == 0 else 0.0
    expected = rate(Rating(), [Result(Rating(fixed.rating, fixed.deviation), score)])
    assert person["after"] == round(expected.rating)


def test_guests_and_strangers_cannot_play_rated(client: TestClient) -> None:
    client.cookies.clear()
    refusal(client.post("/api/games", json={"rated": True}), 403, "err_rated_needs_account")
    gus = as_guest(client, "Gus")
    refusal(create_game(client, gus, rated=True), 403, "err_rated_needs_account")
    refusal(create_game(client, gus, opponent="friend", rated=True), 403, "err_rated_needs_account")
    # A guest cannot take the other seat of a rated friend game.
    ann = register(client, "Ann")
    game = made(create_game(client, ann, opponent="friend", rated=True))
    gus = as_guest(client, "Gus2")
    claim = client.post(
        f"/api/games/{game['id']}/claim", headers={**csrf(gus), **bearer(game["friend_token"])}
    )
    refusal(claim, 403, "err_rated_needs_account")
    # An unrated game asks nothing.
    assert made(create_game(client, gus, opponent="bot"))["rated"] is False


def test_no_ratings_route_shows_a_token_or_a_card(client: TestClient) -> None:
    game, _, _ = friend_game(client)
    with (
        client.websocket_connect(f"/ws/{game['id']}") as ws0,
        client.websocket_connect(f"/ws/{game['id']}") as ws1,
    ):
        states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
        # Mid-game: the ratings route says only that it is rated.
        assert client.get(f"/api/games/{game['id']}/ratings").json() == {
            "rated": True,
            "changes": None,
        }
        play_both((ws0, ws1), states, random.Random(9))
    secrets = {game["token"], game["friend_token"], hash_token(game["token"]), game["id"]}
    for path in ["/api/leaderboard", "/api/players/Ann", "/api/players/Bob"]:
        body = client.get(path).text
        assert not any(secret in body for secret in secrets), path
        assert not {"hand", "secret", "tradeoff", "drawn", "token"} & keys(json.loads(body))
    ratings_body = client.get(f"/api/games/{game['id']}/ratings").text
    assert game["token"] not in ratings_body and game["friend_token"] not in ratings_body
    refusal(client.get("/api/games/nosuchgame/ratings"), 404, "err_no_game")
    refusal(client.get("/api/leaderboard?variant=chess"), 400, "err_bad_field")


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def wait_for(predicate: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


def stored_game(client: TestClient, game_id: str) -> Any:
    return served(client).games.get(game_id)


def test_a_side_that_never_decides_aborts_the_game_unrated() -> None:
    with app_client("sqlite://", login_rate="off", abort_timeout=0.3) as client:
        ann = register(client, "Ann")
        game = made(create_game(client, ann, opponent="bot", level=1, rated=True, first="me"))
        with take_seat(client, game) as (ws, ended):
            if ended["outcome"] is None:  # not aborted yet: the next state is the abort
                ended = receive_state(ws)
            assert ended["outcome"]["termination"] == "unstarted"
            assert ended["outcome"]["winner"] is None
        stored = stored_game(client, game["id"])
        assert stored.result == "*" and stored.termination == "unstarted"
        assert client.get(f"/api/games/{game['id']}/ratings").json()["changes"] is None
        assert client.get("/api/players/Ann").json()["ratings"] == []
        (entry,) = client.get("/api/me/games").json()["finished"]
        assert entry["outcome"] == "aborted" and "rating_delta" not in entry


def test_a_player_gone_past_the_timeout_loses_a_rated_game() -> None:
    with app_client("sqlite://", login_rate="off", abandon_timeout=0.5) as client:
        game, _, _ = friend_game(client)
        with client.websocket_connect(f"/ws/{game['id']}") as ws0:
            with client.websocket_connect(f"/ws/{game['id']}") as ws1:
                states = [hello(ws0, game["token"]), hello(ws1, game["friend_token"])]
                for _ in range(2):  # one decision each (Ann starts)
                    seat = states[0]["to_move"]
                    move = legal_texts(states[seat])[0]
                    ply = states[seat]["ply"]
                    msg = {"type": "move", "move": move, "ply": ply}
                    (ws0, ws1)[seat].send_text(json.dumps(msg))
                    states = [receive_state(ws0, ply + 1), receive_state(ws1, ply + 1)]
            # Bob has gone; Ann stays until the timeout ends it.
            while True:
                state = receive_state(ws0)
                if state["outcome"] is not None:
                    break
        assert state["outcome"]["termination"] == "abandoned"
        assert state["outcome"]["winner"] == 0
        stored = stored_game(client, game["id"])
        assert stored.result == "1-0" and stored.termination == "abandoned"
        changes = client.get(f"/api/games/{game['id']}/ratings").json()["changes"]
        assert changes[0]["delta"] > 0 > changes[1]["delta"]


def test_a_finished_rated_game_left_unrated_is_rated_at_the_next_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    made_here = Table(url)
    ann, bob = made_here.account("Ann"), made_here.account("Bob")
    game = made_here.game((ann, bob), "1-0")  # ended, the server stopped before rating
    made_here.store.close()
    with app_client(url) as client:
        body = client.get(f"/api/games/{game}/ratings").json()
    assert [change["delta"] for change in body["changes"]] == [162, -162]
    with Store(url).engine.connect() as connection:
        assert connection.execute(select(games.c.rated).where(games.c.id == game)).scalar()


# -- Chromium ------------------------------------------------------------------------------


@pytest.fixture
def rating_server(tmp_path: Path) -> Iterator[Server]:
    options = ("--bot-delay", "0", "--bot-processes", "0", "--login-rate", "off")
    with Server(tmp_path / "games.sqlite3", free_port(), *options) as server:
        yield server


@pytest.mark.e2e
@pytest.mark.skipif(not BROWSER, reason="needs Playwright and Debian's chromium")
def test_two_accounts_play_a_rated_game_through_the_link(
    browser: Any,
    rating_server: Server,
) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, locale="en-GB") for _ in range(2)]
    host, guest = (context.new_page() for context in contexts)
    errors: list[str] = []
    for one in (host, guest):
        one.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_up(host, rating_server, "Hana")
        sign_up(guest, rating_server, "Kaze")
        host.check("input[name=opponent][value=friend]")
        host.check("#rated")
        host.click("#start-button")
        host.wait_for_selector(".game")
        link = host.locator("#invite-link").input_value()
        guest.goto(link)  # signed in: the page names Kaze at the link's seat
        guest.wait_for_selector(".game")
        pages = [host, guest]
        play_both_until_over(pages, seconds=90)
        for one in pages:
            one.wait_for_selector("[data-testid=end-ratings]:not([hidden])")
            deltas = one.locator("[data-testid=rating-delta]").all_inner_texts()
            assert len(deltas) == 2 and all(d.strip()[0] in "+\u2212\u00b1" for d in deltas)
            one.goto(rating_server.url + "/leaderboard")
            one.wait_for_selector("[data-testid=leaderboard-provisional] td")
            board = one.locator("[data-testid=leaderboard-provisional]").inner_text()
            assert "Hana" in board and "Kaze" in board and "?" in board
        host.goto(rating_server.url + "/@/Kaze")
        host.wait_for_selector("[data-testid=rating-chart] circle")
        assert host.locator("[data-testid=rating-history] tbody tr").count() == 1
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_a_rated_game_from_the_lobby_is_rated_and_the_lobby_shows_the_ratings(
    client: TestClient,
) -> None:
    ann, bob = lobby_sign_in(client, account="Annie"), lobby_sign_in(client, account="Bobby")
    with (
        client.websocket_connect("/lobby/ws", headers=ann) as ws_ann,
        client.websocket_connect("/lobby/ws", headers=bob) as ws_bob,
    ):
        lobby_receive(ws_ann, "lobby")
        lobby_receive(ws_bob, "lobby")
        ws_ann.send_text(json.dumps({"type": "seek", "rated": True, "variant": "french"}))
        seek = lobby_receive(ws_bob, "seek")["seek"]
        ws_bob.send_text(json.dumps({"type": "accept", "seek": seek["id"]}))
        paired = lobby_receive(ws_ann, "paired"), lobby_receive(ws_bob, "paired")
    game = paired[0]["game"]
    with (
        client.websocket_connect(f"/ws/{game}") as ws0,
        client.websocket_connect(f"/ws/{game}") as ws1,
    ):
        states = [hello(ws0, paired[0]["token"]), hello(ws1, paired[1]["token"])]
        play_both((ws0, ws1), states, random.Random(11))
    changes = client.get(f"/api/games/{game}/ratings").json()["changes"]
    assert changes is not None and len(changes) == 2
    with client.websocket_connect("/lobby/ws", headers=ann) as ws_ann:
        you = lobby_receive(ws_ann, "lobby")["you"]
    assert you["ratings"]["french"]["rating"] == changes[0]["after"]
    assert you["ratings"]["french"]["provisional"] is True
    assert you["ratings"]["classic"]["rating"] == 1500  # another variant: untouched


def test_time_away_makes_a_rating_less_certain(table: Table) -> None:
    """A deviation grows with the time since the rating last changed (lichess's 0.21436
    rating periods a day, glicko2.idle): shown so, rated from so, and listed so."""
    away = datetime.now(UTC) - timedelta(days=400)
    ann, bob, cy = table.account("Ann"), table.account("Bob"), table.account("Cy")
    put_rating(table, ann, 1800, 60, updated=away)
    put_rating(table, cy, 1700, 60)  # played today
    grown = idle(Rating(1800, 60), int(400 * RATING_PERIODS_PER_DAY))
    assert grown.deviation > 110  # provisional again after 400 days away
    shown = table.ratings.rating(ann, "classic")
    assert shown.rating.deviation == pytest.approx(grown.deviation) and shown.provisional
    assert [name for name, _ in table.ratings.leaderboard("classic", provisional=False)] == ["Cy"]
    assert [name for name, _ in table.ratings.leaderboard("classic", provisional=True)] == ["Ann"]
    rated = table.ratings.rate(table.game((ann, bob), "1-0"))
    assert rated is not None
    expected, _ = rate_game(grown, Rating(), 1.0)
    assert rated.changes[0].before.deviation == pytest.approx(grown.deviation)
    assert table.stored(ann).rating == pytest.approx(expected.rating)
