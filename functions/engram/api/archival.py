"""Archival memory: what rotated out of memory blocks and completed tasks, searchable by
keyword and by meaning."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from engram.api.control_schemas import ArchivalHitView, ArchivalPage, ArchivalSearchResponse, ArchivalView
from engram.api.deps import Cursor, Limit, UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ID_PATTERN, DeletedResponse, ScoreParts
from engram.domain.archival import ARCHIVAL_ID_PATTERN

router = new_router()
TAG = ["archival"]

ArchivalId = Annotated[str, Path(pattern=ARCHIVAL_ID_PATTERN, description="An archival record id.")]
AgentId = Annotated[
    str | None, Query(pattern=ID_PATTERN, description="Whose archival memory (admin); the caller's by default.")
]


@router.get("/users/<userId>/archival", summary="Archival memory, newest first", tags=TAG, responses=errors())
def list_archival(userId: UserId, agentId: AgentId = None, limit: Limit = 50, cursor: Cursor = None) -> ArchivalPage:
    engram, principal = context(router)
    page = engram.archival.list_records(principal, userId, agent_id=agentId, limit=limit, cursor=cursor)
    return ArchivalPage(items=[ArchivalView.of(r) for r in page.items], next_cursor=page.next_cursor)


@router.get(
    "/users/<userId>/archival/search",
    summary="Search archival memory by keyword, meaning, or both",
    tags=TAG,
    responses=errors(),
)
def search_archival(
    userId: UserId,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Search text.")],
    mode: Annotated[Literal["hybrid", "keyword", "semantic"], Query()] = "hybrid",
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    agentId: AgentId = None,
    minScore: Annotated[
        float | None, Query(ge=0, le=1, description="The least hybrid score; default tuned per embedder.")
    ] = None,
) -> ArchivalSearchResponse:
    engram, principal = context(router)
    hits = engram.archival.search(principal, userId, q, limit=limit, agent_id=agentId, mode=mode, min_score=minScore)
    return ArchivalSearchResponse(
        query=q,
        mode=mode,
        items=[
            ArchivalHitView(
                record=ArchivalView.of(h.record),
                score=h.score,
                keyword=h.keyword,
                semantic=h.semantic,
                parts=None if h.parts is None else ScoreParts.of(h.parts),
                matched_by=list(h.matched_by),
                why=h.why,
            )
            for h in hits
        ],
    )


@router.get("/users/<userId>/archival/<archivalId>", summary="One archival record", tags=TAG, responses=errors())
def get_archival(userId: UserId, archivalId: ArchivalId) -> ArchivalView:
    engram, principal = context(router)
    return ArchivalView.of(engram.archival.get(principal, userId, archivalId))


@router.delete(
    "/users/<userId>/archival/<archivalId>",
    summary="Forget one archival record for good",
    tags=TAG,
    responses=errors(),
)
def forget_archival(userId: UserId, archivalId: ArchivalId) -> DeletedResponse:
    engram, principal = context(router)
    return DeletedResponse(deleted=engram.archival.forget(principal, userId, [archivalId]))
