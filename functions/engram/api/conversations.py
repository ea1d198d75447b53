"""Conversations: threads of messages, their window, summary and cross-thread search."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from engram.api.conversation_schemas import (
    AppendMessagesRequest,
    AppendMessagesResponse,
    MessageHitOut,
    MessageOut,
    MessageSearchResponse,
    MessageWindow,
    SummaryOut,
    ThreadDeleted,
    ThreadList,
    ThreadOut,
)
from engram.api.deps import UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ID_PATTERN, ScoreParts
from engram.domain.conversation import MessageRole, NewMessage

router = new_router()
TAG = ["conversations"]

ThreadId = Annotated[
    str,
    Path(
        pattern=ID_PATTERN,
        description="The client's id for the thread (one session). Each agent has its own thread ids: "
        "another agent's thread of the same id is another thread.",
    ),
]
MessageId = Annotated[str, Path(pattern=ID_PATTERN)]
OwnerId = Annotated[
    str | None,
    Query(pattern=ID_PATTERN, description="Whose thread (admin only); the calling agent's by default."),
]


@router.post(
    "/users/<userId>/threads/<threadId>/messages",
    summary="Append messages to a thread; each is then indexed and its facts extracted",
    description=(
        "Idempotent on message id: sending the same messages again changes nothing. Sensitive data "
        "(card numbers, secrets, government ids) is redacted before anything is stored. When the thread "
        "reaches its message limit the window is summarised and cleared, and `notice` says so. An append "
        "that began before the user was erased is refused (409 `user_erased`), as a memory write is."
    ),
    tags=TAG,
    responses=errors(409, 503),
)
def append_messages(userId: UserId, threadId: ThreadId, body: AppendMessagesRequest) -> AppendMessagesResponse:
    engram, principal = context(router)
    now = engram.clock.now()
    messages = [
        NewMessage(m.id, MessageRole(m.role), m.content, m.timestamp or now, dict(m.metadata)) for m in body.messages
    ]
    r = engram.conversation.conversations.append(principal, userId, threadId, messages)
    return AppendMessagesResponse(
        thread=ThreadOut.of(r.thread),
        messages=[MessageOut.of(m) for m in r.messages],
        created=list(r.created),
        duplicates=[m.id for m in r.messages if m.id not in set(r.created)],
        queued=r.queued,
        limit_reached=r.limit_reached,
        window_cleared=r.notice is not None,
        notice=r.notice,
        summary=None if r.summary is None else SummaryOut.of(r.summary),
    )


@router.get(
    "/users/<userId>/threads/<threadId>/messages",
    summary="The thread's window: the last N messages and/or those fitting a token budget",
    description="Oldest first. With neither limit, the last 20. With both, whichever bites first wins; "
    "the budget trims the oldest messages first.",
    tags=TAG,
    responses=errors(404),
)
def read_window(
    userId: UserId,
    threadId: ThreadId,
    last: Annotated[int | None, Query(ge=1, le=1000, description="At most this many messages.")] = None,
    tokenBudget: Annotated[int | None, Query(ge=1, le=1_000_000, description="At most this many tokens.")] = None,
    agentId: OwnerId = None,
) -> MessageWindow:
    engram, principal = context(router)
    view = engram.conversation.conversations.window(principal, userId, threadId, last, tokenBudget, agentId)
    return MessageWindow(
        thread=ThreadOut.of(view.thread),
        messages=[MessageOut.of(m) for m in view.window.messages],
        tokens=view.window.tokens,
        truncated=view.window.truncated,
        summary=None if view.summary is None else SummaryOut.of(view.summary),
    )


@router.get(
    "/users/<userId>/threads/<threadId>/messages/<messageId>",
    summary="One message, with what its extraction did",
    tags=TAG,
    responses=errors(404),
)
def get_message(userId: UserId, threadId: ThreadId, messageId: MessageId, agentId: OwnerId = None) -> MessageOut:
    engram, principal = context(router)
    return MessageOut.of(engram.conversation.conversations.message(principal, userId, threadId, messageId, agentId))


@router.get(
    "/users/<userId>/threads/<threadId>/summary",
    summary="The thread's rolling summary",
    tags=TAG,
    responses=errors(404),
)
def get_summary(userId: UserId, threadId: ThreadId, agentId: OwnerId = None) -> SummaryOut:
    engram, principal = context(router)
    return SummaryOut.of(engram.conversation.conversations.summary(principal, userId, threadId, agentId))


@router.get(
    "/users/<userId>/threads",
    summary="The user's threads with the calling agent (an admin key sees every agent's)",
    tags=TAG,
    responses=errors(),
)
def list_threads(userId: UserId) -> ThreadList:
    engram, principal = context(router)
    return ThreadList(items=[ThreadOut.of(t) for t in engram.conversation.conversations.threads(principal, userId)])


@router.delete(
    "/users/<userId>/threads/<threadId>",
    summary="Forget a conversation: its messages and summary (facts taken from it stay)",
    tags=TAG,
    responses=errors(404),
)
def delete_thread(userId: UserId, threadId: ThreadId, agentId: OwnerId = None) -> ThreadDeleted:
    engram, principal = context(router)
    counts = engram.conversation.conversations.delete_thread(principal, userId, threadId, agentId)
    return ThreadDeleted(thread_id=threadId, counts=counts)


@router.get(
    "/users/<userId>/messages/search",
    summary="Search the user's messages across threads by meaning",
    description=(
        "Ranked by recall's one hybrid score (words, meaning, and the time span the query names); "
        "messages below minScore (tuned per embedder by default) are dropped. Each hit says why it matched."
    ),
    tags=TAG,
    responses=errors(),
)
def search_messages(
    userId: UserId,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Search text.")],
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    minScore: Annotated[
        float | None, Query(ge=0, le=1, description="The least hybrid score; default tuned per embedder.")
    ] = None,
    excludeThreadId: Annotated[
        str | None,
        Query(
            pattern=ID_PATTERN, description="Leave out the caller's own thread of this id (usually the current one)."
        ),
    ] = None,
) -> MessageSearchResponse:
    engram, principal = context(router)
    feature = engram.conversation
    hits = feature.conversations.search(
        principal, userId, q, limit=limit, min_score=minScore, exclude_thread_id=excludeThreadId
    )
    return MessageSearchResponse(
        query=q,
        min_score=feature.conversations.min_score_default() if minScore is None else minScore,
        items=[
            MessageHitOut(
                message=MessageOut.of(h.message),
                score=h.score,
                parts=None if h.parts is None else ScoreParts.of(h.parts),
                matched_by=list(h.matched_by),
                why=h.why,
            )
            for h in hits
        ],
    )
