"""Declared error responses, so the OpenAPI document tells the truth about status codes."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from engram.api.schemas import ErrorBody

_DESCRIPTIONS = {
    400: "The body is not valid JSON, or a required confirmation is missing.",
    401: "No valid API key.",
    403: "The key's role or visibility does not allow this.",
    404: "Nothing visible to this key has that id, or no route matches the path.",
    409: "A capacity limit or a concurrent change prevented the write.",
    413: "The request body is too large.",
    415: "The request body is not JSON (send 'Content-Type: application/json').",
    422: "The input breaks a validation rule, a guardrail or the sensitive-data filter.",
    429: "Too many requests or too many writes in this turn.",
    503: "A backing service is unavailable or busy; retry shortly.",
}


def errors(*codes: int, ok: int = 200, ok_description: str = "Success.") -> dict[int, OpenAPIResponse]:
    """The success response plus the errors every authenticated route can give and the listed ones.

    Powertools documents only the responses listed here once any are given; the success
    one carries no content so that its schema still comes from the route's return type.
    """
    out: dict[int, OpenAPIResponse] = {ok: {"description": ok_description}}
    # Any route can meet the gateway's checks (key, rate, size, JSON) or an unmatchable path.
    for code in sorted({400, 401, 403, 404, 413, 415, 422, 429, *codes}):
        out[code] = {"description": _DESCRIPTIONS[code], "content": {"application/json": {"model": ErrorBody}}}
    return out
