"""Memory entries: the EDDI operations plus history, restore and batch writes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from urllib.parse import unquote

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Header, Path, Query

from engram.api.control_schemas import proposal_view
from engram.api.deps import Cursor, Limit, UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import (
    ID_PATTERN,
    BatchUpsertRequest,
    BatchWriteOutcome,
    CountResponse,
    DeletedResponse,
    Entry,
    EntryPage,
    ErasureReceipt,
    HistoryPage,
    RestoreRequest,
    ScoredEntry,
    ScoreParts,
    SearchResponse,
    SemanticMatchView,
    UpsertRequest,
    Version,
    WriteOutcome,
)
from engram.domain.agent_config import RecallOrder
from engram.domain.models import Status, Visibility
from engram.domain.policies import scope_for
from engram.domain.timebounds import check_time
from engram.service.memory import UpsertCommand, WriteResult

# Bi-temporal reads: the facts that held at this time (default: now). With a UTC offset.
AsOf = Annotated[
    datetime | None,
    Query(description="Show the facts that held at this time (ISO 8601 with offset); default now."),
]

router = new_router()
TAG = ["memories"]

EntryId = Annotated[str, Path(pattern=r"^mem_[0-9a-f]{24}$", description="A memory entry id.")]
# API Gateway (REST) hands over the path still percent-encoded and Powertools matches
# on it as is; keys are free text, so the key routes decode their parameter themselves.
Key = Annotated[str, Path(min_length=1, max_length=3072)]
Order = Annotated[RecallOrder | None, Query(description="most_recent or most_accessed")]
StatusFilter = Annotated[Literal["active", "superseded", "deleted", "all"], Query()]
TurnId = Annotated[
    str | None,
    Header(
        alias="Engram-Turn-Id",
        max_length=256,
        description="Identifies one conversation turn; maxWritesPerTurn counts writes per turn.",
    ),
]


def _command(body: UpsertRequest) -> UpsertCommand:
    return UpsertCommand(
        key=body.key,
        value=body.value,
        category=body.category,
        visibility=Visibility(body.visibility),
        statement=body.statement,
        group_ids=None if body.group_ids is None else tuple(body.group_ids),
        importance=body.importance,
        confidence=body.confidence,
        source_conversation_id=body.source_conversation_id,
        source_message_id=body.source_message_id,
        source_time=body.source_time,
        valid_from=body.valid_from,
        valid_to=body.valid_to,
    )


def _outcome(r: WriteResult, behind: int | None = None) -> WriteOutcome:
    """``behind``: the user's changes still waiting for the index after this write (None: unknown)."""
    if r.proposal is not None:
        # Nothing was written: the entry would only be a preview, so the proposal stands alone.
        return WriteOutcome(
            outcome=r.outcome.value,
            entry=None,
            previous_id=None if r.previous is None else r.previous.id,
            proposal=proposal_view(r.proposal, r.proposal.created_at),
        )
    return WriteOutcome(
        outcome=r.outcome.value,
        entry=Entry.of(r.entry),
        previous_id=None if r.previous is None else r.previous.id,
        evicted_ids=list(r.evicted),
        matched=_matched(r),
        # Nothing of the user's waiting means this write is indexed; anything waiting may be it.
        searchable=None if behind is None else behind == 0,
    )


def _matched(r: WriteResult) -> SemanticMatchView | None:
    m = r.matched
    if m is None:
        return None
    kind: Literal["duplicate", "contradiction"] = "duplicate" if m.kind == "duplicate" else "contradiction"
    return SemanticMatchView(kind=kind, similarity=m.similarity, requested_key=m.requested_key)


def _statuses(status: str) -> tuple[Status, ...]:
    return tuple(Status) if status == "all" else (Status(status),)


# Static paths come before /{entryId} so that "visible" or "count" never parse as ids.
@router.get(
    "/users/<userId>/memories",
    summary="List a user's memories in the caller's view (an admin key sees all)",
    tags=TAG,
    responses=errors(),
)
def list_memories(
    userId: UserId,
    category: Annotated[str | None, Query(max_length=64)] = None,
    status: StatusFilter = "active",
    order: Order = None,
    limit: Limit = 50,
    cursor: Cursor = None,
    asOf: AsOf = None,
) -> EntryPage:
    engram, principal = context(router)
    check_time(asOf, "asOf")
    page = engram.memory.list_memories(
        principal,
        userId,
        scope_for(principal),
        category=category,
        statuses=_statuses(status),
        order=order or RecallOrder.MOST_RECENT,
        limit=limit,
        cursor=cursor,
        as_of=asOf,
    )
    return EntryPage.of(page)


@router.get(
    "/users/<userId>/memories/visible",
    summary="Memories visible to an agent: global, its own self, and its groups' entries",
    tags=TAG,
    responses=errors(),
)
def visible_memories(
    userId: UserId,
    agentId: Annotated[str | None, Query(pattern=ID_PATTERN, description="Admin only, if not the caller.")] = None,
    groupId: Annotated[str | None, Query(pattern=ID_PATTERN)] = None,
    order: Order = None,
    limit: Annotated[int | None, Query(ge=1, le=1000)] = None,
    cursor: Cursor = None,
) -> EntryPage:
    engram, principal = context(router)
    page = engram.memory.visible(principal, userId, agentId, groupId, order, limit, cursor)
    return EntryPage.of(page)


@router.get(
    "/users/<userId>/memories/search",
    summary="Search memories by keyword and meaning",
    tags=TAG,
    responses=errors(),
)
def search_memories(
    userId: UserId,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Search text.")],
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    category: Annotated[str | None, Query(max_length=64)] = None,
    asOf: AsOf = None,
    minScore: Annotated[
        float | None, Query(ge=0, le=1, description="The least hybrid score; default tuned per embedder.")
    ] = None,
) -> SearchResponse:
    engram, principal = context(router)
    check_time(asOf, "asOf")
    results = engram.memory.search(principal, userId, q, limit=limit, category=category, as_of=asOf, min_score=minScore)
    return SearchResponse(
        query=q,
        min_score=engram.memory.ranking.min_score if minScore is None else minScore,
        index_behind=engram.index_behind(principal.tenant_id, userId),
        items=[
            ScoredEntry(
                entry=Entry.of(r.entry),
                score=r.score,
                keyword=r.keyword,
                semantic=r.semantic,
                parts=None if r.parts is None else ScoreParts.of(r.parts),
                matched_by=list(r.matched_by),
                why=r.why,
            )
            for r in results
        ],
    )


@router.get(
    "/users/<userId>/memories/count",
    summary="Count live memories in the caller's view",
    tags=TAG,
    responses=errors(),
)
def count_memories(userId: UserId) -> CountResponse:
    engram, principal = context(router)
    return CountResponse(count=engram.memory.count(principal, userId))


@router.get(
    "/users/<userId>/memories/category/<category>",
    summary="Memories of one category",
    tags=TAG,
    responses=errors(),
)
def memories_by_category(
    userId: UserId,
    category: Annotated[str, Path(min_length=1, max_length=64)],
    limit: Limit = 50,
    cursor: Cursor = None,
) -> EntryPage:
    engram, principal = context(router)
    page = engram.memory.list_memories(
        principal, userId, scope_for(principal), category=category, limit=limit, cursor=cursor
    )
    return EntryPage.of(page)


@router.get(
    "/users/<userId>/memories/key/<key>",
    summary="Memories under one key",
    tags=TAG,
    responses=errors(),
)
def memories_by_key(userId: UserId, key: Key) -> EntryPage:
    engram, principal = context(router)
    page = engram.memory.list_memories(principal, userId, scope_for(principal), key=unquote(key), limit=1000)
    return EntryPage(items=[Entry.of(e) for e in page.items])


@router.delete(
    "/users/<userId>/memories/key/<key>",
    summary="Forget a key (the caller's own and global entries)",
    tags=TAG,
    responses=errors(),
)
def forget_key(userId: UserId, key: Key) -> DeletedResponse:
    engram, principal = context(router)
    return DeletedResponse(deleted=[e.id for e in engram.memory.delete_by_key(principal, userId, unquote(key))])


@router.put(
    "/users/<userId>/memories",
    summary="Upsert one memory: create, reinforce, update or supersede",
    description=(
        "Identity is (user, key, calling agent) for self and group entries and (user, key) for "
        "global ones. The same value reinforces; a different value supersedes the old entry."
    ),
    tags=TAG,
    responses={
        **errors(409),
        202: {
            "description": "The agent needs the user's approval (requireApproval): a proposal is pending.",
            "content": {"application/json": {"model": WriteOutcome}},
        },
    },
)
def upsert_memory(userId: UserId, body: UpsertRequest, turn: TurnId = None) -> Response[WriteOutcome]:
    engram, principal = context(router)
    written = engram.memory.upsert(principal, userId, [_command(body)], turn)[0]
    result = _outcome(written, engram.index_behind(principal.tenant_id, userId))
    status = 202 if result.proposal is not None else 200
    return Response(status_code=status, content_type=content_types.APPLICATION_JSON, body=result)


@router.post(
    "/users/<userId>/memories/batch",
    summary="Upsert several memories; all are checked before any is written",
    tags=TAG,
    responses=errors(409),
)
def upsert_batch(userId: UserId, body: BatchUpsertRequest, turn: TurnId = None) -> BatchWriteOutcome:
    engram, principal = context(router)
    results = engram.memory.upsert(principal, userId, [_command(c) for c in body.entries], turn)
    behind = engram.index_behind(principal.tenant_id, userId)
    return BatchWriteOutcome(results=[_outcome(r, behind) for r in results])


@router.delete(
    "/users/<userId>/memories",
    summary="Delete all of a user's data (GDPR); needs an admin key and confirm=CONFIRM",
    tags=TAG,
    responses=errors(400),
)
def delete_all(
    userId: UserId,
    confirm: Annotated[str | None, Query(description="Must be CONFIRM.")] = None,
) -> ErasureReceipt:
    engram, principal = context(router)
    r = engram.privacy.erase(principal, userId, confirm)
    return ErasureReceipt(tenant_id=r.tenant_id, user_id=r.user_id, erased_at=r.erased_at, counts=r.counts)


@router.get(
    "/users/<userId>/memories/<entryId>",
    summary="One memory by id",
    tags=TAG,
    responses=errors(404),
)
def get_memory(userId: UserId, entryId: EntryId) -> Entry:
    engram, principal = context(router)
    return Entry.of(engram.memory.get(principal, userId, entryId))


@router.delete(
    "/users/<userId>/memories/<entryId>",
    summary="Delete one memory (kept in its history)",
    tags=TAG,
    responses=errors(404, 409),
)
def delete_memory(userId: UserId, entryId: EntryId) -> Entry:
    engram, principal = context(router)
    return Entry.of(engram.memory.delete(principal, userId, entryId))


@router.get(
    "/users/<userId>/memories/<entryId>/history",
    summary="Every version of this memory's identity, oldest first",
    tags=TAG,
    responses=errors(404),
)
def memory_history(userId: UserId, entryId: EntryId, limit: Limit = 100, cursor: Cursor = None) -> HistoryPage:
    engram, principal = context(router)
    page = engram.memory.history(principal, userId, entryId, limit, cursor)
    return HistoryPage(items=[Version.of(h) for h in page.items], next_cursor=page.next_cursor)


@router.post(
    "/users/<userId>/memories/<entryId>/restore",
    summary="Restore an earlier version (written as a new version)",
    tags=TAG,
    responses=errors(404, 409),
)
def restore_memory(userId: UserId, entryId: EntryId, body: RestoreRequest) -> WriteOutcome:
    engram, principal = context(router)
    restored = engram.memory.restore(principal, userId, entryId, body.version)
    return _outcome(restored, engram.index_behind(principal.tenant_id, userId))
