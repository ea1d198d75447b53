"""The AWS backend: DynamoDB (one table) as the source of truth, OpenSearch as the index.

In the cloud the indexer Lambda reads the table's stream, so no process here drains
changes. Run locally (``engram serve --backend aws``, against DynamoDB or an emulator)
without an OpenSearch domain, the in-process index stands in and this process polls
the table's stream to feed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engram.adapters.dynamodb import DynamoStore
from engram.backends import DreamDelivery, Repositories, shared_dream_queue, shared_search_index
from engram.ports import (
    BlockRepository,
    ChangeOutbox,
    ConversationRepository,
    CoreMemoryReader,
    DreamQueue,
    DreamStateRepository,
    EntryScanner,
    ProposalRepository,
    SearchIndex,
    StreamRange,
    VectorSource,
)
from engram.service.access import AccessRecorder, InlineAccessRecorder
from engram.settings import Settings

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

    from engram.adapters.idempotency import OwnedDynamoLayer


class AwsBackend:
    def __init__(self, settings: Settings, store: DynamoStore, outbox: ChangeOutbox | None = None) -> None:
        self.settings = settings
        self.store = store
        self._outbox = outbox
        self._index: tuple[SearchIndex, VectorSource | None] | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> AwsBackend:
        dynamo = DynamoStore.from_settings(settings)
        if settings.opensearch_url:
            return cls(settings, dynamo)  # the cloud: the indexer Lambda reads the stream
        from engram.adapters.dynamodb import ensure_table
        from engram.adapters.dynamodb.stream import StreamOutbox

        # Against a local emulator (an endpoint is set) the table is created on first use;
        # a real account's comes from the stack.
        if settings.dynamodb_endpoint:
            ensure_table(dynamo.client, settings.table_name)
        return cls(settings, dynamo, StreamOutbox.from_settings(dynamo, settings))

    @property
    def repositories(self) -> Repositories:
        return Repositories.of(self.store)

    def search_index(self, dimension: int, model_id: str | None = None) -> SearchIndex:
        if self._index is None:
            self._index = shared_search_index(self.settings, dimension, model_id)
        return self._index[0]

    def change_outbox(self) -> ChangeOutbox | None:
        return self._outbox

    def core_reader(self) -> CoreMemoryReader:
        # Tier 1 from the sparse LSI2 of core preferences (docs/dynamodb.md).
        from engram.adapters.dynamodb.core import DynamoCoreReader

        return DynamoCoreReader(self.store)

    def access_recorder(self) -> AccessRecorder:
        # A Lambda is frozen once it answers, so nothing may be left to a background thread.
        return InlineAccessRecorder(self.store)

    def dream_state(self) -> DreamStateRepository:
        from engram.adapters.dynamodb.dream_state import DynamoDreamState

        return DynamoDreamState(self.store.client, self.store.table_name, self.store.metrics)

    def dream_queue(self, deliver: DreamDelivery) -> DreamQueue:
        return shared_dream_queue(self.settings, deliver)

    def stored_vectors(self) -> VectorSource | None:
        return None if self._index is None else self._index[1]

    def proposal_repository(self) -> ProposalRepository:
        from engram.adapters.dynamodb.proposals import DynamoProposalStore

        return DynamoProposalStore(self.store.client, self.store.table_name, self.store.metrics)

    def block_repository(self) -> BlockRepository:
        from engram.adapters.dynamodb.blocks import DynamoBlockStore

        return DynamoBlockStore(self.store.client, self.store.table_name, self.store.metrics)

    def conversation_repository(self) -> ConversationRepository:
        from engram.adapters.dynamodb.conversations import DynamoConversations

        return DynamoConversations(self.store.client, self.store.table_name, self.store.metrics)

    def extraction_persistence(self) -> DynamoDBPersistenceLayer:
        from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

        # Idempotency records live in their own table (key "id", TTL on "expiration"), as
        # Powertools lays them out; the stack creates it beside the main table.
        return DynamoDBPersistenceLayer(table_name=self.settings.idempotency_table, boto3_client=self.store.client)

    def write_idempotency(self) -> OwnedDynamoLayer:
        from engram.adapters.idempotency import OwnedDynamoLayer

        return OwnedDynamoLayer(table_name=self.settings.idempotency_table, boto3_client=self.store.client)

    def unprocessed_messages(self) -> None:
        return None  # SQS delivers a message again until a worker has processed it

    def user_lister(self) -> None:
        return None  # the cloud re-embeds one user at a time (``reembed_user``), not by listing the table

    def entry_scanner(self) -> EntryScanner:
        from engram.adapters.dynamodb.reindex import DynamoEntryScanner

        return DynamoEntryScanner(self.store)

    def stream_range(self) -> StreamRange:
        import boto3

        from engram.adapters.dynamodb.reindex import DynamoStreamRange

        settings = self.settings
        streams = boto3.client(
            "dynamodbstreams", region_name=settings.aws_region, endpoint_url=settings.dynamodb_endpoint
        )
        return DynamoStreamRange(streams)
