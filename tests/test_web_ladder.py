"""The bot ladder (issue 50, ``web/ladder/``): the pairing's properties (hypothesis),
joining and leaving through the API with their refusals, the public standings, and four
bridged bots (``hanamikoji bridge --ladder``) on a real server, paired and finishing
games."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2 as httpx
from bridged import BridgeProcess, bearer, bot_account, unique_name, wait_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import Server, app_client, free_port
from web_support import JSONDict, csrf, register

from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.ladder.model import (
    MAX_WINDOW,
    Candidate,
    acceptable,
    pairings,
    window,
)
from hanamikoji.interfaces.web.ladder.store import LadderStore

# -- the pairing's properties -------------------------------------------------------------

BOTS = [f"b{number}" for number in range(8)]
candidates = st.lists(
    st.builds(
        Candidate,
        st.sampled_from(BOTS),
        st.sampled_from(["classic", "french"]),
        st.floats(1000, 2200),
        st.integers(0, 200_000),
        st.none() | st.sampled_from(BOTS),
    ),
    max_size=20,
    unique_by=lambda c: (c.player_id, c.variant),
)
frees = st.dictionaries(st.sampled_from(BOTS), st.integers(0, 3))


@given(candidates, frees)
def test_every_pairing_is_acceptable_and_within_each_bots_cap(
    found: list[Candidate], free: dict[str, int]
) -> None:
    made = pairings(found, free)
    by_key = {(c.player_id, c.variant): c for c in found}
    counts: dict[str, int] = {}
    for pairing in made:
        one, other = (by_key[(player, pairing.variant)] for player in pairing.players)
        assert acceptable(one, other)  # a window, no rematch, not itself
        assert one.last_opponent != other.player_id and other.last_opponent != one.player_id
        for player in pairing.players:
            counts[player] = counts.get(player, 0) + 1
    assert all(count <= free.get(player, 0) for player, count in counts.items())
    per_variant = [(p.variant, player) for p in made for player in p.players]
    assert len(per_variant) == len(set(per_variant))  # once per variant per look


@given(candidates, frees)
def test_nobody_who_could_play_is_left_waiting(
    found: list[Candidate], free: dict[str, int]
) -> None:
    made = pairings(found, free)
    used: dict[str, int] = {}
    paired = set()
    for pairing in made:
        for player in pairing.players:
            used[player] = used.get(player, 0) + 1
            paired.add((player, pairing.variant))
    waiting = [
        c
        for c in found
        if (c.player_id, c.variant) not in paired
        and free.get(c.player_id, 0) - used.get(c.player_id, 0) > 0
    ]
    for one in waiting:
        for other in waiting:
            assert not acceptable(one, other), (one, other, made)


@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_window_widens_with_the_wait_up_to_its_most(first: int, second: int) -> None:
    shorter, longer = sorted((first, second))
    assert window(shorter) <= window(longer) <= MAX_WINDOW


# -- the API, in the test client ----------------------------------------------------------


def api_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"] == code, response.text


def token_of(client: object, body: JSONDict) -> str:
    made = client.post(  # type: ignore[attr-defined]
        "/api/tokens", json={"name": "bot", "scopes": ["bot:play"]}, headers=csrf(body)
    )
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


def test_a_bot_joins_and_leaves_the_ladder_and_the_standings_are_public() -> None:
    with app_client() as client:
        ann = register(client, "AnnBot")
        token = token_of(client, ann)
        client.cookies.clear()
        join = "/api/bot/ladder/join"
        api_error(client.post(join, headers=bearer(token)), 403, "err_not_bot")
        assert client.post("/api/bot/account/upgrade", headers=bearer(token)).status_code == 200
        api_error(client.post(join), 401, "err_token")
        for body in ({"variants": ["nope"]}, {"concurrency": 0}, {"concurrency": 99}):
            api_error(client.post(join, json=body, headers=bearer(token)), 400, "err_bad_field")
        api_error(client.post(join, json={"x": 1}, headers=bearer(token)), 400, "err_bad_field")
        placed = client.post(
            join, json={"variants": ["classic"], "concurrency": 2}, headers=bearer(token)
        )
        assert placed.status_code == 200, placed.text
        assert placed.json() == {"variants": ["classic"], "concurrency": 2}
        standings = client.get("/api/ladder?variant=classic").json()
        assert [line["name"] for line in standings["bots"]] == ["AnnBot"]
        line = standings["bots"][0]
        assert (line["games"], line["won"], line["online"]) == (0, 0, False)
        assert client.get("/api/ladder?variant=french").json()["bots"] == []
        unknown = client.get("/api/ladder?variant=nope")  # a page's route: the page's shape
        assert unknown.status_code == 400 and unknown.json()["code"] == "err_bad_field"
        leave = "/api/bot/ladder/leave"
        assert client.post(leave, headers=bearer(token)).json() == {"ok": True}
        api_error(client.post(leave, headers=bearer(token)), 404, "err_not_on_ladder")
        assert client.get("/api/ladder").json()["bots"] == []


# -- four bridged bots on a real server -------------------------------------------------------


def test_four_bridged_bots_on_the_ladder_are_paired_and_finish_games(tmp_path: Path) -> None:
    with Server(tmp_path / "games.sqlite", free_port()) as server:
        names = [unique_name("Lad") for _ in range(4)]
        tokens = [bot_account(server.url, name) for name in names]
        bridges = [
            BridgeProcess(
                server.url,
                token,
                tmp_path / name,
                ["--level", str(2 + number)],
                "--ladder",
                "--variants",
                "classic",
            )
            for number, (name, token) in enumerate(zip(names, tokens, strict=True))
        ]
        try:

            def standings() -> list[JSONDict]:
                found = httpx.get(f"{server.url}/api/ladder?variant=classic", timeout=30)
                lines: list[JSONDict] = found.json()["bots"]
                return lines

            wait_for(lambda: len(standings()) == 4, 60, "all four on the ladder")
            wait_for(
                lambda: all(line["games"] >= 2 for line in standings()),
                240,
                "two finished ladder games each",
            )
            lines = standings()
        finally:
            logs = [bridge.stop() for bridge in bridges]
        assert sorted(line["name"] for line in lines) == sorted(names)
        for line in lines:
            assert line["won"] + line["lost"] + line["drawn"] == line["games"]
            assert line["rating"] != 1500 or line["drawn"] == line["games"]
        for log in logs:
            assert "on the bot ladder" in log and "off the bot ladder" in log
            assert "record written" in log
        ladder = LadderStore(Store(server.db_url))
        ids = {member.player_id for member in ladder.members()}
        assert not ids  # each left on stop
        made = ladder.store
        with made.connection() as connection:
            rows = connection.exec_driver_sql(
                "SELECT player_0, player_1 FROM ladder_games ORDER BY made_ms"
            ).all()
        last: dict[str, str] = {}
        for first, second in rows:
            assert first != second
            # No immediate rematch: a bot's next ladder game is against someone else.
            assert last.get(first) != second and last.get(second) != first
            last[first], last[second] = second, first
        for bridge, log in zip(bridges, logs, strict=True):
            assert bridge.process.returncode == 0, log
        with made.connection() as connection:
            authorized = connection.exec_driver_sql(
                "SELECT count(*) FROM ladder_games JOIN games ON games.id = game_id"
                " WHERE games.rated"
            ).scalar()
        assert authorized == len(rows)


# -- fuzz: the join's body ---------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=8,
)
bodies = st.one_of(
    st.binary(max_size=200),
    st.builds(
        lambda variants, concurrency, extra: (
            {"variants": variants, "concurrency": concurrency} | extra
        ),
        json_values,
        json_values,
        st.dictionaries(st.sampled_from(["x", "variants"]), json_values, max_size=1),
    ).map(lambda body: json.dumps(body).encode()),
)


def test_any_join_body_is_taken_or_refused_with_a_code() -> None:
    with app_client() as client:
        bob = register(client, "BobBot")
        token = token_of(client, bob)
        client.cookies.clear()
        assert client.post("/api/bot/account/upgrade", headers=bearer(token)).status_code == 200
        headers = {**bearer(token), "Content-Type": "application/json"}

        @given(bodies)
        @settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
        def check(body: bytes) -> None:
            answer = client.post("/api/bot/ladder/join", content=body, headers=headers)
            assert answer.status_code in (200, 400), answer.text
            if answer.status_code == 400:
                assert answer.json()["error"].startswith("err_"), answer.text
            assert client.get("/api/ladder").status_code == 200

        check()
