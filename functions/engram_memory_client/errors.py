"""Exceptions of the Python client, one class per family of the API's error codes.

Every API error carries the body the service sends (``code``, ``message``, ``details``)
plus the HTTP status, so callers can branch on the class or on the exact ``code``.
"""

from __future__ import annotations

from typing import Any


class EngramClientError(Exception):
    """Anything the client raises."""


class ConnectionFailed(EngramClientError):
    """The service could not be reached (after the configured retries)."""


class APIError(EngramClientError):
    def __init__(self, status: int, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"[{status} {code}] {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}


class AuthenticationError(APIError):
    """401: no key, or an unknown or revoked one."""


class PermissionDenied(APIError):
    """403: the key's role, the visibility rules, the user's memory switch or the agent's tools forbid it."""


class NotFoundError(APIError):
    """404: nothing visible to this key under that id, or no such route."""


class InvalidRequest(APIError):
    """400/422: malformed JSON, a validation error, a missing confirmation."""


class GuardrailError(APIError):
    """A guardrail of the agent: key or value too long, category not allowed, too many writes this turn."""


class SensitiveDataError(APIError):
    """422: the value looks like a secret, a government id, a card or a bank account; it was not stored."""


class ConflictError(APIError):
    """409: the user is at capacity, or concurrent writers kept colliding."""


class PayloadTooLarge(APIError):
    """413: the request body exceeds the service's limit."""


class RateLimitError(APIError):
    """429: too many requests for this key (retried automatically before this is raised)."""


class ServiceUnavailable(APIError):
    """503: the store, the index or the embedder is throttled or down (retried automatically first)."""


class ServerError(APIError):
    """5xx: a fault on the service's side (retried automatically first)."""


CODE_FAMILIES: dict[str, type[APIError]] = {
    "unauthenticated": AuthenticationError,
    "forbidden": PermissionDenied,
    "memory_disabled": PermissionDenied,
    "tool_not_allowed": PermissionDenied,
    "not_found": NotFoundError,
    "route_not_found": NotFoundError,
    "validation_error": InvalidRequest,
    "malformed_json": InvalidRequest,
    "confirmation_required": InvalidRequest,
    "key_too_long": GuardrailError,
    "value_too_long": GuardrailError,
    "category_not_allowed": GuardrailError,
    "category_disabled_by_user": GuardrailError,
    "too_many_writes": GuardrailError,
    "sensitive_data": SensitiveDataError,
    "capacity_reached": ConflictError,
    "version_conflict": ConflictError,
    "payload_too_large": PayloadTooLarge,
    "rate_limited": RateLimitError,
    "throttled": ServiceUnavailable,
    "store_unavailable": ServiceUnavailable,
    "embedder_unavailable": ServiceUnavailable,
    "internal_error": ServerError,
}

_STATUS_FAMILIES: dict[int, type[APIError]] = {
    400: InvalidRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLarge,
    422: InvalidRequest,
    429: RateLimitError,
    503: ServiceUnavailable,
}


def error_for(status: int, code: str, message: str, details: dict[str, Any] | None = None) -> APIError:
    """The exception for an error response; unknown codes fall back on the status."""
    cls = CODE_FAMILIES.get(code) or _STATUS_FAMILIES.get(status) or (ServerError if status >= 500 else APIError)
    return cls(status, code, message, details)
