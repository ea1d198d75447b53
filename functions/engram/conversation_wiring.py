"""Composition of the conversation and extraction feature (part of the container).

Picks the repository and idempotency layer matching the store (SQLite locally,
DynamoDB in the cloud), the extractor (rules or Bedrock), the queue (an in-process
worker, or SQS when a queue URL is configured), and registers the feature's eraser
and exporter with the privacy service so export and erasure cover conversations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer

from engram.adapters.local_queue import InProcessQueue
from engram.domain.conversation import ExtractionJob
from engram.domain.errors import StoreUnavailable
from engram.ports import ConversationRepository, FactExtractor, Queue
from engram.service.conversation import ConversationConfig, ConversationService
from engram.service.extraction import Dedup, ExtractionService, IdempotentProcessor
from engram.service.long_term import LongTermMemory
from engram.settings import Settings

if TYPE_CHECKING:
    from engram.container import Engram


@dataclass
class ConversationFeature:
    repo: ConversationRepository
    conversations: ConversationService
    extraction: ExtractionService
    processor: IdempotentProcessor
    queue: Queue
    long_term: LongTermMemory
    # The local worker, when there is one (tests and benchmarks wait on it).
    worker: InProcessQueue | None = None

    def recover(self) -> int:
        """Re-queue messages stored but never processed (the last process stopped first).

        Called by ``engram serve`` at start; not by every container build, so that a CLI
        command run beside a server never races it for the same jobs.
        """
        pending = getattr(self.repo, "pending_jobs", None)
        if self.worker is None or pending is None:
            return 0
        jobs: list[ExtractionJob] = pending()
        if jobs:
            self.worker.send(jobs)
        return len(jobs)


def attach(engram: Engram) -> ConversationFeature | None:
    """Build the feature on the container's store; None if this store has no adapter yet."""
    settings = engram.settings
    storage = _storage(engram)
    if storage is None:
        return None
    repo, persistence = storage
    extraction = ExtractionService(
        repo,
        engram.store,
        engram.index,
        engram.embedder,
        engram.clock,
        engram.memory,
        engram.users,
        engram.agents,
        make_extractor(settings),
        _dedup(engram),
    )
    processor = IdempotentProcessor(extraction.process, persistence, settings.idempotency_record_seconds)
    worker: InProcessQueue | None = None
    queue: Queue
    if settings.extraction_queue_url:
        queue = _sqs(settings)
    else:
        from engram.local.lambda_context import LocalContext

        def run(job: ExtractionJob) -> Any:
            # A context gives the in-progress record an expiry, as in Lambda: a job cut
            # short by a crash is retried at the next start instead of blocked.
            return processor(job, LocalContext())

        worker = InProcessQueue(run, background=settings.extraction_worker == "background")
        queue = worker
    config = ConversationConfig(
        window=settings.conversation_window,
        message_limit=settings.conversation_message_limit,
        summary_every=settings.conversation_summary_every,
        min_score=settings.message_search_min_score,
    )
    conversations = ConversationService(repo, queue, engram.index, engram.embedder, engram.clock, config, processor)
    long_term = LongTermMemory(engram.memory, conversations, repo, engram.index, engram.embedder, engram.clock)
    engram.privacy.erasers["conversations"] = conversations
    engram.privacy.exporters["conversations"] = conversations.export_user
    return ConversationFeature(repo, conversations, extraction, processor, queue, long_term, worker)


def feature_of(engram: Engram) -> ConversationFeature:
    feature: ConversationFeature | None = getattr(engram, "conversation", None)
    if feature is None:
        raise StoreUnavailable("Conversation memory is not available on this backend.")
    return feature


def make_extractor(settings: Settings) -> FactExtractor:
    if settings.extractor == "bedrock":
        import boto3

        from engram.adapters.bedrock_extractor import BedrockExtractor, Pricing

        client = boto3.client("bedrock-runtime", region_name=settings.aws_region)
        pricing = Pricing(settings.extraction_usd_per_1k_input_tokens, settings.extraction_usd_per_1k_output_tokens)
        return BedrockExtractor(client, settings.bedrock_extraction_model, pricing)
    from engram.adapters.rule_extractor import RuleExtractor

    return RuleExtractor()


def _storage(engram: Engram) -> tuple[ConversationRepository, BasePersistenceLayer] | None:
    from engram.adapters.sqlite import SqliteStore

    store = engram.store
    if isinstance(store, SqliteStore):
        from engram.adapters.sqlite.conversations import SqliteConversations
        from engram.adapters.sqlite.idempotency import SqliteIdempotencyLayer

        return SqliteConversations(store), SqliteIdempotencyLayer(store)
    from engram.adapters.dynamodb import DynamoStore

    if isinstance(store, DynamoStore):
        from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

        from engram.adapters.dynamodb.conversations import DynamoConversations

        repo = DynamoConversations(store.client, store.table_name, store.metrics)
        # Idempotency records live in their own table (key "id", TTL on "expiration"),
        # as Powertools lays them out; the stack creates it beside the main table.
        persistence = DynamoDBPersistenceLayer(table_name=engram.settings.idempotency_table, boto3_client=store.client)
        return repo, persistence
    return None


def _dedup(engram: Engram) -> Dedup | None:
    from engram.service.dedup import SemanticDedup

    return SemanticDedup(engram.store, engram.index, engram.embedder, engram.clock)


def _sqs(settings: Settings) -> Queue:
    import boto3

    from engram.adapters.sqs_queue import SqsQueue

    assert settings.extraction_queue_url is not None
    return SqsQueue(boto3.client("sqs", region_name=settings.aws_region), settings.extraction_queue_url)
