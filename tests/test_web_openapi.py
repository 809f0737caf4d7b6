"""The bot API's OpenAPI document (issue 50): served at ``/api/openapi.json``, built from
the routes' Structs, naming every route of the bot API and the tokens; and schemathesis
(a property-based API fuzzer) run against a live server with a bot's token and a
session: no answer is a server error, every answer conforms to its documented status,
content type, headers and schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from serving import Server, app_client, app_config, free_port
from web_support import PASSWORD

from hanamikoji.interfaces.web.api.openapi import OPERATIONS, openapi_document
from hanamikoji.interfaces.web.app import create_app

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_headers_conformance,response_schema_conformance,negative_data_rejection"
)


def refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"]} if "$ref" in node else set()
        for value in node.values():
            found |= refs(value)
        return found
    if isinstance(node, list):
        return set().union(*map(refs, node)) if node else set()
    return set()


def test_the_document_is_served_and_names_every_route_of_the_api() -> None:
    with app_client() as client:
        answer = client.get("/api/openapi.json")
        assert answer.status_code == 200
        document = answer.json()
    assert document == json.loads(json.dumps(openapi_document()))
    assert document["openapi"] == "3.1.0"
    schemas = document["components"]["schemas"]
    for ref in refs(document):
        assert ref.removeprefix("#/components/schemas/") in schemas, ref
    # Every route of the bot API and of the tokens is in it, and nothing else.
    app = create_app(app_config())
    paths = {getattr(route, "path", ""): route for route in app.routes}
    served = {
        (method.lower(), path)
        for path, route in paths.items()
        if path.startswith(("/api/bot/", "/api/stream/", "/api/challenge/"))
        or path in ("/api/account", "/api/tokens", "/api/tokens/{token_id}")
        for method in getattr(route, "methods", set()) - {"HEAD"}
    }
    documented = {
        (op.method, op.path.replace("{decision}", "{decision:path}")) for op in OPERATIONS
    }
    assert documented == served
    state = schemas["SeatState"]["properties"]
    assert "hand" in state and not {"hands", "deck_cards", "opponent_hand"} & set(state)


@pytest.mark.skipif(not SCHEMATHESIS.exists(), reason="needs schemathesis (the dev extra)")
def test_schemathesis_finds_no_server_error_and_no_answer_off_its_schema(tmp_path: Path) -> None:
    with Server(tmp_path / "games.sqlite", free_port()) as server:
        http = httpx.Client(base_url=server.url, timeout=30)
        made = http.post("/api/me/register", json={"name": "FuzzBot", "password": PASSWORD})
        assert made.status_code == 201, made.text
        csrf = made.json()["csrf"]
        cookie = http.cookies["hanamikoji_session"]
        token = http.post(
            "/api/tokens",
            json={"name": "fuzz", "scopes": ["bot:play", "read"]},
            headers={"X-CSRF-Token": csrf},
        ).json()["token"]
        upgraded = http.post(
            "/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"}
        )
        assert upgraded.status_code == 200
        config = tmp_path / "schemathesis.toml"
        config.write_text(
            f'[auth.openapi.bearer]\nbearer = "{token}"\n'
            f'[auth.openapi.session]\napi_key = "{cookie}"\n'
            f'[auth.openapi.csrf]\napi_key = "{csrf}"\n'
            # A body over the size limit is refused 413 (err_too_long), documented too.
            "[checks.negative_data_rejection]\n"
            "expected-statuses = [400, 401, 403, 404, 405, 409, 413, 415, 422, 429]\n"
        )
        command = [
            str(SCHEMATHESIS),
            "--config-file",
            str(config),
            "run",
            f"{server.url}/api/openapi.json",
            "--checks",
            CHECKS,
            "--exclude-path-regex",
            "/stream",  # endless NDJSON: tests/test_web_bot_api.py reads them
            "--max-examples",
            "12",
            "--seed",
            "50",
            "--no-shrink",
            "--generation-database",
            "none",
            "--phases",
            "examples,coverage,fuzzing",
            "--no-color",
        ]
        ran = subprocess.run(
            command, capture_output=True, text=True, timeout=300, cwd=tmp_path, check=False
        )
        assert ran.returncode == 0, ran.stdout[-30000:] + ran.stderr[-2000:]
        # The bot's token still opens the API: nothing the fuzzer sent harmed it.
        account = http.get("/api/account", headers={"Authorization": f"Bearer {token}"})
        assert account.status_code == 200 and account.json()["bot"] is True


def test_a_path_no_api_route_takes_is_refused_in_the_apis_form() -> None:
    with app_client() as client:
        for path in ("/api/bot/game/x/move/a%0Ab", "/api/bot/nothing/here", "/api/challenge/a/b/c"):
            answer = client.post(path)
            assert answer.status_code == 404, path
            assert answer.json()["error"] == "err_no_route"
        wrong = client.get("/api/bot/game/x/resign")
        assert wrong.status_code == 405 and wrong.json()["error"] == "err_no_route"
        assert "allow" in wrong.headers
        elsewhere = client.get("/api/nothing/here")
        assert elsewhere.status_code == 404 and elsewhere.text == "Not Found"
