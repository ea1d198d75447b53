"""Domain errors: the only exceptions that cross layers.

Each carries a stable machine-readable ``code`` and the HTTP status the API maps it to,
so one exception handler can answer every one of them with the same error body.
"""

from __future__ import annotations

from typing import Any, ClassVar


class EngramError(Exception):
    code: ClassVar[str] = "engram_error"
    status: ClassVar[int] = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class ValidationFailed(EngramError):
    code = "validation_error"
    status = 422


class NotFound(EngramError):
    code = "not_found"
    status = 404


class Unauthenticated(EngramError):
    code = "unauthenticated"
    status = 401


class Forbidden(EngramError):
    code = "forbidden"
    status = 403


class GuardrailViolation(EngramError):
    """A write breaks one of the calling agent's guardrails."""

    status = 422

    # Write-rate breaches are "slow down", not "fix your input".
    _STATUS_BY_CODE: ClassVar[dict[str, int]] = {"too_many_writes": 429}

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message, **details)
        self.code = code  # type: ignore[misc]
        self.status = self._STATUS_BY_CODE.get(code, 422)  # type: ignore[misc]


class SensitiveDataRejected(EngramError):
    code = "sensitive_data"
    status = 422


class CapacityReached(EngramError):
    code = "capacity_reached"
    status = 409


class VersionConflict(EngramError):
    """Another writer changed the same identity first; the caller may retry."""

    code = "version_conflict"
    status = 409


class UserErased(EngramError):
    """A write that began before the user was erased: erasure wins over it."""

    code = "user_erased"
    status = 409


class ConfirmationRequired(EngramError):
    code = "confirmation_required"
    status = 400


class MemoryDisabled(EngramError):
    code = "memory_disabled"
    status = 403


class ToolNotAllowed(EngramError):
    """The agent's configuration does not give it this memory tool."""

    code = "tool_not_allowed"
    status = 403


class RateLimited(EngramError):
    code = "rate_limited"
    status = 429


class Throttled(EngramError):
    """The backing store throttled us; safe to retry later."""

    code = "throttled"
    status = 503


class StoreUnavailable(EngramError):
    code = "store_unavailable"
    status = 503


class PayloadTooLarge(EngramError):
    code = "payload_too_large"
    status = 413


class EmbedderUnavailable(EngramError):
    """The configured embedding model cannot be loaded (missing extra, wrong file)."""

    code = "embedder_unavailable"
    status = 503


class ProposalNotOpen(EngramError):
    """The proposal can no longer be decided: it was superseded, expired or decided."""

    status = 409

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message, **details)
        self.code = code  # type: ignore[misc]
