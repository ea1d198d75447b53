"""What API Gateway does in front of the ``api`` Lambda, done in-process.

Authorises the key (as the Lambda authorizer does), applies a per-key request rate
and the body size limit (as stage throttling and the gateway do), builds the proxy
event and calls the same handler. The local server and in-process tests share it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engram.api.app import error_event
from engram.api.auth import principal_context
from engram.container import Engram
from engram.domain.errors import Unauthenticated
from engram.handlers import api as api_handler
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.local.rate_limit import TokenBuckets

PUBLIC_PATHS = ("/health", "/docs")


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class LocalGateway:
    def __init__(self, engram: Engram, limiter: TokenBuckets | None = None) -> None:
        self.engram = engram
        # engram serve --workers hands every process the same shared buckets.
        self.limiter = limiter or TokenBuckets()

    def handle(
        self,
        method: str,
        path: str,
        *,
        query: str | Sequence[tuple[str, str]] = "",
        headers: Mapping[str, str] | None = None,
        body: bytes | str | None = None,
    ) -> Reply:
        headers = {k.lower(): v for k, v in (headers or {}).items()}
        limit = self.engram.settings.max_body_bytes
        if body is not None and len(body) > limit:
            return _reply(
                error_event(
                    413,
                    "payload_too_large",
                    f"The request body exceeds {limit} bytes.",
                    {"maxBodyBytes": limit},
                )
            )
        authorizer = None
        if not path.startswith(PUBLIC_PATHS):
            try:
                principal = self.engram.keys.authenticate(headers.get("authorization"))
            except Unauthenticated as exc:
                return _reply(error_event(401, exc.code, exc.message))
            if not self._admit(principal.key_id or principal.agent_id):
                return _reply(
                    error_event(
                        429,
                        "rate_limited",
                        "Too many requests for this key; slow down.",
                        {"requestsPerSecond": self.engram.settings.requests_per_second_per_key},
                    )
                )
            authorizer = principal_context(principal)
        event = api_event(method, path, query=query, headers=headers, body=body, authorizer=authorizer)
        return _reply(api_handler.handler(event, LocalContext()))

    def _admit(self, key: str) -> bool:
        return self.limiter.admit(key, self.engram.settings.requests_per_second_per_key)


def _reply(result: Mapping[str, Any]) -> Reply:
    headers = {str(k): str(v) for k, v in (result.get("headers") or {}).items()}
    for k, values in (result.get("multiValueHeaders") or {}).items():
        headers[str(k)] = ", ".join(str(v) for v in values)
    raw = result.get("body") or ""
    if result.get("isBase64Encoded"):
        import base64

        data = base64.b64decode(raw)
    else:
        data = str(raw).encode()
    return Reply(int(result["statusCode"]), headers, data)
