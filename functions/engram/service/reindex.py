"""The cloud re-index: rebuild the search index from the table, and replay the batches
the stream indexer gave up on.

- Backfill: ``start(segments)`` queues one message per segment of a parallel Scan; a
  worker indexes its segment page by page through the same ``Indexer`` the stream uses
  (active entries written, any other state removed), and each thread's messages and
  summary and each archival record on the page through the writers their features use
  (``reembed.ConversationDocuments``), all with the embedder now configured: after a
  model change the backfill is the cloud's re-embed. Each thread is a work message of
  its own (a thread can hold more messages than one invocation can embed). When an
  invocation runs short of time it queues the rest of its segment (a cursor), or of its
  thread (a sequence number), and returns. Idempotent: running it
  again, or twice at once, leaves the index as the table says.
- Replay: ``replay_failures()`` moves each on-failure record of the indexer's failure
  queue (a shard and a range of sequence numbers) onto the work queue; a worker reads
  the range's keys back from the stream and indexes those entries as the table holds
  them now, so a replay never writes a stale state.
- Erasure wins: an erasure can land between a worker's read of the table and its write
  to the index, and the erasure's own index delete may then run before that write. So
  each batch is judged against the users' erasure tombstones before it is indexed (an
  entry last written at or before its user's erasure is removed, never written) and
  again after (what was written for a user erased meanwhile is taken back). Entries
  written after an erasure are a new life of the user and are indexed.

Driven by ``engram reindex`` (which invokes the function) or an EventBridge rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools import Logger

from engram.domain.conversation import ThreadKey
from engram.domain.errors import ValidationFailed
from engram.ports import EntryChange, EntryReader, EntryScanner, ErasureMarks, Messages, StreamRange
from engram.service.indexing import Indexer, IndexReport, apply_unless_erased
from engram.service.reembed import ConversationDocuments

logger = Logger(service="engram", child=True)

# Hand the rest of a segment on when less than this is left of the invocation.
TIME_MARGIN_SECONDS = 20.0
MAX_SEGMENTS = 1000


@dataclass
class ReindexResult:
    entries: int = 0
    upserted: int = 0
    removed: int = 0
    skipped: int = 0
    erased: int = 0  # entries of erased users kept out of the index (or taken back)
    continued: bool = False
    # Written besides entries: past messages, thread summaries, archival records.
    messages: int = 0
    summaries: int = 0
    archival: int = 0

    def add(self, report: IndexReport, entries: int) -> None:
        self.entries += entries
        self.upserted += report.upserted
        self.removed += report.removed
        self.skipped += report.skipped


class ReindexService:
    def __init__(
        self,
        store: EntryReader,
        scanner: EntryScanner,
        stream: StreamRange,
        indexer: Indexer,
        work: Messages,
        failures: Messages | None = None,
        erasures: ErasureMarks | None = None,
        documents: ConversationDocuments | None = None,
    ) -> None:
        self._erasures = erasures
        self._documents = documents
        self._store = store
        self._scanner = scanner
        self._stream = stream
        self._indexer = indexer
        self._work = work
        self._failures = failures

    def start(self, segments: int = 4) -> int:
        """Queue a backfill of the whole table in ``segments`` parallel parts."""
        if not 1 <= segments <= MAX_SEGMENTS:
            raise ValidationFailed(f"segments must be 1-{MAX_SEGMENTS}.", field="segments")
        self._work.send([{"kind": "scan", "segment": i, "segments": segments} for i in range(segments)])
        logger.info("reindex started", extra={"segments": segments})
        return segments

    def replay_failures(self, limit: int = 1000) -> int:
        """Move the indexer's failed batches onto the work queue; how many were moved."""
        if self._failures is None:
            raise ValidationFailed("No failure queue is configured (ENGRAM_INDEXER_FAILURES_QUEUE_URL).")
        moved = 0
        while moved < limit:
            received = self._failures.receive(10)
            if not received:
                break
            for receipt, body in received:
                batch = body.get("DDBStreamBatchInfo")
                if isinstance(batch, dict):
                    self._work.send([{"kind": "replay", "batch": batch}])
                    moved += 1
                else:
                    logger.warning("not a stream on-failure record; dropped", extra={"keys": sorted(body)})
                self._failures.delete(receipt)
        logger.info("indexer failures queued for replay", extra={"batches": moved})
        return moved

    def handle(self, message: Mapping[str, Any], time_left: Callable[[], float] | None = None) -> ReindexResult:
        kind = message.get("kind")
        if kind == "scan":
            return self.scan(int(message["segment"]), int(message["segments"]), message.get("cursor"), time_left)
        if kind == "replay":
            return self.replay(message["batch"])
        if kind == "thread":
            key = ThreadKey(str(message["tenant"]), str(message["user"]), str(message["agent"]), str(message["thread"]))
            return self.thread(key, int(message.get("after", 0)), time_left)
        raise ValidationFailed("Not a re-index message.", kind=str(kind))

    def scan(
        self, segment: int, segments: int, cursor: str | None = None, time_left: Callable[[], float] | None = None
    ) -> ReindexResult:
        result = ReindexResult()
        while True:
            page = self._scanner.scan_entries(segment, segments, cursor)
            changes = [EntryChange(e.tenant_id, e.user_id, e.id, e) for e in page.items]
            self._apply(changes, result)
            if self._documents is not None:
                # Each thread is work of its own (``thread``): one can hold thousands of
                # messages to embed, more than an invocation has time for.
                self._work.send([_thread_work(key, 0) for key in page.threads])
                result.archival += self._documents.archival(page.archival)
            cursor = page.next_cursor
            if cursor is None:
                return result
            if time_left is not None and time_left() < TIME_MARGIN_SECONDS:
                self._work.send([{"kind": "scan", "segment": segment, "segments": segments, "cursor": cursor}])
                result.continued = True
                return result

    def thread(self, key: ThreadKey, after: int = 0, time_left: Callable[[], float] | None = None) -> ReindexResult:
        """One thread's messages after sequence ``after``, and its summary; when the
        invocation runs short of time, the rest is queued (from where it stopped)."""
        result = ReindexResult()
        if self._documents is None:
            return result
        done, rest = self._documents.thread_from(
            key, after, None if time_left is None else lambda: time_left() < TIME_MARGIN_SECONDS
        )
        result.messages, result.summaries = done.messages, done.summaries
        if rest is not None:
            self._work.send([_thread_work(key, rest)])
            result.continued = True
        return result

    def replay(self, batch: Mapping[str, Any]) -> ReindexResult:
        result = ReindexResult()
        by_owner: dict[tuple[str, str], list[str]] = {}
        for tenant_id, user_id, entry_id in self._stream.entry_keys(batch):
            by_owner.setdefault((tenant_id, user_id), []).append(entry_id)
        for (tenant_id, user_id), ids in by_owner.items():
            unique = list(dict.fromkeys(ids))
            found = {e.id: e for e in self._store.get_entries(tenant_id, user_id, unique)}
            changes = [EntryChange(tenant_id, user_id, i, found.get(i)) for i in unique]
            self._apply(changes, result)
        return result

    def _apply(self, changes: Sequence[EntryChange], result: ReindexResult) -> None:
        report, erased = apply_unless_erased(self._indexer, self._erasures, changes)
        result.add(report, len(changes))
        result.erased += erased


def _thread_work(key: ThreadKey, after: int) -> dict[str, Any]:
    return {
        "kind": "thread",
        "tenant": key.tenant_id,
        "user": key.user_id,
        "agent": key.agent_id,
        "thread": key.thread_id,
        "after": after,
    }
