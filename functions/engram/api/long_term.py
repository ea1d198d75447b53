"""Long-term memory by namespace (Mordecai): facts, preferences and session summaries."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query

from engram.api.conversation_schemas import LongTermItemOut, LongTermPage, LongTermSearchResponse, MemoryTypeName
from engram.api.deps import UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ID_PATTERN
from engram.service.long_term import MemoryType

router = new_router()
TAG = ["long-term memory"]

MemoryTypeParam = Annotated[
    MemoryTypeName, Query(description="all, facts (/facts/{userId}), preferences or summaries (/summaries/...)")
]


@router.get(
    "/users/<userId>/long-term-memory",
    summary="The user's long-term memory by namespace, in the caller's view",
    tags=TAG,
    responses=errors(),
)
def browse(
    userId: UserId,
    memoryType: MemoryTypeParam = "all",
    threadId: Annotated[str | None, Query(pattern=ID_PATTERN, description="Summaries of one thread only.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> LongTermPage:
    engram, principal = context(router)
    items = engram.conversation.long_term.browse(principal, userId, MemoryType(memoryType), threadId, limit)
    return LongTermPage(items=[LongTermItemOut.of(i) for i in items])


@router.get(
    "/users/<userId>/long-term-memory/search",
    summary="search_memory: facts, preferences and session summaries relevant to a query",
    tags=TAG,
    responses=errors(),
)
def search(
    userId: UserId,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Search text.")],
    memoryType: MemoryTypeParam = "all",
    limit: Annotated[int, Query(ge=1, le=100, description="Top k.")] = 10,
    minScore: Annotated[
        float | None, Query(ge=0, le=1, description="The least hybrid score; default tuned per embedder.")
    ] = None,
) -> LongTermSearchResponse:
    engram, principal = context(router)
    items = engram.conversation.long_term.search(principal, userId, q, MemoryType(memoryType), limit, minScore)
    return LongTermSearchResponse(query=q, memory_type=memoryType, items=[LongTermItemOut.of(i) for i in items])
