"""Extraction plumbing: Powertools idempotency on SQLite, the SQS adapter and Lambda, the local worker."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.utilities.idempotency.exceptions import IdempotencyAlreadyInProgressError
from botocore.stub import Stubber
from engram.adapters.local_queue import InProcessQueue
from engram.adapters.sqlite import SqliteStore
from engram.adapters.sqlite.idempotency import SqliteIdempotencyLayer
from engram.adapters.sqs_queue import SqsQueue
from engram.container import Engram, set_engram
from engram.domain.conversation import ExtractionJob, MessageRole, NewMessage, ThreadKey
from engram.domain.errors import StoreUnavailable, Throttled
from engram.handlers import extraction as extraction_handler
from engram.local.lambda_context import LocalContext
from engram.service.extraction import IdempotentProcessor

from tests.support import ManualClock, engram_for

JOB = ExtractionJob("t1", "u1", "th1", "m1", "agent-a")


@pytest.fixture(autouse=True)
def _aws_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")


class Counting:
    def __init__(self) -> None:
        self.calls: list[ExtractionJob] = []
        self.fail_next = False

    def __call__(self, job: ExtractionJob) -> dict[str, Any]:
        self.calls.append(job)
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("boom")
        return {"status": "extracted", "message": job.message_id}


@pytest.fixture
def layer(tmp_path: Path) -> SqliteIdempotencyLayer:
    return SqliteIdempotencyLayer(SqliteStore(tmp_path / "idem.db").db)


class TestIdempotency:
    def test_given_a_processed_job_when_delivered_again_then_the_stored_result_is_returned(
        self, layer: SqliteIdempotencyLayer
    ) -> None:
        work = Counting()
        run = IdempotentProcessor(work, layer)
        first = run(JOB, LocalContext())
        assert run(JOB, LocalContext()) == first
        assert len(work.calls) == 1
        assert layer.count() == 1

    def test_the_key_is_tenant_user_agent_thread_and_message(self, layer: SqliteIdempotencyLayer) -> None:
        work = Counting()
        run = IdempotentProcessor(work, layer)
        for job in (
            JOB,
            ExtractionJob("t2", "u1", "th1", "m1", "agent-a"),
            ExtractionJob("t1", "u2", "th1", "m1", "agent-a"),
            ExtractionJob("t1", "u1", "th2", "m1", "agent-a"),
            ExtractionJob("t1", "u1", "th1", "m2", "agent-a"),
        ):
            run(job, LocalContext())
        # The agent is part of the key: each agent has its own thread ids, so agent-b's
        # th1/m1 is another message (issue #22); a repeat of either is still a replay.
        run(ExtractionJob("t1", "u1", "th1", "m1", "agent-b"), LocalContext())
        run(ExtractionJob("t1", "u1", "th1", "m1", "agent-b"), LocalContext())
        run(JOB, LocalContext())
        assert len(work.calls) == 6

    def test_a_failed_run_leaves_no_record_so_the_retry_runs(self, layer: SqliteIdempotencyLayer) -> None:
        work = Counting()
        run = IdempotentProcessor(work, layer)
        work.fail_next = True
        with pytest.raises(RuntimeError):
            run(JOB, LocalContext())
        assert run(JOB, LocalContext())["status"] == "extracted"
        assert len(work.calls) == 2

    def test_a_job_in_progress_elsewhere_is_refused_until_that_invocation_times_out(
        self, layer: SqliteIdempotencyLayer
    ) -> None:
        started, release = threading.Event(), threading.Event()

        def slow(job: ExtractionJob) -> dict[str, Any]:
            started.set()
            release.wait(5)
            return {"status": "extracted"}

        run = IdempotentProcessor(slow, layer)
        worker = threading.Thread(target=run, args=(JOB, LocalContext()))
        worker.start()
        assert started.wait(5)
        with pytest.raises(IdempotencyAlreadyInProgressError):
            IdempotentProcessor(Counting(), layer)(JOB, LocalContext())
        release.set()
        worker.join()

        class TimedOut:
            def get_remaining_time_in_millis(self) -> int:
                return 0

        other = ExtractionJob("t1", "u1", "th1", "m9", "agent-a")
        crashing = Counting()
        crashing_run = IdempotentProcessor(crashing, layer)
        layer.save_inprogress(data=other.as_dict(), remaining_time_in_millis=-1000)  # a dead invocation's lock
        assert crashing_run(other, TimedOut())["status"] == "extracted"

    def test_forget_removes_the_records_so_the_job_runs_afresh(self, layer: SqliteIdempotencyLayer) -> None:
        work = Counting()
        run = IdempotentProcessor(work, layer)
        run(JOB, LocalContext())
        # A processor in a fresh process hashes keys the same way.
        assert IdempotentProcessor(work, layer).forget([JOB, ExtractionJob("t1", "u1", "th1", "zz", "a")]) == 1
        run(JOB, LocalContext())
        assert len(work.calls) == 2

    def test_forget_also_removes_records_made_under_the_key_without_the_agent(self, tmp_path: Path) -> None:
        from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig, idempotent_function
        from engram.service.extraction import KEY_PREFIX

        db = SqliteStore(tmp_path / "idem.db").db
        # The release before the per-agent thread ids keyed records without the agent.
        before = SqliteIdempotencyLayer(db)

        @idempotent_function(  # type: ignore[untyped-decorator]
            data_keyword_argument="job",
            persistence_store=before,
            config=IdempotencyConfig(event_key_jmespath="[tenantId, userId, threadId, messageId]"),
            key_prefix=KEY_PREFIX,
        )
        def old_run(job: dict[str, Any]) -> dict[str, Any]:
            return {"status": "extracted"}

        old_run(job=JOB.as_dict())
        now = SqliteIdempotencyLayer(db)
        IdempotentProcessor(Counting(), now)(JOB, LocalContext())
        assert now.count() == 2
        assert IdempotentProcessor(Counting(), now).forget([JOB]) == 2
        assert now.count() == 0


class TestSqsQueue:
    def test_jobs_go_out_in_batches_of_ten_with_only_ids_in_the_body(self) -> None:
        client = boto3.client("sqs", region_name="us-east-1")
        url = "https://sqs.us-east-1.amazonaws.com/123456789012/extraction"
        jobs = [ExtractionJob("t1", "u1", "th1", f"m{i}", "agent-a") for i in range(23)]
        with Stubber(client) as stub:
            for start, size in ((0, 10), (10, 10), (20, 3)):
                entries = [
                    {"Id": str(i), "MessageBody": json.dumps(jobs[start + i].as_dict(), separators=(",", ":"))}
                    for i in range(size)
                ]
                stub.add_response(
                    "send_message_batch",
                    {
                        "Successful": [{"Id": e["Id"], "MessageId": "x", "MD5OfMessageBody": "x"} for e in entries],
                        "Failed": [],
                    },
                    {"QueueUrl": url, "Entries": entries},
                )
            SqsQueue(client, url).send(jobs)
            stub.assert_no_pending_responses()
        assert json.loads(entries[0]["MessageBody"]) == {
            "tenantId": "t1",
            "userId": "u1",
            "threadId": "th1",
            "messageId": "m20",
            "agentId": "agent-a",
        }

    def test_partial_failures_are_resent_and_persistent_ones_raise(self) -> None:
        client = boto3.client("sqs", region_name="us-east-1")
        url = "https://sqs.us-east-1.amazonaws.com/123456789012/extraction"
        jobs = [JOB, ExtractionJob("t1", "u1", "th1", "m2", "agent-a")]
        failed = {"Id": "1", "SenderFault": False, "Code": "InternalError"}
        with Stubber(client) as stub:
            stub.add_response(
                "send_message_batch",
                {"Successful": [{"Id": "0", "MessageId": "a", "MD5OfMessageBody": "x"}], "Failed": [failed]},
            )
            stub.add_response(
                "send_message_batch",
                {"Successful": [{"Id": "1", "MessageId": "b", "MD5OfMessageBody": "x"}], "Failed": []},
            )
            SqsQueue(client, url).send(jobs)
            for _ in range(3):
                stub.add_response("send_message_batch", {"Successful": [], "Failed": [failed]})
            with pytest.raises(StoreUnavailable):
                SqsQueue(client, url).send(jobs[1:])

    def test_client_errors_become_domain_errors(self) -> None:
        client = boto3.client("sqs", region_name="us-east-1")
        with Stubber(client) as stub:
            stub.add_client_error("send_message_batch", "RequestThrottled", http_status_code=400)
            stub.add_client_error("send_message_batch", "AWS.SimpleQueueService.NonExistentQueue", http_status_code=400)
            with pytest.raises(Throttled):
                SqsQueue(client, "https://q").send([JOB])
            with pytest.raises(StoreUnavailable):
                SqsQueue(client, "https://q").send([JOB])


class TestInProcessQueue:
    def test_the_background_worker_runs_jobs_in_order_and_retries_failures(self) -> None:
        work = Counting()
        work.fail_next = True
        q = InProcessQueue(work)
        jobs = [ExtractionJob("t1", "u1", "th1", f"m{i}", "a") for i in range(5)]
        q.send(jobs)
        assert q.wait_idle(10)
        assert [j.message_id for j in work.calls] == ["m0", "m0", "m1", "m2", "m3", "m4"]
        assert q.failed == 0
        q.close()

    def test_a_job_that_keeps_failing_is_given_up_and_counted(self) -> None:
        def broken(job: ExtractionJob) -> None:
            raise RuntimeError("down")

        q = InProcessQueue(broken, background=False, attempts=2)
        q.send([JOB])
        assert q.failed == 1


@pytest.fixture
def engram(tmp_path: Path) -> Iterator[Engram]:
    e = engram_for(tmp_path, clock=ManualClock(), extraction_worker="inline")
    set_engram(e)
    yield e
    set_engram(None)


def _sqs_event(bodies: list[str]) -> dict[str, Any]:
    return {
        "Records": [
            {
                "messageId": f"r{i}",
                "receiptHandle": "h",
                "body": body,
                "attributes": {},
                "messageAttributes": {},
                "md5OfBody": "x",
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:extraction",
                "awsRegion": "us-east-1",
            }
            for i, body in enumerate(bodies)
        ]
    }


class TestExtractionLambda:
    def test_given_a_batch_with_a_bad_record_then_only_it_fails_and_a_redelivery_adds_nothing(
        self, engram: Engram
    ) -> None:
        feature = engram.conversation
        at = datetime(2026, 1, 15, 9, 0, tzinfo=UTC)
        stored = feature.repo.append(
            ThreadKey("acme", "alice", "alpha", "th1"),
            [
                NewMessage("m1", MessageRole.USER, "my favorite food is pizza", at),
                NewMessage("m2", MessageRole.USER, "I live in Oslo", at),
            ],
            at,
        )
        bodies = [json.dumps(ExtractionJob("acme", "alice", "th1", m.id, "alpha").as_dict()) for m in stored.messages]
        event = _sqs_event([bodies[0], "not json", bodies[1]])
        reply = extraction_handler.handler(event, LocalContext())
        assert reply == {"batchItemFailures": [{"itemIdentifier": "r1"}]}
        live = engram.store.list_entries("acme", "alice", _query(engram))
        assert sorted(e.key for e in live.items) == ["favorite_food", "location"]
        history = len(engram.store.history_of_user("acme", "alice"))
        assert extraction_handler.handler(_sqs_event(bodies), LocalContext()) == {"batchItemFailures": []}
        assert len(engram.store.history_of_user("acme", "alice")) == history
        processed = feature.repo.get_message(ThreadKey("acme", "alice", "alpha", "th1"), "m1")
        assert processed is not None and processed.extraction is not None
        assert processed.extraction.outcomes == {"created": 1}


def _query(engram: Engram) -> Any:
    from engram.ports import EntryQuery

    return EntryQuery(now=engram.clock.now())
