"""The backends: each builds every adapter of one deployment shape.

The composition root (``engram.container``) takes one ``Backend`` and wires the same
services over it, so it never asks what kind of store it was given:
- ``EmbeddedBackend`` (``engram.backends.embedded``): SQLite in WAL mode and the
  in-process index, for a laptop, tests and ``engram serve``;
- ``AwsBackend`` (``engram.backends.aws``): DynamoDB, OpenSearch (or the in-process
  index when no domain is configured) and SQS.
Each is imported only when chosen, so a Lambda never imports numpy or the embedded
index, and a laptop never imports what only the cloud needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engram.domain.dream_run import DreamMessage
from engram.ports import (
    BlockRepository,
    ChangeOutbox,
    ConfigRepository,
    ConversationRepository,
    CoreMemoryReader,
    DreamQueue,
    DreamStateRepository,
    EntryScanner,
    KeyStore,
    MemoryRepository,
    ProfileRepository,
    ProposalRepository,
    SearchIndex,
    Store,
    StreamRange,
    TurnCounter,
    UnprocessedMessages,
    UserErasure,
    UserLister,
    VectorSource,
)
from engram.service.access import AccessRecorder
from engram.settings import Settings

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer

    from engram.adapters.idempotency import OwnedLayer


@dataclass(frozen=True, slots=True)
class Repositories:
    """The source of truth, one repository per port. The composition root hands each
    service only the ones it uses, so no service depends on a whole store."""

    entries: MemoryRepository
    profiles: ProfileRepository
    configs: ConfigRepository
    keys: KeyStore
    turns: TurnCounter
    erasure: UserErasure

    @classmethod
    def of(cls, store: Store) -> Repositories:
        """Every repository from the one adapter that implements them all over a shared
        connection or table (``SqliteStore``, ``DynamoStore``): one object, so the
        entries' parse cache and the outbox's listeners are shared too."""
        return cls(entries=store, profiles=store, configs=store, keys=store, turns=store, erasure=store)


# Handles one dream message in this process; answers the (tenant, user) pairs to hand back.
DreamDelivery = Callable[[DreamMessage], Sequence[tuple[str, str]]]


class Backend(Protocol):
    """Every adapter whose kind depends on where Engram runs."""

    settings: Settings

    @property
    def store(self) -> Store:
        """The source of truth as one adapter (tools and tests read it whole); services
        take its ``repositories`` instead. Every feature store shares its connection or
        table."""
        ...

    @property
    def repositories(self) -> Repositories:
        """The source of truth, one repository per port."""
        ...

    def search_index(self, dimension: int, model_id: str | None = None) -> SearchIndex:
        """The search index for vectors of ``dimension`` (built once, then the same)."""
        ...

    def change_outbox(self) -> ChangeOutbox | None:
        """Where this process reads committed changes to index them; None when another
        process does (the cloud's stream-fed indexer Lambda)."""
        ...

    def core_reader(self) -> CoreMemoryReader: ...

    def access_recorder(self) -> AccessRecorder: ...

    def dream_state(self) -> DreamStateRepository: ...

    def dream_queue(self, deliver: DreamDelivery) -> DreamQueue:
        """Where dream runs fan out; a queue served in this process hands each message
        to ``deliver``."""
        ...

    def stored_vectors(self) -> VectorSource | None:
        """Vectors the index already holds, when it can hand them out."""
        ...

    def proposal_repository(self) -> ProposalRepository: ...

    def block_repository(self) -> BlockRepository: ...

    def conversation_repository(self) -> ConversationRepository: ...

    def extraction_persistence(self) -> BasePersistenceLayer:
        """Powertools idempotency records of extraction jobs."""
        ...

    def write_idempotency(self) -> OwnedLayer:
        """Powertools idempotency records of ``Idempotency-Key`` writes, erasable per user."""
        ...

    def unprocessed_messages(self) -> UnprocessedMessages | None:
        """Messages stored but never extracted, for ``engram serve`` to queue again at start;
        None where the queue redelivers by itself (SQS)."""
        ...

    def user_lister(self) -> UserLister | None:
        """Every user holding entries, for ``engram reembed``; None where the store cannot
        list them cheaply (the cloud re-embeds one user at a time)."""
        ...

    def entry_scanner(self) -> EntryScanner | None:
        """A parallel scan of every entry, for the cloud re-index; None without one."""
        ...

    def stream_range(self) -> StreamRange | None:
        """Reads back the keys of a failed change-feed batch; None without a stream."""
        ...


def backend_from_settings(settings: Settings) -> Backend:
    """The backend ``settings.backend`` names, with every adapter built from settings."""
    if settings.backend == "aws":
        from engram.backends.aws import AwsBackend

        return AwsBackend.from_settings(settings)
    from engram.backends.embedded import EmbeddedBackend

    return EmbeddedBackend(settings)


def shared_dream_queue(settings: Settings, deliver: DreamDelivery) -> DreamQueue:
    """SQS when a dream queue is configured (its worker Lambda consumes it), else a
    thread of this process that hands each message to ``deliver``."""
    if settings.dream_queue_url:
        import boto3

        from engram.adapters.dream_queue import SqsDreamQueue

        return SqsDreamQueue(boto3.client("sqs", region_name=settings.aws_region), settings.dream_queue_url)
    from engram.adapters.dream_queue import ThreadedDreamQueue

    queue = ThreadedDreamQueue()
    queue.bind(deliver)
    return queue


def shared_search_index(
    settings: Settings, dimension: int, model_id: str | None = None
) -> tuple[SearchIndex, VectorSource | None]:
    """OpenSearch when a domain is configured, else the in-process index; and the
    vectors the index can hand back (the in-process one can, cheaply)."""
    if settings.opensearch_url:
        from engram.adapters.opensearch import OpenSearchIndex

        # The k-NN field's size is fixed when the index is created: it follows the embedder.
        # It records its embedder and is refused to another (``OpenSearchIndex.check_model``).
        return OpenSearchIndex.from_settings(settings, dimension, model_id=model_id), None
    from engram.adapters.local_index import LocalIndex
    from engram.adapters.local_index_vectors import LocalIndexVectors

    index = LocalIndex(settings.index_path)
    return index, LocalIndexVectors(index)
