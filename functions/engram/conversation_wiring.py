"""Composition of the conversation and extraction feature (part of the composition root).

Takes the repository and extraction idempotency records from the backend, and picks
the extractor (rules or Bedrock) and the queue (an in-process worker, or SQS when a
queue URL is configured). The container registers its eraser and exporter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engram.adapters.local_queue import InProcessContext, InProcessQueue
from engram.domain.conversation import ExtractionJob
from engram.ports import (
    Clock,
    ConversationRepository,
    Embedder,
    FactExtractor,
    Queue,
    SearchIndex,
    UnprocessedMessages,
)
from engram.service.agents import AgentConfigService
from engram.service.conversation import ConversationConfig, ConversationService
from engram.service.extraction import ExtractionService, IdempotentProcessor
from engram.service.long_term import LongTermMemory
from engram.service.memory import MemoryService
from engram.service.users import UserService
from engram.settings import Settings

if TYPE_CHECKING:
    from engram.backends import Backend


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
    # Where messages stored but never processed are found again (the embedded store).
    unprocessed: UnprocessedMessages | None = None

    def recover(self) -> int:
        """Re-queue messages stored but never processed (the last process stopped first).

        Called by ``engram serve`` at start; not by every container build, so that a CLI
        command run beside a server never races it for the same jobs.
        """
        if self.worker is None or self.unprocessed is None:
            return 0
        jobs = self.unprocessed.pending_jobs()
        if jobs:
            self.worker.send(jobs)
        return len(jobs)


def attach_conversations(
    settings: Settings,
    backend: Backend,
    index: SearchIndex,
    embedder: Embedder,
    clock: Clock,
    memory: MemoryService,
    users: UserService,
    agents: AgentConfigService,
) -> ConversationFeature:
    """The feature on the backend's conversation store and idempotency records."""
    from engram.adapters.rule_extractor import RuleExtractor

    repo = backend.conversation_repository()
    repos = backend.repositories
    extraction = ExtractionService(
        repo,
        repos.profiles,
        repos.erasure,
        repos.turns,
        index,
        embedder,
        clock,
        memory,
        users,
        agents,
        make_extractor(settings),
        # Once an agent's daily model budget is spent, the rules extract for free.
        RuleExtractor(),
    )
    processor = IdempotentProcessor(
        extraction.process, backend.extraction_persistence(), settings.idempotency_record_seconds
    )
    worker: InProcessQueue | None = None
    queue: Queue
    if settings.extraction_queue_url:
        queue = _sqs(settings)
    else:

        def run(job: ExtractionJob) -> Any:
            # A context gives the in-progress record an expiry, as in Lambda: a job cut
            # short by a crash is retried at the next start instead of blocked.
            return processor(job, InProcessContext())

        worker = InProcessQueue(run, background=settings.extraction_worker == "background")
        queue = worker
    config = ConversationConfig(
        window=settings.conversation_window,
        message_limit=settings.conversation_message_limit,
        summary_every=settings.conversation_summary_every,
        min_score=settings.message_search_min_score,
    )
    conversations = ConversationService(repo, queue, index, embedder, clock, config, processor, gate=memory.gate)
    long_term = LongTermMemory(memory, conversations, repo, index, embedder, clock)
    return ConversationFeature(
        repo, conversations, extraction, processor, queue, long_term, worker, backend.unprocessed_messages()
    )


def make_extractor(settings: Settings) -> FactExtractor:
    if settings.extractor == "bedrock":
        import boto3

        from engram.adapters.bedrock_extractor import BedrockExtractor, Pricing

        client = boto3.client("bedrock-runtime", region_name=settings.aws_region)
        pricing = Pricing(settings.extraction_usd_per_1k_input_tokens, settings.extraction_usd_per_1k_output_tokens)
        return BedrockExtractor(client, settings.bedrock_extraction_model, pricing)
    from engram.adapters.rule_extractor import RuleExtractor

    return RuleExtractor()


def _sqs(settings: Settings) -> Queue:
    import boto3

    from engram.adapters.sqs_queue import SqsQueue

    assert settings.extraction_queue_url is not None
    return SqsQueue(boto3.client("sqs", region_name=settings.aws_region), settings.extraction_queue_url)
