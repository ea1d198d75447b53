"""Dream on DynamoDB (moto server): the planner reads only the sparse due index, so users
with no activity and nothing due are never read. Every request is recorded through
botocore's event hooks and checked for the user partitions it names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.dream_queue import InMemoryDreamQueue
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.dynamodb import keys as k
from engram.container import Engram
from engram.domain.agent_config import AgentConfig, DreamConfig, UserMemoryConfig
from engram.domain.dream_run import RunStatus, Trigger
from engram.domain.models import ActorType, ChangeKind, Status
from engram.service.memory import UpsertCommand

from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.support import ManualClock, engram_for, principal

QUIET = [f"quiet-{i:02d}" for i in range(40)]
BUSY = ["busy-1", "busy-2"]


class Recorder:
    """Every DynamoDB request the client sends: its operation and its parameters."""

    def __init__(self, client: Any) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.on = False
        client.meta.events.register("provide-client-params.dynamodb.*", self._record)

    def _record(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        if self.on:
            self.calls.append((model.name, params))

    def users_named(self) -> set[str]:
        """Users whose partition any recorded request names (keys, items, expressions)."""
        prefix = k.user_pk("t1", "")
        found: set[str] = set()

        def walk(value: Any) -> None:
            if isinstance(value, str) and value.startswith(prefix):
                found.add(k.parse_user_pk(value)[1])
            elif isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list | tuple):
                for v in value:
                    walk(v)

        for _, params in self.calls:
            walk(params)
        return found


@pytest.fixture
def engram(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Engram, Recorder, ManualClock]]:
    request.session.config.add_cleanup(stop_moto)
    client = dynamodb_client(moto_endpoint())
    name = fresh_table_name()
    create_table(client, name)
    recorder = Recorder(client)
    clock = ManualClock()
    e = engram_for(tmp_path, store=DynamoStore(client, name), clock=clock)  # type: ignore[arg-type]
    assert e.dream is not None
    e.dream.queue = InMemoryDreamQueue()
    yield e, recorder, clock
    client.delete_table(TableName=name)


def run(e: Engram) -> Any:
    assert e.dream is not None
    queue = e.dream.queue
    assert isinstance(queue, InMemoryDreamQueue)
    started = e.dream.start(Trigger.SCHEDULE)
    e.dream.plan(started.run_id)
    results = []
    while len(queue):
        results += [e.dream.handle(m) for m in queue.receive(10)]
    return e.dream.state.get_run(started.run_id), results


def test_given_quiet_users_when_the_planner_runs_then_only_active_users_are_read(
    engram: tuple[Engram, Recorder, ManualClock],
) -> None:
    e, recorder, clock = engram
    p = principal("t1", "agent-a")
    for user in QUIET + BUSY:
        e.memory.upsert(p, user, [UpsertCommand("city", "Paris"), UpsertCommand("pet", "dog")])
    first, _ = run(e)
    assert first.users_planned == len(QUIET) + len(BUSY) and first.status is RunStatus.COMPLETED
    clock.advance(timedelta(days=1))
    for user in BUSY:
        e.memory.upsert(p, user, [UpsertCommand("city", "Rome")])

    recorder.on = True
    second, results = run(e)
    recorder.on = False

    assert second.users_planned == 2 and second.status is RunStatus.COMPLETED
    assert sum(r.processed for r in results) == 2
    # Not one request names a quiet user's partition: their entries, due records and
    # markers were never read, nor written.
    assert recorder.users_named() == set(BUSY)
    ops = Counter(op for op, _ in recorder.calls)
    due_queries = [params for op, params in recorder.calls if op == "Query" and params.get("IndexName") == k.GSI2]
    assert len(due_queries) == 16  # one per due-index shard
    # The whole run is a fixed cost plus a few requests per processed user.
    assert len(recorder.calls) <= 50 + 10 * len(BUSY), ops


def test_given_a_decay_and_a_contradiction_when_dream_runs_on_dynamodb_then_changes_are_versioned(
    engram: tuple[Engram, Recorder, ManualClock],
) -> None:
    e, _, clock = engram
    # "context" expires only because this configuration gives it a TTL.
    config = AgentConfig(
        user_memory_config=UserMemoryConfig(dream_config=DreamConfig(enabled=True), ttl_hours={"context": 24})
    )
    e.agents.put("t1", "agent-a", config)
    e.agents.put("t1", "agent-b", config)
    e.memory.upsert(principal("t1", "agent-a"), "u1", [UpsertCommand("language", "English")])
    e.memory.upsert(principal("t1", "agent-b"), "u1", [UpsertCommand("language", "German")])
    e.memory.upsert(principal("t1", "agent-a"), "u1", [UpsertCommand("mood", "ok", category="context")])
    clock.advance(timedelta(days=8))
    done, _ = run(e)
    assert done.status is RunStatus.COMPLETED
    stats = e.dream.state.run_stats(done.run_id, "t1")  # type: ignore[union-attr]
    assert (stats.decayed, stats.expired, stats.contradictions_found, stats.flags_set) == (2, 1, 1, 2)
    history = e.store.history_of_user("t1", "u1")
    kinds = Counter(h.change for h in history if h.actor.type is ActorType.SYSTEM)
    assert kinds == Counter({ChangeKind.DECAYED: 2, ChangeKind.FLAGGED: 2, ChangeKind.EXPIRED: 1})
    live = [x for x in e.store.get_entries("t1", "u1", [h.entry.id for h in history]) if x.status is Status.ACTIVE]
    assert len(live) == 2 and all(x.conflicted and x.confidence == 0.95 for x in live)
    # Running the same run again changes nothing.
    assert e.dream is not None
    again = e.dream.process_batch(done.run_id, [("t1", "u1")])
    assert again.skipped == 1 and len(e.store.history_of_user("t1", "u1")) == len(history)
