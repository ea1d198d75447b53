"""Request and response bodies of the REST API (the OpenAPI document comes from these)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

from engram.domain.models import HistoryRecord, MemoryEntry, Page, UserProfile, UserSettings
from engram.domain.ranking import ScoreParts as DomainScoreParts
from engram.domain.serialization import (
    history_to_dict,
    profile_to_dict,
    settings_to_dict,
)
from engram.domain.timebounds import bounded

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:@\-]{0,127}$"
Identifier = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
Category = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_\-]{0,63}$")]
# Versions count changes from 1. The bound is the largest integer every JSON client reads
# exactly; it also keeps a version inside SQLite's and DynamoDB's integers, where 2**63
# would otherwise fail in the store (a 500) instead of at the edge (a 422).
MAX_VERSION = 2**53 - 1
VersionNumber = Annotated[int, Field(ge=1, le=MAX_VERSION)]
ExpectedVersion = Annotated[int, Field(ge=0, le=MAX_VERSION)]


# An input time: with a UTC offset, and within the range every store round-trips.
Timestamp = Annotated[AwareDatetime, AfterValidator(bounded)]


class ApiModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class ErrorBody(ApiModel):
    code: str = Field(description="Stable, machine-readable error code.")
    message: str = Field(description="What went wrong and what to do about it.")
    details: dict[str, Any] = Field(default_factory=dict)


class UpsertRequest(ApiModel):
    key: Annotated[str, StringConstraints(min_length=1, max_length=1024)]
    value: Annotated[str, StringConstraints(min_length=1, max_length=100_000)]
    category: Category = "fact"
    visibility: Literal["self", "group", "global"] = "self"
    statement: Annotated[str, StringConstraints(max_length=4000)] | None = None
    group_ids: list[Identifier] | None = Field(None, max_length=50)
    importance: int | None = Field(None, ge=0, le=100)
    confidence: float | None = Field(None, ge=0, le=1)
    source_conversation_id: Identifier | None = None
    source_message_id: Identifier | None = None
    source_time: Timestamp | None = Field(
        None,
        description="When the fact was observed at its source; an older one never overrides a newer.",
    )
    valid_from: Timestamp | None = None
    valid_to: Timestamp | None = None


class BatchUpsertRequest(ApiModel):
    entries: list[UpsertRequest] = Field(min_length=1, max_length=100)


class Entry(ApiModel):
    id: str
    user_id: str
    key: str
    value: str
    statement: str | None = None
    category: str
    visibility: Literal["self", "group", "global"]
    source_agent_id: str
    group_ids: list[str]
    source_conversation_id: str | None = None
    source_message_id: str | None = None
    importance: int
    confidence: float
    status: Literal["active", "superseded", "deleted"]
    supersedes: str | None = None
    superseded_by: str | None = None
    conflicted: bool
    access_count: int
    last_accessed_at: datetime | None = None
    last_reinforced_at: datetime | None = None
    last_decayed_at: datetime | None = None
    expires_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    source_time: datetime | None = None
    created_at: datetime
    updated_at: datetime
    version: int

    @classmethod
    def of(cls, e: MemoryEntry) -> Entry:
        # Field by field, times as they are (in UTC, as the stored form has them): going
        # through entry_to_dict formatted every time as text for pydantic to parse back,
        # a good part of what a recall answer cost to build.
        return cls(
            id=e.id,
            user_id=e.user_id,
            key=e.key,
            value=e.value,
            statement=e.statement,
            category=e.category,
            visibility=e.visibility.value,
            source_agent_id=e.source_agent_id,
            group_ids=list(e.group_ids),
            source_conversation_id=e.source_conversation_id,
            source_message_id=e.source_message_id,
            importance=e.importance,
            confidence=e.confidence,
            status=e.status.value,
            supersedes=e.supersedes,
            superseded_by=e.superseded_by,
            conflicted=e.conflicted,
            access_count=e.access_count,
            last_accessed_at=_utc(e.last_accessed_at),
            last_reinforced_at=_utc(e.last_reinforced_at),
            last_decayed_at=_utc(e.last_decayed_at),
            expires_at=_utc(e.expires_at),
            valid_from=_utc(e.valid_from),
            valid_to=_utc(e.valid_to),
            source_time=_utc(e.source_time),
            created_at=e.created_at.astimezone(UTC),
            updated_at=e.updated_at.astimezone(UTC),
            version=e.version,
        )


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


class SemanticMatchView(ApiModel):
    """Why the write went to an entry under another key (the agent's semanticDedup)."""

    kind: Literal["duplicate", "contradiction"] = Field(
        description="duplicate: the fact restates the entry (reinforced); contradiction: the same subject "
        "with another value (the entry was superseded)."
    )
    similarity: float = Field(description="Cosine similarity under the deployed embedder.")
    requested_key: str = Field(description="The key the write named.")


class WriteOutcome(ApiModel):
    outcome: Literal["created", "updated", "reinforced", "superseded", "stale", "restored", "proposed", "unchanged"] = (
        Field(
            description="unchanged: this observation (user, key, sourceMessageId, value) was applied before, from "
            "another thread, path or retry; nothing was written."
        )
    )
    entry: Entry | None = Field(description="The entry as written; null when the write became a proposal.")
    previous_id: str | None = None
    evicted_ids: list[str] = Field(default_factory=list)
    matched: SemanticMatchView | None = Field(
        None, description="Set when the write restated or contradicted an entry under another key."
    )
    proposal: ProposalView | None = Field(
        None, description="When the agent needs the user's approval: the pending proposal (HTTP 202)."
    )
    searchable: bool | None = Field(
        None,
        description="Whether search finds the write as this answer leaves: true once indexed, false while "
        "it waits for the index, null when the server cannot tell (in the cloud the index follows a stream).",
    )


class BatchWriteOutcome(ApiModel):
    results: list[WriteOutcome]


class EntryPage(ApiModel):
    items: list[Entry]
    next_cursor: str | None = None

    @classmethod
    def of(cls, page: Page[MemoryEntry]) -> EntryPage:
        return cls(items=[Entry.of(e) for e in page.items], next_cursor=page.next_cursor)


class ScoreParts(ApiModel):
    """The parts of the one hybrid score every search and recall reports (docs/recall.md)."""

    semantic: float = Field(description="Cosine similarity to the query, 0..1.")
    keyword: float = Field(description="BM25 as a share of the best match (or a floor), 0..1.")
    importance: float
    recency: float
    confidence: float
    time: float = Field(0.0, description="1 when it falls in the time span the query names, fading outside.")
    speaker: float = Field(0.0, description="1 when it is a past message said by a person the query names.")
    context: float = Field(
        0.0, description="What the same speaker's turns said just around it added to total (recall, MiniLM)."
    )
    relevance: float = Field(
        description="The query part: semantic and keyword fused (0..1), lifted by time and speaker (then above 1)."
    )
    prior: float = Field(description="Importance, recency and confidence mixed.")
    total: float

    @classmethod
    def of(cls, p: DomainScoreParts) -> ScoreParts:
        return cls(
            semantic=p.semantic,
            keyword=p.keyword,
            importance=p.importance,
            recency=p.recency,
            confidence=p.confidence,
            time=p.time,
            speaker=p.speaker,
            context=p.context,
            relevance=p.relevance,
            prior=p.prior,
            total=p.total,
        )


class ScoredEntry(ApiModel):
    entry: Entry
    score: float = Field(description="The hybrid score (parts.total).")
    keyword: float = Field(description="The raw BM25 score.")
    semantic: float = Field(description="The raw cosine similarity.")
    parts: ScoreParts | None = None
    matched_by: list[str] = Field(default_factory=list, description="bm25, vector, time: how it matched.")
    why: str = Field("", description="Why it matched, in words.")


class SearchResponse(ApiModel):
    query: str
    min_score: float = Field(description="The least hybrid score a hit needed.")
    items: list[ScoredEntry]
    index_behind: int | None = Field(
        None,
        description="This user's changes not yet searchable when the search ran: 0 means the index was "
        "caught up; null when the server cannot tell (in the cloud the index follows a stream).",
    )


class CountResponse(ApiModel):
    count: int


class DeletedResponse(ApiModel):
    deleted: list[str]


class Actor(ApiModel):
    type: Literal["agent", "user", "system"]
    id: str


class Version(ApiModel):
    version: int
    change: str
    actor: Actor
    reason: str
    at: datetime
    entry: Entry

    @classmethod
    def of(cls, h: HistoryRecord) -> Version:
        d = history_to_dict(h)
        return cls(
            version=d["version"],
            change=d["change"],
            actor=Actor.model_validate(d["actor"]),
            reason=d["reason"],
            at=h.at,
            entry=Entry.of(h.entry),
        )


class HistoryPage(ApiModel):
    items: list[Version]
    next_cursor: str | None = None


class RestoreRequest(ApiModel):
    version: VersionNumber


class Profile(ApiModel):
    user_id: str
    name: str | None = None
    nickname: str | None = None
    pronouns: str | None = None
    agent_names: dict[str, str] = Field(default_factory=dict)
    updated_at: datetime | None = None

    @classmethod
    def of(cls, p: UserProfile) -> Profile:
        d = profile_to_dict(p)
        d.pop("tenantId")
        return cls.model_validate(d)


Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class ProfileUpdate(ApiModel):
    name: Name | None = None
    nickname: Name | None = None
    pronouns: Annotated[str, StringConstraints(min_length=1, max_length=50)] | None = None


class AgentNameUpdate(ApiModel):
    name: Name


class Settings(ApiModel):
    user_id: str
    memory_enabled: bool
    allowed_categories: list[str] | None = None
    retention_days: int | None = None
    updated_at: datetime | None = None

    @classmethod
    def of(cls, s: UserSettings) -> Settings:
        d = settings_to_dict(s)
        d.pop("tenantId")
        return cls.model_validate(d)


class SettingsUpdate(ApiModel):
    memory_enabled: bool | None = None
    allowed_categories: list[Category] | None = Field(None, max_length=50)
    retention_days: int | None = Field(None, ge=1, le=36500)


class PropertiesMerge(ApiModel):
    properties: dict[
        Annotated[str, StringConstraints(min_length=1, max_length=1024)],
        Annotated[str, StringConstraints(min_length=1, max_length=100_000)],
    ] = Field(max_length=100)


class Properties(ApiModel):
    properties: dict[str, str]


class ErasureReceipt(ApiModel):
    tenant_id: str
    user_id: str
    erased_at: datetime
    counts: dict[str, int]


class Principal(ApiModel):
    tenant_id: str
    agent_id: str
    roles: list[str]
    group_ids: list[str]
    key_id: str | None = None


class Health(ApiModel):
    status: Literal["ok"]
    version: str


# -- proposals (behaviour item 11) -------------------------------------------------------------

FieldValue = (
    Annotated[str, StringConstraints(max_length=20_000)] | list[Annotated[str, StringConstraints(max_length=20_000)]]
)


class EntryChange(ApiModel):
    """Remember (or change) one memory, as PUT /memories would."""

    type: Literal["entry"]
    key: Annotated[str, StringConstraints(min_length=1, max_length=1024)]
    value: Annotated[str, StringConstraints(min_length=1, max_length=100_000)]
    category: Category = "fact"
    visibility: Literal["self", "group", "global"] = "self"
    statement: Annotated[str, StringConstraints(max_length=4000)] | None = None
    group_ids: list[Identifier] | None = Field(None, max_length=50)
    importance: int | None = Field(None, ge=0, le=100)
    confidence: float | None = Field(None, ge=0, le=1)
    source_conversation_id: Identifier | None = None
    source_message_id: Identifier | None = None
    source_time: Timestamp | None = None
    valid_from: Timestamp | None = None
    valid_to: Timestamp | None = None


class ForgetChange(ApiModel):
    """Forget one memory the agent can see."""

    type: Literal["forget"]
    entry_id: Annotated[str, StringConstraints(pattern=r"^mem_[0-9a-f]{24}$")]
    key: str | None = Field(None, description="Filled in by Engram.")
    category: str | None = Field(None, description="Filled in by Engram.")


class BlockChange(ApiModel):
    """Change one of the agent's memory blocks."""

    type: Literal["block"]
    block: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_\-]{0,39}$")]
    replace: dict[str, FieldValue | None] | None = Field(None, description="The whole block, field by field.")
    set: dict[str, FieldValue | None] = Field(default_factory=dict, description="Fields to set; null clears one.")
    append: dict[str, list[Annotated[str, StringConstraints(max_length=20_000)]]] = Field(default_factory=dict)
    remove: dict[str, list[Annotated[str, StringConstraints(max_length=20_000)]]] = Field(default_factory=dict)
    complete_task: bool = Field(False, description="Archive the current task with its context first.")
    task_notes: Annotated[str, StringConstraints(max_length=4000)] | None = None
    keep_context: bool = False


ProposedChange = Annotated[EntryChange | ForgetChange | BlockChange, Field(discriminator="type")]


class ProposalView(ApiModel):
    id: str
    user_id: str
    agent_id: str = Field(description="The agent that proposed.")
    target_id: str = Field(description="The memory identity or block the proposal is about.")
    status: Literal["pending", "applying", "approved", "rejected", "superseded", "expired"]
    change: ProposedChange
    reason: str
    before: dict[str, Any] | None = Field(None, description="The target when proposed (null: did not exist).")
    after: dict[str, Any] | None = Field(None, description="The target as approval would leave it.")
    created_at: datetime
    expires_at: datetime
    decided_at: datetime | None = None
    decided_by: Actor | None = None
    note: str | None = None
    superseded_by: str | None = None
    result: dict[str, Any] = Field(default_factory=dict)
