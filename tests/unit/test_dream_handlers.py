"""The dream Lambdas: planner on a schedule event, worker on SQS with partial batch
failures, metrics in CloudWatch embedded metric format."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.dream_queue import InMemoryDreamQueue
from engram.container import Engram, set_engram
from engram.domain.agent_config import AgentConfig, UserMemoryConfig
from engram.domain.dream_run import DreamMessage, RunStatus, Trigger
from engram.domain.errors import StoreUnavailable
from engram.handlers import dream as handlers
from engram.local.lambda_context import LocalContext
from engram.service.memory import UpsertCommand

from tests.support import ManualClock, engram_for, principal


@pytest.fixture
def engram(tmp_path: Path) -> Iterator[Engram]:
    clock = ManualClock()
    e = engram_for(tmp_path, clock=clock)
    assert e.dream is not None
    e.dream.queue = InMemoryDreamQueue()
    # Only configured categories expire: this agent gives "context" a day.
    e.agents.put("t1", "agent-a", AgentConfig(user_memory_config=UserMemoryConfig(ttl_hours={"context": 24})))
    for u in ("u1", "u2", "u3"):
        e.memory.upsert(
            principal("t1", "agent-a"),
            u,
            [UpsertCommand("city", "Paris"), UpsertCommand("mood", "fine", category="context")],
        )
    clock.advance(timedelta(days=8))
    set_engram(e)
    yield e
    set_engram(None)


def schedule_event(event_id: str = "5e0c3c1e-2f4d-4a8e-9d5c-000000000001") -> dict[str, Any]:
    return {
        "version": "0",
        "id": event_id,
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": "2026-01-23T03:00:00Z",
        "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/engram-dream"],
        "detail": {},
    }


def sqs_event(messages: list[DreamMessage]) -> dict[str, Any]:
    return {
        "Records": [
            {
                "messageId": f"m{i}",
                "receiptHandle": f"r{i}",
                "body": json.dumps(m.to_dict()),
                "attributes": {"ApproximateReceiveCount": "1"},
                "messageAttributes": {},
                "md5OfBody": "x",
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:engram-dream",
                "awsRegion": "us-east-1",
            }
            for i, m in enumerate(messages)
        ]
    }


def metrics_of(out: str) -> dict[str, float]:
    seen: dict[str, float] = {}
    for line in out.splitlines():
        if '"_aws"' not in line:
            continue
        doc = json.loads(line)
        for d in doc["_aws"]["CloudWatchMetrics"]:
            for m in d["Metrics"]:
                value = doc[m["Name"]]
                seen[m["Name"]] = seen.get(m["Name"], 0) + (sum(value) if isinstance(value, list) else value)
    return seen


def test_given_a_schedule_event_when_the_planner_runs_then_batches_reach_the_queue_and_workers_finish(
    engram: Engram, capsys: pytest.CaptureFixture[str]
) -> None:
    assert engram.dream is not None
    queue = engram.dream.queue
    assert isinstance(queue, InMemoryDreamQueue)
    out = handlers.planner_handler(schedule_event(), LocalContext())  # type: ignore[arg-type]
    assert out["usersPlanned"] == 3 and out["runId"].startswith("dream_sched_")
    # A redelivered schedule event resumes the same run rather than starting another.
    assert handlers.planner_handler(schedule_event(), LocalContext())["runId"] == out["runId"]  # type: ignore[arg-type]
    messages = queue.receive(10)
    assert len(messages) == 1
    capsys.readouterr()
    answer = handlers.worker_handler(sqs_event(messages), LocalContext())  # type: ignore[arg-type]
    assert answer == {"batchItemFailures": []}
    metrics = metrics_of(capsys.readouterr().out)
    assert metrics["dream.users.processed"] == 3
    assert metrics["dream.entries.pruned"] == 3  # the three context entries expired
    assert metrics["dream.contradictions.found"] == 0
    assert "dream.duration" in metrics and "dream.cost" in metrics
    run = engram.dream.state.get_run(out["runId"])
    assert run is not None and run.status is RunStatus.COMPLETED


def test_given_a_transient_failure_for_one_message_when_the_worker_runs_then_only_it_is_retried(
    engram: Engram, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert engram.dream is not None
    run = engram.dream.start(Trigger.SCHEDULE)
    good = DreamMessage.batch(run.run_id, [("t1", "u1")])
    bad = DreamMessage.batch(run.run_id, [("t1", "u2"), ("t1", "u3")])
    engram.dream.state.record_plan_progress(run.run_id, None, None, 3, 2, True)
    original = engram.store.get_settings

    def flaky(tenant_id: str, user_id: str) -> Any:
        if user_id == "u3":
            raise StoreUnavailable("throttled")
        return original(tenant_id, user_id)

    monkeypatch.setattr(engram.store, "get_settings", flaky)
    answer = handlers.worker_handler(sqs_event([good, bad, DreamMessage.plan("dream_nope")]), LocalContext())  # type: ignore[arg-type]
    assert answer == {"batchItemFailures": [{"itemIdentifier": "m1"}, {"itemIdentifier": "m2"}]}
    monkeypatch.setattr(engram.store, "get_settings", original)
    # SQS delivers the failed message again: u2 is skipped, u3 is done, the run completes.
    assert handlers.worker_handler(sqs_event([bad]), LocalContext()) == {"batchItemFailures": []}  # type: ignore[arg-type]
    done = engram.dream.state.get_run(run.run_id)
    assert done is not None and done.users_done == 3 and done.status is RunStatus.COMPLETED


def test_given_a_malformed_message_when_the_worker_runs_then_it_is_reported_failed(engram: Engram) -> None:
    event = sqs_event([DreamMessage.plan("dream_x")])
    event["Records"][0]["body"] = '{"kind": "dream.users", "runId": "r", "users": "everyone"}'
    answer = handlers.worker_handler(event, LocalContext())  # type: ignore[arg-type]
    assert answer == {"batchItemFailures": [{"itemIdentifier": "m0"}]}
