"""What the cloud path costs in Bedrock embeddings and search-index writes, counted.

DynamoDB on moto server, its stream read back and handed to the ``indexer`` handler as
Lambda would, OpenSearch and Bedrock (Titan v2) on the loopback stand-ins, which count
every embedding call and every document written. The figures:

- a write costs one embedding (the indexer's, of the new text);
- a recall costs one (its query): the access counts it writes reach the stream, and the
  indexer leaves their documents alone;
- a dream run costs embeddings only for the entries it changed (decay changes the
  confidence, which the index keeps for ranking); a run that changes nothing, none.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from engram.adapters.bedrock import BedrockEmbedder
from engram.adapters.dream_queue import InMemoryDreamQueue
from engram.adapters.dynamodb import DynamoStore, create_table
from engram.adapters.opensearch import OpenSearchIndex
from engram.container import Engram, set_engram
from engram.domain.agent_config import AgentConfig, DreamConfig, UserMemoryConfig
from engram.domain.dream_run import Trigger
from engram.handlers import indexer as indexer_handler
from engram.local.lambda_context import LocalContext
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest
from engram.settings import Settings

from tests.moto_server import DUMMY_CREDENTIALS, REGION, dynamodb_client, fresh_table_name, moto_endpoint, stop_moto
from tests.standins import BedrockStandin, OpenSearchStandin
from tests.stream_reader import StreamReader
from tests.support import ManualClock, engram_for, principal

INDEX = "engram-counts"
FACTS = {"city": "Lisbon", "pet": "a cat named Miso", "food": "ramen", "job": "nurse", "sport": "climbing"}


class Cloud:
    def __init__(self, engram: Engram, stream: StreamReader, opensearch: OpenSearchStandin, bedrock: BedrockStandin):
        self.engram, self.stream, self.opensearch, self.bedrock = engram, stream, opensearch, bedrock

    def index_stream(self) -> int:
        """Hand the new stream records to the indexer; how many there were."""
        records = self.stream.records()
        if records:
            assert indexer_handler.handler({"Records": records}, LocalContext()) == {"batchItemFailures": []}
        return len(records)

    def dream(self) -> None:
        dream = self.engram.dream
        assert dream is not None and isinstance(dream.queue, InMemoryDreamQueue)
        run = dream.start(Trigger.SCHEDULE)
        dream.plan(run.run_id)
        while len(dream.queue):
            for message in dream.queue.receive(10):
                dream.handle(message)


@pytest.fixture
def cloud(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Cloud]:
    request.session.config.add_cleanup(stop_moto)
    endpoint = moto_endpoint()
    ddb = dynamodb_client(endpoint)
    table = fresh_table_name()
    create_table(ddb, table)
    opensearch, bedrock = OpenSearchStandin(), BedrockStandin()
    runtime: Any = boto3.client(
        "bedrock-runtime",
        endpoint_url=bedrock.url,
        region_name=REGION,
        aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    )
    embedder = BedrockEmbedder(runtime, dimension=256)
    index = OpenSearchIndex.from_settings(Settings(opensearch_url=opensearch.url, opensearch_index=INDEX), 256)
    engram = engram_for(
        tmp_path, store=DynamoStore(ddb, table), clock=ManualClock(), backend="aws", opensearch_url=opensearch.url
    )
    # The cloud's wiring, with the stand-ins' clients.
    engram.index = engram.memory.index = engram.recall.index = index
    engram.embedder = engram.memory.embedder = engram.recall.embedder = embedder
    engram.indexer._index, engram.indexer._embedder = index, embedder
    assert engram.dream is not None
    engram.dream.embedder = embedder
    engram.dream.queue = InMemoryDreamQueue()
    set_engram(engram)
    yield Cloud(engram, StreamReader(ddb, table, endpoint), opensearch, bedrock)
    set_engram(None)
    opensearch.stop()
    bedrock.stop()
    ddb.delete_table(TableName=table)


def test_given_the_cloud_path_then_writes_recalls_and_dream_runs_embed_only_what_changed(cloud: Cloud) -> None:
    e, agent = cloud.engram, principal("t1", "agent-a")
    config = AgentConfig(user_memory_config=UserMemoryConfig(dream_config=DreamConfig(enabled=True)))
    e.agents.put("t1", "agent-a", config)

    # Writes: one embedding each, by the indexer; the API itself embeds nothing.
    for key, value in FACTS.items():
        e.memory.upsert(agent, "u1", [UpsertCommand(key, value)])
    assert cloud.bedrock.calls == 0
    cloud.index_stream()
    assert cloud.bedrock.calls == len(FACTS)
    assert cloud.opensearch.indexed == len(FACTS)

    # A recall: its query, and nothing for the access counts it records.
    cloud.bedrock.reset()
    written = cloud.opensearch.indexed
    result = e.recall.recall(agent, "u1", RecallRequest("where do I live and what food do I eat?", min_score=0.0))
    assert result.memories  # found through the index
    assert cloud.bedrock.calls == 1
    assert cloud.index_stream() > 0  # the access counts did reach the stream
    assert cloud.bedrock.calls == 1
    assert cloud.opensearch.indexed == written

    # A dream run that decays every entry: the index keeps confidence (recall ranks its
    # candidates on it), so each decayed entry is embedded and written once, no more.
    e.clock.advance(timedelta(days=8))  # type: ignore[attr-defined]
    cloud.bedrock.reset()
    cloud.dream()
    dream_calls = cloud.bedrock.calls
    assert cloud.index_stream() >= len(FACTS)  # every decayed entry changed in the table
    decayed = [x for x in e.store.list_entries("t1", "u1", _query(e)).items if x.confidence < 1.0]
    assert len(decayed) == len(FACTS)
    assert cloud.bedrock.calls == dream_calls + len(decayed)
    assert cloud.opensearch.indexed == written + len(decayed)
    written = cloud.opensearch.indexed
    # The same run again changes nothing, and costs nothing.
    cloud.bedrock.reset()
    cloud.dream()
    cloud.index_stream()
    assert cloud.bedrock.calls == 0 and cloud.opensearch.indexed == written

    # A changed value: one embedding, one document.
    cloud.bedrock.reset()
    e.memory.upsert(agent, "u1", [UpsertCommand("city", "Porto")])
    cloud.index_stream()
    assert cloud.bedrock.calls == 1
    assert cloud.opensearch.indexed == written + 1


def _query(e: Engram) -> Any:
    from engram.ports import EntryQuery

    return EntryQuery(now=e.clock.now())
