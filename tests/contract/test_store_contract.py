"""The repository contract: every Store adapter must pass these, unchanged."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.domain.agent_config import AgentConfig, OnCapReached, RecallOrder, UserMemoryConfig
from engram.domain.conversation import ExtractionJob, MessageRole, NewMessage, ThreadKey
from engram.domain.errors import CapacityReached, GuardrailViolation, VersionConflict
from engram.domain.models import (
    Actor,
    ActorType,
    ApiKeyRecord,
    Changeset,
    MemoryEntry,
    Role,
    Status,
    UserProfile,
    UserSettings,
    Visibility,
)
from engram.domain.policies import VisibilityScope, scope_for
from engram.domain.writes import WriteRequest, plan_write
from engram.ports import EntryQuery
from engram.service.memory import UpsertCommand

from tests.support import T0, ManualClock, engram_for, principal

AGENT = Actor(ActorType.AGENT, "agent-a")


def _req(
    key: str,
    value: str,
    *,
    user: str = "u1",
    tenant: str = "t1",
    agent: str = "agent-a",
    visibility: Visibility = Visibility.SELF,
    category: str = "fact",
    groups: tuple[str, ...] = (),
) -> WriteRequest:
    return WriteRequest(
        tenant,
        user,
        key,
        value,
        category,
        visibility,
        agent,
        Actor(ActorType.AGENT, agent),
        group_ids=groups,
    )


def _create(store: Any, req: WriteRequest, now: Any = T0) -> MemoryEntry:
    state = store.get_identity(req.tenant_id, req.user_id, req.identity)
    current = (
        store.get_entry(req.tenant_id, req.user_id, state.current_entry_id)
        if state and state.current_entry_id
        else None
    )
    plan = plan_write(req, current, None if state is None else state.version, now)
    store.apply(
        Changeset(req.tenant_id, req.user_id, (plan.guard,), plan.entries, plan.history, plan.active_delta),
        now,
    )
    return plan.entry


class TestEntries:
    def test_given_a_written_entry_when_read_back_then_every_field_survives(self, store: Any) -> None:
        entry = _create(store, _req("favorite_color", "blue", groups=()))
        got = store.get_entry("t1", "u1", entry.id)
        assert got == entry
        state = store.get_identity("t1", "u1", entry.identity_id)
        assert state is not None and state.version == 1 and state.current_entry_id == entry.id
        assert store.get_entries("t1", "u1", [entry.id, "mem_missing"]) == [entry]

    def test_given_a_stale_version_when_applied_then_conflict_and_nothing_written(self, store: Any) -> None:
        req = _req("k", "v1")
        _create(store, req)
        plan = plan_write(_req("k", "v2"), None, None, T0)  # believes the identity is new
        with pytest.raises(VersionConflict):
            store.apply(Changeset("t1", "u1", (plan.guard,), plan.entries, plan.history, 1), T0)
        assert store.get_entry("t1", "u1", plan.entry.id) is None
        assert len(store.history("t1", "u1", req.identity).items) == 1

    def test_given_a_full_user_when_one_more_is_added_then_capacity_is_enforced_atomically(self, store: Any) -> None:
        for i in range(3):
            _create(store, _req(f"k{i}", "v"))
        plan = plan_write(_req("k3", "v"), None, None, T0)
        with pytest.raises(CapacityReached):
            store.apply(Changeset("t1", "u1", (plan.guard,), plan.entries, plan.history, 1, 3), T0)
        assert store.count_live("t1", "u1", T0) == 3
        assert store.get_identity("t1", "u1", plan.guard.identity_id) is None

    def test_expired_entries_are_never_listed_or_counted(self, store: Any) -> None:
        _create(store, _req("mood", "tired", category="feeling"))
        _create(store, _req("name", "Alice"))
        later = T0 + timedelta(hours=7)
        assert store.count_live("t1", "u1", later) == 1
        page = store.list_entries("t1", "u1", EntryQuery(now=later))
        assert [e.key for e in page.items] == ["name"]
        page = store.list_entries("t1", "u1", EntryQuery(now=later, include_expired=True))
        assert sorted(e.key for e in page.items) == ["mood", "name"]

    def test_filters_by_status_category_and_key(self, store: Any) -> None:
        _create(store, _req("color", "blue", category="preference"))
        _create(store, _req("color", "green", category="preference"), T0 + timedelta(seconds=1))
        _create(store, _req("city", "Paris"))
        now = T0 + timedelta(seconds=2)
        active = store.list_entries("t1", "u1", EntryQuery(now=now)).items
        assert sorted(e.value for e in active) == ["Paris", "green"]
        old = store.list_entries("t1", "u1", EntryQuery(now=now, statuses=(Status.SUPERSEDED,))).items
        assert [e.value for e in old] == ["blue"]
        assert [e.value for e in store.list_entries("t1", "u1", EntryQuery(now=now, category="preference")).items] == [
            "green"
        ]
        assert [e.value for e in store.list_entries("t1", "u1", EntryQuery(now=now, key="city")).items] == ["Paris"]

    def test_visibility_scope_filters_in_the_store(self, store: Any) -> None:
        _create(store, _req("a_self", "1", agent="agent-a"))
        _create(store, _req("b_self", "2", agent="agent-b"))
        _create(
            store,
            _req("b_group", "3", agent="agent-b", visibility=Visibility.GROUP, groups=("g1",)),
        )
        _create(
            store,
            _req("c_group", "4", agent="agent-c", visibility=Visibility.GROUP, groups=("g2",)),
        )
        _create(store, _req("glob", "5", agent="agent-c", visibility=Visibility.GLOBAL))

        def keys(scope: VisibilityScope) -> list[str]:
            return sorted(e.key for e in store.list_entries("t1", "u1", EntryQuery(now=T0, scope=scope)).items)

        assert keys(VisibilityScope("agent-a")) == ["a_self", "glob"]
        assert keys(VisibilityScope("agent-a", ("g1",))) == ["a_self", "b_group", "glob"]
        assert keys(VisibilityScope("agent-b")) == ["b_group", "b_self", "glob"]
        assert keys(VisibilityScope("x", everything=True)) == [
            "a_self",
            "b_group",
            "b_self",
            "c_group",
            "glob",
        ]

    def test_pagination_walks_every_entry_once_in_order(self, store: Any) -> None:
        for i in range(23):
            _create(store, _req(f"k{i:02d}", "v"), T0 + timedelta(seconds=i))
        seen: list[str] = []
        cursor = None
        while True:
            page = store.list_entries("t1", "u1", EntryQuery(now=T0 + timedelta(minutes=1), limit=5, cursor=cursor))
            seen.extend(e.key for e in page.items)
            cursor = page.next_cursor
            if cursor is None:
                break
        assert seen == [f"k{i:02d}" for i in reversed(range(23))]

    def test_most_accessed_order_follows_access_counts(self, store: Any) -> None:
        a = _create(store, _req("a", "1"))
        b = _create(store, _req("b", "2"))
        store.record_access("t1", "u1", [b.id, b.id], T0)
        store.record_access("t1", "u1", [b.id], T0)
        got = store.list_entries("t1", "u1", EntryQuery(now=T0, order=RecallOrder.MOST_ACCESSED)).items
        assert [e.id for e in got] == [b.id, a.id]
        fresh = store.get_entry("t1", "u1", b.id)
        assert fresh.access_count == 2 and fresh.last_accessed_at == T0
        assert fresh.version == b.version  # access is not a versioned change

    def test_tenants_and_users_never_mix(self, store: Any) -> None:
        mine = _create(store, _req("k", "mine", tenant="t1"))
        _create(store, _req("k", "theirs", tenant="t2"))
        _create(store, _req("k", "other user", user="u2"))
        assert store.get_entry("t2", "u1", mine.id) is None
        assert [e.value for e in store.list_entries("t1", "u1", EntryQuery(now=T0)).items] == ["mine"]
        assert store.count_live("t2", "u1", T0) == 1


class TestHistory:
    def test_history_is_ordered_and_paginated(self, store: Any) -> None:
        req = _req("color", "v0")
        for i in range(7):
            _create(store, _req("color", f"v{i}"), T0 + timedelta(seconds=i))
        first = store.history("t1", "u1", req.identity, limit=4)
        rest = store.history("t1", "u1", req.identity, limit=4, cursor=first.next_cursor)
        assert [h.version for h in first.items + rest.items] == list(range(1, 8))
        assert rest.next_cursor is None
        assert [h.entry.value for h in first.items[:2]] == ["v0", "v1"]
        assert len(store.history_of_user("t1", "u1")) == 7


class TestConfigProfilesKeys:
    def test_profile_settings_and_agent_config_round_trip(self, store: Any) -> None:
        profile = UserProfile(
            "t1",
            "u1",
            name="Alice",
            nickname="Al",
            pronouns="she/her",
            agent_names={"agent-a": "Jarvis"},
            updated_at=T0,
        )
        store.put_profile(profile)
        assert store.get_profile("t1", "u1") == profile
        assert store.get_profile("t2", "u1") is None
        settings = UserSettings(
            "t1",
            "u1",
            memory_enabled=False,
            allowed_categories=("fact",),
            retention_days=30,
            updated_at=T0,
        )
        store.put_settings(settings)
        assert store.get_settings("t1", "u1") == settings
        config = AgentConfig(user_memory_config=UserMemoryConfig(max_entries_per_user=7))
        store.put_agent_config("t1", "agent-a", config)
        assert store.get_agent_config("t1", "agent-a") == config
        assert store.get_agent_config("t2", "agent-a") is None

    def test_api_keys_are_found_by_id_listed_by_tenant_and_revoked(self, store: Any) -> None:
        rec = ApiKeyRecord("k1", "t1", "agent-a", frozenset({Role.WRITER}), "hash", T0, ("g1",), "test")
        store.put_api_key(rec)
        store.put_api_key(ApiKeyRecord("k2", "t2", "agent-b", frozenset({Role.ADMIN}), "hash2", T0))
        assert store.get_api_key("k1") == rec
        assert [k.key_id for k in store.list_api_keys("t1")] == ["k1"]
        assert {k.key_id for k in store.list_api_keys()} == {"k1", "k2"}
        assert store.revoke_api_key("k1", T0) is True
        assert store.get_api_key("k1").revoked_at == T0
        assert store.revoke_api_key("k1", T0) is False

    def test_turn_writes_are_counted_and_capped(self, store: Any) -> None:
        until = T0 + timedelta(days=1)
        assert store.add_turn_writes("t1", "agent-a", "turn-1", 6, 10, until) == 6
        with pytest.raises(GuardrailViolation) as err:
            store.add_turn_writes("t1", "agent-a", "turn-1", 5, 10, until)
        assert err.value.code == "too_many_writes"
        assert store.add_turn_writes("t1", "agent-a", "turn-1", 4, 10, until) == 10
        assert store.add_turn_writes("t1", "agent-b", "turn-1", 10, 10, until) == 10


class TestErasure:
    def test_erase_removes_the_user_and_nothing_else(self, store: Any) -> None:
        _create(store, _req("a", "1"))
        _create(store, _req("a", "2"), T0 + timedelta(seconds=1))
        _create(store, _req("b", "3", user="u2"))
        _create(store, _req("a", "4", tenant="t2"))
        store.put_profile(UserProfile("t1", "u1", name="Alice"))
        store.put_settings(UserSettings("t1", "u1"))
        counts = store.erase_user("t1", "u1")
        assert counts["entries"] == 2 and counts["history"] == 2
        assert (
            store.list_entries("t1", "u1", EntryQuery(now=T0, statuses=tuple(Status), include_expired=True)).items == []
        )
        assert store.history_of_user("t1", "u1") == []
        assert store.get_profile("t1", "u1") is None and store.get_settings("t1", "u1") is None
        assert store.count_live("t1", "u2", T0) == 1 and store.count_live("t2", "u1", T0) == 1


class TestThroughTheService:
    """The same behaviour end to end through MemoryService on each store."""

    def test_fifty_concurrent_writers_of_one_identity_lose_no_update(self, store: Any, tmp_path: Path) -> None:
        engram = engram_for(tmp_path, store=store)
        agent = principal("t1", "agent-a")
        errors: list[BaseException] = []

        def writer(n: int) -> None:
            try:
                engram.memory.upsert(agent, "u1", [UpsertCommand("city", f"city-{n}")], turn_id=f"turn-{n}")
            except BaseException as exc:  # surfaced below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        live = engram.memory.list_memories(agent, "u1", scope_for(agent), key="city").items
        assert len(live) == 1
        identity = live[0].identity_id
        versions = []
        cursor = None
        while True:
            page = store.history("t1", "u1", identity, 100, cursor)
            versions += [h.version for h in page.items]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert versions == list(range(1, 51))
        written = {h.entry.value for h in store.history_of_user("t1", "u1")}
        assert written == {f"city-{n}" for n in range(50)}

    def test_evict_oldest_keeps_the_user_at_capacity(self, store: Any, tmp_path: Path) -> None:
        clock = ManualClock(tick=timedelta(seconds=1))
        engram = engram_for(tmp_path, store=store, clock=clock)
        admin = principal("t1", "root", Role.ADMIN)
        engram.agents.put(
            "t1",
            "agent-a",
            AgentConfig(
                user_memory_config=UserMemoryConfig(max_entries_per_user=3, on_cap_reached=OnCapReached.EVICT_OLDEST)
            ),
        )
        agent = principal("t1", "agent-a")
        for i in range(5):
            engram.memory.upsert(agent, "u1", [UpsertCommand(f"k{i}", "v")])
        assert sorted(e.key for e in engram.memory.visible(agent, "u1").items) == ["k2", "k3", "k4"]
        assert engram.memory.count(admin, "u1") == 3

    def test_one_observation_is_applied_once_across_threads_paths_and_concurrent_writers(
        self, store: Any, tmp_path: Path
    ) -> None:
        """Issue #17, item 7: identity (user, key, source message), on every store."""
        engram = engram_for(tmp_path, store=store)
        agent = principal("t1", "agent-a")
        said = T0 - timedelta(hours=1)
        message = NewMessage("m-7", MessageRole.USER, "My favorite food is pizza.", said)
        # Given the same message stored in two threads (phone, laptop) and extracted in each
        # (the job is idempotent per thread only, so both extractions run)
        conversations, extracted = engram.conversation, []
        for thread in ("phone", "laptop"):
            conversations.repo.append(ThreadKey("t1", "u1", "agent-a", thread), [message], T0)
            extracted.append(conversations.extraction.process(ExtractionJob("t1", "u1", thread, "m-7", "agent-a")))
        assert [r["outcomes"] for r in extracted] == [{"created": 1}, {"unchanged": 1}]
        # When eight writers PUT the same fact from that message at once
        outcomes: list[str] = []
        command = UpsertCommand("favorite_food", "pizza", "preference", source_message_id="m-7")

        def writer() -> None:
            outcomes.append(engram.memory.upsert(agent, "u1", [command])[0].outcome.value)

        threads = [threading.Thread(target=writer) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # Then every one of them was told it changed nothing, and one entry holds one version
        assert outcomes == ["unchanged"] * 8
        live = engram.memory.list_memories(agent, "u1", scope_for(agent), key="favorite_food").items
        assert [(e.value, e.version, e.confidence) for e in live] == [("pizza", 1, 0.8)]
        assert len(store.history_of_user("t1", "u1")) == 1

    def test_concurrent_writers_of_one_new_observation_create_it_once(self, store: Any, tmp_path: Path) -> None:
        engram = engram_for(tmp_path, store=store)
        agent = principal("t1", "agent-a")
        command = UpsertCommand("city", "Lisbon", source_message_id="m-1")
        outcomes: list[str] = []

        def writer() -> None:
            outcomes.append(engram.memory.upsert(agent, "u1", [command])[0].outcome.value)

        threads = [threading.Thread(target=writer) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == ["created"] + ["unchanged"] * 7
        assert [h.change.value for h in store.history_of_user("t1", "u1")] == ["created"]

    def test_a_restatement_written_before_the_index_caught_up_still_reinforces(
        self, store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Issue #17, item 6: write-time dedup compares with what the store holds, not
        only with what the index has caught up with (the stream's lag in the cloud)."""
        engram = engram_for(tmp_path, store=store)
        agent = principal("t1", "agent-a")
        # Given an index that has not caught up with any of the user's writes
        monkeypatch.setattr(engram.index, "upsert", lambda docs: None)
        first = engram.memory.upsert(agent, "u1", [UpsertCommand("favorite_food", "pizza", category="preference")])
        # When the same fact arrives again under a near-identical key
        again = engram.memory.upsert(agent, "u1", [UpsertCommand("favorite_foods", "Pizza", category="preference")])
        # Then it reinforces the first entry instead of creating a second one
        assert again[0].outcome.value == "reinforced", again[0]
        assert again[0].entry.id == first[0].entry.id
        assert again[0].matched is not None and again[0].matched.kind == "duplicate"
        live = engram.memory.list_memories(agent, "u1", scope_for(agent)).items
        assert [(e.key, e.value) for e in live] == [("favorite_food", "pizza")]
        # And an unrelated fact is still a new entry
        other = engram.memory.upsert(agent, "u1", [UpsertCommand("city", "Lisbon")])
        assert other[0].outcome.value == "created"

    def test_concurrent_extractions_never_reserve_more_than_the_agents_daily_budget(self, store: Any) -> None:
        """Issue #17, item 10: the extraction cost cap holds under concurrent workers."""
        from engram.service.extraction import _Budget

        budget = _Budget(store, "t1", "agent-a", T0, cap_usd=0.005)
        got: list[int | None] = []

        def worker() -> None:
            got.append(budget.reserve(0.001))

        threads = [threading.Thread(target=worker) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        reserved = [r for r in got if r is not None]
        assert len(reserved) == 5
        # Settling to the real cost gives the rest back: four more reservations fit
        for r in reserved:
            budget.settle(r, 0.0002)
        assert [budget.reserve(0.001) is not None for _ in range(5)] == [True] * 4 + [False]
        # Another agent and the next day have budgets of their own
        assert _Budget(store, "t1", "agent-b", T0, cap_usd=0.005).reserve(0.001) == 1000
        assert _Budget(store, "t1", "agent-a", T0 + timedelta(days=1), cap_usd=0.005).reserve(0.001) == 1000
