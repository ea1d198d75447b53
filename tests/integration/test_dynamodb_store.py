"""What only the DynamoDB adapter has to get right, against moto server over HTTP.

The shared contract (tests/contract) covers the behaviour every store shares; these
cover the single-table mechanics: the live-count item and its recount, expiry without
TTL sweeps, key escaping, cursors, transactions past 100 items, erasure in batches, and
the stream feed of the local ``--backend aws`` mode.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.state_item import STATE_SK
from engram.container import build
from engram.domain.errors import CapacityReached, ValidationFailed
from engram.domain.models import Actor, ActorType, ChangeKind, Changeset, HistoryRecord, Visibility
from engram.domain.writes import WriteRequest, plan_write
from engram.ports import EntryQuery
from engram.service.memory import UpsertCommand
from engram.service.privacy import import_user
from engram.settings import Settings

from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint
from tests.support import T0, ManualClock, principal


@pytest.fixture
def store() -> Iterator[DynamoStore]:
    client = dynamodb_client(moto_endpoint())
    name = fresh_table_name()
    create_table(client, name)
    yield DynamoStore(client, name)
    client.delete_table(TableName=name)


def _req(key: str, value: str = "v", *, category: str = "fact", tenant: str = "t1", user: str = "u1") -> WriteRequest:
    return WriteRequest(
        tenant, user, key, value, category, Visibility.SELF, "agent-a", Actor(ActorType.AGENT, "agent-a")
    )


def _create(store: DynamoStore, req: WriteRequest, now: Any = T0, cap: int | None = None) -> Any:
    state = store.get_identity(req.tenant_id, req.user_id, req.identity)
    current = (
        store.get_entry(req.tenant_id, req.user_id, state.current_entry_id)
        if state and state.current_entry_id
        else None
    )
    plan = plan_write(req, current, None if state is None else state.version, now)
    store.apply(
        Changeset(req.tenant_id, req.user_id, (plan.guard,), plan.entries, plan.history, plan.active_delta, cap), now
    )
    return plan.entry


def _live_count_item(store: DynamoStore, tenant: str = "t1", user: str = "u1") -> int | None:
    item = store.get(k.user_pk(tenant, user), STATE_SK)
    return None if item is None else int(item["n"]["N"])


def test_given_expired_entries_still_in_the_table_when_the_user_is_full_then_a_recount_makes_room(
    store: DynamoStore,
) -> None:
    _create(store, _req("mood", "tired", category="feeling"), cap=2)
    _create(store, _req("plan", "gym", category="feeling"), cap=2)
    later = T0 + timedelta(hours=7)  # both expired; moto never deletes them
    assert _live_count_item(store) == 2
    _create(store, _req("name", "Alice"), later, cap=2)
    _create(store, _req("city", "Paris"), later, cap=2)
    with pytest.raises(CapacityReached):
        _create(store, _req("pet", "cat"), later, cap=2)
    assert store.count_live("t1", "u1", later) == 2
    assert _live_count_item(store) == 2
    [mood] = store.list_entries("t1", "u1", EntryQuery(now=later, key="mood", include_expired=True)).items
    raw = store.get(k.user_pk("t1", "u1"), k.entry_sk(mood.id))
    assert raw is not None and int(raw[k.TTL]["N"]) >= (T0 + timedelta(hours=6)).timestamp()
    assert store.list_entries("t1", "u1", EntryQuery(now=later, key="mood")).items == []


def test_given_concurrent_creates_for_one_user_then_capacity_is_never_exceeded(store: DynamoStore) -> None:
    outcomes: list[str] = []
    lock = threading.Lock()

    def create(n: int) -> None:
        try:
            _create(store, _req(f"key-{n}"), cap=5)
            result = "created"
        except CapacityReached:
            result = "full"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["created"] * 5 + ["full"] * 7
    assert store.count_live("t1", "u1", T0) == 5 == _live_count_item(store)


def test_given_ids_holding_the_separator_then_tenants_and_users_stay_apart(store: DynamoStore) -> None:
    _create(store, _req("k", "one", tenant="a#U#b", user="c"))
    _create(store, _req("k", "two", tenant="a", user="b#U#c"))
    one = store.list_entries("a#U#b", "c", EntryQuery(now=T0)).items
    two = store.list_entries("a", "b#U#c", EntryQuery(now=T0)).items
    assert [e.value for e in one] == ["one"] and [e.value for e in two] == ["two"]
    assert k.parse_user_pk(k.user_pk("a#U#b", "c%23")) == ("a#U#b", "c%23")


@pytest.mark.parametrize("cursor", ["not base64 !", "WzFd", "WyJ4IiwieSJd", "WzEsMiwzLDRd", "bnVsbA"])
def test_given_a_cursor_this_api_did_not_issue_then_validation_fails(store: DynamoStore, cursor: str) -> None:
    with pytest.raises(ValidationFailed):
        store.list_entries("t1", "u1", EntryQuery(now=T0, cursor=cursor))


def test_given_a_bad_history_cursor_then_validation_fails(store: DynamoStore) -> None:
    with pytest.raises(ValidationFailed):
        store.history("t1", "u1", "x" * 32, cursor="WyJ4Il0")


def test_given_an_import_with_a_long_history_then_every_version_lands(store: DynamoStore) -> None:
    req = _req("color", "v0")
    entry = plan_write(req, None, None, T0).entry
    versions = 150  # past the 100 items one transaction may hold
    history = [
        {
            "tenantId": "t1",
            "userId": "u1",
            "identityId": req.identity,
            "version": v,
            "change": "updated",
            "actor": {"type": "agent", "id": "agent-a"},
            "reason": "import",
            "at": "2026-01-15T10:30:00.000000Z",
            "entry": {**_as_dict(entry), "version": v},
        }
        for v in range(1, versions + 1)
    ]
    data = {"tenantId": "t1", "userId": "u1", "entries": [{**_as_dict(entry), "version": versions}], "history": history}
    counts = import_user(store, store, data)
    assert counts["history"] == versions
    got: list[HistoryRecord] = []
    cursor = None
    while True:
        page = store.history("t1", "u1", req.identity, limit=64, cursor=cursor)
        got += page.items
        cursor = page.next_cursor
        if cursor is None:
            break
    assert [h.version for h in got] == list(range(1, versions + 1))
    assert all(h.change is ChangeKind.UPDATED for h in got)


def _as_dict(entry: Any) -> dict[str, Any]:
    from engram.domain.serialization import entry_to_dict

    return entry_to_dict(entry)


def test_given_a_user_with_many_items_when_erased_then_every_kind_is_counted(store: DynamoStore) -> None:
    for i in range(30):
        _create(store, _req(f"k{i}"))
    _create(store, _req("k0", "changed"), T0 + timedelta(seconds=1))
    counts = store.erase_user("t1", "u1")
    # dreamDue: the sparse "maintenance due" marker every write sets (see docs/dream.md).
    assert counts == {"entries": 31, "history": 31, "identities": 30, "profiles": 0, "settings": 0, "dreamDue": 1}
    assert (
        list(
            store.query_items(
                KeyConditionExpression="PK = :pk", ExpressionAttributeValues={":pk": {"S": k.user_pk("t1", "u1")}}
            )
        )
        == []
    )


def test_given_the_local_aws_mode_then_the_stream_feeds_the_embedded_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    endpoint = moto_endpoint()
    for name, value in DUMMY_CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    settings = Settings(
        backend="aws",
        data_dir=tmp_path,
        dynamodb_endpoint=endpoint,
        aws_region=REGION,
        table_name=fresh_table_name("engram-local"),
    )
    engram = build(settings, clock=ManualClock())  # creates the table on first use
    agent = principal("t1", "agent-a")
    [written] = engram.memory.upsert(agent, "u1", [UpsertCommand("favorite_color", "teal")])
    hits = engram.memory.search(agent, "u1", "favorite color")
    assert [h.entry.id for h in hits] == [written.entry.id]
    engram.memory.delete(agent, "u1", written.entry.id)
    assert engram.memory.search(agent, "u1", "favorite color") == []
    # A second process replays the stream from its start into its own index: same answer.
    again = build(settings.model_copy(update={"data_dir": tmp_path / "other"}), clock=ManualClock())
    assert again.memory.search(agent, "u1", "teal") == []
