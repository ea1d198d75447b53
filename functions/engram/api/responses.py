"""Declared error responses, so the OpenAPI document tells the truth about status codes."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from engram.api.schemas import ErrorBody

_DESCRIPTIONS = {
    400: "The request is malformed or lacks a required confirmation.",
    401: "No valid API key.",
    403: "The key's role or visibility does not allow this.",
    404: "Nothing visible to this key has that id.",
    409: "A capacity limit or a concurrent change prevented the write.",
    413: "The request body is too large.",
    422: "The input breaks a validation rule, a guardrail or the sensitive-data filter.",
    429: "Too many requests or too many writes in this turn.",
}


def errors(*codes: int) -> dict[int, OpenAPIResponse]:
    """Error responses every authenticated route can give, plus the listed ones."""
    wanted = sorted({401, 403, 422, 429, *codes})
    return {
        code: {
            "description": _DESCRIPTIONS[code],
            "content": {"application/json": {"model": ErrorBody}},
        }
        for code in wanted
    }
