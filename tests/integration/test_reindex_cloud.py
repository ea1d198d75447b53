"""The cloud re-index, end to end on moto server: a backfill of the search index from the
table, and a replay of the stream indexer's failed batches.

DynamoDB, its stream and SQS are moto server's; the search index is the OpenSearch
stand-in of ``tests/standins.py`` behind the real OpenSearch adapter. The ``reindex``
handler is driven as the stack drives it: invoked with an action (``engram reindex``),
then fed its own queue's messages as SQS events.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.opensearch import OpenSearchIndex
from engram.container import Engram, set_engram
from engram.domain.models import Role
from engram.handlers import reindex as reindex_handler
from engram.local.lambda_context import LocalContext
from engram.service.memory import UpsertCommand
from engram.settings import Settings

from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.standins import OpenSearchStandin
from tests.stream_reader import StreamReader
from tests.support import ManualClock, engram_for, principal

INDEX = "engram-reindex"
AGENT = principal("t1", "agent-a")


class Cloud:
    def __init__(self, engram: Engram, sqs: Any, queues: dict[str, str], opensearch: OpenSearchStandin, stream: Any):
        self.engram, self.sqs, self.queues, self.opensearch, self.stream = engram, sqs, queues, opensearch, stream

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        return dict(reindex_handler.handler(event, LocalContext()))

    def drain_work(self) -> int:
        """Deliver the work queue to the function until it is empty, as the event source does."""
        delivered = 0
        for _ in range(50):
            got = self.sqs.receive_message(QueueUrl=self.queues["work"], MaxNumberOfMessages=10).get("Messages", [])
            if not got:
                return delivered
            records = [
                {
                    "messageId": m["MessageId"],
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "attributes": {"ApproximateReceiveCount": "1"},
                    "messageAttributes": {},
                    "md5OfBody": m["MD5OfBody"],
                    "eventSource": "aws:sqs",
                    "eventSourceARN": f"arn:aws:sqs:{REGION}:123456789012:reindex",
                    "awsRegion": REGION,
                }
                for m in got
            ]
            assert self.invoke({"Records": records}) == {"batchItemFailures": []}
            for m in got:
                self.sqs.delete_message(QueueUrl=self.queues["work"], ReceiptHandle=m["ReceiptHandle"])
            delivered += len(records)
        raise AssertionError("the work queue never drained")


@pytest.fixture
def cloud(tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cloud]:
    request.session.config.add_cleanup(stop_moto)
    endpoint = moto_endpoint()
    monkeypatch.setenv("AWS_ENDPOINT_URL_SQS", endpoint)
    ddb = dynamodb_client(endpoint)
    table = fresh_table_name()
    create_table(ddb, table)
    sqs = boto3.client(
        "sqs",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    )
    queues = {n: sqs.create_queue(QueueName=fresh_table_name(n))["QueueUrl"] for n in ("work", "failures")}
    opensearch = OpenSearchStandin()
    engram = engram_for(
        tmp_path,
        store=DynamoStore(ddb, table),
        clock=ManualClock(),
        backend="aws",
        opensearch_url=opensearch.url,
        dynamodb_endpoint=endpoint,
        reindex_queue_url=queues["work"],
        indexer_failures_queue_url=queues["failures"],
    )
    index = OpenSearchIndex.from_settings(Settings(opensearch_url=opensearch.url, opensearch_index=INDEX), 384)
    engram.index = engram.memory.index = engram.recall.index = index
    engram.indexer._index = index
    set_engram(engram)
    yield Cloud(engram, sqs, queues, opensearch, StreamReader(ddb, table, endpoint))
    set_engram(None)
    opensearch.stop()
    for url in queues.values():
        sqs.delete_queue(QueueUrl=url)
    ddb.delete_table(TableName=table)


def live_ids(e: Engram, *users: str) -> set[str]:
    from engram.ports import EntryQuery

    return {x.id for u in users for x in e.store.list_entries("t1", u, EntryQuery(now=e.clock.now())).items}


def test_given_an_empty_index_when_a_backfill_runs_then_it_holds_every_live_entry_and_nothing_else(
    cloud: Cloud,
) -> None:
    e = cloud.engram
    for user in ("u1", "u2", "u3"):
        e.memory.upsert(AGENT, user, [UpsertCommand(f"fact{i}", f"value {i}") for i in range(7)])
    assert cloud.opensearch.documents(INDEX) == {}

    assert cloud.invoke({"action": "start", "segments": 3}) == {"action": "start", "segments": 3}
    assert cloud.drain_work() >= 3
    first = live_ids(e, "u1", "u2", "u3")
    assert len(first) == 21 and cloud.opensearch.doc_ids(INDEX) == first

    # The index missed a supersede (say the indexer was down): the next backfill removes
    # the superseded entry's document and adds its successor.
    e.memory.upsert(AGENT, "u1", [UpsertCommand("fact0", "changed")])
    now = live_ids(e, "u1", "u2", "u3")
    (gone,) = first - now
    cloud.invoke({"action": "start", "segments": 2})
    cloud.drain_work()
    assert cloud.opensearch.doc_ids(INDEX) == now and gone not in cloud.opensearch.doc_ids(INDEX)


def test_given_failed_stream_batches_when_replayed_then_their_entries_are_indexed_as_the_table_holds_them(
    cloud: Cloud,
) -> None:
    e = cloud.engram
    e.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Lisbon"), UpsertCommand("pet", "cat")])
    e.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Porto")])
    records = cloud.stream.records()
    shard = records[0]["dynamodb"]["SequenceNumber"], records[-1]["dynamodb"]["SequenceNumber"]
    # What the event source mapping sends to its on-failure destination (no item data).
    description = boto3.client(
        "dynamodbstreams",
        endpoint_url=moto_endpoint(),
        region_name=REGION,
        aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    ).describe_stream(StreamArn=cloud.stream.arn)["StreamDescription"]
    failure = {
        "requestContext": {"requestId": "r1", "condition": "RetryAttemptsExhausted", "approximateInvokeCount": 11},
        "responseContext": {"statusCode": 200, "executedVersion": "$LATEST", "functionError": "Unhandled"},
        "version": "1.0",
        "timestamp": "2026-01-15T10:31:00.000Z",
        "DDBStreamBatchInfo": {
            "shardId": description["Shards"][0]["ShardId"],
            "startSequenceNumber": shard[0],
            "endSequenceNumber": shard[1],
            "approximateArrivalOfFirstRecord": "2026-01-15T10:30:00Z",
            "approximateArrivalOfLastRecord": "2026-01-15T10:30:01Z",
            "batchSize": len(records),
            "streamArn": cloud.stream.arn,
        },
    }
    cloud.sqs.send_message(QueueUrl=cloud.queues["failures"], MessageBody=json.dumps(failure))
    cloud.sqs.send_message(QueueUrl=cloud.queues["failures"], MessageBody=json.dumps({"not": "a failure"}))

    assert cloud.invoke({"action": "replay"}) == {"action": "replay", "batches": 1}
    assert cloud.drain_work() == 1

    docs = cloud.opensearch.documents(INDEX).values()
    assert sorted(d["text"] for d in docs) == ["city: Porto", "pet: cat"]  # the table's state, not a stale one
    assert {d["doc_id"] for d in docs} == live_ids(e, "u1")
    # The failure queue is empty: every record was moved or dropped.
    assert cloud.sqs.receive_message(QueueUrl=cloud.queues["failures"]).get("Messages", []) == []


def test_given_the_cli_verb_when_run_then_it_invokes_the_function_that_queues_the_backfill(cloud: Cloud) -> None:
    import argparse
    import io

    from engram.local.reindex_cli import cmd_reindex

    class LambdaClient:
        """boto3's lambda client as far as the verb uses it, invoking the handler here."""

        def __init__(self) -> None:
            self.calls: list[tuple[str, dict[str, Any]]] = []

        def invoke(self, FunctionName: str, Payload: bytes) -> dict[str, Any]:
            event = json.loads(Payload)
            self.calls.append((FunctionName, event))
            return {"StatusCode": 200, "Payload": io.BytesIO(json.dumps(cloud.invoke(event)).encode())}

    cloud.engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Lisbon")])
    client = LambdaClient()
    args = argparse.Namespace(function="engram-reindex", segments=2, replay_failures=False, region=None)
    assert cmd_reindex(args, client) == 0
    assert client.calls == [("engram-reindex", {"action": "start", "segments": 2})]
    assert cloud.drain_work() == 2
    assert cloud.opensearch.doc_ids(INDEX) == live_ids(cloud.engram, "u1")


def test_given_no_reindex_queue_then_the_function_says_what_is_missing(tmp_path: Path) -> None:
    set_engram(engram_for(tmp_path))
    try:
        with pytest.raises(Exception, match="ENGRAM_REINDEX_QUEUE_URL"):
            reindex_handler.handler({"action": "start"}, LocalContext())
    finally:
        set_engram(None)


@pytest.mark.parametrize("race", ["after_the_read", "during_the_write"])
def test_given_an_erasure_racing_a_backfill_then_the_erased_user_stays_out_of_the_index(
    cloud: Cloud, race: str
) -> None:
    """Issue #22: the erasure lands after a worker read the user's entries, either before
    it writes them (the tombstone check before indexing keeps them out) or while it
    writes them, after the erasure's own index delete ran (the check after takes them
    back). Another user's entries, and the erased user's entries written after the
    erasure, are indexed."""
    e = cloud.engram
    e.memory.upsert(AGENT, "u1", [UpsertCommand(f"gone{i}", f"erased value {i}") for i in range(3)])
    e.memory.upsert(AGENT, "u2", [UpsertCommand("stays", "kept value")])
    service = reindex_handler._service()
    admin = principal("t1", "ops", Role.ADMIN)
    erased = False

    def erase_once() -> None:
        nonlocal erased
        if not erased:
            erased = True
            e.privacy.erase(admin, "u1", "CONFIRM")

    scanner, indexer = service._scanner, service._indexer

    class Racing:
        def scan_entries(self, *args: Any, **kwargs: Any) -> Any:
            page = scanner.scan_entries(*args, **kwargs)
            if race == "after_the_read" and any(x.user_id == "u1" for x in page.items):
                erase_once()
            return page

        def apply(self, changes: Any, *args: Any) -> Any:
            if race == "during_the_write" and any(c.user_id == "u1" and c.entry is not None for c in changes):
                erase_once()
            return indexer.apply(changes, *args)

    service._scanner = Racing()  # type: ignore[assignment]
    service._indexer = Racing()  # type: ignore[assignment]
    try:
        result = service.scan(0, 1)
    finally:
        service._scanner, service._indexer = scanner, indexer
    assert erased and cloud.opensearch.doc_ids(INDEX) == live_ids(e, "u2")
    assert result.erased == 3
    # A write after the erasure is a new life of the user: indexed by the next backfill.
    e.clock.advance(timedelta(seconds=1))
    e.memory.upsert(AGENT, "u1", [UpsertCommand("new", "after the erasure")])
    service.scan(0, 1)
    assert cloud.opensearch.doc_ids(INDEX) == live_ids(e, "u1", "u2")


def test_given_conversations_and_archival_when_a_backfill_runs_then_their_documents_are_embedded_anew(
    cloud: Cloud,
) -> None:
    """#19: the backfill (the cloud's re-embed after a model change) wrote entries only,
    so past messages, thread summaries and archival records kept the old model's vectors
    (or none, in a new index) and recall found them by their words alone."""
    from datetime import UTC, datetime

    from engram.domain.conversation import MessageRole, NewMessage, ThreadKey, ThreadSummary

    from tests.contract.test_user_control_contract import _archival, _version

    e = cloud.engram
    e.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Lisbon")])
    said = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    turns = [
        NewMessage(f"m{i}", MessageRole.USER if i % 2 == 0 else MessageRole.ASSISTANT, text, said)
        for i, text in enumerate(["We adopted a dog.", "Lovely!", "She is called Biscuit.", "   "])
    ]
    # Stored as an append stores them (the extraction queue is not what is tested here).
    e.conversation.repo.append(ThreadKey("t1", "u1", "agent-a", "s1"), turns, e.clock.now())
    summary = ThreadSummary("t1", "u1", "s1", "agent-a", "Adopted a dog, Biscuit.", 3, 3, e.clock.now())
    assert e.conversation.repo.put_summary(summary, None)
    record = _archival("My grandmother taught me to bake bread.")
    e.archival.repo.commit_block(_version({"facts": ("x",)}, 1), None, [record])
    assert cloud.opensearch.documents(INDEX) == {}

    cloud.invoke({"action": "start", "segments": 2})
    cloud.drain_work()

    docs = cloud.opensearch.documents(INDEX).values()
    kinds = sorted((d["kind"], d["doc_id"]) for d in docs)
    assert kinds == [
        ("archival", record.id),
        ("memory", next(iter(live_ids(e, "u1")))),
        ("message", "msg|agent-a|s1|m0"),
        ("message", "msg|agent-a|s1|m1"),
        ("message", "msg|agent-a|s1|m2"),
        ("summary", "sum|agent-a|s1"),
    ]
    assert {d["model_id"] for d in docs} == {e.embedder.model_id}
    assert all(d.get("vector") for d in docs)
