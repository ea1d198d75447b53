"""Conversations and extraction (behaviour items 13 and 14): threads and messages, the
extraction queue and the fact extractor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from engram.domain.conversation import (
    ExtractionJob,
    ExtractionRecord,
    Message,
    NewMessage,
    Thread,
    ThreadKey,
    ThreadSummary,
)
from engram.domain.extraction import Extraction


@dataclass(frozen=True, slots=True)
class AppendOutcome:
    thread: Thread  # as it stands after the append
    messages: list[Message]  # the stored message for each one sent, in the order sent
    created: tuple[str, ...]  # ids stored now; the others were already there (a replay)


class ConversationRepository(Protocol):
    """Threads of messages per user and their rolling summaries.

    A thread is named by its ``ThreadKey``: tenant, user, the agent whose thread it is,
    and the client's thread id. Each agent has its own thread ids, so another agent's
    thread is never reachable, and never told apart from a free id, by its id alone.
    """

    def append(
        self,
        key: ThreadKey,
        messages: Sequence[NewMessage],
        now: datetime,
        origin: datetime | None = None,
    ) -> AppendOutcome:
        """Store the messages in order, atomically, numbering them after the thread's last.

        A message id the thread already holds is left exactly as stored (appending is
        idempotent on (thread key, message id)). The thread is created if it is new.
        With an ``origin`` (when the request reached Engram), raises ``UserErased`` and
        stores nothing if the user was erased at or after it, checked in the append's
        own transaction, as memory writes are.
        """
        ...

    def get_thread(self, key: ThreadKey) -> Thread | None: ...

    def list_threads(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[Thread]:
        """The user's threads (of one agent, or all), most recently updated first."""
        ...

    def get_message(self, key: ThreadKey, message_id: str) -> Message | None: ...

    def get_messages(self, tenant_id: str, user_id: str, keys: Sequence[tuple[str, str, str]]) -> list[Message]:
        """The messages that exist among ``(agent id, thread id, message id)`` triples, in no order."""
        ...

    def recent(self, key: ThreadKey, from_seq: int, limit: int, before_seq: int | None = None) -> list[Message]:
        """Up to ``limit`` messages with ``from_seq <= seq < before_seq``, newest first."""
        ...

    def list_messages(self, key: ThreadKey, after_seq: int = 0, limit: int = 500) -> list[Message]:
        """Up to ``limit`` messages with ``seq > after_seq``, oldest first."""
        ...

    def user_messages(self, tenant_id: str, user_id: str) -> list[Message]:
        """Every message of the user's threads, by thread then sequence, whatever key form
        a store wrote them under (export and erasure: nothing may be missed)."""
        ...

    def mark_extracted(self, key: ThreadKey, message_id: str, record: ExtractionRecord) -> None: ...

    def clear_window(self, key: ThreadKey, expected_window_start: int, new_window_start: int, now: datetime) -> bool:
        """Move the window start if it is still ``expected_window_start``; False otherwise."""
        ...

    def get_summary(self, key: ThreadKey) -> ThreadSummary | None: ...

    def put_summary(self, summary: ThreadSummary, expected_version: int | None) -> bool:
        """Store ``summary`` if the stored one is still at ``expected_version`` (None: no
        summary yet); False when another writer got there first."""
        ...

    def list_summaries(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[ThreadSummary]: ...

    def delete_thread(self, key: ThreadKey) -> dict[str, int]: ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


class UnprocessedMessages(Protocol):
    """Messages stored but never processed: a local worker's crash recovery (a cloud
    queue redelivers by itself)."""

    def pending_jobs(self, limit: int = 1000) -> list[ExtractionJob]: ...


class Queue(Protocol):
    """Where ingested messages wait for indexing and extraction (SQS in the cloud)."""

    def send(self, jobs: Sequence[ExtractionJob]) -> None:
        """Accept every job durably or raise; a job may be delivered more than once."""
        ...


class FactExtractor(Protocol):
    """Turns one user message into facts, identity and counts of what it dropped."""

    @property
    def name(self) -> str: ...

    def extract(self, text: str, timestamp: datetime) -> Extraction:
        """``timestamp`` is when the message was said: relative times resolve against it."""
        ...

    def max_cost_usd(self, text: str) -> float:
        """An upper bound of what ``extract(text, ...)`` can cost (0 for no model call)."""
        ...
