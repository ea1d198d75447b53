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
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.dynamodb import DynamoStore
from engram.adapters.opensearch import OpenSearchIndex, mapping
from engram.adapters.sqs_queue import SqsQueue
from engram.api.auth import principal_context
from engram.container import Engram, build, set_engram
from engram.domain.conversation import MessageRole, NewMessage
from engram.domain.ranking import weights_for
from engram.domain.serialization import parse_ts
from engram.handlers import api as api_handler
from engram.handlers import extraction as extraction_handler
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.settings import Settings

from tests.integration.test_extraction_cloud_path import cloud_parts, drain
from tests.standins import OpenSearchStandin
from tests.support import ManualClock, backend_for, principal

AGENT = principal("acme", "alpha")


@pytest.fixture
def cloud(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Engram, Any, str, OpenSearchStandin]]:
    with cloud_parts(request) as parts:
        opensearch = OpenSearchStandin()
        settings = Settings(data_dir=tmp_path, idempotency_table=parts.idempotency_table, opensearch_url=opensearch.url)
        # Every service on the one OpenSearch index, as the stack wires it.
        index = OpenSearchIndex.from_settings(settings, 384, refresh=True)
        store = DynamoStore(parts.ddb, parts.table)
        engram = build(settings, backend=backend_for(store, settings), index=index, clock=ManualClock())
        feature = engram.conversation
        feature.queue = feature.conversations.queue = SqsQueue(parts.sqs, parts.queue_url)
        set_engram(engram)
        yield engram, parts.sqs, parts.queue_url, opensearch
        set_engram(None)
        opensearch.stop()


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


TURNS = [
    ("s1-1", "Maya", "2023-05-07T18:00:00+00:00", "Hey! How have you been?"),
    ("s1-2", "Leo", "2023-05-07T18:01:00+00:00", "Busy but good, you?"),
    ("s1-3", "Maya", "2023-05-07T18:02:00+00:00", "We brought home a beagle puppy from the shelter yesterday!"),
    ("s1-4", "Leo", "2023-05-07T18:03:00+00:00", "I finally finished painting the kitchen."),
    ("s1-5", "Maya", "2023-05-07T18:04:00+00:00", "My sister starts her new job in Lisbon next month."),
    ("s1-6", "Leo", "2023-05-07T18:05:00+00:00", "The car needs new tyres before winter."),
]


def converse(engram: Engram, sqs: Any, url: str, turns: list[tuple[str, str, str, str]] = TURNS) -> None:
    """Append the turns through the API Lambda and let the extraction Lambda index them."""
    messages = [
        {"id": mid, "role": "user" if who == "Maya" else "assistant", "content": text, "timestamp": at}
        | {"metadata": {"speaker": who}}
        for mid, who, at, text in turns
    ]
    call("POST", "/v1/users/maya/threads/session-1/messages", {"messages": messages})
    assert extraction_handler.handler(drain(sqs, url), LocalContext()) == {"batchItemFailures": []}


def count_message_reads(engram: Engram, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on the table read of past messages: the message ids recall reads."""
    repo = engram.recall.messages
    assert repo is not None
    read: list[str] = []
    real = repo.get_messages

    def get_messages(tenant_id: str, user_id: str, keys: Any) -> Any:
        read.extend(mid for _, _, mid in keys)
        return real(tenant_id, user_id, keys)

    monkeypatch.setattr(repo, "get_messages", get_messages)
    return read


def test_given_the_index_keeps_who_said_each_message_and_when_then_recall_reads_only_the_shown_ones(
    cloud: tuple[Engram, Any, str, OpenSearchStandin], monkeypatch: pytest.MonkeyPatch
) -> None:
    # (#19 left) OpenSearch's documents did not keep who said a message, so recall read
    # every candidate message from DynamoDB before ranking it: six reads for one shown.
    engram, sqs, url, opensearch = cloud
    converse(engram, sqs, url)
    read = count_message_reads(engram, monkeypatch)
    question = {"message": "Which shelter puppy did Maya bring home?", "topK": 1, "excludeThreadId": "now"}

    body = call("POST", "/v1/users/maya/recall", question)

    assert [e["provenance"]["messageId"] for e in body["episodes"]] == ["s1-3"]
    assert body["episodes"][0]["provenance"]["speaker"] == "Maya"
    # Every turn was a candidate (the k-NN part returns them all), only the shown one was read.
    assert read == ["s1-3"]
    stored = opensearch.documents(engram.settings.opensearch_index)
    assert {d["speaker"] for d in stored.values() if d["kind"] == "message"} == {"Maya", "Leo"}

    # Documents indexed before the index kept the speaker stay readable: recall falls
    # back to reading its candidates from the table, and answers the same.
    for doc in opensearch.indices[engram.settings.opensearch_index]["docs"].values():
        doc.pop("speaker", None)
    read.clear()
    again = call("POST", "/v1/users/maya/recall", question)
    assert [e["provenance"]["messageId"] for e in again["episodes"]] == ["s1-3"]
    assert sorted(read) == [mid for mid, *_ in TURNS]


def test_given_an_index_from_before_speakers_when_messages_are_indexed_then_the_field_is_put_into_its_mapping(
    cloud: tuple[Engram, Any, str, OpenSearchStandin],
) -> None:
    engram, sqs, url, opensearch = cloud
    name = engram.settings.opensearch_index
    old = mapping.index_body(384)
    del old["mappings"]["properties"]["speaker"]
    opensearch.indices[name] = {"body": old, "docs": {}}

    converse(engram, sqs, url, TURNS[:3])

    assert opensearch.indices[name]["body"]["mappings"]["properties"]["speaker"]["type"] == "keyword"
    said = {d["doc_id"]: d["speaker"] for d in opensearch.documents(name).values() if d["kind"] == "message"}
    assert sorted(said.values()) == ["Leo", "Maya", "Maya"]


def test_given_messages_in_two_agents_threads_then_speakers_are_this_agents_only_and_an_admins_are_all(
    cloud: tuple[Engram, Any, str, OpenSearchStandin],
) -> None:
    # (#19 left) OpenSearch answered no speakers at all, so in the cloud recall knew the
    # people talking only from the profile. Another agent's partners must not leak
    # (7fcf0c7, the local index's rule).
    engram, sqs, url, _ = cloud
    converse(engram, sqs, url, TURNS[:2])
    beta = principal("acme", "beta")
    assert engram.conversation is not None
    at = parse_ts("2023-05-08T09:00:00+00:00")
    engram.conversation.conversations.append(
        beta,
        "maya",
        "trips",
        [NewMessage("b1", MessageRole.USER, "Jordan here, about the trip.", at, {"speaker": "Jordan"})],
    )
    assert extraction_handler.handler(drain(sqs, url), LocalContext()) == {"batchItemFailures": []}
    index = engram.recall.index

    assert index.speakers("acme", "maya", "alpha") == {"Maya", "Leo"}
    assert index.speakers("acme", "maya", "beta") == {"Jordan"}
    assert index.speakers("acme", "maya", None) == {"Maya", "Leo", "Jordan"}
    assert index.speakers("acme", "someone-else", None) == frozenset()
    assert index.speakers("other-tenant", "maya", None) == frozenset()

    # Recall with the speaker part leaves the names of this agent's partners out of the
    # messages' keyword query, and not another agent's.
    engram.recall.weights = replace(engram.recall.weights, speaker_boost=weights_for("all-MiniLM-L6-v2").speaker_boost)
    assert engram.recall.message_keywords(AGENT, "maya", "What did Maya tell Leo?") == "What did tell ?"
    assert engram.recall.message_keywords(beta, "maya", "What did Maya tell Leo?") is None


def test_given_nothing_indexed_yet_then_speakers_are_none(cloud: tuple[Engram, Any, str, OpenSearchStandin]) -> None:
    engram, _, _, opensearch = cloud
    assert engram.settings.opensearch_index not in opensearch.indices
    assert engram.recall.index.speakers("acme", "maya", "alpha") == frozenset()
