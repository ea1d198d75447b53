"""The embedded backend: SQLite (WAL) as the source of truth and the in-process index.

Every repository shares one connection factory and write lock (``adapters/sqlite/db.py``);
the entries' outbox feeds the index in this process after each commit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engram.adapters.sqlite import SqliteStore
from engram.backends import DreamDelivery, Repositories, shared_dream_queue, shared_search_index
from engram.ports import (
    BlockRepository,
    ChangeOutbox,
    ConversationRepository,
    CoreMemoryReader,
    DreamQueue,
    DreamStateRepository,
    ProposalRepository,
    SearchIndex,
    UnprocessedMessages,
    UserLister,
    VectorSource,
)
from engram.service.access import AccessRecorder, BackgroundAccessRecorder
from engram.settings import Settings

if TYPE_CHECKING:
    from engram.adapters.idempotency import OwnedSqliteLayer
    from engram.adapters.sqlite.idempotency import SqliteIdempotencyLayer


class EmbeddedBackend:
    def __init__(self, settings: Settings, store: SqliteStore | None = None) -> None:
        self.settings = settings
        self.store: SqliteStore = store if store is not None else SqliteStore(settings.sqlite_path)
        self._index: tuple[SearchIndex, VectorSource | None] | None = None

    @property
    def repositories(self) -> Repositories:
        return Repositories.of(self.store)

    def search_index(self, dimension: int, model_id: str | None = None) -> SearchIndex:
        if self._index is None:
            self._index = shared_search_index(self.settings, dimension, model_id)
        return self._index[0]

    def change_outbox(self) -> ChangeOutbox:
        return self.store

    def core_reader(self) -> CoreMemoryReader:
        from engram.adapters.sqlite.core_reader import SqliteCoreReader

        return SqliteCoreReader(self.store.db, self.store)

    def access_recorder(self) -> AccessRecorder:
        # A long-lived process: access statistics are written in the background, in batches.
        return BackgroundAccessRecorder(self.store)

    def dream_state(self) -> DreamStateRepository:
        from engram.adapters.sqlite.dream_state import SqliteDreamState

        return SqliteDreamState(self.store.db)

    def dream_queue(self, deliver: DreamDelivery) -> DreamQueue:
        return shared_dream_queue(self.settings, deliver)

    def stored_vectors(self) -> VectorSource | None:
        return None if self._index is None else self._index[1]

    def proposal_repository(self) -> ProposalRepository:
        from engram.adapters.sqlite.proposals import SqliteProposalStore

        return SqliteProposalStore(self.store.db)

    def block_repository(self) -> BlockRepository:
        from engram.adapters.sqlite.blocks import SqliteBlockStore

        return SqliteBlockStore(self.store.db)

    def conversation_repository(self) -> ConversationRepository:
        from engram.adapters.sqlite.conversations import SqliteConversations

        return SqliteConversations(self.store.db)

    def extraction_persistence(self) -> SqliteIdempotencyLayer:
        from engram.adapters.sqlite.idempotency import SqliteIdempotencyLayer

        return SqliteIdempotencyLayer(self.store.db)

    def write_idempotency(self) -> OwnedSqliteLayer:
        from engram.adapters.idempotency import OwnedSqliteLayer

        return OwnedSqliteLayer(self.store.db)

    def unprocessed_messages(self) -> UnprocessedMessages:
        from engram.adapters.sqlite.conversations import SqliteConversations

        return SqliteConversations(self.store.db)

    def user_lister(self) -> UserLister:
        from engram.adapters.sqlite.user_lister import SqliteUserLister

        return SqliteUserLister(self.store.db)

    def entry_scanner(self) -> None:
        return None  # the embedded store re-embeds (``engram reembed``); it has no cloud re-index

    def stream_range(self) -> None:
        return None
