"""Memory semantics a user can trust (issue #17): what is kept, for how long, for whom.

Each test drives the API through the same gateway and handler ``engram serve`` uses,
with a hand-moved clock so that expiry and validity can be checked to the minute.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from engram.domain.models import Role

from tests.integration.conftest import Api
from tests.support import engram_for

U = "/v1/users/alice"


def _put(api: Api, key: str, body: dict[str, object], user: str = U) -> dict[str, object]:
    r = api.call("PUT", f"{user}/memories", key, json_body=body)
    assert r.status == 200, r.body
    return dict(r.json())


# -- item 4: a DELETE of properties never wipes everything by accident ----------------
def test_deleting_properties_needs_explicit_keys_and_delete_all_needs_confirmation(api: Api) -> None:
    writer = api.key("acme", "a")
    admin = api.key("acme", "root", Role.ADMIN)
    api.call("PATCH", f"{U}/properties", writer, json_body={"properties": {"lang": "de", "tz": "CET"}})
    # Given no key, or a misspelt parameter, nothing is deleted and the caller is told why
    for query in ("", "keys=lang"):
        r = api.call("DELETE", f"{U}/properties", writer, query=query)
        assert r.status == 422, r.body
        assert r.json()["details"]["field"] == "key"
    assert api.call("GET", f"{U}/properties", writer).json()["properties"] == {"lang": "de", "tz": "CET"}
    # Delete-all is the admin's confirmed act
    assert api.call("DELETE", f"{U}/properties", writer, query="all=true&confirm=CONFIRM").status == 403
    assert api.call("DELETE", f"{U}/properties", admin, query="all=true").json()["code"] == "confirmation_required"
    r = api.call("DELETE", f"{U}/properties", admin, query="all=true&confirm=CONFIRM")
    assert r.status == 200 and r.json()["properties"] == {}


# -- item 5: a visibility change is a change --------------------------------------------
def test_same_value_with_another_visibility_changes_who_sees_it(api: Api) -> None:
    a = api.key("acme", "a", groups=("team",))
    b = api.key("acme", "b", groups=("team",))
    first = _put(api, a, {"key": "diet", "value": "vegan"})["entry"]
    # When the same value is written again for the group
    r = _put(api, a, {"key": "diet", "value": "vegan", "visibility": "group"})
    # Then it is an update, the entry is now the group's, and the other member sees it
    assert r["outcome"] == "updated"
    assert r["entry"]["visibility"] == "group" and r["entry"]["groupIds"] == ["team"]
    assert [e["key"] for e in api.call("GET", f"{U}/memories/visible", b).json()["items"]] == ["diet"]
    # And narrowing it back hides it again
    assert _put(api, a, {"key": "diet", "value": "vegan"})["entry"]["visibility"] == "self"
    assert api.call("GET", f"{U}/memories/visible", b).json()["items"] == []
    history = api.call("GET", f"{U}/memories/{first['id']}/history", a).json()["items"]
    assert [h["entry"]["visibility"] for h in history][:2] in (["self", "group"], ["group", "self"])


# -- item 1: only categories with a configured TTL expire -------------------------------
def test_only_categories_with_a_configured_ttl_expire(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    a = api.key("acme", "a")
    cfg = api.call("GET", "/v1/agents/a/config", a).json()
    cfg["userMemoryConfig"]["guardrails"]["allowedCategories"] = ["preference", "fact", "context", "note", "feeling"]
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    context = _put(api, a, {"key": "project", "value": "engram", "category": "context"})["entry"]
    note = _put(api, a, {"key": "reminder", "value": "call mum", "category": "note"})["entry"]
    feeling = _put(api, a, {"key": "mood", "value": "tired", "category": "feeling"})["entry"]
    assert context["expiresAt"] is None and note["expiresAt"] is None and feeling["expiresAt"] is not None
    # When a month passes
    api.engram.clock.advance(timedelta(days=30))  # type: ignore[attr-defined]
    # Then the unconfigured categories are still there; only the feeling expired
    keys = {e["key"] for e in api.call("GET", f"{U}/memories/visible", a).json()["items"]}
    assert keys == {"project", "reminder"}
    # And the table is in the agent's config (defaults: feelings 6 hours, events 7 days)
    assert cfg["userMemoryConfig"]["ttlHours"] == {"event": 168.0, "feeling": 6.0}
    # And an admin's TTL for a category is honoured from then on
    cfg["userMemoryConfig"]["ttlHours"] = {"note": 24}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    later = _put(api, a, {"key": "errand", "value": "buy milk", "category": "note"})["entry"]
    assert later["expiresAt"] is not None
    api.engram.clock.advance(timedelta(days=2))  # type: ignore[attr-defined]
    keys = {e["key"] for e in api.call("GET", f"{U}/memories/visible", a).json()["items"]}
    assert "errand" not in keys and "project" in keys
    bad = api.call("PUT", "/v1/agents/a/config", admin, json_body={"userMemoryConfig": {"ttlHours": {"note": 0}}})
    assert bad.status == 422


# -- item 2: expiry runs from when the fact was observed ---------------------------------
def test_ttl_runs_from_the_observation_time_not_the_ingestion_time(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    cfg = {"userMemoryConfig": {"guardrails": {"allowedCategories": ["fact", "feeling", "event"]}}}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    a = api.key("acme", "a")
    now = api.engram.clock.now()
    three_days_ago = (now - timedelta(days=3)).isoformat()
    # Given a feeling and an event told three days ago and only stored now
    tired = _put(api, a, {"key": "mood", "value": "tired", "category": "feeling", "sourceTime": three_days_ago})
    trip = _put(api, a, {"key": "trip", "value": "Rome", "category": "event", "sourceTime": three_days_ago})
    # Then the feeling is already over and the event has four days left, not seven
    assert _ts(tired["entry"]["expiresAt"]) == now - timedelta(days=3) + timedelta(hours=6)
    assert _ts(trip["entry"]["expiresAt"]) == now - timedelta(days=3) + timedelta(days=7)
    keys = {e["key"] for e in api.call("GET", f"{U}/memories/visible", a).json()["items"]}
    assert keys == {"trip"}
    recalled = api.call("POST", f"{U}/recall", a, json_body={"message": "how am I feeling, am I tired?"}).json()
    assert "tired" not in json.dumps(recalled)
    # And a message's own timestamp is the observation time for what is extracted from it
    msg = {"id": "m1", "role": "user", "content": "I'm feeling exhausted today.", "timestamp": three_days_ago}
    assert api.call("POST", f"{U}/threads/t1/messages", a, json_body={"messages": [msg]}).status in (200, 201, 202)
    api.engram.sync_index()  # type: ignore[attr-defined]
    stored = api.call("GET", f"{U}/export", admin).json()["entries"]
    feelings = [e for e in stored if e["category"] == "feeling"]
    assert feelings, stored
    assert all(_ts(e["expiresAt"]) <= now - timedelta(days=3) + timedelta(hours=6) for e in feelings)


def _ts(value: object) -> datetime:
    return datetime.fromisoformat(str(value))


# -- item 11: a poison timestamp is refused, and a bad stored row harms nobody else ---
def test_an_unreadable_stored_row_never_takes_down_other_users_or_a_restart(api: Api, tmp_path: Path) -> None:
    a = api.key("acme", "a")
    other = api.key("globex", "b")
    refused = api.call(
        "PUT", f"{U}/memories", a, json_body={"key": "k", "value": "v", "sourceTime": "0999-01-01T00:00:00Z"}
    )
    assert refused.status == 422 and "sourceTime" in refused.json()["message"]
    # Given a row as an older version wrote it (a three-digit year no parser reads back)
    entry = _put(api, a, {"key": "k", "value": "v", "sourceTime": "2020-01-01T00:00:00Z"})["entry"]
    conn = sqlite3.connect(tmp_path / "engram.db")
    conn.execute(
        "UPDATE entries SET body = replace(body, '2020-01-01T00:00:00.000000Z', '999-01-01T00:00:00.000000Z') WHERE id = ?",
        (entry["id"],),
    )
    conn.execute("INSERT INTO outbox (tenant_id, user_id, entry_id) VALUES ('acme', 'alice', ?)", (entry["id"],))
    conn.commit()
    conn.close()
    # Then other users and tenants keep writing and searching
    assert _put(api, other, {"key": "city", "value": "Paris"}, user="/v1/users/bob")["outcome"] == "created"
    assert _put(api, a, {"key": "city", "value": "Rome"}, user="/v1/users/carol")["outcome"] == "created"
    api.engram.sync_index()  # type: ignore[attr-defined]
    assert api.call("GET", "/v1/users/bob/memories/search", other, query="q=Paris").status == 200
    # And the service starts again on the same data
    again = engram_for(tmp_path)
    again.sync_index()
    assert again.store.get_entry("globex", "bob", "nope") is None


# -- item 3: eviction never touches, nor reveals, what the writer cannot see -----------
def test_evict_oldest_evicts_only_the_writers_own_entries(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    beta = api.key("acme", "beta")
    gamma = api.key("acme", "gamma")
    cap = {"userMemoryConfig": {"maxEntriesPerUser": 2, "onCapReached": "evict_oldest"}}
    assert api.call("PUT", "/v1/agents/gamma/config", admin, json_body=cap).status == 200
    secret = _put(api, beta, {"key": "diary", "value": "private thoughts"})["entry"]
    first = _put(api, gamma, {"key": "g1", "value": "one"})["entry"]
    # When gamma writes past the cap
    r = _put(api, gamma, {"key": "g2", "value": "two"})
    # Then gamma's own oldest entry made room; beta's private entry is untouched and unnamed
    assert r["evictedIds"] == [first["id"]]
    assert api.call("GET", f"{U}/memories/{secret['id']}", beta).json()["value"] == "private thoughts"
    # And when gamma has nothing of its own to evict, the write is refused without counts
    cap["userMemoryConfig"]["maxEntriesPerUser"] = 1
    assert api.call("PUT", "/v1/agents/gamma/config", admin, json_body=cap).status == 200
    api.call("DELETE", f"{U}/memories/key/g2", gamma)
    refused = api.call("PUT", f"{U}/memories", gamma, json_body={"key": "g3", "value": "three"})
    assert refused.status == 409 and refused.json()["code"] == "capacity_reached"
    assert "1 memories" not in refused.json()["message"] and secret["id"] not in refused.body.decode()
    assert api.call("GET", f"{U}/memories/{secret['id']}", beta).status == 200


# -- item 8: bi-temporal for real -------------------------------------------------------
def test_validity_is_checked_current_only_by_default_and_as_of_shows_the_past(api: Api) -> None:
    a = api.key("acme", "a")
    # Given an interval that ends before it starts, the write is refused
    bad = {"key": "job", "value": "nurse", "validFrom": "2024-01-01T00:00:00Z", "validTo": "2020-01-01T00:00:00Z"}
    r = api.call("PUT", f"{U}/memories", a, json_body=bad)
    assert r.status == 422 and r.json()["details"]["field"] == "validTo"
    # Given a fact that ended in 2021 and one that starts in 2030
    _put(api, a, {"key": "employer", "value": "Acme Ltd", "validTo": "2021-06-30T00:00:00Z"})
    _put(api, a, {"key": "pension", "value": "retired", "validFrom": "2030-01-01T00:00:00Z"})
    # And a city that changed: Paris from 2019, Rome from 2024-06-01
    paris = _put(api, a, {"key": "city", "value": "Paris", "validFrom": "2019-01-01T00:00:00Z"})["entry"]
    rome = _put(api, a, {"key": "city", "value": "Rome", "validFrom": "2024-06-01T00:00:00Z"})
    assert rome["outcome"] == "superseded"
    # Then the old value's validity ends when its successor's begins
    old = api.call("GET", f"{U}/memories/{paris['id']}", a).json()
    assert _ts(old["validTo"]) == datetime.fromisoformat("2024-06-01T00:00:00+00:00")
    # And reads show what holds now
    now_keys = {(e["key"], e["value"]) for e in api.call("GET", f"{U}/memories", a).json()["items"]}
    assert now_keys == {("city", "Rome")}
    api.engram.sync_index()  # type: ignore[attr-defined]
    found = api.call("GET", f"{U}/memories/search", a, query="q=Acme employer").json()["items"]
    assert all(i["entry"]["key"] != "employer" for i in found)
    recalled = json.dumps(api.call("POST", f"{U}/recall", a, json_body={"message": "who is my employer, Acme?"}).json())
    assert "Acme Ltd" not in recalled and "retired" not in recalled
    # And asOf shows what held then, superseded values included
    then = {
        (e["key"], e["value"])
        for e in api.call("GET", f"{U}/memories", a, query="asOf=2020-03-01T00:00:00Z").json()["items"]
    }
    assert then == {("city", "Paris"), ("employer", "Acme Ltd")}
    later = {e["key"] for e in api.call("GET", f"{U}/memories", a, query="asOf=2031-01-01T00:00:00Z").json()["items"]}
    assert later == {"city", "pension"}
    found = api.call("GET", f"{U}/memories/search", a, query="q=Acme employer&asOf=2020-03-01T00:00:00Z").json()
    assert any(i["entry"]["key"] == "employer" for i in found["items"])
    assert api.call("GET", f"{U}/memories", a, query="asOf=0999-01-01T00:00:00Z").status == 422
    # And recall answers as of a past or future time too, with the facts that held then
    # and only the messages said by then
    said = {"id": "m1", "role": "user", "content": "My employer Acme Ltd moved me to Rome last year."}
    api.call("POST", f"{U}/threads/t1/messages", a, json_body={"messages": [said]})
    assert api.engram.conversation.worker.wait_idle()  # type: ignore[attr-defined]
    api.engram.sync_index()  # type: ignore[attr-defined]

    def recall(message: str, **extra: object) -> dict[str, Any]:
        r = api.call("POST", f"{U}/recall", a, json_body={"message": message, **extra})
        assert r.status == 200, r.body
        return dict(r.json())

    now_answer = recall("who is my employer, Acme?")
    assert [e["provenance"]["messageId"] for e in now_answer["episodes"]] == ["m1"]
    then = recall("who is my employer, Acme?", asOf="2020-03-01T00:00:00Z")
    assert [m["entry"]["value"] for m in then["memories"] if m["entry"]["key"] == "employer"] == ["Acme Ltd"]
    assert then["episodes"] == []
    future = json.dumps(recall("am I retired, my pension?", asOf="2031-01-01T00:00:00Z"))
    assert "retired" in future
    r = api.call("POST", f"{U}/recall", a, json_body={"message": "employer", "asOf": "2020-03-01"})
    assert r.status == 422
    # And the value that held then is found and recalled even though it was superseded
    # since (the index holds only Rome), while now only Rome is
    city_then = [
        i["entry"]["value"]
        for i in api.call("GET", f"{U}/memories/search", a, query="q=city&asOf=2020-03-01T00:00:00Z").json()["items"]
    ]
    assert city_then == ["Paris"]
    city_now = [i["entry"]["value"] for i in api.call("GET", f"{U}/memories/search", a, query="q=city").json()["items"]]
    assert city_now == ["Rome"]
    recalled_then = recall("which city do I live in?", asOf="2020-03-01T00:00:00Z")
    assert [m["entry"]["value"] for m in recalled_then["memories"] if m["entry"]["key"] == "city"] == ["Paris"]
    recalled_now = recall("which city do I live in?")
    assert [m["entry"]["value"] for m in recalled_now["memories"] if m["entry"]["key"] == "city"] == ["Rome"]


# -- item 10 (part): extraction honours the agent's allowedCategories -------------------
def test_extraction_writes_only_the_agents_allowed_categories(api: Api) -> None:
    admin = api.key("acme", "root", Role.ADMIN)
    strict = {"userMemoryConfig": {"guardrails": {"allowedCategories": ["preference", "fact"]}}}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=strict).status == 200
    a = api.key("acme", "a")
    said = ["I'm feeling exhausted today.", "my favorite food is pizza", "I like sushi"]
    messages = [{"id": f"m{i}", "role": "user", "content": t} for i, t in enumerate(said)]
    assert api.call("POST", f"{U}/threads/t1/messages", a, json_body={"messages": messages}).status < 300
    worker = api.engram.conversation.worker
    assert worker is None or worker.wait_idle(10)
    stored = api.call("GET", f"{U}/export", admin).json()["entries"]
    assert stored, "the preference is extracted"
    assert {e["category"] for e in stored} <= {"preference", "fact"}, [(e["key"], e["category"]) for e in stored]
    record = api.call("GET", f"{U}/threads/t1/messages/m0", a).json()
    assert record["extraction"]["dropped"].get("category_not_allowed", 0) >= 1, record["extraction"]


# -- item 7: one observation, one effect, across threads and paths ------------------------
def test_the_same_fact_from_the_same_message_is_applied_once_across_threads_and_paths(api: Api) -> None:
    a = api.key("acme", "a")
    msg = {"id": "m-42", "role": "user", "content": "My favorite food is pizza."}
    # Given the message sent from the phone and from the laptop (two threads, one id)
    for thread in ("phone", "laptop"):
        r = api.call("POST", f"{U}/threads/{thread}/messages", a, json_body={"messages": [msg]})
        assert r.status in (200, 201, 202), r.body
        # One after the other, as the phone and the laptop would (the worker runs in the background)
        assert api.engram.conversation.worker.wait_idle()  # type: ignore[attr-defined]
    items = api.call("GET", f"{U}/memories/key/favorite_food", a).json()["items"]
    # Then one entry, extracted once: its confidence is the extractor's, not reinforced
    assert [(e["value"], e["confidence"]) for e in items] == [("pizza", 0.8)]
    entry = items[0]
    # When the agent also PUTs the fact from that message, twice (a retry)
    body = {"key": "favorite_food", "value": "Pizza", "category": "preference", "sourceMessageId": "m-42"}
    for _ in range(2):
        assert _put(api, a, body)["outcome"] == "unchanged"
    # And its tool call names the same message
    args = json.dumps({"key": "favorite_food", "value": "pizza", "category": "preference"})
    call = {"id": "c1", "type": "function", "function": {"name": "rememberFact", "arguments": args}}
    r = api.call("POST", f"{U}/tools/execute", a, json_body={"toolCall": call, "messageId": "m-42"})
    assert r.status == 200 and r.json()["data"]["outcome"] == "unchanged", r.body
    # Then nothing moved: one entry, one version, the same confidence
    items = api.call("GET", f"{U}/memories/key/favorite_food", a).json()["items"]
    assert [(e["id"], e["version"], e["confidence"]) for e in items] == [(entry["id"], 1, 0.8)]
    assert len(api.call("GET", f"{U}/memories/{entry['id']}/history", a).json()["items"]) == 1
    # While another message saying the same does reinforce, and a correction sent with the
    # same message id still applies
    assert _put(api, a, {**body, "sourceMessageId": "m-43"})["outcome"] == "reinforced"
    fixed = _put(api, a, {**body, "value": "sushi"})
    assert fixed["outcome"] == "superseded" and fixed["entry"]["value"] == "sushi"


def test_another_agents_observation_of_a_self_memory_is_its_own(api: Api) -> None:
    # Message ids are the client's: two agents' threads may both have an "m1".
    a, b = api.key("acme", "a"), api.key("acme", "b")
    body = {"key": "diary", "value": "secret plan", "category": "fact", "visibility": "self", "sourceMessageId": "m1"}
    first = _put(api, a, body)
    assert first["outcome"] == "created"
    # Then b's write is applied to b's own memory: never answered with a's entry
    second = _put(api, b, body)
    assert second["outcome"] == "created", second
    assert second["entry"]["sourceAgentId"] == "b" and second["entry"]["id"] != first["entry"]["id"]  # type: ignore[index]
    assert _put(api, b, body)["outcome"] == "unchanged"  # b's own repeat is still applied once


def test_a_repeated_observation_whose_entry_is_gone_applies_instead_of_spinning(api: Api, tmp_path: Path) -> None:
    a = api.key("acme", "a")
    body = {"key": "mood", "value": "tired", "category": "fact", "sourceMessageId": "m7"}
    entry_id = _put(api, a, body)["entry"]["id"]  # type: ignore[index]
    # Given the entry removed for good, as DynamoDB's TTL removes an expired one
    with sqlite3.connect(tmp_path / "engram.db") as conn:
        assert conn.execute("DELETE FROM entries WHERE id = ?", (entry_id,)).rowcount == 1
    # When the same message arrives again (a redelivery), then it is applied, not a 409
    r = api.call("PUT", f"{U}/memories", a, json_body=body)
    assert r.status == 200, r.body
    assert r.json()["entry"]["value"] == "tired"


# -- item 6: semantic reinforce/supersede on every write path ------------------------------
def _mcp_upsert(api: Api, key: str, arguments: dict[str, object]) -> dict[str, Any]:
    from engram.local.server import create_asgi_app
    from starlette.testclient import TestClient

    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "upsert_user_memory"}}
    call["params"] = {"name": "upsert_user_memory", "arguments": {"userId": "alice", **arguments}}
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {key}"}
    with TestClient(create_asgi_app(api.engram), base_url="http://127.0.0.1:8700") as client:
        reply = client.post("/mcp", json=call, headers={**headers, "MCP-Protocol-Version": "2025-06-18"})
    assert reply.status_code == 200, reply.text
    result = reply.json()["result"]
    assert not result.get("isError"), result
    return dict(result["structuredContent"])


def _remember_tool(api: Api, key: str, arguments: dict[str, object]) -> dict[str, Any]:
    call = {"id": "c", "type": "function", "function": {"name": "rememberFact", "arguments": json.dumps(arguments)}}
    r = api.call("POST", f"{U}/tools/execute", key, json_body={"toolCall": call})
    assert r.status == 200 and not r.json()["isError"], r.body
    return dict(r.json()["data"])


def test_the_same_fact_under_another_key_reinforces_on_every_path_with_minilm(tmp_path: Path) -> None:
    """The issue's own example (favorite_food, favorite_meal, favourite_meal: all pizza),
    with the sentence embedder the thresholds 0.85 / 0.80 were calibrated for."""
    from engram.container import build, set_engram
    from engram.settings import Settings

    from tests.semantic import minilm
    from tests.support import ManualClock

    engram = build(Settings(data_dir=tmp_path), embedder=minilm(), clock=ManualClock())
    set_engram(engram)
    try:
        api = Api(engram)
        a = api.key("acme", "a")
        first = _put(api, a, {"key": "favorite_food", "value": "pizza", "category": "preference"})["entry"]
        engram.sync_index()
        # When the same fact arrives under other keys, by PUT, rememberFact and MCP
        put = _put(api, a, {"key": "favorite_meal", "value": "pizza", "category": "preference"})
        engram.sync_index()
        tool = _remember_tool(api, a, {"key": "favourite_meal", "value": "Pizza", "category": "preference"})
        engram.sync_index()
        mcp = _mcp_upsert(api, a, {"key": "favourite_dish", "value": "pizza", "category": "preference"})
        engram.sync_index()
        # Then each reinforced the one entry and said why
        for answer, asked in ((put, "favorite_meal"), (tool, "favourite_meal"), (mcp, "favourite_dish")):
            assert answer["outcome"] == "reinforced", answer
            assert answer["entry"]["id"] == first["id"]
            assert answer["matched"]["kind"] == "duplicate" and answer["matched"]["requestedKey"] == asked
            assert answer["matched"]["similarity"] > 0.85
        items = api.call("GET", f"{U}/memories", a).json()["items"]
        assert [(e["key"], e["value"]) for e in items] == [("favorite_food", "pizza")]
        # When the same subject arrives with another value, it supersedes, with history
        sushi = _put(api, a, {"key": "favourite_meal", "value": "sushi", "category": "preference"})
        assert sushi["outcome"] == "superseded" and sushi["previousId"] == first["id"]
        assert sushi["matched"]["kind"] == "contradiction" and sushi["entry"]["key"] == "favorite_food"
        history = api.call("GET", f"{U}/memories/{sushi['entry']['id']}/history", a).json()["items"]
        assert [h["entry"]["value"] for h in history][-2:] == ["pizza", "sushi"]
        engram.sync_index()
        # And an unrelated fact is a new entry
        assert _put(api, a, {"key": "employer", "value": "Acme Corp"})["outcome"] == "created"
        live = {e["key"]: e["value"] for e in api.call("GET", f"{U}/memories", a).json()["items"]}
        assert live == {"favorite_food": "sushi", "employer": "Acme Corp"}
    finally:
        set_engram(None)


def test_semantic_dedup_follows_the_agents_config_and_keeps_the_requested_visibility(api: Api) -> None:
    """With the suite's hashing embedder, which only trusts near-identical wording."""
    admin = api.key("acme", "root", Role.ADMIN)
    a = api.key("acme", "a")
    first = _put(api, a, {"key": "favorite_food", "value": "pizza", "category": "preference"})["entry"]
    api.engram.sync_index()  # type: ignore[attr-defined]
    # A near-identical key reinforces; its subject with another value supersedes
    again = _put(api, a, {"key": "favorite_foods", "value": "Pizza", "category": "preference"})
    assert (again["outcome"], again["entry"]["id"], again["matched"]["kind"]) == (
        "reinforced",
        first["id"],
        "duplicate",
    )
    api.engram.sync_index()  # type: ignore[attr-defined]
    other = _put(api, a, {"key": "favorite_foods", "value": "ramen", "category": "preference"})
    assert (other["outcome"], other["previousId"], other["entry"]["key"]) == (
        "superseded",
        first["id"],
        "favorite_food",
    )
    # A paraphrase is beyond what hashing can tell: a new entry, not a guess
    assert _put(api, a, {"key": "favourite_meal", "value": "ramen"})["outcome"] == "created"
    api.engram.sync_index()  # type: ignore[attr-defined]
    # A global write is not folded into the agent's private entry (nor the reverse)
    shared = _put(api, a, {"key": "favorite_foods", "value": "ramen", "visibility": "global"})
    assert shared["outcome"] == "created" and shared["entry"]["visibility"] == "global"
    # And an agent configured without semantic dedup writes under the key it names
    cfg = {"userMemoryConfig": {"semanticDedup": {"enabled": False}}}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    api.engram.sync_index()  # type: ignore[attr-defined]
    plain = _put(api, a, {"key": "favorite_foodie", "value": "ramen"})
    assert plain["outcome"] == "created" and "matched" not in {k for k, v in plain.items() if v is not None}
    bad = {"userMemoryConfig": {"semanticDedup": {"duplicateThreshold": 1.5}}}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=bad).status == 422


# -- item 10: model-based extraction has a cost cap per agent and day -----------------------
def test_extraction_stops_calling_the_model_once_the_agents_daily_budget_is_spent(api: Api) -> None:
    import boto3
    from botocore.stub import Stubber
    from engram.adapters.bedrock_extractor import TOOL_NAME, BedrockExtractor

    client = boto3.client("bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    feature = api.engram.conversation  # type: ignore[attr-defined]
    llm = BedrockExtractor(client)
    feature.extraction.extractor = llm
    text = "Ramen is my favourite food now."
    # Given a budget with room for one call's worst case (about $0.0018 for these
    # messages) and calls that cost $0.000375 each
    cap = 0.002
    admin, a = api.key("acme", "root", Role.ADMIN), api.key("acme", "a")
    cfg = {"userMemoryConfig": {"maxExtractionCostPerDay": cap}}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    fact = {"key": "favorite_food", "value": "ramen", "category": "preference", "confidence": 0.9}
    reply = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t", "name": TOOL_NAME, "input": {"facts": [fact]}}}],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 1000, "outputTokens": 100, "totalTokens": 1100},
        "metrics": {"latencyMs": 300},
    }

    def say(mid: str, content: str) -> dict[str, Any]:
        msg = {"id": mid, "role": "user", "content": content}
        assert api.call("POST", f"{U}/threads/t1/messages", a, json_body={"messages": [msg]}).status == 200
        assert feature.worker.wait_idle()
        return dict(api.call("GET", f"{U}/threads/t1/messages/{mid}", a).json()["extraction"])

    with Stubber(client) as stub:
        stub.add_response("converse", reply)
        first = say("m1", text)
        # When the next message comes the same day, the model is not called (no response
        # is stubbed for it): the rules extract it, and the record says why
        second = say("m2", "My favorite drink is green tea.")
        stub.assert_no_pending_responses()
    assert first["extractor"].startswith("bedrock:") and first["usage"]["costUsd"] == 0.000375
    assert second["extractor"] == "rules-v1" and second["usage"] == {"costCapUsd": cap}
    keys = {e["key"] for e in api.call("GET", f"{U}/memories", a).json()["items"]}
    assert keys == {"favorite_food", "favorite_drink"}
    # And the next UTC day has a fresh budget
    api.engram.clock.advance(timedelta(days=1))  # type: ignore[attr-defined]
    with Stubber(client) as stub:
        stub.add_response("converse", reply)
        assert say("m3", "Ramen is still my favourite food.")["extractor"].startswith("bedrock:")
        stub.assert_no_pending_responses()
    # And a budget of 0 never calls the model
    cfg = {"userMemoryConfig": {"maxExtractionCostPerDay": 0}}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    with Stubber(client):
        assert say("m4", "My favorite color is teal.")["extractor"] == "rules-v1"


# -- item 10: a contradiction is flagged on every agent's entry ----------------------------
def test_a_contradiction_found_by_one_agents_dream_is_flagged_on_every_agents_entry(api: Api) -> None:
    from engram.adapters.dream_queue import ThreadedDreamQueue

    admin = api.key("acme", "root", Role.ADMIN)
    dreamer, other = api.key("acme", "a"), api.key("acme", "b")
    # Given agent a runs dream and agent b does not (the default)
    cfg = {"userMemoryConfig": {"dreamConfig": {"enabled": True}}}
    assert api.call("PUT", "/v1/agents/a/config", admin, json_body=cfg).status == 200
    mine = _put(api, dreamer, {"key": "language", "value": "English"})["entry"]
    theirs = _put(api, other, {"key": "language", "value": "German"})["entry"]
    # When a dream run goes over the user
    assert api.call("POST", "/v1/dream/runs", admin).status == 202
    queue = api.engram.dream.queue  # type: ignore[attr-defined]
    assert isinstance(queue, ThreadedDreamQueue)
    queue.join()
    # Then both agents' entries say they are in conflict, and each agent sees its own flag
    assert api.call("GET", f"{U}/memories/{mine['id']}", dreamer).json()["conflicted"] is True
    assert api.call("GET", f"{U}/memories/{theirs['id']}", other).json()["conflicted"] is True
    # And when agent b agrees, the next run clears both flags
    _put(api, other, {"key": "language", "value": "english"})
    assert api.call("POST", "/v1/dream/runs", admin).status == 202
    queue.join()
    assert api.call("GET", f"{U}/memories/{mine['id']}", dreamer).json()["conflicted"] is False
    now_theirs = api.call("GET", f"{U}/memories/key/language", other).json()["items"]
    assert [e["conflicted"] for e in now_theirs] == [False]


def test_facts_whose_keys_differ_in_a_number_are_never_folded_together(api: Api) -> None:
    """Found by the load test: a batch of keys ...-r495, ...-r496 became one entry."""
    a = api.key("acme", "a")
    keys = ["iso012-b-r495", "iso012-b-r496", "iso012-b-r497", "own-1-12", "own-12-1"]
    r = api.call(
        "POST", f"{U}/memories/batch", a, json_body={"entries": [{"key": k, "value": f"value {k}"} for k in keys]}
    )
    assert r.status == 200, r.body
    assert [(x["outcome"], x["entry"]["key"]) for x in r.json()["results"]] == [("created", k) for k in keys]
    assert {e["key"] for e in api.call("GET", f"{U}/memories", a).json()["items"]} == set(keys)
