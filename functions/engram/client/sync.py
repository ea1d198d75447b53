"""The synchronous client: ``EngramClient(url, key)``."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
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


class EngramClient:
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
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owned = http_client is None
        self._http = http_client or httpx.Client(timeout=timeout)
        self._base = base_url.rstrip("/")
        self._auth = {"Authorization": f"Bearer {api_key}", "User-Agent": USER_AGENT}

    def __enter__(self) -> EngramClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._owned:
            self._http.close()

    def call(self, spec: Spec[M]) -> M:
        """Send one operation, retrying what is safe to retry."""
        headers = {**self._auth, **spec.headers()}
        kwargs = spec.request_kwargs()
        kwargs["headers"] = {**headers, **kwargs.get("headers", {})}
        attempt = 0
        while True:
            try:
                response = self._http.request(spec.method, self._base + spec.path, **kwargs)
            except httpx.TransportError as exc:
                if attempt >= self.retry.max_retries:
                    raise ConnectionFailed(f"Engram at {self._base} is unreachable: {exc}") from exc
                self._sleep(self.retry.delay(attempt))
                attempt += 1
                continue
            if response.is_success:
                return decode(spec, response)
            if attempt < self.retry.max_retries and self.retry.should_retry_status(
                response.status_code, error_code(response)
            ):
                self._sleep(self.retry.delay(attempt, retry_after(response)))
                attempt += 1
                continue
            raise to_error(response)

    def _pages(self, page: Callable[[str | None], Spec[S.EntryPage]]) -> Iterator[S.Entry]:
        cursor: str | None = None
        while True:
            result = self.call(page(cursor))
            yield from result.items
            cursor = result.next_cursor
            if cursor is None:
                return

    # -- service --------------------------------------------------------------------------
    def health(self) -> S.Health:
        return self.call(A.health())

    def whoami(self) -> S.Principal:
        return self.call(A.whoami())

    # -- memories -------------------------------------------------------------------------
    def remember(
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
        return self.call(A.upsert(user_id, A.upsert_body(key, value, **fields), turn_id, idempotency_key))

    def remember_many(
        self,
        user_id: str,
        entries: Sequence[Mapping[str, Any]],
        *,
        turn_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> S.BatchWriteOutcome:
        """Upsert several memories; each entry has ``key``, ``value`` and the keywords of ``remember``."""
        bodies = [A.upsert_body(**dict(e)) for e in entries]
        return self.call(A.upsert_batch(user_id, bodies, turn_id, idempotency_key))

    def list_memories(
        self,
        user_id: str,
        *,
        category: str | None = None,
        status: A.StatusFilter = "active",
        order: A.Order | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> S.EntryPage:
        return self.call(A.list_memories(user_id, category, status, order, limit, cursor))

    def iter_memories(
        self,
        user_id: str,
        *,
        category: str | None = None,
        status: A.StatusFilter = "active",
        order: A.Order | None = None,
        page_size: int = 100,
    ) -> Iterator[S.Entry]:
        """Every memory in the caller's view, page after page."""
        return self._pages(lambda c: A.list_memories(user_id, category, status, order, page_size, c))

    def visible(
        self,
        user_id: str,
        *,
        agent_id: str | None = None,
        group_id: str | None = None,
        order: A.Order | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> S.EntryPage:
        return self.call(A.visible(user_id, agent_id, group_id, order, limit, cursor))

    def iter_visible(
        self,
        user_id: str,
        *,
        agent_id: str | None = None,
        group_id: str | None = None,
        order: A.Order | None = None,
        page_size: int | None = None,
    ) -> Iterator[S.Entry]:
        return self._pages(lambda c: A.visible(user_id, agent_id, group_id, order, page_size, c))

    def search(self, user_id: str, query: str, *, limit: int = 10, category: str | None = None) -> S.SearchResponse:
        return self.call(A.search(user_id, query, limit, category))

    def count(self, user_id: str) -> int:
        return self.call(A.count(user_id)).count

    def by_category(self, user_id: str, category: str, *, limit: int = 50, cursor: str | None = None) -> S.EntryPage:
        return self.call(A.by_category(user_id, category, limit, cursor))

    def iter_category(self, user_id: str, category: str, *, page_size: int = 100) -> Iterator[S.Entry]:
        return self._pages(lambda c: A.by_category(user_id, category, page_size, c))

    def by_key(self, user_id: str, key: str) -> list[S.Entry]:
        return self.call(A.by_key(user_id, key)).items

    def forget(self, user_id: str, key: str, *, idempotency_key: str | None = None) -> list[str]:
        """Forget a key (the caller's own entries under it and global ones); the deleted ids."""
        return self.call(A.forget_key(user_id, key, idempotency_key)).deleted

    def get(self, user_id: str, entry_id: str) -> S.Entry:
        return self.call(A.get_memory(user_id, entry_id))

    def delete(self, user_id: str, entry_id: str, *, idempotency_key: str | None = None) -> S.Entry:
        return self.call(A.delete_memory(user_id, entry_id, idempotency_key))

    def history(self, user_id: str, entry_id: str, *, limit: int = 100, cursor: str | None = None) -> S.HistoryPage:
        return self.call(A.history(user_id, entry_id, limit, cursor))

    def iter_history(self, user_id: str, entry_id: str, *, page_size: int = 100) -> Iterator[S.Version]:
        cursor: str | None = None
        while True:
            page = self.call(A.history(user_id, entry_id, page_size, cursor))
            yield from page.items
            cursor = page.next_cursor
            if cursor is None:
                return

    def restore(
        self, user_id: str, entry_id: str, version: int, *, idempotency_key: str | None = None
    ) -> S.WriteOutcome:
        return self.call(A.restore(user_id, entry_id, version, idempotency_key))

    def delete_all(self, user_id: str, *, confirm: str | None = None) -> S.ErasureReceipt:
        """GDPR delete-all (admin key); refused unless ``confirm="CONFIRM"``."""
        return self.call(A.delete_all(user_id, confirm))

    # -- users ----------------------------------------------------------------------------
    def erase_user(self, user_id: str, *, confirm: str | None = None) -> S.ErasureReceipt:
        return self.call(A.erase_user(user_id, confirm))

    def export_user(self, user_id: str) -> dict[str, Any]:
        return self.call(A.export_user(user_id)).root

    def profile(self, user_id: str) -> S.Profile:
        return self.call(A.get_profile(user_id))

    def update_profile(self, user_id: str, **changes: Any) -> S.Profile:
        """Change ``name``, ``nickname`` or ``pronouns``; ``None`` clears one."""
        return self.call(A.update_profile(user_id, changes))

    def set_agent_name(self, user_id: str, name: str) -> S.Profile:
        return self.call(A.set_agent_name(user_id, name))

    def settings(self, user_id: str) -> S.Settings:
        return self.call(A.get_settings(user_id))

    def update_settings(self, user_id: str, **changes: Any) -> S.Settings:
        return self.call(A.update_settings(user_id, changes))

    def properties(self, user_id: str) -> dict[str, str]:
        return self.call(A.get_properties(user_id)).properties

    def merge_properties(self, user_id: str, properties: Mapping[str, str]) -> dict[str, str]:
        return self.call(A.merge_properties(user_id, properties)).properties

    def delete_properties(
        self, user_id: str, keys: Sequence[str] | None = None, *, delete_all: bool = False
    ) -> dict[str, str]:
        return self.call(A.delete_properties(user_id, keys, delete_all)).properties

    # -- agents ---------------------------------------------------------------------------
    def agent_config(self, agent_id: str) -> AgentConfig:
        return self.call(A.get_agent_config(agent_id))

    def put_agent_config(self, agent_id: str, config: AgentConfig) -> AgentConfig:
        return self.call(A.put_agent_config(agent_id, config))

    # -- LLM tools ------------------------------------------------------------------------
    def tools(self, format: A.ToolFormatName = "openai") -> ToolList:
        """The memory tools this agent may use, ready to hand to the model's API."""
        return self.call(A.tools(format))

    def execute_tool(
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
        return self.call(
            A.execute_tool(user_id, as_mapping(tool_call), format, turn_id, conversation_id, idempotency_key)
        )

    def turn(self, user_id: str, *, turn_id: str | None = None, conversation_id: str | None = None) -> ToolTurn:
        """One conversation turn: its tool calls share a turn id (``maxWritesPerTurn``)."""
        return ToolTurn(self, user_id, turn_id or uuid.uuid4().hex, conversation_id)


class ToolTurn:
    def __init__(self, client: EngramClient, user_id: str, turn_id: str, conversation_id: str | None) -> None:
        self.client = client
        self.user_id = user_id
        self.turn_id = turn_id
        self.conversation_id = conversation_id

    def execute(self, tool_call: Any, *, format: A.ToolFormatName | None = None) -> ToolExecution:
        return self.client.execute_tool(
            self.user_id, tool_call, format=format, turn_id=self.turn_id, conversation_id=self.conversation_id
        )

    def results(self, tool_calls: Sequence[Any], *, format: A.ToolFormatName | None = None) -> list[dict[str, Any]]:
        """Run every call; the tool results to append to the conversation, in order."""
        return [self.execute(c, format=format).result for c in tool_calls]
