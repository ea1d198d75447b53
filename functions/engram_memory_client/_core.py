"""What the sync and async clients share: the operation table's shape, how a call becomes
an HTTP request, the retry policy and error decoding. The two senders only differ in
whether they wait for httpx synchronously or asynchronously."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter

from engram_memory_client.errors import APIError, ConnectionFailed, error_for

USER_AGENT = "engram-memory-client"
IDEMPOTENCY_HEADER = "Idempotency-Key"
TURN_HEADER = "Engram-Turn-Id"


class NotGiven:
    """An optional body field the caller left out (``None`` would send a JSON null)."""

    _instance: NotGiven | None = None

    def __new__(cls) -> NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


NOT_GIVEN = NotGiven()


@dataclass(frozen=True)
class Operation:
    """One API operation: how a method's arguments map onto the request, and what comes back."""

    operation_id: str
    method: str
    path: str
    # (argument name, wire name, where: path | query | header | body)
    params: tuple[tuple[str, str, str], ...]
    body: type[BaseModel] | None
    answer: Any
    writes: bool


def seg(value: object) -> str:
    """One path segment, escaped (keys may hold spaces or slashes)."""
    return quote(str(value), safe="")


def plain(value: Any) -> Any:
    """Models and sequences as JSON-ready data, by the API's field names."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    params: dict[str, Any]
    headers: dict[str, str]
    content: bytes | None


def build_request(op: Operation, args: Mapping[str, Any]) -> Request:
    """The HTTP request for one call; a body that breaks the API's schema fails here, unsent."""
    path = op.path
    params: dict[str, Any] = {}
    headers: dict[str, str] = {}
    body: dict[str, Any] = {}
    for attr, wire, where in op.params:
        value = args.get(attr)
        if where == "path":
            path = path.replace("{" + wire + "}", seg(value))
        elif value is NOT_GIVEN:
            continue
        elif where == "body":
            # None is sent as null: a PATCH clears the field with it.
            body[wire] = plain(value)
        elif value is None:
            continue
        elif where == "query":
            params[wire] = list(value) if isinstance(value, Sequence) and not isinstance(value, str) else value
        else:
            headers[wire] = str(value)
    content = None
    if op.body is not None:
        model = op.body.model_validate(body)
        content = model.model_dump_json(by_alias=True, exclude_unset=True).encode()
        headers["Content-Type"] = "application/json"
    if op.writes:
        # The same key on every retry of this call: the service applies the write once.
        headers[IDEMPOTENCY_HEADER] = args.get("idempotency_key") or uuid.uuid4().hex
    return Request(op.method, path, params, headers, content)


@lru_cache(maxsize=256)
def _adapter(answer: Any) -> TypeAdapter[Any]:
    return TypeAdapter(answer)


def decode(op: Operation, response: httpx.Response) -> Any:
    # Unknown fields are ignored so an older client keeps working against a newer service.
    return _adapter(op.answer).validate_json(response.content, extra="ignore")


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter on 429 (rate limited), 5xx and lost connections."""

    max_retries: int = 3
    base_delay: float = 0.25
    max_delay: float = 8.0

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay)
        return random.uniform(0, min(self.max_delay, self.base_delay * 2**attempt))

    def should_retry_status(self, status: int, code: str | None) -> bool:
        if status == 429:
            # A turn's write budget does not refill by waiting: too_many_writes is final.
            return code != "too_many_writes"
        return status >= 500


def retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(when.tzinfo)).total_seconds())


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def error_code(response: httpx.Response) -> str | None:
    body = _body(response)
    return body.get("code") if isinstance(body, dict) else None


def to_error(response: httpx.Response) -> APIError:
    body = _body(response)
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        details = body.get("details")
        return error_for(
            response.status_code,
            body["code"],
            str(body.get("message", "")),
            details if isinstance(details, dict) else {},
        )
    return error_for(response.status_code, f"http_{response.status_code}", response.text[:500] or "no body")


class _Base:
    def __init__(self, base_url: str, api_key: str, retry: RetryPolicy | None) -> None:
        self.retry = retry or RetryPolicy()
        self.base_url = base_url.rstrip("/")
        self._auth = {"Authorization": f"Bearer {api_key}", "User-Agent": USER_AGENT}

    def _kwargs(self, request: Request) -> dict[str, Any]:
        return {"params": request.params, "headers": {**self._auth, **request.headers}, "content": request.content}

    def _unreachable(self, exc: Exception) -> ConnectionFailed:
        return ConnectionFailed(f"Engram at {self.base_url} is unreachable: {exc}")


class SyncSender(_Base):
    """Sends operations with ``httpx.Client``, retrying what is safe to retry."""

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
        super().__init__(base_url, api_key, retry)
        self._sleep = sleep
        self._owned = http_client is None
        self._http = http_client or httpx.Client(timeout=timeout)

    def close(self) -> None:
        if self._owned:
            self._http.close()

    def _send(self, op: Operation, args: Mapping[str, Any]) -> Any:
        request = build_request(op, args)
        kwargs = self._kwargs(request)
        attempt = 0
        while True:
            try:
                response = self._http.request(request.method, self.base_url + request.path, **kwargs)
            except httpx.TransportError as exc:
                if attempt >= self.retry.max_retries:
                    raise self._unreachable(exc) from exc
                self._sleep(self.retry.delay(attempt))
                attempt += 1
                continue
            if response.is_success:
                return decode(op, response)
            if attempt < self.retry.max_retries and self.retry.should_retry_status(
                response.status_code, error_code(response)
            ):
                self._sleep(self.retry.delay(attempt, retry_after(response)))
                attempt += 1
                continue
            raise to_error(response)


class AsyncSender(_Base):
    """Sends operations with ``httpx.AsyncClient``, retrying what is safe to retry."""

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
        super().__init__(base_url, api_key, retry)
        self._sleep = sleep
        self._owned = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        if self._owned:
            await self._http.aclose()

    async def _send(self, op: Operation, args: Mapping[str, Any]) -> Any:
        request = build_request(op, args)
        kwargs = self._kwargs(request)
        attempt = 0
        while True:
            try:
                response = await self._http.request(request.method, self.base_url + request.path, **kwargs)
            except httpx.TransportError as exc:
                if attempt >= self.retry.max_retries:
                    raise self._unreachable(exc) from exc
                await self._sleep(self.retry.delay(attempt))
                attempt += 1
                continue
            if response.is_success:
                return decode(op, response)
            if attempt < self.retry.max_retries and self.retry.should_retry_status(
                response.status_code, error_code(response)
            ):
                await self._sleep(self.retry.delay(attempt, retry_after(response)))
                attempt += 1
                continue
            raise to_error(response)


def as_mapping(tool_call: Any) -> dict[str, Any]:
    """A model's tool call as a dict: SDK objects (OpenAI, Anthropic) are pydantic models."""
    if isinstance(tool_call, Mapping):
        return dict(tool_call)
    dump = getattr(tool_call, "model_dump", None)
    if callable(dump):
        data = dump(mode="json", exclude_none=True)
        if isinstance(data, dict):
            return data
    raise TypeError(f"A tool call must be a mapping or a pydantic object, not {type(tool_call).__name__}")
