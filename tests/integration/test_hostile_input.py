"""What an outside attacker and a fuzzer sent: every one gets a 4xx with a stable code.

Each case here once answered 500 (issue 22, item 1). The request-body routes are read
from the OpenAPI document, so a route added later is covered without editing this file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from engram.domain.models import Role

from tests.integration.conftest import Api

BASE = "/v1/users/alice/memories"
GOOD = {"key": "favorite_color", "value": "blue", "category": "preference"}
DOC = json.loads((Path(__file__).parents[2] / "docs" / "openapi.json").read_text())
HUGE = [2**63, 2**64, 10**160]


def _expect(reply: Any, status: int, code: str) -> dict[str, Any]:
    assert reply.status == status, reply.body
    body = reply.json()
    assert body["code"] == code, body
    assert set(body) == {"code", "message", "details"}
    return dict(body)


def _body_routes() -> list[tuple[str, str]]:
    out = []
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "requestBody" in op:
                # Any placeholder is fine: the media type is refused before routing to a handler.
                concrete = re.sub(r"\{[^}]+\}", "x1", path)
                out.append((method.upper(), concrete))
    return sorted(out)


@pytest.mark.parametrize("media_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_body_that_is_not_json_is_415_on_every_route(api: Api, media_type: str) -> None:
    # Given an admin key (so no role check answers first) and every route that takes a body
    admin = api.key("acme", "root", Role.ADMIN)
    routes = _body_routes()
    assert len(routes) >= 18
    for method, path in routes:
        # When a well-formed JSON body arrives labelled as another media type
        reply = api.call(method, path, admin, body=json.dumps(GOOD), headers={"content-type": media_type})
        # Then it is refused as such, and the reply says what to send instead
        body = _expect(reply, 415, "unsupported_media_type")
        assert body["details"]["accepted"] == ["application/json"]


def test_json_with_a_charset_and_without_a_content_type_are_still_taken(api: Api) -> None:
    key = api.key("acme", "a")
    h = {"content-type": "application/json; charset=utf-8"}
    assert api.call("PUT", BASE, key, json_body=GOOD, headers=h).status == 200
    reply = api.gateway.handle(
        "PUT", BASE, headers={"authorization": f"Bearer {key}"}, body=json.dumps({**GOOD, "key": "other"})
    )
    assert reply.status == 200, reply.body


@pytest.mark.parametrize("importance", ["1e160", str(10**160), "-1e160", "1e-160"])
def test_an_absurd_importance_is_422(api: Api, importance: str) -> None:
    key = api.key("acme", "a")
    body = '{"key": "k", "value": "v", "importance": ' + importance + "}"
    _expect(api.call("PUT", BASE, key, body=body), 422, "validation_error")
    batch = '{"items": [{"key": "k", "value": "v", "importance": ' + importance + "}]}"
    _expect(api.call("POST", f"{BASE}/batch", key, body=batch), 422, "validation_error")


@pytest.mark.parametrize("version", HUGE)
def test_a_block_version_beyond_any_integer_is_422(api: Api, version: int) -> None:
    key = api.key("acme", "a")
    assert api.call("PUT", "/v1/users/alice/blocks/human", key, json_body={"values": {"name": "Al"}}).status == 200
    restore = api.call("POST", "/v1/users/alice/blocks/human/restore", key, body=f'{{"version": {version}}}')
    body = _expect(restore, 422, "validation_error")
    assert body["details"]["errors"][0]["field"] == "version"
    guarded = f'{{"values": {{"name": "Bo"}}, "expectedVersion": {version}}}'
    _expect(api.call("PUT", "/v1/users/alice/blocks/human", key, body=guarded), 422, "validation_error")
    edit = f'{{"set": {{"name": "Bo"}}, "expectedVersion": {version}}}'
    _expect(api.call("PATCH", "/v1/users/alice/blocks/human", key, body=edit), 422, "validation_error")


@pytest.mark.parametrize("version", HUGE)
def test_a_memory_version_beyond_any_integer_is_422(api: Api, version: int) -> None:
    key = api.key("acme", "a")
    entry = api.call("PUT", BASE, key, json_body=GOOD).json()["entry"]
    reply = api.call("POST", f"{BASE}/{entry['id']}/restore", key, body=f'{{"version": {version}}}')
    _expect(reply, 422, "validation_error")


def test_the_largest_accepted_version_is_simply_not_found(api: Api) -> None:
    key = api.key("acme", "a")
    assert api.call("PUT", "/v1/users/alice/blocks/human", key, json_body={"values": {"name": "Al"}}).status == 200
    top = 2**53 - 1
    reply = api.call("POST", "/v1/users/alice/blocks/human/restore", key, json_body={"version": top})
    _expect(reply, 404, "not_found")


def test_writes_and_searches_say_whether_the_index_has_caught_up(api: Api) -> None:
    # Given a write the embedded store indexes as it commits
    key = api.key("acme", "a")
    written = api.call("PUT", BASE, key, json_body={**GOOD, "value": "zqbcx blue"}).json()
    assert written["searchable"] is True
    found = api.call("GET", f"{BASE}/search", key, query="q=zqbcx").json()
    assert found["indexBehind"] == 0
    assert [h["entry"]["id"] for h in found["items"]] == [written["entry"]["id"]]
    # When changes wait in the outbox (as after a crash between commit and indexing)
    store = api.engram.store
    with store.db.tx() as conn:
        conn.execute(
            "INSERT INTO outbox (tenant_id, user_id, entry_id) VALUES (?,?,?)",
            ("acme", "alice", written["entry"]["id"]),
        )
    # Then a search says by how much it is behind, for this user only
    assert api.call("GET", f"{BASE}/search", key, query="q=zqbcx").json()["indexBehind"] == 1
    assert api.call("GET", "/v1/users/bob/memories/search", key, query="q=zqbcx").json()["indexBehind"] == 0
    # And once the index catches up it says so again
    api.engram.sync_index()
    assert api.call("GET", f"{BASE}/search", key, query="q=zqbcx").json()["indexBehind"] == 0
