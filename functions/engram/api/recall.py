"""Recall: the context an agent puts in its prompt for this turn (docs/recall.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field, StringConstraints

from engram.api.deps import UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ID_PATTERN, ApiModel, Category, Entry, ScoreParts, Timestamp
from engram.domain.rendering import FORMAT_VERSION, TOKEN_ESTIMATOR
from engram.service.recall import EpisodeItem as ServiceEpisode
from engram.service.recall import RecallItem as ServiceItem
from engram.service.recall import RecallRequest as ServiceRequest

router = new_router()
TAG = ["recall"]


class RecallRequest(ApiModel):
    message: Annotated[str, StringConstraints(min_length=1, max_length=8000)] = Field(
        description="The user's message for this turn; tier 2 is what is relevant to it."
    )
    token_budget: int = Field(
        1000, ge=1, le=32_000, description="The most the context block may cost, in estimated tokens."
    )
    top_k: int = Field(5, ge=1, le=50, description="At most this many relevant memories (tier 2).")
    min_score: float | None = Field(
        None, ge=0, le=1, description="The least hybrid score a tier-2 memory needs; default tuned per embedder."
    )
    categories: list[Category] | None = Field(
        None, min_length=1, max_length=20, description="Only memories of these categories in tier 2."
    )
    core_preferences: int = Field(5, ge=0, le=20, description="How many top preferences tier 1 holds.")
    episodes: bool = Field(
        True, description="Rank the user's past messages (this agent's threads) beside memories in tier 2."
    )
    exclude_thread_id: Annotated[str, StringConstraints(pattern=ID_PATTERN)] | None = Field(
        None, description="Leave out this thread's messages (the current one: the agent has its window already)."
    )
    as_of: Timestamp | None = Field(
        None,
        description="Recall as of this time: facts whose validity (validFrom/validTo) covers it, and messages "
        "said by then. Default: now, current facts only.",
    )


class Provenance(ApiModel):
    source_agent_id: str
    visibility: str
    source_conversation_id: str | None = None
    source_message_id: str | None = None
    matched_by: list[str] = Field(description="bm25, vector: how the index found it (tier 2).")
    bm25: float = Field(description="The raw BM25 score (0 when no word matched).")
    cosine: float = Field(description="The raw cosine similarity to the message.")


class RecallItem(ApiModel):
    tier: int = Field(description="1: core preference, always; 2: relevant to the message.")
    rank: int
    why: str = Field(description="Why this memory was chosen, in words.")
    score: float | None = Field(None, description="The hybrid score (tier 2).")
    parts: ScoreParts | None = None
    provenance: Provenance
    entry: Entry


class EpisodeProvenance(ApiModel):
    thread_id: str
    message_id: str
    seq: int = Field(description="The message's place in its thread, from 1.")
    role: str
    speaker: str = Field(description="Who said it: metadata.speaker when the client gave one, else the role.")
    said_at: datetime = Field(description="When it was said (the message's own timestamp).")
    source_agent_id: str = Field(description="The agent whose thread it is.")
    matched_by: list[str] = Field(description="bm25, vector, time: how it matched.")
    bm25: float
    cosine: float


class EpisodeItem(ApiModel):
    tier: int = Field(description="Always 2: ranked with the memories by the same score.")
    rank: int = Field(description="Its place in tier 2's one order, memories and episodes together.")
    why: str
    score: float
    parts: ScoreParts
    provenance: EpisodeProvenance
    content: str = Field(description="What was said.")


class TimeWindowOut(ApiModel):
    start: datetime
    end: datetime = Field(description="Exclusive.")
    text: str = Field(description="The words of the message it was read from.")


class IdentityOut(ApiModel):
    name: str | None = None
    nickname: str | None = None
    pronouns: str | None = None
    agent_name: str | None = Field(None, description="What the user calls the calling agent.")


class Tier1(ApiModel):
    identity: IdentityOut
    preferences: list[RecallItem]


class TokenUse(ApiModel):
    budget: int
    used: int
    estimator: str


class RecallResponse(ApiModel):
    user_id: str
    agent_id: str
    context: str = Field(description="The rendered block; a pure function of the rest of this response.")
    format: str = Field(description="The version of the block's format (docs/recall.md).")
    tier1: Tier1
    memories: list[RecallItem] = Field(description="Tier 2 memory entries, best first.")
    episodes: list[EpisodeItem] = Field(
        description="Tier 2 past messages, best first; ``rank`` places them among the memories."
    )
    time_window: TimeWindowOut | None = Field(None, description="The time span the message asks about, if any.")
    tokens: TokenUse
    min_score: float
    model_id: str = Field(description="The embedding model that scored the memories.")
    memory_enabled: bool
    considered: int = Field(description="Candidates from the index that the store confirmed live and visible.")
    below_min_score: int
    over_budget: list[str] = Field(description="Ids of memories chosen but left out to stay within the budget.")
    degraded: bool = Field(
        False,
        description=(
            "The search index was unavailable: tier 2 was chosen by keywords from the store alone "
            "(no semantic match, no minimum score)."
        ),
    )


def _episode(i: ServiceEpisode) -> EpisodeItem:
    m = i.message
    return EpisodeItem(
        tier=i.tier,
        rank=i.rank,
        why=i.why,
        score=i.parts.total,
        parts=ScoreParts.of(i.parts),
        provenance=EpisodeProvenance(
            thread_id=m.thread_id,
            message_id=m.id,
            seq=m.seq,
            role=m.role.value,
            speaker=i.speaker,
            said_at=m.timestamp,
            source_agent_id=m.agent_id,
            matched_by=list(i.matched_by),
            bm25=i.keyword_raw,
            cosine=i.semantic_raw,
        ),
        content=m.content,
    )


def _item(i: ServiceItem) -> RecallItem:
    e = i.entry
    parts = None if i.parts is None else ScoreParts.of(i.parts)
    return RecallItem(
        tier=i.tier,
        rank=i.rank,
        why=i.why,
        score=None if i.parts is None else i.parts.total,
        parts=parts,
        provenance=Provenance(
            source_agent_id=e.source_agent_id,
            visibility=e.visibility.value,
            source_conversation_id=e.source_conversation_id,
            source_message_id=e.source_message_id,
            matched_by=list(i.matched_by),
            bm25=i.keyword_raw,
            cosine=i.semantic_raw,
        ),
        entry=Entry.of(e),
    )


@router.post(
    "/users/<userId>/recall",
    summary="Recall what the calling agent should know about the user for this message",
    description=(
        "Tier 1 (identity and top core preferences) always; tier 2 the top-k memories and past "
        "messages (episodes, from the calling agent's threads) in one order by a hybrid of semantic "
        "similarity, BM25, importance, recency, confidence and the time span the message names, "
        "above minScore. Only what is visible to the calling agent, never superseded, deleted or "
        "expired entries. The context block fits tokenBudget and is the same bytes for the same inputs."
    ),
    tags=TAG,
    responses=errors(),
)
def recall(userId: UserId, body: RecallRequest) -> RecallResponse:
    engram, principal = context(router)
    r = engram.recall.recall(
        principal,
        userId,
        ServiceRequest(
            message=body.message,
            token_budget=body.token_budget,
            top_k=body.top_k,
            min_score=body.min_score,
            categories=None if body.categories is None else tuple(body.categories),
            core_preferences=body.core_preferences,
            episodes=body.episodes,
            exclude_thread_id=body.exclude_thread_id,
            as_of=body.as_of,
        ),
    )
    return RecallResponse(
        user_id=r.user_id,
        agent_id=r.agent_id,
        context=r.rendered.text,
        format=FORMAT_VERSION,
        tier1=Tier1(
            identity=IdentityOut(
                name=r.identity.name,
                nickname=r.identity.nickname,
                pronouns=r.identity.pronouns,
                agent_name=r.identity.agent_name,
            ),
            preferences=[_item(p) for p in r.preferences],
        ),
        memories=[_item(m) for m in r.memories],
        episodes=[_episode(e) for e in r.episodes],
        time_window=None
        if r.window is None
        else TimeWindowOut(start=r.window.start, end=r.window.end, text=r.window.text),
        tokens=TokenUse(budget=body.token_budget, used=r.rendered.tokens, estimator=TOKEN_ESTIMATOR),
        min_score=r.min_score,
        model_id=r.model_id,
        memory_enabled=r.memory_enabled,
        considered=r.considered,
        below_min_score=r.below_min_score,
        over_budget=list(r.over_budget),
        degraded=r.degraded,
    )
