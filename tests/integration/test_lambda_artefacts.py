"""Every Lambda starts and serves from its shipped artefacts alone.

Each handler runs in a clean interpreter (``python -I -S``: no site-packages, no
PYTHONPATH) with only the code asset, staged by the stack's own rules, and the dependency
layers, built by ``layers/build.py`` for this machine's Python, on ``sys.path``, as the
Lambda runtime has ``/var/task`` and ``/opt/python``. The environment is the one the
stack sets, with AWS reached on loopback: DynamoDB and SQS on moto server, OpenSearch
and Bedrock on the stand-ins of ``tests/standins.py``. Events have the shapes the
services send: an authorizer TOKEN event, API Gateway proxy events, DynamoDB stream
records read back from the table's stream, SQS messages received from the queues, and
an EventBridge scheduled event.

A module a handler imported from anywhere else (the dev virtualenv) fails the test.
"""

from __future__ import annotations

import json
import sysconfig
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import boto3
import pytest
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.domain.models import Role
from engram.local.events import api_event
from engram.ports import EntryQuery

from tests.artefacts import LambdaProcess, host_layers, stage_code_asset
from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.standins import BedrockStandin, OpenSearchStandin
from tests.stream_reader import StreamReader
from tests.support import engram_for

pytestmark = pytest.mark.slow

INDEX = "engram-memory"
ACCOUNT = "123456789012"
API_ARN = f"arn:aws:execute-api:{REGION}:{ACCOUNT}:abc123/prod"
MCP_HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
    "host": "abc123.execute-api.us-east-1.amazonaws.com",
}


class Cloud:
    """The deployed stack, on loopback: tables, queues, stand-ins and each function's environment."""

    def __init__(self, tmp: Path) -> None:
        self.endpoint = moto_endpoint()
        self.ddb = dynamodb_client(self.endpoint)
        self.table, self.idempotency = fresh_table_name(), fresh_table_name("idempotency")
        create_table(self.ddb, self.table)
        self.ddb.create_table(
            TableName=self.idempotency,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        )
        self.sqs = boto3.client(
            "sqs",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )
        self.queues = {
            name: self.sqs.create_queue(QueueName=fresh_table_name(name))["QueueUrl"]
            for name in ("extraction", "dream", "reindex", "failures")
        }
        self.opensearch = OpenSearchStandin()
        self.bedrock = BedrockStandin()
        self.home = tmp / "home"
        self.home.mkdir()
        self.stream = StreamReader(self.ddb, self.table, self.endpoint)
        # The in-process view of the same table, for set-up (an API key) and checks.
        self.engram = engram_for(tmp / "local", store=DynamoStore(self.ddb, self.table))

    def environment(self, function: str, code: Path) -> dict[str, str]:
        """What the stack sets (infra/engram_infra/memory.py) plus what the runtime sets."""
        return {
            **DUMMY_CREDENTIALS,
            "PATH": "/usr/bin:/bin",
            "HOME": str(self.home),
            "AWS_REGION": REGION,
            # The runtime's variables: Powertools turns X-Ray on; the trace is not sampled,
            # so nothing is sent to a daemon.
            "LAMBDA_TASK_ROOT": str(code),
            "AWS_LAMBDA_FUNCTION_NAME": f"engram-{function}",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024",
            "_X_AMZN_TRACE_ID": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0",
            "AWS_XRAY_CONTEXT_MISSING": "LOG_ERROR",
            "AWS_XRAY_DAEMON_ADDRESS": "127.0.0.1:2000",
            "POWERTOOLS_SERVICE_NAME": "engram",
            "POWERTOOLS_METRICS_NAMESPACE": "Engram",
            "LOG_LEVEL": "INFO",
            "ENGRAM_BACKEND": "aws",
            "ENGRAM_AWS_REGION": REGION,
            "ENGRAM_TABLE_NAME": self.table,
            "ENGRAM_OPENSEARCH_URL": self.opensearch.url,
            "ENGRAM_OPENSEARCH_INDEX": INDEX,
            "ENGRAM_EMBEDDER": "bedrock",
            "ENGRAM_BEDROCK_EMBEDDING_DIMENSION": "256",
            "ENGRAM_EXTRACTOR": "rules",
            "ENGRAM_IDEMPOTENCY_TABLE": self.idempotency,
            "ENGRAM_EXTRACTION_QUEUE_URL": self.queues["extraction"],
            "ENGRAM_DREAM_QUEUE_URL": self.queues["dream"],
            "ENGRAM_REINDEX_QUEUE_URL": self.queues["reindex"],
            "ENGRAM_INDEXER_FAILURES_QUEUE_URL": self.queues["failures"],
            # AWS on loopback: moto server, and the Bedrock stand-in.
            "ENGRAM_DYNAMODB_ENDPOINT": self.endpoint,
            "AWS_ENDPOINT_URL_DYNAMODB": self.endpoint,
            "AWS_ENDPOINT_URL_SQS": self.endpoint,
            "AWS_ENDPOINT_URL_DYNAMODBSTREAMS": self.endpoint,
            "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": self.bedrock.url,
        }

    def stream_records(self) -> list[dict[str, Any]]:
        """New records of the table's stream, as the Lambda event source hands them over."""
        return self.stream.records()

    def sqs_event(self, queue: str) -> dict[str, Any]:
        records = []
        for _ in range(20):
            got = self.sqs.receive_message(QueueUrl=self.queues[queue], MaxNumberOfMessages=10, WaitTimeSeconds=0)
            if not got.get("Messages"):
                break
            for m in got["Messages"]:
                records.append(
                    {
                        "messageId": m["MessageId"],
                        "receiptHandle": m["ReceiptHandle"],
                        "body": m["Body"],
                        "attributes": {"ApproximateReceiveCount": "1"},
                        "messageAttributes": {},
                        "md5OfBody": m["MD5OfBody"],
                        "eventSource": "aws:sqs",
                        "eventSourceARN": f"arn:aws:sqs:{REGION}:{ACCOUNT}:{queue}",
                        "awsRegion": REGION,
                    }
                )
                self.sqs.delete_message(QueueUrl=self.queues[queue], ReceiptHandle=m["ReceiptHandle"])
        return {"Records": records}

    def close(self) -> None:
        self.opensearch.stop()
        self.bedrock.stop()
        for name in (self.table, self.idempotency):
            self.ddb.delete_table(TableName=name)
        for url in self.queues.values():
            self.sqs.delete_queue(QueueUrl=url)


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return stage_code_asset(tmp_path_factory.mktemp("code")), host_layers()


@pytest.fixture
def cloud(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cloud]:
    request.session.config.add_cleanup(stop_moto)
    cloud = Cloud(tmp_path)
    yield cloud
    cloud.close()


@pytest.fixture
def start(cloud: Cloud, artefacts: tuple[Path, Path]) -> Iterator[Any]:
    code, layers = artefacts
    started: list[LambdaProcess] = []

    def launch(function: str, handler: str) -> LambdaProcess:
        process = LambdaProcess(handler, code, layers, cloud.environment(function, code))
        started.append(process)
        assert process.started.get("ready"), f"{handler} failed to import: {process.started.get('trace')}"
        return process

    yield launch
    # Everything every function loaded came from the artefacts or the standard library.
    allowed = (str(code), str(layers), sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"])
    try:
        for process in started:
            files = process.module_files()
            # The driver itself runs as __main__ (multiprocessing also names it __mp_main__).
            foreign = {
                name: path
                for name, path in files.items()
                if not path.startswith(allowed) and name not in {"__main__", "__mp_main__"}
            }
            assert not foreign, f"{process.handler} imported from outside its artefacts: {foreign}"
    finally:
        for process in started:
            process.close()


def api(method: str, path: str, context: dict[str, str], body: Any = None, query: str = "") -> dict[str, Any]:
    return api_event(
        method,
        path,
        query=query,
        headers={"content-type": "application/json"},
        body=None if body is None else json.dumps(body),
        authorizer=context,
    )


def test_given_the_shipped_artefacts_when_each_function_is_invoked_then_every_one_serves(
    cloud: Cloud, start: Any
) -> None:
    # Given an API key in the table, as `engram keys create` leaves one.
    _, secret = cloud.engram.keys.create("acme", "alpha", frozenset({Role.WRITER}))

    # The authorizer: the key's principal in the policy context; a wrong key is "Unauthorized".
    authorizer = start("authorizer", "engram.handlers.authorizer.handler")
    method_arn = f"{API_ARN}/POST/v1/users/alice/recall"
    policy = authorizer.result({"type": "TOKEN", "authorizationToken": f"Bearer {secret}", "methodArn": method_arn})
    assert policy["policyDocument"]["Statement"][0]["Effect"] == "Allow"
    context = policy["context"]
    assert context["tenantId"] == "acme" and context["agentId"] == "alpha"
    denied = authorizer.invoke({"type": "TOKEN", "authorizationToken": "Bearer egm_nope_nope", "methodArn": method_arn})
    assert denied.get("error") == "Unauthorized" and denied["message"] == "Unauthorized"

    # The api: a write.
    api_fn = start("api", "engram.handlers.api.handler")
    write = api_fn.result(
        api(
            "PUT",
            "/v1/users/alice/memories",
            context,
            {"key": "favorite_food", "value": "ramen", "category": "preference"},
        )
    )
    assert write["statusCode"] == 200, write
    written = json.loads(write["body"])

    # The stream indexer: the INSERT reaches the search index.
    indexer = start("indexer", "engram.handlers.indexer.handler")
    inserted = cloud.stream_records()
    assert {r["eventName"] for r in inserted} >= {"INSERT"}
    assert indexer.result({"Records": inserted}) == {"batchItemFailures": []}
    assert cloud.opensearch.doc_ids(INDEX) == {written["entry"]["id"]}

    # The api: a recall and a search find it through the index.
    recall = api_fn.result(api("POST", "/v1/users/alice/recall", context, {"message": "what food do I like, ramen?"}))
    assert recall["statusCode"] == 200, recall
    assert "ramen" in json.loads(recall["body"])["context"]
    search = api_fn.result(api("GET", "/v1/users/alice/memories/search", context, query="q=ramen"))
    assert search["statusCode"] == 200, search
    assert [i["entry"]["value"] for i in json.loads(search["body"])["items"]] == ["ramen"]

    # MODIFY: a new value supersedes the old entry (the old leaves the index, the new enters).
    update = api_fn.result(
        api(
            "PUT",
            "/v1/users/alice/memories",
            context,
            {"key": "favorite_food", "value": "udon", "category": "preference"},
        )
    )
    assert update["statusCode"] == 200, update
    modified = cloud.stream_records()
    assert "MODIFY" in {r["eventName"] for r in modified}
    assert indexer.result({"Records": modified}) == {"batchItemFailures": []}
    newest = json.loads(update["body"])["entry"]["id"]
    assert cloud.opensearch.doc_ids(INDEX) == {newest}

    # REMOVE by TTL: DynamoDB's sweeper deletes the item; the record says who did it.
    keys = next(r["dynamodb"]["Keys"] for r in modified if r["eventName"] == "INSERT")
    cloud.ddb.delete_item(TableName=cloud.table, Key=keys)
    expired = [
        {**r, "userIdentity": {"type": "Service", "principalId": "dynamodb.amazonaws.com"}}
        for r in cloud.stream_records()
        if r["eventName"] == "REMOVE"
    ]
    assert len(expired) == 1
    assert indexer.result({"Records": expired}) == {"batchItemFailures": []}
    assert cloud.opensearch.doc_ids(INDEX) == set()

    # Extraction: a message appended through the api is queued, and the function extracts it.
    appended = api_fn.result(
        api(
            "POST",
            "/v1/users/alice/threads/chat/messages",
            context,
            {"messages": [{"id": "m1", "role": "user", "content": "I like pizza"}]},
        )
    )
    assert appended["statusCode"] == 200, appended
    extraction = start("extraction", "engram.handlers.extraction.handler")
    jobs = cloud.sqs_event("extraction")
    assert len(jobs["Records"]) == 1
    assert extraction.result(jobs) == {"batchItemFailures": []}
    now = datetime.now(UTC)
    assert "pizza" in {e.value for e in cloud.engram.store.list_entries("acme", "alice", EntryQuery(now=now)).items}

    # Dream: the scheduled event plans a run; the worker consumes its batches.
    planner = start("dream_planner", "engram.handlers.dream.planner_handler")
    planned = planner.result(
        {
            "version": "0",
            "id": str(uuid.uuid4()),
            "detail-type": "Scheduled Event",
            "source": "aws.events",
            "account": ACCOUNT,
            "time": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "region": REGION,
            "resources": [f"arn:aws:events:{REGION}:{ACCOUNT}:rule/engram-dream"],
            "detail": {},
        }
    )
    assert planned["status"] in {"running", "completed"} and "runId" in planned
    worker = start("dream_worker", "engram.handlers.dream.worker_handler")
    batches = cloud.sqs_event("dream")
    assert len(batches["Records"]) == (1 if planned["usersPlanned"] else 0)
    assert worker.result(batches) == {"batchItemFailures": []}

    # Re-index: a backfill queued by a direct invocation, then done from its queue.
    reindex = start("reindex", "engram.handlers.reindex.handler")
    assert reindex.result({"action": "start", "segments": 1}) == {"action": "start", "segments": 1}
    assert reindex.result(cloud.sqs_event("reindex")) == {"batchItemFailures": []}
    live = {e.id for e in cloud.engram.store.list_entries("acme", "alice", EntryQuery(now=now)).items}
    memories = {d["doc_id"] for d in cloud.opensearch.documents(INDEX).values() if d["kind"] == "memory"}
    assert memories == live

    # MCP: tools/list, and a tool call.
    mcp = start("mcp", "engram.handlers.mcp.handler")

    def rpc(method: str, params: dict[str, Any]) -> dict[str, Any]:
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        event = api_event("POST", "/mcp", headers=MCP_HEADERS, body=json.dumps(body), authorizer=context)
        response = mcp.result(event)
        assert response["statusCode"] == 200, response
        return dict(json.loads(response["body"])["result"])

    assert "count_user_memories" in {t["name"] for t in rpc("tools/list", {})["tools"]}
    counted = rpc("tools/call", {"name": "count_user_memories", "arguments": {"userId": "alice"}})
    assert counted["structuredContent"]["count"] >= 1
