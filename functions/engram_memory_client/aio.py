"""The asynchronous client: ``AsyncEngramClient(url, key)``."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

from engram_memory_client import models
from engram_memory_client._core import NOT_GIVEN, as_mapping
from engram_memory_client._operations import AsyncOperations
from engram_memory_client.sync import ToolFormat


class AsyncEngramClient(AsyncOperations):
    """Every Engram operation as a typed method (``client.recall(...)``, ``client.upsert_memory(...)``...).

    Retries 429 (rate limited), 5xx and lost connections with exponential backoff; every
    write carries an ``Idempotency-Key`` that stays the same across its retries. Errors
    raise the ``engram_memory_client.errors`` class of their code's family.
    """

    async def __aenter__(self) -> AsyncEngramClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- shortcuts ------------------------------------------------------------------------
    async def remember(
        self,
        user_id: str,
        key: str,
        value: str,
        *,
        turn_id: str | None = None,
        idempotency_key: str | None = None,
        **fields: Any,
    ) -> models.WriteOutcome:
        """Upsert one memory; ``category``, ``visibility``, ``statement``... as keywords."""
        return await self.upsert_memory(
            user_id, key=key, value=value, turn_id=turn_id, idempotency_key=idempotency_key, **fields
        )

    async def remember_many(
        self,
        user_id: str,
        entries: Sequence[Mapping[str, Any] | models.UpsertRequest],
        *,
        turn_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.BatchWriteOutcome:
        """Upsert several memories in one request."""
        return await self.upsert_batch(user_id, entries=list(entries), turn_id=turn_id, idempotency_key=idempotency_key)

    def iter_memories(self, user_id: str, **filters: Any) -> AsyncIterator[models.Entry]:
        """Every memory in the caller's view, page after page (filters of ``list_memories``)."""
        return _pages(lambda cursor: self.list_memories(user_id, cursor=cursor, **filters))

    def iter_visible(self, user_id: str, **filters: Any) -> AsyncIterator[models.Entry]:
        """Every memory one agent sees, page after page (filters of ``visible_memories``)."""
        return _pages(lambda cursor: self.visible_memories(user_id, cursor=cursor, **filters))

    def iter_history(self, user_id: str, entry_id: str, **filters: Any) -> AsyncIterator[models.Version]:
        return _pages(lambda cursor: self.memory_history(user_id, entry_id, cursor=cursor, **filters))

    async def run_tool(
        self,
        user_id: str,
        tool_call: Any,
        *,
        format: ToolFormat | None = None,
        turn_id: str | None = None,
        conversation_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.ToolExecution:
        """Run one tool call exactly as the model's API returned it (a dict or an SDK object)."""
        return await self.execute_tool(
            user_id,
            tool_call=as_mapping(tool_call),
            format=NOT_GIVEN if format is None else format,
            conversation_id=NOT_GIVEN if conversation_id is None else conversation_id,
            turn_id=turn_id,
            idempotency_key=idempotency_key,
        )

    def turn(self, user_id: str, *, turn_id: str | None = None, conversation_id: str | None = None) -> AsyncToolTurn:
        """One conversation turn: its tool calls share a turn id (``maxWritesPerTurn``)."""
        return AsyncToolTurn(self, user_id, turn_id or uuid.uuid4().hex, conversation_id)


class AsyncToolTurn:
    def __init__(self, client: AsyncEngramClient, user_id: str, turn_id: str, conversation_id: str | None) -> None:
        self.client = client
        self.user_id = user_id
        self.turn_id = turn_id
        self.conversation_id = conversation_id

    async def execute(self, tool_call: Any, *, format: ToolFormat | None = None) -> models.ToolExecution:
        return await self.client.run_tool(
            self.user_id, tool_call, format=format, turn_id=self.turn_id, conversation_id=self.conversation_id
        )

    async def results(self, tool_calls: Sequence[Any], *, format: ToolFormat | None = None) -> list[dict[str, Any]]:
        """Run every call; the tool results to append to the conversation, in order."""
        return [(await self.execute(c, format=format)).result for c in tool_calls]


async def _pages(page: Callable[[str | None], Awaitable[Any]]) -> AsyncIterator[Any]:
    cursor: str | None = None
    while True:
        result = await page(cursor)
        for item in result.items:
            yield item
        cursor = result.next_cursor
        if cursor is None:
            return
