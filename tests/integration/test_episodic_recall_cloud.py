"""The natural agent path in the cloud (#19): append a conversation through the API
Lambda, let the extraction Lambda consume its queue, then ``/recall`` through the API
Lambda finds a past message with its provenance, as it does locally
(tests/integration/test_episodic_recall.py).

DynamoDB and SQS on moto server; OpenSearch is the loopback stand-in (exact k-NN and
BM25 behind the real adapter's requests).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.opensearch import OpenSearchIndex
from engram.adapters.sqs_queue import SqsQueue
from engram.api.auth import principal_context
from engram.container import Engram, build, set_engram
from engram.domain.serialization import parse_ts
from engram.handlers import api as api_handler
from engram.handlers import extraction as extraction_handler
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.settings import Settings

from tests.integration.test_extraction_cloud_path import drain
from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.standins import OpenSearchStandin
from tests.support import ManualClock, backend_for, principal

AGENT = principal("acme", "alpha")


@pytest.fixture
def cloud(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Engram, Any, str, OpenSearchStandin]]:
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
    opensearch = OpenSearchStandin()
    settings = Settings(data_dir=tmp_path, idempotency_table=idem, opensearch_url=opensearch.url)
    # Every service on the one OpenSearch index, as the stack wires it.
    index = OpenSearchIndex.from_settings(settings, 384, refresh=True)
    engram = build(settings, backend=backend_for(DynamoStore(ddb, table), settings), index=index, clock=ManualClock())
    feature = engram.conversation
    feature.queue = feature.conversations.queue = SqsQueue(sqs, url)
    set_engram(engram)
    yield engram, sqs, url, opensearch
    set_engram(None)
    opensearch.stop()
    for name in (table, idem):
        ddb.delete_table(TableName=name)
    sqs.delete_queue(QueueUrl=url)


def call(method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    event = api_event(
        method,
        path,
        headers={"content-type": "application/json"},
        body=json.dumps(body),
        authorizer=principal_context(AGENT),
    )
    response = api_handler.handler(event, LocalContext())
    assert response["statusCode"] == 200, response["body"]
    answer: dict[str, Any] = json.loads(response["body"])
    return answer


def test_given_a_conversation_appended_through_the_lambda_when_recalling_then_the_past_message_comes_back_with_provenance(
    cloud: tuple[Engram, Any, str, OpenSearchStandin],
) -> None:
    engram, sqs, url, opensearch = cloud
    turns = [
        ("s1-1", "Maya", "2023-05-07T18:00:00+00:00", "Hey! How have you been?"),
        ("s1-2", "Leo", "2023-05-07T18:01:00+00:00", "Busy but good, you?"),
        ("s1-3", "Maya", "2023-05-07T18:02:00+00:00", "We brought home a beagle puppy from the shelter yesterday!"),
    ]
    messages = [
        {
            "id": mid,
            "role": "user" if who == "Maya" else "assistant",
            "content": text,
            "timestamp": at,
            "metadata": {"speaker": who},
        }
        for mid, who, at, text in turns
    ]
    call("POST", "/v1/users/maya/threads/session-1/messages", {"messages": messages})
    # The extraction Lambda indexes each message as it consumes the queue.
    event = drain(sqs, url)
    assert len(event["Records"]) == 3
    assert extraction_handler.handler(event, LocalContext()) == {"batchItemFailures": []}
    assert {d["kind"] for d in opensearch.documents(engram.settings.opensearch_index).values()} >= {"message"}

    body = call(
        "POST",
        "/v1/users/maya/recall",
        {"message": "Which shelter puppy did Maya bring home?", "topK": 10, "excludeThreadId": "session-now"},
    )

    assert body["degraded"] is False
    top = body["episodes"][0]
    assert top["content"].startswith("We brought home a beagle puppy")
    prov = top["provenance"]
    assert (prov["threadId"], prov["messageId"], prov["speaker"], prov["role"]) == ("session-1", "s1-3", "Maya", "user")
    assert parse_ts(prov["saidAt"]) == parse_ts("2023-05-07T18:02:00+00:00")
    assert "bm25" in prov["matchedBy"]
    assert "From past conversations:\n- [2023-05-07] Maya: We brought home a beagle puppy" in body["context"]
    # Leo's turn shares no word with the question. (Maya's greeting may follow on her
    # name alone: OpenSearch's BM25 weighs a word in most documents more than FTS5's.)
    assert all(e["provenance"]["speaker"] == "Maya" for e in body["episodes"])
