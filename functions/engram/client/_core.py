"""What the sync and async clients share: request specs, retry policy, error decoding.

Every API operation is a function returning a ``Spec`` (method, path, query, body, the
pydantic model of the answer, whether it writes); the two clients only differ in how
they send it.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from engram.client.errors import APIError, error_for

M = TypeVar("M", bound=BaseModel)

USER_AGENT = "engram-python"
IDEMPOTENCY_HEADER = "Idempotency-Key"
TURN_HEADER = "Engram-Turn-Id"


def seg(value: str) -> str:
    """One path segment, escaped (keys may hold spaces or slashes)."""
    return quote(value, safe="")


@dataclass(frozen=True)
class Spec(Generic[M]):
    method: str
    path: str
    model: type[M]
    params: Mapping[str, Any] = field(default_factory=dict)
    body: Any = None
    # Writes carry an Idempotency-Key, the same on every retry of one call.
    write: bool = False
    turn_id: str | None = None
    idempotency_key: str | None = None

    def headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        if self.write:
            headers[IDEMPOTENCY_HEADER] = self.idempotency_key or uuid.uuid4().hex
        if self.turn_id is not None:
            headers[TURN_HEADER] = self.turn_id
        return headers

    def request_kwargs(self) -> dict[str, Any]:
        params = {k: v for k, v in self.params.items() if v is not None}
        kwargs: dict[str, Any] = {"params": params}
        if self.body is not None:
            kwargs["content"] = json.dumps(self.body, default=_json_default)
            kwargs["headers"] = {"Content-Type": "application/json"}
        return kwargs


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    raise TypeError(f"Cannot send {type(value).__name__} as JSON")


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


def error_code(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


def to_error(response: httpx.Response) -> APIError:
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        details = body.get("details")
        return error_for(
            response.status_code,
            body["code"],
            str(body.get("message", "")),
            details if isinstance(details, dict) else {},
        )
    return error_for(response.status_code, f"http_{response.status_code}", response.text[:500] or "no body")


def decode(spec: Spec[M], response: httpx.Response) -> M:
    # Unknown fields are ignored so an older client keeps working against a newer service.
    return spec.model.model_validate_json(response.content, extra="ignore")


def as_mapping(tool_call: Any) -> Mapping[str, Any]:
    if isinstance(tool_call, Mapping):
        return tool_call
    dump = getattr(tool_call, "model_dump", None)  # the OpenAI and Anthropic SDKs return pydantic objects
    if callable(dump):
        data = dump(mode="json", exclude_none=True)
        if isinstance(data, dict):
            return data
    raise TypeError(f"A tool call must be a mapping or a pydantic object, not {type(tool_call).__name__}")
