"""DynamoDB requests and capacity per use case, against moto server.

Run: ``.venv/bin/python -m bench.dynamodb_requests``. Prints a table and writes
``bench/results/dynamodb_requests.json``, the input of the cost model (``bench/cost.py``).

Requests are counted by the adapter's own metrics (``DynamoStore.metrics``), which also
sum the ConsumedCapacity DynamoDB returns (every call asks for TOTAL). moto returns
placeholder figures there, so capacity is also estimated from what went over the wire,
by DynamoDB's sizing rules: an item's size is its attribute names plus values; reads
cost one unit per 4 KB (half when eventually consistent; a query rounds its total,
GetItem/BatchGetItem each item, a missing item one). Writes cost one unit per 1 KB per
item. Every index whose stored view the write changes costs again: one with an ALL
projection its size in units, a KEYS_ONLY or small INCLUDE one a unit, an index whose key
changes a delete and a put; an index whose view is unchanged costs nothing.

Inside a transaction the table's write of each item costs twice: DynamoDB writes every
item twice, once to prepare and once to commit (Developer Guide, "Capacity management
for transactions"). That doubling applies to the item, not to its index entries: an index,
local or global, is charged what the same write costs outside a transaction (the LSI
rules are in "Provisioned throughput considerations for local secondary indexes", which
has no transactional factor; the split was measured against DynamoDB with
ReturnConsumedCapacity=INDEXES, see docs/dynamodb.md, "Where the units go"). A
ConditionCheck writes nothing but is charged as a transactional write of the item it
reads (two units per KB; a missing item is charged as one of 1 KB). The estimate follows
every item it has seen (puts, reads, updates), so it knows which indexes hold it.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import boto3
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.entries import ACCESS_SAMPLE_EVERY
from engram.adapters.dynamodb.stream import StreamOutbox
from engram.backends.aws import AwsBackend
from engram.container import build
from engram.domain.models import Actor, ActorType, Changeset, Principal, Role, Visibility
from engram.domain.writes import WriteRequest, plan_write
from engram.service.indexing import OutboxDrainer
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest
from engram.settings import Settings

from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.support import T0, ManualClock

RESULTS = Path(__file__).parent / "results" / "dynamodb_requests.json"
USER_ENTRIES = 500  # the default maxEntriesPerUser
KEYS_ONLY_BYTES = 120  # PK + SK + LSI3SK of an entry, as LSI3 holds it


def _size(value: dict[str, Any]) -> int:
    (kind, v), *_ = value.items()
    if kind in ("S", "B"):
        return len(v.encode() if isinstance(v, str) else v)
    if kind == "N":
        return math.ceil(len(str(v).lstrip("-").replace(".", "")) / 2) + 1
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + _size(x) for x in v)
    if kind == "M":
        return 3 + sum(len(name.encode()) + 1 + _size(x) for name, x in v.items())
    return sum(len(str(x)) for x in v)  # sets


def item_size(item: dict[str, Any]) -> int:
    return sum(len(name.encode()) + _size(value) for name, value in item.items())


_ALL = "all"
# index -> (key attribute, projection)
_INDEXES = {
    k.LSI1: (k.LSI1SK, _ALL),
    k.LSI2: (k.LSI2SK, _ALL),
    k.LSI3: (k.LSI3SK, "keys"),
    k.GSI1: (k.GSI1PK, _ALL),
    k.GSI2: (k.GSI2SK, "include"),
}
_LOCAL = {k.LSI1, k.LSI2, k.LSI3}


def _units(size: int) -> int:
    return max(1, math.ceil(size / 1024))


def index_units(before: dict[str, Any] | None, after: dict[str, Any] | None) -> tuple[float, float]:
    """(local, global) index write units for an item going from ``before`` to ``after``."""
    local = glob = 0.0
    for name, (key, projection) in _INDEXES.items():
        had = before is not None and key in before
        has = after is not None and key in after
        if not had and not has:
            continue
        size = item_size(after if has and after is not None else before or {})
        unit = _units(size) if projection == _ALL else 1
        if had and has and before is not None and after is not None:
            if before[key] != after[key]:
                cost = 2 * unit  # the old index entry deleted, the new one put
            elif projection == _ALL:
                cost = unit if before != after else 0  # a projected attribute changed
            elif projection == "include" and before.get("dueAt") != after.get("dueAt"):
                cost = unit
            else:
                cost = 0
        else:
            cost = unit
        if name in _LOCAL:
            local += cost
        else:
            glob += cost
    return local, glob


def _apply_update(before: dict[str, Any] | None, params: dict[str, Any]) -> dict[str, Any]:
    """The item after an update, as far as the estimate needs it: SET of plain values,
    ADD of numbers, REMOVE (functions such as if_not_exists are left as they were)."""
    item = dict(before or {})
    item.update(params["Key"])
    names = params.get("ExpressionAttributeNames", {})
    values = params.get("ExpressionAttributeValues", {})
    for clause in re.split(r"\b(?=SET |ADD |REMOVE )", params["UpdateExpression"]):
        verb, _, rest = clause.strip().partition(" ")
        for part in (p.strip() for p in rest.split(",") if p.strip()):
            if verb == "REMOVE":
                item.pop(names.get(part, part), None)
            elif verb == "SET" and "=" in part:
                left, right = (x.strip() for x in part.split("=", 1))
                if right in values:
                    item[names.get(left, left)] = values[right]
            elif verb == "ADD":
                left, right = part.split()
                name = names.get(left, left)
                old = float(item.get(name, {}).get("N", 0))
                item[name] = {"N": str(old + float(values[right]["N"]))}
    return item


@dataclass
class Estimate:
    read_units: float = 0.0
    write_units: float = 0.0
    by_operation: dict[str, int] = field(default_factory=dict)


class MeteredClient:
    """Wraps the boto3 client: every call also adds to an estimate of its capacity."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._items: dict[tuple[str, str], dict[str, Any]] = {}  # the last state seen per key
        self.estimate = Estimate()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._client, name)
        if not callable(method):
            return method

        def call(**params: Any) -> Any:
            response = method(**params)
            self._account(name, params, response)
            return response

        return call

    def _key(self, item: dict[str, Any]) -> tuple[str, str]:
        return (item.get(k.PK, {}).get("S", ""), item.get(k.SK, {}).get("S", ""))

    def _seen(self, item: dict[str, Any]) -> dict[str, Any]:
        """The whole item as last seen (a projection returns part of it; an index holds it all)."""
        key = self._key(item)
        whole = {**self._items.get(key, {}), **item}
        if key[1]:
            self._items[key] = whole
        return whole

    def _write(self, key: tuple[str, str], after: dict[str, Any] | None, factor: int) -> None:
        """``factor``: 2 inside a transaction, for the table's write of the item only."""
        before = self._items.get(key)
        base = _units(item_size(after if after is not None else before or {}))
        local, glob = index_units(before, after)
        self.estimate.write_units += factor * base + local + glob
        if after is None:
            self._items.pop(key, None)
        else:
            self._items[key] = after

    def _account(self, name: str, params: dict[str, Any], response: dict[str, Any]) -> None:
        e = self.estimate
        factor = 1.0 if params.get("ConsistentRead") else 0.5
        if name == "get_item":
            item = response.get("Item")
            e.read_units += factor * (max(1, math.ceil(item_size(self._seen(item)) / 4096)) if item else 1)
        elif name == "batch_get_item":
            for table, request in params["RequestItems"].items():
                f = 1.0 if request.get("ConsistentRead") else 0.5
                found = [self._seen(i) for i in response.get("Responses", {}).get(table, [])]
                misses = len(request["Keys"]) - len(found)
                e.read_units += f * (sum(max(1, math.ceil(item_size(i) / 4096)) for i in found) + misses)
        elif name == "query":
            items = response.get("Items")
            if items is None:  # Select=COUNT: read the index entries counted
                total = KEYS_ONLY_BYTES * int(response.get("ScannedCount", 0))
            else:
                sizes = [item_size(self._seen(i)) for i in items]
                scanned = int(response.get("ScannedCount", len(items)))
                average = sum(sizes) / len(sizes) if sizes else KEYS_ONLY_BYTES
                total = sum(sizes) + average * (scanned - len(items))  # filtered items were read too
            e.read_units += factor * max(1, math.ceil(total / 4096))
        elif name == "put_item":
            self._write(self._key(params["Item"]), params["Item"], 1)
        elif name == "update_item":
            key = self._key(params["Key"])
            self._write(key, _apply_update(self._items.get(key), params), 1)
        elif name == "delete_item":
            self._write(self._key(params["Key"]), None, 1)
        elif name == "batch_write_item":
            for requests in params["RequestItems"].values():
                for r in requests:
                    if "PutRequest" in r:
                        self._write(self._key(r["PutRequest"]["Item"]), r["PutRequest"]["Item"], 1)
                    else:
                        self._write(self._key(r["DeleteRequest"]["Key"]), None, 1)
        elif name == "transact_write_items":
            for action in params["TransactItems"]:
                if "Put" in action:
                    self._write(self._key(action["Put"]["Item"]), action["Put"]["Item"], 2)
                elif "Update" in action:
                    key = self._key(action["Update"]["Key"])
                    self._write(key, _apply_update(self._items.get(key), action["Update"]), 2)
                elif "Delete" in action:
                    self._write(self._key(action["Delete"]["Key"]), None, 2)
                else:  # ConditionCheck: charged on the item it reads
                    checked = self._items.get(self._key(action["ConditionCheck"]["Key"]))
                    e.write_units += 2 * _units(item_size(checked or {}))
        e.by_operation[name] = e.by_operation.get(name, 0) + 1


def _seed(store: DynamoStore, n: int) -> None:
    """Give bob ``n`` live entries in one changeset (the adapter splits it into
    transactions of 33 identities): the setup is not what is measured."""
    plans = [
        plan_write(
            WriteRequest(
                "bench",
                "bob",
                f"fact_{i:03d}",
                f"bob likes thing number {i}",
                "preference",
                Visibility.SELF,
                "agent-a",
                Actor(ActorType.AGENT, "agent-a"),
            ),
            None,
            None,
            T0 + timedelta(seconds=i),
        )
        for i in range(n)
    ]
    store.apply(
        Changeset(
            "bench",
            "bob",
            tuple(p.guard for p in plans),
            tuple(e for p in plans for e in p.entries),
            tuple(h for p in plans for h in p.history),
            n,
        ),
        T0 + timedelta(seconds=n),
    )


class _Sampler:
    """Stands in for ``random.Random``: the bench chooses which recall is sampled."""

    value = 0.99

    def random(self) -> float:
        return self.value


def _credentials() -> dict[str, str]:
    return {
        "aws_access_key_id": DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        "aws_secret_access_key": DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    }


def _agent() -> Principal:
    return Principal("bench", "agent-a", frozenset({Role.WRITER}), ("team",), "k-bench")


def main() -> int:
    endpoint = moto_endpoint()
    raw = dynamodb_client(endpoint)
    table = fresh_table_name("engram-bench")
    create_table(raw, table)
    metered = MeteredClient(raw)
    sampler = _Sampler()
    store = DynamoStore(
        metered,  # type: ignore[arg-type]
        table,
        access_sample_every=ACCESS_SAMPLE_EVERY,
        sampler=sampler,  # type: ignore[arg-type]
    )
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp))
        backend = AwsBackend(settings, store)
        engram = build(settings, backend=backend, clock=ManualClock(T0 + timedelta(hours=1)))
        agent = _agent()
        rows: list[dict[str, Any]] = []

        def measure(case: str, action: Any) -> Any:
            store.metrics.reset()
            metered.estimate = Estimate()
            started = time.perf_counter()
            result = action()
            elapsed = time.perf_counter() - started
            ops = store.metrics.snapshot()
            rows.append(
                {
                    "case": case,
                    "requests": sum(s.requests for s in ops.values()),
                    "byOperation": {op: s.requests for op, s in sorted(ops.items())},
                    "reportedCapacityUnits": round(sum(s.capacity_units for s in ops.values()), 2),
                    "estimatedReadUnits": round(metered.estimate.read_units, 2),
                    "estimatedWriteUnits": round(metered.estimate.write_units, 2),
                    "motoMilliseconds": round(elapsed * 1000, 1),
                }
            )
            return result

        upsert = engram.memory.upsert
        # alice already has one memory, so a create also counts what she has
        upsert(agent, "alice", [UpsertCommand("name", "Alice")])
        admin = Principal("bench", "admin", frozenset({Role.ADMIN}), (), "k-admin")
        # A new user's counter is settled by its first count (docs/dynamodb.md, "Capacity");
        # what follows is the steady state.
        engram.memory.count(admin, "alice")
        measure("upsert: create", lambda: upsert(agent, "alice", [UpsertCommand("favorite_color", "blue")]))
        measure("upsert: reinforce", lambda: upsert(agent, "alice", [UpsertCommand("favorite_color", "Blue")]))
        measure("upsert: supersede", lambda: upsert(agent, "alice", [UpsertCommand("favorite_color", "green")]))
        measure(
            "upsert: create (core preference)",
            lambda: upsert(agent, "alice", [UpsertCommand("favorite_food", "pizza", category="preference")]),
        )
        measure(
            "upsert: supersede (core preference)",
            lambda: upsert(agent, "alice", [UpsertCommand("favorite_food", "pasta", category="preference")]),
        )

        _seed(store, USER_ENTRIES)
        streams = boto3.client("dynamodbstreams", endpoint_url=endpoint, region_name=REGION, **_credentials())
        OutboxDrainer(StreamOutbox(store, streams), engram.indexer).drain()
        page = measure("visible-to (500 entries, first page)", lambda: engram.memory.visible(agent, "bob"))
        engram.memory.count(admin, "bob")  # the seed's counter is settled once (docs/dynamodb.md, "Capacity")
        measure("count (500 entries, whole user)", lambda: engram.memory.count(admin, "bob"))
        measure("count (500 entries, as one agent sees them)", lambda: engram.memory.count(agent, "bob"))
        hits = measure("search (500 entries, top 10)", lambda: engram.memory.search(agent, "bob", "thing number 42"))
        request = RecallRequest(message="what about thing number 42?")
        # The day's first recall of an entry records it whatever the sample: warm up.
        engram.recall.recall(agent, "bob", request)
        sampler.value = 0.99  # this recall is not sampled: no access statistics written
        recalled = measure(
            "recall (500 entries, top 5, tier 1 + 2)", lambda: engram.recall.recall(agent, "bob", request)
        )
        sampler.value = 0.0  # one recall in ACCESS_SAMPLE_EVERY also writes its access statistics
        measure(
            "recall, sampled: with its access statistics",
            lambda: engram.recall.recall(agent, "bob", request),
        )
        assert page.items, "the bench must measure a real listing"
        assert hits, "the bench must measure a real search"
        assert recalled.memories, "the bench must measure a real recall"

    stop_moto()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "backend": "moto server",
                "userEntries": USER_ENTRIES,
                "accessSampleEvery": ACCESS_SAMPLE_EVERY,
                "cases": rows,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    header = f"{'case':46} {'requests':>8} {'est. RCU':>9} {'est. WCU':>9} {'moto ms':>8}  by operation"
    print(header)
    print("-" * len(header))
    for r in rows:
        ops = ", ".join(f"{op} {n}" for op, n in r["byOperation"].items())
        print(
            f"{r['case']:46} {r['requests']:>8} {r['estimatedReadUnits']:>9} {r['estimatedWriteUnits']:>9} "
            f"{r['motoMilliseconds']:>8}  {ops}"
        )
    print(f"\nwrote {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
