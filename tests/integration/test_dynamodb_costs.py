"""What each DynamoDB access pattern reads and writes (issue 16), against moto server.

The request counts come from the adapter's own metrics; the read units these patterns
cost are measured by bench/dynamodb_requests.py. Here: the live count is one read of a
counter that stays exact across expiries, recall's tier 1 reads only the preferences it
shows, access statistics are one sampled, batched write, and the migration brings
entries of an older table to the current keys.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import to_item
from engram.adapters.dynamodb.core import DynamoCoreReader
from engram.adapters.dynamodb.dream_state import DUE_SK as STATE_SK
from engram.adapters.dynamodb.dream_state import DynamoDreamState
from engram.adapters.dynamodb.entry_items import entry_item
from engram.adapters.dynamodb.items import ITEM_ENTRY
from engram.adapters.dynamodb.migrate import migrate_entries
from engram.domain.dream_run import DreamRun, Stats, Trigger, UserOutcome
from engram.domain.errors import UserErased, VersionConflict
from engram.domain.models import Actor, ActorType, Changeset, MemoryEntry, Principal, Role, Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import entry_to_dict, ts
from engram.domain.writes import WriteRequest, plan_removal, plan_write
from engram.ports import EntryQuery, IdentityState
from engram.service.memory import UpsertCommand

from bench.dynamodb_requests import Estimate, MeteredClient
from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint
from tests.support import T0, ManualClock, engram_for


@pytest.fixture
def table() -> Iterator[tuple[Any, str]]:
    client = dynamodb_client(moto_endpoint())
    name = fresh_table_name()
    create_table(client, name)
    yield client, name
    client.delete_table(TableName=name)


@pytest.fixture
def store(table: tuple[Any, str]) -> DynamoStore:
    return DynamoStore(*table)


def _write(
    store: DynamoStore,
    key: str,
    value: str = "v",
    *,
    category: str = "fact",
    agent: str = "agent-a",
    visibility: Visibility = Visibility.SELF,
    importance: int | None = None,
    now: datetime = T0,
    groups: tuple[str, ...] = (),
    valid_to: datetime | None = None,
) -> MemoryEntry:
    req = WriteRequest(
        "t1",
        "u1",
        key,
        value,
        category,
        visibility,
        agent,
        Actor(ActorType.AGENT, agent),
        importance=importance,
        group_ids=groups,
        valid_to=valid_to,
    )
    state = store.get_identity("t1", "u1", req.identity)
    current = store.get_entry("t1", "u1", state.current_entry_id) if state and state.current_entry_id else None
    plan = plan_write(req, current, None if state is None else state.version, now)
    store.apply(Changeset("t1", "u1", (plan.guard,), plan.entries, plan.history, plan.active_delta, 500), now)
    return plan.entry


def _requests(store: DynamoStore) -> dict[str, int]:
    return {op: s.requests for op, s in store.metrics.snapshot().items() if s.requests}


# -- the live count -----------------------------------------------------------------------


def test_given_a_settled_counter_when_counting_then_one_get_item_answers(store: DynamoStore) -> None:
    for i in range(3):
        _write(store, f"k{i}")
    assert store.count_live("t1", "u1", T0) == 3  # the first count settles a new counter
    store.metrics.reset()
    assert store.count_live("t1", "u1", T0) == 3
    assert _requests(store) == {"GetItem": 1}
    _write(store, "k3")
    store.metrics.reset()
    assert store.count_live("t1", "u1", T0) == 4
    assert _requests(store) == {"GetItem": 1}


def test_given_an_expiry_passing_when_counting_then_the_counter_is_recounted_once(store: DynamoStore) -> None:
    _write(store, "trip", category="event")  # 7 days
    _write(store, "name", "Alice")
    assert store.count_live("t1", "u1", T0) == 2
    # A feeling expires (6 hours) before the event: the counter must learn the earlier expiry.
    _write(store, "mood", "tired", category="feeling", now=T0 + timedelta(minutes=1))
    assert store.count_live("t1", "u1", T0 + timedelta(hours=1)) == 3
    later = T0 + timedelta(hours=7)
    store.metrics.reset()
    assert store.count_live("t1", "u1", later) == 2
    assert _requests(store) == {"GetItem": 1, "Query": 1, "UpdateItem": 1}
    store.metrics.reset()
    assert store.count_live("t1", "u1", later) == 2
    assert _requests(store) == {"GetItem": 1}
    assert store.count_live("t1", "u1", T0 + timedelta(days=8)) == 1


def test_given_a_counter_from_an_older_table_when_counting_then_it_is_recounted(store: DynamoStore) -> None:
    for i in range(2):
        _write(store, f"k{i}")
    # Before the counter was trusted it was an upper bound with no mark: say it is wrong.
    # Tables of key design 2 kept it in its own item, which is not read any more.
    store.put(to_item({k.PK: k.user_pk("t1", "u1"), k.SK: k.LIVE_COUNT_SK, k.ITEM_TYPE: "liveCount", "n": 7}))
    store.put(to_item({k.PK: k.user_pk("t1", "u1"), k.SK: STATE_SK, k.ITEM_TYPE: "dreamDue", "activity": 2, "n": 7}))
    assert store.count_live("t1", "u1", T0) == 2
    store.metrics.reset()
    assert store.count_live("t1", "u1", T0) == 2
    assert _requests(store) == {"GetItem": 1}


_SCOPES = (
    VisibilityScope("agent-a"),
    VisibilityScope("agent-a", ("team",)),
    VisibilityScope("agent-b"),
    VisibilityScope("agent-c", ("other", "team")),
    VisibilityScope("admin", everything=True),
)


def _listed(store: DynamoStore, scope: VisibilityScope, now: datetime) -> int:
    return len(store.list_entries("t1", "u1", EntryQuery(now=now, limit=1000, scope=scope)).items)


def _remove(store: DynamoStore, entry: MemoryEntry, now: datetime) -> None:
    state = store.get_identity("t1", "u1", entry.identity_id)
    assert state is not None
    actor = Actor(ActorType.AGENT, entry.source_agent_id)
    guard, removed, record = plan_removal(entry, state.version, state.current_entry_id, actor, "test", now)
    store.apply(Changeset("t1", "u1", (guard,), (removed,), (record,), -1, 500), now)


def test_given_entries_of_every_visibility_when_an_agent_counts_then_one_read_of_its_buckets_answers(
    store: DynamoStore,
) -> None:
    _write(store, "shared", visibility=Visibility.GLOBAL, agent="agent-b")
    mine = _write(store, "mine", agent="agent-a")
    _write(store, "theirs", agent="agent-b")
    team = _write(store, "team_plan", agent="agent-b", visibility=Visibility.GROUP, groups=("team",))
    _write(store, "other_plan", agent="agent-b", visibility=Visibility.GROUP, groups=("other",))
    _write(store, "my_other", agent="agent-a", visibility=Visibility.GROUP, groups=("other", "team"))
    _write(store, "trip", agent="agent-b", visibility=Visibility.GLOBAL, category="event")  # expires in 7 days
    store.count_visible("t1", "u1", _SCOPES[0], T0)  # settles the buckets once
    for scope in _SCOPES:
        store.metrics.reset()
        counted = store.count_visible("t1", "u1", scope, T0)
        assert _requests(store) == {"GetItem": 1}
        assert counted == _listed(store, scope, T0), scope
    # When entries change: a supersede, a deletion, a new one, an expiry passing
    later = T0 + timedelta(minutes=1)
    _write(store, "mine", "new value", agent="agent-a", now=later)
    _remove(store, team, later)
    _remove(store, mine, later)  # already superseded: moves nothing
    _write(store, "more", agent="agent-c", visibility=Visibility.GROUP, groups=("other",), now=later)
    for scope in _SCOPES:
        store.metrics.reset()
        counted = store.count_visible("t1", "u1", scope, later)
        assert _requests(store) == {"GetItem": 1}
        assert counted == _listed(store, scope, later), scope
    week = T0 + timedelta(days=8)
    for scope in _SCOPES:
        assert store.count_visible("t1", "u1", scope, week) == _listed(store, scope, week), scope
    # A fact that holds only until a date: listings show what holds now, so agents list
    _write(store, "job", "acme", agent="agent-a", valid_to=T0 + timedelta(days=30), now=week)
    assert store.count_visible("t1", "u1", _SCOPES[0], week) is None
    assert store.count_visible("t1", "u1", _SCOPES[-1], week) == store.count_live("t1", "u1", week)


def test_given_an_agent_when_it_counts_through_the_service_then_settings_and_the_state_item_answer(
    store: DynamoStore, tmp_path: Path
) -> None:
    for i in range(30):
        _write(store, f"mine_{i}", agent="agent-a")
        _write(store, f"theirs_{i}", agent="agent-b")
    engram = engram_for(tmp_path, store, clock=ManualClock(T0))
    agent = Principal("t1", "agent-a", frozenset({Role.WRITER}), (), "k-a")
    assert engram.memory.count(agent, "u1") == 30  # the first count settles the buckets
    store.metrics.reset()
    assert engram.memory.count(agent, "u1") == 30
    # Settings (the read policy) and the state item in one read: no listing of the entries.
    assert _requests(store) == {"BatchGetItem": 1}


def _metered(table: tuple[Any, str]) -> tuple[MeteredClient, DynamoStore]:
    """A store whose calls are also sized by the bench's estimate of DynamoDB's units."""
    client, name = table
    metered = MeteredClient(client)
    return metered, DynamoStore(metered, name)  # type: ignore[arg-type]


def test_given_settled_counters_when_counting_through_the_service_then_one_read_unit_answers(
    table: tuple[Any, str], tmp_path: Path
) -> None:
    metered, store = _metered(table)
    for i in range(20):
        _write(store, f"mine_{i}", agent="agent-a")
        _write(store, f"theirs_{i}", agent="agent-b")
    engram = engram_for(tmp_path, store, clock=ManualClock(T0))
    agent = Principal("t1", "agent-a", frozenset({Role.WRITER}), (), "k-a")
    admin = Principal("t1", "admin", frozenset({Role.ADMIN}), (), "k-admin")
    engram.users.update_settings(admin, "u1", memory_enabled=True)  # a settings item exists
    assert engram.memory.count(admin, "u1") == 40  # the first count settles the buckets
    for who, expected in ((admin, 40), (agent, 20)):
        metered.estimate = Estimate()
        store.metrics.reset()
        assert engram.memory.count(who, "u1") == expected
        # Settings and the state item, each half a unit read eventually consistent.
        assert _requests(store) == {"BatchGetItem": 1}
        assert metered.estimate.read_units <= 1.0
    # The policy comes from the same read: memory off shows an agent nothing.
    engram.users.update_settings(admin, "u1", memory_enabled=False)
    assert engram.memory.count(agent, "u1") == 0
    assert engram.memory.count(admin, "u1") == 40


def test_given_a_supersede_through_the_service_then_it_costs_at_most_twelve_write_units(
    table: tuple[Any, str], tmp_path: Path
) -> None:
    metered, store = _metered(table)
    engram = engram_for(tmp_path, store, clock=ManualClock(T0))
    agent = Principal("t1", "agent-a", frozenset({Role.WRITER}), (), "k-a")
    engram.memory.upsert(agent, "u1", [UpsertCommand("name", "Alice")])
    engram.memory.upsert(agent, "u1", [UpsertCommand("favorite_color", "blue")])
    metered.estimate = Estimate()
    result = engram.memory.upsert(agent, "u1", [UpsertCommand("favorite_color", "green")])
    # The old entry (its LSI1 key moves: a delete and a put there), the new entry, its
    # history version and the state item: 2 + 2, 2 + 1, 2, 2. Transactions double the
    # items' own writes, not their index entries (docs/dynamodb.md, "Where the units go").
    assert metered.estimate.write_units == 11
    history = engram.memory.history(agent, "u1", result[0].entry.id).items
    assert [h.entry.value for h in history] == ["blue", "green"]


def test_given_a_recount_racing_a_supersede_between_buckets_then_it_does_not_settle_stale_buckets(
    store: DynamoStore,
) -> None:
    _write(store, "plan", "gym", visibility=Visibility.GROUP, groups=("team",))
    pk = k.user_pk("t1", "u1")
    team = VisibilityScope("agent-c", ("team",))
    assert store.count_visible("t1", "u1", team, T0) == 1
    # A recount reads the entries, then the same identity moves to another group (n stays 1)
    stale_tally, stale_seen = store._exact_live(pk, T0), store._state(pk, consistent=True)
    later = T0 + timedelta(minutes=1)
    _write(store, "plan", "pool", visibility=Visibility.GROUP, groups=("other",), now=later)
    store._exact_live = lambda pk, now: stale_tally  # type: ignore[method-assign]
    store._settle(pk, later, stale_seen)
    del store._exact_live
    assert store.count_visible("t1", "u1", team, later) == 0 == _listed(store, team, later)


def test_given_random_changes_then_every_agent_count_is_its_listing(store: DynamoStore) -> None:
    rng = random.Random(16)
    agents, groups = ("agent-a", "agent-b", "agent-c"), ("team", "other")
    live: dict[str, MemoryEntry] = {}
    now = T0
    for step in range(30):
        now += timedelta(seconds=1)
        if live and rng.random() < 0.25:
            victim = live.pop(rng.choice(sorted(live)))
            _remove(store, victim, now)
        else:
            visibility = rng.choice(list(Visibility))
            agent = rng.choice(agents)
            chosen = tuple(g for g in groups if rng.random() < 0.6) or ("team",)
            entry = _write(
                store,
                f"k{rng.randrange(8)}",
                f"v{step}",
                agent=agent,
                visibility=visibility,
                groups=chosen if visibility is Visibility.GROUP else (),
                now=now,
            )
            live = {i: e for i, e in live.items() if e.identity_id != entry.identity_id}
            live[entry.id] = entry
        for scope in _SCOPES:
            assert store.count_visible("t1", "u1", scope, now) == _listed(store, scope, now), (step, scope)


# -- the user's state item: one update per change ------------------------------------------


class _Recording(DynamoStore):
    """Keeps the actions of every transaction it sends."""

    def __init__(self, client: Any, table_name: str) -> None:
        super().__init__(client, table_name)
        self.transactions: list[list[str]] = []

    def call(self, operation: str, **params: Any) -> dict[str, Any]:
        if operation == "TransactWriteItems":
            self.transactions.append([next(iter(a)) for a in params["TransactItems"]])
        return super().call(operation, **params)


def _change(store: DynamoStore, key: str, now: datetime, origin: datetime) -> Changeset:
    req = WriteRequest("t1", "u1", key, "v", "fact", Visibility.SELF, "agent-a", Actor(ActorType.AGENT, "agent-a"))
    state = store.get_identity("t1", "u1", req.identity)
    plan = plan_write(req, None, None if state is None else state.version, now)
    return Changeset("t1", "u1", (plan.guard,), plan.entries, plan.history, plan.active_delta, 500, origin)


def test_given_a_user_already_due_when_written_again_then_one_state_update_and_no_index_key_moves(
    table: tuple[Any, str],
) -> None:
    store = _Recording(*table)
    store.apply(_change(store, "city", T0, T0), T0)
    store.count_live("t1", "u1", T0)
    before = store.get(k.user_pk("t1", "u1"), STATE_SK)
    later = T0 + timedelta(minutes=5)
    store.apply(_change(store, "pet", later, later), later)
    after = store.get(k.user_pk("t1", "u1"), STATE_SK)
    assert before is not None and after is not None
    # The entry, its history version (also the identity's lock: no identity item) and one
    # update of the state item, which holds the count and the due mark. The first write of
    # a user checks the erasure mark; later ones lean on the state item.
    assert store.transactions == [["Put", "Put", "ConditionCheck", "Update"], ["Put", "Put", "Update"]]
    assert not any(it[k.SK]["S"].startswith("I#") for it in store.client.scan(TableName=store.table_name)["Items"])
    # Still due since the first write: GSI2's key is not deleted and put again.
    assert after[k.GSI2SK] == before[k.GSI2SK]
    due = DynamoDreamState(store.client, store.table_name).due_state("t1", "u1")
    assert due is not None and due.due_at == T0 and due.activity == 2
    assert store.count_live("t1", "u1", later) == 2
    assert not any(it[k.SK]["S"] == k.LIVE_COUNT_SK for it in store.client.scan(TableName=store.table_name)["Items"])


def test_given_a_dream_pass_moved_the_due_time_when_written_then_the_user_is_due_again(store: DynamoStore) -> None:
    store.apply(_change(store, "city", T0, T0), T0)
    state = DynamoDreamState(store.client, store.table_name)
    state.create_run(DreamRun("dream_r1", T0, T0, Trigger.CLI))
    seen = state.due_state("t1", "u1")
    assert seen is not None
    outcome = UserOutcome("t1", "u1", Stats(users_processed=1), seen.activity, T0 + timedelta(days=7), T0)
    assert state.finish_user("dream_r1", outcome)
    assert state.due_users(T0 + timedelta(days=1), 10).items == []
    later = T0 + timedelta(hours=1)
    store.apply(_change(store, "pet", later, later), later)
    assert [u.due_at for u in state.due_users(T0 + timedelta(days=1), 10).items] == [later]


def test_given_an_erasure_after_a_write_began_then_the_state_item_cannot_vouch_for_it(store: DynamoStore) -> None:
    store.apply(_change(store, "city", T0, T0), T0)
    stale_hint = store._state(k.user_pk("t1", "u1"), consistent=True)
    assert stale_hint is not None and stale_hint["clearSince"] <= ts(T0)
    began = T0 + timedelta(seconds=30)
    late = _change(store, "pet", began, began)  # planned before the erasure
    store.mark_erased("t1", "u1", T0 + timedelta(minutes=1))
    store.erase_user("t1", "u1")
    # The hint (an eventually consistent read) may still show the erased state item.
    real = store._state
    store._state = lambda pk, *, consistent: stale_hint if not consistent else real(pk, consistent=True)  # type: ignore[method-assign]
    with pytest.raises(UserErased):
        store.apply(late, began)
    store._state = real  # type: ignore[method-assign]
    # A write that arrived after the erasure is kept, and vouches only from its own origin on.
    after = T0 + timedelta(minutes=2)
    store.apply(_change(store, "name", after, after), after)
    with pytest.raises(UserErased):
        store.apply(_change(store, "pet", after, began), after)
    assert [e.key for e in store.list_entries("t1", "u1", EntryQuery(now=after)).items] == ["name"]


def test_given_two_writers_of_one_version_when_both_apply_then_the_history_put_lets_one_through(
    store: DynamoStore,
) -> None:
    _write(store, "city", "Paris")
    req = WriteRequest("t1", "u1", "city", "x", "fact", Visibility.SELF, "agent-a", Actor(ActorType.AGENT, "agent-a"))
    state = store.get_identity("t1", "u1", req.identity)
    assert state is not None and state.current_entry_id is not None
    current = store.get_entry("t1", "u1", state.current_entry_id)
    first, second = (
        plan_write(replace(req, value=v), current, state.version, T0 + timedelta(minutes=1)) for v in ("London", "Rome")
    )
    for plan in (first, second):
        change = Changeset("t1", "u1", (plan.guard,), plan.entries, plan.history, plan.active_delta, 500)
        if plan is first:
            store.apply(change, T0 + timedelta(minutes=1))
        else:
            with pytest.raises(VersionConflict):
                store.apply(change, T0 + timedelta(minutes=1))
    after = store.get_identity("t1", "u1", req.identity)
    assert after is not None and after.version == state.version + 1
    assert after.current_entry_id == first.entry.id
    assert [e.value for e in store.list_entries("t1", "u1", EntryQuery(now=T0 + timedelta(minutes=1))).items] == [
        "London"
    ]


def test_given_an_identity_of_an_older_table_when_written_then_its_item_is_read_until_history_holds_it(
    store: DynamoStore,
) -> None:
    entry = _write(store, "city", "Paris")
    pk = k.user_pk("t1", "u1")
    # As key design 2 left it: the state in an identity item, none in the history version.
    store.client.update_item(
        TableName=store.table_name,
        Key={k.PK: {"S": pk}, k.SK: {"S": k.history_sk(entry.identity_id, 1)}},
        UpdateExpression="REMOVE identityState, currentEntryId",
    )
    store.put(
        to_item(
            {
                k.PK: pk,
                k.SK: k.identity_sk(entry.identity_id),
                k.ITEM_TYPE: "identity",
                "identityId": entry.identity_id,
                "version": 1,
                "currentEntryId": entry.id,
            }
        )
    )
    store.metrics.reset()
    assert store.get_identity("t1", "u1", entry.identity_id) == IdentityState(1, entry.id)
    assert _requests(store) == {"Query": 1, "GetItem": 1}
    newer = _write(store, "city", "London", now=T0 + timedelta(minutes=1))
    store.metrics.reset()
    assert store.get_identity("t1", "u1", entry.identity_id) == IdentityState(2, newer.id)
    assert _requests(store) == {"Query": 1}
    assert store.erase_user("t1", "u1")["identities"] == 1


# -- recall's tier 1 -------------------------------------------------------------------------


def test_given_preferences_when_tier1_is_read_then_the_best_visible_ones_come_from_one_query(
    store: DynamoStore,
) -> None:
    for i in range(12):
        _write(store, f"pref_{i}", f"value {i}", category="preference", importance=10 + i)
    _write(store, "fact", "not a preference", importance=100)
    _write(store, "other", "another agent's own", category="preference", agent="agent-b", importance=100)
    _write(store, "shared", "everyone's", category="preference", visibility=Visibility.GLOBAL, importance=95)
    reader = DynamoCoreReader(store)
    store.metrics.reset()
    top = reader.top_by_importance("t1", "u1", VisibilityScope("agent-a"), "preference", T0, 5)
    assert [e.key for e in top] == ["shared", "pref_11", "pref_10", "pref_9", "pref_8"]
    assert _requests(store) == {"Query": 1}
    # Only the preference entries that are active are in the index at all.
    items = store.client.scan(TableName=store.table_name)["Items"]
    in_lsi2 = {it["key"]["S"] for it in items if it.get(k.ITEM_TYPE, {}).get("S") == ITEM_ENTRY and k.LSI2SK in it}
    assert "fact" not in in_lsi2
    assert not any(k.LSI3SK in it for it in items)


def test_given_a_superseded_preference_when_tier1_is_read_then_only_the_new_value_shows(store: DynamoStore) -> None:
    _write(store, "color", "blue", category="preference", importance=80)
    _write(store, "color", "green", category="preference", importance=80)
    top = DynamoCoreReader(store).top_by_importance("t1", "u1", VisibilityScope("agent-a"), "preference", T0, 5)
    assert [e.value for e in top] == ["green"]


# -- access statistics -------------------------------------------------------------------------


def test_given_recalled_entries_when_access_is_recorded_then_one_batched_write_covers_them(
    store: DynamoStore,
) -> None:
    ids = [_write(store, f"k{i}").id for i in range(5)]
    store.metrics.reset()
    store.record_access("t1", "u1", ids, T0 + timedelta(minutes=5))
    assert _requests(store) == {"TransactWriteItems": 1}
    for e in store.get_entries("t1", "u1", ids):
        assert e.access_count == 1
        assert e.last_accessed_at == T0 + timedelta(minutes=5)
        assert e.version == 1  # not a versioned change


def test_given_sampling_when_many_recalls_record_access_then_counts_stay_unbiased(table: tuple[Any, str]) -> None:
    store = DynamoStore(*table, access_sample_every=4, sampler=random.Random(7))
    entry = _write(store, "k")
    fresh = {entry.id: T0}  # the caller read a last access from this very moment
    writes = 0
    for _ in range(200):
        store.metrics.reset()
        store.record_access("t1", "u1", [entry.id], T0, fresh)
        calls = _requests(store)
        assert sum(calls.values()) <= 1
        writes += calls.get("TransactWriteItems", 0)
    stored = store.get_entry("t1", "u1", entry.id)
    assert stored is not None
    assert stored.access_count == 4 * writes
    assert 30 <= writes <= 70  # about one in four (seeded)


class _Never:
    def random(self) -> float:
        return 0.99


def test_given_an_unsampled_recall_of_a_stale_entry_when_recorded_then_last_access_is_still_written(
    table: tuple[Any, str],
) -> None:
    store = DynamoStore(*table, access_sample_every=64, sampler=_Never())  # type: ignore[arg-type]
    entry = _write(store, "k")
    store.metrics.reset()
    store.record_access("t1", "u1", [entry.id], T0 + timedelta(hours=1), {entry.id: T0})
    assert _requests(store) == {}  # accessed an hour ago, not sampled: nothing written
    store.record_access("t1", "u1", [entry.id], T0 + timedelta(days=2), {entry.id: T0})
    store.record_access("t1", "u1", [entry.id], T0 + timedelta(days=3), {entry.id: None})
    stored = store.get_entry("t1", "u1", entry.id)
    assert stored is not None
    assert stored.last_accessed_at == T0 + timedelta(days=3)
    assert stored.access_count == 2


def test_given_an_erased_entry_among_recalled_ones_when_access_is_recorded_then_the_others_count(
    store: DynamoStore,
) -> None:
    ids = [_write(store, f"k{i}").id for i in range(3)]
    store.client.delete_item(
        TableName=store.table_name, Key={k.PK: {"S": k.user_pk("t1", "u1")}, k.SK: {"S": k.entry_sk(ids[1])}}
    )
    store.record_access("t1", "u1", ids, T0)
    counts = {e.id: e.access_count for e in store.get_entries("t1", "u1", ids)}
    assert counts == {ids[0]: 1, ids[2]: 1}


# -- migration from the keys of version 1 -------------------------------------------------------


def _legacy_item(e: MemoryEntry) -> dict[str, Any]:
    """An entry as version 1 of the key design wrote it."""
    item = entry_item(e)
    data = entry_to_dict(e)
    item.pop(k.LSI2SK, None)
    item[k.LSI2SK] = {"S": k.access_sk(e.status.value, e.access_count, data["updatedAt"], e.id)}
    if e.status.value == "active":
        item[k.LSI3SK] = {"S": k.expiry_sk(data.get("expiresAt"), e.id)}
    return item


def test_given_entries_of_an_older_table_when_migrated_then_tier1_sees_them(store: DynamoStore) -> None:
    pref = _write(store, "color", "blue", category="preference", importance=70)
    fact = _write(store, "city", "Paris")
    for e in (pref, fact):
        store.put(_legacy_item(e))
    reader = DynamoCoreReader(store)
    scope = VisibilityScope("agent-a")
    assert reader.top_by_importance("t1", "u1", scope, "preference", T0, 5) == []
    assert migrate_entries(store) == {"scanned": 2, "rewritten": 2, "raced": 0}
    assert [e.key for e in reader.top_by_importance("t1", "u1", scope, "preference", T0, 5)] == ["color"]
    items = [it for it in store.client.scan(TableName=store.table_name)["Items"] if it[k.ITEM_TYPE]["S"] == ITEM_ENTRY]
    assert {it["key"]["S"]: it.get(k.LSI2SK, {}).get("S", "") for it in items} == {
        "color": k.core_sk(70, entry_to_dict(pref)["updatedAt"], pref.id),
        "city": "",
    }
    assert not any(k.LSI3SK in it for it in items)
    assert migrate_entries(store) == {"scanned": 2, "rewritten": 0, "raced": 0}
