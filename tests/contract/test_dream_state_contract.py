"""DreamStateRepository contract: every adapter (SQLite, DynamoDB on moto server).

The due index is marked by the store's own ``apply``, so each test drives the store and
the dream state of the same backend together.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from engram.adapters.sqlite import SqliteStore
from engram.adapters.sqlite.dream_state import SqliteDreamState
from engram.domain.dream import DREAM_ACTOR
from engram.domain.dream_run import DreamRun, RunStatus, Stats, Trigger, UserOutcome
from engram.domain.models import (
    Actor,
    ActorType,
    ChangeKind,
    Changeset,
    HistoryRecord,
    IdentityGuard,
    MemoryEntry,
    Visibility,
)
from engram.domain.policies import identity_id
from engram.domain.writes import new_entry_id
from engram.ports import DreamStateRepository

from tests.support import T0

AGENT = Actor(ActorType.AGENT, "agent-a")


def dream_state_of(store: Any) -> DreamStateRepository:
    if isinstance(store, SqliteStore):
        return SqliteDreamState(store.db)
    from engram.adapters.dynamodb.dream_state import DynamoDreamState

    return DynamoDreamState(store.client, store.table_name)


@pytest.fixture
def both(store: Any) -> tuple[Any, DreamStateRepository]:
    return store, dream_state_of(store)


def write(store: Any, tenant: str, user: str, key: str, at: Any, actor: Actor = AGENT) -> MemoryEntry:
    ident = identity_id(tenant, user, key, Visibility.SELF, "agent-a")
    state = store.get_identity(tenant, user, ident)
    version = 1 if state is None else state.version + 1
    e = MemoryEntry(
        id=new_entry_id(),
        tenant_id=tenant,
        user_id=user,
        identity_id=ident,
        key=key,
        value="v",
        category="fact",
        visibility=Visibility.SELF,
        source_agent_id="agent-a",
        created_at=at,
        updated_at=at,
        version=version,
    )
    guard = IdentityGuard(ident, None if state is None else state.version, version, e.id)
    h = HistoryRecord(tenant, user, ident, version, e, ChangeKind.CREATED, actor, "test", at)
    store.apply(Changeset(tenant, user, (guard,), (e,), (h,)), at)
    return e


def outcome(tenant: str, user: str, seen: int, next_due: Any, **stats: int) -> UserOutcome:
    return UserOutcome(tenant, user, Stats(users_processed=1, **stats), seen, next_due, T0)


def test_given_a_write_when_applied_then_its_user_is_due_and_dream_writes_are_not(both: Any) -> None:
    store, state = both
    write(store, "t1", "alice", "city", T0)
    write(store, "t1", "bob", "city", T0, actor=DREAM_ACTOR)
    due = state.due_users(T0 + timedelta(seconds=1), 10)
    assert [(u.tenant_id, u.user_id) for u in due.items] == [("t1", "alice")]
    alice = state.due_state("t1", "alice")
    assert alice is not None and alice.activity == 1 and alice.due_at == T0
    assert state.due_users(T0 - timedelta(seconds=1), 10).items == []


def test_given_a_pass_when_finished_then_the_next_due_time_moves_and_none_leaves_the_index(both: Any) -> None:
    store, state = both
    write(store, "t1", "alice", "city", T0)
    write(store, "t1", "bob", "city", T0)
    state.create_run(DreamRun("dream_r1", T0, T0, Trigger.CLI))
    assert state.finish_user("dream_r1", outcome("t1", "alice", 1, T0 + timedelta(days=7)))
    assert state.finish_user("dream_r1", outcome("t1", "bob", 1, None))
    assert state.due_users(T0 + timedelta(days=1), 10).items == []
    later = state.due_users(T0 + timedelta(days=7), 10).items
    assert [u.user_id for u in later] == ["alice"] and later[0].due_at == T0 + timedelta(days=7)
    bob = state.due_state("t1", "bob")
    assert bob is not None and bob.due_at is None and bob.last_pass_at == T0


def test_given_a_write_during_a_pass_when_finished_then_the_user_stays_due(both: Any) -> None:
    store, state = both
    write(store, "t1", "alice", "city", T0)
    seen = state.due_state("t1", "alice").activity
    write(store, "t1", "alice", "pet", T0 + timedelta(minutes=1))
    state.create_run(DreamRun("dream_r1", T0, T0, Trigger.CLI))
    assert state.finish_user("dream_r1", outcome("t1", "alice", seen, None))
    after = state.due_state("t1", "alice")
    assert after is not None and after.due_at is not None and after.activity == seen + 1


def test_given_a_user_done_when_finished_again_then_nothing_is_counted_twice(both: Any) -> None:
    store, state = both
    write(store, "t1", "alice", "city", T0)
    state.create_run(DreamRun("dream_r1", T0, T0, Trigger.CLI))
    state.record_plan_progress("dream_r1", None, None, 1, 1, True)
    assert not state.is_done("dream_r1", "t1", "alice")
    assert state.finish_user("dream_r1", outcome("t1", "alice", 1, None, decayed=3))
    assert state.is_done("dream_r1", "t1", "alice")
    assert not state.finish_user("dream_r1", outcome("t1", "alice", 1, None, decayed=3))
    assert state.run_stats("dream_r1").decayed == 3
    assert state.run_stats("dream_r1", "t1").users_processed == 1
    assert state.run_stats("dream_r1", "t2") == Stats()
    run = state.get_run("dream_r1")
    assert run is not None and run.users_done == 1 and run.complete
    assert state.complete_run("dream_r1", T0 + timedelta(minutes=1))
    assert not state.complete_run("dream_r1", T0 + timedelta(minutes=2))
    done = state.get_run("dream_r1")
    assert done is not None and done.status is RunStatus.COMPLETED and done.finished_at == T0 + timedelta(minutes=1)


def test_given_many_due_users_when_paged_then_each_comes_once_and_a_tenant_sees_only_its_own(both: Any) -> None:
    store, state = both
    for i in range(7):
        write(store, "t1", f"u{i}", "city", T0 + timedelta(seconds=i))
    write(store, "t2", "other", "city", T0)
    seen: list[tuple[str, str]] = []
    cursor = None
    while True:
        page = state.due_users(T0 + timedelta(days=1), 3, cursor)
        assert len(page.items) <= 3
        seen.extend((u.tenant_id, u.user_id) for u in page.items)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert sorted(seen) == sorted([("t1", f"u{i}") for i in range(7)] + [("t2", "other")])
    own = state.due_users(T0 + timedelta(days=1), 100, tenant_id="t2").items
    assert [(u.tenant_id, u.user_id) for u in own] == [("t2", "other")]


def test_given_runs_when_planned_and_listed_then_progress_is_guarded_and_scoped(both: Any) -> None:
    _, state = both
    a = state.create_run(DreamRun("dream_a", T0, T0, Trigger.SCHEDULE))
    assert state.create_run(DreamRun("dream_a", T0 + timedelta(days=1), T0, Trigger.MANUAL)) == a
    state.create_run(DreamRun("dream_b", T0, T0 + timedelta(minutes=1), Trigger.MANUAL, tenant_id="t1"))
    state.create_run(DreamRun("dream_c", T0, T0 + timedelta(minutes=2), Trigger.MANUAL, tenant_id="t2"))
    moved = state.record_plan_progress("dream_a", None, "c1", 100, 1, False)
    assert moved is not None and moved.plan_cursor == "c1" and moved.users_planned == 100
    assert state.record_plan_progress("dream_a", None, "c2", 100, 1, False) is None  # a stale planner
    end = state.record_plan_progress("dream_a", "c1", None, 5, 1, True)
    assert end is not None and end.status is RunStatus.RUNNING and end.users_planned == 105
    assert end.plan_cursor is None and end.batches_sent == 2
    assert [r.run_id for r in state.list_runs("t1").items] == ["dream_b", "dream_a"]
    first = state.list_runs("t1", limit=1)
    assert [r.run_id for r in first.items] == ["dream_b"] and first.next_cursor
    assert [r.run_id for r in state.list_runs("t1", 1, first.next_cursor).items] == ["dream_a"]


def test_given_a_cost_cap_when_reserving_then_committed_spend_never_passes_it(both: Any) -> None:
    _, state = both
    state.create_run(DreamRun("dream_r1", T0, T0, Trigger.CLI))
    assert state.reserve_cost("dream_r1", "t1", "agent-a", 600, 1000)
    assert not state.reserve_cost("dream_r1", "t1", "agent-a", 600, 1000)
    state.settle_cost("dream_r1", "t1", "agent-a", 600, 350)
    assert state.reserve_cost("dream_r1", "t1", "agent-a", 600, 1000)  # 350 + 600 <= 1000
    assert not state.reserve_cost("dream_r1", "t1", "agent-a", 100, 1000)
    assert state.reserve_cost("dream_r1", "t1", "agent-b", 1000, 1000)  # each agent its own budget
    assert not state.reserve_cost("dream_r1", "t1", "agent-c", 1001, 1000)


def test_given_a_user_erased_when_dream_state_is_erased_then_due_and_markers_go(both: Any) -> None:
    store, state = both
    write(store, "t1", "alice", "city", T0)
    state.create_run(DreamRun("dream_r1", T0, T0, Trigger.CLI))
    state.finish_user("dream_r1", outcome("t1", "alice", 1, T0 + timedelta(days=1)))
    assert state.erase_user("t1", "alice") == {"dreamDue": 1, "dreamRunMarkers": 1}
    assert state.due_state("t1", "alice") is None
    assert not state.is_done("dream_r1", "t1", "alice")
    assert state.due_users(T0 + timedelta(days=30), 10).items == []
