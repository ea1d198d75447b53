"""The cloud path against moto server: append -> SQS -> extraction Lambda -> DynamoDB.

Messages and memories in the DynamoDB table, jobs through a real SQS queue, the
Lambda's Powertools idempotency records in their own DynamoDB table. A redelivered
batch adds nothing; erasure removes the records too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
import pytest
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.sqs_queue import SqsQueue
from engram.container import Engram, set_engram
from engram.domain.conversation import ThreadKey
from engram.domain.models import Principal, Role
from engram.handlers import extraction as extraction_handler
from engram.local.lambda_context import LocalContext
from engram.ports import EntryQuery

from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.support import ManualClock, engram_for

AGENT = Principal("acme", "alpha", frozenset({Role.WRITER}))
ADMIN = Principal("acme", "ops", frozenset({Role.ADMIN}))


@dataclass(frozen=True)
class CloudParts:
    """What the stack gives the extraction path: the table, Powertools' idempotency table
    and the extraction queue, on moto server."""

    ddb: Any
    table: str
    idempotency_table: str
    sqs: Any
    queue_url: str


@contextmanager
def cloud_parts(request: pytest.FixtureRequest) -> Iterator[CloudParts]:
    endpoint = moto_endpoint()
    request.session.config.add_cleanup(stop_moto)
    ddb = dynamodb_client(endpoint)
    table, idem = fresh_table_name(), fresh_table_name("idempotency")
    create_table(ddb, table)
    ddb.create_table(
        TableName=idem,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
    )
    sqs = boto3.client(
        "sqs",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    )
    url = sqs.create_queue(QueueName=fresh_table_name("extraction"))["QueueUrl"]
    try:
        yield CloudParts(ddb, table, idem, sqs, url)
    finally:
        for name in (table, idem):
            ddb.delete_table(TableName=name)
        sqs.delete_queue(QueueUrl=url)


@pytest.fixture
def cloud(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Engram, Any, str]]:
    with cloud_parts(request) as parts:
        engram = engram_for(
            tmp_path,
            store=DynamoStore(parts.ddb, parts.table),
            clock=ManualClock(),
            idempotency_table=parts.idempotency_table,
        )
        feature = engram.conversation
        assert feature is not None
        # What the container does when ENGRAM_EXTRACTION_QUEUE_URL is set, with moto's endpoint.
        feature.queue = feature.conversations.queue = SqsQueue(parts.sqs, parts.queue_url)
        set_engram(engram)
        yield engram, parts.sqs, parts.queue_url
        set_engram(None)


def drain(sqs: Any, url: str) -> dict[str, Any]:
    """Receive every queued job as one SQS event, as Lambda's event source mapping would."""
    records: list[dict[str, Any]] = []
    while True:
        got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
        if not got:
            break
        for m in got:
            records.append(
                {
                    "messageId": m["MessageId"],
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "attributes": {},
                    "messageAttributes": {},
                    "md5OfBody": m["MD5OfBody"],
                    "eventSource": "aws:sqs",
                    "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:extraction",
                    "awsRegion": REGION,
                }
            )
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    return {"Records": records}


def test_given_turns_in_the_cloud_when_the_lambda_consumes_the_queue_then_facts_land_once(
    cloud: tuple[Engram, Any, str],
) -> None:
    engram, sqs, url = cloud
    feature = engram.conversation
    assert feature is not None
    from engram.domain.conversation import MessageRole, NewMessage

    turns = ["my name is Alice", "I like pizza", "I like pizza", "my card is 4111 1111 1111 1111"]
    now = engram.clock.now()
    for i, text in enumerate(turns):
        feature.conversations.append(AGENT, "alice", "chat", [NewMessage(f"m{i}", MessageRole.USER, text, now)])
    event = drain(sqs, url)
    assert len(event["Records"]) == 4
    assert extraction_handler.handler(event, LocalContext()) == {"batchItemFailures": []}

    live = engram.store.list_entries("acme", "alice", EntryQuery(now=engram.clock.now()))
    assert sorted((e.key, e.value, e.confidence) for e in live.items) == [
        ("likes:pizza", "pizza", 0.8),
        ("name", "Alice", 0.9),
    ]
    assert engram.users.profile(AGENT, "alice").name == "Alice"
    history = len(engram.store.history_of_user("acme", "alice"))

    # SQS delivers at least once: the same batch again changes nothing.
    assert extraction_handler.handler(event, LocalContext()) == {"batchItemFailures": []}
    assert len(engram.store.history_of_user("acme", "alice")) == history
    card = feature.repo.get_message(ThreadKey("acme", "alice", "alpha", "chat"), "m3")
    assert card is not None and "4111" not in card.content
    assert card.extraction is not None and card.extraction.dropped == {"sensitive": 1}

    # A replayed append sends nothing new: every message was processed.
    feature.conversations.append(AGENT, "alice", "chat", [NewMessage("m1", MessageRole.USER, "I like pizza", now)])
    assert drain(sqs, url)["Records"] == []

    receipt = engram.privacy.erase(ADMIN, "alice", "CONFIRM")
    assert receipt.counts["messages"] == 4 and receipt.counts["idempotencyRecords"] == 4
    assert feature.repo.list_threads("acme", "alice") == []
