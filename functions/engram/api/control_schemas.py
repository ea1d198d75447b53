"""Request and response bodies of the user-control routes: proposals, memory blocks,
archival memory and the privacy controls (the proposal view itself is in ``schemas``,
since memory writes answer with it too)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from engram.api.schemas import (
    Actor,
    ApiModel,
    BlockChange,
    Category,
    Entry,
    EntryChange,
    ExpectedVersion,
    FieldValue,
    ForgetChange,
    ProposalView,
    ProposedChange,
    ScoreParts,
    VersionNumber,
)
from engram.domain.archival import ArchivalRecord
from engram.domain.block_format import to_compact
from engram.domain.block_schema import BlockSchema, RotationStrategy
from engram.domain.blocks import BlockEdit, BlockVersion, MemoryBlock, values_to_plain
from engram.domain.models import Visibility
from engram.domain.proposals import BlockChange as DomainBlockChange
from engram.domain.proposals import EntryRemoval, EntryUpsert, Proposal, change_to_dict
from engram.domain.proposals import ProposedChange as DomainChange
from engram.domain.rotation import threshold_of

Item = Annotated[str, StringConstraints(max_length=20_000)]
Reason = Annotated[str, StringConstraints(max_length=1000)]

# -- proposals ---------------------------------------------------------------------------------


def proposal_view(p: Proposal, now: datetime) -> ProposalView:
    return ProposalView.model_validate(
        {
            "id": p.id,
            "userId": p.user_id,
            "agentId": p.agent_id,
            "targetId": p.target_id,
            "status": p.effective_status(now).value,
            "change": change_to_dict(p.change),
            "reason": p.reason,
            "before": p.before,
            "after": p.after,
            "createdAt": p.created_at,
            "expiresAt": p.expires_at,
            "decidedAt": p.decided_at,
            "decidedBy": None if p.decided_by is None else p.decided_by.as_dict(),
            "note": p.note,
            "supersededBy": p.superseded_by,
            "result": dict(p.result),
        }
    )


class ProposalCreate(ApiModel):
    change: ProposedChange
    reason: Reason = ""


class ProposalPage(ApiModel):
    items: list[ProposalView]
    next_cursor: str | None = None


class DecisionRequest(ApiModel):
    note: Annotated[str, StringConstraints(max_length=1000)] | None = None


def block_edit(change: BlockChange | BlockEditRequest) -> BlockEdit:
    return BlockEdit(
        replace=getattr(change, "replace", None),
        set=dict(change.set),
        append={k: tuple(v) for k, v in change.append.items()},
        remove={k: tuple(v) for k, v in change.remove.items()},
        complete_task=change.complete_task,
        task_notes=change.task_notes,
        keep_context=change.keep_context,
    )


def domain_change(change: EntryChange | ForgetChange | BlockChange) -> DomainChange:
    if isinstance(change, EntryChange):
        return EntryUpsert(
            key=change.key,
            value=change.value,
            category=change.category,
            visibility=Visibility(change.visibility),
            statement=change.statement,
            group_ids=tuple(change.group_ids or ()),
            importance=change.importance,
            confidence=change.confidence,
            source_conversation_id=change.source_conversation_id,
            source_message_id=change.source_message_id,
            source_time=change.source_time,
            valid_from=change.valid_from,
            valid_to=change.valid_to,
        )
    if isinstance(change, ForgetChange):
        return EntryRemoval(change.entry_id, change.key or "", change.category or "")
    return DomainBlockChange(change.block, block_edit(change))


# -- memory blocks -------------------------------------------------------------------------------


class BlockView(ApiModel):
    name: str
    user_id: str
    agent_id: str
    version: int
    values: dict[str, str | list[str]]
    compact: str = Field(description="The block as it goes into a prompt.")
    chars: int = Field(description="Length of the compact form.")
    max_chars: int
    usage: float = Field(description="chars / maxChars.")
    rotation: Literal["aggressive", "preservative", "adaptive"]
    rotation_threshold: float = Field(description="Usage at which the block rotates into archival memory.")
    created_at: datetime
    updated_at: datetime
    updated_by: Actor

    @classmethod
    def of(cls, b: MemoryBlock, schema: BlockSchema, rotation: str) -> BlockView:
        compact = to_compact(schema, b.values)
        strategy = RotationStrategy(rotation)
        return cls(
            name=b.name,
            user_id=b.user_id,
            agent_id=b.agent_id,
            version=b.version,
            values=values_to_plain(b.values),
            compact=compact,
            chars=len(compact),
            max_chars=schema.max_chars,
            usage=round(len(compact) / schema.max_chars, 4),
            rotation=strategy.value,
            rotation_threshold=threshold_of(strategy, b.threshold),
            created_at=b.created_at,
            updated_at=b.updated_at,
            updated_by=Actor.model_validate(b.updated_by.as_dict()),
        )


class BlockList(ApiModel):
    items: list[BlockView]


class SchemaList(ApiModel):
    items: list[BlockSchema]


class PresetList(ApiModel):
    presets: dict[str, dict[str, str | list[str]]]


class BlockWrite(ApiModel):
    """The whole block, in exactly one form: values, Markdown, TOML, or a preset."""

    values: dict[str, FieldValue | None] | None = None
    markdown: Annotated[str, StringConstraints(max_length=200_000)] | None = None
    toml: Annotated[str, StringConstraints(max_length=200_000)] | None = None
    preset: Annotated[str, StringConstraints(max_length=64)] | None = None
    expected_version: ExpectedVersion | None = Field(
        None, description="Fail with 409 unless the block is at this version (0: does not exist yet)."
    )
    reason: Reason = ""

    @model_validator(mode="after")
    def _one_form(self) -> BlockWrite:
        given = [f for f in ("values", "markdown", "toml", "preset") if getattr(self, f) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of values, markdown, toml or preset")
        return self


class BlockEditRequest(ApiModel):
    set: dict[str, FieldValue | None] = Field(default_factory=dict, description="Fields to set; null clears one.")
    append: dict[str, list[Item]] = Field(default_factory=dict, description="Items to add at the newest end.")
    remove: dict[str, list[Item]] = Field(default_factory=dict, description="Items to take out.")
    complete_task: bool = Field(False, description="Archive the current task with its context, then go idle.")
    task_notes: Annotated[str, StringConstraints(max_length=4000)] | None = None
    keep_context: bool = Field(False, description="With completeTask: keep the context notes in the block.")
    expected_version: ExpectedVersion | None = None
    reason: Reason = ""


class ArchivedItemView(ApiModel):
    field: str
    value: str


class ArchivalView(ApiModel):
    id: str
    agent_id: str
    block: str
    kind: Literal["rotation", "overflow", "task"]
    text: str
    items: list[ArchivedItemView]
    created_at: datetime
    block_version: int
    expires_at: datetime | None = None

    @classmethod
    def of(cls, r: ArchivalRecord) -> ArchivalView:
        return cls(
            id=r.id,
            agent_id=r.agent_id,
            block=r.block,
            kind=r.kind.value,
            text=r.text,
            items=[ArchivedItemView(field=i.field, value=i.value) for i in r.items],
            created_at=r.created_at,
            block_version=r.block_version,
            expires_at=r.expires_at,
        )


class BlockWriteOutcome(ApiModel):
    block: BlockView | None = Field(description="The block after the change (as it still is, for a proposal).")
    changed: bool
    archived: list[ArchivalView] = Field(default_factory=list, description="What this change moved out.")
    proposal: ProposalView | None = Field(None, description="When the change needs the user's approval (202).")


class BlockText(ApiModel):
    format: Literal["markdown", "toml", "json", "compact"]
    version: int
    content: str


class BlockVersionView(ApiModel):
    version: int
    change: str
    actor: Actor
    reason: str
    at: datetime
    deleted: bool
    values: dict[str, str | list[str]]
    archived_ids: list[str]
    proposal_id: str | None = None

    @classmethod
    def of(cls, v: BlockVersion) -> BlockVersionView:
        return cls(
            version=v.version,
            change=v.change.value,
            actor=Actor.model_validate(v.actor.as_dict()),
            reason=v.reason,
            at=v.at,
            deleted=v.block.deleted,
            values=values_to_plain(v.block.values),
            archived_ids=list(v.archived_ids),
            proposal_id=v.proposal_id,
        )


class BlockHistoryPage(ApiModel):
    items: list[BlockVersionView]
    next_cursor: str | None = None


class BlockRestore(ApiModel):
    version: VersionNumber


# -- archival ------------------------------------------------------------------------------------


class ArchivalPage(ApiModel):
    items: list[ArchivalView]
    next_cursor: str | None = None


class ArchivalHitView(ApiModel):
    record: ArchivalView
    score: float = Field(description="The hybrid score (parts.total).")
    keyword: float = Field(description="The raw BM25 score.")
    semantic: float = Field(description="The raw cosine similarity.")
    parts: ScoreParts | None = None
    matched_by: list[str] = Field(default_factory=list, description="bm25, vector: how it matched.")
    why: str = Field("", description="Why it matched, in words.")


class ArchivalSearchResponse(ApiModel):
    query: str
    mode: Literal["hybrid", "keyword", "semantic"]
    items: list[ArchivalHitView]


# -- privacy controls -------------------------------------------------------------------------------


class Remembered(ApiModel):
    """Everything about the user this key can see, grouped by category."""

    user_id: str
    memory_enabled: bool
    categories: dict[str, list[Entry]]
    counts: dict[str, int]
    blocks: list[BlockView]
    archival_count: int
    pending_proposals: int
    truncated: bool = Field(description="True when there was more than one response holds; page /memories.")


class ForgetRequest(ApiModel):
    entry_ids: list[Annotated[str, StringConstraints(pattern=r"^mem_[0-9a-f]{24}$")]] = Field(
        default_factory=list, max_length=1000
    )
    keys: list[Annotated[str, StringConstraints(min_length=1, max_length=1024)]] = Field(
        default_factory=list, max_length=100
    )
    categories: list[Category] = Field(default_factory=list, max_length=50)
    archival_ids: list[Annotated[str, StringConstraints(pattern=r"^arc_[0-9a-f]{24}$")]] = Field(
        default_factory=list, max_length=1000
    )

    @model_validator(mode="after")
    def _something(self) -> ForgetRequest:
        if not (self.entry_ids or self.keys or self.categories or self.archival_ids):
            raise ValueError("name at least one of entryIds, keys, categories or archivalIds")
        return self


class ForgetResponse(ApiModel):
    deleted: list[str] = Field(description="Ids of the memories forgotten.")
    archival_deleted: list[str]
