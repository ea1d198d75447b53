"""Building API Gateway REST (v1 proxy) events from plain HTTP requests.

The local server and the tests both use this, so every local request reaches the very
handler that runs in Lambda, with the principal where the authorizer would put it.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl


def _query_parameters(query: str | Sequence[tuple[str, str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The query as API Gateway gives it: the last value of each name, and all of them."""
    pairs = parse_qsl(query, keep_blank_values=True) if isinstance(query, str) else list(query)
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for k, v in pairs:
        single[k] = v
        multi.setdefault(k, []).append(v)
    return single, multi


def _body_text(body: bytes | str | None) -> tuple[str | None, bool]:
    """The body as API Gateway passes it: text, or base64 when it is not UTF-8."""
    if body is None or body == b"":
        return None, False
    if not isinstance(body, bytes):
        return body, False
    try:
        return body.decode("utf-8"), False
    except UnicodeDecodeError:
        return base64.b64encode(body).decode(), True


def api_event(
    method: str,
    path: str,
    *,
    query: str | Sequence[tuple[str, str]] = "",
    headers: Mapping[str, str] | None = None,
    body: bytes | str | None = None,
    authorizer: Mapping[str, str] | None = None,
    source_ip: str = "127.0.0.1",
) -> dict[str, Any]:
    single, multi = _query_parameters(query)
    hdrs = dict(headers or {})
    text, is_b64 = _body_text(body)
    request_id = uuid.uuid4().hex
    return {
        "resource": "/{proxy+}",
        "path": path,
        "httpMethod": method.upper(),
        "headers": hdrs,
        "multiValueHeaders": {k: [v] for k, v in hdrs.items()},
        "queryStringParameters": single or None,
        "multiValueQueryStringParameters": multi or None,
        "pathParameters": {"proxy": path.lstrip("/")},
        "stageVariables": None,
        "requestContext": {
            "resourcePath": "/{proxy+}",
            "httpMethod": method.upper(),
            "path": path,
            "stage": "local",
            "requestId": request_id,
            "identity": {"sourceIp": source_ip},
            "authorizer": dict(authorizer) if authorizer else None,
        },
        "body": text,
        "isBase64Encoded": is_b64,
    }
