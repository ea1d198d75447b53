"""Ports: the Protocols every external system is reached through.

Services depend only on these; adapters (``engram.adapters.*``) implement them for the
embedded store (SQLite + in-process index) and for AWS (DynamoDB, OpenSearch, Bedrock).
Every adapter of a port passes the same contract suite under ``tests/contract``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable

from engram.domain.agent_config import AgentConfig, RecallOrder
from engram.domain.archival import ArchivalRecord
from engram.domain.blocks import BlockVersion, MemoryBlock
from engram.domain.conversation import (
    ExtractionJob,
    ExtractionRecord,
    Message,
    NewMessage,
    Thread,
    ThreadKey,
    ThreadSummary,
)
from engram.domain.dream import DreamMessage, DreamRun, Stats, UserOutcome
from engram.domain.extraction import Extraction
from engram.domain.models import (
    ApiKeyRecord,
    Changeset,
    HistoryRecord,
    MemoryEntry,
    Page,
    Status,
    UserProfile,
    UserSettings,
)
from engram.domain.policies import VisibilityScope
from engram.domain.proposals import Proposal, ProposalStatus

Vector = Sequence[float]


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


@dataclass(frozen=True, slots=True)
class EntryQuery:
    """A filtered, ordered, paginated listing of one user's entries."""

    now: datetime
    scope: VisibilityScope | None = None
    statuses: tuple[Status, ...] = (Status.ACTIVE,)
    category: str | None = None
    key: str | None = None
    include_expired: bool = False
    order: RecallOrder = RecallOrder.MOST_RECENT
    limit: int = 50
    cursor: str | None = None


@dataclass(frozen=True, slots=True)
class IdentityState:
    version: int
    current_entry_id: str | None


class MemoryRepository(Protocol):
    """The source of truth for entries and their history (DynamoDB in the cloud)."""

    def get_entry(self, tenant_id: str, user_id: str, entry_id: str) -> MemoryEntry | None: ...

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]:
        """The entries that exist among ``entry_ids``, in no particular order."""
        ...

    def get_identity(self, tenant_id: str, user_id: str, identity_id: str) -> IdentityState | None: ...

    def list_entries(self, tenant_id: str, user_id: str, query: EntryQuery) -> Page[MemoryEntry]: ...

    def count_live(self, tenant_id: str, user_id: str, now: datetime) -> int:
        """Active, unexpired entries of the user (what the capacity counts)."""
        ...

    def count_visible(self, tenant_id: str, user_id: str, scope: VisibilityScope, now: datetime) -> int | None:
        """Active, unexpired entries ``scope`` sees, when the store keeps counts that tell
        it cheaply (the whole user's: ``count_live``; an agent's: only while no entry's
        validity is bounded, as listings show only what holds now); None: count by listing.
        """
        ...

    def apply(self, changeset: Changeset, now: datetime) -> None:
        """Write the whole changeset atomically or nothing.

        Raises ``VersionConflict`` when a guard's expected version no longer holds and
        ``CapacityReached`` when live entries would exceed ``changeset.max_active``.
        """
        ...

    def history(
        self,
        tenant_id: str,
        user_id: str,
        identity_id: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[HistoryRecord]:
        """Versions of one identity, oldest first."""
        ...

    def history_of_user(self, tenant_id: str, user_id: str) -> list[HistoryRecord]: ...

    def record_access(
        self,
        tenant_id: str,
        user_id: str,
        entry_ids: Sequence[str],
        at: datetime,
        last_accessed: Mapping[str, datetime | None] | None = None,
    ) -> None:
        """Bump access statistics; not a versioned change and never blocks a write.

        ``last_accessed`` is each entry's ``last_accessed_at`` as the caller read it: a
        backend that samples (DynamoDB) still writes the entries whose value is stale.
        """
        ...


class ProfileRepository(Protocol):
    def get_profile(self, tenant_id: str, user_id: str) -> UserProfile | None: ...

    def put_profile(self, profile: UserProfile) -> None: ...

    def get_settings(self, tenant_id: str, user_id: str) -> UserSettings | None: ...

    def put_settings(self, settings: UserSettings) -> None: ...

    def get_profile_and_settings(self, tenant_id: str, user_id: str) -> tuple[UserProfile | None, UserSettings | None]:
        """Both in one read where the backend can (recall needs both on every call)."""
        ...


class ConfigRepository(Protocol):
    def get_agent_config(self, tenant_id: str, agent_id: str) -> AgentConfig | None: ...

    def put_agent_config(self, tenant_id: str, agent_id: str, config: AgentConfig) -> None: ...


class KeyStore(Protocol):
    def put_api_key(self, record: ApiKeyRecord) -> None: ...

    def get_api_key(self, key_id: str) -> ApiKeyRecord | None: ...

    def list_api_keys(self, tenant_id: str | None = None) -> list[ApiKeyRecord]: ...

    def revoke_api_key(self, key_id: str, at: datetime) -> bool: ...


class TurnCounter(Protocol):
    def add_turn_writes(
        self,
        tenant_id: str,
        agent_id: str,
        turn_id: str,
        count: int,
        limit: int,
        expires_at: datetime,
    ) -> int:
        """Atomically add ``count`` writes to a turn; return the new total.

        Raises ``GuardrailViolation('too_many_writes')`` without counting when the total
        would exceed ``limit``.
        """
        ...


class ErasureMarks(Protocol):
    """The erasure tombstone: when a user was last erased (issue #17 item 12)."""

    def mark_erased(self, tenant_id: str, user_id: str, at: datetime) -> None:
        """Record the erasure before anything is deleted; ``apply`` checks it atomically."""
        ...

    def erased_at(self, tenant_id: str, user_id: str) -> datetime | None: ...


class UserDataEraser(Protocol):
    """Every store that holds data about a user implements this for erasure."""

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        """Delete everything of the user; return how many items of each kind went."""
        ...


@runtime_checkable
class ResidueScrubber(Protocol):
    """A store whose deletes can leave copies behind (an embedded database's log)."""

    def scrub_residue(self) -> None:
        """After an erasure, remove every leftover copy of deleted data."""
        ...


class UserErasure(ErasureMarks, UserDataEraser, Protocol):
    """The erasure of a user's core data: the tombstone first, then the rows."""


@runtime_checkable
class Store(
    MemoryRepository,
    ProfileRepository,
    ConfigRepository,
    KeyStore,
    TurnCounter,
    UserErasure,
    Protocol,
):
    """Every repository port of the source of truth, as one backend's adapter implements
    them over one connection or table. Services never take it: the composition root
    hands each one only the repositories it uses (``engram.backends.Repositories``)."""


class DocKind(StrEnum):
    MEMORY = "memory"
    MESSAGE = "message"
    ARCHIVAL = "archival"
    SUMMARY = "summary"  # a thread's rolling summary (Mordecai's session summaries)


@dataclass(frozen=True, slots=True)
class IndexDocument:
    """What the search index holds for one searchable item."""

    id: str
    tenant_id: str
    user_id: str
    kind: DocKind
    text: str
    vector: Vector | None
    model_id: str | None
    visibility: str
    source_agent_id: str
    group_ids: tuple[str, ...] = ()
    category: str | None = None
    key: str | None = None
    thread_id: str | None = None
    importance: int = 50
    confidence: float = 1.0
    updated_at: datetime | None = None
    expires_at: datetime | None = None
    # When what the document records happened: a message's own timestamp (when it was
    # said, not stored), an entry's source time. Questions about a time span use it.
    occurred_at: datetime | None = None
    # Who said it (a message's ``speaker_of``): recall lifts what the person a question
    # names said, and ranks on this before it reads the message.
    speaker: str | None = None


@dataclass(frozen=True, slots=True)
class SearchQuery:
    tenant_id: str
    user_id: str
    now: datetime
    text: str = ""
    vector: Vector | None = None
    scope: VisibilityScope | None = None
    kinds: tuple[DocKind, ...] = (DocKind.MEMORY,)
    categories: tuple[str, ...] | None = None
    thread_ids: tuple[str, ...] | None = None
    exclude_thread_ids: tuple[str, ...] = ()
    k: int = 10
    # The model that made ``vector``: only documents embedded by the same model are
    # compared with it (vectors of two models are meaningless to each other, even at
    # the same dimension). None: whichever model most of the user's documents have.
    model_id: str | None = None
    # Only documents that occurred in [occurred_from, occurred_to) (documents without a
    # time never match a window).
    occurred_from: datetime | None = None
    occurred_to: datetime | None = None


@dataclass(frozen=True, slots=True)
class SearchHit:
    id: str
    kind: DocKind
    # Raw component scores; fusion and ranking happen in the domain, not the index.
    keyword: float = 0.0
    semantic: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)
    # The index's copy of what ranking reads (None where the index does not keep it):
    # recall ranks every candidate on these and reads from the store only the ones it
    # is about to show, instead of every candidate.
    importance: int | None = None
    confidence: float | None = None
    updated_at: datetime | None = None
    # When it occurred (IndexDocument.occurred_at): a past message ranks on it before
    # recall reads the message (None where the index does not return it).
    occurred_at: datetime | None = None
    speaker: str | None = None  # IndexDocument.speaker, where the index returns it


class SearchIndex(Protocol):
    def upsert(self, docs: Sequence[IndexDocument]) -> None: ...

    def delete(self, tenant_id: str, user_id: str, ids: Sequence[str]) -> None: ...

    def search(self, query: SearchQuery) -> list[SearchHit]:
        """Up to ``k`` hits by keyword (BM25) and up to ``k`` by vector, merged by id."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


class CoreMemoryReader(Protocol):
    """Recall's tier 1: a user's most important live entries of one category."""

    def top_by_importance(
        self,
        tenant_id: str,
        user_id: str,
        scope: VisibilityScope,
        category: str,
        now: datetime,
        limit: int,
    ) -> list[MemoryEntry]:
        """Active, unexpired, visible in ``scope``; by importance, then most recent, then id."""
        ...


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    # Cosine above which two extracted facts are the same fact (behaviour item 6).
    @property
    def dedup_threshold(self) -> float: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text."""
        ...


# -- dream (behaviour item 17) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DueUser:
    tenant_id: str
    user_id: str
    due_at: datetime


@dataclass(frozen=True, slots=True)
class DueState:
    """A user's entry in the sparse maintenance index.

    ``activity`` counts committed changesets not made by dream; ``due_at`` None means
    nothing is due (the user is out of the index); ``last_pass_at`` is the time the last
    dream pass evaluated the user at (entries updated after it are fresh).
    """

    due_at: datetime | None
    activity: int
    last_pass_at: datetime | None


class DreamStateRepository(Protocol):
    """Dream's own state: the sparse "maintenance due" index, runs and the cost ledger.

    Every committed changeset not made by dream marks its user due in the same atomic
    write (the store's ``apply``); a dream pass records the user's next due time, or
    removes the user from the index when nothing ever will be due. The planner reads
    only due users, so users with nothing to do are never read.
    """

    def due_users(
        self, as_of: datetime, limit: int, cursor: str | None = None, tenant_id: str | None = None
    ) -> Page[DueUser]:
        """Users due at or before ``as_of`` (of one tenant, or all), in a stable order."""
        ...

    def due_state(self, tenant_id: str, user_id: str) -> DueState | None: ...

    def mark_due(self, tenant_id: str, user_id: str, at: datetime) -> None:
        """Make the user due at ``at`` at the latest (backfills; writes do it in ``apply``)."""
        ...

    def create_run(self, run: DreamRun) -> DreamRun:
        """Store a new run; if one with that id exists, return it unchanged (a retried
        schedule event resumes its run instead of starting another)."""
        ...

    def get_run(self, run_id: str) -> DreamRun | None: ...

    def list_runs(self, tenant_id: str, limit: int = 20, cursor: str | None = None) -> Page[DreamRun]:
        """Runs that covered this tenant (its own and every-tenant runs), newest first."""
        ...

    def record_plan_progress(
        self, run_id: str, expected_cursor: str | None, cursor: str | None, users: int, batches: int, done: bool
    ) -> DreamRun | None:
        """If the planner's stored cursor is still ``expected_cursor``: store ``cursor``,
        add ``users`` and ``batches`` sent, and with ``done`` end planning (the run is then
        running until every planned user is done). None when another planner moved on."""
        ...

    def is_done(self, run_id: str, tenant_id: str, user_id: str) -> bool: ...

    def finish_user(self, run_id: str, outcome: UserOutcome) -> bool:
        """Mark (run, user) done and add its stats to the run's counters (atomically), then
        record its next due time if its activity is still ``seen_activity``. False (and
        nothing written) if the user was already done in this run."""
        ...

    def complete_run(self, run_id: str, at: datetime) -> bool:
        """Mark a running run whose planned users are all done as completed; True only
        for the call that did it."""
        ...

    def run_stats(self, run_id: str, tenant_id: str | None = None) -> Stats:
        """One tenant's counters of a run, or the whole run's."""
        ...

    def reserve_cost(self, run_id: str, tenant_id: str, agent_id: str, micros: int, cap_micros: int) -> bool:
        """Reserve ``micros`` of the agent's budget for this run if committed spend plus
        it stays within ``cap_micros``; False (nothing reserved) otherwise."""
        ...

    def settle_cost(self, run_id: str, tenant_id: str, agent_id: str, reserved: int, actual: int) -> None:
        """Replace a reservation by the actual cost (``actual <= reserved``)."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


class DreamQueue(Protocol):
    """Fan-out of a dream run: batches of users and planner continuations (SQS in the cloud).

    Separate from the extraction ``Queue``, whose messages are extraction jobs."""

    def send(self, messages: Sequence[DreamMessage]) -> None:
        """Accept every message durably or raise; a message may be delivered more than once."""
        ...


class VectorSource(Protocol):
    """Vectors the search index already holds (embedded when each entry was written),
    so dream's duplicate merging need not embed a user's entries again."""

    def stored_vectors(
        self, tenant_id: str, user_id: str, entry_ids: Sequence[str], model_id: str
    ) -> Mapping[str, Vector]:
        """The stored vectors of those entries made by ``model_id``; missing ones are absent."""
        ...


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    facts: tuple[str, ...]
    category: str
    max_chars: int


@dataclass(frozen=True, slots=True)
class SummaryResult:
    text: str
    cost_micros: int
    # Indexes of ``request.facts`` the summary accounts for; None: all of them (a model's
    # summary). Only the entries it covers are superseded by it; the rest stay as they are.
    covered: tuple[int, ...] | None = None


class Summarizer(Protocol):
    """Compresses a group of facts into one short summary: an LLM (Bedrock), or the
    facts themselves, chosen and deduplicated (``ExtractiveSummarizer``, no model)."""

    def max_cost_micros(self, request: SummaryRequest) -> int:
        """An upper bound of what ``summarize(request)`` can cost, in micro-dollars."""
        ...

    def summarize(self, request: SummaryRequest) -> SummaryResult: ...


# -- conversations and extraction (behaviour items 13 and 14) ---------------------------


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


@dataclass(frozen=True, slots=True)
class ProposalQuery:
    """A listing of one user's proposals, newest first. ``statuses`` are effective ones:
    a stored pending proposal past its expiry counts as expired."""

    now: datetime
    statuses: tuple[ProposalStatus, ...] | None = None
    agent_id: str | None = None
    target_id: str | None = None
    limit: int = 50
    cursor: str | None = None


class ProposalRepository(Protocol):
    """Pending and decided proposals (behaviour item 11)."""

    def create_proposal(self, proposal: Proposal, now: datetime) -> list[str]:
        """Store a new proposal and, atomically with it, mark superseded by it every
        unexpired pending proposal of the same user for the same target; return their ids."""
        ...

    def get_proposal(self, tenant_id: str, user_id: str, proposal_id: str) -> Proposal | None: ...

    def list_proposals(self, tenant_id: str, user_id: str, query: ProposalQuery) -> Page[Proposal]: ...

    def update_proposal(self, proposal: Proposal, expected_revision: int) -> bool:
        """Replace the stored proposal if its revision is still ``expected_revision``
        (``proposal.revision`` must be the next one); False when another change won."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


class BlockRepository(Protocol):
    """Memory blocks, their versions, and the archival memory they rotate into."""

    def get_block(self, tenant_id: str, user_id: str, agent_id: str, name: str) -> MemoryBlock | None: ...

    def list_blocks(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[MemoryBlock]:
        """The user's blocks (deleted ones too), of one agent or of all; by agent then name."""
        ...

    def commit_block(
        self, version: BlockVersion, expected_version: int | None, archival: Sequence[ArchivalRecord] = ()
    ) -> None:
        """Atomically make ``version.block`` current, append it to the history and store
        ``archival``, or nothing. ``expected_version`` None: the block must not exist yet.
        Raises ``VersionConflict`` when the stored version differs."""
        ...

    def block_history(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str,
        name: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[BlockVersion]:
        """Versions of one block, oldest first."""
        ...

    def block_version(
        self, tenant_id: str, user_id: str, agent_id: str, name: str, version: int
    ) -> BlockVersion | None: ...

    def get_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> list[ArchivalRecord]: ...

    def list_archival(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[ArchivalRecord]:
        """Newest first."""
        ...

    def unindexed_archival(self, tenant_id: str, user_id: str, limit: int = 100) -> list[ArchivalRecord]:
        """Archival records committed but not yet confirmed in the search index."""
        ...

    def mark_archival_indexed(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> None: ...

    def delete_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> int: ...

    def block_history_of_user(self, tenant_id: str, user_id: str) -> list[BlockVersion]:
        """Every version of every block of the user (export)."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


# -- the change feed the search index follows ---------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryChange:
    """One entry as the store now holds it, or its id if the store no longer does.

    ``previous`` is the entry as it was before this change, when the change feed says
    (the DynamoDB stream's old image); None when it does not, or the entry is new.
    """

    tenant_id: str
    user_id: str
    entry_id: str
    entry: MemoryEntry | None
    previous: MemoryEntry | None = None


class ChangeOutbox(Protocol):
    """A store that records changed entry ids in the same transaction as the change."""

    def pending_changes(self, limit: int = 500) -> list[tuple[int, str, str, str]]: ...

    def ack_changes(self, up_to_seq: int) -> None: ...

    def pending_count(self, tenant_id: str, user_id: str) -> int | None:
        """How many of this user's changes wait for the index; None when it cannot tell."""
        ...

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]: ...

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every commit (so changes are indexed at once)."""
        ...


# -- re-indexing and re-embedding -----------------------------------------------------------


class EntryScanner(Protocol):
    """Every entry the store holds (any status), one segment of a parallel scan at a time."""

    def scan_entries(self, segment: int, segments: int, cursor: str | None, limit: int = 200) -> Page[MemoryEntry]:
        """One page of the segment; ``next_cursor`` is None at its end."""
        ...


class StreamRange(Protocol):
    """The entry keys a failed change-feed batch carried, read back from the feed."""

    def entry_keys(self, batch: Mapping[str, object]) -> list[tuple[str, str, str]]:
        """(tenant, user, entry id) of each entry change in the batch's range."""
        ...


class EntryReader(Protocol):
    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]: ...


class Messages(Protocol):
    """A work queue of JSON bodies: sent, received with a receipt, deleted once done."""

    def send(self, bodies: Sequence[Mapping[str, object]]) -> None: ...

    def receive(self, limit: int = 10) -> list[tuple[str, dict[str, object]]]: ...

    def delete(self, receipt: str) -> None: ...


class UserLister(Protocol):
    """Which (tenant, user) pairs hold entries; a store that can re-embed provides it."""

    def list_users(
        self, tenant_id: str | None = None, limit: int = 500, cursor: str | None = None
    ) -> Page[tuple[str, str]]: ...
