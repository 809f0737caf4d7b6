"""Players of the web app: guests and accounts, sessions and their cookies, CSRF, the
sign-in rate limit, seats named by player (created, claimed, opened by session), my
games and a player's page, and what no route may give away. The last test registers,
plays and finds the game in My games in Chromium."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from postgres_db import REASON as NO_POSTGRES
from postgres_db import URL as POSTGRES
from postgres_db import postgres_schemas
from serving import Server, app_client, app_config, free_port, served
from sqlalchemy import select, update
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import (
    COOKIE,
    PASSWORD,
    as_guest,
    bearer,
    create,
    csrf,
    hello,
    my_games,
    play_to_the_end,
    receive_error,
    receive_state,
    refusal,
    register,
)

from hanamikoji.interfaces import web_cli
from hanamikoji.interfaces.web.app import create_app
from hanamikoji.interfaces.web.catalog.lookup import text
from hanamikoji.interfaces.web.db.attempts import attempt_key, count_attempt
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.tables import game_seats, players, sessions
from hanamikoji.interfaces.web.db.tokens import hash_token
from hanamikoji.interfaces.web.players.names import check_nickname, is_reserved
from hanamikoji.interfaces.web.players.passwords import Passwords
from hanamikoji.interfaces.web.wire.incoming import DEFAULT_LEVEL

try:
    from browser_support import (
        CHROMIUM,
        Page,
        browser,  # noqa: F401  (a fixture)
        page,  # noqa: F401  (a fixture)
        sign_up,
    )

    BROWSER = CHROMIUM.exists()
except pytest.skip.Exception:  # no Playwright: the browser test is skipped
    BROWSER = False

JSONDict = dict[str, Any]
EVIL = "http://evil.example"


def make_client(db_url: str = "sqlite://", **options: Any) -> TestClient:
    """The app with no sign-in limit unless ``options`` set one."""
    return app_client(db_url, **{"login_rate": "off", **options})


@pytest.fixture
def client() -> Iterator[TestClient]:
    with make_client() as test_client:
        yield test_client


def session_cookie(client: TestClient) -> str:
    value = client.cookies.get(COOKIE)
    assert value is not None
    return value


def use(client: TestClient, cookie: str | None) -> None:
    """Make the client the browser whose session cookie is ``cookie`` (none: signed out)."""
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)


def set_cookie_header(response: Any) -> str:
    headers = [value for name, value in response.headers.multi_items() if name == "set-cookie"]
    assert len(headers) == 1, headers
    return str(headers[0])


def database(client: TestClient) -> Any:
    return served(client).store


# -- accounts -------------------------------------------------------------------------------


def test_register_sign_out_and_in_again(client: TestClient) -> None:
    made = register(client, "Ann_1")
    assert made["player"]["name"] == "Ann_1" and made["player"]["kind"] == "account"
    me = client.get("/api/me").json()
    assert me["player"] == made["player"] and me["csrf"] == made["csrf"]
    out = client.post("/api/me/logout", headers=csrf(made))
    assert out.status_code == 200 and client.get("/api/me").json() == {"player": None}
    signed = client.post("/api/me/login", json={"name": "ann_1", "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    assert signed.json()["player"] == made["player"]  # the name whatever its case
    assert signed.json()["csrf"] != made["csrf"]  # a new session, a new token


def test_the_cookie_is_signed_http_only_same_site_and_lasts(client: TestClient) -> None:
    client.cookies.clear()
    response = client.post("/api/me/register", json={"name": "Cookie", "password": PASSWORD})
    header = set_cookie_header(response)
    attributes = {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes
    assert "samesite=lax" in header.lower() and f"Max-Age={30 * 86400}" in header
    assert "secure" not in attributes  # plain http here
    value = session_cookie(client)
    session_id, _, signature = value.rpartition(".")
    assert len(session_id) >= 43 and signature
    # A cookie whose signature is not the server's opens nothing, stored session or not.
    use(client, f"{session_id}.{'A' * len(signature)}")
    assert client.get("/api/me").json() == {"player": None}
    use(client, value)
    assert client.get("/api/me").json()["player"]["name"] == "Cookie"


def test_behind_https_the_cookie_is_secure_and_host_bound() -> None:
    with make_client(secure_cookies=True, session_days=2) as client:
        response = client.post("/api/me/guest", json={"nickname": "Hana"})
        header = set_cookie_header(response)
    assert header.startswith("__Host-hanamikoji_session=")
    assert "; secure" in header.lower() and f"Max-Age={2 * 86400}" in header
    assert "domain=" not in header.lower()


def test_only_an_argon2_hash_of_the_password_is_stored(client: TestClient) -> None:
    made = register(client, "Hashed", "my secret passphrase")
    store = database(client)
    with store.connection() as connection:
        row = connection.execute(select(players).where(players.c.id == made["player"]["id"])).one()
        every_table = [
            str(tuple(found))
            for table in ("players", "sessions", "game_seats", "server_secrets", "games")
            for found in connection.exec_driver_sql(f"SELECT * FROM {table}").all()
        ]
    assert row.password_hash.startswith("$argon2id$")
    assert PasswordHasher().verify(row.password_hash, "my secret passphrase")
    assert not any("my secret passphrase" in found for found in every_table)
    # The session is stored only as a hash of its id.
    session_id = session_cookie(client).rpartition(".")[0]
    assert not any(session_id in found for found in every_table)


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    register(client, "Bob")
    client.cookies.clear()
    wrong = client.post("/api/me/login", json={"name": "Bob", "password": "not the password"})
    unknown = client.post("/api/me/login", json={"name": "Nobody_here", "password": PASSWORD})
    assert refusal(wrong, 401, "err_login_failed") == refusal(unknown, 401, "err_login_failed")
    assert wrong.json()["message"] == "Wrong name or password."
    assert COOKIE not in client.cookies


def test_an_unknown_name_costs_a_password_check_too(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str] = []
    # The password check itself, wrapped on purpose to count its calls.
    verify = Passwords._verify  # noqa: SLF001

    def counting(self: Passwords, password_hash: str, password: str) -> bool:
        checked.append(password)
        return verify(self, password_hash, password)

    monkeypatch.setattr(Passwords, "_verify", counting)
    client.post("/api/me/login", json={"name": "Nobody_here", "password": "guess one"})
    client.post("/api/me/login", json={"name": "Nobody_here", "password": "guess two"})
    assert checked == ["guess one", "guess two"]


def test_the_hash_is_redone_when_the_parameters_change(client: TestClient) -> None:
    made = register(client, "Rehash")
    accounts = served(client).accounts
    accounts.passwords = Passwords(PasswordHasher(time_cost=4, memory_cost=32 * 1024))
    client.cookies.clear()
    signed = client.post("/api/me/login", json={"name": "Rehash", "password": PASSWORD})
    assert signed.status_code == 200
    found = accounts.store.account("rehash")
    assert found is not None and found[0].id == made["player"]["id"]
    assert "m=32768,t=4" in found[1]
    assert PasswordHasher().verify(found[1], PASSWORD)


def test_names_are_unique_whatever_their_case(client: TestClient) -> None:
    register(client, "Sakura")
    client.cookies.clear()
    taken = client.post("/api/me/register", json={"name": "SAKURA", "password": PASSWORD})
    assert refusal(taken, 409, "err_name_taken")["message"] == (
        "The name 'SAKURA' is already taken."
    )
    # Guests' nicknames need not be unique, and do not take account names.
    as_guest(client, "sakura")
    as_guest(client, "sakura")


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "err_name_length"),
        ("a" * 21, "err_name_length"),
        ("Ann Lee", "err_name_chars"),
        ("_ann", "err_name_chars"),
        ("Anné", "err_name_chars"),
        ("bot-level-3", "err_name_reserved"),
        ("Player2", "err_name_reserved"),
        ("greedy", "err_name_reserved"),
        ("Guest_17", "err_name_reserved"),
        ("ADMIN", "err_name_reserved"),
    ],
)
def test_name_rules_are_refused_in_words(client: TestClient, name: str, code: str) -> None:
    client.cookies.clear()
    response = client.post(
        "/api/me/register",
        json={"name": name, "password": PASSWORD},
        headers={"X-Hanamikoji-Lang": "fr"},
    )
    body = refusal(response, 400, code)
    assert body["message"] == text(code, "fr", min=3, max=20, name=name)


def test_passwords_and_nicknames_have_rules(client: TestClient) -> None:
    client.cookies.clear()
    short = client.post("/api/me/register", json={"name": "Shorty", "password": "1234567"})
    assert refusal(short, 400, "err_password_length")["message"] == (
        "A password has 8 to 256 characters."
    )
    for nickname, code in [
        ("x", "err_nickname_length"),
        ("<script>", "err_nickname_chars"),
        ("Bot level 5", "err_name_reserved"),
    ]:
        refusal(client.post("/api/me/guest", json={"nickname": nickname}), 400, code)
    assert check_nickname(" はなみ  こじ ") == "はなみ こじ"
    assert is_reserved("Player 1") and is_reserved("bot_3") and not is_reserved("Botanist")
    wrong_kind = client.post("/api/me/register", json={"name": "Ann", "password": 12345678})
    refusal(wrong_kind, 400, "err_bad_field")


def test_a_guest_becomes_an_account_with_its_games(client: TestClient) -> None:
    guest = as_guest(client, "Hana mi")
    guest_cookie = session_cookie(client)
    assert guest["player"]["kind"] == "guest" and guest["player"]["name"] == "Hana mi"
    game = client.post("/api/games", json={"opponent": "bot", "level": 1}, headers=csrf(guest))
    assert game.status_code == 201
    renamed = client.post("/api/me/guest", json={"nickname": "Hanami"}, headers=csrf(guest))
    assert renamed.status_code == 200 and renamed.json()["player"]["name"] == "Hanami"
    made = client.post(
        "/api/me/register", json={"name": "Hanami", "password": PASSWORD}, headers=csrf(guest)
    )
    assert made.status_code == 201, made.text
    account = made.json()
    assert account["player"] == {
        "id": guest["player"]["id"],
        "name": "Hanami",
        "kind": "account",
        "bot": False,
    }
    assert [entry["id"] for entry in my_games(client)["ongoing"]] == [game.json()["id"]]
    account_cookie = session_cookie(client)
    # The guest's session ended with the change: its cookie opens nothing any more.
    use(client, guest_cookie)
    assert client.get("/api/me").json() == {"player": None}
    use(client, account_cookie)
    again = client.post(
        "/api/me/register", json={"name": "Hanami2", "password": PASSWORD}, headers=csrf(account)
    )
    refusal(again, 409, "err_already_account")
    refusal(
        client.post("/api/me/guest", json={"nickname": "Again"}, headers=csrf(account)),
        409,
        "err_already_account",
    )


def test_signing_out_ends_the_session_on_the_server(client: TestClient) -> None:
    made = register(client, "Leaving")
    cookie = session_cookie(client)
    out = client.post("/api/me/logout", headers=csrf(made))
    assert out.status_code == 200
    header = set_cookie_header(out)
    assert header.startswith(f"{COOKIE}=") and ("Max-Age=0" in header or "expires=" in header)
    use(client, cookie)  # the old cookie, kept by someone
    assert client.get("/api/me").json() == {"player": None}


def test_an_expired_session_opens_nothing(client: TestClient) -> None:
    register(client, "Expired")
    store = database(client)
    with store.transaction() as connection:
        connection.execute(update(sessions).values(expires=sessions.c.created))
    assert client.get("/api/me").json() == {"player": None}
    refusal(client.get("/api/me/games"), 401, "err_signed_out")


def test_the_cookie_key_is_in_the_database_for_every_server(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with make_client(url) as first:
        register(first, "Shared")
        cookie = session_cookie(first)
    with make_client(url) as second:
        use(second, cookie)
        assert second.get("/api/me").json()["player"]["name"] == "Shared"


def test_serve_takes_the_players_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app))
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    options = ["--db", db, "--secure-cookies", "--login-rate", "5/minute", "--session-days", "7"]
    assert web_cli.main(options) == 0
    with TestClient(started["app"], base_url="http://127.0.0.1") as client:
        state = served(client)
    assert state.cookies.secure and state.cookies.lifetime == timedelta(days=7)
    assert state.cookies.name == "__Host-hanamikoji_session"
    assert str(state.rates.login) == "5 per 1 minute"
    assert web_cli.main(["--db", db]) == 0
    with TestClient(started["app"], base_url="http://127.0.0.1") as client:
        state = served(client)
    assert not state.cookies.secure and state.cookies.lifetime == timedelta(days=30)
    assert str(state.rates.login) == "10 per 1 minute"


# -- CSRF -----------------------------------------------------------------------------------


def test_a_signed_in_post_needs_the_sessions_csrf_token(client: TestClient) -> None:
    other = register(client, "Other")
    made = register(client, "Csrf")
    for headers in ({}, {"X-CSRF-Token": "forged"}, csrf(other)):
        refusal(client.post("/api/me/logout", headers=headers), 403, "err_csrf")
        refused = client.post("/api/games", json={"opponent": "bot"}, headers=headers)
        refusal(refused, 403, "err_csrf")
    assert client.get("/api/me").json()["player"]["name"] == "Csrf"
    assert my_games(client)["ongoing"] == []
    assert (
        client.post("/api/games", json={"opponent": "bot"}, headers=csrf(made)).status_code == 201
    )


def test_a_cross_site_form_post_is_refused(client: TestClient) -> None:
    made = register(client, "Victim")
    form = {"Origin": EVIL, "Content-Type": "application/x-www-form-urlencoded"}
    for path in ("/api/me/logout", "/api/me/login", "/api/me/guest", "/api/games"):
        response = client.post(path, content=b"name=x&password=y", headers=form)
        refusal(response, 403, "err_origin")
    # Even with the right token (which another site cannot read), another origin is refused.
    refusal(
        client.post("/api/me/logout", headers={"Origin": EVIL, **csrf(made)}), 403, "err_origin"
    )
    assert client.get("/api/me").json()["player"]["name"] == "Victim"
    refusal(
        client.post("/api/me/login", content=b"name=x", headers={"Content-Type": "text/plain"}),
        403,
        "err_csrf",
    )
    client.cookies.clear()
    plain = client.post("/api/me/login", content=b"{}", headers={"Content-Type": "text/plain"})
    refusal(plain, 415, "err_content_type")


# -- the sign-in rate limit -------------------------------------------------------------------


def test_sign_in_attempts_are_limited_per_address() -> None:
    with make_client(login_rate="3/minute") as client:
        for _ in range(3):
            wrong = client.post("/api/me/login", json={"name": "Someone", "password": "x" * 8})
            refusal(wrong, 401, "err_login_failed")
        limited = client.post("/api/me/login", json={"name": "Another", "password": "x" * 8})
        body = refusal(limited, 429, "err_login_rate")
        seconds = int(limited.headers["Retry-After"])
        assert 1 <= seconds <= 60
        assert body["message"] == f"Too many sign-in attempts: try again in {seconds} s."
        refusal(client.post("/api/me/guest", json={"nickname": "Hana"}), 429, "err_login_rate")
        # Games go on: only sign-in attempts are counted.
        assert client.post("/api/games", json={"opponent": "bot"}).status_code == 201


def test_sign_in_attempts_are_limited_per_account_name() -> None:
    store = Store("sqlite://")
    ann, bob = (attempt_key("sign-in-account", name) for name in ("ann", "bob"))
    address = [attempt_key("sign-in-address", f"10.0.0.{n}") for n in range(4)]
    minute = 60_000
    assert count_attempt(store, [address[1], ann], 0, 2, minute) is None
    assert count_attempt(store, [address[2], ann], 1_000, 2, minute) is None
    # Another address, the same name: refused until the first attempt leaves the window.
    assert count_attempt(store, [address[3], ann], 2_000, 2, minute) == 58_000
    assert count_attempt(store, [address[3], bob], 2_000, 2, minute) is None
    assert count_attempt(store, [address[0], ann], 60_001, 2, minute) is None
    store.close()


def _instance(url: str, address: str, login_rate: str) -> TestClient:
    """An instance of the app on the database at ``url``, its requests from ``address``."""
    config = app_config(
        url, bot_delay=0.4, create_rate="20/minute", message_rate="10/second", login_rate=login_rate
    )
    return TestClient(create_app(config), base_url="http://testserver", client=(address, 5000))


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgresql", marks=pytest.mark.skipif(not POSTGRES, reason=NO_POSTGRES)),
    ]
)
def shared_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a new database that several instances may share."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        return
    with postgres_schemas() as new_schema:
        yield new_schema()


def test_the_sign_in_limit_is_shared_by_every_instance_on_the_database(
    shared_database: str,
) -> None:
    """Two instances on one database: one account's wrong passwords are counted once,
    whichever instance they reach (each counted its own before: twice the limit)."""
    url = shared_database
    with (
        _instance(url, "10.0.0.1", "3/minute") as one,
        _instance(url, "10.0.0.2", "3/minute") as two,
    ):
        wrong = {"name": "Ann", "password": "wrong password"}
        refusal(one.post("/api/me/login", json=wrong), 401, "err_login_failed")
        refusal(one.post("/api/me/login", json=wrong), 401, "err_login_failed")
        refusal(two.post("/api/me/login", json=wrong), 401, "err_login_failed")
        limited = two.post("/api/me/login", json={**wrong, "name": "ANN"})
        refusal(limited, 429, "err_login_rate")
        assert 1 <= int(limited.headers["Retry-After"]) <= 60
        refusal(one.post("/api/me/login", json=wrong), 429, "err_login_rate")
        # Another name from the second instance's address is still allowed there.
        refusal(two.post("/api/me/login", json={**wrong, "name": "Bob"}), 401, "err_login_failed")


# -- seats ----------------------------------------------------------------------------------


def test_a_signed_in_creator_holds_seat_one_and_opens_it_without_its_token(
    client: TestClient,
) -> None:
    made = register(client, "Creator")
    response = client.post("/api/games", json={"opponent": "bot", "level": 1}, headers=csrf(made))
    game = response.json()
    state = client.get(f"/api/games/{game['id']}")  # no token: the session's seat
    assert state.status_code == 200 and state.json()["seat"] == 0
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "lang": "en"}))
        assert receive_state(ws)["seat"] == 0
    # The seat token still opens it, for links and bots.
    client.cookies.clear()
    assert client.get(f"/api/games/{game['id']}", headers=bearer(game["token"])).json()["seat"] == 0


def test_another_players_seat_does_not_open_by_session(client: TestClient) -> None:
    made = register(client, "Owner")
    game = client.post("/api/games", json={"opponent": "friend"}, headers=csrf(made)).json()
    register(client, "Intruder")
    unknown = client.get("/api/games/no-such-game")
    theirs = client.get(f"/api/games/{game['id']}")
    assert refusal(theirs, 404, "err_bad_token") == refusal(unknown, 404, "err_bad_token")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert receive_error(ws)["code"] == "err_bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4401
    client.cookies.clear()
    refusal(client.get(f"/api/games/{game['id']}"), 404, "err_bad_token")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert receive_error(ws)["code"] == "err_bad_token"


def test_seats_are_claimed_with_their_token_once(client: TestClient) -> None:
    client.cookies.clear()
    game = create(client, opponent="friend")  # by nobody signed in
    path = f"/api/games/{game['id']}/claim"
    refusal(client.post(path, headers=bearer(game["token"])), 401, "err_signed_out")
    ann = register(client, "Ann")
    ann_cookie = session_cookie(client)
    refusal(client.post(path, headers=bearer(game["token"])), 403, "err_csrf")
    refusal(client.post(path, headers={**bearer("wrong"), **csrf(ann)}), 404, "err_bad_token")
    claimed = client.post(path, headers={**bearer(game["token"]), **csrf(ann)})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 0
    again = client.post(path, headers={**bearer(game["token"]), **csrf(ann)})
    assert again.status_code == 200  # already hers
    refusal(
        client.post(path, headers={**bearer(game["friend_token"]), **csrf(ann)}),
        409,
        "err_claim_both",
    )
    bob = register(client, "Bob")
    refusal(
        client.post(path, headers={**bearer(game["token"]), **csrf(bob)}), 409, "err_seat_taken"
    )
    assert (
        client.post(path, headers={**bearer(game["friend_token"]), **csrf(bob)}).json()["seat"] == 1
    )
    assert client.get(f"/api/games/{game['id']}").json()["seat"] == 1
    opponent = my_games(client)["ongoing"][0]["opponent"]
    assert opponent == {"kind": "account", "name": "Ann"}
    use(client, ann_cookie)
    assert client.get(f"/api/games/{game['id']}").json()["seat"] == 0
    with database(client).connection() as connection:
        rows = connection.execute(select(game_seats.c.seat, game_seats.c.player_id)).all()
    assert sorted(rows) == [(0, ann["player"]["id"]), (1, bob["player"]["id"])]


def test_a_rematch_by_session_keeps_the_players_and_needs_the_token(client: TestClient) -> None:
    made = register(client, "Rematcher")
    game = client.post(
        "/api/games", json={"opponent": "bot", "level": 1}, headers=csrf(made)
    ).json()
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        play_to_the_end(ws, receive_state(ws), random.Random(1))
    path = f"/api/games/{game['id']}/rematch"
    refusal(client.post(path), 403, "err_csrf")
    rematch = client.post(path, headers=csrf(made))
    assert rematch.status_code == 200, rematch.text
    new_id = rematch.json()["id"]
    assert client.get(f"/api/games/{new_id}").json()["seat"] == 0  # by session, no token
    listed = my_games(client)
    assert [entry["id"] for entry in listed["ongoing"]] == [new_id]
    assert [entry["id"] for entry in listed["finished"]] == [game["id"]]


# -- my games and a player's page -------------------------------------------------------------


def test_my_games_lists_mine_waiting_for_me_first(client: TestClient) -> None:
    refusal(client.get("/api/me/games"), 401, "err_signed_out")
    made = register(client, "Lister")
    headers = csrf(made)

    def new(**options: Any) -> JSONDict:
        response = client.post("/api/games", json=options, headers=headers)
        assert response.status_code == 201
        body: JSONDict = response.json()
        return body

    mine_first = new(opponent="bot", level=1, first="me")  # my turn
    friend = new(opponent="friend", first="opponent")  # my friend's turn
    finished = new(opponent="bot", level=2, first="me")
    with client.websocket_connect(f"/ws/{finished['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        final = play_to_the_end(ws, receive_state(ws), random.Random(2))
    listed = my_games(client)
    assert listed["player"]["name"] == "Lister"
    ongoing = listed["ongoing"]
    assert [entry["id"] for entry in ongoing] == [mine_first["id"], friend["id"]]
    assert [entry["your_turn"] for entry in ongoing] == [True, False]
    assert ongoing[0]["opponent"] == {"kind": "bot", "level": 1}
    assert ongoing[1]["opponent"] == {"kind": "anonymous"}
    assert ongoing[0]["ply"] == 0 and ongoing[0]["seat"] == 0
    (done,) = listed["finished"]
    result = final["outcome"]["result"]
    wanted = {"1-0": "won", "0-1": "lost"}.get(result, "drawn")
    assert done["id"] == finished["id"] and done["outcome"] == wanted
    assert set(done) == {"id", "variant", "seat", "created", "opponent", "outcome"}
    register(client, "Stranger")
    assert my_games(client) == {
        "player": my_games(client)["player"],
        "ratings": [],
        "ongoing": [],
        "finished": [],
    }


def test_a_players_page_shows_recent_games_and_nothing_private(client: TestClient) -> None:
    made = register(client, "Famous")
    game = client.post(
        "/api/games", json={"opponent": "bot", "level": 1}, headers=csrf(made)
    ).json()
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        play_to_the_end(ws, receive_state(ws), random.Random(4))
    client.cookies.clear()  # anyone may look
    page = client.get("/api/players/FAMOUS")
    assert page.status_code == 200
    body = page.json()
    assert body["player"] == {"name": "Famous", "kind": "account", "bot": False}
    (recent,) = body["games"]
    assert set(recent) == {"variant", "created", "opponent", "outcome"}
    assert body["ratings"] == [] and body["history"] == []  # no rated game yet
    assert game["id"] not in page.text and made["player"]["id"] not in page.text
    refusal(client.get("/api/players/nobody_at_all"), 404, "err_no_player")
    guest = as_guest(client, "Visitor")
    refusal(client.get(f"/api/players/{guest['player']['name']}"), 404, "err_no_player")
    assert client.get("/@/Famous").status_code == 200 and client.get("/me").status_code == 200


def test_no_players_route_gives_away_a_token_or_a_card(client: TestClient) -> None:
    client.cookies.clear()
    game = create(client, opponent="friend", first="me")
    ann = register(client, "Holder")
    client.post(f"/api/games/{game['id']}/claim", headers={**bearer(game["token"]), **csrf(ann)})
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        state = hello(ws, game["token"])
    bodies = [
        client.get("/api/me").text,
        client.get("/api/me/games").text,
        client.get("/api/players/Holder").text,
        client.post(
            f"/api/games/{game['id']}/claim", headers={**bearer(game["token"]), **csrf(ann)}
        ).text,
    ]
    bob = register(client, "Snooper")
    bodies += [
        client.get("/api/me/games").text,
        client.get(f"/api/games/{game['id']}").text,
        client.post(f"/api/games/{game['id']}/claim", headers=csrf(bob)).text,
    ]
    secrets = [game["token"], game["friend_token"], hash_token(game["token"])]
    secrets.append(hash_token(game["friend_token"]))
    for body in bodies:
        assert not any(secret in body for secret in secrets)
        assert '"hand"' not in body and '"seed"' not in body and '"secret"' not in body
    assert state["hand"]  # the seat's own state (by its token) has the hand, as ever


@pytest.mark.skipif(POSTGRES is None, reason=NO_POSTGRES)
def test_players_on_postgresql() -> None:
    with postgres_schemas() as new_schema, make_client(new_schema()) as client:
        made = register(client, "Kaede")
        client.cookies.clear()
        taken = client.post("/api/me/register", json={"name": "KAEDE", "password": PASSWORD})
        refusal(taken, 409, "err_name_taken")
        as_guest(client, "Kaede")
        use(client, None)
        game = create(client, opponent="friend", first="me")
        signed = client.post("/api/me/login", json={"name": "kaede", "password": PASSWORD})
        assert signed.json()["player"] == made["player"]
        path = f"/api/games/{game['id']}/claim"
        claimed = client.post(path, headers={**bearer(game["token"]), **csrf(signed.json())})
        assert claimed.json()["seat"] == 0
        listed = my_games(client)
        assert [entry["id"] for entry in listed["ongoing"]] == [game["id"]]
        assert listed["ongoing"][0]["your_turn"] is True
        assert client.get("/api/players/KAEDE").json()["player"]["name"] == "Kaede"


# -- in the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("web") / "games.sqlite3", free_port()) as running:
        yield running


@pytest.mark.e2e
@pytest.mark.skipif(not BROWSER, reason="needs Playwright and Debian's chromium")
def test_register_play_a_bot_and_find_the_game_in_my_games(page: Page, server: Server) -> None:
    sign_up(page, server, "Tester_1")
    assert "Tester_1" in page.inner_text("#account-button")
    page.check("input[name=opponent][value=bot]")
    page.click("#start-button")
    page.wait_for_selector(".game")
    game_id = page.url.split("/g/")[1].split("#")[0]
    page.click("#account-button")
    page.click("#account-my-games")
    page.wait_for_selector("[data-testid=my-games]")
    entry = page.locator("[data-testid=my-games] li", has=page.locator(f"[data-game='{game_id}']"))
    assert f"classic against Bot (level {DEFAULT_LEVEL})" in entry.inner_text()
    link = page.locator(f"[data-testid=my-games] a[data-game='{game_id}']")
    link.click()
    page.wait_for_selector(".game")
    assert page.url.endswith(f"/g/{game_id}")  # opened by the session: no token in sight
    page.wait_for_function("document.querySelector('.game').dataset.ply !== undefined")
    page.reload()
    page.wait_for_selector(".game")
