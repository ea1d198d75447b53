"""The cloud backfill re-embeds past messages thread by thread within an invocation's time
(review of #19's backfill).

A scan page listed threads and the page's worker embedded every message of each of them
before it looked at the clock again: one long conversation (or a few on one page) could
outlast the function's timeout, and the redelivered message started the same page again,
so the backfill, the cloud's only re-embed after a model change, never got past it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engram.adapters.hashing_embedder import HashingEmbedder
from engram.container import build
from engram.domain.conversation import MessageRole, NewMessage, ThreadKey
from engram.ports import ScanPage
from engram.service.indexing import Indexer
from engram.service.reembed import BATCH, ConversationDocuments
from engram.service.reindex import TIME_MARGIN_SECONDS, ReindexService
from engram.settings import Settings

from tests.support import ManualClock

KEY = ThreadKey("t1", "u1", "agent-a", "s1")
SECONDS_PER_TEXT = 0.1  # what embedding one message costs on the function's clock
TIMEOUT = 60.0  # the function's time per invocation in this test


class Slow(HashingEmbedder):
    """The hashing embedder on a clock that moves as it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.spent = 0.0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.spent += SECONDS_PER_TEXT * len(texts)
        return super().embed(texts)


class Queue:
    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def send(self, bodies: Sequence[Mapping[str, object]]) -> None:
        self.bodies.extend(dict(b) for b in bodies)

    def receive(self, limit: int = 10) -> list[tuple[str, dict[str, object]]]:
        return []

    def delete(self, receipt: str) -> None:
        return None


class OnePage:
    """A segment of one page: the thread."""

    def scan_entries(self, segment: int, segments: int, cursor: str | None, limit: int = 200) -> ScanPage:
        return ScanPage([], None, [KEY])


def test_a_long_thread_is_re_embedded_over_several_invocations_each_within_its_time(tmp_path: Path) -> None:
    engram = build(Settings(data_dir=tmp_path), clock=ManualClock())
    assert engram.conversation is not None
    at = datetime(2024, 1, 1, tzinfo=UTC)
    # Given a conversation of 3,000 messages: 300 s of embedding, five invocations' worth
    said = [NewMessage(f"m{i}", MessageRole.USER, f"turn number {i}", at) for i in range(3000)]
    for start in range(0, len(said), 99):
        engram.conversation.repo.append(KEY, said[start : start + 99], at)
    embedder = Slow()
    work = Queue()
    documents = ConversationDocuments(engram.index, embedder, engram.conversation.repo, None)
    service = ReindexService(
        engram.store,
        OnePage(),
        None,
        Indexer(engram.index, embedder),
        work,
        documents=documents,  # type: ignore[arg-type]
    )
    # When the backfill's messages are handled as the function handles them, each
    # invocation with TIMEOUT seconds
    work.send([{"kind": "scan", "segment": 0, "segments": 1}])
    invocations = 0
    while work.bodies:
        body = work.bodies.pop(0)
        started = embedder.spent
        service.handle(body, lambda started=started: TIMEOUT - (embedder.spent - started))
        invocations += 1
        # Then no invocation outlasts its time (a batch may start inside the margin)
        assert embedder.spent - started <= TIMEOUT - TIME_MARGIN_SECONDS + BATCH * SECONDS_PER_TEXT
        assert invocations < 100
    # And every message is in the index at the end
    ids = engram.index.ids("t1", "u1")
    assert sum(1 for i in ids if i.startswith("msg|")) == 3000
    assert invocations > 2
