"""The range of times Engram accepts (issue #17 item 11).

Every time the API accepts must round-trip through every store: fixed-width ISO strings
in SQLite and DynamoDB, epoch seconds for DynamoDB's TTL, arithmetic such as "observed
time + TTL". Years 1 and 9999 with a UTC offset overflow Python's datetime when moved to
UTC, and years below 1000 do not print as four digits; neither is a plausible time for
a fact about a person. So a time outside [1900-01-01, 3000-01-01) UTC is refused with a
clear 422 at the edge, and the service checks again for callers that skip the API.
"""

from __future__ import annotations

from datetime import UTC, datetime

from engram.domain.errors import ValidationFailed

EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(3000, 1, 1, tzinfo=UTC)  # exclusive


def time_problem(value: datetime) -> str | None:
    """Why ``value`` is not an acceptable time, or None when it is.

    Aware datetimes compare without converting to UTC, so the check itself never
    overflows at the ends of the calendar.
    """
    if value.tzinfo is None or value.utcoffset() is None:
        return "must carry a UTC offset (e.g. 2026-01-15T10:30:00Z)"
    if not EARLIEST <= value < LATEST:
        return "must be between 1900-01-01T00:00:00Z and 2999-12-31T23:59:59Z"
    return None


def check_time(value: datetime | None, field: str) -> None:
    if value is None:
        return
    problem = time_problem(value)
    if problem is not None:
        raise ValidationFailed(f"{field} {problem}.", field=field)


def bounded(value: datetime) -> datetime:
    """Pydantic after-validator for request fields: a ValueError becomes a 422."""
    problem = time_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def check_validity(valid_from: datetime | None, valid_to: datetime | None) -> None:
    """A validity interval ends no earlier than it starts (design item 1, bi-temporal)."""
    if valid_from is not None and valid_to is not None and valid_to < valid_from:
        raise ValidationFailed(
            "validTo must not be earlier than validFrom.", field="validTo", validFrom=valid_from.isoformat()
        )
