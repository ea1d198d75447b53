"""Recall when the search domain is down: the table still answers, so tier 2 comes from a
keyword match over the user's entries, flagged ``degraded``, instead of a 503.

DynamoDB on moto server; OpenSearch is the loopback stand-in, told to answer every
request with a 503 as a domain that is down (or red) does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.opensearch import OpenSearchIndex
from engram.api.auth import principal_context
from engram.container import Engram, set_engram
from engram.handlers import api as api_handler
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.service.dedup import SemanticDedup
from engram.service.memory import UpsertCommand
from engram.settings import Settings

from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.standins import OpenSearchStandin
from tests.support import ManualClock, engram_for, principal

AGENT = principal("t1", "agent-a")


@pytest.fixture
def cloud(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Engram, OpenSearchStandin]]:
    request.session.config.add_cleanup(stop_moto)
    ddb = dynamodb_client(moto_endpoint())
    table = fresh_table_name()
    create_table(ddb, table)
    opensearch = OpenSearchStandin()
    index = OpenSearchIndex.from_settings(Settings(opensearch_url=opensearch.url), 384)
    engram = engram_for(tmp_path, store=DynamoStore(ddb, table), clock=ManualClock())
    engram.index = engram.memory.index = engram.recall.index = index
    # Write-time dedup searches the same domain, as it does in the cloud.
    engram.memory.dedup = SemanticDedup(engram.memory.entries, index, engram.embedder, engram.clock)
    set_engram(engram)
    yield engram, opensearch
    set_engram(None)
    opensearch.stop()
    ddb.delete_table(TableName=table)


def recall(message: str) -> tuple[int, dict[str, object]]:
    event = api_event(
        "POST",
        "/v1/users/u1/recall",
        headers={"content-type": "application/json"},
        body=json.dumps({"message": message}),
        authorizer=principal_context(AGENT),
    )
    response = api_handler.handler(event, LocalContext())
    return response["statusCode"], json.loads(response["body"])


def test_given_the_search_domain_down_when_recalling_then_keywords_from_the_table_answer_flagged_degraded(
    cloud: tuple[Engram, OpenSearchStandin],
) -> None:
    engram, opensearch = cloud
    engram.memory.upsert(
        AGENT, "u1", [UpsertCommand("dentist", "Dr Silva on Tuesday"), UpsertCommand("car", "a blue Fiat")]
    )
    status, body = recall("when is my dentist appointment?")
    assert status == 200 and body["degraded"] is False  # the domain answers (nothing indexed here)

    opensearch.fail_with = 503
    status, body = recall("when is my dentist appointment?")

    assert status == 200, body
    assert body["degraded"] is True
    assert [m["entry"]["key"] for m in body["memories"]] == ["dentist"]  # type: ignore[index]
    assert "Dr Silva" in str(body["context"])
    assert opensearch.requests["_msearch"] >= 2  # it was asked, and failed


def test_given_the_search_domain_down_then_writes_still_dedup_and_recall_as_of_shows_past_values(
    cloud: tuple[Engram, OpenSearchStandin],
) -> None:
    """Issue #17: write-time dedup and recall asOf do not depend on the search domain."""
    from datetime import UTC, datetime

    engram, opensearch = cloud
    engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Paris", valid_from=datetime(2019, 1, 1, tzinfo=UTC))])
    engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Rome", valid_from=datetime(2024, 6, 1, tzinfo=UTC))])
    opensearch.fail_with = 503
    # When the domain is down, a write to a new key is still taken, and compared with
    # the user's latest entries from the table
    first = engram.memory.upsert(AGENT, "u1", [UpsertCommand("favorite_food", "pizza", category="preference")])
    again = engram.memory.upsert(AGENT, "u1", [UpsertCommand("favorite_foods", "Pizza", category="preference")])
    assert first[0].outcome.value == "created"
    assert again[0].outcome.value == "reinforced" and again[0].entry.id == first[0].entry.id
    # And recall as of 2020 answers from the table with the value that held then
    event = api_event(
        "POST",
        "/v1/users/u1/recall",
        headers={"content-type": "application/json"},
        body=json.dumps({"message": "which city?", "asOf": "2020-03-01T00:00:00Z", "minScore": 0}),
        authorizer=principal_context(AGENT),
    )
    response = api_handler.handler(event, LocalContext())
    body = json.loads(response["body"])
    assert response["statusCode"] == 200 and body["degraded"] is True, body
    assert [m["entry"]["value"] for m in body["memories"] if m["entry"]["key"] == "city"] == ["Paris"]


def test_given_an_index_of_another_embedder_then_it_is_refused_and_recall_answers_from_the_table_flagged(
    cloud: tuple[Engram, OpenSearchStandin],
) -> None:
    """#19: after an embedder change without a re-index, every search compared the query
    with no document (vectors of another model are never compared) and said nothing.
    The index records its embedder; another one is refused, so recall degrades, says so,
    and the writers fail loudly until ENGRAM_OPENSEARCH_INDEX points at a new index."""
    import pytest
    from engram.domain.errors import StoreUnavailable
    from engram.ports import DocKind, IndexDocument

    engram, opensearch = cloud
    settings = Settings(opensearch_url=opensearch.url)
    doc = IndexDocument("d1", "t1", "u1", DocKind.MEMORY, "dentist: Dr Silva", [1.0] + [0.0] * 383, "m", "global", "a")
    # An index written before indexes recorded their embedder records it on its next write.
    OpenSearchIndex.from_settings(settings, 384).upsert([doc])
    assert "_meta" not in opensearch.indices["engram-memory"]["body"]["mappings"]
    OpenSearchIndex.from_settings(settings, 384, model_id=engram.embedder.model_id).upsert([doc])
    meta = opensearch.indices["engram-memory"]["body"]["mappings"]["_meta"]
    assert meta == {"engram_model_id": engram.embedder.model_id}

    engram.memory.upsert(AGENT, "u1", [UpsertCommand("dentist", "Dr Silva on Tuesday")])
    assert recall("when is my dentist appointment?")[1]["degraded"] is False
    # Given a process whose embedder is another model
    other = OpenSearchIndex.from_settings(settings, 384, model_id="all-MiniLM-L6-v2-onnx-int8")
    engram.recall.index = other
    # When recalling, the index is refused and the table answers, flagged
    status, body = recall("when is my dentist appointment?")
    assert status == 200 and body["degraded"] is True
    assert [m["entry"]["key"] for m in body["memories"]] == ["dentist"]  # type: ignore[index]
    # And a write is refused with what to do
    with pytest.raises(StoreUnavailable, match="point ENGRAM_OPENSEARCH_INDEX at a new index"):
        other.upsert([doc])


def test_given_an_index_of_another_embedder_then_it_is_asked_once_per_process(
    cloud: tuple[Engram, OpenSearchStandin],
) -> None:
    """(review of #19) A refused index was asked its mapping again on every search (two
    more calls to the cluster and an error logged per recall, for as long as the
    misconfiguration lasts); the refusal holds for the process, as the docs say."""
    import pytest
    from engram.domain.errors import StoreUnavailable
    from engram.ports import DocKind, IndexDocument, SearchQuery

    engram, opensearch = cloud
    settings = Settings(opensearch_url=opensearch.url)
    doc = IndexDocument("d1", "t1", "u1", DocKind.MEMORY, "dentist: Dr Silva", [1.0] + [0.0] * 383, "m", "global", "a")
    OpenSearchIndex.from_settings(settings, 384, model_id=engram.embedder.model_id).upsert([doc])
    # Given a process whose embedder is another model
    other = OpenSearchIndex.from_settings(settings, 384, model_id="all-MiniLM-L6-v2-onnx-int8")
    client = other._get_client()
    asked: list[object] = []
    real = client.indices.get_mapping

    def get_mapping(**kwargs: object) -> object:
        asked.append(kwargs)
        return real(**kwargs)

    client.indices.get_mapping = get_mapping  # type: ignore[method-assign]
    query = SearchQuery("t1", "u1", engram.clock.now(), "dentist", vector=[1.0] + [0.0] * 383)
    # When it searches three times and writes once, each is refused
    for _ in range(3):
        with pytest.raises(StoreUnavailable, match="point ENGRAM_OPENSEARCH_INDEX at a new index"):
            other.search(query)
    with pytest.raises(StoreUnavailable, match="point ENGRAM_OPENSEARCH_INDEX at a new index"):
        other.upsert([doc])
    # Then the index was asked what it holds once
    assert len(asked) == 1
