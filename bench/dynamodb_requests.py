"""DynamoDB requests and capacity per use case, against moto server.

Run: ``.venv/bin/python -m bench.dynamodb_requests``. Prints a table and writes
``bench/results/dynamodb_requests.json``.

Requests are counted by the adapter's own metrics (``DynamoStore.metrics``), which also
sum the ConsumedCapacity DynamoDB returns (every call asks for TOTAL). moto returns
placeholder figures there, so capacity is also estimated from what went over the wire,
by DynamoDB's sizing rules: an item's size is its attribute names plus values; reads
cost one unit per 4 KB (half when eventually consistent; a query rounds its total,
GetItem/BatchGetItem each item), writes one unit per 1 KB per item, twice inside a
transaction, and again for each LSI that holds the item (ALL projections: the full
size; LSI3 keys only: one unit).
"""

from __future__ import annotations

import json
import math
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import boto3
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.dynamodb import keys as k
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


def _write_units(item: dict[str, Any]) -> float:
    size = item_size(item)
    units = math.ceil(size / 1024)
    lsis = sum(1 for a in (k.LSI1SK, k.LSI2SK) if a in item)
    return units * (1 + lsis) + (1 if k.LSI3SK in item else 0) + (units if k.GSI1PK in item else 0)


@dataclass
class Estimate:
    read_units: float = 0.0
    write_units: float = 0.0
    by_operation: dict[str, int] = field(default_factory=dict)


class MeteredClient:
    """Wraps the boto3 client: every call also adds to an estimate of its capacity."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._sizes: dict[tuple[str, str], int] = {}  # last size seen per key, for updates
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

    def _account(self, name: str, params: dict[str, Any], response: dict[str, Any]) -> None:
        e = self.estimate
        factor = 1.0 if params.get("ConsistentRead") else 0.5
        if name == "get_item":
            item = response.get("Item")
            e.read_units += factor * max(1, math.ceil(item_size(item) / 4096) if item else 1)
        elif name == "batch_get_item":
            for table, request in params["RequestItems"].items():
                f = 1.0 if request.get("ConsistentRead") else 0.5
                found = response.get("Responses", {}).get(table, [])
                for item in found:
                    self._sizes[self._key(item)] = item_size(item)
                misses = len(request["Keys"]) - len(found)
                e.read_units += f * (sum(max(1, math.ceil(item_size(i) / 4096)) for i in found) + misses)
        elif name == "query":
            items = response.get("Items")
            if items is None:  # Select=COUNT: read the index entries counted
                total = KEYS_ONLY_BYTES * int(response.get("ScannedCount", 0))
            else:
                sizes = [item_size(i) for i in items]
                scanned = int(response.get("ScannedCount", len(items)))
                average = sum(sizes) / len(sizes) if sizes else KEYS_ONLY_BYTES
                total = sum(sizes) + average * (scanned - len(items))  # filtered items were read too
            e.read_units += factor * max(1, math.ceil(total / 4096))
        elif name == "put_item":
            e.write_units += _write_units(params["Item"])
        elif name == "update_item":
            size = self._sizes.get(self._key(params["Key"]), 200)
            e.write_units += math.ceil(size / 1024) * (3 if self._key(params["Key"])[1].startswith("E#") else 1)
        elif name == "batch_write_item":
            for requests in params["RequestItems"].values():
                for r in requests:
                    e.write_units += _write_units(r["PutRequest"]["Item"]) if "PutRequest" in r else 1
        elif name == "transact_write_items":
            for action in params["TransactItems"]:
                if "Put" in action:
                    e.write_units += 2 * _write_units(action["Put"]["Item"])
                else:
                    e.write_units += 2
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
    store = DynamoStore(metered, table)  # type: ignore[arg-type]
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
        measure("upsert: create", lambda: upsert(agent, "alice", [UpsertCommand("favorite_color", "blue")]))
        measure("upsert: reinforce", lambda: upsert(agent, "alice", [UpsertCommand("favorite_color", "Blue")]))
        measure("upsert: supersede", lambda: upsert(agent, "alice", [UpsertCommand("favorite_color", "green")]))

        _seed(store, USER_ENTRIES)
        streams = boto3.client("dynamodbstreams", endpoint_url=endpoint, region_name=REGION, **_credentials())
        OutboxDrainer(StreamOutbox(store, streams), engram.indexer).drain()
        page = measure("visible-to (500 entries, first page)", lambda: engram.memory.visible(agent, "bob"))
        measure("count (500 entries)", lambda: engram.memory.count(agent, "bob"))
        hits = measure("search (500 entries, top 10)", lambda: engram.memory.search(agent, "bob", "thing number 42"))
        recalled = measure(
            "recall (500 entries, top 5, tier 1 + 2)",
            lambda: engram.recall.recall(agent, "bob", RecallRequest(message="what about thing number 42?")),
        )
        assert page.items, "the bench must measure a real listing"
        assert hits, "the bench must measure a real search"
        assert recalled.memories, "the bench must measure a real recall"

    stop_moto()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps({"backend": "moto server", "userEntries": USER_ENTRIES, "cases": rows}, indent=2) + "\n",
        encoding="utf-8",
    )
    header = f"{'case':40} {'requests':>8} {'est. RCU':>9} {'est. WCU':>9} {'moto ms':>8}  by operation"
    print(header)
    print("-" * len(header))
    for r in rows:
        ops = ", ".join(f"{op} {n}" for op, n in r["byOperation"].items())
        print(
            f"{r['case']:40} {r['requests']:>8} {r['estimatedReadUnits']:>9} {r['estimatedWriteUnits']:>9} "
            f"{r['motoMilliseconds']:>8}  {ops}"
        )
    print(f"\nwrote {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
