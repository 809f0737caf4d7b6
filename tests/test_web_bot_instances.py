"""The bot API across two server instances on one PostgreSQL database (issue 50): a
bot's event stream and game stream on one instance, its opponent (and the game, made
where the challenge was accepted) on the other. The event stream gets the challenge
made on the other instance and the game's start and end; the game finishes, and both
game streams see every state, each line audited for hidden cards."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx2 as httpx
import pytest
import test_web_bot_api as api
from postgres_db import DRIVER_MISSING, needs_postgres
from serving import Server, free_port
from starlette.requests import Request
from web_support import instance, legal_texts

from hanamikoji.interfaces.web.db.api_tokens import ApiTokenStore
from hanamikoji.interfaces.web.db.database import Store
from hanamikoji.interfaces.web.db.games import GameStore
from hanamikoji.interfaces.web.db.tokens import hash_token
from hanamikoji.interfaces.web.http.bearer import Bearer, KeptOwners
from hanamikoji.interfaces.web.players.store import PlayerStore, new_player
from hanamikoji.interfaces.web.wire.refused import Refused

pytest.importorskip("psycopg", reason=DRIVER_MISSING)


pytestmark = needs_postgres


def test_a_bot_on_one_instance_plays_a_whole_game_against_one_on_the_other(
    schema: str, tmp_path: Path
) -> None:
    rng = random.Random(5)
    with (
        Server(tmp_path / "a.sqlite", free_port(), db_url=schema) as one,
        Server(tmp_path / "b.sqlite", free_port(), db_url=schema) as other,
    ):
        at_one = httpx.Client(base_url=one.url, timeout=30)
        at_other = httpx.Client(base_url=other.url, timeout=30)
        ann, bob = api.bot(at_one, "AnnBot"), api.bot(at_other, "BobBot")
        with api.streaming(f"{one.url}/api/stream/event", ann) as events:
            made = at_other.post(
                "/api/challenge/AnnBot",
                json={"variant": "classic", "clock": None, "rated": True, "first": "dest"},
                headers=api.bearer(bob),
            )
            assert made.status_code == 200, made.text
            challenge = made.json()["challenge"]
            shown = events.next("challenge")["challenge"]  # made on the other instance
            assert shown["id"] == challenge["id"] and shown["challenger"]["name"] == "BobBot"
            # Accepted on the other instance: the game is made (and its hub runs) there.
            accepted = at_other.post(
                f"/api/challenge/{challenge['id']}/accept", headers=api.bearer(ann)
            )
            assert accepted.status_code == 200, accepted.text
            start = events.next("gameStart")["game"]
            assert start["opponent"]["name"] == "BobBot"
            me = start["seat"]
            game_id = start["id"]
            stored = GameStore(Store(schema)).load(game_id)
            assert stored is not None
            decisions: list[str] = []
            with (
                api.streaming(f"{one.url}/api/bot/game/stream/{game_id}", ann) as first,
                api.streaming(f"{other.url}/api/bot/game/stream/{game_id}", bob) as second,
            ):
                streams = {me: first, 1 - me: second}
                clients = {me: at_one, 1 - me: at_other}
                tokens = {me: ann, 1 - me: bob}
                states = {seat: streams[seat].next("gameFull")["state"] for seat in (0, 1)}
                seen: dict[int, set[int]] = {seat: {states[seat]["ply"]} for seat in (0, 1)}
                while states[0]["outcome"] is None:
                    mover = states[0]["to_move"]
                    choice = rng.choice(legal_texts(states[mover]))
                    answer = clients[mover].post(
                        f"/api/bot/game/{game_id}/move",
                        json={"decision": choice},
                        headers=api.bearer(tokens[mover]),
                    )
                    assert answer.status_code == 200, (choice, answer.text)
                    decisions.append(choice)
                    for seat in (0, 1):  # every state, in order, on both instances
                        while states[seat]["ply"] < len(decisions):
                            line = streams[seat].next("gameState")
                            assert line["type"] == "gameState", line
                            assert line["state"]["ply"] - states[seat]["ply"] in (0, 1)
                            states[seat] = line["state"]
                            seen[seat].add(states[seat]["ply"])
                            api.seat_audit(states[seat], seat, stored, decisions)
                for seat in (0, 1):
                    assert streams[seat].next()["type"] == "_closed"
            assert states[0]["outcome"] == states[1]["outcome"]
            assert seen[0] == seen[1] == set(range(len(decisions) + 1))
            assert len(decisions) >= 12
            finish = events.next("gameFinish")["game"]
            assert finish["id"] == game_id


def test_a_token_kept_on_one_instance_follows_its_revocation_and_upgrade_on_the_other(
    schema: str,
) -> None:
    async def scenario() -> None:
        async with instance(schema) as one, instance(schema) as two:
            players = PlayerStore(one.store)
            ann = players.create_player(new_player("account", "Ann"), "hash")
            made, text = ApiTokenStore(one.store).create(ann.id, "engine", ("read",), 0)
            hashed = hash_token(text)
            # Kept for an hour: only the other instance's events can drop it.
            kept = KeptOwners(keep_s=3600)
            tokens = ApiTokenStore(two.store)
            bearer = Bearer(tokens, two.writer.call, two.now, two.listener, kept)
            header = (b"authorization", f"Bearer {text}".encode())
            request = Request({"type": "http", "headers": [header]})

            async def dropped() -> None:
                async with asyncio.timeout(10):
                    while kept.get(hashed) is not None:
                        await asyncio.sleep(0.01)

            assert (await bearer.owner(request, ("read",))).bot is False
            assert kept.get(hashed) is not None
            assert await one.writer.call(lambda: players.make_bot(ann.id))
            await dropped()
            assert (await bearer.owner(request, ("read",))).bot is True
            assert await one.writer.call(
                lambda: ApiTokenStore(one.store).revoke(ann.id, made.id, 1)
            )
            await dropped()
            with pytest.raises(Refused) as refused:
                await bearer.owner(request, ("read",))
            assert refused.value.key == "err_token"

    asyncio.run(scenario())
