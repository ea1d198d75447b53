"""The asynchronous client: ``AsyncEngramClient(url, key)``, the same surface awaited."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import httpx

from engram.api import schemas as S
from engram.api.tool_schemas import ToolExecution, ToolList
from engram.client import _api as A
from engram.client._core import (
    USER_AGENT,
    M,
    RetryPolicy,
    Spec,
    as_mapping,
    decode,
    error_code,
    retry_after,
    to_error,
)
from engram.client.errors import ConnectionFailed
from engram.domain.agent_config import AgentConfig


class AsyncEngramClient:
    """Talks to an Engram service over HTTPS (or ``engram serve`` on loopback).

    Retries 429 (rate limited), 5xx and lost connections with exponential backoff; every
    write carries an ``Idempotency-Key`` that stays the same across its retries. Errors
    raise the ``engram.client.errors`` class of their code's family.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        http_client: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owned = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        self._base = base_url.rstrip("/")
        self._auth = {"Authorization": f"Bearer {api_key}", "User-Agent": USER_AGENT}

    async def __aenter__(self) -> AsyncEngramClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owned:
            await self._http.aclose()

    async def call(self, spec: Spec[M]) -> M:
        """Send one operation, retrying what is safe to retry."""
        headers = {**self._auth, **spec.headers()}
        kwargs = spec.request_kwargs()
        kwargs["headers"] = {**headers, **kwargs.get("headers", {})}
        attempt = 0
        while True:
            try:
                response = await self._http.request(spec.method, self._base + spec.path, **kwargs)
            except httpx.TransportError as exc:
                if attempt >= self.retry.max_retries:
                    raise ConnectionFailed(f"Engram at {self._base} is unreachable: {exc}") from exc
                await self._sleep(self.retry.delay(attempt))
                attempt += 1
                continue
            if response.is_success:
                return decode(spec, response)
            if attempt < self.retry.max_retries and self.retry.should_retry_status(
                response.status_code, error_code(response)
            ):
                await self._sleep(self.retry.delay(attempt, retry_after(response)))
                attempt += 1
                continue
            raise to_error(response)

    async def _pages(self, page: Callable[[str | None], Spec[S.EntryPage]]) -> AsyncIterator[S.Entry]:
        cursor: str | None = None
        while True:
            result = await self.call(page(cursor))
            for item in result.items:
                yield item
            cursor = result.next_cursor
            if cursor is None:
                return

    # -- service --------------------------------------------------------------------------
    async def health(self) -> S.Health:
        return await self.call(A.health())

    async def whoami(self) -> S.Principal:
        return await self.call(A.whoami())

    # -- memories -------------------------------------------------------------------------
    async def remember(
        self,
        user_id: str,
        key: str,
        value: str,
        *,
        turn_id: str | None = None,
        idempotency_key: str | None = None,
        **fields: Any,
    ) -> S.WriteOutcome:
        """Upsert one memory (``category``, ``visibility``, ``statement``, ``group_ids``... as keywords)."""
        return await self.call(A.upsert(user_id, A.upsert_body(key, value, **fields), turn_id, idempotency_key))

    async def remember_many(
        self,
        user_id: str,
        entries: Sequence[Mapping[str, Any]],
        *,
        turn_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> S.BatchWriteOutcome:
        """Upsert several memories; each entry has ``key``, ``value`` and the keywords of ``remember``."""
        bodies = [A.upsert_body(**dict(e)) for e in entries]
        return await self.call(A.upsert_batch(user_id, bodies, turn_id, idempotency_key))

    async def list_memories(
        self,
        user_id: str,
        *,
        category: str | None = None,
        status: A.StatusFilter = "active",
        order: A.Order | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> S.EntryPage:
        return await self.call(A.list_memories(user_id, category, status, order, limit, cursor))

    def iter_memories(
        self,
        user_id: str,
        *,
        category: str | None = None,
        status: A.StatusFilter = "active",
        order: A.Order | None = None,
        page_size: int = 100,
    ) -> AsyncIterator[S.Entry]:
        """Every memory in the caller's view, page after page."""
        return self._pages(lambda c: A.list_memories(user_id, category, status, order, page_size, c))

    async def visible(
        self,
        user_id: str,
        *,
        agent_id: str | None = None,
        group_id: str | None = None,
        order: A.Order | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> S.EntryPage:
        return await self.call(A.visible(user_id, agent_id, group_id, order, limit, cursor))

    def iter_visible(
        self,
        user_id: str,
        *,
        agent_id: str | None = None,
        group_id: str | None = None,
        order: A.Order | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[S.Entry]:
        return self._pages(lambda c: A.visible(user_id, agent_id, group_id, order, page_size, c))

    async def search(
        self, user_id: str, query: str, *, limit: int = 10, category: str | None = None
    ) -> S.SearchResponse:
        return await self.call(A.search(user_id, query, limit, category))

    async def count(self, user_id: str) -> int:
        return (await self.call(A.count(user_id))).count

    async def by_category(
        self, user_id: str, category: str, *, limit: int = 50, cursor: str | None = None
    ) -> S.EntryPage:
        return await self.call(A.by_category(user_id, category, limit, cursor))

    def iter_category(self, user_id: str, category: str, *, page_size: int = 100) -> AsyncIterator[S.Entry]:
        return self._pages(lambda c: A.by_category(user_id, category, page_size, c))

    async def by_key(self, user_id: str, key: str) -> list[S.Entry]:
        return (await self.call(A.by_key(user_id, key))).items

    async def forget(self, user_id: str, key: str, *, idempotency_key: str | None = None) -> list[str]:
        """Forget a key (the caller's own entries under it and global ones); the deleted ids."""
        return (await self.call(A.forget_key(user_id, key, idempotency_key))).deleted

    async def get(self, user_id: str, entry_id: str) -> S.Entry:
        return await self.call(A.get_memory(user_id, entry_id))

    async def delete(self, user_id: str, entry_id: str, *, idempotency_key: str | None = None) -> S.Entry:
        return await self.call(A.delete_memory(user_id, entry_id, idempotency_key))

    async def history(
        self, user_id: str, entry_id: str, *, limit: int = 100, cursor: str | None = None
    ) -> S.HistoryPage:
        return await self.call(A.history(user_id, entry_id, limit, cursor))

    async def iter_history(self, user_id: str, entry_id: str, *, page_size: int = 100) -> AsyncIterator[S.Version]:
        cursor: str | None = None
        while True:
            page = await self.call(A.history(user_id, entry_id, page_size, cursor))
            for item in page.items:
                yield item
            cursor = page.next_cursor
            if cursor is None:
                return

    async def restore(
        self, user_id: str, entry_id: str, version: int, *, idempotency_key: str | None = None
    ) -> S.WriteOutcome:
        return await self.call(A.restore(user_id, entry_id, version, idempotency_key))

    async def delete_all(self, user_id: str, *, confirm: str | None = None) -> S.ErasureReceipt:
        """GDPR delete-all (admin key); refused unless ``confirm="CONFIRM"``."""
        return await self.call(A.delete_all(user_id, confirm))

    # -- users ----------------------------------------------------------------------------
    async def erase_user(self, user_id: str, *, confirm: str | None = None) -> S.ErasureReceipt:
        return await self.call(A.erase_user(user_id, confirm))

    async def export_user(self, user_id: str) -> dict[str, Any]:
        return (await self.call(A.export_user(user_id))).root

    async def profile(self, user_id: str) -> S.Profile:
        return await self.call(A.get_profile(user_id))

    async def update_profile(self, user_id: str, **changes: Any) -> S.Profile:
        """Change ``name``, ``nickname`` or ``pronouns``; ``None`` clears one."""
        return await self.call(A.update_profile(user_id, changes))

    async def set_agent_name(self, user_id: str, name: str) -> S.Profile:
        return await self.call(A.set_agent_name(user_id, name))

    async def settings(self, user_id: str) -> S.Settings:
        return await self.call(A.get_settings(user_id))

    async def update_settings(self, user_id: str, **changes: Any) -> S.Settings:
        return await self.call(A.update_settings(user_id, changes))

    async def properties(self, user_id: str) -> dict[str, str]:
        return (await self.call(A.get_properties(user_id))).properties

    async def merge_properties(self, user_id: str, properties: Mapping[str, str]) -> dict[str, str]:
        return (await self.call(A.merge_properties(user_id, properties))).properties

    async def delete_properties(
        self, user_id: str, keys: Sequence[str] | None = None, *, delete_all: bool = False
    ) -> dict[str, str]:
        return (await self.call(A.delete_properties(user_id, keys, delete_all))).properties

    # -- agents ---------------------------------------------------------------------------
    async def agent_config(self, agent_id: str) -> AgentConfig:
        return await self.call(A.get_agent_config(agent_id))

    async def put_agent_config(self, agent_id: str, config: AgentConfig) -> AgentConfig:
        return await self.call(A.put_agent_config(agent_id, config))

    # -- LLM tools ------------------------------------------------------------------------
    async def tools(self, format: A.ToolFormatName = "openai") -> ToolList:
        """The memory tools this agent may use, ready to hand to the model's API."""
        return await self.call(A.tools(format))

    async def execute_tool(
        self,
        user_id: str,
        tool_call: Any,
        *,
        format: A.ToolFormatName | None = None,
        turn_id: str | None = None,
        conversation_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> ToolExecution:
        """Run one tool call exactly as the model's API returned it (dict or SDK object)."""
        return await self.call(
            A.execute_tool(user_id, as_mapping(tool_call), format, turn_id, conversation_id, idempotency_key)
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

    async def execute(self, tool_call: Any, *, format: A.ToolFormatName | None = None) -> ToolExecution:
        return await self.client.execute_tool(
            self.user_id, tool_call, format=format, turn_id=self.turn_id, conversation_id=self.conversation_id
        )

    async def results(
        self, tool_calls: Sequence[Any], *, format: A.ToolFormatName | None = None
    ) -> list[dict[str, Any]]:
        """Run every call in order (a turn's writes are counted in order); the results to append."""
        return [(await self.execute(c, format=format)).result for c in tool_calls]
