"""Identity, settings, legacy properties and agent configuration through the API."""

from __future__ import annotations

from engram.domain.models import Role

from tests.integration.conftest import Api

U = "/v1/users/alice"


def test_profile_fields_are_set_cleared_and_agent_names_kept_per_agent(api: Api) -> None:
    a = api.key("acme", "jarvis-agent")
    b = api.key("acme", "other-agent")
    r = api.call("PATCH", f"{U}/profile", a, json_body={"name": "Alice", "nickname": "Al", "pronouns": "she/her"})
    assert r.status == 200
    assert r.json()["name"] == "Alice"
    api.call("PUT", f"{U}/profile/agent-name", a, json_body={"name": "Jarvis"})
    api.call("PUT", f"{U}/profile/agent-name", b, json_body={"name": "Friday"})
    r = api.call("PATCH", f"{U}/profile", b, json_body={"nickname": None})
    body = r.json()
    assert body["nickname"] is None
    assert body["name"] == "Alice"
    assert body["agentNames"] == {"jarvis-agent": "Jarvis", "other-agent": "Friday"}
    assert api.call("GET", f"{U}/profile", api.key("globex", "x")).json()["name"] is None


def test_settings_are_admin_controlled_and_honoured(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    writer = api.key("acme", "a")
    assert api.call("PATCH", f"{U}/settings", writer, json_body={"memoryEnabled": False}).status == 403
    r = api.call("PATCH", f"{U}/settings", admin, json_body={"allowedCategories": ["fact"], "retentionDays": 2})
    assert r.json()["allowedCategories"] == ["fact"]
    pref = {"key": "color", "value": "blue", "category": "preference"}
    assert api.call("PUT", f"{U}/memories", writer, json_body=pref).json()["code"] == "category_disabled_by_user"
    fact = api.call("PUT", f"{U}/memories", writer, json_body={"key": "city", "value": "Paris"}).json()["entry"]
    assert fact["expiresAt"] is not None
    r = api.call("PATCH", f"{U}/settings", admin, json_body={"allowedCategories": None, "retentionDays": None})
    assert r.json()["allowedCategories"] is None
    assert api.call("PUT", f"{U}/memories", writer, json_body=pref).status == 200


def test_legacy_properties_map_onto_global_entries(api: Api) -> None:
    a = api.key("acme", "a")
    b = api.key("acme", "b")
    r = api.call("PATCH", f"{U}/properties", a, json_body={"properties": {"language": "German", "tz": "CET"}})
    assert r.json()["properties"] == {"language": "German", "tz": "CET"}
    # Every agent sees them, as global entries of category "legacy"
    entries = api.call("GET", f"{U}/memories/visible", b).json()["items"]
    assert {(e["key"], e["visibility"], e["category"]) for e in entries} == {
        ("language", "global", "legacy"),
        ("tz", "global", "legacy"),
    }
    api.call("PATCH", f"{U}/properties", b, json_body={"properties": {"language": "French"}})
    assert api.call("GET", f"{U}/properties", a).json()["properties"] == {"language": "French", "tz": "CET"}
    r = api.call("DELETE", f"{U}/properties", a, query="key=tz")
    assert r.json()["properties"] == {"language": "French"}
    assert api.call("DELETE", f"{U}/properties", a, query="key=language").json()["properties"] == {}
    bad = api.call("PATCH", f"{U}/properties", a, json_body={"properties": {"password": "hunter2"}})
    assert bad.json()["code"] == "sensitive_data"


def test_agent_config_defaults_edits_and_visibility(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    a = api.key("acme", "a")
    cfg = api.call("GET", "/v1/agents/a/config", a).json()
    assert cfg["userMemoryConfig"]["maxEntriesPerUser"] == 500
    assert cfg["userMemoryConfig"]["recallOrder"] == "most_recent"
    assert cfg["userMemoryConfig"]["onCapReached"] == "evict_oldest"
    assert cfg["userMemoryConfig"]["guardrails"] == {
        "maxKeyLength": 100,
        "maxValueLength": 1000,
        "maxWritesPerTurn": 10,
        "allowedCategories": ["preference", "fact", "context"],
    }
    assert cfg["userMemoryConfig"]["dreamConfig"]["pruneStaleAfterDays"] == 90
    assert api.call("GET", "/v1/agents/b/config", a).status == 403
    cfg["userMemoryConfig"]["maxRecallEntries"] = 2
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    for i in range(3):
        api.call("PUT", f"{U}/memories", a, json_body={"key": f"k{i}", "value": "v"})
    assert len(api.call("GET", f"{U}/memories/visible", a).json()["items"]) == 2
    bad = api.call("PUT", "/v1/agents/a/config", admin, json_body={"userMemoryConfig": {"maxEntriesPerUser": 0}})
    assert bad.status == 422
    assert api.call("GET", "/v1/me", a).json() == {
        "tenantId": "acme",
        "agentId": "a",
        "roles": ["writer"],
        "groupIds": [],
        "keyId": api.engram.keys.authenticate(a).key_id,
    }


def test_most_accessed_order_and_pagination(api: Api) -> None:
    a = api.key("acme", "a")
    ids = [
        api.call("PUT", f"{U}/memories", a, json_body={"key": f"k{i}", "value": "v"}).json()["entry"]["id"]
        for i in range(5)
    ]
    api.engram.store.record_access("acme", "alice", [ids[1], ids[1], ids[3]], api.engram.clock.now())
    api.engram.store.record_access("acme", "alice", [ids[1]], api.engram.clock.now())
    items = api.call("GET", f"{U}/memories/visible", a, query="order=most_accessed&limit=2").json()
    assert [e["id"] for e in items["items"]] == [ids[1], ids[3]]
    seen, cursor = [], None
    while True:
        q = "limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = api.call("GET", f"{U}/memories", a, query=q).json()
        seen += [e["id"] for e in page["items"]]
        cursor = page["nextCursor"]
        if not cursor:
            break
    assert seen == list(reversed(ids))
