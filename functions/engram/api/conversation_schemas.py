"""Request and response bodies of the conversation and long-term memory routes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from engram.api.schemas import ApiModel, Entry, Identifier, ScoreParts, Timestamp
from engram.domain.conversation import ExtractionRecord, Message, Thread, ThreadSummary
from engram.domain.conversation_codec import record_to_dict
from engram.service.long_term import LongTermItem

Role = Literal["user", "assistant", "system", "tool"]
MemoryTypeName = Literal["all", "facts", "preferences", "summaries"]


class MessageIn(ApiModel):
    id: Identifier = Field(description="The client's id for the message; appending it again changes nothing.")
    role: Role = "user"
    content: Annotated[str, StringConstraints(min_length=1, max_length=32_000)]
    timestamp: Timestamp | None = Field(
        None,
        description="When it was said, with the user's UTC offset; relative times resolve against it. "
        "Defaults to the time Engram receives it.",
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict,
        description="Anything the agent wants kept with the message, e.g. {'steps': [...]} execution traces.",
    )


class AppendMessagesRequest(ApiModel):
    messages: list[MessageIn] = Field(min_length=1, max_length=50)


class ExtractionOut(ApiModel):
    status: Literal["extracted", "skipped"]
    at: datetime
    extractor: str
    reason: str | None = None
    outcomes: dict[str, int] = Field(description="Memory writes by outcome: created, reinforced, superseded...")
    dropped: dict[str, int] = Field(description="Facts not stored, by reason: sensitive, uncertain, question...")
    identity: list[str] = Field(description="Profile fields the message set: name, nickname, agentName.")
    usage: dict[str, float] = Field(description="Model calls: inputTokens, outputTokens, costUsd.")

    @classmethod
    def of(cls, r: ExtractionRecord) -> ExtractionOut:
        return cls.model_validate(record_to_dict(r))


class MessageOut(ApiModel):
    id: str
    thread_id: str
    seq: int
    role: Role
    content: str
    timestamp: datetime
    created_at: datetime
    tokens: int = Field(description="Estimated tokens, as the token budget counts them.")
    metadata: dict[str, Any]
    redactions: list[str] = Field(description="Sensitive-data rules whose matches were removed before storing.")
    extraction: ExtractionOut | None = Field(None, description="Null until the message has been processed.")

    @classmethod
    def of(cls, m: Message) -> MessageOut:
        return cls(
            id=m.id,
            thread_id=m.thread_id,
            seq=m.seq,
            role=m.role.value,
            content=m.content,
            timestamp=m.timestamp,
            created_at=m.created_at,
            tokens=m.tokens,
            metadata=m.metadata,
            redactions=list(m.redactions),
            extraction=None if m.extraction is None else ExtractionOut.of(m.extraction),
        )


class ThreadOut(ApiModel):
    thread_id: str
    agent_id: str
    created_at: datetime
    updated_at: datetime
    message_count: int
    window_start: int = Field(description="Seq of the first message in the live window.")
    window_size: int
    clears: int = Field(description="How often the window was summarised and cleared at the message limit.")

    @classmethod
    def of(cls, t: Thread) -> ThreadOut:
        return cls(
            thread_id=t.thread_id,
            agent_id=t.agent_id,
            created_at=t.created_at,
            updated_at=t.updated_at,
            message_count=t.last_seq,
            window_start=t.window_start,
            window_size=t.window_size,
            clears=t.clears,
        )


class SummaryOut(ApiModel):
    thread_id: str
    agent_id: str
    namespace: str = Field(description="Mordecai's namespace: /summaries/{userId}/{threadId}.")
    text: str
    messages_covered: int
    covered_up_to: int = Field(description="Seq of the last message folded into the summary.")
    updated_at: datetime
    version: int

    @classmethod
    def of(cls, s: ThreadSummary) -> SummaryOut:
        return cls(
            thread_id=s.thread_id,
            agent_id=s.agent_id,
            namespace=f"/summaries/{s.user_id}/{s.thread_id}",
            text=s.text,
            messages_covered=s.messages_covered,
            covered_up_to=s.covered_up_to,
            updated_at=s.updated_at,
            version=s.version,
        )


class AppendMessagesResponse(ApiModel):
    thread: ThreadOut
    messages: list[MessageOut]
    created: list[str] = Field(description="Ids stored by this request.")
    duplicates: list[str] = Field(description="Ids the thread already had; left unchanged.")
    queued: int = Field(description="Messages queued for indexing and fact extraction.")
    limit_reached: bool = Field(description="The thread reached its message limit with this request.")
    window_cleared: bool
    notice: str | None = Field(None, description="Tell the user this, if set (the window was summarised).")
    summary: SummaryOut | None = None


class MessageWindow(ApiModel):
    thread: ThreadOut
    messages: list[MessageOut] = Field(description="Oldest first.")
    tokens: int
    truncated: bool = Field(description="Older messages of the window were left out by last or tokenBudget.")
    summary: SummaryOut | None = None


class MessageHitOut(ApiModel):
    message: MessageOut
    score: float = Field(description="The hybrid score (parts.total).")
    parts: ScoreParts | None = None
    matched_by: list[str] = Field(default_factory=list, description="bm25, vector, time: how it matched.")
    why: str = Field("", description="Why it matched, in words.")


class MessageSearchResponse(ApiModel):
    query: str
    min_score: float
    items: list[MessageHitOut]


class ThreadList(ApiModel):
    items: list[ThreadOut]


class ThreadDeleted(ApiModel):
    thread_id: str
    counts: dict[str, int]


class LongTermItemOut(ApiModel):
    namespace: str
    memory_type: Literal["facts", "preferences", "summaries"]
    score: float | None = None
    parts: ScoreParts | None = None
    matched_by: list[str] = Field(default_factory=list, description="bm25, vector, time: how it matched (search).")
    why: str | None = Field(None, description="Why it matched, in words (search).")
    entry: Entry | None = None
    summary: SummaryOut | None = None

    @classmethod
    def of(cls, i: LongTermItem) -> LongTermItemOut:
        return cls(
            namespace=i.namespace,
            memory_type=i.memory_type.value,
            score=i.score,
            parts=None if i.parts is None else ScoreParts.of(i.parts),
            matched_by=list(i.matched_by),
            why=i.why,
            entry=None if i.entry is None else Entry.of(i.entry),
            summary=None if i.summary is None else SummaryOut.of(i.summary),
        )


class LongTermPage(ApiModel):
    items: list[LongTermItemOut]


class LongTermSearchResponse(ApiModel):
    query: str
    memory_type: MemoryTypeName
    items: list[LongTermItemOut]
