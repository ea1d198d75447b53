"""Ports: the Protocols every external system is reached through, one module per concern.

Services depend only on these; adapters (``engram.adapters.*``) implement them for the
embedded store (SQLite + in-process index) and for AWS (DynamoDB, OpenSearch, Bedrock).
Every adapter of a port passes the same contract suite under ``tests/contract``.

The modules, by concern (import from ``engram.ports`` itself; each name is here):
- ``clock``: what time it is;
- ``store``: the source of truth, one repository per port (entries, profiles, agents'
  configuration, keys, turn counters, erasure) and ``Store``, their union;
- ``search``: the index, the embedder and tier 1's core-memory read;
- ``indexing``: the change feed the indexer follows, the cloud re-index and re-embedding;
- ``conversations``: threads, messages, the extraction queue and the fact extractor;
- ``user_control``: proposals, memory blocks and archival memory;
- ``dream``: dream's run state, queue, stored vectors and summarizer.
"""

from __future__ import annotations

from engram.ports.clock import Clock
from engram.ports.conversations import AppendOutcome, ConversationRepository, FactExtractor, Queue, UnprocessedMessages
from engram.ports.dream import (
    DreamQueue,
    DreamStateRepository,
    DueState,
    DueUser,
    Summarizer,
    SummaryRequest,
    SummaryResult,
    VectorSource,
)
from engram.ports.indexing import (
    ChangeOutbox,
    EntryChange,
    EntryReader,
    EntryScanner,
    Messages,
    ScanPage,
    StreamRange,
    UserLister,
    VectorCensus,
)
from engram.ports.search import (
    CoreMemoryReader,
    DocKind,
    Embedder,
    IndexDocument,
    SearchHit,
    SearchIndex,
    SearchQuery,
    Vector,
)
from engram.ports.store import (
    ConfigRepository,
    EntryQuery,
    ErasureMarks,
    IdentityState,
    KeyStore,
    MemoryRepository,
    ProfileRepository,
    ResidueScrubber,
    Store,
    TurnCounter,
    UserDataEraser,
    UserErasure,
)
from engram.ports.user_control import BlockRepository, ProposalQuery, ProposalRepository

__all__ = [
    "AppendOutcome",
    "BlockRepository",
    "ChangeOutbox",
    "Clock",
    "ConfigRepository",
    "ConversationRepository",
    "CoreMemoryReader",
    "DocKind",
    "DreamQueue",
    "DreamStateRepository",
    "DueState",
    "DueUser",
    "Embedder",
    "EntryChange",
    "EntryQuery",
    "EntryReader",
    "EntryScanner",
    "ErasureMarks",
    "FactExtractor",
    "IdentityState",
    "IndexDocument",
    "KeyStore",
    "MemoryRepository",
    "Messages",
    "ProfileRepository",
    "ProposalQuery",
    "ProposalRepository",
    "Queue",
    "ResidueScrubber",
    "ScanPage",
    "SearchHit",
    "SearchIndex",
    "SearchQuery",
    "Store",
    "StreamRange",
    "Summarizer",
    "SummaryRequest",
    "SummaryResult",
    "TurnCounter",
    "UnprocessedMessages",
    "UserDataEraser",
    "UserErasure",
    "UserLister",
    "Vector",
    "VectorCensus",
    "VectorSource",
]
