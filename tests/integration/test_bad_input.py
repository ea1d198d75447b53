"""Bad input gets a 4xx with a stable error code and an actionable message, never a 5xx."""

from __future__ import annotations

import pytest
from engram.domain.agent_config import AgentConfig, OnCapReached, UserMemoryConfig
from engram.domain.models import Role

from tests.integration.conftest import Api

BASE = "/v1/users/alice/memories"
GOOD = {"key": "favorite_color", "value": "blue", "category": "preference"}


def _expect(reply, status: int, code: str) -> dict:
    assert reply.status == status, reply.body
    body = reply.json()
    assert body["code"] == code
    assert body["message"]
    assert set(body) == {"code", "message", "details"}
    return body


def test_missing_key_is_401(api: Api) -> None:
    _expect(api.call("PUT", BASE, None, json_body=GOOD), 401, "unauthenticated")
    _expect(api.call("GET", BASE, "egm_0123456789abcdef_" + "x" * 43), 401, "unauthenticated")
    _expect(api.call("GET", BASE, "not-a-key"), 401, "unauthenticated")


def test_revoked_key_is_401(api: Api) -> None:
    record, key = api.engram.keys.create("acme", "a", frozenset({Role.WRITER}))
    assert api.call("GET", BASE, key).status == 200
    api.engram.keys.revoke(record.key_id)
    _expect(api.call("GET", BASE, key), 401, "unauthenticated")


def test_wrong_role_is_403(api: Api) -> None:
    viewer = api.key("acme", "reader", Role.VIEWER)
    writer = api.key("acme", "writer", Role.WRITER)
    body = _expect(api.call("PUT", BASE, viewer, json_body=GOOD), 403, "forbidden")
    assert body["details"]["requiredRole"] == "writer"
    _expect(api.call("DELETE", "/v1/users/alice", writer, query="confirm=CONFIRM"), 403, "forbidden")
    _expect(api.call("GET", "/v1/users/alice/export", writer), 403, "forbidden")
    _expect(api.call("PUT", "/v1/agents/writer/config", writer, json_body={}), 403, "forbidden")
    assert api.call("GET", BASE, viewer).status == 200


def test_oversize_key_and_value_break_the_guardrails(api: Api) -> None:
    key = api.key("acme", "a")
    body = _expect(api.call("PUT", BASE, key, json_body={**GOOD, "key": "k" * 101}), 422, "key_too_long")
    assert body["details"] == {"maxKeyLength": 100, "length": 101}
    body = _expect(api.call("PUT", BASE, key, json_body={**GOOD, "value": "v" * 1001}), 422, "value_too_long")
    assert body["details"]["maxValueLength"] == 1000


def test_guardrails_follow_the_agent_configuration(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    config = AgentConfig.model_validate({"userMemoryConfig": {"guardrails": {"maxKeyLength": 5}}}).model_dump(
        by_alias=True
    )
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=config).status == 200
    key = api.key("acme", "a")
    _expect(api.call("PUT", BASE, key, json_body={**GOOD, "key": "sixsix"}), 422, "key_too_long")
    assert api.call("PUT", BASE, key, json_body={**GOOD, "key": "five5"}).status == 200


def test_unknown_category_is_refused(api: Api) -> None:
    body = _expect(
        api.call("PUT", BASE, api.key("acme", "a"), json_body={**GOOD, "category": "gossip"}),
        422,
        "category_not_allowed",
    )
    assert body["details"]["allowedCategories"] == ["preference", "fact", "context"]


def test_too_many_writes_in_one_turn_is_429(api: Api) -> None:
    key = api.key("acme", "a")
    turn = {"Engram-Turn-Id": "turn-1"}
    for i in range(10):
        reply = api.call("PUT", BASE, key, json_body={**GOOD, "key": f"k{i}"}, headers=turn)
        assert reply.status == 200, reply.body
    _expect(api.call("PUT", BASE, key, json_body={**GOOD, "key": "k10"}, headers=turn), 429, "too_many_writes")
    batch = {"entries": [{**GOOD, "key": f"b{i}"} for i in range(11)]}
    _expect(api.call("POST", f"{BASE}/batch", key, json_body=batch), 429, "too_many_writes")
    assert api.call("PUT", BASE, key, json_body={**GOOD, "key": "k10"}, headers={"Engram-Turn-Id": "t2"}).status == 200


@pytest.mark.parametrize(
    ("key", "value", "rule"),
    [
        ("card", "4111 1111 1111 1111", "payment_card"),
        ("note", "my card is 4111-1111-1111-1111", "payment_card"),
        ("password", "hunter2", "secret"),
        ("note", "my password is hunter2", "secret"),
        ("ssn", "123-45-6789", "government_id"),
        ("bank", "GB82 WEST 1234 5698 7654 32", "bank_account"),
        # (a key of AWS's shape; AWS's documented AKIA...EXAMPLE keys grant nothing and pass)
        ("aws", "AKIAQ3PLRT7XKW2M5DNB", "secret"),
    ],
)
def test_sensitive_values_are_refused_naming_the_rule(api: Api, key: str, value: str, rule: str) -> None:
    body = _expect(
        api.call("PUT", BASE, api.key("acme", "a"), json_body={"key": key, "value": value}), 422, "sensitive_data"
    )
    assert body["details"] == {"rule": rule}
    assert value not in str(body)


def test_a_providers_documented_example_key_is_stored(api: Api) -> None:
    # Policy (docs/security.md): a key a provider publishes as an example grants nothing.
    reply = api.call("PUT", BASE, api.key("acme", "a"), json_body={"key": "aws_docs", "value": "AKIAIOSFODNN7EXAMPLE"})
    assert reply.status == 200, reply.body


def test_malformed_json_is_400(api: Api) -> None:
    _expect(api.call("PUT", BASE, api.key("acme", "a"), body="{not json"), 400, "malformed_json")


def test_unknown_and_wrongly_typed_fields_are_422(api: Api) -> None:
    key = api.key("acme", "a")
    body = _expect(api.call("PUT", BASE, key, json_body={**GOOD, "colour": "x"}), 422, "validation_error")
    assert body["details"]["errors"][0]["field"] == "colour"
    _expect(api.call("PUT", BASE, key, json_body={**GOOD, "importance": 101}), 422, "validation_error")
    _expect(api.call("PUT", BASE, key, json_body={**GOOD, "visibility": "public"}), 422, "validation_error")
    _expect(api.call("PUT", BASE, key, json_body={"value": "no key"}), 422, "validation_error")
    _expect(api.call("PUT", "/v1/users/bad%20user!/memories", key, json_body=GOOD), 422, "validation_error")
    _expect(api.call("GET", BASE, key, query="limit=0"), 422, "validation_error")
    _expect(api.call("GET", BASE, key, query="cursor=%%%"), 422, "validation_error")


def test_another_tenants_ids_are_not_found(api: Api) -> None:
    mine = api.key("acme", "a")
    theirs = api.key("globex", "a", Role.ADMIN)
    entry = api.call("PUT", BASE, mine, json_body=GOOD).json()["entry"]
    for method, path in (
        ("GET", f"{BASE}/{entry['id']}"),
        ("DELETE", f"{BASE}/{entry['id']}"),
        ("GET", f"{BASE}/{entry['id']}/history"),
    ):
        _expect(api.call(method, path, theirs), 404, "not_found")
    _expect(api.call("POST", f"{BASE}/{entry['id']}/restore", theirs, json_body={"version": 1}), 404, "not_found")
    assert api.call("GET", f"{BASE}/{entry['id']}", mine).status == 200


def test_another_agents_self_entry_is_not_found(api: Api) -> None:
    entry = api.call("PUT", BASE, api.key("acme", "a"), json_body=GOOD).json()["entry"]
    other = api.key("acme", "b")
    _expect(api.call("GET", f"{BASE}/{entry['id']}", other), 404, "not_found")
    _expect(api.call("DELETE", f"{BASE}/{entry['id']}", other), 404, "not_found")


def test_group_rules(api: Api) -> None:
    key = api.key("acme", "a", groups=("team",))
    lone = api.key("acme", "b")
    _expect(api.call("PUT", BASE, lone, json_body={**GOOD, "visibility": "group"}), 422, "validation_error")
    _expect(
        api.call("PUT", BASE, key, json_body={**GOOD, "visibility": "group", "groupIds": ["other"]}), 403, "forbidden"
    )
    _expect(api.call("PUT", BASE, key, json_body={**GOOD, "groupIds": ["team"]}), 422, "validation_error")
    assert api.call("PUT", BASE, key, json_body={**GOOD, "visibility": "group"}).status == 200


def test_capacity_reject_is_409(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    cfg = AgentConfig(user_memory_config=UserMemoryConfig(max_entries_per_user=2, on_cap_reached=OnCapReached.REJECT))
    api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg.model_dump(by_alias=True, mode="json"))
    key = api.key("acme", "a")
    for i in range(2):
        assert api.call("PUT", BASE, key, json_body={**GOOD, "key": f"k{i}"}).status == 200
    _expect(api.call("PUT", BASE, key, json_body={**GOOD, "key": "k2"}), 409, "capacity_reached")
    # Updating an existing memory is still allowed at capacity.
    assert api.call("PUT", BASE, key, json_body={**GOOD, "key": "k0", "value": "red"}).status == 200


def test_restore_of_a_missing_version_is_404(api: Api) -> None:
    key = api.key("acme", "a")
    entry = api.call("PUT", BASE, key, json_body=GOOD).json()["entry"]
    _expect(api.call("POST", f"{BASE}/{entry['id']}/restore", key, json_body={"version": 9}), 404, "not_found")
    _expect(api.call("POST", f"{BASE}/{entry['id']}/restore", key, json_body={"version": 0}), 422, "validation_error")


def test_erase_needs_confirmation(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    _expect(api.call("DELETE", "/v1/users/alice", admin), 400, "confirmation_required")
    _expect(api.call("DELETE", "/v1/users/alice", admin, query="confirm=yes"), 400, "confirmation_required")


def test_memory_off_refuses_writes(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    assert api.call("PATCH", "/v1/users/alice/settings", admin, json_body={"memoryEnabled": False}).status == 200
    _expect(api.call("PUT", BASE, api.key("acme", "a"), json_body=GOOD), 403, "memory_disabled")


def test_oversize_body_is_413_and_unknown_route_404(api: Api) -> None:
    key = api.key("acme", "a")
    big = {**GOOD, "statement": "x" * 300_000}
    _expect(api.call("PUT", BASE, key, json_body=big), 413, "payload_too_large")
    _expect(api.call("GET", "/v1/nothing-here", key), 404, "route_not_found")
