"""Conversation memory through the API in-process (behaviour items 13-15, 18)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.container import set_engram
from engram.domain.conversation import LIMIT_NOTICE
from engram.domain.models import Principal, Role

from tests.integration.conftest import Api
from tests.support import ManualClock, engram_for

USER = "/v1/users/alice"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def api(tmp_path: Path, clock: ManualClock) -> Iterator[Api]:
    engram = engram_for(
        tmp_path,
        clock=clock,
        extraction_worker="inline",
        conversation_message_limit=30,
        conversation_summary_every=10,
    )
    set_engram(engram)
    yield Api(engram)
    set_engram(None)


@pytest.fixture
def alpha(api: Api) -> str:
    return api.key("acme", "alpha")


def say(api: Api, key: str, thread: str, *turns: str | dict[str, Any], prefix: str = "m", start: int = 0) -> Any:
    messages = [
        t if isinstance(t, dict) else {"id": f"{prefix}{start + i}", "role": "user", "content": t}
        for i, t in enumerate(turns)
    ]
    r = api.call("POST", f"{USER}/threads/{thread}/messages", key, json_body={"messages": messages})
    assert r.status == 200, r.body
    return r.json()


def window(api: Api, key: str, thread: str, **params: object) -> Any:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    r = api.call("GET", f"{USER}/threads/{thread}/messages", key, query=query)
    assert r.status == 200, r.body
    return r.json()


def memories(api: Api, key: str) -> list[dict[str, Any]]:
    r = api.call("GET", f"{USER}/memories", key, query="status=all&limit=1000")
    assert r.status == 200, r.body
    return list(r.json()["items"])


class TestWindow:
    def test_given_25_messages_when_read_then_the_last_20_by_default_and_last_n_on_request(
        self, api: Api, alpha: str
    ) -> None:
        say(api, alpha, "t1", *[f"message number {i}" for i in range(25)])
        got = window(api, alpha, "t1")
        assert [m["content"] for m in got["messages"]] == [f"message number {i}" for i in range(5, 25)]
        assert got["truncated"] is True
        assert [m["seq"] for m in window(api, alpha, "t1", last=3)["messages"]] == [23, 24, 25]

    def test_given_a_token_budget_then_the_oldest_are_trimmed_first_and_both_limits_compose(
        self, api: Api, alpha: str
    ) -> None:
        say(api, alpha, "t1", *["x" * 36 for _ in range(10)])  # 4 + 9 = 13 tokens each
        got = window(api, alpha, "t1", tokenBudget=40)
        assert [m["seq"] for m in got["messages"]] == [8, 9, 10]
        assert got["tokens"] == 39
        assert [m["seq"] for m in window(api, alpha, "t1", last=2, tokenBudget=40)["messages"]] == [9, 10]
        assert [m["seq"] for m in window(api, alpha, "t1", last=5, tokenBudget=30)["messages"]] == [9, 10]

    def test_each_message_keeps_its_own_timestamp_and_metadata_with_execution_traces(
        self, api: Api, alpha: str
    ) -> None:
        steps = [{"tool": "search", "input": {"q": "weather"}, "ms": 120}]
        say(
            api,
            alpha,
            "t1",
            {"id": "a", "role": "user", "content": "hi", "timestamp": "2026-01-10T08:00:00+02:00"},
            {"id": "b", "role": "assistant", "content": "hello!", "metadata": {"steps": steps}},
        )
        got = window(api, alpha, "t1")["messages"]
        assert got[0]["timestamp"] == "2026-01-10T08:00:00+02:00"
        assert got[1]["metadata"] == {"steps": steps}
        assert got[1]["timestamp"] != got[0]["timestamp"]

    def test_replaying_messages_changes_nothing(self, api: Api, alpha: str) -> None:
        first = say(api, alpha, "t1", "my favorite food is pizza", "I like jazz")
        before = memories(api, alpha)
        again = say(api, alpha, "t1", "my favorite food is pizza", "I like jazz")
        assert again["created"] == [] and again["duplicates"] == ["m0", "m1"]
        assert again["thread"]["messageCount"] == first["thread"]["messageCount"] == 2
        assert memories(api, alpha) == before

    def test_sensitive_data_never_reaches_the_store(self, api: Api, alpha: str) -> None:
        got = say(api, alpha, "t1", "my card is 4111 1111 1111 1111")
        assert "4111" not in got["messages"][0]["content"]
        assert got["messages"][0]["redactions"] == ["payment_card"]
        msg = api.call("GET", f"{USER}/threads/t1/messages/m0", alpha).json()
        assert msg["extraction"]["dropped"] == {"sensitive": 1}
        assert memories(api, alpha) == []


class TestThreadsBelongToTheirAgent:
    def test_another_agents_thread_of_the_same_id_is_another_thread(self, api: Api, alpha: str) -> None:
        beta = api.key("acme", "beta")
        admin = api.key("acme", "ops", Role.ADMIN)
        say(api, alpha, "t1", "I live in Oslo")
        assert api.call("GET", f"{USER}/threads/t1/messages", beta).status == 404
        r = api.call(
            "POST", f"{USER}/threads/t1/messages", beta, json_body={"messages": [{"id": "x", "content": "hi"}]}
        )
        assert r.status == 200 and r.json()["thread"]["agentId"] == "beta"
        assert [m["content"] for m in window(api, beta, "t1")["messages"]] == ["hi"]
        assert [m["content"] for m in window(api, alpha, "t1")["messages"]] == ["I live in Oslo"]
        # Only an admin may name another agent's thread, whatever the id.
        for agent in ("alpha", "nobody"):
            r = api.call("GET", f"{USER}/threads/t1/messages", beta, query=f"agentId={agent}")
            assert r.status == 403 and r.json()["code"] == "forbidden"
        r = api.call("GET", f"{USER}/threads/t1/messages", admin, query="agentId=alpha")
        assert [m["content"] for m in r.json()["messages"]] == ["I live in Oslo"]
        assert [t["agentId"] for t in api.call("GET", f"{USER}/threads", beta).json()["items"]] == ["beta"]
        assert sorted(t["agentId"] for t in api.call("GET", f"{USER}/threads", admin).json()["items"]) == [
            "alpha",
            "beta",
        ]
        other_tenant = api.key("globex", "alpha")
        assert api.call("GET", f"{USER}/threads/t1/messages", other_tenant).status == 404

    def test_bad_input_is_a_4xx_with_a_stable_code(self, api: Api, alpha: str) -> None:
        r = api.call("POST", f"{USER}/threads/t1/messages", alpha, json_body={"messages": []})
        assert r.status == 422 and r.json()["code"] == "validation_error"
        r = api.call(
            "POST", f"{USER}/threads/bad thread/messages", alpha, json_body={"messages": [{"id": "a", "content": "x"}]}
        )
        assert r.status == 422
        r = api.call(
            "POST",
            f"{USER}/threads/t1/messages",
            alpha,
            json_body={"messages": [{"id": "a", "content": "x", "timestamp": "2026-01-10T08:00:00"}]},
        )
        assert r.status == 422  # a timestamp without its UTC offset is ambiguous
        assert api.call("GET", f"{USER}/threads/nope/summary", alpha).json()["code"] == "not_found"
        viewer = api.key("acme", "alpha", Role.VIEWER)
        r = api.call(
            "POST", f"{USER}/threads/t1/messages", viewer, json_body={"messages": [{"id": "a", "content": "x"}]}
        )
        assert r.status == 403


class TestCrossThreadSearch:
    def test_an_admin_excluding_a_thread_leaves_out_its_own_thread_of_that_id_only(self, api: Api, alpha: str) -> None:
        admin = api.key("acme", "ops", Role.ADMIN)
        say(api, alpha, "t1", "We booked a cabin in Norway")
        say(api, api.key("acme", "beta"), "t1", "We booked a cabin in Norway too")
        say(api, admin, "t1", "We booked a cabin in Norway as well")
        r = api.call("GET", f"{USER}/messages/search", admin, query="q=cabin Norway&minScore=0&excludeThreadId=t1")
        assert sorted(h["message"]["content"] for h in r.json()["items"]) == [
            "We booked a cabin in Norway",
            "We booked a cabin in Norway too",
        ]

    def test_similar_messages_from_other_threads_are_found_and_weak_ones_dropped(self, api: Api, alpha: str) -> None:
        say(api, alpha, "trip", "We booked a cabin in the mountains of Norway for the ski holiday")
        say(api, alpha, "work", "The quarterly budget review meeting moved to Monday", prefix="w")
        say(api, alpha, "now", "anything new?", prefix="n")
        q = "cabin in the mountains of Norway for a ski holiday"
        r = api.call("GET", f"{USER}/messages/search", alpha, query=f"q={q}&excludeThreadId=now").json()
        # The floor is the embedder's tuned minimum of the one ranking, and every hit says why.
        floor = r["minScore"]
        assert 0 < floor < 1
        assert [(h["message"]["threadId"], h["score"] >= floor) for h in r["items"]] == [("trip", True)]
        assert r["items"][0]["parts"]["total"] == r["items"][0]["score"]
        assert "bm25" in r["items"][0]["matchedBy"] and r["items"][0]["why"].startswith("relevant to the query")
        # The same query with the floor lowered shows what the default threshold dropped.
        low = api.call("GET", f"{USER}/messages/search", alpha, query=f"q={q}&minScore=0").json()["items"]
        assert {h["message"]["threadId"] for h in low} >= {"trip", "work"}
        assert all(h["score"] < floor for h in low if h["message"]["threadId"] == "work")
        # Tightening the floor above the best score leaves nothing.
        best = r["items"][0]["score"]
        assert (
            api.call("GET", f"{USER}/messages/search", alpha, query=f"q={q}&minScore={min(1, best + 0.001)}").json()[
                "items"
            ]
            == []
        )

    def test_search_never_crosses_agents_or_tenants(self, api: Api, alpha: str) -> None:
        say(api, alpha, "trip", "We booked a cabin in the mountains of Norway")
        for key in (api.key("acme", "beta"), api.key("globex", "alpha")):
            r = api.call("GET", f"{USER}/messages/search", key, query="q=cabin in the mountains of Norway")
            assert r.json()["items"] == []


class TestMessageLimit:
    def test_at_the_limit_the_window_is_summarised_cleared_and_the_user_is_told(self, api: Api, alpha: str) -> None:
        turns = [f"I like hobby number {i}" for i in range(29)]
        got = say(api, alpha, "t1", *turns)
        assert got["limitReached"] is False and got["notice"] is None
        assert got["summary"]["messagesCovered"] == 29  # the rolling summary folds in all that is new
        last = say(api, alpha, "t1", "my favorite food is ramen", start=29)
        assert last["limitReached"] is True and last["windowCleared"] is True
        assert last["notice"] == LIMIT_NOTICE
        assert last["summary"]["messagesCovered"] == 30 and last["summary"]["coveredUpTo"] == 30
        assert "ramen" in last["summary"]["text"]
        # Cleared: the window is empty, the messages are not lost and the facts are extracted.
        assert window(api, alpha, "t1")["messages"] == []
        assert last["thread"]["windowSize"] == 0 and last["thread"]["clears"] == 1
        keys = {m["key"] for m in memories(api, alpha)}
        assert "favorite_food" in keys and "likes:hobby_number_0" in keys
        summary = api.call("GET", f"{USER}/threads/t1/summary", alpha).json()
        assert summary["namespace"] == "/summaries/alice/t1"
        # The next message starts a fresh window.
        nxt = say(api, alpha, "t1", "I live in Oslo", start=30)
        assert nxt["thread"]["windowSize"] == 1 and nxt["limitReached"] is False
        assert [m["content"] for m in window(api, alpha, "t1")["messages"]] == ["I live in Oslo"]

    def test_the_rolling_summary_is_updated_every_m_messages(self, api: Api, alpha: str) -> None:
        assert say(api, alpha, "t1", *[f"I like tea number {i}" for i in range(9)])["summary"] is None
        assert api.call("GET", f"{USER}/threads/t1/summary", alpha).status == 404
        tenth = say(api, alpha, "t1", "I like coffee", start=9)["summary"]
        assert (tenth["messagesCovered"], tenth["version"]) == (10, 1)
        for i in range(10, 19):
            assert say(api, alpha, "t1", f"turn {i}", start=i)["summary"]["version"] == 1
        twentieth = say(api, alpha, "t1", "I like cocoa", start=19)["summary"]
        assert (twentieth["messagesCovered"], twentieth["version"]) == (20, 2)
        assert "coffee" in twentieth["text"] and "cocoa" in twentieth["text"]
        assert window(api, alpha, "t1")["summary"] == twentieth

    def test_a_replay_at_the_limit_does_not_clear_again(self, api: Api, alpha: str) -> None:
        turns = [f"turn {i}" for i in range(30)]
        assert say(api, alpha, "t1", *turns)["notice"] == LIMIT_NOTICE
        again = say(api, alpha, "t1", *turns)
        assert again["notice"] is None and again["thread"]["clears"] == 1


class TestSettingsAndIdentity:
    def test_memory_off_stores_messages_but_extracts_nothing(self, api: Api, alpha: str) -> None:
        admin = api.key("acme", "ops", Role.ADMIN)
        api.call("PATCH", f"{USER}/settings", admin, json_body={"memoryEnabled": False})
        say(api, alpha, "t1", "my name is Alice", "I like pizza")
        assert memories(api, alpha) == []
        assert api.call("GET", f"{USER}/profile", alpha).json()["name"] is None
        msg = api.call("GET", f"{USER}/threads/t1/messages/m1", alpha).json()
        assert msg["extraction"]["status"] == "skipped" and msg["extraction"]["reason"] == "memory_off"

    def test_allowed_categories_and_retention_are_honoured(self, api: Api, alpha: str, clock: ManualClock) -> None:
        admin = api.key("acme", "ops", Role.ADMIN)
        api.call(
            "PATCH", f"{USER}/settings", admin, json_body={"allowedCategories": ["preference"], "retentionDays": 30}
        )
        say(api, alpha, "t1", "I like pizza", "I live in Oslo")
        (entry,) = memories(api, alpha)
        assert entry["key"] == "likes:pizza"
        assert entry["expiresAt"].startswith("2026-02-14")  # 30 days after the write
        msg = api.call("GET", f"{USER}/threads/t1/messages/m1", alpha).json()
        assert msg["extraction"]["dropped"] == {"category_disabled": 1}

    def test_names_from_conversation_set_the_profile_and_the_agents_name(self, api: Api, alpha: str) -> None:
        say(api, alpha, "t1", "my name is Alice", "please call me Ali", "I'll call you Jarvis")
        profile = api.call("GET", f"{USER}/profile", alpha).json()
        assert (profile["name"], profile["nickname"], profile["agentNames"]) == ("Alice", "Ali", {"alpha": "Jarvis"})

    def test_extracted_facts_are_written_by_the_extraction_actor(self, api: Api, alpha: str) -> None:
        say(api, alpha, "t1", "I work at Acme Corp")
        (entry,) = memories(api, alpha)
        history = api.call("GET", f"{USER}/memories/{entry['id']}/history", alpha).json()["items"]
        assert history[0]["actor"] == {"type": "system", "id": "extraction"}
        assert (entry["sourceConversationId"], entry["sourceMessageId"], entry["confidence"]) == ("t1", "m0", 0.8)


class TestLongTermNamespaces:
    def test_facts_preferences_and_summaries_are_listed_and_searched_by_memory_type(self, api: Api, alpha: str) -> None:
        say(api, alpha, "t1", *[f"I like board game number {i}" for i in range(9)], "I live in Oslo")
        everything = api.call("GET", f"{USER}/long-term-memory", alpha).json()["items"]
        assert {i["namespace"] for i in everything} == {"/facts/alice", "/preferences/alice", "/summaries/alice/t1"}
        facts = api.call("GET", f"{USER}/long-term-memory", alpha, query="memoryType=facts").json()["items"]
        assert [i["entry"]["key"] for i in facts] == ["location"]
        hits = api.call(
            "GET", f"{USER}/long-term-memory/search", alpha, query="q=board game&memoryType=preferences"
        ).json()["items"]
        assert hits and all(h["memoryType"] == "preferences" for h in hits)
        sums = api.call(
            "GET", f"{USER}/long-term-memory/search", alpha, query="q=board game&memoryType=summaries"
        ).json()["items"]
        assert [h["summary"]["threadId"] for h in sums] == ["t1"]
        beta = api.key("acme", "beta")
        assert api.call("GET", f"{USER}/long-term-memory", beta).json()["items"] == []


class TestPrivacy:
    def test_export_and_erasure_cover_messages_summaries_index_and_idempotency_records(
        self, api: Api, alpha: str
    ) -> None:
        admin = api.key("acme", "ops", Role.ADMIN)
        say(api, alpha, "t1", *[f"I like sport number {i}" for i in range(10)])
        exported = api.call("GET", f"{USER}/export", admin).json()["conversations"]
        assert len(exported["messages"]) == 10 and len(exported["summaries"]) == 1
        assert exported["threads"][0]["threadId"] == "t1"
        feature = api.engram.conversation
        assert feature is not None
        layer = feature.processor._persistence
        assert layer.count() == 10
        receipt = api.call("DELETE", "/v1/users/alice", admin, query="confirm=CONFIRM").json()["counts"]
        assert receipt["messages"] == 10 and receipt["summaries"] == 1 and receipt["idempotencyRecords"] == 10
        assert layer.count() == 0
        assert api.engram.index.count("acme", "alice") == 0
        assert api.call("GET", f"{USER}/threads/t1/messages", admin, query="agentId=alpha").status == 404
        # The same message ids after erasure are a new conversation, extracted afresh.
        say(api, alpha, "t1", "I like sport number 0")
        assert [m["key"] for m in memories(api, alpha)] == ["likes:sport_number_0"]

    def test_an_append_racing_an_erasure_is_refused_and_leaves_nothing(self, api: Api, alpha: str) -> None:
        """Issue #22: the erasure lands after the append began and before it reaches the
        store; the append answers 409 user_erased, as a memory write does, and nothing
        of it survives the erasure."""
        admin = api.key("acme", "ops", Role.ADMIN)
        feature = api.engram.conversation
        assert feature is not None
        service = feature.conversations
        real = service.repo
        ops = Principal("acme", "ops", frozenset({Role.ADMIN}))

        class ErasedMeanwhile:
            def __getattr__(self, name: str) -> Any:
                return getattr(real, name)

            def append(self, *args: Any, **kwargs: Any) -> Any:
                api.engram.privacy.erase(ops, "alice", "CONFIRM")
                return real.append(*args, **kwargs)

        service.repo = ErasedMeanwhile()  # type: ignore[assignment]
        try:
            r = api.call(
                "POST", f"{USER}/threads/t1/messages", alpha, json_body={"messages": [{"id": "a", "content": "hi"}]}
            )
        finally:
            service.repo = real
        assert r.status == 409 and r.json()["code"] == "user_erased", r.body
        assert api.call("GET", f"{USER}/threads", admin).json()["items"] == []
        assert api.call("GET", f"{USER}/export", admin).json()["conversations"]["messages"] == []
        # An append that begins after the erasure is a new conversation.
        assert say(api, alpha, "t1", "I live in Oslo")["created"] == ["m0"]

    def test_deleting_a_thread_forgets_its_messages_but_not_the_facts(self, api: Api, alpha: str) -> None:
        say(api, alpha, "t1", "I live in Oslo")
        r = api.call("DELETE", f"{USER}/threads/t1", alpha).json()
        assert r["counts"]["messages"] == 1
        assert api.call("GET", f"{USER}/threads/t1/messages", alpha).status == 404
        assert api.call("GET", f"{USER}/messages/search", alpha, query="q=I live in Oslo").json()["items"] == []
        assert [m["key"] for m in memories(api, alpha)] == ["location"]


def test_the_feeling_is_gone_six_hours_later(api: Api, alpha: str, clock: ManualClock) -> None:
    # Extraction honours the agent's categories: this agent allows feelings.
    allow = {"userMemoryConfig": {"guardrails": {"allowedCategories": ["preference", "fact", "context", "feeling"]}}}
    admin = api.key("acme", "ops", Role.ADMIN)
    assert api.call("PUT", "/v1/agents/alpha/config", admin, json_body=allow).status == 200
    say(api, alpha, "t1", "I'm feeling tired")
    assert [m["key"] for m in memories(api, alpha)] == ["feeling"]
    clock.advance(timedelta(hours=6, minutes=1))
    assert memories(api, alpha) == []


STORY = [
    "my name is Alice",
    "my favorite food is pizza",
    "I like pizza",
    "I like pizza",
    "actually my favorite food is ramen",
    "I'm feeling tired",
    "maybe I like sushi?",
    "my card is 4111 1111 1111 1111",
]


def test_the_story_in_process_replayed_and_six_hours_on(api: Api, alpha: str, clock: ManualClock) -> None:
    """The end-to-end story (tests/e2e/test_conversation_story.py), with a hand-moved clock."""
    for i, text in enumerate(STORY):
        say(api, alpha, "chat", text, start=i)
    items = memories(api, alpha)
    assert api.call("GET", f"{USER}/profile", alpha).json()["name"] == "Alice"
    assert [(e["value"], e["confidence"]) for e in items if e["key"] == "likes:pizza"] == [("pizza", 0.8)]
    food = {e["value"]: e for e in items if e["key"] == "favorite_food"}
    assert food["pizza"]["supersededBy"] == food["ramen"]["id"] and food["ramen"]["status"] == "active"
    assert not any("sushi" in e["value"] or "4111" in e["value"] for e in items)
    for i, text in enumerate(STORY):
        say(api, alpha, "chat", text, start=i)
    assert memories(api, alpha) == items
    clock.advance(timedelta(hours=6, minutes=1))
    assert [e["key"] for e in memories(api, alpha) if e["key"] == "feeling"] == []


class TestSemanticDedup:
    def test_a_fact_in_other_words_reinforces_the_entry_it_repeats(self, api: Api, alpha: str) -> None:
        say(api, alpha, "t1", "I like pizza", "I really like pizzas")
        (entry,) = memories(api, alpha)
        assert (entry["key"], entry["value"], entry["confidence"]) == ("likes:pizza", "pizza", 0.8)
        msg = api.call("GET", f"{USER}/threads/t1/messages/m1", alpha).json()
        assert msg["extraction"]["outcomes"] == {"reinforced": 1}

    def test_a_contradicting_fact_under_a_similar_key_supersedes_it(self, api: Api, alpha: str) -> None:
        say(api, alpha, "t1", "my favorite foods are pizza", "my favorite food is ramen")
        items = {e["value"]: e for e in memories(api, alpha)}
        assert set(items) == {"pizza", "ramen"}
        assert items["ramen"]["key"] == "favorite_foods" and items["ramen"]["status"] == "active"
        assert items["pizza"]["status"] == "superseded" and items["pizza"]["supersededBy"] == items["ramen"]["id"]

    def test_an_extracted_fact_stays_its_agents_own_beside_a_global_entry_it_contradicts(
        self, api: Api, alpha: str
    ) -> None:
        beta = api.key("acme", "beta")
        body = {"key": "favorite_foods", "value": "pizza", "visibility": "global"}
        assert api.call("PUT", f"{USER}/memories", beta, json_body=body).status == 200
        say(api, alpha, "t1", "my favorite food is ramen")
        items = {e["value"]: e for e in memories(api, alpha)}
        assert (items["ramen"]["visibility"], items["ramen"]["sourceAgentId"]) == ("self", "alpha")
        assert items["pizza"]["status"] == "active"  # beta's global entry is not superseded by alpha's fact
        assert [e["value"] for e in memories(api, beta)] == ["pizza"]  # nor is alpha's fact shown to beta


def test_an_llm_extractor_writes_through_the_same_pipeline_and_records_its_cost(api: Api, alpha: str) -> None:
    import boto3
    from botocore.stub import Stubber
    from engram.adapters.bedrock_extractor import TOOL_NAME, BedrockExtractor

    client = boto3.client("bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    feature = api.engram.conversation
    assert feature is not None
    feature.extraction.extractor = BedrockExtractor(client)
    tool = {
        "toolUse": {
            "toolUseId": "t",
            "name": TOOL_NAME,
            "input": {
                "facts": [
                    {"key": "favorite_food", "value": "ramen", "category": "preference", "confidence": 0.9},
                ],
                "agentName": "Jarvis",
            },
        }
    }
    reply = {
        "output": {"message": {"role": "assistant", "content": [tool]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 1000, "outputTokens": 100, "totalTokens": 1100},
        "metrics": {"latencyMs": 300},
    }
    with Stubber(client) as stub:
        stub.add_response("converse", reply)
        say(api, alpha, "t1", "Ramen is my favourite now. I'll call you Jarvis")
        stub.assert_no_pending_responses()
    (entry,) = memories(api, alpha)
    assert (entry["key"], entry["value"], entry["confidence"]) == ("favorite_food", "ramen", 0.85)
    record = api.call("GET", f"{USER}/threads/t1/messages/m0", alpha).json()["extraction"]
    assert record["extractor"].startswith("bedrock:")
    assert record["usage"] == {"inputTokens": 1000, "outputTokens": 100, "costUsd": 0.000375}
    assert api.call("GET", f"{USER}/profile", alpha).json()["agentNames"] == {"alpha": "Jarvis"}


def test_messages_a_stopped_process_never_extracted_are_recovered_at_start(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from engram.domain.conversation import MessageRole, NewMessage, ThreadKey

    first = engram_for(tmp_path, clock=ManualClock())
    assert first.conversation is not None
    # Stored, then the process stopped before its worker ran the jobs.
    first.conversation.repo.append(
        ThreadKey("acme", "alice", "alpha", "t1"),
        [NewMessage("m0", MessageRole.USER, "I live in Oslo", datetime.now(UTC))],
        first.clock.now(),
    )
    again = engram_for(tmp_path, clock=ManualClock())
    feature = again.conversation
    assert feature is not None and feature.worker is not None
    assert feature.recover() == 1
    assert feature.worker.wait_idle(10)
    msg = feature.repo.get_message(ThreadKey("acme", "alice", "alpha", "t1"), "m0")
    assert msg is not None and msg.extraction is not None and msg.extraction.outcomes == {"created": 1}
    assert feature.recover() == 0
    feature.worker.close()


def test_facts_an_agent_may_only_propose_become_proposals_for_the_user(api: Api, alpha: str) -> None:
    admin = api.key("acme", "ops", Role.ADMIN)
    r = api.call("PUT", "/v1/agents/alpha/config", admin, json_body={"requireApproval": ["preference"]})
    assert r.status == 200, r.body
    say(api, alpha, "t1", "I like pizza", "I live in Oslo")
    assert [m["key"] for m in memories(api, alpha)] == ["location"]
    proposals = api.call("GET", f"{USER}/proposals", admin).json()["items"]
    assert [(p["after"]["key"], p["after"]["value"]) for p in proposals] == [("likes:pizza", "pizza")]
    msg = api.call("GET", f"{USER}/threads/t1/messages/m0", alpha).json()
    assert msg["extraction"]["outcomes"] == {"proposed": 1}
